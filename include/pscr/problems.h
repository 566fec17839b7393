/* libpscr problem builders: factor matrices of the seed paper's test problems. */
#ifndef PSCR_PROBLEMS_H
#define PSCR_PROBLEMS_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Poisson, piecewise linear FEM, Dirichlet: seed 003 eq. (31). M is diagonal.
 * @param h n+1 mesh steps between consecutive nodes, boundary nodes included.
 * Outputs: a_diag, m_diag (n entries), a_off (n-1 entries). */
pscr_status pscr_factor_poisson_fem(size_t n, const double *h, double *a_diag, double *a_off,
                                    double *m_diag);

/** Helmholtz, bilinear FEM, second-order absorbing boundary: seed 003 eqs. (33)-(35),
 * complex symmetric. The n unknowns include both boundary nodes and h has n-1 entries.
 * Outputs are PSCR_C128 data: interleaved (re, im) pairs. */
pscr_status pscr_factor_helmholtz_abc(size_t n, const double *h, double omega, double *a_diag,
                                      double *a_off, double *m_diag, double *m_off);

#ifdef __cplusplus
}
#endif
#endif
