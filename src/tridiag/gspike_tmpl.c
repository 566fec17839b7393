/* g-Spike (seed 000): SPIKE partitions (spike_tmpl.c), each block solved by a
 * Givens QR factorization without pivoting, R of bandwidth 3 (Alg. 1 step 2i).
 * Singularity detection and modification (sec. 2.2): in an irreducible block
 * only R_mm can vanish (Prop. 2.2). When |R_mm| < SPIKE_MODIFY * scale and the
 * block has a right neighbour, the next column of Q^T A is added to the last
 * one ("welcome fill-in", A P_j with P_j = I + zeta e_{jm+1} e_jm^T), zeta of
 * modulus 1 with the phase (sign) that makes zeta (Q^T c_R)_m point like R_mm,
 * so |R~_mm| = |R_mm| + |alpha c_{m-1}|. A singular last block keeps R_mm
 * and multiplies by diag(R_lead^{-1}, 1) instead: an extra spike U on its last
 * column (the special last-block case). The driver does the rest (tips,
 * x = P_mu x~, the recursive reduced system). */
#include <float.h>
#include <math.h>

#include "core/scalar.h"
#include "tridiag/spike.h"
#include "tridiag/td.h"

#define JOB FN(spike_job)
#define SINGULAR_TOL (DBL_EPSILON / 2) /* the unit roundoff */

static inline R max2(R a, R b) { return a > b ? a : b; }
static inline T rhs_w(const JOB *job, size_t k) { return k < 2 ? job->cl[k] : 0; }
static inline T rhs_v(const JOB *job, size_t k) {
  return k + 1 == job->m ? job->cr[1] : k + 2 == job->m ? job->cr[0] : 0;
}

/* G = [c s; -conj(s) c] with G [a; beta] = [r; 0], c real (seed 000 App. B).
 * Returns |r|. */
static inline R givens(T a, T beta, R *c, T *s, T *r) {
  if (beta == 0) {
    *c = 1;
    *s = 0;
    *r = a;
    return S_ABS(a);
  }
#if PSCR_Z
  R nb = cabs(beta);
  if (a == 0) {
    *c = 0;
    *s = conj(beta) / nb;
    *r = nb;
    return nb;
  }
  R na = cabs(a), nrm = hypot(na, nb);
  T ph = a / na;
  *c = na / nrm;
  *s = ph * conj(beta) / nrm;
  *r = ph * nrm;
  return nrm;
#else
  R t = a * a + beta * beta;
  R nrm = (t > 1e-290 && t < 1e290) ? sqrt(t) : hypot(a, beta);
  *c = a / nrm;
  *s = beta / nrm;
  *r = nrm;
  return nrm;
#endif
}

/* Solves R x = x in place for the leading order-m part (rinv: 1 / R_kk). */
static R backsub(size_t m, const T *rinv, const T *r1, const T *r2, T *x) {
  x[m - 1] *= rinv[m - 1];
  if (m >= 2) x[m - 2] = (x[m - 2] - r1[m - 2] * x[m - 1]) * rinv[m - 2];
  if (m >= 3)
    for (size_t k = m - 2; k-- > 0;) x[k] = (x[k] - r1[k] * x[k + 1] - r2[k] * x[k + 2]) * rinv[k];
  R amax = 0;
  for (size_t k = 0; k < m; k++) {
    R v = S_ABS1(x[k]);
    if (!(v <= amax)) amax = v; /* NaN propagates */
  }
  return isfinite(amax) ? amax : INFINITY;
}

static inline T phase(T z) {
#if PSCR_Z
  R a = cabs(z);
  return a > 0 ? z / a : 1;
#else
  return z < 0 ? -1 : 1;
#endif
}

static pscr_status qr_kernel(JOB *job, void *scratch) {
  size_t m = job->m;
  const T *dl = job->dl, *d = job->d, *du = job->du, *f = job->f;
  T *r0 = scratch, *r1 = r0 + m, *r2 = r1 + m; /* R: diagonal and two super-diagonals */
  T *y = job->y, *w = job->left ? job->w : NULL, *v = job->right ? job->v : NULL;
  job->zeta = 0;
  job->special = 0;
  /* Current row k after the rotations so far: a (column k), bs (column k+1). */
  T a = d[0], bs = m > 1 ? du[0] : 0;
  T cy = f[0], cw = w ? rhs_w(job, 0) : 0, cv = v ? rhs_v(job, 0) : 0;
  R scale = max2(S_ABS1(a), S_ABS1(bs)), rmin = INFINITY;
  for (size_t k = 0; k + 1 < m; k++) {
    T beta = dl[k + 1], dn = d[k + 1], un = k + 2 < m ? du[k + 1] : 0;
    scale = max2(scale, max2(S_ABS1(beta), max2(S_ABS1(dn), S_ABS1(un))));
    R c;
    T s, r;
    R ar = givens(a, beta, &c, &s, &r);
    if (!(ar >= rmin)) rmin = ar;
    T sc = S_CONJ(s);
    r0[k] = r;
    r1[k] = c * bs + s * dn;
    r2[k] = s * un;
    a = c * dn - sc * bs;
    bs = c * un;
    T fn = f[k + 1];
    y[k] = c * cy + s * fn;
    cy = c * fn - sc * cy;
    if (w) {
      fn = rhs_w(job, k + 1);
      w[k] = c * cw + s * fn;
      cw = c * fn - sc * cw;
    }
    if (v) {
      fn = rhs_v(job, k + 1);
      v[k] = c * cv + s * fn;
      cv = c * fn - sc * cv;
    }
  }
  r0[m - 1] = a;
  y[m - 1] = cy;
  if (w) w[m - 1] = cw;
  if (v) v[m - 1] = cv;

  /* Singularity detection (sec. 2.2). Inside a block a small R_kk, k < m, means a
   * reducible, singular leading part the rank-1 modification cannot mend. The
   * threshold delta for R_mm is job->modify (SPIKE_MODIFY, or SPIKE_MODIFY_SHORT
   * for short partitions): modifying a merely ill-conditioned block costs
   * nothing and keeps its spikes small. A modification that leaves
   * |R~_mm| below it too (Q^T A not rank revealing, or a tiny coupling alpha)
   * is refused, and the driver solves with one partition: measured, the error
   * grows like eps scale / |R~_mm| (1e-9 at |R~_mm| = 1e-5 scale). */
  R rmm = S_ABS(a), thr = job->direct ? 0 : (job->modify > 0 ? job->modify : SPIKE_MODIFY) * scale;
  job->pmin = (rmin < rmm ? rmin : rmm) / scale;
  job->scale = scale;
  if (m > 1 && !(rmin > (job->direct ? 0 : SPIKE_DELTA * scale))) return PSCR_ERR_SINGULAR;
  /* Whole system: |R_nn| at or below the unit roundoff of the matrix's scale
   * is the rounding residue of an exactly singular matrix (5e-17 for the
   * Neumann matrix [-1 2 -1]) and is refused; above it the matrix may be
   * numerically singular yet the solution is backward stable (seed 000 #13,
   * dorr at n = 512, 2.2e-16 in its reduced system: normwise backward error
   * 8e-17, forward error 0.9, where gtsv's is 1.5 and the paper's 2.0). */
  if (job->direct && !(rmm > SINGULAR_TOL * scale)) return PSCR_ERR_SINGULAR;
  if (!job->direct && !(rmm >= thr)) {
    if (v) { /* R~(:, m) = R(:, m) + zeta Q^T c_R, nonzero only in rows m-2..m */
      T q = v[m - 1];
      if (!(S_ABS(q) > 0)) return PSCR_ERR_SINGULAR;
      T zeta = phase(a) * S_CONJ(phase(q)); /* sign rule: zeta q has the sign of R_mm */
      r0[m - 1] += zeta * q;
      r1[m - 2] += zeta * v[m - 2];
      if (m >= 3) r2[m - 3] += zeta * v[m - 3];
      if (!(S_ABS(r0[m - 1]) >= thr)) return PSCR_ERR_SINGULAR;
      job->zeta = zeta;
    } else {
      job->special = 1;
    }
  }

  if (job->special) { /* R~ = diag(R_lead, 1): rows 0..m-2 scaled, row m-1 kept */
    T *u = job->v;
    job->db = r0[m - 1];
    for (size_t k = 0; k + 1 < m; k++) {
      r0[k] = 1 / r0[k];
      u[k] = 0;
    }
    u[m - 2] = r1[m - 2]; /* U = R_lead^{-1} R(1:m-1, m) */
    if (m >= 3) u[m - 3] = r2[m - 3];
    u[m - 1] = 0;
    R amax = max2(backsub(m - 1, r0, r1, r2, u), backsub(m - 1, r0, r1, r2, y));
    amax = max2(amax, S_ABS1(y[m - 1]));
    if (w) amax = max2(max2(amax, backsub(m - 1, r0, r1, r2, w)), S_ABS1(w[m - 1]));
    job->amax = isfinite(amax) ? amax : INFINITY;
    return PSCR_OK;
  }
  for (size_t k = 0; k < m; k++) r0[k] = 1 / r0[k];
  R amax = backsub(m, r0, r1, r2, y);
  if (w) amax = max2(amax, backsub(m, r0, r1, r2, w));
  if (v) amax = max2(amax, backsub(m, r0, r1, r2, v));
  job->amax = amax;
  return PSCR_OK;
}

pscr_status FN(td_gspike)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl) {
  return FN(spike_solve)(n, dl, d, du, b, ctl, qr_kernel, 3 * sizeof(T));
}
