/* GPU tridiagonal drivers: which kernels run in which order for every
 * algorithm (kernels in kernels/common/td_*.h). One entry point serves plain
 * batches and shifted systems; the kernels read either through the same
 * "source" arguments (td_rows.h). Status words are written by the kernels and
 * read back once per solve: NaN/Inf -> NONFINITE, zero pivot -> SINGULAR.
 * CR_PCR_THOMAS and SPIKE_DIAG_PIVOT run on the tiled engine (cuda_tile.c),
 * GSPIKE in cuda_gspike.c; THOMAS, CR and PCR are the baselines here. */
#include <stdint.h>
#include <string.h>

#include "backend/cuda/cuda_td.h"

static pscr_status launch(td_job *j, const char *name, size_t items, int wg, unsigned smem,
                          void **args) {
  return td_launch(j, name, items, wg, smem, args);
}

#define align256 td_align

/* THOMAS (P = 1, no pivoting) and SPIKE_DIAG_PIVOT (P partitions of m rows). */
static pscr_status solve_partitions(td_job *j, td_src src, long long n, long long batch,
                                    CUdeviceptr b, long long m, int pivot) {
  pscr_status st = PSCR_OK;
  long long P = (n + m - 1) / m, G = batch * P;
  int spikes = P > 1, npivot = pivot;
  /* level sizes of the recursive reduced system */
  long long Pl[64], cnt[64];
  int levels = 0;
  Pl[0] = P;
  cnt[0] = G;
  while (Pl[levels] > 1) {
    Pl[levels + 1] = (Pl[levels] + 1) / 2;
    cnt[levels + 1] = batch * Pl[levels + 1];
    levels++;
  }
  size_t es = j->esize, rows = (size_t)m * (size_t)G;
  size_t off_u = 0, off_y = align256(rows * es), off_w = off_y + align256(rows * es);
  size_t off_p = off_w + (spikes ? align256(rows * es) : 0);
  size_t off_node = off_p + (pivot ? align256(rows) : 0);
  size_t off_vals = off_node + align256(7 * (size_t)G * es);
  size_t vals_total = 0, out_total = 0;
  for (int l = 1; l <= levels; l++) vals_total += 6 * (size_t)cnt[l];
  for (int l = 0; l <= levels; l++) out_total += 2 * (size_t)cnt[l];
  size_t off_out = off_vals + align256(vals_total * es);
  size_t total = off_out + align256(out_total * es);
  CUdeviceptr w;
  TRY(cuda_work(j->ctx, total, &w));
  CUdeviceptr wu = w + off_u, wy = w + off_y, ww = spikes ? w + off_w : 0;
  CUdeviceptr wp = pivot ? w + off_p : 0, node = w + off_node;
  CUdeviceptr vals[64], outs[64];
  vals[0] = node; /* level 0: the partitions' node records (7 fields, stride G) */
  outs[0] = w + off_out;
  for (int l = 1; l <= levels; l++) {
    vals[l] = l == 1 ? w + off_vals : vals[l - 1] + 6 * (size_t)cnt[l - 1] * es;
    outs[l] = outs[l - 1] + 2 * (size_t)cnt[l - 1] * es;
  }
  CUdeviceptr flags = j->s->flags;
  {
    void *args[] = {SRC_ARGS(src), &n,  &m,  &P,    &G,   &npivot, &spikes,
                    &b,            &wu, &wy, &ww,   &wp,  &node,   &flags};
    TRY(launch(j, "td_part_fwd", (size_t)G, j->s->part_wg, 0, args));
  }
  for (int l = 0; l < levels; l++) {
    void *args[] = {&Pl[l], &cnt[l], &vals[l], &Pl[l + 1], &cnt[l + 1], &vals[l + 1], &flags};
    TRY(launch(j, "td_spike_up", (size_t)cnt[l + 1], TD_LINE_WG, 0, args));
  }
  if (spikes) {
    TRY(cuda_status(
        j->s->drv.cuMemsetD8Async(outs[levels], 0, 2 * (size_t)cnt[levels] * es, j->s->stream)));
  }
  for (int l = levels - 1; l >= 0; l--) {
    void *args[] = {&Pl[l], &cnt[l], &vals[l], &outs[l], &Pl[l + 1], &cnt[l + 1], &outs[l + 1]};
    TRY(launch(j, "td_spike_down", (size_t)cnt[l + 1], TD_LINE_WG, 0, args));
  }
  {
    void *args[] = {SRC_ARGS(src), &n,  &m,  &P,    &G,      &npivot, &spikes, &wu,
                    &wy,           &ww, &wp, &node, &outs[0], &b,     &flags};
    TRY(launch(j, "td_part_bwd", (size_t)G, j->s->part_wg, 0, args));
  }
  j->partitions = (int)(P < INT32_MAX ? P : INT32_MAX);
cleanup:
  return st;
}

/* Compact work copies a, d, c, x (and a second set for PCR's double buffer). */
static pscr_status gen(td_job *j, td_src src, long long n, long long batch, CUdeviceptr b,
                       int sets, CUdeviceptr arr[8]) {
  pscr_status st = PSCR_OK;
  size_t one = align256((size_t)n * (size_t)batch * j->esize);
  CUdeviceptr w;
  TRY(cuda_work(j->ctx, 4 * (size_t)sets * one, &w));
  for (int i = 0; i < 4 * sets; i++) arr[i] = w + (size_t)i * one;
  long long total = n * batch;
  void *args[] = {SRC_ARGS(src), &n, &total, &b, &arr[0], &arr[1], &arr[2], &arr[3],
                  &j->s->flags};
  TRY(launch(j, "td_gen", (size_t)total, TD_LINE_WG, 0, args));
cleanup:
  return st;
}

static pscr_status put(td_job *j, td_src src, long long n, long long batch, CUdeviceptr x,
                       CUdeviceptr d, int div, CUdeviceptr b) {
  long long total = n * batch;
  void *args[] = {SRC_ARGS(src), &n, &total, &x, &d, &div, &b, &j->s->flags};
  return launch(j, "td_put", (size_t)total, TD_LINE_WG, 0, args);
}

/* Global CR levels: reduce while more than `keep` rows remain; returns the stride. */
static pscr_status cr_reduce(td_job *j, long long n, long long batch, CUdeviceptr arr[4],
                             long long keep, long long *stride) {
  pscr_status st = PSCR_OK;
  long long s = 1;
  while (n / s > keep && n / (2 * s) >= 1) {
    long long nk = n / (2 * s), total = nk * batch;
    void *args[] = {&n, &s, &nk, &total, &arr[0], &arr[1], &arr[2], &arr[3], &j->s->flags};
    TRY(launch(j, "td_cr_reduce", (size_t)total, TD_LINE_WG, 0, args));
    s *= 2;
  }
  *stride = s;
cleanup:
  return st;
}

/* Global CR back-substitution from stride `from` down to 1. */
static pscr_status cr_backsub(td_job *j, long long n, long long batch, CUdeviceptr arr[4],
                              long long from) {
  pscr_status st = PSCR_OK;
  for (long long s = from; s >= 1; s /= 2) {
    long long nk = (n - s) / (2 * s) + 1, total = nk * batch;
    void *args[] = {&n, &s, &nk, &total, &arr[0], &arr[1], &arr[2], &arr[3], &j->s->flags};
    TRY(launch(j, "td_cr_backsub", (size_t)total, TD_LINE_WG, 0, args));
  }
cleanup:
  return st;
}

static pscr_status solve_cr(td_job *j, td_src src, long long n, long long batch, CUdeviceptr b) {
  pscr_status st = PSCR_OK;
  CUdeviceptr arr[8];
  long long S;
  TRY(gen(j, src, n, batch, b, 1, arr));
  TRY(cr_reduce(j, n, batch, arr, 1, &S));
  TRY(cr_backsub(j, n, batch, arr, S)); /* stride S: the one row left, x / d */
  TRY(put(j, src, n, batch, arr[3], arr[1], 0, b));
cleanup:
  return st;
}

static pscr_status solve_pcr(td_job *j, td_src src, long long n, long long batch,
                             CUdeviceptr b) {
  pscr_status st = PSCR_OK;
  CUdeviceptr arr[8];
  TRY(gen(j, src, n, batch, b, 2, arr));
  int cur = 0;
  long long total = n * batch;
  for (long long s = 1; s < n; s *= 2) {
    CUdeviceptr *in = arr + 4 * cur, *out = arr + 4 * (1 - cur);
    void *args[] = {&n,     &s,     &total, &in[0],  &in[1],  &in[2],
                    &in[3], &out[0], &out[1], &out[2], &out[3], &j->s->flags};
    TRY(launch(j, "td_pcr_step", (size_t)total, TD_LINE_WG, 0, args));
    cur = 1 - cur;
  }
  TRY(put(j, src, n, batch, arr[4 * cur + 3], arr[4 * cur + 1], 1, b));
cleanup:
  return st;
}

/* Clears the status words. */
static pscr_status flags_clear(td_job *j) {
  return cuda_status(j->s->drv.cuMemsetD32Async(j->s->flags, 0, TD_FLAG_WORDS, j->s->stream));
}

pscr_status cuda_td_flags_read(td_job *j, int *out) {
  cuda_driver *d = &j->s->drv;
  size_t bytes = TD_FLAG_WORDS * sizeof(int);
  pscr_status st =
      cuda_status(d->cuMemcpyDtoHAsync(j->s->flags_host, j->s->flags, bytes, j->s->stream));
  if (st == PSCR_OK) st = cuda_status(d->cuStreamSynchronize(j->s->stream));
  if (st == PSCR_OK) memcpy(out, j->s->flags_host, bytes);
  return st;
}
#define flags_read cuda_td_flags_read

static pscr_status solve(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype, size_t n_,
                         size_t batch_, td_src src, CUdeviceptr b, pscr_td_report *rep) {
  cuda_state *s = cuda_of(ctx);
  cuda_driver *d = &s->drv;
  td_job job = {.ctx = ctx, .s = s, .esize = pscr_dtype_size(dtype)};
  job.par = (cuda_params){.complex_ = dtype == PSCR_C128,
                          .wg = s->crpcr_wg,
                          .smem_n = dtype == PSCR_C128 ? 2048 : 4096,
                          .d_max = s->crpcr_dmax};
  while (4 * (size_t)job.par.smem_n * job.esize > (size_t)s->smem_optin && job.par.smem_n > 256)
    job.par.smem_n /= 2;
  long long n = (long long)n_, batch = (long long)batch_;
  int fl[TD_FLAG_WORDS] = {0};
  CUcontext dummy;
  pscr_status st = cuda_status(d->cuCtxPushCurrent(s->cu));
  if (st != PSCR_OK) return st;
  TRY(cuda_module_get(ctx, &job.par, &job.mod));
  TRY(flags_clear(&job));
  TRY(cuda_status(d->cuEventRecord(s->ev0, s->stream)));
  if (alg == PSCR_TD_AUTO) { /* THOMAS-like solvers only where dominance is proven */
    long long total = n * batch;
    void *args[] = {SRC_ARGS(src), &n, &total, &s->flags};
    TRY(launch(&job, "td_scan", (size_t)total, TD_LINE_WG, 0, args));
    TRY(flags_read(&job, fl));
    if (fl[0]) {
      st = PSCR_ERR_NONFINITE;
      goto cleanup;
    }
    alg = fl[2] ? PSCR_TD_SPIKE_DIAG_PIVOT : PSCR_TD_CR_PCR_THOMAS;
    TRY(flags_clear(&job));
  }
  if (rep) rep->used = alg;
  switch (alg) {
  case PSCR_TD_THOMAS: TRY(solve_partitions(&job, src, n, batch, b, n, 0)); break;
  case PSCR_TD_SPIKE_DIAG_PIVOT: TRY(cuda_td_solve_tiled(&job, src, n, batch, b, 1)); break;
  case PSCR_TD_CR: TRY(solve_cr(&job, src, n, batch, b)); break;
  case PSCR_TD_PCR: TRY(solve_pcr(&job, src, n, batch, b)); break;
  case PSCR_TD_CR_PCR_THOMAS:
  case PSCR_TD_PCR_THOMAS: TRY(cuda_td_solve_tiled(&job, src, n, batch, b, 0)); break;
  case PSCR_TD_GSPIKE: TRY(cuda_td_solve_gspike(&job, src, n, batch, b)); break;
  default: st = PSCR_ERR_UNSUPPORTED; goto cleanup;
  }
  TRY(cuda_status(d->cuEventRecord(s->ev1, s->stream)));
  TRY(flags_read(&job, fl));
  if (fl[0])
    st = PSCR_ERR_NONFINITE;
  else if (fl[1])
    st = PSCR_ERR_SINGULAR;
  if (rep) {
    float ms = 0;
    if (d->cuEventElapsedTime(&ms, s->ev0, s->ev1) == CUDA_SUCCESS) rep->seconds = 1e-3 * ms;
    int spike = alg == PSCR_TD_SPIKE_DIAG_PIVOT || alg == PSCR_TD_GSPIKE;
    rep->partitions = spike ? job.partitions : 0;
    rep->modified_blocks = job.modified_blocks;
  }
cleanup:
  d->cuCtxPopCurrent(&dummy);
  return st;
}

static CUdeviceptr dptr(const pscr_array *a) { return a ? (CUdeviceptr)(uintptr_t)a->native : 0; }

pscr_status cuda_tridiag(pscr_context *ctx, const pscr_td_request *r, pscr_td_report *rep) {
  td_src src = {dptr(r->dl), dptr(r->d), dptr(r->du), 0, 0, 0, 0, (long long)r->stride, 1};
  return solve(ctx, r->alg, r->dtype, r->n, r->batch, src, dptr(r->b), rep);
}

pscr_status cuda_tridiag_shifted(pscr_context *ctx, const pscr_td_shifted_request *r,
                                 pscr_td_report *rep) {
  td_src src = {dptr(r->a_dl), dptr(r->a_d), dptr(r->a_du), dptr(r->m_dl), dptr(r->m_d),
                dptr(r->m_du), dptr(r->shift), (long long)r->n, 1};
  return solve(ctx, r->alg, r->dtype, r->n, r->nshift, src, dptr(r->b), rep);
}
