/* Crawford's reduction of a complex symmetric tridiagonal pencil (A, M) to a
 * complex symmetric tridiagonal C = X^T A X with X^T M X = I (transposes, no
 * conjugation: seed 003 (19)); seed 003 section 4 names the method. With
 * M = Z Z^T (bidiagonal Z, no conjugation), row and column i are transformed
 * by the inverse of Z's column i; the one bulge this creates is chased off
 * with complex orthogonal rotations G (G^T G = I, not unitary) acting only
 * where the transformed M is already the identity, so it stays the identity.
 * O(n^2 / 4) rotations. */
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
  if (a >= 0) return eigen_cmplx(t, b / (2 * t));
  return eigen_cmplx(fabs(b) / (2 * t), copysign(t, b));
}

/* One chase step, written for the downward chase and mirrored for the
 * upward one: the bulge g (outside the band next to x) is moved into x by
 * C <- G C G^T, G = [c s; -s c] in the plane (first, second) whose
 * diagonals are d1, d2 and coupling em; en is the next coupling outward
 * (NULL at the end of the matrix). @return 0 when the chase ends, -1 on
 * excessive growth, else 1 with the new bulge in *g. */
static int rotate(double complex *g, double complex *x, double complex *d1, double complex *d2,
                  double complex *em, double complex *en) {
  double complex gg = *g, r2 = eigen_zmul(*x, *x) + eigen_zmul(gg, gg), r = zsqrt(r2);
  double big = abs2(*x) + abs2(gg);
  if (!(abs2(r2) * (CRAWFORD_MAX_GROWTH * CRAWFORD_MAX_GROWTH) >= big * big)) return -1;
  double complex ri = eigen_zinv(r), c = eigen_zmul(*x, ri), sn = eigen_zmul(gg, ri);
  double complex cc = eigen_zmul(c, c), ss = eigen_zmul(sn, sn), cs2 = 2 * eigen_zmul(c, sn);
  double complex a = *d1, b = *d2, m = *em;
  *x = r;
  *d1 = eigen_zmul(cc, a) + eigen_zmul(cs2, m) + eigen_zmul(ss, b);
  *d2 = a + b - *d1; /* the trace is invariant */
  *em = eigen_zmul(0.5 * cs2, b - a) + eigen_zmul(cc - ss, m);
  if (en == NULL) return 0;
  *g = eigen_zmul(sn, *en);
  *en = eigen_zmul(c, *en);
  return *g != 0;
}

/* sqrt(p) for a pivot of M = Z Z^T; 0 when p is negligible against ref. */
static double complex pivot_root(double complex p, double ref) {
  return cabs(p) <= 64 * DBL_EPSILON * ref ? 0 : csqrt(p);
}

/* M = Z Z^T is the twisted ("split") factorization around q = n/2 (as LAPACK
 * dpbstf / dsbgst): for i > q, Z(i,i) = u_i, Z(i-1,i) = v_{i-1} (computed from
 * the bottom), for i < q, Z(i,i) = u_i, Z(i+1,i) = v_i (from the top), and
 * Z(q,q) = u_q. The bottom rows are transformed first (bulges chased down),
 * then the top rows (bulges chased up), then row q: each chase stays inside
 * the part where the transformed M is already I, and is at most n/2 long. */
pscr_status eigen_crawford_z(size_t n, const double complex *ad, const double complex *ao,
                             const double complex *md, const double complex *mo,
                             double complex *d, double complex *e, double complex *work) {
  double complex *u = work, *v = work + n;
  size_t q = n / 2;
  for (size_t i = n - 1; i > q; i--) { /* bottom: column i of Z */
    double complex p = md[i] - (i + 1 < n ? eigen_zmul(v[i], v[i]) : 0);
    u[i] = pivot_root(p, cabs(md[i]) + (i + 1 < n ? abs2(v[i]) : 0));
    if (u[i] == 0) return PSCR_ERR_INVALID_ARGUMENT;
    v[i - 1] = eigen_zmul(mo[i - 1], eigen_zinv(u[i]));
  }
  for (size_t i = 0; i < q; i++) { /* top */
    double complex p = md[i] - (i > 0 ? eigen_zmul(v[i - 1], v[i - 1]) : 0);
    u[i] = pivot_root(p, cabs(md[i]) + (i > 0 ? abs2(v[i - 1]) : 0));
    if (u[i] == 0) return PSCR_ERR_INVALID_ARGUMENT;
    v[i] = eigen_zmul(mo[i], eigen_zinv(u[i]));
  }
  /* the twist: v[q-1] (top) and v[q] (bottom) both meet row q */
  double complex vt = q > 0 ? v[q - 1] : 0, vb = q + 1 < n ? v[q] : 0;
  u[q] = pivot_root(md[q] - eigen_zmul(vt, vt) - eigen_zmul(vb, vb), cabs(md[q]) + abs2(vt) + abs2(vb));
  if (u[q] == 0) return PSCR_ERR_INVALID_ARGUMENT;
  for (size_t i = 0; i < n; i++) d[i] = ad[i];
  for (size_t i = 0; i + 1 < n; i++) e[i] = ao[i];
  for (size_t i = n - 1; i > q; i--) { /* bottom row i: inverse of Z's column i */
    double complex s = eigen_zinv(u[i]), t = v[i - 1];
    d[i] = eigen_zmul(d[i], eigen_zmul(s, s));
    if (i + 1 < n) e[i] = eigen_zmul(e[i], s);
    e[i - 1] = eigen_zmul(e[i - 1], s);
    d[i - 1] += eigen_zmul(t, eigen_zmul(t, d[i]) - 2 * e[i - 1]); /* row i-1 -= t row i */
    e[i - 1] -= eigen_zmul(t, d[i]);
    if (i + 1 == n) continue;
    double complex g = -eigen_zmul(t, e[i]); /* bulge C(i-1, i+1), chased down */
    for (size_t k = i; g != 0; k++) {
      int r = rotate(&g, &e[k - 1], &d[k], &d[k + 1], &e[k], k + 2 < n ? &e[k + 1] : NULL);
      if (r < 0) return PSCR_ERR_NOT_CONVERGED;
      if (r == 0) break;
    }
  }
  for (size_t i = 0; i < q; i++) { /* top row i, mirrored */
    double complex s = eigen_zinv(u[i]), t = v[i];
    d[i] = eigen_zmul(d[i], eigen_zmul(s, s));
    if (i > 0) e[i - 1] = eigen_zmul(e[i - 1], s);
    e[i] = eigen_zmul(e[i], s);
    d[i + 1] += eigen_zmul(t, eigen_zmul(t, d[i]) - 2 * e[i]); /* row i+1 -= t row i */
    e[i] -= eigen_zmul(t, d[i]);
    if (i == 0) continue;
    double complex g = -eigen_zmul(t, e[i - 1]); /* bulge C(i+1, i-1), chased up */
    for (size_t k = i; g != 0; k--) {
      int r = rotate(&g, &e[k], &d[k], &d[k - 1], &e[k - 1], k >= 2 ? &e[k - 2] : NULL);
      if (r < 0) return PSCR_ERR_NOT_CONVERGED;
      if (r == 0) break;
    }
  }
  double complex s = eigen_zinv(u[q]); /* row q: a scaling only */
  d[q] = eigen_zmul(d[q], eigen_zmul(s, s));
  if (q > 0) e[q - 1] = eigen_zmul(e[q - 1], s);
  if (q + 1 < n) e[q] = eigen_zmul(e[q], s);
  return PSCR_OK;
}
