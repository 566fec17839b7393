/* The last inverse iteration step of eigen_vectors in long double (x87:
 * 64-bit significand), for the small eigenvalues. A double solve of the
 * nearly singular A - s M leaves components of a few eps ||A|| / gap along
 * the other eigenvectors, an eigen-residual of a few eps ||A||; the PSCR
 * solve sees it relative to lambda + c (18), which is small exactly for these
 * vectors. The extra 11 bits bring the rounded vector to within about one
 * rounding of the exact one (used only where long double is x87's:
 * EIGEN_LD_STEP). */
#include <float.h>

#include "eigen/invit_tmpl.h"

#if PSCR_Z
#define LD_RE(x) creall(x)
#define LD_IM(x) cimagl(x)
static inline FN(eigen_ld) FN(ld_cmplx)(long double re, long double im) {
  union {
    FN(eigen_ld) z;
    long double d[2];
  } u = {.d = {re, im}};
  return u.z;
}
/* a / b without the library call (long double's range: |b|^2 cannot overflow). */
static inline FN(eigen_ld) FN(ld_div)(FN(eigen_ld) a, FN(eigen_ld) b) {
  long double br = creall(b), bi = cimagl(b), s = 1 / (br * br + bi * bi);
  long double ar = creall(a), ai = cimagl(a);
  return FN(ld_cmplx)((ar * br + ai * bi) * s, (ai * br - ar * bi) * s);
}
#else
#define LD_RE(x) (x)
#define LD_IM(x) 0.0L
static inline FN(eigen_ld) FN(ld_div)(FN(eigen_ld) a, FN(eigen_ld) b) { return a / b; }
#endif

static inline long double FN(ld_abs1)(FN(eigen_ld) x) { return fabsl(LD_RE(x)) + fabsl(LD_IM(x)); }

/* p raised to magnitude pert when smaller (keeps an exact eigenvalue finite). */
static inline FN(eigen_ld) FN(ld_pivot)(FN(eigen_ld) p, long double pert) {
  long double ap = FN(ld_abs1)(p);
  if (ap >= pert) return p;
  return ap > 0 ? p * (pert / ap) : (FN(eigen_ld))pert;
}

void FN(eigen_ld_step)(const FN(eigen_blk) * B, T s, T *y, FN(eigen_ld) * ldw) {
  size_t n = B->n;
  const T *ad = B->ad, *ao = B->ao, *md = B->md, *mo = B->mo;
  FN(eigen_ld) *x = ldw, *p = x + n, *u1 = p + n, *u2 = u1 + n, ls = s;
  long double pert = LDBL_EPSILON * (B->anorm + S_ABS(s) * B->mnorm);
  if (!(pert > 0)) pert = LDBL_MIN;
  for (size_t i = 0; i < n; i++) { /* x = M y */
    FN(eigen_ld) t = (FN(eigen_ld))md[i] * y[i];
    if (mo && i > 0) t += (FN(eigen_ld))mo[i - 1] * y[i - 1];
    if (mo && i + 1 < n) t += (FN(eigen_ld))mo[i] * y[i + 1];
    x[i] = t;
  }
  /* P (A - s M) = L U, L applied to x on the way (as factor / solve). */
  FN(eigen_ld) d = ad[0] - ls * md[0], du = 0, b = x[0];
  if (n > 1) du = ao[0] - (mo ? ls * mo[0] : 0);
  for (size_t i = 0; i + 1 < n; i++) {
    FN(eigen_ld) sub = ao[i] - (mo ? ls * mo[i] : 0), kn = ad[i + 1] - ls * md[i + 1], on = 0;
    if (i + 2 < n) on = ao[i + 1] - (mo ? ls * mo[i + 1] : 0);
    FN(eigen_ld) bn = x[i + 1];
    if (FN(ld_abs1)(sub) > FN(ld_abs1)(d)) { /* rows i, i+1 interchanged */
      FN(eigen_ld) l = FN(ld_div)(d, sub);
      p[i] = sub, u1[i] = kn, u2[i] = on, x[i] = bn;
      d = du - l * kn, du = -l * on, b -= l * bn;
    } else {
      d = FN(ld_pivot)(d, pert);
      FN(eigen_ld) l = FN(ld_div)(sub, d);
      p[i] = d, u1[i] = du, u2[i] = 0, x[i] = b;
      d = kn - l * du, du = on, b = bn - l * b;
    }
  }
  p[n - 1] = FN(ld_pivot)(d, pert), x[n - 1] = b;
  for (size_t i = 0; i < n; i++) p[i] = FN(ld_div)(1, p[i]); /* off the back substitution's chain */
  long double mx = 0;
  for (size_t i = n; i-- > 0;) {
    FN(eigen_ld) t = x[i];
    if (i + 1 < n) t -= u1[i] * x[i + 1];
    if (i + 2 < n) t -= u2[i] * x[i + 2];
    x[i] = t * p[i];
    long double a = FN(ld_abs1)(x[i]);
    mx = a > mx ? a : mx;
  }
  if (!(mx > 0) || !isfinite(mx)) return; /* keep y: the double iteration's vector */
  for (size_t i = 0; i < n; i++) y[i] = (T)(x[i] / mx);
}
