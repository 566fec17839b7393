/* Internal interface of the CPU tridiagonal algorithms (the registry).
 *
 * Every algorithm solves ONE system of order n in place:
 *   dl[i] x[i-1] + d[i] x[i] + du[i] x[i+1] = b[i],  i = 0..n-1,
 * with dl[0] and du[n-1] ignored (never read as non-zero: they may hold
 * garbage). Contract:
 *   - on any error b is left untouched (solve into scratch, write b last);
 *   - a zero pivot (or a singular matrix the method cannot handle) gives
 *     PSCR_ERR_SINGULAR, a failed allocation PSCR_ERR_OUT_OF_MEMORY;
 *   - use at most ctl->threads OpenMP threads (1: no parallel region at all,
 *     the batch loop calls from inside its own parallel region);
 *   - no printing, no global state; n == 1, 2, 3 work.
 * Bodies are written once for real and complex in *_tmpl.c files. */
#ifndef PSCR_TRIDIAG_TD_H
#define PSCR_TRIDIAG_TD_H

#include <complex.h>
#include <stddef.h>

#include <pscr/tridiag.h>

/* A grow-only scratch block kept between solves (owned by a CPU context):
 * large solves reuse it, so its pages are faulted in once rather than at
 * every call (a fresh 512 MB block costs ~0.1-0.4 s of page faults). */
typedef struct {
  void *mem;
  size_t bytes;
  int busy; /* lent to a solve (nested requests get fresh blocks) */
} td_pool;

typedef struct {
  int threads;         /* in: threads this solve may use (>= 1) */
  int variant;         /* in: algorithm variant, 0 = default (PCR_THOMAS: pcr_thomas.h) */
  int partitions;      /* in: SPIKE partitions wanted (0 = choose); out: used */
  int modified_blocks; /* out: g-Spike blocks modified for singularity */
  void *work;          /* in: optional caller scratch (may be NULL) ... */
  size_t work_bytes;   /* ... of this size; more comes from td_scratch */
  td_pool *pool;       /* in: optional scratch pool (may be NULL; one solve at a time) */
  int unscanned;       /* in: finiteness of dl, d, du not checked yet (PCR_THOMAS does it) */
} td_ctl;

/* Offset, in scalars of type T, between arrays carved from one block: arrays
 * a multiple of 4 KB apart alias in the TLB and caches (Thomas ran 2x slower
 * at n = 2^25 with c' and y exactly n apart), so each is pushed one page and
 * a line further. */
#define TD_SKEW(T) ((4096 + 64) / sizeof(T))

/* (sqrt(5) - 1) / 2: seed 001's asymmetric Bunch-Kaufman test for a 2x2 pivot
 * (TD_KAPPA of kernels/common/td_tile.h on the devices) */
#define TD_KAPPA 0.61803398874989484820

/* Scratch of `bytes` for one solve: ctl->work when it is large enough, else
 * the pool (grown when short), else a fresh block; NULL when out of memory.
 * Give it back with td_scratch_free. Blocks are 64-byte aligned. */
void *td_scratch(td_ctl *ctl, size_t bytes);
void td_scratch_free(td_ctl *ctl, void *p);
/* Frees the pool's block (context destruction). */
void td_pool_free(td_pool *pool);

typedef pscr_status (*td_fn_d)(size_t n, const double *dl, const double *d, const double *du,
                               double *b, td_ctl *ctl);
typedef pscr_status (*td_fn_z)(size_t n, const double complex *dl, const double complex *d,
                               const double complex *du, double complex *b, td_ctl *ctl);

#define TD_DECLARE(name)                                                                           \
  pscr_status name##_d(size_t n, const double *dl, const double *d, const double *du, double *b,   \
                       td_ctl *ctl);                                                               \
  pscr_status name##_z(size_t n, const double complex *dl, const double complex *d,                \
                       const double complex *du, double complex *b, td_ctl *ctl);

TD_DECLARE(td_thomas)      /* thomas_tmpl.c */
TD_DECLARE(td_lapack)      /* lapack_tmpl.c: gtsv on copies, the reference */
TD_DECLARE(td_cr)          /* cr_tmpl.c: odd-even cyclic reduction, any n (seed 004) */
TD_DECLARE(td_pcr)         /* pcr_tmpl.c: parallel cyclic reduction, any n */
TD_DECLARE(td_pcr_thomas)  /* pcr_thomas_tmpl.c: seed 002 */
TD_DECLARE(td_spike_dp)    /* spike_dp_tmpl.c: SPIKE + diagonal pivoting (seed 001) */
TD_DECLARE(td_gspike)      /* gspike_tmpl.c: g-Spike (seed 000) */

/* The registry: solvers by algorithm (NULL for AUTO, which is resolved first). */
td_fn_d td_lookup_d(pscr_td_algorithm alg);
td_fn_z td_lookup_z(pscr_td_algorithm alg);

/* 1 if every row satisfies |d_i| > |dl_i| + |du_i| (strict diagonal dominance,
 * dl_0 and du_{n-1} ignored): THOMAS is then safe without pivoting. */
int td_strictly_dominant_d(size_t n, const double *dl, const double *d, const double *du);
int td_strictly_dominant_z(size_t n, const double complex *dl, const double complex *d,
                           const double complex *du);

/* One pass over a batch: returns 1 if every used entry is finite, and sets
 * *dominant (may be NULL) to 1 if every system is strictly row dominant
 * (|d_i| > |dl_i|_1 + |du_i|_1 with |z|_1 = |re| + |im| >= |z|, so it is a proof). */
int td_scan_d(size_t n, size_t batch, size_t stride, const double *dl, const double *d,
              const double *du, int threads, int *dominant);
int td_scan_z(size_t n, size_t batch, size_t stride, const double complex *dl,
              const double complex *d, const double complex *du, int threads, int *dominant);

/* PCR_THOMAS switch point of seed 002: PCR levels for n unknowns on p cores. */
int td_pcr_thomas_levels(size_t n, int cores);
/* P+PT's PCR levels for n unknowns (the same on any number of cores). */
int td_pcr_thomas_lanes(size_t n);

#endif
