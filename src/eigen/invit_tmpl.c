/* Eigenvectors of the pencil (A~, M~) of seed 003 (23) by inverse iteration on
 * the pencil itself, (A - s M) y = M x, with s from eigen_values_*: O(n) work
 * and memory per eigenvector. Vectors are M-normalized with the transpose,
 * w^T M w = 1 ((19); no conjugation for complex symmetric data). Close
 * eigenvalues: a new vector is M-orthogonalized (classical Gram-Schmidt,
 * twice) against the previous vectors whose eigenvalues lie within delta;
 * vectors farther apart are orthogonal to O(eps ||A - s M|| / delta) already.
 * The recurrences are latency bound, so up to EIGEN_BATCH isolated
 * eigenvalues are factored and solved together, interleaved. */
#include <float.h>
#include <string.h>

#include "eigen/invit_tmpl.h"

#define EIGEN_MAX_ITER 30 /* solves per eigenvector (clusters may need > 10) */

static void FN(matvec)(size_t n, const T *d, const T *o, const T *x, T *y) {
  if (o == NULL || n == 1) {
    for (size_t i = 0; i < n; i++) y[i] = S_MUL(d[i], x[i]);
    return;
  }
  y[0] = S_MUL(d[0], x[0]) + S_MUL(o[0], x[1]);
  for (size_t i = 1; i + 1 < n; i++)
    y[i] = S_MUL(o[i - 1], x[i - 1]) + S_MUL(d[i], x[i]) + S_MUL(o[i], x[i + 1]);
  y[n - 1] = S_MUL(o[n - 2], x[n - 2]) + S_MUL(d[n - 1], x[n - 1]);
}

static double FN(vmax)(size_t n, const T *x) { /* four chains: max has a latency */
  double r[4] = {0, 0, 0, 0};
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; k++) r[k] = r[k] > S_ABS1(x[i + k]) ? r[k] : S_ABS1(x[i + k]);
  for (; i < n; i++) r[0] = r[0] > S_ABS1(x[i]) ? r[0] : S_ABS1(x[i]);
  r[0] = r[0] > r[1] ? r[0] : r[1], r[2] = r[2] > r[3] ? r[2] : r[3];
  return r[0] > r[2] ? r[0] : r[2];
}

static T FN(dot)(size_t n, const T *x, const T *y) { /* x^T y, no conjugation */
  T s = 0;
  for (size_t i = 0; i < n; i++) s += S_MUL(x[i], y[i]);
  return s;
}

/* ||A|| + |s| ||M|| (||M|| when that is 0, i.e. A = 0 and s = 0). */
static double FN(scale)(const FN(eigen_blk) * B, T s) {
  double r = B->anorm + S_ABS(s) * B->mnorm;
  return r > 0 ? r : B->mnorm;
}

/* P (A - s_j M) = L U with row interchanges (as LAPACK gttrf), for all j at
 * once; pivots below eps (||A|| + |s_j| ||M||) are raised to that size (as
 * dlagts does), which keeps the solve finite at an exact eigenvalue. */
static void FN(factor)(const FN(eigen_blk) * B, const T *s, size_t nb, FN(eigen_ws) * w) {
  size_t n = B->n;
  const T *ad = B->ad, *ao = B->ao, *md = B->md, *mo = B->mo;
  double pert[EIGEN_BATCH];
  T d[EIGEN_BATCH], du[EIGEN_BATCH];
  for (size_t j = 0; j < nb; j++) {
    pert[j] = DBL_EPSILON * FN(scale)(B, s[j]);
    d[j] = ad[0] - s[j] * md[0];
    du[j] = n > 1 ? ao[0] - (mo ? s[j] * mo[0] : 0) : 0;
  }
  for (size_t i = 0; i + 1 < n; i++) {
    T a1 = ad[i + 1], m1 = md[i + 1], a0 = ao[i], m0 = mo ? mo[i] : 0;
    T a2 = i + 2 < n ? ao[i + 1] : 0, m2 = mo && i + 2 < n ? mo[i + 1] : 0;
    for (size_t j = 0; j < nb; j++) {
      size_t x = i * nb + j;
      T sub = a0 - S_MUL(s[j], m0), kn = a1 - S_MUL(s[j], m1), on = a2 - S_MUL(s[j], m2);
      int swap = S_ABS1(sub) > S_ABS1(d[j]);
      T p = swap ? sub : d[j];
      double ap = S_ABS1(p);
      if (ap < pert[j]) p = ap > 0 ? p * (pert[j] / ap) : pert[j];
      T r = S_INV(p), l = S_MUL(swap ? d[j] : sub, r);
      w->piv[x] = (unsigned char)swap, w->l[x] = l, w->ui[x] = r;
      if (swap) {
        w->u1[x] = kn, w->u2[x] = on;
        d[j] = du[j] - S_MUL(l, kn), du[j] = -S_MUL(l, on);
      } else {
        w->u1[x] = du[j], w->u2[x] = 0;
        d[j] = kn - S_MUL(l, du[j]), du[j] = on;
      }
    }
  }
  for (size_t j = 0; j < nb; j++) {
    double ap = S_ABS1(d[j]);
    if (ap < pert[j]) d[j] = ap > 0 ? d[j] * (pert[j] / ap) : pert[j];
    w->ui[(n - 1) * nb + j] = S_INV(d[j]);
  }
}

/* y_j = (A - s_j M)^-1 y_j for j < nb; ymax[j] = ||y_j||_inf (|re| + |im|). */
static void FN(solve)(size_t n, size_t nb, const FN(eigen_ws) * w, T **y, double *ymax) {
  for (size_t i = 0; i + 1 < n; i++)
    for (size_t j = 0; j < nb; j++) {
      size_t x = i * nb + j;
      T *v = y[j];
      if (w->piv[x]) {
        T t = v[i];
        v[i] = v[i + 1], v[i + 1] = t - S_MUL(w->l[x], v[i + 1]);
      } else {
        v[i + 1] -= S_MUL(w->l[x], v[i]);
      }
    }
  for (size_t j = 0; j < nb; j++) {
    T *v = y[j];
    v[n - 1] = S_MUL(v[n - 1], w->ui[(n - 1) * nb + j]);
    if (n > 1)
      v[n - 2] = S_MUL(v[n - 2] - S_MUL(w->u1[(n - 2) * nb + j], v[n - 1]), w->ui[(n - 2) * nb + j]);
    ymax[j] = S_ABS1(v[n - 1]);
    if (n > 1 && S_ABS1(v[n - 2]) > ymax[j]) ymax[j] = S_ABS1(v[n - 2]);
  }
  for (size_t i = n > 2 ? n - 2 : 0; i-- > 0;)
    for (size_t j = 0; j < nb; j++) {
      size_t x = i * nb + j;
      T *v = y[j];
      v[i] = S_MUL(v[i] - S_MUL(w->u1[x], v[i + 1]) - S_MUL(w->u2[x], v[i + 2]), w->ui[x]);
      if (S_ABS1(v[i]) > ymax[j]) ymax[j] = S_ABS1(v[i]);
    }
}

/* y -= sum_j (w_j^T M y) w_j over the window vectors within delta of s.
 * @return 1 if y changed. */
static int FN(orthogonalize)(const FN(eigen_blk) * B, T s, FN(eigen_ws) * w, T *y) {
  size_t n = B->n;
  int any = 0;
  for (int pass = 0; pass < 2; pass++) {
    T c[EIGEN_WINDOW];
    for (size_t j = 0; j < w->nw; j++) {
      c[j] = S_ABS(w->slam[j] - s) <= B->delta ? FN(dot)(n, w->slot[j] + n, y) : 0;
      any |= c[j] != 0;
    }
    for (size_t j = 0; j < w->nw; j++)
      if (c[j] != 0)
        for (size_t i = 0; i < n; i++) y[i] -= S_MUL(c[j], w->slot[j][i]);
  }
  return any;
}

static inline T FN(signed_off)(T o) { return S_REAL(o) < 0 ? -o : o; } /* k_e ao[e] */

/* s + c += t (Neumaier's compensated sum, per real part): the Rayleigh
 * quotient's sums of n terms keep a few ulps instead of ~sqrt(n). */
static inline void FN(sum1)(double *s, double *c, double t) {
  double x = *s + t;
  *c += fabs(*s) >= fabs(t) ? (*s - x) + t : (t - x) + *s;
  *s = x;
}
static inline void FN(csum)(double *acc, T t) { /* acc: sum re, comp re, sum im, comp im */
  FN(sum1)(acc, acc + 1, S_REAL(t));
#if PSCR_Z
  FN(sum1)(acc + 2, acc + 3, S_IMAG(t));
#endif
}
/* Four such sums (acc[k], taken in turn: their dependency chains overlap),
 * combined. */
static inline T FN(csum4_value)(double acc[4][4]) {
  double tot[4] = {0, 0, 0, 0};
  for (int k = 0; k < 4; k++)
    for (int q = 0; q < 4; q += 2) FN(sum1)(tot + q, tot + q + 1, acc[k][q] + acc[k][q + 1]);
#if PSCR_Z
  return eigen_cmplx(tot[0] + tot[1], tot[2] + tot[3]);
#else
  return tot[0] + tot[1];
#endif
}

/* y^T A y = sum_e k_e ao[e] (y_e + k_e y_e+1)^2 + sum_i ex[i] y_i^2. For
 * balanced rows (Poisson: ex ~ 0, k ao > 0) every term is >= 0 and the
 * differences of a smooth y are exact, so the sum keeps the relative accuracy
 * that the plain y^T (A y) loses to cancellation (error eps ||A|| ||y||^2). */
static inline T FN(quad_term)(const FN(eigen_blk) * B, const T *y, size_t i) {
  T t = S_MUL(B->ex[i], S_MUL(y[i], y[i]));
  if (i + 1 < B->n) {
    T o = B->ao[i], d = S_REAL(o) < 0 ? y[i] - y[i + 1] : y[i] + y[i + 1];
    t += S_MUL(FN(signed_off)(o), S_MUL(d, d));
  }
  return t;
}

static T FN(quad_a)(const FN(eigen_blk) * B, const T *y) {
  size_t n = B->n, i = 0;
  double acc[4][4] = {{0}};
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; k++) FN(csum)(acc[k], FN(quad_term)(B, y, i + (size_t)k));
  for (; i < n; i++) FN(csum)(acc[0], FN(quad_term)(B, y, i));
  return FN(csum4_value)(acc);
}

/* x^T y, compensated as quad_a. */
static T FN(dot2)(size_t n, const T *x, const T *y) {
  size_t i = 0;
  double acc[4][4] = {{0}};
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; k++) FN(csum)(acc[k], S_MUL(x[i + (size_t)k], y[i + (size_t)k]));
  for (; i < n; i++) FN(csum)(acc[0], S_MUL(x[i], y[i]));
  return FN(csum4_value)(acc);
}

/* The Rayleigh quotient y^T A y / y^T M y (bilinear); s when undefined. */
static T FN(rayleigh)(const FN(eigen_blk) * B, const T *y, T s, FN(eigen_ws) * w) {
  size_t n = B->n;
  FN(matvec)(n, B->md, B->mo, y, w->t);
  T ym = FN(dot)(n, y, w->t);
  return S_ABS(ym) > 0 ? FN(quad_a)(B, y) / ym : s;
}

pscr_status FN(eigen_vectors)(const FN(eigen_blk) * B, T *s, size_t nb,
                              FN(eigen_ws) * w, T **out) {
  size_t n = B->n;
  T *b[EIGEN_BATCH];
  double bn[EIGEN_BATCH], yn[EIGEN_BATCH];
  int state[EIGEN_BATCH]; /* 0 iterating, 1 converged (one more solve), 2 done */
  int close[EIGEN_BATCH]; /* reorthogonalized: eigenvalues closer than delta */
  for (size_t j = 0; j < nb; j++) {
    b[j] = w->b + j * n, state[j] = 0, close[j] = 0;
    memcpy(b[j], w->start, n * sizeof(T));
    bn[j] = FN(vmax)(n, b[j]);
  }
  const double thr = 32 * DBL_EPSILON * sqrt((double)n);
  FN(factor)(B, s, nb, w);
  for (int it = 0;; it++) {
    for (size_t j = 0; j < nb; j++) memcpy(out[j], b[j], n * sizeof(T));
    FN(solve)(n, nb, w, out, yn);
    int refactor = 0, done = 1;
    for (size_t j = 0; j < nb; j++) {
      T *y = out[j];
      if (w->nw > 0 && FN(orthogonalize)(B, s[j], w, y)) yn[j] = FN(vmax)(n, y), close[j] = 1;
      if (!(yn[j] > 0) || !isfinite(yn[j])) return PSCR_ERR_NOT_CONVERGED;
      double ratio = bn[j] / (FN(scale)(B, s[j]) * yn[j]); /* ||(A - sM) y|| / (..) ||y|| */
      for (size_t i = 0; i < n; i++) y[i] *= 1 / yn[j];
      if (state[j] == 1) {
        state[j] = 2; /* the extra solve purifies the direction */
      } else if (state[j] == 0) {
        if (ratio <= thr) {
          /* In a cluster the estimate s may be off by more than the gaps, and
           * a small residual still allows components along close neighbours:
           * the last solve then uses the Rayleigh quotient, which purifies. */
          state[j] = 1;
          if (close[j]) s[j] = FN(rayleigh)(B, y, s[j], w), refactor = 1;
        } else if (it + 1 >= EIGEN_MAX_ITER) {
          if (ratio > 1e3 * thr) return PSCR_ERR_NOT_CONVERGED;
          state[j] = 2;
        } else if (it >= 1) { /* s is poor: the Rayleigh quotient */
          s[j] = FN(rayleigh)(B, y, s[j], w), refactor = 1;
        }
      }
      done &= state[j] == 2;
    }
    if (done) break;
    for (size_t j = 0; j < nb; j++) { /* next right-hand side M y */
      FN(matvec)(n, B->md, B->mo, out[j], b[j]);
      bn[j] = FN(vmax)(n, b[j]);
    }
    if (refactor) FN(factor)(B, s, nb, w);
  }
  for (size_t j = 0; j < nb; j++) { /* w^T M w = 1 */
    T *y = out[j], *my = out[j] + n;
    if (EIGEN_LD_STEP && S_ABS(s[j]) <= EIGEN_LD_FRACTION * B->lmax) {
      /* A last step in long double: the double solves leave errors of a few
       * eps ||A|| in (A - lambda M) w, which the solve's residual sees
       * relative to lambda + c (measured: 2-3x the residual at 2D 1023^2). */
      FN(eigen_ld_step)(B, s[j], y, w->ldw);
      if (w->nw > 0) FN(orthogonalize)(B, s[j], w, y);
    }
    FN(matvec)(n, B->md, B->mo, y, my);
    T ym = FN(dot2)(n, y, my);
#if PSCR_Z /* w^T M w ~ 0: an (almost) isotropic eigenvector, ill-posed */
    double yy = 0;
    for (size_t i = 0; i < n; i++) yy += S_REAL(y[i]) * S_REAL(y[i]) + S_IMAG(y[i]) * S_IMAG(y[i]);
    if (!(S_ABS(ym) > 1e3 * DBL_EPSILON * B->mnorm * yy)) return PSCR_ERR_NOT_CONVERGED;
#else
    if (!(ym > 0)) return PSCR_ERR_NOT_CONVERGED;
#endif
    /* The Rayleigh quotient refines the estimate: dsterf / LR are accurate
     * to eps ||A|| only, a relative error of eps cond(A) in the smallest
     * eigenvalues that the solve's residual inherits (1/(lambda + c) in (18)). */
    s[j] = FN(quad_a)(B, y) / ym;
    T sc = S_INV(S_SQRT(ym));
    for (size_t i = 0; i < n; i++) y[i] = S_MUL(y[i], sc), my[i] = S_MUL(my[i], sc);
  }
  return PSCR_OK;
}
