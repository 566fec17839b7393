/* The innermost level on the CPU, fused per task (seed 003 section 4.3):
 * stage_11_td_12a = right-hand sides (26) + (A + (c+lambda) M) y = rhs +
 * partial sums of (24); stage_21_td_22a = the same with (28) and (27).
 * V shifted systems run interleaved: Thomas with coefficients formed on the
 * fly, right-hand sides formed inside the forward sweep and the sums inside
 * the backward sweep. AUTO keeps a system on Thomas only when its row
 * dominance is proven during the sweep; otherwise it is solved again with
 * partial pivoting (LAPACK gtsv's algorithm). */
#include <float.h>
#include <string.h>

#include "backend/cpu/cpu_pscr.h"
#include "core/threads.h"
#include "tridiag/td.h"

#define V PSCR_CPU_V

typedef struct {
  size_t n;
  const T *ad, *ao, *md, *mo; /* A_last, M_last */
} FN(tri);

/* V systems: shifts sg, rhs_v[i] = sum_r wr[r][v] xb[dpos[r]*n + i] + w0[v] gs[i] + wm[v] ge[i]. */
typedef struct {
  size_t nsrc;
  const T *xb;
  const size_t *dpos;
  const T *gs, *ge;
  const T *wr, *w0, *wm, *sg;
} FN(chunk);

static inline T FN(rhs_at)(const FN(chunk) * c, size_t n, size_t i, int v) {
  T s = 0;
  for (size_t r = 0; r < c->nsrc; r++) s += SMUL(c->wr[r * V + v], c->xb[c->dpos[r] * n + i]);
  if (c->gs) s += SMUL(c->w0[v], c->gs[i]);
  if (c->ge) s += SMUL(c->wm[v], c->ge[i]);
  return s;
}

/* Forward sweep of V interleaved systems: P = 1/pivots, Z = modified rhs.
 * The rhs is Rh (interleaved, when not NULL) plus the chunk's sources.
 * mg: min over rows of |d| - |l| - |u| (complex: |d|^2 - (|l|_1+|u|_1)^2);
 * lo, hi: min / max of |pivot| (complex: |pivot|^2). */
static inline void FN(forward)(const FN(tri) * m, const FN(chunk) * c, const T *Rh,
                               T *restrict P, T *restrict Z, R *mg, R *lo, R *hi, const int dom) {
  size_t n = m->n;
  T op[V], rp[V], zp[V];
  R mgv[V], lov[V], hiv[V];
  for (int v = 0; v < V; v++) op[v] = rp[v] = zp[v] = 0, mgv[v] = lov[v] = INFINITY, hiv[v] = 0;
  for (size_t i = 0; i < n; i++) {
    T rhs[V];
    for (int v = 0; v < V; v++) rhs[v] = Rh ? Rh[i * V + v] : 0;
    for (size_t r = 0; r < c->nsrc; r++) {
      T s = c->xb[c->dpos[r] * n + i];
      for (int v = 0; v < V; v++) rhs[v] += SMUL(c->wr[r * V + v], s);
    }
    if (c->gs) {
      T s = c->gs[i];
      for (int v = 0; v < V; v++) rhs[v] += SMUL(c->w0[v], s);
    }
    if (c->ge) {
      T s = c->ge[i];
      for (int v = 0; v < V; v++) rhs[v] += SMUL(c->wm[v], s);
    }
    T adi = m->ad[i], mdi = m->md[i], aoi = 0, moi = 0;
    if (i + 1 < n) aoi = m->ao[i], moi = m->mo[i];
#pragma omp simd
    for (int v = 0; v < V; v++) {
      T d = adi + SMUL(c->sg[v], mdi);
      T o = aoi + SMUL(c->sg[v], moi);
      T g = SMUL(op[v], rp[v]); /* l_i = o_{i-1} / p_{i-1} */
      T piv = d - SMUL(g, op[v]);
      zp[v] = rhs[v] - SMUL(g, zp[v]);
#if PSCR_Z
      if (dom) {
        R off = SNORM1(op[v]) + SNORM1(o);
        R dd = creal(d) * creal(d) + cimag(d) * cimag(d) - off * off;
        mgv[v] = dd < mgv[v] ? dd : mgv[v];
      }
      R den = creal(piv) * creal(piv) + cimag(piv) * cimag(piv), inv = 1.0 / den;
      lov[v] = den < lov[v] ? den : lov[v];
      hiv[v] = den > hiv[v] ? den : hiv[v];
      rp[v] = CMPLX(creal(piv) * inv, -cimag(piv) * inv);
#else
      if (dom) {
        R dd = fabs(d) - (fabs(op[v]) + fabs(o));
        mgv[v] = dd < mgv[v] ? dd : mgv[v];
      } else {
        R den = fabs(piv);
        lov[v] = den < lov[v] ? den : lov[v];
      }
      rp[v] = 1.0 / piv;
#endif
      op[v] = o;
      P[i * V + v] = rp[v];
      Z[i * V + v] = zp[v];
    }
  }
  for (int v = 0; v < V; v++) mg[v] = mgv[v], lo[v] = lov[v], hi[v] = hiv[v];
}

/* Backward sweep; acc_o[i] += sum_v wo[o][v] x_v[i] (store = 0) or x into Z (store = 1). */
static inline void FN(backward)(const FN(tri) * m, const T *sg, const T *restrict P,
                                T *restrict Z, size_t nout, const T *wo, T *restrict acc,
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
    if (store) {
      for (int v = 0; v < V; v++) Z[i * V + v] = x[v];
    } else {
      for (size_t q = 0; q < nout; q++) {
        T s = 0;
        for (int v = 0; v < V; v++) s += SMUL(wo[q * V + v], x[v]);
        acc[q * n + i] += s;
      }
    }
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
static pscr_status FN(one)(const FN(tri) * m, const FN(chunk) * c, const T *Rh, int v,
                           pscr_td_algorithm alg, T *w, T *Z) {
  size_t n = m->n;
  T *l = w, *d = w + n, *u = w + 2 * n, *b = w + 3 * n, *extra = w + 4 * n, sg = c->sg[v];
  for (size_t i = 0; i < n; i++) {
    d[i] = m->ad[i] + SMUL(sg, m->md[i]);
    u[i] = i + 1 < n ? m->ao[i] + SMUL(sg, m->mo[i]) : 0;
    b[i] = (Rh ? Rh[i * V + v] : 0) + FN(rhs_at)(c, n, i, v);
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

size_t FN(cpu_pscr_inner_scratch)(size_t n_last, size_t max_nd) {
  return (5 * V + 9) * n_last + (2 * max_nd + 8) * V;
}

/* The chunk's V systems (nv real ones, the others padding). With acc, the
 * sums are formed in the backward sweep when every system stayed on Thomas
 * (*fused = 1); otherwise the solutions are left in Z. */
static pscr_status FN(solve_chunk)(const FN(tri) * m, const FN(chunk) * ch, const T *Rh, int nv,
                                   pscr_td_algorithm alg, T *P, T *Z, T *gen, size_t nout,
                                   const T *wo, T *acc, int *fused) {
  int ok[V] = {0}, all = 1;
  *fused = 0;
  if (alg == PSCR_TD_AUTO || alg == PSCR_TD_THOMAS) {
    R mg[V], lo[V], hi[V];
    if (alg == PSCR_TD_AUTO)
      FN(forward)(m, ch, Rh, P, Z, mg, lo, hi, 1);
    else
      FN(forward)(m, ch, Rh, P, Z, mg, lo, hi, 0);
    for (int v = 0; v < nv; v++) {
      if (alg == PSCR_TD_THOMAS && !(lo[v] > 0)) return PSCR_ERR_SINGULAR;
      ok[v] = alg == PSCR_TD_THOMAS || mg[v] > 0;
#if PSCR_Z
      ok[v] = ok[v] && lo[v] >= DBL_MIN && hi[v] <= DBL_MAX;
#endif
      all = all && ok[v];
    }
    if (all && acc) {
      FN(backward)(m, ch->sg, P, Z, nout, wo, acc, 0);
      *fused = 1;
      return PSCR_OK;
    }
    FN(backward)(m, ch->sg, P, Z, 0, wo, acc, 1);
  }
  for (int v = 0; v < nv; v++) {
    if (ok[v]) continue;
    pscr_status s = FN(one)(m, ch, Rh, v, alg, gen, Z);
    if (s != PSCR_OK) return s;
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
    FN(cpu_pscr_kron)(&a->kron, lao[j] + SMUL(c, lmo[j]), lmo[j], x + (j + 1) * n, ge, 0, n, 0,
                      NULL);
    *gep = ge;
  }
}

/* One task for vector p of the batch: a slice of one block (right-hand sides
 * formed in the sweep from the block's rows D), or small blocks packed into
 * one chunk (right-hand sides gathered into Rh first). */
static pscr_status FN(run_task)(const pscr_stage_args *a, size_t p, size_t t, T *ws) {
  const pscr_step *st = a->step;
  const pscr_task *tk = &st->tasks[t];
  FN(tri) m = {a->kron.n[0], a->kron.ad[0], a->kron.ao[0], a->kron.md[0], a->kron.mo[0]};
  size_t n = m.n, nom = a->acc_blk / n;
  int back = a->phase == PSCR_BACK;
  const T *x = (const T *)a->x + p * a->x_stride;
  T c = ((const T *)a->shift)[p];
  T *acc = (T *)a->acc + (p * (a->group->t1 - a->group->t0) + (t - a->group->t0)) * a->acc_item;
  T *P = ws, *Z = P + V * n, *Rh = Z + V * n, *gen = Rh + V * n, *gb = gen + 7 * n;
  T *wr = gb + 2 * V * n, *wo = wr + st->max_nd * V, *w0 = wo + nom * V, *wm = w0 + V, *sg = wm + V;
  FN(chunk) ch = {0, NULL, NULL, NULL, NULL, wr, w0, wm, sg};
  int fused;
  if (tk->nb == 1) {
    const pscr_block *b = &st->blocks[tk->b0];
    size_t nout = back ? b->nd : 2;
    ch.nsrc = b->nd, ch.xb = x + b->s * n, ch.dpos = st->dpos + b->d;
    FN(boundary)(a, b, x, c, gb, gb + n, &ch.gs, &ch.ge);
    memset(acc, 0, nout * n * sizeof *acc);
    for (size_t l = tk->l0; l < tk->l1; l += V) {
      int nv = tk->l1 - l < V ? (int)(tk->l1 - l) : V;
      for (int v = 0; v < V; v++) FN(lane)(a, b, v < nv ? l + v : l, v, v < nv, c, &ch, wo);
      pscr_status s = FN(solve_chunk)(&m, &ch, NULL, nv, a->alg, P, Z, gen, nout, wo, acc, &fused);
      if (s != PSCR_OK) return s;
      if (fused) continue;
      for (size_t i = 0; i < n; i++)
        for (size_t q = 0; q < nout; q++) {
          T sum = 0;
          for (int v = 0; v < nv; v++) sum += SMUL(wo[q * V + v], Z[i * V + v]);
          acc[q * n + i] += sum;
        }
    }
    return PSCR_OK;
  }
  /* packed: lane v holds eigenpair lv[v] of block b0 + jb[v] */
  size_t jb[V], lv[V];
  int nv = 0;
  memset(Rh, 0, V * n * sizeof *Rh);
  for (size_t j = 0; j < tk->nb; j++) {
    const pscr_block *b = &st->blocks[tk->b0 + j];
    const T *gs, *ge;
    FN(boundary)(a, b, x, c, gb, gb + n, &gs, &ge);
    memset(acc + j * a->acc_blk, 0, (back ? b->nd : 2) * n * sizeof *acc);
    for (size_t l = 0; l < b->m; l++, nv++) {
      const T *w = (const T *)a->comp + b->comp + l * (2 + b->nd);
      jb[nv] = j, lv[nv] = l;
      for (size_t r = 0; r < b->nd; r++) {
        const T *f = x + (b->s + st->dpos[b->d + r]) * n;
        for (size_t i = 0; i < n; i++) Rh[i * V + nv] += SMUL(w[2 + r], f[i]);
      }
      if (gs)
        for (size_t i = 0; i < n; i++) Rh[i * V + nv] -= SMUL(w[0], gs[i]);
      if (ge)
        for (size_t i = 0; i < n; i++) Rh[i * V + nv] -= SMUL(w[1], ge[i]);
    }
  }
  for (int v = 0; v < V; v++) { /* shifts and output weights; padding repeats lane 0 */
    int u = v < nv ? v : 0;
    FN(lane)(a, &st->blocks[tk->b0 + jb[u]], lv[u], v, v < nv, c, &ch, wo);
  }
  pscr_status s = FN(solve_chunk)(&m, &ch, Rh, nv, a->alg, P, Z, gen, 0, wo, NULL, &fused);
  if (s != PSCR_OK) return s;
  for (int v = 0; v < nv; v++) {
    const pscr_block *b = &st->blocks[tk->b0 + jb[v]];
    T *ab = acc + jb[v] * a->acc_blk;
    for (size_t q = 0; q < (back ? b->nd : 2); q++) {
      T w = wo[q * V + v];
      for (size_t i = 0; i < n; i++) ab[q * n + i] += SMUL(w, Z[i * V + v]);
    }
  }
  return PSCR_OK;
}

static pscr_status FN(inner_stage)(const pscr_stage_args *a) {
  const pscr_group *g = a->group;
  size_t ntg = g->t1 - g->t0;
  long long items = (long long)(a->batch * ntg);
  pscr_status st = PSCR_OK;
#pragma omp parallel for num_threads(a->threads) if (a->threads > 1 && items > 1)               \
    schedule(dynamic, 1)
  for (long long it = 0; it < items; it++) {
    T *ws = (T *)a->scratch + (size_t)pscr_thread_id() * a->scratch_len;
    pscr_status s = FN(run_task)(a, (size_t)it / ntg, g->t0 + (size_t)it % ntg, ws);
    if (s != PSCR_OK) {
#pragma omp critical(pscr_cpu_inner_status)
      if (st == PSCR_OK) st = s;
    }
  }
  return st;
}

pscr_status FN(cpu_stage_11_td_12a)(const pscr_stage_args *a) { return FN(inner_stage)(a); }
pscr_status FN(cpu_stage_21_td_22a)(const pscr_stage_args *a) { return FN(inner_stage)(a); }
