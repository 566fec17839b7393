/* Row kernels of the reductions: CR, PCR and PCR_THOMAS (include after
 * core/scalar.h; each *_tmpl.c translation unit has one PSCR_Z).
 *
 * CR and PCR work on NORMALIZED rows (unit diagonal):
 *   a_i x_{i-k} + x_i + c_i x_{i+k} = y_i.
 * One reduction step with stride k (seed 002 Sec. II, PCR formulas, with
 * b = 1) subtracts a_i times row i-k and c_i times row i+k:
 *   b' = 1 - a_i c_{i-k} - c_i a_{i+k}                     (the pivot)
 *   a' = -a_i a_{i-k} / b',  c' = -c_i c_{i+k} / b',
 *   y' = (y_i - a_i y_{i-k} - c_i y_{i+k}) / b'.
 * A missing neighbour (outside 0..n-1) is the identity row a = c = y = 0,
 * which makes any n work (no padding to a power of two).
 * PCR_THOMAS uses the division-free form further down (its steps are the
 * bulk of its work, and a division costs as much as ten other operations). */
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
static inline double pk_pow2inv(double x);
/* 1/x without branches: x is first scaled by a power of two (exact) so that
 * |x|^2 cannot overflow; NaN for x = 0, which the pivot checks report. */
static inline T pk_recip_z(T x) {
  double s = pk_pow2inv(fabs(creal(x)) + fabs(cimag(x)));
  double re = creal(x) * s, im = cimag(x) * s, q = s / (re * re + im * im);
  return CMPLX(re * q, -im * q);
}
#define PK_RECIP(x) pk_recip_z(x)
#else
#define PK_MUL(x, y) ((x) * (y))
#define PK_RECIP(x) (1.0 / (x))
#endif
/* 1 when a pivot is zero, NaN or Inf (a method without pivoting must stop). */
#define PK_BAD(p) (!(S_ABS1(p) > 0) | !(S_ABS1(p) < INFINITY)) /* '|': no branch */
/* The same test as bits OR-ed into a uint64_t accumulator, so that the loops
 * still vectorize: a bad pivot sets a bit above bit 10 (PK_FAILED). Real: the
 * exponent field is 0 (zero, subnormal) or 0x7ff (Inf, NaN). */
static inline uint64_t pk_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
#if PSCR_Z
#define PK_FLAG(p) ((uint64_t)(!(S_ABS1(p) > 0) | !(S_ABS1(p) < INFINITY)) << 11)
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
static inline int FN(pk_load_rows)(size_t lo, size_t hi, const T *restrict dl, const T *restrict d,
                                   const T *restrict du, const T *restrict b, T *restrict a,
                                   T *restrict c, T *restrict y) {
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

/* The same step for one row whose neighbours may be missing (edges). */
static inline int FN(pk_step_row)(size_t n, size_t i, size_t k, const T *a, const T *c, const T *y,
                                  T *ao, T *co, T *yo) {
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
 * divides by are checked the same way. A missing row: a = c = y = 0, b = 1.
 * These tiles keep real and imaginary parts in separate arrays ("split"), so
 * that the loops vectorize over rows for complex data too: pk_s is one
 * scalar, PK_IN(x) / PK_OUT(x) declare the parts xr (, xi) of an array x as
 * parameters (so no local may be named like a part: ar, ai, ...). */
static inline double pk_pow2inv(double x) { /* x normal: 2^-e as above */
  uint64_t u = 0x7fe0000000000000u - (pk_bits(x) & 0x7ff0000000000000u);
  double r;
  memcpy(&r, &u, sizeof r);
  return r;
}
/* Bits OR-ed into a PK_FAILED accumulator unless v (|re| + |im| of a scaled
 * diagonal) is in [1, 2): a zero, subnormal, huge, Inf or NaN pivot. */
#define PK_SCALED_FLAG(v) ((pk_bits(v) & 0x7ff0000000000000u) ^ 0x3ff0000000000000u)

#if PSCR_Z
#define PK_NPART 2
typedef struct {
  double re, im;
} pk_s;
#define PK_IN(x) const double *restrict x##r, const double *restrict x##i
#define PK_OUT(x) double *restrict x##r, double *restrict x##i
#define PK_PARTS(p, o) (p)[0] + (o), (p)[1] + (o) /* a split array's parts, offset o */
#define PK_AT(X, K) ((pk_s){X##r[K], X##i[K]})
#define PK_PUT(X, K, V) (X##r[K] = (V).re, X##i[K] = (V).im)
#define PK_OF(z) ((pk_s){creal(z), cimag(z)})
static inline pk_s pks_mul(pk_s x, pk_s y) {
  return (pk_s){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};
}
static inline pk_s pks_sub(pk_s x, pk_s y) { return (pk_s){x.re - y.re, x.im - y.im}; }
static inline pk_s pks_scale(pk_s x, double s) { return (pk_s){x.re * s, x.im * s}; }
static inline double pks_abs1(pk_s x) { return fabs(x.re) + fabs(x.im); }
static inline pk_s pks_flush(pk_s x) {
  return (pk_s){fabs(x.re) < PK_TINY ? 0 : x.re, fabs(x.im) < PK_TINY ? 0 : x.im};
}
#else
#define PK_NPART 1
typedef struct {
  double re;
} pk_s;
#define PK_IN(x) const double *restrict x##r
#define PK_OUT(x) double *restrict x##r
#define PK_PARTS(p, o) (p)[0] + (o)
#define PK_AT(X, K) ((pk_s){X##r[K]})
#define PK_PUT(X, K, V) (X##r[K] = (V).re)
#define PK_OF(z) ((pk_s){z})
static inline pk_s pks_mul(pk_s x, pk_s y) { return (pk_s){x.re * y.re}; }
static inline pk_s pks_sub(pk_s x, pk_s y) { return (pk_s){x.re - y.re}; }
static inline pk_s pks_scale(pk_s x, double s) { return (pk_s){x.re * s}; }
static inline double pks_abs1(pk_s x) { return fabs(x.re); }
static inline pk_s pks_flush(pk_s x) { return (pk_s){fabs(x.re) < PK_TINY ? 0 : x.re}; }
#endif

/* A row of the input (dl, d, du, b entries) scaled. The loops load the
 * entries themselves (PK_SCALED: through their restrict pointers, which an
 * inlined function taking the pointers would lose, and with them the SIMD). */
typedef struct {
  pk_s a, b, c, y;
} pk_row;
static inline pk_row pk_scale_row(pk_s l, pk_s dd, pk_s u, pk_s y) {
  double s = pk_pow2inv(pks_abs1(dd));
  pk_row r;
  r.a = pks_flush(pks_scale(l, s)), r.b = pks_scale(dd, s);
  r.c = pks_flush(pks_scale(u, s)), r.y = pks_scale(y, s);
  return r;
}
#define PK_SCALED(i) pk_scale_row(PK_OF(dl[i]), PK_OF(d[i]), PK_OF(du[i]), PK_OF(b[i]))

/* Input row i scaled into a, b, c, y at index t (all rows: i = 0, n-1 too).
 * Returns a PK_FAILED accumulator. */
static inline uint64_t pk_load_one(size_t n, size_t i, const T *dl, const T *d, const T *du,
                                   const T *b, PK_OUT(a), PK_OUT(bb), PK_OUT(c), PK_OUT(y),
                                   size_t t) {
  pk_row r = pk_scale_row(PK_OF(i > 0 ? dl[i] : 0), PK_OF(d[i]), PK_OF(i + 1 < n ? du[i] : 0),
                          PK_OF(b[i]));
  PK_PUT(a, t, r.a), PK_PUT(bb, t, r.b), PK_PUT(c, t, r.c), PK_PUT(y, t, r.y);
  return PK_SCALED_FLAG(pks_abs1(r.b));
}

/* Rows lo..hi-1 of the input (0 < lo, hi < n), scaled, to index i - lo.
 * Returns 1 on a bad diagonal. */
static inline int pk_load_split(size_t lo, size_t hi, const T *restrict dl, const T *restrict d,
                                const T *restrict du, const T *restrict b, PK_OUT(a), PK_OUT(bb),
                                PK_OUT(c), PK_OUT(y)) {
  uint64_t acc = 0;
  for (size_t i = lo; i < hi; i++) {
    pk_row r = PK_SCALED(i);
    acc |= PK_SCALED_FLAG(pks_abs1(r.b));
    PK_PUT(a, i - lo, r.a), PK_PUT(bb, i - lo, r.b), PK_PUT(c, i - lo, r.c), PK_PUT(y, i - lo, r.y);
  }
  return PK_FAILED(acc);
}

/* The division-free step of row m from its neighbours l (= m - k) and r
 * (= m + k); ORs a bad pivot's bits into *acc. */
static inline pk_row pk_step_rows(pk_row l, pk_row m, pk_row r, uint64_t *acc) {
  pk_s aR = pks_mul(m.a, r.b), cL = pks_mul(m.c, l.b), LR = pks_mul(l.b, r.b);
  pk_s piv = pks_sub(pks_sub(pks_mul(m.b, LR), pks_mul(aR, l.c)), pks_mul(cL, r.a));
  double s = pk_pow2inv(pks_abs1(piv)), ns = -s;
  pk_s bn = pks_scale(piv, s);
  *acc |= PK_SCALED_FLAG(pks_abs1(bn));
  pk_s yn = pks_sub(pks_sub(pks_mul(m.y, LR), pks_mul(aR, l.y)), pks_mul(cL, r.y));
  return (pk_row){pks_flush(pks_scale(pks_mul(aR, l.a), ns)), bn,
                  pks_flush(pks_scale(pks_mul(cL, r.c), ns)), pks_scale(yn, s)};
}

/* One division-free step on rows lo..hi-1 (lo >= k, hi + k <= length), row i
 * to out[i - off]. Returns 1 on a bad pivot. */
static inline int pk_step_split(size_t lo, size_t hi, size_t k, size_t off, PK_IN(a), PK_IN(b),
                                PK_IN(c), PK_IN(y), PK_OUT(ao), PK_OUT(bo), PK_OUT(co),
                                PK_OUT(yo)) {
  uint64_t acc = 0;
#define PK_ROW(j) ((pk_row){PK_AT(a, j), PK_AT(b, j), PK_AT(c, j), PK_AT(y, j)})
  for (size_t i = lo; i < hi; i++) {
    pk_row o = pk_step_rows(PK_ROW(i - k), PK_ROW(i), PK_ROW(i + k), &acc);
    PK_PUT(ao, i - off, o.a), PK_PUT(bo, i - off, o.b), PK_PUT(co, i - off, o.c);
    PK_PUT(yo, i - off, o.y);
  }
#undef PK_ROW
  return PK_FAILED(acc);
}

/* The first step (k = 1) on input rows lo..hi-1 (1 < lo, hi < n - 1) straight
 * from the input arrays, each row scaled as it is read (pk_load_split then
 * pk_step_split without the tile in between: the input streams in while the
 * step computes), row i to out[i - lo]. Returns 1 on a bad diagonal or
 * pivot. */
static inline int pk_step_input(size_t lo, size_t hi, const T *restrict dl, const T *restrict d,
                                const T *restrict du, const T *restrict b, PK_OUT(ao),
                                PK_OUT(bo), PK_OUT(co), PK_OUT(yo)) {
  uint64_t acc = 0;
  for (size_t i = lo; i < hi; i++) {
    pk_row m = PK_SCALED(i);
    acc |= PK_SCALED_FLAG(pks_abs1(m.b));
    pk_row o = pk_step_rows(PK_SCALED(i - 1), m, PK_SCALED(i + 1), &acc);
    PK_PUT(ao, i - lo, o.a), PK_PUT(bo, i - lo, o.b), PK_PUT(co, i - lo, o.c);
    PK_PUT(yo, i - lo, o.y);
  }
  return PK_FAILED(acc);
}

#endif
