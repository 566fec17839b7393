/* The innermost level on the CPU, fused per task (seed 003 section 4.3):
 * stage_11_td_12a = right-hand sides (26) + (A + (c+lambda) M) y = rhs +
 * partial sums of (24); stage_21_td_22a = the same with (28) and (27).
 * V shifted systems run interleaved: Thomas with coefficients formed on the
 * fly (in excess form), right-hand sides formed inside the forward sweep and
 * the sums inside the backward sweep. AUTO keeps a system on Thomas only when
 * the sweep proves its backward stability (bounded growth: dominant or
 * positive definite rows); otherwise it is solved again with symmetric
 * diagonal pivoting in excess form (forward_dpiv). */
#include <float.h>
#include <string.h>

#include "backend/cpu/cpu_pscr.h"
#include "core/clones.h"
#include "core/threads.h"
#include "eigen/eigen_impl.h"
#include "tridiag/td.h"

#define V PSCR_CPU_V
/* The sweeps take their variant as a constant: inlined, each variant's lane
 * loop is branch-free and vectorizes (a shared out-of-line copy did not). */
#if defined(__GNUC__)
#define PSCR_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define PSCR_ALWAYS_INLINE inline
#endif
#define GROWTH 4 /* AUTO keeps Thomas while |l_i u_i-1| <= GROWTH |row i of A| */

typedef struct {
  size_t n;
  const T *ad, *ao, *md, *mo; /* A_last, M_last */
  const T *exa, *exm;         /* their row excess (eigen_row_excess, signs of ao) */
} FN(tri);

/* V systems with shifts sg and right-hand sides (26) / (28)
 *   rhs_v[i] = sum_r wr[r][v] f_r[i] + w0[v] gs[i] + wm[v] ge[i]:
 * one block: f_r = xb + dpos[r]*n, shared by the lanes (gs, ge NULL: none);
 * packed blocks (lp != NULL): lane v's own rows lp[r*V+v], lgs[v], lge[v]. */
typedef struct {
  size_t nsrc;
  const T *xb;
  const size_t *dpos;
  const T *gs, *ge;
  const T *wr, *w0, *wm, *sg;
  const T *const *lp, *const *lgs, *const *lge;
} FN(chunk);

static inline T FN(rhs_at)(const FN(chunk) * c, size_t n, size_t i, int v) {
  T s = 0;
  if (c->lp) {
    for (size_t r = 0; r < c->nsrc; r++) s += SMUL(c->wr[r * V + v], c->lp[r * V + v][i]);
    return s + SMUL(c->w0[v], c->lgs[v][i]) + SMUL(c->wm[v], c->lge[v][i]);
  }
  for (size_t r = 0; r < c->nsrc; r++) s += SMUL(c->wr[r * V + v], c->xb[c->dpos[r] * n + i]);
  if (c->gs) s += SMUL(c->w0[v], c->gs[i]);
  if (c->ge) s += SMUL(c->wm[v], c->ge[i]);
  return s;
}

/* Row i of the V right-hand sides, formed from the sources (26) / (28). */
static inline void FN(rhs_row)(const FN(chunk) * c, size_t n, size_t i, T *rhs) {
  for (int v = 0; v < V; v++) rhs[v] = 0;
  if (c->lp) {
    for (size_t r = 0; r < c->nsrc; r++)
      for (int v = 0; v < V; v++) rhs[v] += SMUL(c->wr[r * V + v], c->lp[r * V + v][i]);
    for (int v = 0; v < V; v++)
      rhs[v] += SMUL(c->w0[v], c->lgs[v][i]) + SMUL(c->wm[v], c->lge[v][i]);
  } else {
    for (size_t r = 0; r < c->nsrc; r++) {
      T s = c->xb[c->dpos[r] * n + i];
      for (int v = 0; v < V; v++) rhs[v] += SMUL(c->wr[r * V + v], s);
    }
  }
  if (c->gs) {
    T s = c->gs[i];
    for (int v = 0; v < V; v++) rhs[v] += SMUL(c->w0[v], s);
  }
  if (c->ge) {
    T s = c->ge[i];
    for (int v = 0; v < V; v++) rhs[v] += SMUL(c->wm[v], s);
  }
}

/* 1/p and its magnitude for the singularity / range tests (complex: |p|^2). */
#if PSCR_Z
#define RCP_DEN(p, rp, den)                                                                        \
  do {                                                                                             \
    den = creal(p) * creal(p) + cimag(p) * cimag(p);                                               \
    R inv_ = 1.0 / den;                                                                            \
    rp = CMPLX(creal(p) * inv_, -cimag(p) * inv_);                                                 \
  } while (0)
#else
#define RCP_DEN(p, rp, den) (den = fabs(p), rp = 1.0 / (p))
#endif

/* Forward sweep of V interleaved systems: P = 1/pivots, Z = modified rhs.
 * Excess form: with a_e = k_e o_e (o_e = ao_e + sg mo_e) and the row excess
 * s_i = exa_i + sg exm_i, d_i = s_i + a_i-1 + a_i and the pivot
 * p_i = d_i - a_i-1^2 / p_i-1 = t_i + a_i, t_i = s_i + l_i k_i-1 t_i-1 with
 * l_i = o_i-1 / p_i-1: no cancellation for balanced rows, where forming d_i
 * would round away the small part sg md_i that sets the smallest eigenvalue
 * (uniform meshes make that rounding the same in every row: a shift error of
 * eps ||A||, measured 10x the residual at 2D 1023^2).
 * check (AUTO): mg = min over rows of GROWTH |d_i| - |l_i o_i-1|: mg > 0 bounds
 * |L||U| by (1 + 2 GROWTH) |A|, so the LU's backward error is a few eps |A|
 * (Higham, Thm 9.3), as good as partial pivoting's. Dominant rows pass; so do
 * positive definite (and nearly so, complex symmetric) rows, whose
 * o^2 / p_i-1 < d_i; indefinite systems meet a small pivot and go to
 * pivoting. A zero pivot makes mg -inf or NaN (which then reaches the last
 * 1 / pivot, reported in lo). (Complex: |.|_1 magnitudes.)
 * lo, hi: min / max of |pivot| (complex: |pivot|^2; real with check: lo = 1
 * if the last 1 / pivot is finite, else 0). */
static PSCR_ALWAYS_INLINE void FN(forward)(const FN(tri) * m, const FN(chunk) * c,
                                           T *restrict P, T *restrict Z, R *mg, R *lo, R *hi,
                                           const int check) {
  size_t n = m->n;
  T op[V], rp[V], zp[V], tq[V];
  R mgv[V], lov[V], hiv[V];
  for (int v = 0; v < V; v++) {
    op[v] = rp[v] = zp[v] = tq[v] = 0;
    mgv[v] = lov[v] = INFINITY, hiv[v] = 0;
  }
  for (size_t i = 0; i < n; i++) {
    T rhs[V];
    FN(rhs_row)(c, n, i, rhs);
    T adi = m->ad[i], mdi = m->md[i], xai = m->exa[i], xmi = m->exm[i], aoi = 0, moi = 0;
    R k = 1;
    if (i + 1 < n) aoi = m->ao[i], moi = m->mo[i], k = creal(aoi) < 0 ? -1 : 1;
#pragma omp simd
    for (int v = 0; v < V; v++) {
      T o = aoi + SMUL(c->sg[v], moi);
      T g = SMUL(op[v], rp[v]); /* l_i */
      T t = xai + SMUL(c->sg[v], xmi) + SMUL(g, tq[v]);
      T piv = t + k * o;
      zp[v] = rhs[v] - SMUL(g, zp[v]);
      tq[v] = k * t;
      R den;
      if (check) {
        T d = adi + SMUL(c->sg[v], mdi);
        R dd = GROWTH * SNORM1(d) - SNORM1(g) * SNORM1(op[v]); /* >= |l_i o_i-1| */
        mgv[v] = dd < mgv[v] ? dd : mgv[v];
      }
#if PSCR_Z
      RCP_DEN(piv, rp[v], den);
      lov[v] = den < lov[v] ? den : lov[v];
      hiv[v] = den > hiv[v] ? den : hiv[v];
#else
      if (check) {
        rp[v] = 1.0 / piv;
      } else {
        RCP_DEN(piv, rp[v], den);
        lov[v] = den < lov[v] ? den : lov[v];
      }
#endif
      op[v] = o;
      P[i * V + v] = rp[v];
      Z[i * V + v] = zp[v];
    }
  }
  for (int v = 0; v < V; v++) {
    mg[v] = mgv[v], lo[v] = lov[v], hi[v] = hiv[v];
#if !PSCR_Z
    if (check) lo[v] = isfinite(rp[v]) ? 1 : 0;
#endif
  }
}

/* Row i of the solutions x: acc_o[i] += sum_v wo[o][v] x_v (outp NULL), or
 * outp[v][o*n + i] += wo[o][v] x_v (packed lanes), or x into Z (store). */
static inline void FN(emit)(size_t n, size_t i, const T *x, size_t nout, const T *wo, T *acc,
                            T *const *outp, T *Z, const int store) {
  if (store) {
    for (int v = 0; v < V; v++) Z[i * V + v] = x[v];
  } else if (outp) {
    for (int v = 0; v < V; v++)
      for (size_t q = 0; q < nout; q++) outp[v][q * n + i] += SMUL(wo[q * V + v], x[v]);
  } else {
    for (size_t q = 0; q < nout; q++) {
      T s = 0;
      for (int v = 0; v < V; v++) s += SMUL(wo[q * V + v], x[v]);
      acc[q * n + i] += s;
    }
  }
}

/* Backward sweep of Thomas, the sums formed on the way (emit). */
static PSCR_ALWAYS_INLINE void FN(backward)(const FN(tri) * m, const T *sg, const T *restrict P, T *restrict Z,
                                size_t nout, const T *wo, T *restrict acc, T *const *outp,
                                const int store) {
  size_t n = m->n;
  T xn[V];
  for (int v = 0; v < V; v++) xn[v] = 0;
  for (size_t i = n; i-- > 0;) {
    T aoi = 0, moi = 0, x[V];
    if (i + 1 < n) aoi = m->ao[i], moi = m->mo[i];
#pragma omp simd
    for (int v = 0; v < V; v++) {
      T o = aoi + SMUL(sg[v], moi);
      x[v] = SMUL(Z[i * V + v] - SMUL(o, xn[v]), P[i * V + v]);
      xn[v] = x[v];
    }
    FN(emit)(n, i, x, nout, wo, acc, outp, Z, store);
  }
}

/* Symmetric diagonal pivoting (1x1 / 2x2, seed 001's asymmetric
 * Bunch-Kaufman test) of V interleaved systems in excess form, the GPU lane
 * engine's fallback (kernels/common/pscr_lane.h, pscr_lane_d1 / d2: the
 * formulas are there): with E_i = k_i o_i, row i's modified diagonal is
 * p = t_i + E_i, t_i = s_i + tq (tq from the pivot before), its modified
 * right-hand side f_i + g. Row interchanges (LAPACK's partial pivoting, this
 * fallback before) mix the row excess s into the edge weights E: on 2D
 * Helmholtz 64 x 2047 at omega = 20 pi they left a residual 100x this one's.
 * Row-synchronous per lane: a 2x2 begun at row i is completed at row i+1.
 * Out: P = u_i (coupling), Z = y_i, U = 1 on the first row of a 2x2 (its
 * u couples to x_i+2); lo, hi: min / max |pivot|_1 (lo 0: a zero pivot). */
static inline void FN(forward_dpiv)(const FN(tri) * m, const FN(chunk) * c, T *restrict P,
                                    T *restrict U, T *restrict Z, R *lo, R *hi) {
  size_t n = m->n;
  const T *sg = c->sg;
  T tq[V], g[V], tp[V], fp[V], rhs[V];
  int pend[V];
  R lov[V], hiv[V];
  for (int v = 0; v < V; v++)
    tq[v] = g[v] = tp[v] = fp[v] = 0, pend[v] = 0, lov[v] = INFINITY, hiv[v] = 0;
  for (size_t i = 0; i < n; i++) {
    FN(rhs_row)(c, n, i, rhs);
    T xa = m->exa[i], xm = m->exm[i], ao0 = 0, mo0 = 0, aop = 0, mop = 0, xa1 = 0, xm1 = 0;
    T ao1 = 0, mo1 = 0;
    R k0 = 1, kp = 1, k1 = 1;
    if (i + 1 < n) {
      ao0 = m->ao[i], mo0 = m->mo[i], k0 = creal(ao0) < 0 ? -1 : 1;
      xa1 = m->exa[i + 1], xm1 = m->exm[i + 1];
    }
    if (i + 2 < n) ao1 = m->ao[i + 1], mo1 = m->mo[i + 1], k1 = creal(ao1) < 0 ? -1 : 1;
    if (i > 0) aop = m->ao[i - 1], mop = m->mo[i - 1], kp = creal(aop) < 0 ? -1 : 1;
    for (int v = 0; v < V; v++) {
      T si = xa + SMUL(sg[v], xm), o0 = ao0 + SMUL(sg[v], mo0), e0 = k0 * o0;
      T fm = rhs[v] + g[v];
      if (pend[v]) { /* the 2x2 of rows i-1, i */
        T op = aop + SMUL(sg[v], mop), ep = kp * op, p = tp[v] + ep;
        T q = SMUL(p, si) + SMUL(ep, tp[v]), delta = q + SMUL(p, e0), r;
        R den = SNORM1(delta);
        lov[v] = den < lov[v] ? den : lov[v], hiv[v] = den > hiv[v] ? den : hiv[v];
        r = 1 / delta;
        T d1 = si + ep + e0;
        P[(i - 1) * V + v] = -SMUL(SMUL(op, o0), r);
        Z[(i - 1) * V + v] = SMUL(SMUL(d1, fp[v]) - SMUL(op, rhs[v]), r);
        U[(i - 1) * V + v] = 1;
        T y1 = SMUL(SMUL(p, rhs[v]) - SMUL(op, fp[v]), r);
        P[i * V + v] = SMUL(SMUL(p, o0), r), Z[i * V + v] = y1, U[i * V + v] = 0;
        tq[v] = SMUL(e0, SMUL(q, r)), g[v] = -SMUL(o0, y1), pend[v] = 0;
        continue;
      }
      T t = si + tq[v], p = t + e0;
      int two = 0;
      if (i + 1 < n) {
        T o1 = ao1 + SMUL(sg[v], mo1), d1 = xa1 + SMUL(sg[v], xm1) + e0 + k1 * o1;
        R a = SNORM1(o0), sigma = fmax(fmax(a, SNORM1(d1)), SNORM1(o1));
        two = SNORM1(p) * sigma < TD_KAPPA * a * a;
      }
      if (two) { /* completed at row i+1; its right-hand side enters unmodified */
        tp[v] = t, fp[v] = fm, g[v] = 0, pend[v] = 1;
        continue;
      }
      R den = SNORM1(p);
      lov[v] = den < lov[v] ? den : lov[v], hiv[v] = den > hiv[v] ? den : hiv[v];
      T r = 1 / p, y = SMUL(fm, r);
      P[i * V + v] = SMUL(o0, r), Z[i * V + v] = y, U[i * V + v] = 0;
      tq[v] = SMUL(e0, SMUL(t, r)), g[v] = -SMUL(o0, y);
    }
  }
  for (int v = 0; v < V; v++) lo[v] = lov[v], hi[v] = hiv[v];
}

static inline void FN(backward_dpiv)(size_t n, const T *restrict P, const T *restrict U,
                                     T *restrict Z, size_t nout, const T *wo, T *restrict acc,
                                     T *const *outp, const int store) {
  T x1[V], x2[V];
  for (int v = 0; v < V; v++) x1[v] = x2[v] = 0;
  for (size_t i = n; i-- > 0;) {
    T x[V];
    for (int v = 0; v < V; v++) {
      x[v] = Z[i * V + v] - SMUL(P[i * V + v], creal(U[i * V + v]) != 0 ? x2[v] : x1[v]);
      x2[v] = x1[v], x1[v] = x[v];
    }
    FN(emit)(n, i, x, nout, wo, acc, outp, Z, store);
  }
}

#if PSCR_Z
static inline T FN(sdiv)(T a, T b) { /* Smith's division: no overflow of |b|^2 */
  R br = creal(b), bi = cimag(b), r, den;
  if (fabs(br) >= fabs(bi)) {
    r = bi / br, den = br + bi * r;
    return CMPLX((creal(a) + cimag(a) * r) / den, (cimag(a) - creal(a) * r) / den);
  }
  r = br / bi, den = bi + br * r;
  return CMPLX((creal(a) * r + cimag(a)) / den, (cimag(a) * r - creal(a)) / den);
}
#else
static inline T FN(sdiv)(T a, T b) { return a / b; }
#endif

/* Partial pivoting (LAPACK xgtsv's algorithm): dl[i] = A(i+1,i), du[i] = A(i,i+1);
 * du2 gets the fill-in. Overwrites b with x. */
static pscr_status FN(gtsv)(size_t n, T *dl, T *d, T *du, T *du2, T *b) {
  for (size_t i = 0; i + 1 < n; i++) {
    du2[i] = 0;
    if (SNORM1(d[i]) >= SNORM1(dl[i])) {
      if (d[i] == 0) return PSCR_ERR_SINGULAR;
      T f = FN(sdiv)(dl[i], d[i]);
      d[i + 1] -= SMUL(f, du[i]);
      b[i + 1] -= SMUL(f, b[i]);
    } else { /* interchange rows i and i+1 */
      T f = FN(sdiv)(d[i], dl[i]), t = d[i + 1];
      d[i] = dl[i];
      d[i + 1] = du[i] - SMUL(f, t);
      if (i + 2 < n) du2[i] = du[i + 1], du[i + 1] = -SMUL(f, du2[i]);
      du[i] = t;
      t = b[i], b[i] = b[i + 1], b[i + 1] = t - SMUL(f, b[i + 1]);
    }
  }
  if (d[n - 1] == 0) return PSCR_ERR_SINGULAR;
  b[n - 1] = FN(sdiv)(b[n - 1], d[n - 1]);
  if (n > 1) b[n - 2] = FN(sdiv)(b[n - 2] - SMUL(du[n - 2], b[n - 1]), d[n - 2]);
  for (size_t i = n > 2 ? n - 2 : 0; i-- > 0;)
    b[i] = FN(sdiv)(b[i] - SMUL(du[i], b[i + 1]) - SMUL(du2[i], b[i + 2]), d[i]);
  for (size_t i = 0; i < n; i++)
    if (!S_ISFINITE(b[i])) return PSCR_ERR_SINGULAR;
  return PSCR_OK;
}

/* System v alone into column v of Z: AUTO = partial pivoting, else the registry's solver. */
static pscr_status FN(one)(const FN(tri) * m, const FN(chunk) * c, int v, pscr_td_algorithm alg,
                           T *w, T *Z) {
  size_t n = m->n;
  T *l = w, *d = w + n, *u = w + 2 * n, *b = w + 3 * n, *extra = w + 4 * n, sg = c->sg[v];
  for (size_t i = 0; i < n; i++) {
    d[i] = m->ad[i] + SMUL(sg, m->md[i]);
    u[i] = i + 1 < n ? m->ao[i] + SMUL(sg, m->mo[i]) : 0;
    b[i] = FN(rhs_at)(c, n, i, v);
  }
  pscr_status st;
  if (alg == PSCR_TD_AUTO) {
    memcpy(l, u, n * sizeof *l); /* symmetric: A(i+1,i) = A(i,i+1) */
    st = FN(gtsv)(n, l, d, u, extra, b);
  } else {
    for (size_t i = n; i-- > 1;) l[i] = u[i - 1];
    l[0] = 0;
    td_ctl ctl = {.threads = 1, .work = extra, .work_bytes = 3 * n * sizeof(T)};
    st = FN(td_lookup)(alg)(n, l, d, u, b, &ctl);
  }
  if (st == PSCR_OK)
    for (size_t i = 0; i < n; i++) Z[i * V + v] = b[i];
  return st;
}

/* The row excess of A_last, M_last (2 n) in a thread's scratch: after
 * run_task's P, Z, U (3 V n), gen (7 n), boundary terms (2 V n), zeros (n). */
static T *FN(ws_excess)(T *ws, size_t n) { return ws + (5 * V + 8) * n; }

size_t FN(cpu_pscr_inner_scratch)(size_t n_last, size_t max_nd) {
  return (5 * V + 10) * n_last + (2 * max_nd + 8) * V;
}

#if PSCR_Z
#define RANGE_OK(lo, hi)                                                                           \
  ((lo) >= DBL_MIN && (hi) <= DBL_MAX) /* |p|^2 neither under- nor overflowed */
#else
#define RANGE_OK(lo, hi) 1
#endif

/* The chunk's V systems (nv real ones, the others padding with zero weights)
 * and their sums into acc (or the packed lanes' outp), formed in the backward
 * sweep. AUTO: Thomas where its growth is bounded (forward), else the whole
 * chunk by diagonal pivoting (forward_dpiv). After a chunk whose lanes all failed, the next chunks
 * (nearby shifts: eigenvalues are sorted) go to pivoting directly; *hint
 * counts them down to the next try of Thomas. */
PSCR_CLONES static pscr_status FN(solve_chunk)(const FN(tri) * m, const FN(chunk) * ch, int nv,
                                   pscr_td_algorithm alg, T *P, T *Z, T *U, T *gen,
                                   size_t nout, const T *wo, T *acc, T *const *outp, int *hint) {
  size_t n = m->n;
  R mg[V], lo[V], hi[V];
  int ok[V] = {0}, all = 1, none = 1;
  if (alg == PSCR_TD_AUTO && *hint > 0) {
    (*hint)--;
  } else if (alg == PSCR_TD_THOMAS || alg == PSCR_TD_AUTO) {
    if (alg == PSCR_TD_AUTO)
      FN(forward)(m, ch, P, Z, mg, lo, hi, 1);
    else
      FN(forward)(m, ch, P, Z, mg, lo, hi, 0);
    for (int v = 0; v < nv; v++) {
      if (alg == PSCR_TD_THOMAS && !(lo[v] > 0)) return PSCR_ERR_SINGULAR;
      ok[v] = (alg == PSCR_TD_THOMAS || (mg[v] > 0 && lo[v] > 0)) && RANGE_OK(lo[v], hi[v]);
      all = all && ok[v], none = none && !ok[v];
    }
    if (all) {
      FN(backward)(m, ch->sg, P, Z, nout, wo, acc, outp, 0);
      *hint = 0;
      return PSCR_OK;
    }
    if (alg == PSCR_TD_THOMAS) FN(backward)(m, ch->sg, P, Z, nout, wo, acc, outp, 1);
    *hint = none ? 3 : 0;
  }
  if (alg == PSCR_TD_AUTO) {
    FN(forward_dpiv)(m, ch, P, U, Z, lo, hi);
    all = 1;
    for (int v = 0; v < nv; v++) {
      if (!(lo[v] > 0)) return PSCR_ERR_SINGULAR; /* an exact zero pivot after pivoting */
      ok[v] = RANGE_OK(lo[v], hi[v]);
      all = all && ok[v];
    }
    if (all) {
      FN(backward_dpiv)(n, P, U, Z, nout, wo, acc, outp, 0);
      return PSCR_OK;
    }
    FN(backward_dpiv)(n, P, U, Z, nout, wo, acc, outp, 1);
  }
  for (int v = 0; v < nv; v++) { /* the rest one by one: other algorithms, extreme ranges */
    if (ok[v]) continue;
    pscr_status s = FN(one)(m, ch, v, alg, gen, Z);
    if (s != PSCR_OK) return s;
  }
  for (size_t i = 0; i < n; i++) {
    T x[V];
    for (int v = 0; v < V; v++) x[v] = v < nv ? Z[i * V + v] : 0;
    FN(emit)(n, i, x, nout, wo, acc, outp, Z, 0);
  }
  return PSCR_OK;
}

/* Lane v of a chunk: shift and weights of eigenpair l of block b (on = 0: padding). */
static void FN(lane)(const pscr_stage_args *a, const pscr_block *b, size_t l, int v, T on, T c,
                     FN(chunk) * ch, T *wo) {
  const T *w = (const T *)a->comp + b->comp + l * (2 + b->nd);
  int back = a->phase == PSCR_BACK;
  T *sg = (T *)ch->sg, *wr = (T *)ch->wr, *w0 = (T *)ch->w0, *wm = (T *)ch->wm;
  sg[v] = c + ((const T *)a->lambda)[b->eig + l];
  for (size_t r = 0; r < ch->nsrc; r++) wr[r * V + v] = on * w[2 + r];
  w0[v] = -on * w[0], wm[v] = -on * w[1];
  for (size_t q = 0; q < (back ? b->nd : 2); q++) wo[q * V + v] = on * w[back ? 2 + q : q];
}

/* K̂ u_{s-1} and Ǩ u_{e+1} of (28), (29) for block b into gs, ge (NULL: no neighbour). */
static void FN(boundary)(const pscr_stage_args *a, const pscr_block *b, const T *x, T c, T *gs,
                         T *ge, const T **gsp, const T **gep) {
  const T *lao = a->lev_ao, *lmo = a->lev_mo;
  size_t n = a->len;
  *gsp = *gep = NULL;
  if (a->phase != PSCR_BACK) return;
  if (b->s > 0) {
    size_t j = b->s - 1;
    FN(cpu_pscr_kron)(&a->kron, lao[j] + SMUL(c, lmo[j]), lmo[j], x + j * n, gs, 0, n, 0, NULL);
    *gsp = gs;
  }
  if (b->s + b->m < a->lev_n) {
    size_t j = b->s + b->m - 1;
    FN(cpu_pscr_kron)
    (&a->kron, lao[j] + SMUL(c, lmo[j]), lmo[j], x + (j + 1) * n, ge, 0, n, 0, NULL);
    *gep = ge;
  }
}

/* One task for vector p of the batch: a slice of one block (its rows D
 * shared by the lanes), or small blocks packed into one chunk (each lane
 * reads its own block's rows; #D <= m <= V/2 there). */
static pscr_status FN(run_task)(const pscr_stage_args *a, size_t p, size_t t, T *ws) {
  const pscr_step *st = a->step;
  const pscr_task *tk = &st->tasks[t];
  FN(tri) m = {a->kron.n[0], a->kron.ad[0], a->kron.ao[0], a->kron.md[0], a->kron.mo[0], 0, 0};
  size_t n = m.n, nom = a->acc_blk / n;
  int back = a->phase == PSCR_BACK;
  const T *x = (const T *)a->x + p * a->x_stride;
  T c = ((const T *)a->shift)[p];
  T *acc = (T *)a->acc + (p * (a->group->t1 - a->group->t0) + (t - a->group->t0)) * a->acc_item;
  T *P = ws, *Z = P + V * n, *U = Z + V * n, *gen = U + V * n;
  T *gb = gen + 7 * n, *zero = gb + 2 * V * n, *exa = FN(ws_excess)(ws, n); /* = zero + n */
  int hint = 0;
  T *wr = exa + 2 * n, *wo = wr + st->max_nd * V, *w0 = wo + nom * V, *wm = w0 + V, *sg = wm + V;
  m.exa = exa, m.exm = exa + n; /* filled by inner_stage */
  FN(chunk) ch = {0, NULL, NULL, NULL, NULL, wr, w0, wm, sg, NULL, NULL, NULL};
  if (tk->nb == 1) {
    const pscr_block *b = &st->blocks[tk->b0];
    size_t nout = back ? b->nd : 2;
    ch.nsrc = b->nd, ch.xb = x + b->s * n, ch.dpos = st->dpos + b->d;
    FN(boundary)(a, b, x, c, gb, gb + n, &ch.gs, &ch.ge);
    memset(acc, 0, nout * n * sizeof *acc);
    /* Largest eigenvalues first: the terms of (24)/(27) grow as lambda falls
     * (1 / (lambda + c) in (18)), so the partial sums stay small until the
     * dominant terms come, and the rounding of the sum is that of its result. */
    for (size_t ci = (tk->l1 - tk->l0 + V - 1) / V; ci-- > 0;) {
      size_t l = tk->l0 + ci * V;
      int nv = tk->l1 - l < V ? (int)(tk->l1 - l) : V;
      for (int v = 0; v < V; v++) FN(lane)(a, b, v < nv ? l + v : l, v, v < nv, c, &ch, wo);
      pscr_status s =
          FN(solve_chunk)(&m, &ch, nv, a->alg, P, Z, U, gen, nout, wo, acc, NULL, &hint);
      if (s != PSCR_OK) return s;
    }
    return PSCR_OK;
  }
  /* packed: lane v holds eigenpair lv of block b0 + jb[v]; padding repeats lane 0 */
  const T *lp[V / 2 * V], *lgs[V], *lge[V], *bgs[V], *bge[V];
  T *outp[V];
  size_t jb[V], lv[V], nd = 0;
  int nv = 0;
  memset(zero, 0, n * sizeof *zero);
  for (size_t j = 0; j < tk->nb; j++) {
    const pscr_block *b = &st->blocks[tk->b0 + j];
    FN(boundary)(a, b, x, c, gb + 2 * j * n, gb + (2 * j + 1) * n, &bgs[j], &bge[j]);
    memset(acc + j * a->acc_blk, 0, (back ? b->nd : 2) * n * sizeof *acc);
    for (size_t l = 0; l < b->m; l++) jb[nv] = j, lv[nv++] = l;
    if (b->nd > nd) nd = b->nd;
  }
  ch.nsrc = nd, ch.lp = lp, ch.lgs = lgs, ch.lge = lge;
  for (int v = 0; v < V; v++) {
    int u = v < nv ? v : 0;
    const pscr_block *b = &st->blocks[tk->b0 + jb[u]];
    for (size_t r = 0; r < nd; r++) /* rows past the block's #D get weight 0 */
      lp[r * V + v] = x + (b->s + st->dpos[b->d + (r < b->nd ? r : 0)]) * n;
    lgs[v] = bgs[jb[u]] ? bgs[jb[u]] : zero;
    lge[v] = bge[jb[u]] ? bge[jb[u]] : zero;
    outp[v] = acc + jb[u] * a->acc_blk;
    FN(lane)(a, b, lv[u], v, v < nv, c, &ch, wo);
    for (size_t r = b->nd; r < nd; r++) wr[r * V + v] = 0;
    for (size_t q = back ? b->nd : 2; q < (back ? nd : 2); q++) wo[q * V + v] = 0;
  }
  /* lanes with fewer outputs add 0 to unused rows of their block's sums */
  return FN(solve_chunk)(&m, &ch, nv, a->alg, P, Z, U, gen, back ? nd : 2, wo, NULL, outp, &hint);
}

static pscr_status FN(inner_stage)(const pscr_stage_args *a) {
  const pscr_group *g = a->group;
  size_t ntg = g->t1 - g->t0;
  long long items = (long long)(a->batch * ntg);
  pscr_status st = PSCR_OK;
#pragma omp parallel num_threads(a->threads) if (a->threads > 1 && items > 1)
  {
    /* the row excess of A_last and M_last, once per thread, where run_task finds it */
    T *ws = (T *)a->scratch + (size_t)pscr_thread_id() * a->scratch_len;
    size_t n = a->kron.n[0];
    T *exa = FN(ws_excess)(ws, n);
    FN(eigen_row_excess)(n, a->kron.ad[0], a->kron.ao[0], a->kron.ao[0], exa);
    FN(eigen_row_excess)(n, a->kron.md[0], a->kron.mo[0], a->kron.ao[0], exa + n);
#pragma omp for schedule(dynamic, 1)
    for (long long it = 0; it < items; it++) {
      pscr_status s = FN(run_task)(a, (size_t)it / ntg, g->t0 + (size_t)it % ntg, ws);
      if (s != PSCR_OK) {
#pragma omp critical(pscr_cpu_inner_status)
        if (st == PSCR_OK) st = s;
      }
    }
  }
  return st;
}

pscr_status FN(cpu_stage_11_td_12a)(const pscr_stage_args *a) { return FN(inner_stage)(a); }
pscr_status FN(cpu_stage_21_td_22a)(const pscr_stage_args *a) { return FN(inner_stage)(a); }
