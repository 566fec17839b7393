/* SPIKE_DIAG_PIVOT (seed 001): SPIKE partitions (spike_tmpl.c), each block
 * solved by the Erway-Marcia diagonal pivoting factorization A = L B M^T with
 * 1x1 / 2x2 pivots B_d chosen by the asymmetric Bunch-Kaufman test (eqs. 10-12).
 * No row interchanges: the forward sweep solves L z = f, B y = z as it factors
 * (seed 001 Fig. 5); the backward sweep solves M^T x = y. Up to three
 * right-hand sides share one factorization: f and the two coupling columns. */
#include <math.h>

#include "core/scalar.h"
#include "tridiag/spike.h"
#include "tridiag/td.h"

#define JOB FN(spike_job)

static inline R max2(R a, R b) { return a > b ? a : b; }

/* Right-hand sides of the coupling columns at row k (zero but near the ends). */
static inline T rhs_w(const JOB *job, size_t k) { return k < 2 ? job->cl[k] : 0; }
static inline T rhs_v(const JOB *job, size_t k) {
  return k + 1 == job->m ? job->cr[1] : k + 2 == job->m ? job->cr[0] : 0;
}

/* A pivot is acceptable: the whole system needs only a non-zero finite one;
 * a block needs |pivot| > SPIKE_DELTA * scale, else the driver falls back.
 * Records min |pivot| / s in *pmin. */
static inline int pivot_ok(T piv, R s, R rel, R *pmin) {
  R a = S_ABS(piv), ratio = s > 0 ? a / s : a > 0 ? INFINITY : 0;
  if (ratio < *pmin) *pmin = ratio;
  return S_ISFINITE(piv) && a > rel * s;
}

/* Backward sweep x_i = y_i - g_i x_{i+step_i} (M^T x = y), in place. */
static R backward(size_t m, const T *g, const unsigned char *step, T *y) {
  R amax = 0;
  for (size_t i = m; i-- > 0;) {
    size_t j = i + step[i];
    if (j < m) y[i] -= g[i] * y[j];
    R a = S_ABS1(y[i]);
    if (!(a <= amax)) amax = a; /* NaN propagates */
  }
  return isfinite(amax) ? amax : INFINITY;
}

static pscr_status dp_kernel(JOB *job, void *scratch) {
  size_t m = job->m;
  const T *dl = job->dl, *d = job->d, *du = job->du, *f = job->f;
  T *g = scratch, *y = job->y;
  unsigned char *step = (unsigned char *)(g + m);
  T *w = job->left ? job->w : NULL, *v = job->right ? job->v : NULL;
  R scale = S_ABS1(d[0]), rel = job->direct ? 0 : SPIKE_DELTA, pmin = INFINITY;
  job->zeta = 0;
  job->special = 0;
  T bh = d[0]; /* (1,1) entry of the current Schur complement A_s (eq. 12) */
  T fy = f[0]; /* current entry of L^{-1} f */
  T fw = w ? rhs_w(job, 0) : 0, fv = v ? rhs_v(job, 0) : 0;
  size_t k = 0;
  while (k < m) {
    if (k + 1 == m) { /* the last pivot is 1x1 */
      if (!pivot_ok(bh, scale, rel, &pmin)) return PSCR_ERR_SINGULAR;
      T inv = 1 / bh;
      y[k] = fy * inv;
      if (w) w[k] = fw * inv;
      if (v) v[k] = fv * inv;
      g[k] = 0;
      step[k] = 1;
      break;
    }
    T a2 = dl[k + 1], c1 = du[k], b2 = d[k + 1];
    T a3 = k + 2 < m ? dl[k + 2] : 0, c2 = k + 2 < m ? du[k + 1] : 0;
    R sigma = max2(max2(S_ABS(a2), S_ABS(a3)), max2(S_ABS(b2), max2(S_ABS(c1), S_ABS(c2))));
    scale = max2(scale, sigma);
    /* 1x1 if |b1| sigma1 >= kappa |a2 c1|, written so that it cannot overflow (|c1| <= sigma1) */
    if (sigma == 0 || S_ABS(bh) >= TD_KAPPA * S_ABS(a2) * (S_ABS(c1) / sigma)) {
      if (!pivot_ok(bh, scale, rel, &pmin)) return PSCR_ERR_SINGULAR;
      T inv = 1 / bh;
      y[k] = fy * inv;
      fy = f[k + 1] - a2 * y[k];
      if (w) {
        w[k] = fw * inv;
        fw = rhs_w(job, k + 1) - a2 * w[k];
      }
      if (v) {
        v[k] = fv * inv;
        fv = rhs_v(job, k + 1) - a2 * v[k];
      }
      g[k] = c1 * inv; /* M: x_k = y_k - (c1 / b1) x_{k+1} */
      step[k] = 1;
      bh = b2 - a2 * g[k]; /* eq. 12, d = 1 */
      k += 1;
      continue;
    }
    /* 2x2 pivot B = [b1 c1; a2 b2], Delta = b1 b2 - a2 c1 (|Delta| > (1 - kappa) |a2 c1|) */
    T delta = bh * b2 - a2 * c1;
    if (!pivot_ok(delta, scale * scale, rel, &pmin)) return PSCR_ERR_SINGULAR;
    T inv = 1 / delta;
    T f1 = f[k + 1];
    y[k] = (b2 * fy - c1 * f1) * inv;
    y[k + 1] = (bh * f1 - a2 * fy) * inv;
    if (w) {
      T w1 = rhs_w(job, k + 1);
      w[k] = (b2 * fw - c1 * w1) * inv;
      w[k + 1] = (bh * w1 - a2 * fw) * inv;
    }
    if (v) {
      T v1 = rhs_v(job, k + 1);
      v[k] = (b2 * fv - c1 * v1) * inv;
      v[k + 1] = (bh * v1 - a2 * fv) * inv;
    }
    g[k] = -c1 * c2 * inv; /* B^{-1} [0; c2]: both rows couple to x_{k+2} */
    g[k + 1] = bh * c2 * inv;
    step[k] = 2; /* x_k and x_{k+1} both use x_{k+2} */
    step[k + 1] = 1;
    if (k + 2 < m) {
      fy = f[k + 2] - a3 * y[k + 1]; /* T21 B^{-1} z = a3 y_{k+1} */
      if (w) fw = rhs_w(job, k + 2) - a3 * w[k + 1];
      if (v) fv = rhs_v(job, k + 2) - a3 * v[k + 1];
      bh = d[k + 2] - a3 * g[k + 1]; /* eq. 12, d = 2: b3 - a3 b1 c2 / Delta */
    }
    k += 2;
  }
  R amax = backward(m, g, step, y);
  if (w) amax = max2(amax, backward(m, g, step, w));
  if (v) amax = max2(amax, backward(m, g, step, v));
  job->amax = amax;
  job->pmin = pmin;
  job->scale = scale;
  return PSCR_OK;
}

pscr_status FN(td_spike_dp)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl) {
  return FN(spike_solve)(n, dl, d, du, b, ctl, dp_kernel, sizeof(T) + 1);
}
