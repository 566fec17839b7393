/* pscr_plan_create / get_info / destroy: everything that depends only on
 * the matrix (partition sets, eigenpairs (23), schedule, workspace). */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/threads.h"
#include "core/timer.h"
#include "eigen/eigen.h"
#include "pscr/pscr_internal.h"
#include "tridiag/td.h"

void pscr_options_default(pscr_options *opt) {
  if (opt == NULL) return;
  opt->radix = 4;
  opt->innermost = PSCR_TD_AUTO;
  opt->threads = 0;
  opt->tuning_file = NULL;
  opt->workspace_bytes = 0;
}

const pscr_stage_ops *pscr_stage_lookup(pscr_backend backend, pscr_dtype dtype) {
  if (backend == PSCR_BACKEND_CPU)
    return dtype == PSCR_F64 ? &pscr_cpu_stages_d : &pscr_cpu_stages_z;
#if PSCR_HAVE_CUDA || PSCR_HAVE_OPENCL
  if (backend == PSCR_BACKEND_CUDA || backend == PSCR_BACKEND_OPENCL)
    return dtype == PSCR_F64 ? &pscr_gpu_stages_d : &pscr_gpu_stages_z;
#endif
  return NULL;
}

static int finite_data(pscr_dtype t, const void *p, size_t n) {
  const double *d = p;
  size_t count = n * (t == PSCR_C128 ? 2 : 1);
  for (size_t i = 0; i < count; i++)
    if (!isfinite(d[i])) return 0;
  return 1;
}

static pscr_status check_problem(const pscr_problem *pb, const pscr_options *opt) {
  if (pb->ndim != 2 && pb->ndim != 3) return PSCR_ERR_INVALID_ARGUMENT;
  if (!pscr_dtype_valid(pb->dtype)) return PSCR_ERR_INVALID_ARGUMENT;
  if (opt->radix < 2 || opt->threads < 0) return PSCR_ERR_INVALID_ARGUMENT;
  if ((int)opt->innermost < (int)PSCR_TD_AUTO || (int)opt->innermost > (int)PSCR_TD_LAPACK)
    return PSCR_ERR_INVALID_ARGUMENT;
  if (opt->innermost != PSCR_TD_AUTO && td_lookup_d(opt->innermost) == NULL)
    return PSCR_ERR_INVALID_ARGUMENT;
  size_t total = 1;
  for (int d = 0; d < pb->ndim; d++) {
    const pscr_factor *f = &pb->dim[d];
    if (f->n == 0 || f->n > (size_t)INT32_MAX || f->a_diag == NULL || f->m_diag == NULL ||
        (f->n > 1 && f->a_off == NULL))
      return PSCR_ERR_INVALID_ARGUMENT;
    if (total > SIZE_MAX / 16 / f->n) return PSCR_ERR_OUT_OF_MEMORY;
    total *= f->n;
  }
  if (pb->dtype == PSCR_F64 && pb->c_im != 0) return PSCR_ERR_INVALID_ARGUMENT;
  if (!isfinite(pb->c_re) || !isfinite(pb->c_im)) return PSCR_ERR_NONFINITE;
  for (int d = 0; d < pb->ndim; d++) {
    const pscr_factor *f = &pb->dim[d];
    if (!finite_data(pb->dtype, f->a_diag, f->n) || !finite_data(pb->dtype, f->m_diag, f->n) ||
        (f->n > 1 && !finite_data(pb->dtype, f->a_off, f->n - 1)) ||
        (f->n > 1 && f->m_off && !finite_data(pb->dtype, f->m_off, f->n - 1)))
      return PSCR_ERR_NONFINITE;
  }
  return PSCR_OK;
}

/* Device memory owned by the plan (released in pscr_plan_destroy). */
static pscr_status dev_alloc(pscr_plan *p, size_t count, void **out) {
  size_t bytes = (count ? count : 1) * pscr_dtype_size(p->dtype);
  pscr_status st = pscr_alloc_internal(p->ctx, bytes, out);
  if (st != PSCR_OK)
    *out = NULL;
  else
    p->bytes += bytes;
  return st;
}
static pscr_status dev_upload(pscr_plan *p, const void *host, size_t count, void **out) {
  pscr_status st = dev_alloc(p, count, out);
  if (st == PSCR_OK && count > 0)
    st = p->ctx->ops->write(p->ctx, *out, 0, host, count * pscr_dtype_size(p->dtype));
  return st;
}

/* The factors' device copies. The off-diagonals get n entries (the last 0):
 * the GPU's tridiagonal rows read du[n-1] unconditionally (td_rows.h). */
static pscr_status copy_factors(pscr_plan *p, const pscr_problem *pb) {
  size_t e = pscr_dtype_size(p->dtype);
  for (int d = 0; d < p->ndim; d++) {
    const pscr_factor *f = &pb->dim[d];
    size_t no = f->n - 1;
    char *ao = calloc(f->n, e), *mo = calloc(f->n, e);
    pscr_status st = ao && mo ? PSCR_OK : PSCR_ERR_OUT_OF_MEMORY;
    if (st == PSCR_OK && no) memcpy(ao, f->a_off, no * e);
    if (st == PSCR_OK && no && f->m_off) memcpy(mo, f->m_off, no * e);
    const void *src[4] = {f->a_diag, ao, f->m_diag, mo};
    for (int k = 0; k < 4 && st == PSCR_OK; k++) st = dev_upload(p, src[k], f->n, &p->fac[d][k]);
    free(ao);
    free(mo);
    if (st != PSCR_OK) return st;
  }
  return PSCR_OK;
}

typedef struct {
  int level;
  const pscr_block *b;
} eig_job;

static int job_cmp(const void *x, const void *y) {
  size_t a = ((const eig_job *)x)->b->m, b = ((const eig_job *)y)->b->m;
  return a < b ? 1 : a > b ? -1 : 0; /* largest first */
}

/* The generalized eigenproblems (23) of every block, independent blocks in parallel. */
static pscr_status eigenpairs(pscr_plan *p, const pscr_problem *pb) {
  size_t njobs = 0, e = pscr_dtype_size(p->dtype);
  int nlev = p->ndim - 1;
  for (int L = 0; L < nlev; L++)
    for (int i = 0; i < p->lev[L].nsteps; i++) njobs += p->lev[L].steps[i].nblocks;
  eig_job *jobs = malloc(njobs * sizeof *jobs);
  char *lam[PSCR_MAX_LEVELS] = {NULL}, *comp[PSCR_MAX_LEVELS] = {NULL};
  pscr_status st = jobs ? PSCR_OK : PSCR_ERR_OUT_OF_MEMORY;
  for (int L = 0; L < nlev && st == PSCR_OK; L++) {
    lam[L] = malloc((p->lev[L].neig + 1) * e);
    comp[L] = malloc((p->lev[L].ncomp + 1) * e);
    if (!lam[L] || !comp[L]) st = PSCR_ERR_OUT_OF_MEMORY;
  }
  if (st != PSCR_OK) goto cleanup;
  njobs = 0;
  for (int L = 0; L < nlev; L++)
    for (int i = 0; i < p->lev[L].nsteps; i++)
      for (size_t b = 0; b < p->lev[L].steps[i].nblocks; b++)
        jobs[njobs++] = (eig_job){L, &p->lev[L].steps[i].blocks[b]};
  qsort(jobs, njobs, sizeof *jobs, job_cmp);
  long long nj = (long long)njobs;
#pragma omp parallel for num_threads(p->threads) if (p->threads > 1) schedule(dynamic, 1)
  for (long long j = 0; j < nj; j++) {
    const pscr_block *b = jobs[j].b;
    int L = jobs[j].level;
    const pscr_factor *f = &pb->dim[L];
    const pscr_step *stp = NULL;
    for (int i = 0; i < p->lev[L].nsteps; i++) {
      const pscr_step *s = &p->lev[L].steps[i];
      if (b >= s->blocks && b < s->blocks + s->nblocks) stp = s;
    }
    size_t *rows = malloc((2 + b->nd) * sizeof *rows);
    pscr_status js = rows ? PSCR_OK : PSCR_ERR_OUT_OF_MEMORY;
    if (js == PSCR_OK) {
      rows[0] = 0, rows[1] = b->m - 1;
      for (size_t r = 0; r < b->nd; r++) rows[2 + r] = stp->dpos[b->d + r];
      const char *mo = f->m_off && b->m > 1 ? (const char *)f->m_off + b->s * e : NULL;
      js = pscr_eigen_block(p->dtype, b->m, (const char *)f->a_diag + b->s * e,
                            b->m > 1 ? (const char *)f->a_off + b->s * e : NULL,
                            (const char *)f->m_diag + b->s * e, mo, 2 + b->nd, rows,
                            lam[L] + b->eig * e, comp[L] + b->comp * e);
    }
    free(rows);
    if (js != PSCR_OK) {
#pragma omp critical(pscr_plan_eigen_status)
      if (st == PSCR_OK) st = js;
    }
  }
  for (int L = 0; L < nlev && st == PSCR_OK; L++) {
    double lo = INFINITY;
    for (size_t j = 0; j < p->lev[L].neig; j++) {
      double re = p->dtype == PSCR_F64 ? ((double *)lam[L])[j] : creal(((double complex *)lam[L])[j]);
      lo = re < lo ? re : lo;
    }
    p->lev[L].lambda_min = lo;
    st = dev_upload(p, lam[L], p->lev[L].neig, &p->lev[L].lambda);
    if (st == PSCR_OK) st = dev_upload(p, comp[L], p->lev[L].ncomp, &p->lev[L].comp);
  }
cleanup:
  for (int L = 0; L < nlev; L++) free(lam[L]), free(comp[L]);
  free(jobs);
  return st;
}

/* Levels, schedules and workspace (devices: the outer level's part; the
 * backend's plan_init adds its own). */
static pscr_status build(pscr_plan *p) {
  int nlev = p->ndim - 1, host = nlev == 2 && p->ops->host_batch, dev = !p->ops->host_batch;
  for (int L = 0; L < nlev; L++)
    p->lev[L].radix = p->ops->level_radix ? p->ops->level_radix(p, L) : p->radix;
  /* 3D: 2D subproblems solved together */
  size_t bt = dev ? p->ops->outer_batch(p) : 2 * (size_t)p->threads;
  size_t max_tasks = 0, max_blocks = 0, max_slots = 0, max_tb = 1;
  for (int L = 0; L < nlev; L++) {
    pscr_level *lev = &p->lev[L];
    lev->n = p->n[L];
    lev->len = 1;
    for (int d = L + 1; d < p->ndim; d++) lev->len *= p->n[d];
    lev->innermost = L == nlev - 1;
    /* 2D: one vector (a lines plan: its lines); 3D's level 1: bt (host threads: one) */
    lev->batch_max = L == 0 && lev->innermost ? (p->lines ? p->lines : 1)
                     : L == 1 && host           ? 1
                                                : bt;
    int *levels = malloc(lev->n * sizeof *levels);
    if (levels == NULL) return PSCR_ERR_OUT_OF_MEMORY;
    pscr_partition_levels(lev->n, lev->radix, levels);
    int sched = dev ? 0 : L == 1 && host ? 1 : p->threads;
    pscr_status st = pscr_level_schedule(lev, levels, lev->radix, sched, &max_tasks, &max_blocks,
                                         &max_slots, &max_tb);
    free(levels);
    if (st != PSCR_OK) return st;
  }
  const pscr_level *in = &p->lev[nlev - 1];
  size_t n_last = p->n[p->ndim - 1], max_nd = 2;
  for (int i = 0; i < in->nsteps; i++)
    if (in->steps[i].max_nd > max_nd) max_nd = in->steps[i].max_nd;
  p->acc_blk = max_nd * n_last;
  p->acc_item = max_tb * p->acc_blk;
  p->scratch_len = p->ops->scratch_len(n_last, p->ndim == 3 ? p->n[2] : 0, max_nd);
  size_t areas = host ? (size_t)p->threads : 1;
  p->acc_area = in->batch_max * max_tasks * p->acc_item;
  p->vbuf_area = in->batch_max * max_blocks * 2 * n_last;
  pscr_status st = PSCR_OK;
  if (dev) {
    st = dev_alloc(p, p->total, &p->fdev);
  } else {
    st = dev_alloc(p, areas * p->acc_area, &p->acc);
    if (st == PSCR_OK) st = dev_alloc(p, areas * p->vbuf_area, &p->vbuf);
    if (st == PSCR_OK) st = dev_alloc(p, (size_t)p->threads * p->scratch_len, &p->scratch);
  }
  if (st == PSCR_OK && nlev == 2) {
    st = dev_alloc(p, bt * p->lev[0].len, &p->y);
    if (st == PSCR_OK) st = dev_alloc(p, bt, &p->y_shift);
    if (st == PSCR_OK) st = dev_alloc(p, max_slots * p->lev[0].len, &p->slots);
  }
  return st;
}

static pscr_status create(pscr_context *ctx, const pscr_problem *problem, const pscr_options *opt,
                          size_t lines, pscr_plan **plan);

pscr_status pscr_plan_create(pscr_context *ctx, const pscr_problem *problem,
                             const pscr_options *opt, pscr_plan **plan) {
  return create(ctx, problem, opt, 0, plan);
}

pscr_status pscr_plan_lines(pscr_context *ctx, const pscr_problem *pb, pscr_td_algorithm alg,
                            int threads, size_t batch, pscr_plan **out) {
  double one[2] = {1, 0}, zero[2] = {0, 0}; /* C128 reads both, F64 the first */
  pscr_problem lp = {.ndim = 2, .dtype = pb->dtype};
  lp.dim[0] = (pscr_factor){1, zero, NULL, one, NULL};
  lp.dim[1] = pb->dim[pb->ndim - 1];
  pscr_options opt;
  pscr_options_default(&opt);
  opt.innermost = alg, opt.threads = threads;
  return create(ctx, &lp, &opt, batch > 0 ? batch : 1, out);
}

static pscr_status create(pscr_context *ctx, const pscr_problem *problem, const pscr_options *opt,
                          size_t lines, pscr_plan **plan) {
  double t0 = pscr_wtime();
  if (ctx == NULL || problem == NULL || plan == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  pscr_options def;
  pscr_options_default(&def);
  if (opt == NULL) opt = &def;
  pscr_status st = check_problem(problem, opt);
  if (st != PSCR_OK) return st;
  const pscr_stage_ops *ops = pscr_stage_lookup(ctx->backend, problem->dtype);
  if (ops == NULL) return PSCR_ERR_UNSUPPORTED;

  pscr_plan *p = calloc(1, sizeof *p);
  if (p == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  p->ctx = ctx, p->ops = ops, p->dtype = problem->dtype, p->ndim = problem->ndim;
  p->radix = opt->radix, p->innermost = opt->innermost, p->workspace = opt->workspace_bytes;
  p->lines = lines;
  p->threads = pscr_resolve_threads(opt->threads > 0 ? opt->threads : ctx->threads);
  p->total = 1;
  for (int d = 0; d < p->ndim; d++) p->n[d] = problem->dim[d].n, p->total *= p->n[d];
  double complex c = CMPLX(problem->c_re, problem->c_im);
  double cr = problem->c_re;
  st = copy_factors(p, problem);
  if (st == PSCR_OK) st = dev_upload(p, p->dtype == PSCR_F64 ? (void *)&cr : (void *)&c, 1, &p->c);
  if (st == PSCR_OK) st = build(p);
  if (st == PSCR_OK) st = eigenpairs(p, problem);
  if (st == PSCR_OK && ops->plan_init) st = ops->plan_init(p, problem);
  if (st != PSCR_OK) {
    pscr_plan_destroy(p);
    return st;
  }
  p->plan_seconds = pscr_wtime() - t0;
  *plan = p;
  return PSCR_OK;
}

pscr_status pscr_plan_get_info(const pscr_plan *plan, pscr_plan_info *info) {
  if (plan == NULL || info == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  size_t host = 0; /* the schedule, held on the host */
  for (int L = 0; L < plan->ndim - 1; L++)
    for (int i = 0; i < plan->lev[L].nsteps; i++) {
      const pscr_step *s = &plan->lev[L].steps[i];
      host += s->nblocks * sizeof *s->blocks + s->ntasks * sizeof *s->tasks +
              s->ngroups * sizeof *s->groups + s->nupd * sizeof *s->upd;
    }
  info->plan_seconds = plan->plan_seconds;
  info->last_solve_seconds = plan->last_solve_seconds;
  info->last_transfer_seconds = plan->last_transfer_seconds;
  info->device_bytes = plan->bytes + (plan->ctx->backend == PSCR_BACKEND_CPU ? host : 0);
  return PSCR_OK;
}

void pscr_plan_destroy(pscr_plan *plan) {
  if (plan == NULL) return;
  pscr_context *ctx = plan->ctx;
  if (plan->ops->plan_fini) plan->ops->plan_fini(plan);
  void *bufs[] = {plan->c, plan->acc,     plan->vbuf,  plan->scratch,
                  plan->y, plan->y_shift, plan->slots, plan->fdev};
  for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++)
    if (bufs[k]) ctx->ops->release(ctx, bufs[k]);
  for (int d = 0; d < 3; d++)
    for (int k = 0; k < 4; k++)
      if (plan->fac[d][k]) ctx->ops->release(ctx, plan->fac[d][k]);
  for (int L = 0; L < PSCR_MAX_LEVELS; L++) {
    if (plan->lev[L].lambda) ctx->ops->release(ctx, plan->lev[L].lambda);
    if (plan->lev[L].comp) ctx->ops->release(ctx, plan->lev[L].comp);
    pscr_level_free_schedule(&plan->lev[L]);
  }
  free(plan);
}
