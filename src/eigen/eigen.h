/* Generalized eigenpairs of one pair of diagonal blocks (A~, M~) of seed 003
 * (23): A~ w_l = lambda_l M~ w_l with W^T M~ W = I (transpose, never the
 * conjugate transpose, also for complex symmetric data: seed 003 (19)).
 * PSCR needs only a few components of each eigenvector ((24)-(28)): the
 * caller names the rows it wants and the full eigenvector matrix is never
 * stored (O(m) memory per eigenvector, O(m^2) time per block).
 *
 * Thread-safe. Called inside an OpenMP parallel region (the plan's loop over
 * blocks), a large block's eigenvectors run as tasks, in chunks of the
 * spectrum that the idle threads of the team pick up; the result does not
 * depend on the thread count. Outside a parallel region, one thread. No
 * printing. */
#ifndef PSCR_EIGEN_H
#define PSCR_EIGEN_H

#include <stddef.h>

#include <pscr/core.h>

/**
 * @param dtype   PSCR_F64 (real symmetric A, SPD M) or PSCR_C128 (complex symmetric).
 * @param m       block order (>= 1).
 * @param a_diag  m entries; a_off m-1 entries (A(i,i+1) = A(i+1,i)).
 * @param m_diag  m entries; m_off m-1 entries, or NULL when M~ is diagonal.
 * @param nrows   number of eigenvector components wanted per eigenvector.
 * @param rows    nrows row indices in [0, m) (any order, repeats allowed).
 * @param lambda  out: m eigenvalues (dtype), in ascending order of real part.
 * @param comp    out: comp[l * nrows + r] = (w_l)[rows[r]] (dtype), w_l M~-normalized.
 * @return PSCR_ERR_INVALID_ARGUMENT when a real M~ is not positive definite (or a
 *         complex M~ is singular: its factorization M~ = Z Z^T breaks down),
 *         PSCR_ERR_NOT_CONVERGED when an iteration fails, PSCR_ERR_NONFINITE for NaN/Inf,
 *         PSCR_ERR_OUT_OF_MEMORY. */
pscr_status pscr_eigen_block(pscr_dtype dtype, size_t m, const void *a_diag, const void *a_off,
                             const void *m_diag, const void *m_off, size_t nrows,
                             const size_t *rows, void *lambda, void *comp);

#endif
