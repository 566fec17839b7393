/* The SPIKE framework shared by SPIKE_DIAG_PIVOT (seed 001) and g-Spike
 * (seed 000): partitioning, spikes, the reduced system and its recursive
 * solve. The two algorithms differ only in how one diagonal block is solved,
 * a "kernel" given to spike_solve_{d,z}.
 *
 * A block is a tridiagonal matrix of order m >= 2 plus two coupling columns:
 * the left one (rows 0, 1) multiplies the last unknown of the previous block,
 * the right one (rows m-2, m-1) the first unknown of the next block. On the
 * original matrix only cl[0] = dl[s] and cr[1] = du[e-1] are non-zero; the
 * blocks of the reduced system (seed 000, Appendix C, after the partition
 * swap) use both entries. The kernel returns Y = A_j^{-1} f, W = A_j^{-1} cl,
 * V = A_j^{-1} cr (seed 001, eqs. 3, 4, 7). */
#ifndef PSCR_TRIDIAG_SPIKE_H
#define PSCR_TRIDIAG_SPIKE_H

#include <complex.h>
#include <stddef.h>

#include "tridiag/td.h"

#define SPIKE_BLOCK_ROWS 8192 /* default block size: Y, V, W and factors stay in cache */
#define SPIKE_MIN_ROWS 2048   /* default partitions have at least this many rows */
#define SPIKE_DIRECT_PAIRS 64 /* reduced systems of at most 2x this order are solved directly */
#define SPIKE_GROUP_PAIRS 32  /* blocks of a reduced system hold this many pairs (x2 unknowns) */
#define SPIKE_DELTA 1.0e-8    /* a block pivot below SPIKE_DELTA * block scale is "singular" */
#define SPIKE_MODIFY 1.0e-4   /* g-Spike modifies a block when |R_mm| < SPIKE_MODIFY * scale */
/* ... and a partition shorter than SPIKE_MIN_ROWS (partitions asked for)
 * below this, the GPU's TD_SPIKE_MODIFY, so that the driver refines: 256
 * partitions of 12 random rows (cond 1.2e4), one at |R_mm| = 4.9e-4 scale,
 * gave a backward error of 2.8e-12 unmodified (so unrefined); bench/RESULTS.md
 * has the GPU's 2^22-row case. Reduced levels keep SPIKE_MODIFY: their
 * modifications are not refined. */
#define SPIKE_MODIFY_SHORT 1.0e-3
#define SPIKE_COND 1.0e11     /* ||A|| ||x|| / ||b|| above this: (near) singular, one partition */
#define SPIKE_BIG 1.0e150     /* spikes above this may overflow the recovery: solve safely */

/* Partitions for n rows: `wanted` (> 0) capped so that every block keeps 2 rows;
 * else one per thread at least, blocks of about SPIKE_BLOCK_ROWS rows (never
 * fewer than SPIKE_MIN_ROWS), a multiple of the thread count; 1 on one thread. */
static inline size_t spike_partition_count(size_t n, int threads, int wanted) {
  size_t cap = n / 2 > 0 ? n / 2 : 1;
  if (wanted > 0) return (size_t)wanted < cap ? (size_t)wanted : cap;
  if (threads <= 1) return 1;
  size_t t = (size_t)threads, p = (n + SPIKE_BLOCK_ROWS - 1) / SPIKE_BLOCK_ROWS;
  p = (p + t - 1) / t * t;
  if (p > n / SPIKE_MIN_ROWS) p = n / SPIKE_MIN_ROWS;
  return p >= 2 ? p : 1;
}

/* First row of block j of p (j = p gives n). Offsets are even so that blocks
 * of a zero-diagonal matrix are not singular for parity; they move only to
 * snap onto a zero off-diagonal (reducibility), which tests may rely on. */
static inline size_t spike_block_start(size_t n, size_t p, size_t j) {
  return j >= p ? n : 2 * ((j * (n / 2)) / p);
}

/* A bump allocator over one malloc: sizes first with base == NULL. */
typedef struct {
  char *base;
  size_t used;
} spike_arena;
static inline void *spike_take(spike_arena *a, size_t bytes) {
  void *p = a->base ? a->base + a->used : NULL;
  a->used += (bytes + 63) & ~(size_t)63;
  if (bytes >= 65536) a->used += TD_SKEW(char); /* large arrays skewed (td.h) */
  return p;
}

#define SPIKE_TYPES(T, S)                                                                        \
  typedef struct {                                                                               \
    size_t m;                 /* order of the block */                                           \
    const T *dl, *d, *du, *f; /* the block and its right-hand side */                            \
    int left, right;          /* coupling columns present */                                     \
    int direct;               /* whole system: no couplings, only a ~zero pivot is singular */   \
    double modify;            /* g-Spike's threshold for R_mm / scale (0: SPIKE_MODIFY) */       \
    T cl[2], cr[2];           /* left coupling (rows 0, 1), right (rows m-2, m-1) */             \
    T *y, *w, *v;             /* out: Y, W (if left), V (if right), m entries each */            \
    T zeta;                   /* out (g-Spike): welcome fill-in factor, 0 if none */             \
    int special;              /* out (g-Spike): singular last block, v holds U */                \
    T db;                     /* out (g-Spike, special): R_mm */                                 \
    double amax;              /* out: max |output| (inf if any is not finite) */                 \
    double pmin;              /* out: min |pivot| / scale (2x2: |Delta| / scale^2) */            \
    double scale;             /* out: max |a_ij| of the block (|re| + |im|) */                   \
  } spike_job_##S;                                                                               \
  /* PSCR_ERR_SINGULAR: the block (or, direct, the system) is numerically singular. */           \
  typedef pscr_status (*spike_kernel_##S)(spike_job_##S * job, void *scratch);                   \
  pscr_status spike_solve_##S(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl, \
                              spike_kernel_##S kernel, size_t scratch_row_bytes);

SPIKE_TYPES(double, d)
SPIKE_TYPES(double complex, z)
#undef SPIKE_TYPES

#endif
