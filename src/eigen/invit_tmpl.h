/* Inverse iteration on one unreduced block of the pencil, shared by
 * invit_tmpl.c (the iteration) and pencil_tmpl.c (blocks, order, output).
 * Include after core/scalar.h (one dtype per translation unit). */
#ifndef PSCR_EIGEN_INVIT_TMPL_H
#define PSCR_EIGEN_INVIT_TMPL_H

#include <float.h>
#include <stddef.h>

#include "core/scalar.h"
#include "eigen/eigen_impl.h"

#define EIGEN_WINDOW 256   /* at most this many previous vectors kept for it */
#define EIGEN_BATCH 4      /* isolated eigenvalues iterated together (latency hiding) */
#define EIGEN_LD_FRACTION (1.0 / 128) /* long double last step for |lambda| <= this * lmax */
/* ... where long double is x87's 64-bit significand: fast enough in hardware
 * (a software binary128, as on AArch64, would cost too much; a double one
 * would not help). */
#define EIGEN_LD_STEP (LDBL_MANT_DIG == 64)

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
  const T *ex;         /* row excess of A (eigen_row_excess): y^T A y in edge form */
  double anorm, mnorm; /* inf-norms */
  double delta;        /* reorthogonalize against vectors with |lambda_j - s| <= delta */
  double lmax;         /* the largest |eigenvalue| of the block */
} FN(eigen_blk);

/* Long double scalars of the last inverse iteration step (invit_ld_tmpl.c). */
#if PSCR_Z
typedef long double complex FN(eigen_ld);
#else
typedef long double FN(eigen_ld);
#endif

/* Workspace for blocks of order <= m. */
typedef struct {
  T *b, *t;                     /* right-hand sides (n * EIGEN_BATCH), a temporary (n) */
  const T *start;               /* the start vector (random, fixed per call) */
  FN(eigen_ld) *ldw;            /* 4 n long double scalars (eigen_ld_step) */
  T *l, *ui, *u1, *u2;          /* LU of A - s_j M, interleaved [i * nb + j] */
  unsigned char *piv;           /* row interchanges, interleaved */
  T *slot[EIGEN_WINDOW];        /* previous vectors: w_j (n) then M w_j (n), oldest first */
  T slam[EIGEN_WINDOW];         /* their eigenvalues */
  size_t nw, m;
} FN(eigen_ws);

/* y = (A - s M)^-1 M y / its max norm, factored and solved in long double
 * (partial pivoting; pivots below eps_ld (||A|| + |s| ||M||) raised to that).
 * ldw: 4 n scalars. */
void FN(eigen_ld_step)(const FN(eigen_blk) * B, T s, T *y, FN(eigen_ld) * ldw);

/* Eigenvectors for the nb <= EIGEN_BATCH estimates s[0..nb), each started
 * from the random vector w->start: out[j] gets w_j (n) with
 * w_j^T M w_j = 1 and then M w_j (n). With nb > 1 no vector may need
 * reorthogonalization. s[j] is refined on return: the Rayleigh quotient of
 * w_j with y^T A y in edge form (small eigenvalues to high relative accuracy). */
pscr_status FN(eigen_vectors)(const FN(eigen_blk) * B, T *s, size_t nb,
                              FN(eigen_ws) * w, T **out);

#endif
