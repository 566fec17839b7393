/* GPU tridiagonal drivers shared by the backends (gpu_tridiag.h): which
 * kernels of kernels/common/td_*.h run in which order for every algorithm.
 * CR_PCR_THOMAS and SPIKE_DIAG_PIVOT run on the tiled engine (gpu_tile.c),
 * GSPIKE in gpu_gspike.c; THOMAS, CR and PCR are the baselines here.
 * One entry point serves plain batches and shifted systems; the kernels read
 * either through the same "source" arguments (td_rows.h). Status words are
 * written by the kernels and read back once per solve: NaN/Inf -> NONFINITE,
 * zero pivot -> SINGULAR. Launch sequence and sizes as in the CUDA backend's
 * cuda_tridiag.c; every sub-array of the work buffer is aligned to g->align
 * (OpenCL sub-buffers need CL_DEVICE_MEM_BASE_ADDR_ALIGN). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backend/gpu/gpu_td.h"

#define TD_MAX_LEVELS 64

void gpu_td_params_defines(const gpu_td_params *p, char *buf, size_t size) {
  int k = snprintf(buf, size, "-DPSCR_COMPLEX=%d -DTD_WG=%d -DTD_SMEM_N=%d -DTD_D_MAX=%d",
                   p->complex_ ? 1 : 0, p->wg, p->smem_n, p->d_max);
  if (p->tile_local > 0 && k > 0 && (size_t)k < size)
    snprintf(buf + k, size - (size_t)k,
             " -DTD_TILE_LOCAL=%d -DTD_TW=%d -DTD_GQ=%d -DTD_GW=%d -DTD_GP=%d", p->tile_local,
             p->tw, p->gq, p->gw, p->gp);
}

/* Defaults chosen for the H100 (the autotuner may override them later). */
void gpu_td_tuning_default(gpu_td_tuning *t) {
  *t = (gpu_td_tuning){.spike_m = 32,
                       .part_wg = 128,
                       .crpcr_wg = 256,
                       .crpcr_dmax = 64,
                       .tile_q = 16,
                       .tile_w = 256,
                       .merge_w = 256,
                       .gs_q = 32,
                       .gs_w = 64,
                       .gs_gp = 16};
}

static int pow2(int v) { return v > 0 && !(v & (v - 1)); }

pscr_status gpu_td_tune(gpu_td_tuning *t, const char *name, int value) {
  if (t == NULL || name == NULL || value < 1) return PSCR_ERR_INVALID_ARGUMENT;
  if (strcmp(name, "spike_m") == 0)
    t->spike_m = value;
  else if (strcmp(name, "part_wg") == 0 && value % 32 == 0 && value <= 1024)
    t->part_wg = value;
  else if (strcmp(name, "crpcr_wg") == 0 && value % 32 == 0 && value <= 1024 &&
           t->crpcr_dmax <= value)
    t->crpcr_wg = value;
  else if (strcmp(name, "crpcr_dmax") == 0 && value <= t->crpcr_wg)
    t->crpcr_dmax = value;
  else if (strcmp(name, "tile_q") == 0 && value >= 2 && value <= 64 && pow2(value))
    t->tile_q = value;
  else if (strcmp(name, "tile_w") == 0 && value % 32 == 0 && value <= 1024)
    t->tile_w = value;
  else if (strcmp(name, "merge_w") == 0 && value % 32 == 0 && value <= 512)
    t->merge_w = value;
  else if (strcmp(name, "gs_q") == 0 && value >= 2 && value <= 64 && pow2(value))
    t->gs_q = value;
  else if (strcmp(name, "gs_w") == 0 && value % 32 == 0 && value <= 256)
    t->gs_w = value;
  else if (strcmp(name, "gs_gp") == 0 && value >= 2 && value <= 32)
    t->gs_gp = value;
  else
    return PSCR_ERR_INVALID_ARGUMENT;
  return PSCR_OK;
}

static pscr_status launch(td_job *j, const char *name, size_t items, int wg, size_t local,
                          int nargs, const gpu_arg *args) {
  return td_launch(j, name, items, wg, local, nargs, args);
}

static int part_wg(const td_job *j) {
  int w = j->g->tune.part_wg;
  return (size_t)w < j->g->max_wg ? w : (int)j->g->max_wg;
}

/* THOMAS (P = 1, no pivoting) and SPIKE_DIAG_PIVOT (P partitions of m rows). */
static pscr_status solve_partitions(td_job *j, gpu_td_src src, long long n, long long batch,
                                    gpu_ptr b, long long m, int pivot) {
  pscr_status st = PSCR_OK;
  long long P = (n + m - 1) / m, G = batch * P;
  int spikes = P > 1;
  /* level sizes of the recursive reduced system */
  long long Pl[TD_MAX_LEVELS], cnt[TD_MAX_LEVELS];
  int levels = 0;
  Pl[0] = P;
  cnt[0] = G;
  while (Pl[levels] > 1) {
    Pl[levels + 1] = (Pl[levels] + 1) / 2;
    cnt[levels + 1] = batch * Pl[levels + 1];
    levels++;
  }
  size_t es = j->esize, rows = (size_t)m * (size_t)G;
  size_t off_y = td_align(j, rows * es), off_w = off_y + td_align(j, rows * es);
  size_t off_p = off_w + (spikes ? td_align(j, rows * es) : 0);
  size_t off_node = off_p + (pivot ? td_align(j, rows) : 0);
  size_t off_vals[TD_MAX_LEVELS], off_outs[TD_MAX_LEVELS];
  size_t total = off_node + td_align(j, 7 * (size_t)G * es);
  for (int l = 1; l <= levels; l++) {
    off_vals[l] = total;
    total += td_align(j, 6 * (size_t)cnt[l] * es);
  }
  for (int l = 0; l <= levels; l++) {
    off_outs[l] = total;
    total += td_align(j, 2 * (size_t)cnt[l] * es);
  }
  gpu_ptr w, none = {0};
  TRY(j->g->work(j->g, total, &w));
  size_t rbytes = rows * es;
  gpu_ptr wu = gpu_sub(w, 0, rbytes), wy = gpu_sub(w, off_y, rbytes);
  gpu_ptr ww = spikes ? gpu_sub(w, off_w, rbytes) : none;
  gpu_ptr wp = pivot ? gpu_sub(w, off_p, rows) : none;
  gpu_ptr node = gpu_sub(w, off_node, 7 * (size_t)G * es);
  gpu_ptr vals[TD_MAX_LEVELS], outs[TD_MAX_LEVELS];
  vals[0] = node; /* level 0: the partitions' node records (7 fields, stride G) */
  for (int l = 1; l <= levels; l++) vals[l] = gpu_sub(w, off_vals[l], 6 * (size_t)cnt[l] * es);
  for (int l = 0; l <= levels; l++) outs[l] = gpu_sub(w, off_outs[l], 2 * (size_t)cnt[l] * es);
  gpu_ptr flags = j->g->flags;
  {
    gpu_arg args[] = {SRC_ARGS(src),  GPU_LONG(n),     GPU_LONG(m),   GPU_LONG(P),   GPU_LONG(G),
                      GPU_INT(pivot), GPU_INT(spikes), GPU_PTR(b),    GPU_PTR(wu),   GPU_PTR(wy),
                      GPU_PTR(ww),    GPU_PTR(wp),     GPU_PTR(node), GPU_PTR(flags)};
    TRY(launch(j, "td_part_fwd", (size_t)G, part_wg(j), 0, NARGS(args), args));
  }
  for (int l = 0; l < levels; l++) {
    gpu_arg args[] = {GPU_LONG(Pl[l]),     GPU_LONG(cnt[l]),     GPU_PTR(vals[l]),
                      GPU_LONG(Pl[l + 1]), GPU_LONG(cnt[l + 1]), GPU_PTR(vals[l + 1]),
                      GPU_PTR(flags)};
    TRY(launch(j, "td_spike_up", (size_t)cnt[l + 1], j->line_wg, 0, NARGS(args), args));
  }
  if (spikes) TRY(j->g->zero(j->g, outs[levels], 2 * (size_t)cnt[levels] * es));
  for (int l = levels - 1; l >= 0; l--) {
    gpu_arg args[] = {GPU_LONG(Pl[l]),     GPU_LONG(cnt[l]),    GPU_PTR(vals[l]),
                      GPU_PTR(outs[l]),    GPU_LONG(Pl[l + 1]), GPU_LONG(cnt[l + 1]),
                      GPU_PTR(outs[l + 1])};
    TRY(launch(j, "td_spike_down", (size_t)cnt[l + 1], j->line_wg, 0, NARGS(args), args));
  }
  {
    gpu_arg args[] = {SRC_ARGS(src),    GPU_LONG(n),    GPU_LONG(m),     GPU_LONG(P),
                      GPU_LONG(G),      GPU_INT(pivot), GPU_INT(spikes), GPU_PTR(wu),
                      GPU_PTR(wy),      GPU_PTR(ww),    GPU_PTR(wp),     GPU_PTR(node),
                      GPU_PTR(outs[0]), GPU_PTR(b),     GPU_PTR(flags)};
    TRY(launch(j, "td_part_bwd", (size_t)G, part_wg(j), 0, NARGS(args), args));
  }
  j->partitions = (int)(P < INT32_MAX ? P : INT32_MAX);
cleanup:
  return st;
}

/* Compact work copies a, d, c, x (and a second set for PCR's double buffer). */
static pscr_status gen(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b, int sets,
                       gpu_ptr arr[8]) {
  pscr_status st = PSCR_OK;
  size_t one = td_align(j, (size_t)n * (size_t)batch * j->esize);
  gpu_ptr w;
  TRY(j->g->work(j->g, 4 * (size_t)sets * one, &w));
  size_t len = (size_t)n * (size_t)batch * j->esize;
  for (int i = 0; i < 4 * sets; i++) arr[i] = gpu_sub(w, (size_t)i * one, len);
  long long total = n * batch;
  gpu_arg args[] = {SRC_ARGS(src),   GPU_LONG(n),     GPU_LONG(total),
                    GPU_PTR(b),      GPU_PTR(arr[0]), GPU_PTR(arr[1]),
                    GPU_PTR(arr[2]), GPU_PTR(arr[3]), GPU_PTR(j->g->flags)};
  TRY(launch(j, "td_gen", (size_t)total, j->line_wg, 0, NARGS(args), args));
cleanup:
  return st;
}

static pscr_status put(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr x,
                       gpu_ptr d, int div, gpu_ptr b) {
  long long total = n * batch;
  gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n),  GPU_LONG(total), GPU_PTR(x),
                    GPU_PTR(d),    GPU_INT(div), GPU_PTR(b),      GPU_PTR(j->g->flags)};
  return launch(j, "td_put", (size_t)total, j->line_wg, 0, NARGS(args), args);
}

/* Global CR levels: reduce while more than `keep` rows remain; returns the stride. */
static pscr_status cr_reduce(td_job *j, long long n, long long batch, gpu_ptr arr[4],
                             long long keep, long long *stride) {
  pscr_status st = PSCR_OK;
  long long s = 1;
  while (n / s > keep && n / (2 * s) >= 1) {
    long long nk = n / (2 * s), total = nk * batch;
    gpu_arg args[] = {GPU_LONG(n),     GPU_LONG(s),     GPU_LONG(nk),
                      GPU_LONG(total), GPU_PTR(arr[0]), GPU_PTR(arr[1]),
                      GPU_PTR(arr[2]), GPU_PTR(arr[3]), GPU_PTR(j->g->flags)};
    TRY(launch(j, "td_cr_reduce", (size_t)total, j->line_wg, 0, NARGS(args), args));
    s *= 2;
  }
  *stride = s;
cleanup:
  return st;
}

/* Global CR back-substitution from stride `from` down to 1. */
static pscr_status cr_backsub(td_job *j, long long n, long long batch, gpu_ptr arr[4],
                              long long from) {
  pscr_status st = PSCR_OK;
  for (long long s = from; s >= 1; s /= 2) {
    long long nk = (n - s) / (2 * s) + 1, total = nk * batch;
    gpu_arg args[] = {GPU_LONG(n),     GPU_LONG(s),     GPU_LONG(nk),
                      GPU_LONG(total), GPU_PTR(arr[0]), GPU_PTR(arr[1]),
                      GPU_PTR(arr[2]), GPU_PTR(arr[3]), GPU_PTR(j->g->flags)};
    TRY(launch(j, "td_cr_backsub", (size_t)total, j->line_wg, 0, NARGS(args), args));
  }
cleanup:
  return st;
}

static pscr_status solve_cr(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b) {
  pscr_status st = PSCR_OK;
  gpu_ptr arr[8];
  long long S;
  TRY(gen(j, src, n, batch, b, 1, arr));
  TRY(cr_reduce(j, n, batch, arr, 1, &S));
  TRY(cr_backsub(j, n, batch, arr, S)); /* stride S: the one row left, x / d */
  TRY(put(j, src, n, batch, arr[3], arr[1], 0, b));
cleanup:
  return st;
}

static pscr_status solve_pcr(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b) {
  pscr_status st = PSCR_OK;
  gpu_ptr arr[8];
  TRY(gen(j, src, n, batch, b, 2, arr));
  int cur = 0;
  long long total = n * batch;
  for (long long s = 1; s < n; s *= 2) {
    gpu_ptr *in = arr + 4 * cur, *out = arr + 4 * (1 - cur);
    gpu_arg args[] = {GPU_LONG(n),     GPU_LONG(s),     GPU_LONG(total), GPU_PTR(in[0]),
                      GPU_PTR(in[1]),  GPU_PTR(in[2]),  GPU_PTR(in[3]),  GPU_PTR(out[0]),
                      GPU_PTR(out[1]), GPU_PTR(out[2]), GPU_PTR(out[3]), GPU_PTR(j->g->flags)};
    TRY(launch(j, "td_pcr_step", (size_t)total, j->line_wg, 0, NARGS(args), args));
    cur = 1 - cur;
  }
  TRY(put(j, src, n, batch, arr[4 * cur + 3], arr[4 * cur + 1], 1, b));
cleanup:
  return st;
}

/* The module parameters: td_crpcr's TD_SMEM_N bounded by local memory; where
 * local arrays are static, the tile and g-Spike sizes too. */
static void choose_params(td_job *j, pscr_dtype dtype) {
  gpu_device *g = j->g;
  gpu_td_params p = {.complex_ = dtype == PSCR_C128,
                     .wg = g->tune.crpcr_wg,
                     .smem_n = dtype == PSCR_C128 ? 2048 : 4096,
                     .d_max = g->tune.crpcr_dmax};
  while ((size_t)p.wg > g->max_wg && p.wg > 32) p.wg /= 2;
  if (p.d_max > p.wg) p.d_max = p.wg;
  /* + 64 bytes for the kernel's other local variables */
  while (4 * (size_t)p.smem_n * j->esize + 64 > g->local_bytes && p.smem_n > 256) p.smem_n /= 2;
  j->par = p;
  gpu_td_tile_params(j);
  gpu_td_gspike_params(j);
}

pscr_status gpu_td_solve(gpu_device *g, pscr_td_algorithm alg, pscr_dtype dtype, size_t n_,
                         size_t batch_, gpu_td_src src, gpu_ptr b, pscr_td_report *rep) {
  td_job job = {.g = g, .esize = pscr_dtype_size(dtype)};
  /* static local arrays: room for the kernels' other local variables */
  job.limit = g->static_local && g->local_bytes > 256 ? g->local_bytes - 256 : g->local_bytes;
  job.line_wg = g->max_wg < TD_LINE_WG ? (int)g->max_wg : TD_LINE_WG;
  choose_params(&job, dtype);
  long long n = (long long)n_, batch = (long long)batch_;
  int fl[GPU_TD_FLAG_WORDS] = {0};
  pscr_status st = PSCR_OK;
  if (alg == PSCR_TD_LAPACK) return PSCR_ERR_UNSUPPORTED;
  TRY(td_module(&job));
  TRY(g->flags_clear(g));
  TRY(g->timer_start(g));
  if (alg == PSCR_TD_AUTO) { /* THOMAS-like solvers only where dominance is proven */
    long long total = n * batch;
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n), GPU_LONG(total), GPU_PTR(g->flags)};
    TRY(launch(&job, "td_scan", (size_t)total, job.line_wg, 0, NARGS(args), args));
    TRY(g->flags_read(g, fl));
    if (fl[0]) {
      st = PSCR_ERR_NONFINITE;
      goto cleanup;
    }
    alg = fl[2] ? PSCR_TD_SPIKE_DIAG_PIVOT : PSCR_TD_CR_PCR_THOMAS;
    TRY(g->flags_clear(g));
  }
  if (rep) rep->used = alg;
  switch (alg) {
  case PSCR_TD_THOMAS: TRY(solve_partitions(&job, src, n, batch, b, n, 0)); break;
  case PSCR_TD_SPIKE_DIAG_PIVOT: TRY(gpu_td_solve_tiled(&job, src, n, batch, b, 1)); break;
  case PSCR_TD_CR: TRY(solve_cr(&job, src, n, batch, b)); break;
  case PSCR_TD_PCR: TRY(solve_pcr(&job, src, n, batch, b)); break;
  case PSCR_TD_CR_PCR_THOMAS:
  case PSCR_TD_PCR_THOMAS: TRY(gpu_td_solve_tiled(&job, src, n, batch, b, 0)); break;
  case PSCR_TD_GSPIKE: TRY(gpu_td_solve_gspike(&job, src, n, batch, b)); break;
  default: st = PSCR_ERR_UNSUPPORTED; goto cleanup;
  }
  double seconds = 0;
  TRY(g->timer_stop(g, &seconds));
  TRY(g->flags_read(g, fl));
  if (fl[0])
    st = PSCR_ERR_NONFINITE;
  else if (fl[1])
    st = PSCR_ERR_SINGULAR;
  if (rep) {
    rep->seconds = seconds;
    int spike = alg == PSCR_TD_SPIKE_DIAG_PIVOT || alg == PSCR_TD_GSPIKE;
    rep->partitions = spike ? job.partitions : 0;
    rep->modified_blocks = job.modified_blocks;
  }
cleanup:
  return st;
}

static gpu_ptr native(const pscr_array *a) {
  gpu_ptr p = {a ? a->native : NULL, 0, 0};
  return p;
}

gpu_td_src gpu_td_src_plain(const pscr_td_request *r) {
  gpu_ptr none = {0};
  gpu_td_src s = {native(r->dl), native(r->d), native(r->du),        none, none,
                  none,          none,         (long long)r->stride, 1};
  return s;
}

gpu_td_src gpu_td_src_shifted(const pscr_td_shifted_request *r) {
  gpu_td_src s = {native(r->a_dl),  native(r->a_d),  native(r->a_du),
                  native(r->m_dl),  native(r->m_d),  native(r->m_du),
                  native(r->shift), (long long)r->n, 1};
  return s;
}
