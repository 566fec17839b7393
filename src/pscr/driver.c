/* The ONE PSCR driver: levels, steps, groups and which stage runs when
 * (seed 003 (13)-(16) with (24)-(29), section 4.3). Backends only run stages. */
#include "core/threads.h"
#include "core/timer.h"
#include "pscr/pscr_internal.h"

/* A stage of the table; NULL: fused into the stage before it. */
static pscr_status run_stage(pscr_stage_fn fn, const pscr_stage_args *a) {
  return fn ? fn(a) : PSCR_OK;
}

/* Where the innermost level works: its workspace areas and thread count. */
typedef struct {
  void *acc, *vbuf, *scratch;
  int threads;
} inner_ws;

static pscr_stage_args level_args(const pscr_plan *p, int L) {
  const pscr_level *lev = &p->lev[L];
  pscr_stage_args a = {.lambda = lev->lambda,
                       .comp = lev->comp,
                       .lev_ao = p->fac[L][1],
                       .lev_mo = p->fac[L][3],
                       .lev_n = lev->n,
                       .outer = !lev->innermost,
                       .len = lev->len,
                       .acc = p->acc,
                       .acc_item = p->acc_item,
                       .acc_blk = p->acc_blk,
                       .vbuf = p->vbuf,
                       .alg = p->innermost,
                       .y = p->y,
                       .y_shift = p->y_shift,
                       .slots = p->slots,
                       .scratch = p->scratch,
                       .scratch_len = p->scratch_len,
                       .threads = p->threads,
                       .plan = (pscr_plan *)p,
                       .level = L};
  a.kron.ndims = p->ndim - 1 - L;
  for (int k = 0; k < a.kron.ndims; k++) {
    int d = L + 1 + k;
    a.kron.n[k] = p->n[d];
    a.kron.ad[k] = p->fac[d][0], a.kron.ao[k] = p->fac[d][1];
    a.kron.md[k] = p->fac[d][2], a.kron.mo[k] = p->fac[d][3];
  }
  return a;
}

/* The last PSCR level: a batch of vectors x + b*x_stride with c = shift[b];
 * its inner systems (A_last + (c + lambda) M_last) are tridiagonal. */
static pscr_status inner_level(const pscr_plan *p, int L, void *x, size_t x_stride, size_t batch,
                               const void *shift, inner_ws ws) {
  const pscr_level *lev = &p->lev[L];
  const pscr_stage_ops *ops = p->ops;
  pscr_stage_args a = level_args(p, L);
  a.x = x, a.x_stride = x_stride, a.batch = batch, a.shift = shift;
  a.acc = ws.acc, a.vbuf = ws.vbuf, a.scratch = ws.scratch, a.threads = ws.threads;
  pscr_status st = PSCR_OK;
  a.phase = PSCR_REDUCE; /* (13)-(14) for i = 1..k-1 */
  for (int i = 1; i < lev->nsteps && st == PSCR_OK; i++) {
    a.step = &lev->steps[i - 1];
    for (size_t g = 0; g < a.step->ngroups && st == PSCR_OK; g++) {
      a.group = &a.step->groups[g];
      st = run_stage(ops->stage_11_td_12a, &a);
      if (st == PSCR_OK) st = run_stage(ops->stage_y2b, &a);
      if (st == PSCR_OK) st = run_stage(ops->stage_12c, &a);
    }
  }
  a.phase = PSCR_BACK; /* (15)-(16) for i = k..1 */
  for (int i = lev->nsteps; i >= 1 && st == PSCR_OK; i--) {
    a.step = &lev->steps[i - 1];
    for (size_t g = 0; g < a.step->ngroups && st == PSCR_OK; g++) {
      a.group = &a.step->groups[g];
      st = run_stage(ops->stage_21_td_22a, &a);
      if (st == PSCR_OK) st = run_stage(ops->stage_y2b, &a); /* fused with 22c: writes the rows u */
    }
  }
  return st;
}

/* The group's nk 2D subproblems (9) in p->y with c = p->y_shift[k]: one
 * batch through the stages, or one subproblem per host thread (CPU). */
static pscr_status solve_2d(const pscr_plan *p, size_t nk) {
  const pscr_level *lev = &p->lev[0];
  inner_ws ws = {p->acc, p->vbuf, p->scratch, p->threads};
  if (!p->ops->host_batch) return inner_level(p, 1, p->y, lev->len, nk, p->y_shift, ws);
  size_t e = pscr_dtype_size(p->dtype);
  pscr_status st = PSCR_OK;
  long long n = (long long)nk;
#pragma omp parallel for num_threads(p->threads) if (p->threads > 1 && n > 1) schedule(dynamic, 1)
  for (long long k = 0; k < n; k++) {
    size_t t = (size_t)pscr_thread_id();
    inner_ws w = {(char *)p->acc + t * p->acc_area * e, (char *)p->vbuf + t * p->vbuf_area * e,
                  (char *)p->scratch + t * p->scratch_len * e, 1};
    pscr_status s = inner_level(p, 1, (char *)p->y + (size_t)k * lev->len * e, lev->len, 1,
                                (const char *)p->y_shift + (size_t)k * e, w);
    if (s != PSCR_OK) {
#pragma omp critical(pscr_driver_status)
      if (st == PSCR_OK) st = s;
    }
  }
  return st;
}

/* 3D level 0: each subproblem of (26)/(28) is a 2D problem (9), solved by
 * level 1 for a group of eigenpairs at once. */
static pscr_status outer_level(const pscr_plan *p, void *x) {
  const pscr_level *lev = &p->lev[0];
  const pscr_stage_ops *ops = p->ops;
  pscr_stage_args a = level_args(p, 0);
  a.x = x, a.x_stride = p->total, a.batch = 1, a.shift = p->c;
  pscr_status st = PSCR_OK;
  a.phase = PSCR_REDUCE;
  for (int i = 1; i < lev->nsteps && st == PSCR_OK; i++) {
    a.step = &lev->steps[i - 1];
    for (size_t g = 0; g < a.step->ngroups && st == PSCR_OK; g++) {
      a.group = &a.step->groups[g];
      st = run_stage(ops->stage_11, &a);
      if (st == PSCR_OK) st = solve_2d(p, a.group->e1 - a.group->e0);
      if (st == PSCR_OK) st = run_stage(ops->stage_12a, &a);
      if (st == PSCR_OK) st = run_stage(ops->stage_12c, &a);
    }
  }
  a.phase = PSCR_BACK;
  for (int i = lev->nsteps; i >= 1 && st == PSCR_OK; i--) {
    a.step = &lev->steps[i - 1];
    for (size_t g = 0; g < a.step->ngroups && st == PSCR_OK; g++) {
      a.group = &a.step->groups[g];
      st = run_stage(ops->stage_21, &a);
      if (st == PSCR_OK) st = solve_2d(p, a.group->e1 - a.group->e0);
      if (st == PSCR_OK) st = run_stage(ops->stage_22a, &a);
      if (st == PSCR_OK) st = run_stage(ops->stage_22c, &a);
    }
  }
  return st;
}

pscr_status pscr_run_lines(const pscr_plan *lines, void *x, size_t x_stride, size_t batch,
                           const void *shift) {
  if (lines == NULL || !lines->lines || batch > lines->lev[0].batch_max)
    return PSCR_ERR_INVALID_ARGUMENT;
  inner_ws ws = {lines->acc, lines->vbuf, lines->scratch, lines->threads};
  return inner_level(lines, 0, x, x_stride, batch, shift, ws);
}

/* The solve of f (native to the plan's backend), timed to its end. */
pscr_status pscr_run(pscr_plan *plan, void *f) {
  inner_ws ws = {plan->acc, plan->vbuf, plan->scratch, plan->threads};
  pscr_context_settle(plan->ctx); /* the status words are shared with queued solves */
  double t0 = pscr_wtime();
  pscr_status st = plan->ops->begin ? plan->ops->begin(plan) : PSCR_OK;
  if (st == PSCR_OK)
    st = plan->ndim == 2 ? inner_level(plan, 0, f, plan->total, 1, plan->c, ws)
                         : outer_level(plan, f);
  if (plan->ops->finish) {
    pscr_status s = plan->ops->finish(plan);
    if (st == PSCR_OK) st = s;
  }
  plan->last_solve_seconds = pscr_wtime() - t0;
  return st;
}

pscr_status pscr_solve(pscr_plan *plan, void *f) {
  if (plan == NULL || f == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  plan->last_transfer_seconds = 0;
  if (plan->ctx->backend == PSCR_BACKEND_CPU) return pscr_run(plan, f);
  /* devices: through the plan's copy of f, transfers timed apart */
  pscr_context *ctx = plan->ctx;
  size_t bytes = plan->total * pscr_dtype_size(plan->dtype);
  double t0 = pscr_wtime();
  pscr_status st = ctx->ops->write(ctx, plan->fdev, 0, f, bytes);
  double t1 = pscr_wtime();
  if (st == PSCR_OK) st = pscr_run(plan, plan->fdev);
  double t2 = pscr_wtime();
  if (st == PSCR_OK) st = ctx->ops->read(ctx, plan->fdev, 0, f, bytes);
  plan->last_transfer_seconds = (t1 - t0) + (pscr_wtime() - t2);
  return st;
}

pscr_status pscr_solve_array(pscr_plan *plan, pscr_array *f) {
  if (plan == NULL || f == NULL || f->dtype != plan->dtype || f->count < plan->total ||
      f->ctx == NULL || f->ctx->backend != plan->ctx->backend)
    return PSCR_ERR_INVALID_ARGUMENT;
  /* device memory belongs to its context */
  if (plan->ctx->backend != PSCR_BACKEND_CPU && f->ctx != plan->ctx)
    return PSCR_ERR_INVALID_ARGUMENT;
  plan->last_transfer_seconds = 0;
  return pscr_run(plan, f->native);
}
