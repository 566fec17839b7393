/* Inverse iteration on one unreduced block of the pencil, shared by
 * invit_tmpl.c (the iteration) and pencil_tmpl.c (blocks, order, output).
 * Include after core/scalar.h (one dtype per translation unit). */
#ifndef PSCR_EIGEN_INVIT_TMPL_H
#define PSCR_EIGEN_INVIT_TMPL_H

#include <stddef.h>

#include "core/scalar.h"
#include "eigen/eigen_impl.h"

#define EIGEN_CLUSTER 1e-5 /* relative window of reorthogonalization */
#define EIGEN_WINDOW 256   /* at most this many previous vectors kept for it */
#define EIGEN_BATCH 4      /* isolated eigenvalues iterated together (latency hiding) */

#if PSCR_Z
#define S_IMAG(x) cimag(x)
#define S_INV(x) eigen_zinv(x)
#define S_SQRT(x) csqrt(x)
#define S_MUL(a, b) eigen_zmul(a, b) /* no NaN recovery call in hot loops */
#else
#define S_IMAG(x) 0.0
#define S_INV(x) (1.0 / (x))
#define S_SQRT(x) sqrt(x)
#define S_MUL(a, b) ((a) * (b))
#endif

/* One unreduced block: order n, M diagonal when mo == NULL. */
typedef struct {
  size_t n;
  const T *ad, *ao, *md, *mo;
  double anorm, mnorm; /* inf-norms */
  double delta;        /* reorthogonalize against vectors with |lambda_j - s| <= delta */
} FN(eigen_blk);

/* Workspace for blocks of order <= m. */
typedef struct {
  T *b, *t;                     /* right-hand sides (n * EIGEN_BATCH), a temporary (n) */
  T *start;                     /* the start vector (random, fixed per call) */
  T *l, *ui, *u1, *u2;          /* LU of A - s_j M, interleaved [i * nb + j] */
  unsigned char *piv;           /* row interchanges, interleaved */
  T *slot[EIGEN_WINDOW];        /* previous vectors: w_j (n) then M w_j (n), oldest first */
  T slam[EIGEN_WINDOW];         /* their eigenvalues */
  size_t nw, m;
} FN(eigen_ws);

/* Eigenvectors for the nb <= EIGEN_BATCH estimates s[0..nb), each started
 * from the random vector w->start: out[j] gets w_j (n) with
 * w_j^T M w_j = 1 and then M w_j (n). With nb > 1 no vector may need
 * reorthogonalization. s[j] is refined on return (complex: Rayleigh quotient). */
pscr_status FN(eigen_vectors)(const FN(eigen_blk) * B, T *s, size_t nb,
                              FN(eigen_ws) * w, T **out);

#endif
