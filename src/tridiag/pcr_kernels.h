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

/* Row i of the input, normalized by its diagonal; dl[0], du[n-1] never read.
 * Returns 1 on a zero or non-finite diagonal. */
static inline int FN(pk_load_row)(size_t n, size_t i, const T *dl, const T *d, const T *du,
                                  const T *b, T *a, T *c, T *y) {
  T r = PK_RECIP(d[i]);
  *a = i > 0 ? PK_MUL(dl[i], r) : 0;
  *c = i + 1 < n ? PK_MUL(du[i], r) : 0;
  *y = PK_MUL(b[i], r);
  return PK_BAD(d[i]);
}

/* Rows lo..hi-1 of an input held in arrays: the same with no branches
 * (caller guarantees 0 < lo and hi < n). Returns the number of bad pivots. */
static inline int FN(pk_load_rows)(size_t lo, size_t hi, const T *restrict dl,
                                   const T *restrict d, const T *restrict du,
                                   const T *restrict b, T *restrict a, T *restrict c,
                                   T *restrict y) {
  int bad = 0;
  for (size_t i = lo; i < hi; i++) {
    T r = PK_RECIP(d[i]);
    bad += PK_BAD(d[i]);
    a[i - lo] = PK_MUL(dl[i], r);
    c[i - lo] = PK_MUL(du[i], r);
    y[i - lo] = PK_MUL(b[i], r);
  }
  return bad;
}

/* One reduction step with stride k on rows lo..hi-1, both neighbours present
 * in the arrays (lo >= k, hi + k <= length). Writes row i to out[i - off]
 * (in and out never alias). Returns the number of bad pivots. */
static inline int FN(pk_step)(size_t lo, size_t hi, size_t k, size_t off, const T *restrict a,
                              const T *restrict c, const T *restrict y, T *restrict ao,
                              T *restrict co, T *restrict yo) {
  int bad = 0;
  for (size_t i = lo; i < hi; i++) {
    T piv = 1 - PK_MUL(a[i], c[i - k]) - PK_MUL(c[i], a[i + k]);
    T r = PK_RECIP(piv);
    bad += PK_BAD(piv);
    ao[i - off] = -PK_MUL(PK_MUL(a[i], a[i - k]), r);
    co[i - off] = -PK_MUL(PK_MUL(c[i], c[i + k]), r);
    yo[i - off] = PK_MUL(y[i] - PK_MUL(a[i], y[i - k]) - PK_MUL(c[i], y[i + k]), r);
  }
  return bad;
}

/* The same step without the division: row i becomes
 * ao x_{i-2k} + bo x_i + co x_{i+2k} = yo with the pivot bo kept as the diagonal. */
static inline void FN(pk_step_raw)(size_t lo, size_t hi, size_t k, size_t off,
                                   const T *restrict a, const T *restrict c, const T *restrict y,
                                   T *restrict ao, T *restrict bo, T *restrict co,
                                   T *restrict yo) {
  for (size_t i = lo; i < hi; i++) {
    bo[i - off] = 1 - PK_MUL(a[i], c[i - k]) - PK_MUL(c[i], a[i + k]);
    ao[i - off] = -PK_MUL(a[i], a[i - k]);
    co[i - off] = -PK_MUL(c[i], c[i + k]);
    yo[i - off] = y[i] - PK_MUL(a[i], y[i - k]) - PK_MUL(c[i], y[i + k]);
  }
}

/* The same step for one row whose neighbours may be missing (edges). */
static inline int FN(pk_step_row)(size_t n, size_t i, size_t k, const T *a, const T *c,
                                  const T *y, T *ao, T *co, T *yo) {
  int lft = i >= k, rgt = i + k < n;
  T al = lft ? a[i - k] : 0, cl = lft ? c[i - k] : 0, yl = lft ? y[i - k] : 0;
  T ar = rgt ? a[i + k] : 0, cr = rgt ? c[i + k] : 0, yr = rgt ? y[i + k] : 0;
  T piv = 1 - PK_MUL(a[i], cl) - PK_MUL(c[i], ar);
  T r = PK_RECIP(piv);
  ao[i] = -PK_MUL(PK_MUL(a[i], al), r);
  co[i] = -PK_MUL(PK_MUL(c[i], cr), r);
  yo[i] = PK_MUL(y[i] - PK_MUL(a[i], yl) - PK_MUL(c[i], yr), r);
  return PK_BAD(piv);
}

#endif
