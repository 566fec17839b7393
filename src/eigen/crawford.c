/* Crawford's reduction of a complex symmetric tridiagonal pencil (A, M) to a
 * complex symmetric tridiagonal C = X^T A X with X^T M X = I (transposes, no
 * conjugation: seed 003 (19)); seed 003 section 4 names the method. M = U U^T
 * with U upper bidiagonal (Cholesky from the bottom, no conjugation). Row and
 * column i (i = n-1 .. 0) are transformed by the inverse of U's column i; the
 * one bulge this creates is chased to the bottom with complex orthogonal
 * rotations G (G^T G = I) acting only on rows >= i, where the transformed M
 * is already the identity, so it stays the identity. O(n^2) operations. */
#include <float.h>
#include <math.h>

#include "eigen/eigen_impl.h"

/* A rotation with c^2 + s^2 = 1 may have |c|, |s| >> 1 when x^2 + g^2 ~ 0
 * (isotropic vectors); beyond this growth the reduction is refused. */
#define CRAWFORD_MAX_GROWTH 1e4

static double abs2(double complex z) { return creal(z) * creal(z) + cimag(z) * cimag(z); }

/* Principal square root without the library's special-case handling (the
 * argument is finite here); csqrt when |z|^2 would over- or underflow. */
static double complex zsqrt(double complex z) {
  double a = creal(z), b = cimag(z), n2 = a * a + b * b;
  if (!(n2 > 1e-300 && n2 < 1e300)) return csqrt(z);
  double t = sqrt(0.5 * (sqrt(n2) + fabs(a)));
  if (a >= 0) return CMPLX(t, b / (2 * t));
  return CMPLX(fabs(b) / (2 * t), copysign(t, b));
}

pscr_status eigen_crawford_z(size_t n, const double complex *ad, const double complex *ao,
                             const double complex *md, const double complex *mo,
                             double complex *d, double complex *e, double complex *work) {
  double complex *u = work, *v = work + n; /* M = U U^T: U(i,i) = u_i, U(i,i+1) = v_i */
  const double tol = 64 * DBL_EPSILON;
  if (cabs(md[n - 1]) == 0) return PSCR_ERR_INVALID_ARGUMENT;
  u[n - 1] = csqrt(md[n - 1]);
  for (size_t i = n - 1; i-- > 0;) {
    v[i] = mo[i] * eigen_zinv(u[i + 1]);
    double complex p = md[i] - v[i] * v[i];
    if (cabs(p) <= tol * (cabs(md[i]) + cabs(v[i] * v[i]))) return PSCR_ERR_INVALID_ARGUMENT;
    u[i] = csqrt(p);
  }
  for (size_t i = 0; i < n; i++) d[i] = ad[i];
  for (size_t i = 0; i + 1 < n; i++) e[i] = ao[i];
  for (size_t i = n; i-- > 0;) {
    double complex s = eigen_zinv(u[i]);
    d[i] *= s * s;
    if (i + 1 < n) e[i] *= s;
    if (i == 0) break;
    e[i - 1] *= s;
    double complex t = v[i - 1]; /* row i-1 -= t * row i, column likewise */
    d[i - 1] += t * (t * d[i] - 2 * e[i - 1]);
    e[i - 1] -= t * d[i];
    if (i + 1 == n) continue;
    double complex g = -t * e[i]; /* bulge C(i-1, i+1) */
    for (size_t k = i;; k++) {    /* bulge at (k-1, k+1): rotate planes (k, k+1) */
      if (g == 0) break;
      double complex x = e[k - 1], r2 = x * x + g * g, r = zsqrt(r2);
      double big = abs2(x) + abs2(g);
      if (!(abs2(r2) * (CRAWFORD_MAX_GROWTH * CRAWFORD_MAX_GROWTH) >= big * big))
        return PSCR_ERR_NOT_CONVERGED;
      double complex ri = eigen_zinv(r), c = x * ri, sn = g * ri;
      double complex cc = c * c, ss = sn * sn, cs = c * sn, dk = d[k], dk1 = d[k + 1], ek = e[k];
      e[k - 1] = r;
      d[k] = cc * dk + 2 * cs * ek + ss * dk1;
      d[k + 1] = ss * dk - 2 * cs * ek + cc * dk1;
      e[k] = cs * (dk1 - dk) + (cc - ss) * ek;
      if (k + 2 >= n) break;
      g = sn * e[k + 1]; /* new bulge at (k, k+2) */
      e[k + 1] *= c;
    }
  }
  return PSCR_OK;
}
