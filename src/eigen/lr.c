/* Eigenvalues of a complex symmetric tridiagonal (diagonal a, off-diagonal e)
 * by the LR algorithm with Wilkinson's shift (seed 003 section 4, [38]). It
 * works on the Jacobi form J = tridiag(b, a, 1), b_i = e_i^2, which has the
 * same eigenvalues: J - s I = L R (L unit lower, R upper with unit
 * superdiagonal), J' = R L + s I; no square roots, one reciprocal per row.
 * LR is not backward stable for indefinite matrices: a sweep whose
 * multipliers grow beyond LR_MAX_GROWTH ||J|| (the shift is near an
 * eigenvalue of a leading block, e.g. exactly so for persymmetric J of odd
 * order) is redone with a moved shift, a pivot below eps ||J|| is raised to
 * it, and the caller refines every eigenvalue on the pencil (invit_tmpl.c). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "eigen/eigen_impl.h"

#define LR_MAX_ITER 60     /* per eigenvalue */
#define LR_MAX_GROWTH 1e6  /* a multiplier above this times ||J|| rejects the shift */
#define LR_MAX_RETRY 8     /* shifts tried per sweep before accepting the growth */

static double abs1(double complex z) { return fabs(creal(z)) + fabs(cimag(z)); }

/* The eigenvalues of [[a1, 1], [b, a2]]: l1 gets the one nearer a1. */
static void eig2(double complex a1, double complex a2, double complex b, double complex *l1,
                 double complex *l2) {
  double complex p = (a1 - a2) / 2, q = csqrt(p * p + b);
  if (creal(conj(p) * q) < 0) q = -q; /* |p + q| >= |p - q| */
  double complex pq = p + q;
  if (pq == 0) { /* p = q = 0, b = 0 */
    *l1 = a1, *l2 = a2;
    return;
  }
  double complex f = b * eigen_zinv(pq);
  *l1 = a1 + f, *l2 = a2 - f;
}

pscr_status eigen_lr_z(size_t n, double complex *a, double complex *b, double complex *lam,
                       double complex *work) {
  double complex *a2 = work, *b2 = work + n;
  const double eps = DBL_EPSILON;
  double tn = 0;
  for (size_t i = 0; i < n; i++)
    tn = fmax(tn, cabs(a[i]) + (i > 0 ? sqrt(cabs(b[i - 1])) : 0) + (i + 1 < n ? sqrt(cabs(b[i])) : 0));
  const double tol2 = (eps * tn) * (eps * tn), pmin = eps * tn > 0 ? eps * tn : DBL_MIN;
  const double gmax = LR_MAX_GROWTH * tn;
  size_t hi = n; /* active block [lo, hi) */
  int iter = 0;
  while (hi > 0) {
    size_t lo = hi - 1;
    while (lo > 0) { /* |e| <= eps ||T|| or eps sqrt(|a_i a_i+1|): negligible */
      double bb = abs1(b[lo - 1]);
      if (bb <= tol2 || bb <= eps * eps * abs1(a[lo - 1]) * abs1(a[lo])) break;
      lo--;
    }
    if (lo + 1 == hi) {
      lam[lo] = a[lo];
      hi--, iter = 0;
      continue;
    }
    if (lo + 2 == hi) {
      eig2(a[lo], a[lo + 1], b[lo], &lam[lo], &lam[lo + 1]);
      hi -= 2, iter = 0;
      continue;
    }
    if (++iter > LR_MAX_ITER) return PSCR_ERR_NOT_CONVERGED;
    double complex s, other;
    eig2(a[hi - 2], a[hi - 1], b[hi - 2], &other, &s); /* Wilkinson: the one nearer a[hi-1] */
    if (iter % 10 == 0) /* exceptional shift */
      s = a[hi - 1] + csqrt(b[hi - 2]) * eigen_cmplx(0.75, 0.25 * iter);
    for (int retry = 0;; retry++) { /* the sweep goes to a2, b2: a, b stay for a retry */
      double complex u = a[lo] - s;
      size_t i = lo;
      for (; i + 1 < hi; i++) {
        if (abs1(u) < pmin) u = pmin;
        double complex l = eigen_zmul(b[i], eigen_zinv(u)), un = a[i + 1] - s - l;
        if (abs1(l) > gmax && retry < LR_MAX_RETRY) break; /* (near) breakdown */
        a2[i] = u + l + s;
        b2[i] = eigen_zmul(un, l);
        u = un;
      }
      if (i + 1 < hi) { /* s is (nearly) an eigenvalue of a leading block: move it */
        s += tn * 1e-3 * (retry + 1) * eigen_cmplx(cos(retry + 1.0), sin(retry + 1.0));
        continue;
      }
      a2[hi - 1] = u + s;
      if (!isfinite(creal(u)) || !isfinite(cimag(u))) return PSCR_ERR_NOT_CONVERGED;
      break;
    }
    memcpy(a + lo, a2 + lo, (hi - lo) * sizeof *a);
    memcpy(b + lo, b2 + lo, (hi - lo - 1) * sizeof *b);
  }
  return PSCR_OK;
}

pscr_status eigen_values_z(size_t n, const double complex *ad, const double complex *ao,
                           const double complex *md, const double complex *mo,
                           double complex *lam, double complex *work) {
  /* Scale A and M by powers of 2 (exact) to entries of size ~1, so that the
   * squares in Crawford's rotations and in b = e^2 neither over- nor underflow. */
  double sa = 0, sm = 0;
  for (size_t i = 0; i < n; i++) {
    sa = fmax(sa, fmax(abs1(ad[i]), i + 1 < n ? abs1(ao[i]) : 0));
    sm = fmax(sm, fmax(abs1(md[i]), mo && i + 1 < n ? abs1(mo[i]) : 0));
  }
  if (sm == 0) return PSCR_ERR_INVALID_ARGUMENT;
  if (sa == 0) { /* A = 0 */
    for (size_t i = 0; i < n; i++) lam[i] = 0;
    return PSCR_OK;
  }
  int ka, km;
  frexp(sa, &ka), frexp(sm, &km);
  double fa = ldexp(1, -ka), fm = ldexp(1, -km);
  double complex *d = work, *e = work + n, *a1 = work + 6 * n, *a2 = a1 + n, *m1 = a2 + n,
                 *m2 = m1 + n;
  for (size_t i = 0; i < n; i++) {
    a1[i] = fa * ad[i], m1[i] = fm * md[i];
    if (i + 1 < n) a2[i] = fa * ao[i], m2[i] = mo ? fm * mo[i] : 0;
  }
  if (mo == NULL) { /* C = M^-1/2 A M^-1/2: only e^2 is needed, no square roots */
    for (size_t i = 0; i < n; i++)
      if (m1[i] == 0) return PSCR_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++) {
      double complex r = eigen_zinv(m1[i]);
      d[i] = eigen_zmul(a1[i], r);
      if (i + 1 < n) e[i] = eigen_zmul(eigen_zmul(a2[i], a2[i]), eigen_zmul(r, eigen_zinv(m1[i + 1])));
    }
  } else {
    pscr_status st = eigen_crawford_z(n, a1, a2, m1, m2, d, e, work + 2 * n);
    if (st != PSCR_OK) return st;
    for (size_t i = 0; i + 1 < n; i++) e[i] = eigen_zmul(e[i], e[i]);
  }
  pscr_status st = eigen_lr_z(n, d, e, lam, work + 2 * n);
  for (size_t i = 0; i < n && st == PSCR_OK; i++) lam[i] *= ldexp(1, ka - km);
  return st;
}
