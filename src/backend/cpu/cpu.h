/* The CPU backend's entry points used by the PSCR driver and the API. */
#ifndef PSCR_BACKEND_CPU_H
#define PSCR_BACKEND_CPU_H

#include <complex.h>

#include "core/context.h"
#include "tridiag/td.h"

/* The context's scratch pool for one solve (NULL when another thread holds
 * it: the solve then allocates its own); give it back with cpu_pool_release. */
td_pool *cpu_pool_acquire(pscr_context *ctx);
void cpu_pool_release(pscr_context *ctx, td_pool *pool);

/* Batched solve on host memory (b untouched on error). pool may be NULL. */
pscr_status cpu_tridiag_d(pscr_td_algorithm alg, size_t n, size_t batch, size_t stride,
                          const double *dl, const double *d, const double *du, double *b,
                          int threads, td_pool *pool, pscr_td_report *rep);
pscr_status cpu_tridiag_z(pscr_td_algorithm alg, size_t n, size_t batch, size_t stride,
                          const double complex *dl, const double complex *d,
                          const double complex *du, double complex *b, int threads,
                          td_pool *pool, pscr_td_report *rep);

/* (A + shift[s] M) x_s = b_s on host memory. m_dl/m_du may be NULL (M diagonal).
 * keep_b_on_error: copy b first so that it is untouched on error (the public
 * API); the PSCR driver passes 0 and owns its buffers. */
pscr_status cpu_tridiag_shifted_d(pscr_td_algorithm alg, size_t n, size_t nshift,
                                  const double *a_dl, const double *a_d, const double *a_du,
                                  const double *m_dl, const double *m_d, const double *m_du,
                                  const double *shift, double *b, int threads, int keep_b_on_error,
                                  pscr_td_report *rep);
pscr_status cpu_tridiag_shifted_z(pscr_td_algorithm alg, size_t n, size_t nshift,
                                  const double complex *a_dl, const double complex *a_d,
                                  const double complex *a_du, const double complex *m_dl,
                                  const double complex *m_d, const double complex *m_du,
                                  const double complex *shift, double complex *b, int threads,
                                  int keep_b_on_error, pscr_td_report *rep);

#endif
