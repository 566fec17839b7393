/* CPU PSCR stages other than the fused innermost ones (seed 003 section
 * 4.3), and the CPU stage table. Every stage is one OpenMP loop over
 * independent items (vector, block, output, segment). */
#include <string.h>

#include "backend/cpu/cpu_pscr.h"
#include "core/threads.h"

#define SEG 2048 /* elements of one row per work item */

static size_t FN(nseg)(size_t len) { return (len + SEG - 1) / SEG; }
static size_t FN(nout_max)(const pscr_step *s) { return s->max_nd > 2 ? s->max_nd : 2; }

/* (alpha M + beta A) v at element i of one dimension. */
static inline T FN(op1)(const T *ad, const T *ao, const T *md, const T *mo, size_t n, T alpha,
                        T beta, const T *v, size_t i) {
  T s = SMUL(SMUL(alpha, md[i]) + SMUL(beta, ad[i]), v[i]);
  if (i > 0) s += SMUL(SMUL(alpha, mo[i - 1]) + SMUL(beta, ao[i - 1]), v[i - 1]);
  if (i + 1 < n) s += SMUL(SMUL(alpha, mo[i]) + SMUL(beta, ao[i]), v[i + 1]);
  return s;
}

/* m = M v, a = A v along one dimension of order nb (branch-free interior). */
static void FN(mv_row)(const T *ad, const T *ao, const T *md, const T *mo, size_t nb, const T *v,
                       T *restrict m, T *restrict a) {
  if (nb == 1) {
    m[0] = SMUL(md[0], v[0]), a[0] = SMUL(ad[0], v[0]);
    return;
  }
  m[0] = SMUL(md[0], v[0]) + SMUL(mo[0], v[1]), a[0] = SMUL(ad[0], v[0]) + SMUL(ao[0], v[1]);
  for (size_t j = 1; j + 1 < nb; j++) {
    m[j] = SMUL(mo[j - 1], v[j - 1]) + SMUL(md[j], v[j]) + SMUL(mo[j], v[j + 1]);
    a[j] = SMUL(ao[j - 1], v[j - 1]) + SMUL(ad[j], v[j]) + SMUL(ao[j], v[j + 1]);
  }
  size_t e = nb - 1;
  m[e] = SMUL(mo[e - 1], v[e - 1]) + SMUL(md[e], v[e]);
  a[e] = SMUL(ao[e - 1], v[e - 1]) + SMUL(ad[e], v[e]);
}

/* Output row i of the 2-dimension operator from the window rows i-1, i, i+1. */
static void FN(kron2_row)(const T *ad, const T *ao, const T *md, const T *mo, size_t n, size_t nb,
                          T alpha, T beta, T *const *mw, T *const *aw, size_t i, T *y,
                          int subtract) {
  T ca[3] = {0, 0, 0}, cm[3] = {0, 0, 0};
  const T *mr[3], *ar[3];
  for (int t = 0; t < 3; t++) {
    size_t ii = i + (size_t)t - 1; /* wraps for i = 0, t = 0: skipped below */
    int ok = (t > 0 || i > 0) && (t < 2 || i + 1 < n);
    mr[t] = mw[(ok ? ii : i) % 3], ar[t] = aw[(ok ? ii : i) % 3];
    if (!ok) continue;
    T ma = t == 1 ? md[i] : mo[t == 0 ? i - 1 : i], aa = t == 1 ? ad[i] : ao[t == 0 ? i - 1 : i];
    ca[t] = SMUL(alpha, ma) + SMUL(beta, aa), cm[t] = SMUL(beta, ma);
  }
  T *yr = y + i * nb;
  for (size_t j = 0; j < nb; j++) {
    T s = SMUL(ca[0], mr[0][j]) + SMUL(cm[0], ar[0][j]) + SMUL(ca[1], mr[1][j]) +
          SMUL(cm[1], ar[1][j]) + SMUL(ca[2], mr[2][j]) + SMUL(cm[2], ar[2][j]);
    yr[j] = subtract ? yr[j] - s : s;
  }
}

void FN(cpu_pscr_kron)(const pscr_kron *k, T alpha, T beta, const T *v, T *y, size_t r0, size_t r1,
                       int subtract, T *scr) {
  const T *ad = k->ad[0], *ao = k->ao[0], *md = k->md[0], *mo = k->mo[0];
  size_t n = k->n[0];
  if (r1 <= r0) return;
  if (k->ndims == 1) {
    size_t a0 = r0 > 1 ? r0 : 1, a1 = r1 + 1 < n ? r1 : (n > 1 ? n - 1 : 1);
    for (size_t i = r0; i < r1 && i < a0; i++) {
      T s = FN(op1)(ad, ao, md, mo, n, alpha, beta, v, i);
      y[i] = subtract ? y[i] - s : s;
    }
    if (subtract) /* interior rows, branch-free */
      for (size_t i = a0; i < a1; i++)
        y[i] -= SMUL(SMUL(alpha, md[i]) + SMUL(beta, ad[i]), v[i]) +
                SMUL(SMUL(alpha, mo[i - 1]) + SMUL(beta, ao[i - 1]), v[i - 1]) +
                SMUL(SMUL(alpha, mo[i]) + SMUL(beta, ao[i]), v[i + 1]);
    else
      for (size_t i = a0; i < a1; i++)
        y[i] = SMUL(SMUL(alpha, md[i]) + SMUL(beta, ad[i]), v[i]) +
               SMUL(SMUL(alpha, mo[i - 1]) + SMUL(beta, ao[i - 1]), v[i - 1]) +
               SMUL(SMUL(alpha, mo[i]) + SMUL(beta, ao[i]), v[i + 1]);
    for (size_t i = a1 > a0 ? a1 : a0; i < r1; i++) {
      T s = FN(op1)(ad, ao, md, mo, n, alpha, beta, v, i);
      y[i] = subtract ? y[i] - s : s;
    }
    return;
  }
  /* 2 dims: (alpha Ma + beta Aa) (x) Mb' + beta Ma (x) Ab', row i of dimension a.
   * Mb' v_ii and Ab' v_ii once per row ii, in a window of three rows; output
   * row i is formed when row i+1 is in. */
  size_t nb = k->n[1], hi = r1 < n ? r1 : n - 1;
  T *mw[3] = {scr, scr + nb, scr + 2 * nb}, *aw[3] = {scr + 3 * nb, scr + 4 * nb, scr + 5 * nb};
  for (size_t ii = r0 > 0 ? r0 - 1 : 0; ii <= hi; ii++) {
    FN(mv_row)(k->ad[1], k->ao[1], k->md[1], k->mo[1], nb, v + ii * nb, mw[ii % 3], aw[ii % 3]);
    if (ii >= r0 + 1 && ii <= r1)
      FN(kron2_row)(ad, ao, md, mo, n, nb, alpha, beta, mw, aw, ii - 1, y, subtract);
  }
  if (hi + 1 == n && hi >= r0 && hi < r1)
    FN(kron2_row)(ad, ao, md, mo, n, nb, alpha, beta, mw, aw, hi, y, subtract);
}

/* Rows of the kron's first dimension per work item of a T application. */
static size_t FN(kron_rows)(const pscr_kron *k) {
  size_t per = k->ndims == 1 ? SEG : SEG / k->n[1];
  return per ? per : 1;
}

/* One OpenMP loop over a stage's `items` work items (a->threads threads). */
/* clang-format off */
#define PSCR_CPU_LOOP(items) \
  _Pragma("omp parallel for num_threads(a->threads) if (a->threads > 1 && (items) > 1) schedule(dynamic, 1)")
/* clang-format on */

/* Innermost: task partial sums -> v_first, v_last of (24) (reduce) or the
 * rows u of (27) (back: fused with stage_22c). */
static pscr_status FN(stage_y2b)(const pscr_stage_args *a) {
  const pscr_step *st = a->step;
  const pscr_group *g = a->group;
  size_t nbg = g->b1 - g->b0, ntg = g->t1 - g->t0, n = a->len, ns = FN(nseg)(n);
  size_t nom = FN(nout_max)(st);
  int back = a->phase == PSCR_BACK;
  long long items = (long long)(a->batch * nbg * nom * ns);
  PSCR_CPU_LOOP(items)
  for (long long it = 0; it < items; it++) {
    size_t r = (size_t)it, seg = r % ns, q, bi, p;
    r /= ns, q = r % nom, r /= nom, bi = r % nbg, p = r / nbg;
    const pscr_block *b = &st->blocks[g->b0 + bi];
    if (q >= (back ? b->nd : 2)) continue;
    T *dst = back ? (T *)a->x + p * a->x_stride + (b->s + st->dpos[b->d + q]) * n
                  : (T *)a->vbuf + ((p * nbg + bi) * 2 + q) * n;
    const T *acc = (const T *)a->acc + (p * ntg + b->t0 - g->t0) * a->acc_item +
                   (g->b0 + bi - st->tasks[b->t0].b0) * a->acc_blk + q * n;
    size_t i0 = seg * SEG, i1 = i0 + SEG < n ? i0 + SEG : n;
    /* a large block: one block per task, tasks by ascending eigenvalue; the
     * small terms first (see run_task) */
    const T *al = acc + (b->nt - 1) * a->acc_item;
    for (size_t i = i0; i < i1; i++) dst[i] = al[i];
    for (size_t t = b->nt - 1; t-- > 0;) {
      const T *at = acc + t * a->acc_item;
      for (size_t i = i0; i < i1; i++) dst[i] += at[i];
    }
  }
  return PSCR_OK;
}

/* v_first (which = 0) or v_last (which = 1) of block b for vector p. */
static const T *FN(vsum)(const pscr_stage_args *a, size_t p, size_t b, int which) {
  if (a->outer) return (const T *)a->slots + (a->step->blocks[b].slot + which) * a->len;
  size_t nbg = a->group->b1 - a->group->b0;
  return (const T *)a->vbuf + ((p * nbg + b - a->group->b0) * 2 + which) * a->len;
}

/* (24): f(i+1)_j = f(i)_j - T̂_j v_last(left) - Ť_j v_first(right), (25). */
static pscr_status FN(stage_12c)(const pscr_stage_args *a) {
  const pscr_group *g = a->group;
  size_t nu = g->r1 - g->r0, per = FN(kron_rows)(&a->kron), nrows = a->kron.n[0];
  size_t ns = (nrows + per - 1) / per;
  const T *lao = a->lev_ao, *lmo = a->lev_mo;
  long long items = (long long)(a->batch * nu * ns);
  PSCR_CPU_LOOP(items)
  for (long long it = 0; it < items; it++) {
    size_t seg = (size_t)it % ns, u = (size_t)it / ns % nu, p = (size_t)it / ns / nu;
    const pscr_row_update *up = &a->step->upd[g->r0 + u];
    T c = ((const T *)a->shift)[p],
      *scr = (T *)a->scratch + (size_t)pscr_thread_id() * a->scratch_len;
    T *xr = (T *)a->x + p * a->x_stride + up->row * a->len;
    size_t r0 = seg * per, r1 = r0 + per < nrows ? r0 + per : nrows, j = up->row;
    if (up->left >= 0)
      FN(cpu_pscr_kron)
      (&a->kron, lao[j - 1] + SMUL(c, lmo[j - 1]), lmo[j - 1], FN(vsum)(a, p, (size_t)up->left, 1),
       xr, r0, r1, 1, scr);
    if (up->right >= 0)
      FN(cpu_pscr_kron)
      (&a->kron, lao[j] + SMUL(c, lmo[j]), lmo[j], FN(vsum)(a, p, (size_t)up->right, 0), xr, r0, r1,
       1, scr);
  }
  return PSCR_OK;
}

/* ---- outer level (3D level 0, batch 1) ---- */

static const pscr_block *FN(block_of)(const pscr_stage_args *a, size_t e) {
  const pscr_block *b = &a->step->blocks[a->group->b0];
  while (e >= b->e0 + b->m) b++;
  return b;
}
static size_t FN(nout)(const pscr_block *b) { return b->nd > 2 ? b->nd : 2; }

/* Right-hand sides (26) (reduce) or (28) (back) of the group's subproblems and c + lambda. */
static pscr_status FN(stage_rhs)(const pscr_stage_args *a) {
  const pscr_group *g = a->group;
  const pscr_step *st = a->step;
  size_t len = a->len, ns = FN(nseg)(len), nk = g->e1 - g->e0;
  T c = ((const T *)a->shift)[0];
  const T *x = a->x;
  int back = a->phase == PSCR_BACK;
  long long items = (long long)(nk * ns);
  PSCR_CPU_LOOP(items)
  for (long long it = 0; it < items; it++) {
    size_t k = (size_t)it / ns, seg = (size_t)it % ns, e = g->e0 + k;
    const pscr_block *b = FN(block_of)(a, e);
    size_t l = e - b->e0, nr = 2 + b->nd, i0 = seg * SEG, i1 = i0 + SEG < len ? i0 + SEG : len;
    const T *w = (const T *)a->comp + b->comp + l * nr;
    T *y = (T *)a->y + k * len;
    if (seg == 0) ((T *)a->y_shift)[k] = c + ((const T *)a->lambda)[b->eig + l];
    for (size_t i = i0; i < i1; i++) y[i] = 0;
    for (size_t r = 0; r < b->nd; r++) {
      const T *f = x + (b->s + st->dpos[b->d + r]) * len;
      for (size_t i = i0; i < i1; i++) y[i] += SMUL(w[2 + r], f[i]);
    }
    if (!back) continue;
    const T *gv = (const T *)a->slots + (b->slot + FN(nout)(b)) * len;
    if (b->s > 0)
      for (size_t i = i0; i < i1; i++) y[i] -= SMUL(w[0], gv[i]);
    if (b->s + b->m < a->lev_n)
      for (size_t i = i0; i < i1; i++) y[i] -= SMUL(w[1], gv[len + i]);
  }
  return PSCR_OK;
}

static pscr_status FN(stage_11)(const pscr_stage_args *a) { return FN(stage_rhs)(a); }

/* (28): K̂ u_{s-1}, Ǩ u_{e+1} of the blocks opening in the group, then the right-hand sides. */
static pscr_status FN(stage_21)(const pscr_stage_args *a) {
  const pscr_group *g = a->group;
  size_t nbg = g->b1 - g->b0, per = FN(kron_rows)(&a->kron), nrows = a->kron.n[0];
  size_t ns = (nrows + per - 1) / per;
  T c = ((const T *)a->shift)[0];
  const T *x = a->x, *lao = a->lev_ao, *lmo = a->lev_mo;
  long long items = (long long)(nbg * 2 * ns);
  PSCR_CPU_LOOP(items)
  for (long long it = 0; it < items; it++) {
    size_t seg = (size_t)it % ns, side = (size_t)it / ns % 2, bi = (size_t)it / ns / 2;
    const pscr_block *b = &a->step->blocks[g->b0 + bi];
    if (b->e0 < g->e0) continue; /* opened by an earlier group */
    if (side == 0 ? b->s == 0 : b->s + b->m >= a->lev_n) continue;
    size_t j = side == 0 ? b->s - 1 : b->s + b->m - 1, src = side == 0 ? j : j + 1;
    T *gv = (T *)a->slots + (b->slot + FN(nout)(b) + side) * a->len;
    T *scr = (T *)a->scratch + (size_t)pscr_thread_id() * a->scratch_len;
    size_t r0 = seg * per, r1 = r0 + per < nrows ? r0 + per : nrows;
    FN(cpu_pscr_kron)
    (&a->kron, lao[j] + SMUL(c, lmo[j]), lmo[j], x + src * a->len, gv, r0, r1, 0, scr);
  }
  return FN(stage_rhs)(a);
}

/* Block sums of (24) (w at rows 0, m-1) or (27) (w at the rows D) over the group's solutions. */
static pscr_status FN(stage_sums)(const pscr_stage_args *a) {
  const pscr_group *g = a->group;
  size_t nbg = g->b1 - g->b0, len = a->len, ns = FN(nseg)(len), nom = FN(nout_max)(a->step);
  int back = a->phase == PSCR_BACK;
  long long items = (long long)(nbg * nom * ns);
  PSCR_CPU_LOOP(items)
  for (long long it = 0; it < items; it++) {
    size_t seg = (size_t)it % ns, q = (size_t)it / ns % nom, bi = (size_t)it / ns / nom;
    const pscr_block *b = &a->step->blocks[g->b0 + bi];
    if (q >= (back ? b->nd : 2)) continue;
    size_t e0 = b->e0 > g->e0 ? b->e0 : g->e0, e1 = b->e0 + b->m < g->e1 ? b->e0 + b->m : g->e1;
    size_t nr = 2 + b->nd, i0 = seg * SEG, i1 = i0 + SEG < len ? i0 + SEG : len;
    T *acc = (T *)a->slots + (b->slot + q) * len;
    if (b->e0 >= g->e0)
      for (size_t i = i0; i < i1; i++) acc[i] = 0;
    for (size_t e = e0; e < e1; e++) {
      T w = ((const T *)a->comp)[b->comp + (e - b->e0) * nr + (back ? 2 + q : q)];
      const T *y = (const T *)a->y + (e - g->e0) * len;
      for (size_t i = i0; i < i1; i++) acc[i] += SMUL(w, y[i]);
    }
  }
  return PSCR_OK;
}

static pscr_status FN(stage_12a)(const pscr_stage_args *a) { return FN(stage_sums)(a); }
static pscr_status FN(stage_22a)(const pscr_stage_args *a) { return FN(stage_sums)(a); }

/* (27): u on the rows D of the blocks closing in the group. */
static pscr_status FN(stage_22c)(const pscr_stage_args *a) {
  const pscr_group *g = a->group;
  const pscr_step *st = a->step;
  size_t nbg = g->b1 - g->b0, len = a->len, ns = FN(nseg)(len);
  long long items = (long long)(nbg * st->max_nd * ns);
  PSCR_CPU_LOOP(items)
  for (long long it = 0; it < items; it++) {
    size_t seg = (size_t)it % ns, q = (size_t)it / ns % st->max_nd,
           bi = (size_t)it / ns / st->max_nd;
    const pscr_block *b = &st->blocks[g->b0 + bi];
    if (q >= b->nd || b->e0 + b->m > g->e1) continue;
    size_t i0 = seg * SEG, n = (i0 + SEG < len ? i0 + SEG : len) - i0;
    memcpy((T *)a->x + (b->s + st->dpos[b->d + q]) * len + i0,
           (const T *)a->slots + (b->slot + q) * len + i0, n * sizeof(T));
  }
  return PSCR_OK;
}

static size_t FN(scratch_len)(size_t n_last, size_t n_kron, size_t max_nd) {
  return FN(cpu_pscr_inner_scratch)(n_last, max_nd) + 6 * n_kron;
}

const pscr_stage_ops FN(pscr_cpu_stages) = {
    .name = "cpu",
    .host_batch = 1,
    .scratch_len = FN(scratch_len),
    .stage_11_td_12a = FN(cpu_stage_11_td_12a),
    .stage_21_td_22a = FN(cpu_stage_21_td_22a),
    .stage_y2b = FN(stage_y2b),
    .stage_12c = FN(stage_12c),
    .stage_11 = FN(stage_11),
    .stage_21 = FN(stage_21),
    .stage_12a = FN(stage_12a),
    .stage_22a = FN(stage_22a),
    .stage_22c = FN(stage_22c),
};
