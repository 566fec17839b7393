/* The PSCR stages on a gpu_device (CUDA and OpenCL alike; seed 003 section
 * 4.3), launching the kernels of kernels/common/pscr_stages.h. Stages as the
 * driver (src/pscr/driver.c) calls them:
 *   innermost  stage_11_td_12a = pscr_rhs (26) + tridiagonal solves + pscr_sums (24)
 *              stage_21_td_22a = pscr_bnd + pscr_rhs (28) + solves + pscr_sums (27)
 *              stage_y2b (blocks of several tasks), stage_12c = pscr_upd (24)-(25)
 *   outer (3D) stage_11 = pscr_rhs, stage_21 = pscr_bnd + pscr_rhs,
 *              stage_12a / stage_22a = pscr_osums (22a fused with 22c), stage_12c.
 *   steps as products (gpu_pscr_level_radix: a level in one step of one
 *              block; 2D's level 0 in two steps): (26)/(28) and (24)/(27)
 *              as products (pscr_gemm); innermost, the step's systems in
 *              between (gemm_step).
 * Every buffer is passed whole (offset 0) with element offsets as arguments:
 * OpenCL takes no offsets into buffers other than the context's work buffer. */
#include "backend/gpu/gpu_pscr.h"

static gpu_ptr dp(const void *m) { return (gpu_ptr){(void *)m, 0, 0}; }
static const gpu_ptr none = {0};

#define NARGS(a) ((int)(sizeof(a) / sizeof *(a)))
#define TRY(expr)                                                                                  \
  do {                                                                                             \
    st = (expr);                                                                                   \
    if (st != PSCR_OK) return st;                                                                  \
  } while (0)

/* The kron arguments (PSCR_KRON_PARAMS) of the dimensions below a level. */
#define KRON_ARGS(k)                                                                               \
  GPU_INT((k).ndims), GPU_LONG((k).n[0]), GPU_LONG((k).ndims > 1 ? (k).n[1] : 1),                  \
      GPU_PTR(dp((k).ad[0])), GPU_PTR(dp((k).ao[0])), GPU_PTR(dp((k).md[0])),                      \
      GPU_PTR(dp((k).mo[0])), GPU_PTR((k).ndims > 1 ? dp((k).ad[1]) : none),                       \
      GPU_PTR((k).ndims > 1 ? dp((k).ao[1]) : none),                                               \
      GPU_PTR((k).ndims > 1 ? dp((k).md[1]) : none), GPU_PTR((k).ndims > 1 ? dp((k).mo[1]) : none)

pscr_status gpu_pscr_device(const pscr_plan *p, gpu_device *g) {
  if (p->ctx->ops->gpu == NULL) return PSCR_ERR_UNSUPPORTED;
  pscr_status st = p->ctx->ops->gpu(p->ctx, g);
  const gpu_pscr *s = p->impl;
  return st == PSCR_OK ? gpu_td_module_local(g, p->dtype, s ? s->mod_local : 0) : st;
}

/* Groups of `per` items for `items` items (record merges: systems a group;
 * pscr_reg_fwdm / bwdm: tasks a group). */
static size_t mgroups(long items, int per) {
  return ((size_t)items + (size_t)per - 1) / (size_t)per;
}

/* Work-items for rows of len elements, PSCR_GPU_EPW each (pscr_bnd). */
static size_t epw_items(size_t len) { return (len + PSCR_GPU_EPW - 1) / PSCR_GPU_EPW; }

static pscr_status launch(gpu_device *g, const char *name, size_t items, int nargs,
                          const gpu_arg *args) {
  if (items == 0) return PSCR_OK;
  int wg = g->max_wg < PSCR_GPU_WG ? (int)g->max_wg : PSCR_GPU_WG;
  return g->launch(g, name, items, wg, 0, nargs, args);
}

void gpu_pscr_last_diags(const pscr_plan *p, gpu_ptr c[6]) {
  const gpu_pscr *s = p->impl;
  int d = p->ndim - 1;
  c[0] = dp(s->sub[0]);
  c[1] = dp(p->fac[d][0]);
  c[2] = dp(p->fac[d][1]);
  c[3] = s->m_diag ? none : dp(s->sub[1]);
  c[4] = dp(p->fac[d][2]);
  c[5] = s->m_diag ? none : dp(p->fac[d][3]);
}
/* gpu_pscr_last_diags as the six kernel arguments they make */
#define LAST_ARGS(c)                                                                               \
  GPU_PTR((c)[0]), GPU_PTR((c)[1]), GPU_PTR((c)[2]), GPU_PTR((c)[3]), GPU_PTR((c)[4]),             \
      GPU_PTR((c)[5])

/* The innermost systems from number sys0 on (A_last + rshift[k] M_last, R's rows). */
static gpu_td_src inner_src(const pscr_plan *p, size_t sys0) {
  const gpu_pscr *s = p->impl;
  int d = p->ndim - 1;
  gpu_ptr c[6];
  gpu_pscr_last_diags(p, c);
  gpu_td_src src = {c[0], c[1], c[2], c[3], c[4], c[5], dp(s->rshift), (long long)p->n[d], 1,
                    (long long)sys0, s->perm};
  return src;
}

pscr_status gpu_pscr_solve_inner(const pscr_plan *p, gpu_device *g, size_t sys0, size_t batch,
                                 pscr_td_algorithm alg, int queued) {
  const gpu_pscr *s = p->impl;
  size_t n = p->n[p->ndim - 1];
  if (batch == 0) return PSCR_OK;
  if (queued) /* its failures read at the solve's end */
    return gpu_td_solve_queued(g, alg, p->dtype, n, batch, inner_src(p, sys0), dp(s->r));
  return gpu_td_solve_scratch(g, alg, p->dtype, n, batch, inner_src(p, sys0), dp(s->r), NULL);
}

pscr_status gpu_pscr_scan_systems(const pscr_plan *p, gpu_device *g, size_t batch, void *out) {
  return gpu_td_scan_systems(g, p->dtype, p->n[p->ndim - 1], batch, inner_src(p, 0), dp(out));
}

static const gpu_pscr_step *gstep(const pscr_stage_args *a) {
  const gpu_pscr *s = a->plan->impl;
  return &s->steps[a->level][a->step - a->plan->lev[a->level].steps];
}

static size_t max_out(const pscr_stage_args *a) {
  if (a->phase != PSCR_BACK) return 2;
  return a->step->max_nd > 0 ? a->step->max_nd : 1;
}

/* (28)-(29): K̂ u_{s-1}, Ǩ u_{s+m} of the blocks opening in the group into
 * bnd (innermost: vbuf per vector; outer: the blocks' slots). */
static pscr_status boundary(gpu_device *g, const pscr_stage_args *a, void *bnd, size_t bps) {
  const gpu_pscr *s = a->plan->impl;
  const pscr_group *gr = a->group;
  size_t nb = gr->b1 - gr->b0;
  gpu_arg args[] = {KRON_ARGS(a->kron), GPU_PTR(dp(a->lev_ao)), GPU_PTR(dp(a->lev_mo)),
                    GPU_LONG(a->lev_n), GPU_PTR(dp(a->x)),      GPU_LONG(a->x_stride),
                    GPU_LONG(a->len),   GPU_PTR(dp(s->guide)),  GPU_LONG(gstep(a)->blk),
                    GPU_LONG(gr->b0),   GPU_LONG(nb),           GPU_LONG(gr->e0),
                    GPU_LONG(a->batch), GPU_PTR(dp(a->shift)),  GPU_PTR(dp(bnd)),
                    GPU_LONG(bps)};
  return launch(g, "pscr_bnd", a->batch * nb * 2 * epw_items(a->len), NARGS(args), args);
}

/* (26) / (28) of the group's eigenpairs for every vector into out, their
 * shifts c + lambda into oshift. */
static pscr_status rhs(gpu_device *g, const pscr_stage_args *a, const void *bnd, size_t bps,
                       void *out, void *oshift) {
  const gpu_pscr *s = a->plan->impl;
  const pscr_group *gr = a->group;
  size_t ne = gr->e1 - gr->e0;
  gpu_arg args[] = {GPU_PTR(dp(a->x)),
                    GPU_LONG(a->x_stride),
                    GPU_LONG(a->len),
                    GPU_LONG(a->lev_n),
                    GPU_PTR(dp(s->guide)),
                    GPU_LONG(gstep(a)->blk),
                    GPU_LONG(gstep(a)->eblk),
                    GPU_LONG(gr->e0),
                    GPU_LONG(ne),
                    GPU_LONG(a->batch),
                    GPU_PTR(dp(a->comp)),
                    GPU_PTR(dp(a->lambda)),
                    GPU_PTR(dp(a->shift)),
                    GPU_INT(a->phase == PSCR_BACK),
                    GPU_PTR(bnd ? dp(bnd) : none),
                    GPU_LONG(bps),
                    GPU_PTR(dp(out)),
                    GPU_PTR(dp(oshift))};
  return launch(g, "pscr_rhs", a->batch * ne * a->len, NARGS(args), args);
}

/* ---- dense steps ---- */

/* The dense step (pscr_dense.h): the level's one block of all its n rows,
 * in one step (radix n + 1, gpu_pscr_level_radix); NULL for PSCR's steps. */
static const pscr_block *dense_block(const pscr_stage_args *a) {
  const pscr_block *b = &a->step->blocks[a->group->b0];
  int one = a->step->nblocks == 1 && b->s == 0 && b->m == a->lev_n && b->nd == b->m;
  return one && b->m >= PSCR_GPU_DENSE_MIN ? b : NULL;
}

/* A dense product on pscr_gemm: for each of nb batch entries z, C_z (M x
 * len, from element co + z cbs, rows ldc apart) = A_z B_z (B_z from element
 * bo + z bbs, rows ldb apart; + Cin_z from element cio + z cbs); A_z's entry
 * (i, k) at element ao + z abs + i ars + k acs. ldb, ldc = 0: len.
 * rev: the inner index runs from K - 1 down to 0. For U = W V that sums
 * each u_r from the eigenpair of the largest lambda down to the smallest,
 * so the smallest terms w_e(r) v_e come first: the running sum stays small
 * until the last terms, and its roundings do not add up to sqrt(n) eps |u|
 * of noise in every row (2D Poisson 1023^2, random f: residual 2.6e-13 in
 * ascending order, 4.3e-14 descending; bench/RESULTS.md). */
typedef struct {
  size_t M, K, nb;
  const void *A;
  size_t ao, ars, acs, abs;
  const void *B;
  size_t bo, ldb, bbs;
  const void *cin;
  size_t cio;
  void *C;
  size_t co, ldc, cbs;
  int rev;
  /* with sout: the shifts of (9), sout[so + z M + i] = shift[z ss] + lambda[l0 + z ls + i] */
  const void *lambda, *shift;
  size_t l0, ls, ss, so;
  void *sout;
} dense_product;

/* Chunks a product of few groups takes (gpu_pscr_ksplit), 1: unsplit. */
size_t gpu_pscr_ksplit(const gpu_device *g, pscr_dtype t, size_t M, size_t N, size_t K,
                       size_t nb) {
  size_t tiles = mgroups((long)M, PSCR_GPU_PD_BM) *
                 mgroups((long)N, PSCR_GPU_PD_BN(t == PSCR_C128)) * nb;
  size_t want = (size_t)g->tune.pscr_ksplit, S = 1;
  if (nb == 1 && tiles > 0 && tiles < want) S = (want + tiles - 1) / tiles;
  if (S > K / PSCR_GPU_KSPLIT_MINK) S = K / PSCR_GPU_KSPLIT_MINK;
  return S > 1 ? S : 1;
}

static pscr_status gemm(gpu_device *g, const pscr_stage_args *a, dense_product d) {
  const gpu_pscr *s = a->plan->impl;
  int bn = PSCR_GPU_PD_BN(a->plan->dtype == PSCR_C128);
  long long len = (long long)a->len;
  long long ldb = d.ldb ? (long long)d.ldb : len, ldc = d.ldc ? (long long)d.ldc : len;
  long long last = d.K > 0 ? (long long)d.K - 1 : 0, acs = (long long)d.acs;
  long long ao = (long long)d.ao + (d.rev ? last * acs : 0);
  long long bo = (long long)d.bo + (d.rev ? last * ldb : 0);
  long long abs = (long long)d.abs, bbs = (long long)d.bbs, cbs = (long long)d.cbs;
  if (d.rev) acs = -acs, ldb = -ldb;
  /* few groups: chunks of the inner index as a batch into ksum, added up by pscr_ksum */
  size_t S = d.cin || d.sout ? 1 : gpu_pscr_ksplit(g, a->plan->dtype, d.M, a->len, d.K, d.nb);
  size_t kc = (d.K + S - 1) / S;
  if (S > 1) S = (d.K + kc - 1) / kc;
  int split = S > 1 && S * d.M * a->len <= s->ksum_len;
  long long nb = split ? (long long)S : (long long)d.nb, K = split ? (long long)kc : (long long)d.K;
  if (split) abs = (long long)kc * acs, bbs = (long long)kc * ldb, cbs = (long long)(d.M * a->len);
  size_t groups = mgroups((long)d.M, PSCR_GPU_PD_BM) * mgroups((long)a->len, bn) * (size_t)nb;
  gpu_arg args[] = {GPU_LONG(d.M),      GPU_LONG(a->len),   GPU_LONG(K),
                    GPU_PTR(dp(d.A)),   GPU_LONG(ao),       GPU_LONG(d.ars),
                    GPU_LONG(acs),      GPU_LONG(abs),
                    GPU_PTR(dp(d.B)),   GPU_LONG(bo),       GPU_LONG(ldb),
                    GPU_PTR(d.cin ? dp(d.cin) : none),      GPU_LONG(d.cio),
                    GPU_PTR(split ? dp(s->ksum) : dp(d.C)), GPU_LONG(split ? 0 : d.co),
                    GPU_LONG(split ? len : ldc),            GPU_LONG(bbs),
                    GPU_LONG(cbs),
                    GPU_PTR(d.sout ? dp(d.lambda) : none),  GPU_LONG(d.l0),
                    GPU_LONG(d.ls),     GPU_PTR(d.sout ? dp(d.shift) : none),
                    GPU_LONG(d.ss),     GPU_PTR(d.sout ? dp(d.sout) : none),
                    GPU_LONG(d.so),     GPU_LONG(split ? (long long)d.K : 0)};
  pscr_status st;
  TRY(gpu_launch_x(g, "pscr_gemm", groups * PSCR_GPU_PD_WG, PSCR_GPU_PD_WG, 0, NARGS(args), args));
  if (!split) return PSCR_OK;
  gpu_arg sum[] = {GPU_LONG(d.M),   GPU_LONG(a->len), GPU_LONG(S),     GPU_PTR(dp(s->ksum)),
                   GPU_PTR(dp(d.C)), GPU_LONG(d.co),  GPU_LONG(ldc)};
  return launch(g, "pscr_ksum", d.M * a->len, NARGS(sum), sum);
}

/* (28) of 3D's dense level 0 for the a->batch vectors x + v x_stride: Y_v =
 * W_g^T X_v into y (ne len apart) for the group's ne eigenpairs (one block
 * from row 0 to n: no boundary terms), and their shifts c_v + lambda_e into
 * ys[v ne + e], in one launch. */
static pscr_status dense_rhs(gpu_device *g, const pscr_stage_args *a, const pscr_block *b, void *y,
                             void *ys) {
  size_t ne = a->group->e1 - a->group->e0, l0 = a->group->e0 - b->e0, nr = 2 + b->nd;
  return gemm(g, a,
              (dense_product){.M = ne, .K = b->m, .nb = a->batch, .A = a->comp,
                              .ao = b->comp + l0 * nr + 2, .ars = nr, .acs = 1, .B = a->x,
                              .bbs = a->x_stride, .C = y, .cbs = ne * a->len,
                              .lambda = a->lambda, .l0 = b->eig + l0, .shift = a->shift,
                              .ss = 1, .sout = ys});
}

/* (27) of 3D's dense level 0: U = W_g V, added to the earlier groups' sums
 * in the slots; the last group writes u into x (stage 22c). */
static pscr_status dense_sums(gpu_device *g, const pscr_stage_args *a, const pscr_block *b) {
  size_t ne = a->group->e1 - a->group->e0, l0 = a->group->e0 - b->e0, nr = 2 + b->nd;
  int first = l0 == 0, closes = a->group->e1 == b->e0 + b->m;
  /* the sums in the slots' rows from b->slot; u to the block's rows 0 .. n0 - 1 of x */
  size_t so = b->slot * a->len;
  return gemm(g, a,
              (dense_product){.M = b->nd, .K = ne, .nb = 1, .A = a->comp,
                              .ao = b->comp + l0 * nr + 2, .ars = 1, .acs = nr, .B = a->y,
                              .cin = first ? NULL : a->slots, .cio = so,
                              .C = closes ? a->x : a->slots, .co = closes ? 0 : so, .rev = 1});
}

/* pscr_osums: (24) / (27) over the solutions y of eigenpairs e0 .. e1-1
 * (one vector) for blocks b0 .. b0+nb-1: v_first, v_last or the rows D into
 * the slots (rows PB_VS on), a block closing in a back group u into x. */
static pscr_status osums(gpu_device *g, const pscr_stage_args *a, const void *y, void *slots,
                         size_t b0, size_t nb, size_t e0, size_t e1) {
  const gpu_pscr *s = a->plan->impl;
  size_t nqg = (max_out(a) + PSCR_GPU_QG - 1) / PSCR_GPU_QG;
  gpu_arg args[] = {GPU_PTR(dp(y)),          GPU_LONG(a->len),  GPU_PTR(dp(s->guide)),
                    GPU_LONG(gstep(a)->blk), GPU_LONG(b0),      GPU_LONG(nb),
                    GPU_LONG(e0),            GPU_LONG(e1),      GPU_LONG(nqg),
                    GPU_PTR(dp(a->comp)),    GPU_INT(a->phase == PSCR_BACK),
                    GPU_PTR(dp(slots)),      GPU_PTR(dp(a->x))};
  return launch(g, "pscr_osums", nb * nqg * a->len, NARGS(args), args);
}

/* A dense level's step whole in one launch where its systems are proven
 * definite (queued) and a vector's slab of n x len fits a group: one block
 * of all n rows whose runs are the one product (the step of gemm_step below
 * without boundary terms), in the back phase. SLAB_SMALL: pscr_slab,
 * SLAB_64: pscr_slab64 (real slabs past pscr_slab's bound of at most 64 x
 * 64), SLAB_128: pscr_slab128 (2D's real slabs past those of at most 128 x
 * 128, a group per PSCR_GPU_PD_SE eigenpairs), 0: not such a step. */
enum { SLAB_SMALL = 1, SLAB_64 = 2, SLAB_128 = 3 };

/* Whether a step is one block of all n rows, its one run the one product
 * (no boundary terms): the step the slab kernels and pscr_kron take whole. */
static int whole_step(const gpu_pscr_step *gs, const pscr_step *stp, size_t n) {
  if (gs->nrun != 1 || stp->nblocks != 1) return 0;
  const gpu_pscr_run *r = gs->runs;
  const pscr_block *b = &stp->blocks[r->b0];
  return r->nb == 1 && b->s + r->d0 == 0 && r->dd == 1 && r->m == n && r->nd == n;
}

static int slab_fits(const gpu_device *g, const pscr_plan *p, const gpu_pscr_step *gs,
                     const pscr_step *stp, size_t n, size_t len) {
  const gpu_pscr *s = p->impl;
  if (!s->dense || !s->queued || s->lines || (g->pack_args && !s->slab_pk) || gs->nroute ||
      g->max_wg < PSCR_GPU_PD_SWG || !whole_step(gs, stp, n))
    return 0;
  size_t cap = (size_t)g->tune.pscr_slab < PSCR_GPU_PD_SLAB ? (size_t)g->tune.pscr_slab
                                                             : PSCR_GPU_PD_SLAB;
  int z = p->dtype == PSCR_C128;
  if (n * len <= cap) return SLAB_SMALL;
  if (PSCR_GPU_SLAB64_SHAPE(z, n, len))
    return n * len <= (size_t)g->tune.pscr_slab64 ? SLAB_64 : 0;
  return PSCR_GPU_SLAB128_SHAPE(z, p->ndim, n, len) && s->slab_scr &&
                 n * len <= (size_t)g->tune.pscr_slab128
             ? SLAB_128
             : 0;
}

static int slab_step(const gpu_device *g, const pscr_stage_args *a) {
  return a->phase == PSCR_BACK ? slab_fits(g, a->plan, gstep(a), a->step, a->lev_n, a->len) : 0;
}

static pscr_status slab(gpu_device *g, const pscr_stage_args *a, int kind) {
  gpu_pscr *s = a->plan->impl;
  const pscr_plan *p = a->plan;
  const gpu_pscr_run *r = gstep(a)->runs;
  const pscr_block *b = &a->step->blocks[r->b0];
  const struct gpu_pscr_defer *f = &s->defer;
  int many = a->batch > 1;
  /* the pack holds the plan's own arrays: the level's (and defer_rhs's) */
  if (a->comp != p->lev[p->ndim - 2].comp || a->lambda != p->lev[p->ndim - 2].lambda)
    return PSCR_ERR_DEVICE;
  gpu_ptr c[6];
  gpu_pscr_last_diags(p, c);
  const long long *k = s->pk_diag;
  gpu_arg args[] = {GPU_LONG(a->lev_n),
                    GPU_LONG(a->len),
                    GPU_PKBASE(dp(s->slab_pk)),
                    GPU_PKPTR(dp(a->comp), s->pk_w),
                    GPU_LONG(b->comp + 2),
                    GPU_LONG(2 + r->nd),
                    GPU_PKPTR(dp(a->lambda), s->pk_lambda),
                    GPU_LONG(b->eig),
                    GPU_PTR(f->on || a->shift == p->c ? none : dp(a->shift)),
                    GPU_LONG(many),
                    GPU_PKPTR(c[0], k[0]),
                    GPU_PKPTR(c[1], k[1]),
                    GPU_PKPTR(c[2], k[2]),
                    GPU_PKPTR(c[3], k[3]),
                    GPU_PKPTR(c[4], k[4]),
                    GPU_PKPTR(c[5], k[5]),
                    GPU_PTR(dp(a->x)),
                    GPU_LONG(many ? a->x_stride : 0),
                    GPU_PTR(f->on ? dp(f->f) : none),
                    GPU_PTR(f->on ? dp(f->w0) : none),
                    GPU_LONG(f->wo),
                    GPU_LONG(f->wr),
                    GPU_LONG(f->n0),
                    GPU_PKPTR(f->on ? dp(p->lev[0].lambda) : none, s->pk_lambda0),
                    GPU_LONG(f->l0),
                    GPU_PKPTR(dp(p->c), s->pk_c),
                    GPU_PTR(g->flags),
                    GPU_PTR(dp(s->slab_scr))}; /* pscr_slab128's alone */
  s->defer.on = 0; /* one group's solve */
  if (kind == SLAB_128 && many) return PSCR_ERR_DEVICE; /* 2D: one vector */
  if (kind == SLAB_128) /* a group per PSCR_GPU_PD_SE eigenpairs */
    return g->launch(g, "pscr_slab128", mgroups(a->lev_n, PSCR_GPU_PD_SE) * PSCR_GPU_PD_SWG,
                     PSCR_GPU_PD_SWG, 0, NARGS(args), args);
  return g->launch(g, kind == SLAB_64 ? "pscr_slab64" : "pscr_slab", a->batch * PSCR_GPU_PD_SWG,
                   PSCR_GPU_PD_SWG, 0, NARGS(args) - 1, args);
}

/* The systems of a step run as products, all its eigenpairs' for every
 * vector (R and rshift): on the lines plan's fused kernels, along AUTO's
 * plan-time routes, or in one solve of the tridiagonal engine. */
static pscr_status step_solve(gpu_device *g, const pscr_stage_args *a) {
  const gpu_pscr *s = a->plan->impl;
  const gpu_pscr_step *gs = gstep(a);
  size_t sys = a->batch * a->step->neig;
  pscr_status st;
  if (s->lines)
    TRY(pscr_run_lines(s->lines, s->r, a->len, sys, s->rshift));
  for (size_t k = 0; !s->lines && k < gs->nroute; k++) /* AUTO's choice, made at plan time */
    TRY(gpu_pscr_solve_inner(a->plan, g, gs->routes[k].s0, gs->routes[k].n, gs->routes[k].alg, 1));
  if (!s->lines && !gs->nroute)
    TRY(gpu_pscr_solve_inner(a->plan, g, 0, sys, s->queued ? PSCR_TD_CR_PCR_THOMAS : a->alg,
                             s->queued));
  return gpu_pscr_device(a->plan, g); /* the solve may have switched modules */
}

/* Level 1's step where stage_21 left level 0's products to it (gpu_pscr.kron,
 * 3D): (28) over both levels from f into R with the systems' shifts, the
 * solve, (27) over both from R into level 0's x, each in one pscr_kron
 * launch of P groups a column. */
static pscr_status kron_step(gpu_device *g, const pscr_stage_args *a) {
  gpu_pscr *s = a->plan->impl;
  const pscr_plan *p = a->plan;
  const pscr_block *b = &a->step->blocks[0];
  struct gpu_pscr_kron *k = &s->kron;
  long n0 = (long)a->batch, n1 = (long)a->lev_n, nr = 2 + (long)b->nd, L = (long)a->len;
  long cap = PSCR_GPU_PD_KS(p->dtype == PSCR_C128); /* a share's outputs */
  pscr_status st;
  for (int back = 0; back < 2; back++) {
    /* P: one wave of a group an SM (pscr_ksplit / 2: pscr_kron's 512 work-items
     * hold an SM's registers), where the shares fit a group */
    long nf = back ? n1 : n0, ns = back ? n0 : n1;
    long P = (long)g->tune.pscr_ksplit / 2 / L;
    if (P > nf) P = nf;
    if (P < 1) P = 1;
    while (P < nf && (nf + P - 1) / P * ns > cap) P++; /* else the kernel raises CONFIG */
    long a0r = back ? 1 : (long)k->wr, a0c = back ? (long)k->wr : 1;
    long a1r = back ? 1 : nr, a1c = back ? nr : 1;
    gpu_arg args[] = {GPU_LONG(n0),
                      GPU_LONG(n1),
                      GPU_LONG(L),
                      GPU_LONG(P),
                      GPU_INT(back),
                      GPU_PTR(dp(k->w0)),
                      GPU_LONG(k->wo),
                      GPU_LONG(a0r),
                      GPU_LONG(a0c),
                      GPU_PTR(dp(a->comp)),
                      GPU_LONG(b->comp + 2),
                      GPU_LONG(a1r),
                      GPU_LONG(a1c),
                      GPU_PTR(dp(back ? s->r : k->x)),
                      GPU_PTR(dp(back ? k->x : s->r)),
                      GPU_PTR(back ? none : dp(k->shift)),
                      GPU_PTR(back ? none : dp(k->lambda0)),
                      GPU_LONG(k->l0),
                      GPU_PTR(back ? none : dp(a->lambda)),
                      GPU_LONG(b->eig),
                      GPU_PTR(back ? none : dp(s->rshift)),
                      GPU_PTR(g->flags)};
    if (back) TRY(step_solve(g, a));
    TRY(gpu_launch_x(g, "pscr_kron", (size_t)(L * P) * PSCR_GPU_PD_SWG, PSCR_GPU_PD_SWG, 0,
                     NARGS(args), args));
  }
  k->done = 1;
  return PSCR_OK;
}

/* An innermost step run as products (gpu_pscr.dense: the level's one dense
 * step, or either of 2D's two steps), for all its blocks at once, a run of
 * like blocks a launch (gpu_pscr_run):
 *   back: the boundary terms (28) into vbuf (pscr_bnd), then off the blocks'
 *         end rows of x (pscr_bsub);
 *   (26)/(28) Y = W^T X_D into R, with the systems' shifts;
 *   the shifted tridiagonal systems of all its eigenpairs in one solve (the
 *   lines plan's fused kernels, else the tridiagonal engine);
 *   (24) v_first, v_last into vbuf (pscr_osums), or (27) U_D = W_D V into x.
 * A batch of several vectors comes with steps of one block (3D's level 1). */
static pscr_status gemm_step(gpu_device *g, const pscr_stage_args *a) {
  const gpu_pscr *s = a->plan->impl;
  const gpu_pscr_step *gs = gstep(a);
  const pscr_step *stp = a->step;
  const pscr_group *gr = a->group;
  size_t len = a->len, ne = stp->neig, vps = s->vrows * len, B = a->batch;
  int back = a->phase == PSCR_BACK, many = B > 1;
  pscr_status st;
  if (gr->b0 != 0 || gr->b1 != stp->nblocks || gr->e0 != 0 || gr->e1 != ne ||
      (many && (stp->nblocks > 1 || !back)))
    return PSCR_ERR_UNSUPPORTED;
  int kind = slab_step(g, a);
  if (kind) return slab(g, a, kind);
  if (s->defer.on) return PSCR_ERR_UNSUPPORTED; /* stage_21 left its product to a slab */
  if (s->kron.on) return kron_step(g, a);
  int whole = stp->nblocks == 1 && stp->blocks[0].m == a->lev_n; /* no boundary terms */
  if (back && s->vrows > 0 && !whole) {
    TRY(boundary(g, a, s->vbuf, vps));
    gpu_arg args[] = {GPU_LONG(len),      GPU_LONG(a->lev_n),    GPU_PTR(dp(s->guide)),
                      GPU_LONG(gs->blk),  GPU_LONG(0),           GPU_LONG(stp->nblocks),
                      GPU_LONG(B),        GPU_PTR(dp(a->x)),     GPU_LONG(a->x_stride),
                      GPU_PTR(dp(s->vbuf)), GPU_LONG(vps)};
    TRY(launch(g, "pscr_bsub", B * stp->nblocks * len, NARGS(args), args));
  }
  for (size_t k = 0; k < gs->nrun; k++) {
    const gpu_pscr_run *r = &gs->runs[k];
    const pscr_block *b = &stp->blocks[r->b0];
    size_t nr = 2 + r->nd;
    TRY(gemm(g, a,
             (dense_product){.M = r->m, .K = r->nd, .nb = many ? B : r->nb, .A = a->comp,
                             .ao = b->comp + 2, .ars = nr, .acs = 1, .abs = many ? 0 : nr * r->m,
                             .B = a->x, .bo = (b->s + r->d0) * len, .ldb = r->dd * len,
                             .bbs = many ? a->x_stride : r->bstep * len, .C = s->r,
                             .co = b->e0 * len, .cbs = r->m * len, .lambda = a->lambda,
                             .l0 = b->eig, .ls = many ? 0 : r->m, .shift = a->shift,
                             .ss = many, .so = b->e0, .sout = s->rshift}));
  }
  TRY(step_solve(g, a));
  /* (24): two outputs a block, one pass over V (as a product, 64-row tiles
   * of which two rows are used: 0.30 against 0.10 ms, 2D Helmholtz 4095^2) */
  if (!back) return osums(g, a, s->r, s->vbuf, 0, stp->nblocks, 0, ne);
  for (size_t k = 0; k < gs->nrun; k++) {
    const gpu_pscr_run *r = &gs->runs[k];
    const pscr_block *b = &stp->blocks[r->b0];
    size_t nr = 2 + r->nd;
    TRY(gemm(g, a,
             (dense_product){.M = r->nd, .K = r->m, .nb = many ? B : r->nb, .A = a->comp,
                             .ao = b->comp + 2, .ars = 1, .acs = nr,
                             .abs = many ? 0 : nr * r->m, .B = s->r, .bo = b->e0 * len,
                             .bbs = r->m * len, .C = a->x, .co = (b->s + r->d0) * len,
                             .ldc = r->dd * len, .cbs = many ? a->x_stride : r->bstep * len,
                             .rev = 1}));
  }
  return PSCR_OK;
}

/* ---- innermost level ---- */

/* The arguments every fused kernel starts with (PSCR_TILE_PARAMS); returns their count. */
static int tile_args(const pscr_stage_args *a, size_t t0, size_t nt, gpu_arg *args) {
  const gpu_pscr *s = a->plan->impl;
  gpu_ptr c[6];
  gpu_pscr_last_diags(a->plan, c);
  gpu_arg v[] = {GPU_LONG(a->len),
                 GPU_INT(s->tile_lq + (s->ex ? 16 : 0)), /* PSCR_TILE_LQ */
                 GPU_INT(s->pivot),
                 LAST_ARGS(c),
                 GPU_PTR(dp(a->x)),
                 GPU_LONG(a->x_stride),
                 GPU_LONG(a->lev_n),
                 GPU_PTR(dp(s->guide)),
                 GPU_LONG(gstep(a)->blk),
                 GPU_LONG(gstep(a)->task),
                 GPU_LONG(t0),
                 GPU_LONG(nt),
                 GPU_PTR(dp(a->comp)),
                 GPU_PTR(dp(a->lambda)),
                 GPU_PTR(dp(a->shift)),
                 GPU_INT(a->phase == PSCR_BACK),
                 GPU_PTR(dp(s->vbuf)),
                 GPU_LONG(s->vrows * a->len)};
  for (int k = 0; k < NARGS(v); k++) args[k] = v[k];
  return NARGS(v);
}

/* Tasks of at most tmax eigenpairs a group of pscr_reg_fwdm (bwd = 0) or
 * bwdm: reg_mwg / tmax, fewer where local memory is short; 0 where tasks
 * below lo eigenpairs (lo = reg_fwdm or reg_bwdm; 0: never) keep the
 * sub-groups. */
static int reg_mtasks(const gpu_pscr *s, size_t tmax, int lo, int bwd) {
  if (!s->reg || lo <= 0 || tmax == 0 || tmax < (size_t)lo) return 0;
  int G = s->reg_mwg / (int)tmax;
  while (G > 0 && gpu_pscr_reg_mlocal(G, G * (int)tmax, bwd) > s->reg_cap) G--;
  return G;
}

/* Fused: one work-group per (vector, task[, tile]) forms, solves and sums its
 * eigenpairs' systems (pscr_tile.h); longer systems in two passes around the
 * record merge. Singular systems raise a status word, read at the end of the solve. */
static pscr_status tile_task(gpu_device *g, const pscr_stage_args *a) {
  const gpu_pscr *s = a->plan->impl;
  const gpu_pscr_step *gs = gstep(a);
  const pscr_group *gr = a->group;
  size_t t0 = gs->tofs[gr->b0], nt = gs->tofs[gr->b1] - t0;
  size_t groups = a->batch * nt, es = pscr_dtype_size(a->plan->dtype);
  gpu_arg args[40];
  int k = tile_args(a, t0, nt, args), wg = s->reg ? s->reg_wg : s->tile_w;
  size_t local = s->tile_local;
  if (groups == 0) return PSCR_OK;
  if (s->reg && g->tune.pscr_rfit) { /* no more sub-groups than the largest task has eigenpairs */
    int sw = 1 << s->reg_lsw, E = wg / sw;
    if ((size_t)E > gs->tmax && gs->tmax > 0) E = (int)gs->tmax;
    wg = sw * E;
    if (local) local = gpu_pscr_reg_need(sw, E) * es;
  }
  if (s->reg && s->fused == 1) args[k++] = GPU_INT(s->reg_lsw); /* pscr_reg_task's sub-group */
  if (s->fused == 1) {
    gpu_arg tail[] = {GPU_PTR(dp(s->acc)), GPU_LONG(s->nacc_max), GPU_LONG(s->accq),
                      GPU_PTR(g->flags)};
    for (int j = 0; j < NARGS(tail); j++) args[k++] = tail[j];
    if (s->reg) return g->launch(g, "pscr_reg_task", groups * (size_t)wg, wg, local, k, args);
    return gpu_launch_x(g, "pscr_tile_task", groups * (size_t)wg, wg, local, k, args);
  }
  long ne = (long)(gr->e1 - gr->e0), cnt[PSCR_GPU_LEVELS];
  for (int l = 0; l <= s->levels; l++) cnt[l] = (long)a->batch * ne * s->pc[l];
  /* tasks of many eigenpairs: one a work-item (pscr_reg_fwdl / bwdl) in
   * groups of the task's size; fewer: one a work-item and several tasks a
   * group (pscr_reg_fwdm / bwdm) where that leaves enough groups; else the
   * sub-groups */
  int fl = s->reg && s->reg_fwdl > 0 && gs->tmax >= (size_t)s->reg_fwdl;
  int bl = s->reg && s->reg_bwdl > 0 && gs->tmax >= (size_t)s->reg_bwdl;
  int Gf = fl ? 0 : reg_mtasks(s, gs->tmax, s->reg_fwdm, 0);
  int Gb = bl ? 0 : reg_mtasks(s, gs->tmax, s->reg_bwdm, 1);
  size_t fgroups = Gf ? a->batch * mgroups((long)nt, Gf) * (size_t)s->ntile : 0;
  size_t bgroups = Gb ? a->batch * mgroups((long)nt, Gb) * (size_t)s->ntile : 0;
  int fm = fgroups && fgroups >= (size_t)g->tune.pscr_rmmin;
  int bm = bgroups && bgroups >= (size_t)g->tune.pscr_rmmin;
  int fwg = fl ? gpu_pscr_lane_wg(gs->tmax, 32, s->reg_lwg) : fm ? Gf * (int)gs->tmax : wg;
  int bwg = bl ? gpu_pscr_lane_wg(gs->tmax, 64, s->reg_blwg) : bm ? Gb * (int)gs->tmax : wg;
  size_t fwd_local = fl && local ? gpu_pscr_reg_local(fwg, 0) * es : local;
  size_t bwd_local = bl && local ? gpu_pscr_reg_local(bwg, 1) * es : local;
  if (fm && local) fwd_local = gpu_pscr_reg_mlocal(Gf, fwg, 0) * es;
  if (bm && local) bwd_local = gpu_pscr_reg_mlocal(Gb, bwg, 1) * es;
  size_t tiles = groups * (size_t)s->ntile;
  pscr_status st;
  {
    gpu_arg tail[] = {GPU_LONG(gr->e0), GPU_LONG(ne), GPU_LONG(s->ntile), GPU_LONG(cnt[0])};
    gpu_arg last[] = {GPU_PTR(dp(s->recs[0])), GPU_PTR(g->flags)};
    int kk = k;
    for (int j = 0; j < NARGS(tail); j++) args[kk++] = tail[j];
    if (fm) args[kk++] = GPU_INT((int)gs->tmax);
    for (int j = 0; j < NARGS(last); j++) args[kk++] = last[j];
    TRY(g->launch(g,
                  fm   ? "pscr_reg_fwdm" /* its G = its group / tmax */
                  : fl ? "pscr_reg_fwdl"
                  : s->reg ? "pscr_reg_fwd"
                           : "pscr_tile_fwd",
                  (fm ? fgroups : tiles) * (size_t)fwg, fwg, fwd_local, kk, args));
  }
  { /* the tiles' reduced systems (td_tile.h) */
    long long pc[PSCR_GPU_LEVELS], cl[PSCR_GPU_LEVELS];
    gpu_ptr recs[PSCR_GPU_LEVELS], outs[PSCR_GPU_LEVELS];
    for (int l = 0; l <= s->levels; l++)
      pc[l] = s->pc[l], cl[l] = cnt[l], recs[l] = dp(s->recs[l]), outs[l] = dp(s->outs[l]);
    TRY(gpu_merge_records(g, s->levels, pc, cl, recs, outs, s->merge_w, s->merge_spg, s->ex,
                          s->merge_local));
  }
  gpu_arg tail[] = {
      GPU_LONG(gr->e0),        GPU_LONG(ne),        GPU_LONG(s->ntile),    GPU_LONG(cnt[0]),
      GPU_PTR(dp(s->outs[0])), GPU_PTR(dp(s->acc)), GPU_LONG(s->nacc_max), GPU_LONG(s->accq),
      GPU_PTR(g->flags)};
  int kk = k;
  for (int j = 0; j < NARGS(tail); j++) {
    if (j == 4 && bm) args[kk++] = GPU_INT((int)gs->tmax); /* pscr_reg_bwdm's tm */
    if (j == 8 && bl) args[kk++] = GPU_PTR(dp(s->ckp));    /* pscr_reg_bwdl's checkpoints */
    args[kk++] = tail[j];
  }
  return g->launch(g,
                   bm   ? "pscr_reg_bwdm"
                   : bl ? "pscr_reg_bwdl"
                   : s->reg ? "pscr_reg_bwd"
                            : "pscr_tile_bwd",
                   (bm ? bgroups : tiles) * (size_t)bwg, bwg, bwd_local, kk, args);
}

/* The lane engine (pscr_lane.h): a work-item per system, PSCR_GPU_LANE_W
 * consecutive eigenpairs of the step per work-group (the group is the step). */
static pscr_status lane_task(gpu_device *g, const pscr_stage_args *a) {
  const gpu_pscr *s = a->plan->impl;
  const gpu_pscr_step *gs = gstep(a);
  const pscr_plan *p = a->plan;
  int d = p->ndim - 1;
  size_t ne = a->step->neig, nwin = (ne + PSCR_GPU_LANE_W - 1) / PSCR_GPU_LANE_W;
  if (a->group->b0 != 0 || a->group->b1 != a->step->nblocks) return PSCR_ERR_UNSUPPORTED;
  gpu_arg args[] = {GPU_LONG(a->len),         GPU_PTR(dp(p->fac[d][0])),
                    GPU_PTR(dp(p->fac[d][1])), GPU_PTR(dp(p->fac[d][2])),
                    GPU_PTR(dp(p->fac[d][3])), GPU_INT(s->lane_check),
                    GPU_PTR(dp(s->exc)),
                    GPU_PTR(dp(a->x)),         GPU_LONG(a->x_stride),
                    GPU_LONG(a->lev_n),        GPU_PTR(dp(s->guide)),
                    GPU_LONG(gs->blk),         GPU_LONG(gs->eblk),
                    GPU_LONG(ne),              GPU_LONG(nwin),
                    GPU_PTR(dp(a->comp)),      GPU_PTR(dp(a->lambda)),
                    GPU_PTR(dp(a->shift)),     GPU_INT(a->phase == PSCR_BACK),
                    GPU_PTR(dp(s->vbuf)),      GPU_LONG(s->vrows * a->len),
                    GPU_LONG(max_out(a)),      GPU_PTR(dp(s->ckp)),
                    GPU_LONG(s->nch),
                    GPU_LONG(a->batch * ne),   GPU_PTR(dp(s->acc)),
                    GPU_LONG(s->nacc_max),     GPU_LONG(s->accq),
                    GPU_PTR(g->flags),         GPU_INT(p->lines > 0)};
  /* real data without the test: the plain kernel (no excess form, continuants or pivoting) */
  const char *k = p->dtype != PSCR_F64 || s->lane_check || p->lines ? "pscr_lane_task"
                  : a->phase == PSCR_BACK                          ? "pscr_lane_plain_back"
                                                                   : "pscr_lane_plain";
  /* a lines plan: a lane a vector (its one eigenpair), PSCR_GPU_LANE_W vectors a group */
  size_t groups = p->lines ? (a->batch + PSCR_GPU_LANE_W - 1) / PSCR_GPU_LANE_W : a->batch * nwin;
  return g->launch(g, k, groups * PSCR_GPU_LANE_W, PSCR_GPU_LANE_W, 0, NARGS(args), args);
}

/* Right-hand sides, the shifted solves and the task sums of one group. */
static pscr_status inner_stage(const pscr_stage_args *a) {
  const gpu_pscr *s = a->plan->impl;
  const gpu_pscr_step *gs = gstep(a);
  const pscr_group *gr = a->group;
  size_t len = a->len, ne = gr->e1 - gr->e0, vps = s->vrows * len;
  int back = a->phase == PSCR_BACK;
  gpu_device g;
  pscr_status st;
  TRY(gpu_pscr_device(a->plan, &g));
  if (s->dense) return gemm_step(&g, a);
  if (back && a->lev_n > 1) TRY(boundary(&g, a, s->vbuf, vps)); /* one row: no neighbours */
  if (s->fused == 3) return lane_task(&g, a);
  if (s->fused) return tile_task(&g, a);
  TRY(rhs(&g, a, s->vbuf, vps, s->r, s->rshift));
  TRY(gpu_pscr_solve_inner(a->plan, &g, 0, a->batch * ne, a->alg, 0));
  TRY(gpu_pscr_device(a->plan, &g)); /* the solve may have switched modules */
  size_t t0 = gs->tofs[gr->b0], nt = gs->tofs[gr->b1] - t0;
  size_t nqg = (max_out(a) + PSCR_GPU_QG - 1) / PSCR_GPU_QG;
  gpu_arg args[] = {
      GPU_PTR(dp(s->r)),  GPU_LONG(len),       GPU_PTR(dp(s->guide)), GPU_LONG(gs->blk),
      GPU_LONG(gs->task), GPU_LONG(t0),        GPU_LONG(nt),          GPU_LONG(gr->e0),
      GPU_LONG(ne),       GPU_LONG(a->batch),  GPU_LONG(nqg),         GPU_PTR(dp(a->comp)),
      GPU_INT(back),      GPU_PTR(dp(a->x)),   GPU_LONG(a->x_stride), GPU_PTR(dp(s->vbuf)),
      GPU_LONG(vps),      GPU_PTR(dp(s->acc)), GPU_LONG(s->nacc_max), GPU_LONG(s->accq)};
  return launch(&g, "pscr_sums", a->batch * nt * nqg * len, NARGS(args), args);
}

/* The partial sums of the group's blocks of several tasks -> v (reduce) or u (back). */
static pscr_status stage_y2b(const pscr_stage_args *a) {
  const gpu_pscr *s = a->plan->impl;
  const gpu_pscr_step *gs = gstep(a);
  const pscr_group *gr = a->group;
  size_t m0 = 0, m1;
  if (s->dense) return PSCR_OK; /* gemm_step wrote u or v */
  while (m0 < gs->nmb && gs->mb[m0] < gr->b0) m0++;
  for (m1 = m0; m1 < gs->nmb && gs->mb[m1] < gr->b1;) m1++;
  if (m1 == m0) return PSCR_OK;
  size_t len = a->len, qmax = max_out(a);
  gpu_device g;
  pscr_status st;
  TRY(gpu_pscr_device(a->plan, &g));
  gpu_arg args[] = {GPU_LONG(len),           GPU_PTR(dp(s->guide)),
                    GPU_LONG(gs->blk),       GPU_LONG(gs->mblk + m0),
                    GPU_LONG(m1 - m0),       GPU_LONG(a->batch),
                    GPU_LONG(qmax),          GPU_INT(a->phase == PSCR_BACK),
                    GPU_PTR(dp(s->acc)),     GPU_LONG(s->nacc_max),
                    GPU_LONG(s->accq),       GPU_PTR(dp(a->x)),
                    GPU_LONG(a->x_stride),   GPU_PTR(dp(s->vbuf)),
                    GPU_LONG(s->vrows * len)};
  return launch(&g, "pscr_y2b", a->batch * (m1 - m0) * qmax * len, NARGS(args), args);
}

/* ---- both levels ---- */

/* (24)-(25): the rows of J_i next to the group's closing blocks. */
static pscr_status stage_12c(const pscr_stage_args *a) {
  const gpu_pscr *s = a->plan->impl;
  const pscr_group *gr = a->group;
  size_t nu = gr->r1 - gr->r0;
  if (nu == 0) return PSCR_OK;
  const void *vs = a->outer ? a->slots : s->vbuf;
  size_t vps = a->outer ? 0 : s->vrows * a->len;
  gpu_device g;
  pscr_status st;
  TRY(gpu_pscr_device(a->plan, &g));
  gpu_arg args[] = {KRON_ARGS(a->kron),
                    GPU_PTR(dp(a->lev_ao)),
                    GPU_PTR(dp(a->lev_mo)),
                    GPU_PTR(dp(a->x)),
                    GPU_LONG(a->x_stride),
                    GPU_LONG(a->len),
                    GPU_PTR(dp(s->guide)),
                    GPU_LONG(gstep(a)->blk),
                    GPU_LONG(gstep(a)->upd),
                    GPU_LONG(gr->r0),
                    GPU_LONG(nu),
                    GPU_LONG(a->batch),
                    GPU_PTR(dp(a->shift)),
                    GPU_PTR(dp(vs)),
                    GPU_LONG(vps)};
  return launch(&g, "pscr_upd", a->batch * nu * a->len, NARGS(args), args);
}

/* ---- outer level (3D level 0, one vector) ---- */

/* (26): the group's 2D subproblems y and their c + lambda. */
static pscr_status stage_11(const pscr_stage_args *a) {
  gpu_device g;
  pscr_status st;
  TRY(gpu_pscr_device(a->plan, &g));
  const pscr_block *b = dense_block(a);
  if (b) return dense_rhs(&g, a, b, a->y, a->y_shift);
  return rhs(&g, a, NULL, 0, a->y, a->y_shift);
}

/* 3D's dense level 0 whose subproblems level 1 solves in pscr_slab (its one
 * step fits): the group's product (28) is left to the slab kernel, which
 * forms each vector's slab from f itself (one launch fewer) and its shift
 * from the plan's c and level 0's lambda (slab: the pack's copies). */
static int defer_rhs(const gpu_device *g, const pscr_stage_args *a) {
  const pscr_plan *p = a->plan;
  const gpu_pscr *s = p->impl;
  const pscr_level *in = &p->lev[1];
  return p->ndim == 3 && a->phase == PSCR_BACK && in->nsteps == 1 && a->shift == p->c &&
         a->lambda == p->lev[0].lambda &&
         slab_fits(g, p, &s->steps[1][0], &in->steps[0], in->n, in->len) == SLAB_SMALL;
}

/* 3D's dense level 0 in one group whose level 1 is one step run as
 * products, not a slab, with both levels' slices n0 x n1 in a pscr_kron
 * group (and n0 n1 within the tuning pscr_kron): level 0's products (28)
 * and (27) are left to level 1's (gpu_pscr.kron), one launch each way
 * where there were two. */
static int kron_fits(const gpu_device *g, const pscr_stage_args *a, const pscr_block *b) {
  const pscr_plan *p = a->plan;
  const gpu_pscr *s = p->impl;
  const pscr_level *in = &p->lev[1];
  if (p->ndim != 3 || a->phase != PSCR_BACK || a->batch != 1 || !s->dense ||
      in->nsteps != 1 || a->group->e0 != b->e0 || a->group->e1 != b->e0 + b->m ||
      g->max_wg < PSCR_GPU_PD_SWG)
    return 0;
  const gpu_pscr_step *gs = &s->steps[1][0];
  const pscr_step *stp = &in->steps[0];
  int z = p->dtype == PSCR_C128;
  size_t local = (size_t)(PSCR_GPU_PD_KCAP(z) + PSCR_GPU_PD_KS(z)) * pscr_dtype_size(p->dtype);
  /* b: dense_block's, one block of all n0 rows */
  return whole_step(gs, stp, in->n) && !slab_fits(g, p, gs, stp, in->n, in->len) &&
         b->m * in->n <= (size_t)PSCR_GPU_PD_KCAP(z) &&
         b->m * in->n <= (size_t)g->tune.pscr_kron && g->local_bytes >= local; /* its arrays */
}

/* (28): the boundary terms of the blocks opening in the group, then the subproblems. */
static pscr_status stage_21(const pscr_stage_args *a) {
  gpu_device g;
  pscr_status st;
  TRY(gpu_pscr_device(a->plan, &g));
  const pscr_block *b = dense_block(a);
  gpu_pscr *s = a->plan->impl;
  if (b && kron_fits(&g, a, b)) {
    s->kron = (struct gpu_pscr_kron){.on = 1, .x = a->x, .w0 = a->comp, .lambda0 = a->lambda,
                                     .shift = a->shift, .wo = b->comp + 2, .wr = 2 + b->nd,
                                     .l0 = b->eig};
    return PSCR_OK;
  }
  if (b && defer_rhs(&g, a)) {
    size_t nr = 2 + b->nd;
    s->defer = (struct gpu_pscr_defer){1, a->x, a->comp, b->comp + 2 + (a->group->e0 - b->e0) * nr,
                                       nr, b->m, b->eig + (a->group->e0 - b->e0)};
    return PSCR_OK;
  }
  if (b) return dense_rhs(&g, a, b, a->y, a->y_shift);
  TRY(boundary(&g, a, a->slots, 0));
  return rhs(&g, a, a->slots, 0, a->y, a->y_shift);
}

/* (24) / (27): block sums over the group's solved subproblems; a block
 * closing in a back group writes u into its rows D (stage 22c). */
static pscr_status stage_osums(const pscr_stage_args *a) {
  const pscr_group *gr = a->group;
  gpu_device g;
  pscr_status st;
  TRY(gpu_pscr_device(a->plan, &g));
  const pscr_block *b = dense_block(a);
  gpu_pscr *s = a->plan->impl;
  if (b && a->phase == PSCR_BACK && s->kron.on) { /* kron_step wrote u */
    int done = s->kron.done;
    s->kron.on = 0;
    return done ? PSCR_OK : PSCR_ERR_DEVICE;
  }
  if (b && a->phase == PSCR_BACK) return dense_sums(&g, a, b);
  return osums(&g, a, a->y, a->slots, gr->b0, gr->b1 - gr->b0, gr->e0, gr->e1);
}

/* The start of a solve: clear status words (the fused kernel raises SINGULAR)
 * and any products a failed solve left deferred. */
static pscr_status begin(pscr_plan *p) {
  gpu_pscr *s = p->impl;
  if (s) s->defer.on = 0, s->kron.on = 0;
  gpu_device g;
  pscr_status st = p->ctx->ops->gpu ? p->ctx->ops->gpu(p->ctx, &g) : PSCR_ERR_UNSUPPORTED;
  return st == PSCR_OK ? g.flags_clear(&g) : st;
}

/* The end of a solve: waits for the queue (the status words' read). */
static pscr_status finish(pscr_plan *p) {
  gpu_device g;
  int fl[GPU_TD_FLAG_WORDS] = {0};
  pscr_status st = p->ctx->ops->gpu ? p->ctx->ops->gpu(p->ctx, &g) : PSCR_ERR_UNSUPPORTED;
  if (st == PSCR_OK) st = g.flags_read(&g, fl);
  if (st == PSCR_OK) st = gpu_td_flags_status(fl);      /* the queued solves' */
  if (st == PSCR_OK && fl[6]) st = PSCR_ERR_UNSUPPORTED; /* TD_FLAG_CONFIG */
  return st;
}

static size_t scratch_len(size_t n_last, size_t n_kron, size_t max_nd) {
  (void)n_last, (void)n_kron, (void)max_nd;
  return 0; /* no host scratch */
}

/* stage_22c is NULL: fused into stage_22a (pscr_osums writes u). */
#define GPU_STAGES                                                                                 \
  .host_batch = 0, .scratch_len = scratch_len, .stage_11_td_12a = inner_stage,                     \
  .stage_21_td_22a = inner_stage, .stage_y2b = stage_y2b, .stage_12c = stage_12c,                  \
  .stage_11 = stage_11, .stage_21 = stage_21, .stage_12a = stage_osums, .stage_22a = stage_osums,  \
  .stage_22c = NULL, .outer_batch = gpu_pscr_outer_batch,                                         \
  .level_radix = gpu_pscr_level_radix, .plan_init = gpu_pscr_plan_init,                            \
  .plan_fini = gpu_pscr_plan_fini, .begin = begin, .finish = finish

const pscr_stage_ops pscr_gpu_stages_d = {.name = "gpu", GPU_STAGES};
const pscr_stage_ops pscr_gpu_stages_z = {.name = "gpu", GPU_STAGES};
