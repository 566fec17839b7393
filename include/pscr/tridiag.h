/* libpscr tridiagonal solvers: batched, shifted, and stable pivoting variants. */
#ifndef PSCR_TRIDIAG_H
#define PSCR_TRIDIAG_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  PSCR_TD_AUTO = 0,         /* library picks (stable choice when the matrix is not known to be safe) */
  PSCR_TD_THOMAS,           /* LU without pivoting */
  PSCR_TD_CR,               /* cyclic (odd-even) reduction */
  PSCR_TD_PCR,              /* parallel cyclic reduction */
  PSCR_TD_CR_PCR_THOMAS,    /* the staged A/B/C/D engine of the PSCR paper */
  PSCR_TD_PCR_THOMAS,       /* multicore PCR + Thomas with the analytic switch point */
  PSCR_TD_SPIKE_DIAG_PIVOT, /* SPIKE + Erway-Marcia 1x1/2x2 diagonal pivoting */
  PSCR_TD_GSPIKE,           /* SPIKE + Givens QR with singular-block modification */
  PSCR_TD_LAPACK            /* LAPACK gtsv, partial pivoting (CPU reference) */
} pscr_td_algorithm;

/** Number of pscr_td_algorithm values (an addition to API.md). */
#define PSCR_TD_ALGORITHM_COUNT 9

typedef struct {
  pscr_td_algorithm used; /* what AUTO resolved to */
  int partitions;         /* SPIKE partitions used (0 if not SPIKE) */
  int modified_blocks;    /* g-Spike: singular blocks that were modified */
  double seconds;         /* solve time, excluding host<->device transfers */
} pscr_td_report;

/** Solves @p batch independent tridiagonal systems of order @p n.
 * System s has sub-diagonal dl[s*stride + i], diagonal d[...], super-diagonal
 * du[...], i = 0..n-1; dl[s*stride] and du[s*stride + n-1] are ignored
 * (cuSPARSE gtsv2 layout). b[s*stride + i] holds the right-hand side and is
 * overwritten by x. A single system is batch = 1, stride = n.
 * @param report may be NULL.
 * @return PSCR_ERR_SINGULAR when a zero pivot is met (b untouched),
 *         PSCR_ERR_NONFINITE for NaN/Inf in dl, d or du (b untouched).
 *
 * Larger than the device (CUDA, OpenCL; batch == 1): when the arrays and the
 * solver's scratch would not fit the device's memory, the system is solved
 * by streaming chunks of rows through the device (SPIKE over the chunks, seed
 * 001 section IV-B; AUTO solves each chunk with SPIKE_DIAG_PIVOT, or
 * CR_PCR_THOMAS when the matrix is strictly diagonally dominant). Then
 * report->partitions is the number of chunks, a NaN/Inf in b is refused
 * (PSCR_ERR_NONFINITE), and a singular chunk gives PSCR_ERR_SINGULAR (b
 * untouched) even where the whole matrix is not singular.
 * The environment variable PSCR_TD_CHUNK_ROWS=<rows> (a positive integer)
 * forces this path for every such single system, with at most <rows> rows
 * per chunk (tests, CI); other values are ignored. */
pscr_status pscr_tridiag_solve(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                               size_t batch, size_t stride, const void *dl, const void *d,
                               const void *du, void *b, pscr_td_report *report);

/** Same as pscr_tridiag_solve, data already on the context's device. */
pscr_status pscr_tridiag_solve_arrays(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype,
                                      size_t n, size_t batch, size_t stride, const pscr_array *dl,
                                      const pscr_array *d, const pscr_array *du, pscr_array *b,
                                      pscr_td_report *report);

/** Queued form of pscr_tridiag_solve_arrays (an addition to API.md): the
 * solve goes onto the context's device queue, in order with its other work,
 * and the call returns without waiting for it, so a pipeline of solves pays
 * no host round trip each. Bad arguments are reported at once. Numerical
 * failures are reported by the next pscr_context_finish (core.h), which waits
 * for the queued solves: PSCR_ERR_NONFINITE if one met NaN/Inf, else
 * PSCR_ERR_SINGULAR if one met a zero pivot; the b of such a solve then holds
 * unspecified values (pscr_tridiag_solve_arrays leaves it untouched). GPUs
 * queue CR_PCR_THOMAS, PCR_THOMAS and SPIKE_DIAG_PIVOT (AUTO: SPIKE_DIAG_PIVOT,
 * the stable choice: proving dominance would wait); other algorithms, and
 * every one on the CPU, are solved before the call returns, their failure kept
 * for pscr_context_finish all the same. Every other solve of the context, and
 * pscr_array_destroy, first waits for the queued ones, and so does the 33rd
 * queued solve since the last finish (32 status slots a context). */
pscr_status pscr_tridiag_solve_arrays_queued(pscr_context *ctx, pscr_td_algorithm alg,
                                             pscr_dtype dtype, size_t n, size_t batch,
                                             size_t stride, const pscr_array *dl,
                                             const pscr_array *d, const pscr_array *du,
                                             pscr_array *b);

/** Shifted systems sharing one pair of tridiagonal matrices:
 * (A + shift[s] * M) x_s = b_s, s = 0..nshift-1, b_s = b[s*n .. s*n+n-1].
 * A and M are given by their three diagonals (layout as above, stride n).
 * Coefficients are formed on the fly, never stored per system.
 * shift has the problem dtype. */
pscr_status pscr_tridiag_solve_shifted(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype,
                                       size_t n, size_t nshift, const void *a_dl, const void *a_d,
                                       const void *a_du, const void *m_dl, const void *m_d,
                                       const void *m_du, const void *shift, void *b,
                                       pscr_td_report *report);

/** Same as pscr_tridiag_solve_shifted, data already on the context's device
 * (an addition to API.md): a_dl .. m_du of n entries (m_dl and m_du both or
 * neither), shift of nshift, b of n * nshift, all of ctx and dtype. Where a
 * solve fails (PSCR_ERR_NONFINITE, PSCR_ERR_SINGULAR), b is left untouched on
 * the CPU; on GPUs its values are then unspecified (a failed system keeps its
 * right-hand side, the others may hold their solutions), as for queued
 * solves: keeping it whole would cost a copy of b each solve. Bad arguments
 * touch nothing. */
pscr_status pscr_tridiag_solve_shifted_arrays(pscr_context *ctx, pscr_td_algorithm alg,
                                              pscr_dtype dtype, size_t n, size_t nshift,
                                              const pscr_array *a_dl, const pscr_array *a_d,
                                              const pscr_array *a_du, const pscr_array *m_dl,
                                              const pscr_array *m_d, const pscr_array *m_du,
                                              const pscr_array *shift, pscr_array *b,
                                              pscr_td_report *report);

/** Queued form of pscr_tridiag_solve_shifted_arrays (an addition to API.md),
 * as pscr_tridiag_solve_arrays_queued is of pscr_tridiag_solve_arrays: the
 * arguments checked as there (bad ones touch nothing, nothing is queued),
 * the solve put on the context's device queue without waiting for it, and
 * its numerical failure (NONFINITE, SINGULAR) reported by the next
 * pscr_context_finish, the b of a failed solve holding unspecified values.
 * GPUs queue CR_PCR_THOMAS, PCR_THOMAS and SPIKE_DIAG_PIVOT (AUTO:
 * SPIKE_DIAG_PIVOT); other algorithms, and every one on the CPU, are solved
 * before the call returns, their failure kept for pscr_context_finish. */
pscr_status pscr_tridiag_solve_shifted_arrays_queued(pscr_context *ctx, pscr_td_algorithm alg,
                                                     pscr_dtype dtype, size_t n, size_t nshift,
                                                     const pscr_array *a_dl, const pscr_array *a_d,
                                                     const pscr_array *a_du,
                                                     const pscr_array *m_dl, const pscr_array *m_d,
                                                     const pscr_array *m_du,
                                                     const pscr_array *shift, pscr_array *b);

/** @return the algorithm's short name ("thomas", "gspike", ...), "unknown" otherwise (addition). */
const char *pscr_td_algorithm_name(pscr_td_algorithm alg);

#ifdef __cplusplus
}
#endif
#endif
