/* Row kernels shared by CR, PCR and PCR_THOMAS (include after core/scalar.h).
 *
 * The reductions work on NORMALIZED rows (unit diagonal):
 *   a_i x_{i-k} + x_i + c_i x_{i+k} = y_i.
 * One reduction step with stride k (seed 002 Sec. II, PCR formulas, with
 * b = 1) subtracts a_i times row i-k and c_i times row i+k:
 *   b' = 1 - a_i c_{i-k} - c_i a_{i+k}                     (the pivot)
 *   a' = -a_i a_{i-k} / b',  c' = -c_i c_{i+k} / b',
 *   y' = (y_i - a_i y_{i-k} - c_i y_{i+k}) / b'.
 * A missing neighbour (outside 0..n-1) is the identity row a = c = y = 0,
 * which makes any n work (no padding to a power of two). Keeping b = 1 saves
 * one array of memory traffic and one division per row and step. */
/* Each *_tmpl.c translation unit has one PSCR_Z, so a plain guard is enough. */
#ifndef PSCR_TRIDIAG_PCR_KERNELS_H
#define PSCR_TRIDIAG_PCR_KERNELS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/scalar.h"

/* Complex products written out: C's complex '*' checks for NaN results and
 * calls __muldc3, which blocks vectorization; '/' always calls __divdc3. */
#if PSCR_Z
#define PK_MUL(x, y)                                                                               \
  CMPLX(creal(x) * creal(y) - cimag(x) * cimag(y), creal(x) * cimag(y) + cimag(x) * creal(y))
static inline T pk_recip_z(T x) {
  double re = creal(x), im = cimag(x), m = re * re + im * im;
  if (!(m > 1e-290 && m < 1e290)) return 1.0 / x; /* scaled library division */
  double q = 1.0 / m;
  return CMPLX(re * q, -im * q);
}
#define PK_RECIP(x) pk_recip_z(x)
#else
#define PK_MUL(x, y) ((x) * (y))
#define PK_RECIP(x) (1.0 / (x))
#endif
/* 1 when a pivot is zero, NaN or Inf (a method without pivoting must stop). */
#define PK_BAD(p) (!(S_ABS1(p) > 0 && S_ABS1(p) < INFINITY))
/* The same test as bits OR-ed into a uint64_t accumulator, so that the loops
 * still vectorize: a bad pivot sets a bit above bit 10 (PK_FAILED). Real: the
 * exponent field is 0 (zero, subnormal) or 0x7ff (Inf, NaN). */
static inline uint64_t pk_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
#if PSCR_Z
#define PK_FLAG(p) ((uint64_t)PK_BAD(p) << 11)
#else
#define PK_FLAG(p) ((((pk_bits(p) >> 52) - 1) & 0x7ff) + 2)
#endif
#define PK_FAILED(acc) (((acc) >> 11) != 0)
/* Off-diagonals shrink like a^(2^level) on dominant rows and would soon be
 * subnormal, which costs ~100 cycles per operation: below 2^-500 of the
 * diagonal (a backward perturbation far under rounding) they are dropped, so
 * that every product of two stays a normal number. */
#define PK_TINY 0x1p-500
#if PSCR_Z /* per part, without branches */
#define PK_FLUSH(x)                                                                                \
  CMPLX(fabs(creal(x)) < PK_TINY ? 0 : creal(x), fabs(cimag(x)) < PK_TINY ? 0 : cimag(x))
#else
#define PK_FLUSH(x) (fabs(x) < PK_TINY ? 0 : (x))
#endif

/* Row i of the input, normalized by its diagonal; dl[0], du[n-1] never read.
 * Returns 1 on a zero or non-finite diagonal. */
static inline int FN(pk_load_row)(size_t n, size_t i, const T *dl, const T *d, const T *du,
                                  const T *b, T *a, T *c, T *y) {
  T r = PK_RECIP(d[i]);
  T an = i > 0 ? PK_MUL(dl[i], r) : 0, cn = i + 1 < n ? PK_MUL(du[i], r) : 0;
  *a = PK_FLUSH(an);
  *c = PK_FLUSH(cn);
  *y = PK_MUL(b[i], r);
  return PK_BAD(d[i]);
}

/* Rows lo..hi-1 of an input held in arrays: the same with no branches
 * (caller guarantees 0 < lo and hi < n). Returns 1 if a diagonal was bad. */
static inline int FN(pk_load_rows)(size_t lo, size_t hi, const T *restrict dl,
                                   const T *restrict d, const T *restrict du,
                                   const T *restrict b, T *restrict a, T *restrict c,
                                   T *restrict y) {
  uint64_t acc = 0;
  for (size_t i = lo; i < hi; i++) {
    T r = PK_RECIP(d[i]);
    acc |= PK_FLAG(d[i]);
    T an = PK_MUL(dl[i], r), cn = PK_MUL(du[i], r);
    a[i - lo] = PK_FLUSH(an);
    c[i - lo] = PK_FLUSH(cn);
    y[i - lo] = PK_MUL(b[i], r);
  }
  return PK_FAILED(acc);
}

/* One reduction step with stride k on rows lo..hi-1, both neighbours present
 * in the arrays (lo >= k, hi + k <= length). Writes row i to out[i - off]
 * (in and out never alias). Returns 1 if a pivot was bad. */
static inline int FN(pk_step)(size_t lo, size_t hi, size_t k, size_t off, const T *restrict a,
                              const T *restrict c, const T *restrict y, T *restrict ao,
                              T *restrict co, T *restrict yo) {
  uint64_t acc = 0;
  for (size_t i = lo; i < hi; i++) {
    T piv = 1 - PK_MUL(a[i], c[i - k]) - PK_MUL(c[i], a[i + k]);
    T r = PK_RECIP(piv);
    acc |= PK_FLAG(piv);
    T an = -PK_MUL(PK_MUL(a[i], a[i - k]), r), cn = -PK_MUL(PK_MUL(c[i], c[i + k]), r);
    ao[i - off] = PK_FLUSH(an);
    co[i - off] = PK_FLUSH(cn);
    yo[i - off] = PK_MUL(y[i] - PK_MUL(a[i], y[i - k]) - PK_MUL(c[i], y[i + k]), r);
  }
  return PK_FAILED(acc);
}

/* ---- division-free steps (PCR_THOMAS) ----
 * Rows keep their diagonal b. Row i is multiplied by L R = b_{i-k} b_{i+k}
 * before rows i-k, i+k (times a_i R and c_i L) are subtracted, which needs no
 * division:
 *   a' = -a_i R a_{i-k}, c' = -c_i L c_{i+k},
 *   b' = b_i L R - a_i R c_{i-k} - c_i L a_{i+k},
 *   y' = y_i L R - a_i R y_{i-k} - c_i L y_{i+k},
 * and the new row is scaled by the power of two 2^-e, 2^e <= |b'| < 2^(e+1):
 * exact, and it keeps every b in [1, 2) so that the products cannot overflow.
 * Same rows as the normalized step up to that scaling; the b's that step
 * divides by are checked the same way (PK_FLAG). A missing row: a = c = y = 0,
 * b = 1. */
static inline double pk_pow2inv(double x) { /* x normal: 2^-e as above */
  uint64_t u = 0x7fe0000000000000u - (pk_bits(x) & 0x7ff0000000000000u);
  double r;
  memcpy(&r, &u, sizeof r);
  return r;
}
#define PK_SCALE(x) pk_pow2inv(S_ABS1(x))
/* Bits OR-ed into a PK_FAILED accumulator unless the scaled diagonal x has
 * |re| + |im| in [1, 2): catches a zero, subnormal, huge, Inf or NaN
 * pivot in three integer operations. */
#define PK_SCALED_FLAG(x) ((pk_bits(S_ABS1(x)) & 0x7ff0000000000000u) ^ 0x3ff0000000000000u)

/* Rows lo..hi-1 of the input (0 < lo, hi < n), scaled. Returns 1 on a bad diagonal. */
static inline int FN(pk_load_scaled)(size_t lo, size_t hi, const T *restrict dl,
                                     const T *restrict d, const T *restrict du,
                                     const T *restrict b, T *restrict a, T *restrict bb,
                                     T *restrict c, T *restrict y) {
  uint64_t acc = 0;
  for (size_t i = lo; i < hi; i++) {
    double s = PK_SCALE(d[i]);
    T an = dl[i] * s, cn = du[i] * s, bn = d[i] * s;
    acc |= PK_SCALED_FLAG(bn);
    a[i - lo] = PK_FLUSH(an), bb[i - lo] = bn, c[i - lo] = PK_FLUSH(cn), y[i - lo] = b[i] * s;
  }
  return PK_FAILED(acc);
}

/* One division-free step on rows lo..hi-1 (lo >= k, hi + k <= length), row i to out[i - off]. */
static inline int FN(pk_step_scaled)(size_t lo, size_t hi, size_t k, size_t off,
                                     const T *restrict a, const T *restrict b,
                                     const T *restrict c, const T *restrict y, T *restrict ao,
                                     T *restrict bo, T *restrict co, T *restrict yo) {
  uint64_t acc = 0;
  for (size_t i = lo; i < hi; i++) {
    T L = b[i - k], R = b[i + k];
    T aR = PK_MUL(a[i], R), cL = PK_MUL(c[i], L), LR = PK_MUL(L, R);
    T piv = PK_MUL(b[i], LR) - PK_MUL(aR, c[i - k]) - PK_MUL(cL, a[i + k]);
    double s = PK_SCALE(piv), ns = -s;
    T an = PK_MUL(aR, a[i - k]) * ns, cn = PK_MUL(cL, c[i + k]) * ns, bn = piv * s;
    acc |= PK_SCALED_FLAG(bn);
    ao[i - off] = PK_FLUSH(an);
    bo[i - off] = bn;
    co[i - off] = PK_FLUSH(cn);
    yo[i - off] = (PK_MUL(y[i], LR) - PK_MUL(aR, y[i - k]) - PK_MUL(cL, y[i + k])) * s;
  }
  return PK_FAILED(acc);
}

/* The same step for one row whose neighbours may be missing (edges). */
static inline int FN(pk_step_row)(size_t n, size_t i, size_t k, const T *a, const T *c,
                                  const T *y, T *ao, T *co, T *yo) {
  int lft = i >= k, rgt = i + k < n;
  T al = lft ? a[i - k] : 0, cl = lft ? c[i - k] : 0, yl = lft ? y[i - k] : 0;
  T ar = rgt ? a[i + k] : 0, cr = rgt ? c[i + k] : 0, yr = rgt ? y[i + k] : 0;
  T piv = 1 - PK_MUL(a[i], cl) - PK_MUL(c[i], ar);
  T r = PK_RECIP(piv);
  T an = -PK_MUL(PK_MUL(a[i], al), r), cn = -PK_MUL(PK_MUL(c[i], cr), r);
  ao[i] = PK_FLUSH(an);
  co[i] = PK_FLUSH(cn);
  yo[i] = PK_MUL(y[i] - PK_MUL(a[i], yl) - PK_MUL(c[i], yr), r);
  return PK_BAD(piv);
}

#endif
