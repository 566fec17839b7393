/* GPU tridiagonal drivers shared by the backends (gpu_tridiag.h): which
 * kernels of kernels/common/td_*.h run in which order for every algorithm.
 * CR_PCR_THOMAS and SPIKE_DIAG_PIVOT run on the tiled engine (gpu_tile.c),
 * GSPIKE in gpu_gspike.c; THOMAS, CR and PCR are the baselines here.
 * One entry point serves plain batches and shifted systems; the kernels read
 * either through the same "source" arguments (td_rows.h). Status words are
 * written by the kernels and read back once per solve: NaN/Inf -> NONFINITE,
 * zero pivot -> SINGULAR. Every sub-array of the work buffer is aligned to
 * g->align (at least OpenCL's CL_DEVICE_MEM_BASE_ADDR_ALIGN). */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/gpu/gpu_td.h"

int gpu_td_reg_maxw(const gpu_td_params *p) {
  /* more rows a work-item than the dtype's default: fewer work-items, more registers each
   * (real 16 rows: 128 at 512 work-items, so two groups of 256 share an SM; complex 8
   * rows 128, complex 16 rows 255) */
  int big = p->reg_q > (p->complex_ ? 4 : 8);
  return big ? (p->complex_ && p->reg_q > 8 ? 256 : 512) : (p->complex_ ? 384 : 640);
}

void gpu_td_params_defines(const gpu_td_params *p, char *buf, size_t size) {
  int k = snprintf(buf, size, "-DPSCR_COMPLEX=%d", p->complex_ ? 1 : 0);
  if (p->tile_local > 0 && k > 0 && (size_t)k < size)
    k += snprintf(buf + k, size - (size_t)k,
                  " -DTD_TILE_LOCAL=%d -DTD_TW=%d -DTD_GQ=%d -DTD_GW=%d -DTD_GP=%d -DTD_GS_LW=%d"
                  " -DTD_GS_RW=%d -DTD_GS_DW=%d",
                  p->tile_local, p->tw, p->gq, p->gw, p->gp, p->glw, p->grw, p->gdw);
  if (p->reg_ph > 1 && k > 0 && (size_t)k < size)
    k += snprintf(buf + k, size - (size_t)k, " -DTD_REG_PH=%d", p->reg_ph);
  if (p->reg_q > 0 && k > 0 && (size_t)k < size)
    k += snprintf(buf + k, size - (size_t)k, " -DTD_RQ=%d -DTD_REG_MAXW=%d", p->reg_q,
                  gpu_td_reg_maxw(p));
  if (p->reg_ysm && k > 0 && (size_t)k < size)
    k += snprintf(buf + k, size - (size_t)k, " -DTD_REG_YSM=%d", p->reg_ysm);
  if (p->reg_free && k > 0 && (size_t)k < size)
    k += snprintf(buf + k, size - (size_t)k, " -DTD_REG_FREE=1");
  if (p->reg_slim && k > 0 && (size_t)k < size)
    k += snprintf(buf + k, size - (size_t)k, " -DTD_REG_SLIM=1");
  /* developers' sweeps of the kernels' compile-time defaults (e.g. "-DPSCR_LANE_R=8"),
   * without rebuilding the library: read once per module build */
  const char *extra = getenv("PSCR_KERNEL_DEFINES");
  if (extra && *extra && k > 0 && (size_t)k < size) snprintf(buf + k, size - (size_t)k, " %s", extra);
}

int gpu_kernel_shfl(int dialect) {
  const char *d = getenv("PSCR_KERNEL_DEFINES");
  return dialect && !(d && strstr(d, "TD_NO_SHFL"));
}

pscr_status gpu_td_flags_status(const int fl[GPU_TD_FLAG_WORDS]) {
  return fl[TD_FLAG_NONFINITE]  ? PSCR_ERR_NONFINITE
         : fl[TD_FLAG_SINGULAR] ? PSCR_ERR_SINGULAR
                                : PSCR_OK;
}

/* Defaults from the H100 sweeps of bench/RESULTS.md (q = 8 beat 16 and 32). */
void gpu_td_tuning_default(gpu_td_tuning *t) {
  *t = (gpu_td_tuning){.thomas_wg = 128,
                       .tile_q = 8,
                       .tile_mq = 8,
                       .tile_mw = 64,
                       .tile_w = 128,
                       .tile_mqz = 4, /* C128 SPIKE 8192 x 8192: 3.38-3.54x floor, 8: 3.69x */
                       .tile_wz = 64,
                       .merge_w = 256,
                       .merge_multi = 1,
                       .merge_self = 1,
                       .gs_q = 16,
                       .gs_w = 64,  /* with gs_gp 8: GSPIKE 2^26 4.51x floor, 16 / 128 5.50x */
                       .gs_gp = 8,
                       .gs_fix_k = 24,
                       .gs_fix_tau = 53,
                       .pscr_w = 1024,
                       .pscr_tw = 32,
                       .pscr_lane = 3,
                       .pscr_reg = 1,
                       .pscr_rsw = 32,
                       .pscr_rwg = 128,
                       .pscr_rgroups = 1024,
                       .pscr_rchunk = 128,
                       .pscr_rfwdl = 32,
                       .pscr_rbwdl = 48,
                       .pscr_rlwg = 128,
                       .pscr_rfwdm = 1,
                       .pscr_rbwdm = 8,
                       .pscr_rmwg = 64,
                       .pscr_rmmin = 512,
                       .pscr_rfit = 1,
                       .pscr_dense = 2048,
                       .pscr_dense_in = 1024,
                       .pscr_dense_inz = 1024,
                       .pscr_dense_in3 = 768,
                       .pscr_steps2 = 16384,
                       .pscr_steps2z = 16384,
                       .pscr_lines = 1,
                       .pscr_slab = 2000,
                       .pscr_slab64 = 4096,
                       .pscr_slab128 = 16384,
                       .pscr_kron = 1024,
                       .pscr_ksplit = 264,
                       .tile_reg = 1,
                       .reg_slim = 1,
                       .reg_wspec = 1,
                       .wg_cap = 1,
                       .pass_two = 1,
                       .tile_clu = 8,
                       .clu_w = 128};
}

pscr_status gpu_launch_x(gpu_device *g, const char *name, size_t items, int wg,
                         size_t local_bytes, int nargs, const gpu_arg *args) {
  gpu_arg x[64];
  if (nargs + 1 > (int)(sizeof x / sizeof *x)) return PSCR_ERR_DEVICE;
  x[0] = GPU_XBASE();
  for (int i = 0; i < nargs; i++) {
    x[i + 1] = args[i];
    if (args[i].kind == GPU_ARG_PTR) x[i + 1].kind = GPU_ARG_XPTR;
  }
  return g->launch(g, name, items, wg, local_bytes, nargs + 1, x);
}

int gpu_kernel_cap(gpu_device *g, int maxw, const char *k1, const char *k2) {
  const char *names[2] = {k1, k2};
  if (g->tune.wg_cap > 1 && g->tune.wg_cap < maxw) maxw = g->tune.wg_cap;
  for (int i = 0; i < 2 && g->kernel_wg && g->tune.wg_cap; i++) {
    int k = names[i] ? g->kernel_wg(g, names[i]) : 0;
    if (k >= 32 && k < maxw) maxw = k;
  }
  return maxw;
}

void gpu_merge_shape(int mw, long long nt, int fixed, int multi, int *w, int *spg) {
  *w = mw, *spg = 1;
  if (multi && nt > 0 && !(nt & (nt - 1)) && nt < 2 * (long long)mw) {
    if (!fixed && mw > 64) *w = 64;
    *spg = (int)(2 * *w / nt);
    return;
  }
  if (fixed) return;
  while (*w > 32 && *w >= nt) *w /= 2; /* 2 (w / 2) records still hold nt */
}

pscr_status gpu_merge_records(gpu_device *g, int levels, const long long *pc,
                              const long long *cnt, const gpu_ptr *recs, const gpu_ptr *outs,
                              int mw, int spg, int ex, size_t local) {
  pscr_status st = PSCR_OK;
  for (int l = 0; l + 1 < levels && st == PSCR_OK; l++) { /* the top level: gdown alone */
    gpu_arg args[] = {GPU_LONG(pc[l]),     GPU_LONG(cnt[l]),     GPU_PTR(recs[l]),
                      GPU_LONG(pc[l + 1]), GPU_LONG(cnt[l + 1]), GPU_PTR(recs[l + 1]),
                      GPU_PTR(g->flags),   GPU_INT(ex),          GPU_INT(spg)};
    size_t groups = ((size_t)cnt[l + 1] + (size_t)spg - 1) / (size_t)spg;
    st = g->launch(g, "td_tile_gup", groups * (size_t)mw, mw, local, NARGS(args), args);
  }
  for (int l = levels - 1; l >= 0 && st == PSCR_OK; l--) {
    gpu_ptr op = l + 1 < levels ? outs[l + 1] : (gpu_ptr){0}; /* the top: zero */
    gpu_arg args[] = {GPU_LONG(pc[l]),  GPU_LONG(cnt[l]),     GPU_PTR(recs[l]),
                      GPU_PTR(outs[l]), GPU_LONG(pc[l + 1]),  GPU_LONG(cnt[l + 1]),
                      GPU_PTR(op),      GPU_PTR(g->flags),    GPU_INT(ex),
                      GPU_INT(spg)};
    size_t groups = ((size_t)cnt[l + 1] + (size_t)spg - 1) / (size_t)spg;
    st = g->launch(g, "td_tile_gdown", groups * (size_t)mw, mw, local, NARGS(args), args);
  }
  return st;
}

static int pow2(int v) { return v > 0 && !(v & (v - 1)); }

/* A tuning parameter: its field, its range and its rule (TUNE_ANY, TUNE_W:
 * a multiple of 32, TUNE_POW2: a power of 2, TUNE_POW2_0: that or 0, TUNE_W01:
 * a multiple of 32, 0 or 1; the default). */
enum { TUNE_ANY, TUNE_W, TUNE_POW2, TUNE_POW2_0, TUNE_W01 };
#define TUNE(field, lo, hi, rule) {#field, offsetof(gpu_td_tuning, field), lo, hi, rule}
static const struct {
  const char *name;
  size_t off;
  int lo, hi, rule;
} tunables[] = {
    TUNE(pscr_lane, 0, 3, TUNE_ANY),         TUNE(tile_reg, 0, 1, TUNE_ANY),
    TUNE(pscr_reg, 0, 1, TUNE_ANY),          TUNE(pscr_rfit, 0, 1, TUNE_ANY),
    TUNE(pscr_rfwdl, 0, 1 << 20, TUNE_ANY),  TUNE(pscr_rbwdl, 0, 1 << 20, TUNE_ANY),
    TUNE(merge_multi, 0, 1, TUNE_ANY),       TUNE(merge_self, 0, 1, TUNE_ANY),
    TUNE(pscr_rfwdm, 0, 512, TUNE_ANY),      TUNE(pscr_rbwdm, 0, 512, TUNE_ANY),
    TUNE(pscr_dense, 0, 1 << 16, TUNE_ANY),  TUNE(pscr_dense_in, 0, 1 << 16, TUNE_ANY),
    TUNE(pscr_dense_in3, 0, 1 << 16, TUNE_ANY), TUNE(pscr_dense_inz, 0, 1 << 16, TUNE_ANY),
    TUNE(pscr_lines, 0, 2, TUNE_ANY),        TUNE(pscr_ksplit, 0, 1 << 20, TUNE_ANY),
    TUNE(pscr_slab, 0, 1 << 20, TUNE_ANY),   TUNE(pscr_slab64, 0, 1 << 20, TUNE_ANY),
    TUNE(pscr_slab128, 0, 1 << 20, TUNE_ANY), TUNE(pscr_kron, 0, 1 << 20, TUNE_ANY),
    TUNE(pscr_steps2, 0, 1 << 20, TUNE_ANY), TUNE(pscr_steps2z, 0, 1 << 20, TUNE_ANY),
    TUNE(thomas_wg, 32, 1024, TUNE_W),       TUNE(tile_q, 2, 64, TUNE_POW2),
    /* tile_w, tile_mw: powers of 2, so that a tile halved to fit stays whole
     * warps (td_tile.h's shuffles) */
    TUNE(tile_mq, 2, 64, TUNE_POW2),         TUNE(tile_w, 32, 1024, TUNE_POW2),
    TUNE(tile_mw, 32, 1024, TUNE_POW2),
    TUNE(tile_mqz, 2, 64, TUNE_POW2),        TUNE(tile_wz, 32, 1024, TUNE_W),
    TUNE(merge_w, 32, 512, TUNE_W),          TUNE(gs_q, 2, 64, TUNE_POW2),
    TUNE(gs_w, 32, 256, TUNE_W),             TUNE(pscr_w, 32, 1024, TUNE_W),
    TUNE(pscr_tw, 32, 1024, TUNE_W),         TUNE(pscr_tq, 2, 64, TUNE_POW2),
    TUNE(pscr_rsw, 4, 512, TUNE_POW2),       TUNE(pscr_rchunk, 4, 1024, TUNE_POW2),
    TUNE(pscr_rgroups, 1, INT_MAX, TUNE_ANY), TUNE(pscr_rwg, 32, 512, TUNE_POW2),
    TUNE(pscr_rmmin, 1, INT_MAX, TUNE_ANY),  TUNE(pscr_rmwg, 32, 512, TUNE_POW2),
    TUNE(pscr_rlwg, 32, 512, TUNE_POW2),     TUNE(pscr_local, 4096, INT_MAX, TUNE_ANY),
    /* g-Spike's reduced blocks of fewer pairs cost digits on random matrices (PoCL, n = 16384
     * U(-1,1), normwise backward error: 1e-10 at 2 pairs, up to 3e-15 at 4, 4e-17 at 16) */
    TUNE(gs_gp, 8, 32, TUNE_ANY),            TUNE(profile, 0, 1, TUNE_ANY),
    TUNE(gs_fix_k, 0, 1024, TUNE_ANY),       TUNE(gs_fix_tau, 40, 80, TUNE_ANY),
    TUNE(reg_q, 0, 16, TUNE_POW2_0),         TUNE(reg_ph, 0, 4, TUNE_POW2_0),
    TUNE(reg_min, 0, INT_MAX, TUNE_ANY),     TUNE(reg_slim, 0, 2, TUNE_ANY),
    TUNE(tile_clu, 0, 8, TUNE_ANY),          TUNE(clu_w, 32, 512, TUNE_POW2),
    TUNE(reg_wspec, 0, 1, TUNE_ANY),         TUNE(pass_ysm, 0, 1, TUNE_ANY),
    TUNE(wg_cap, 0, 1024, TUNE_W01),         TUNE(pass_two, 0, 1, TUNE_ANY),
    TUNE(wait_spin, 0, 1000000, TUNE_ANY),
};
#undef TUNE

pscr_status gpu_td_tune(gpu_td_tuning *t, const char *name, int value) {
  if (t == NULL || name == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  for (size_t k = 0; k < sizeof tunables / sizeof *tunables; k++) {
    if (strcmp(name, tunables[k].name) != 0) continue;
    int rule = tunables[k].rule;
    if (value < tunables[k].lo || value > tunables[k].hi || (rule == TUNE_W && value % 32) ||
        (rule == TUNE_POW2 && !pow2(value)) || (rule == TUNE_POW2_0 && value && !pow2(value)) ||
        (rule == TUNE_W01 && value > 1 && value % 32))
      return PSCR_ERR_INVALID_ARGUMENT;
    *(int *)((char *)t + tunables[k].off) = value;
    return PSCR_OK;
  }
  return PSCR_ERR_INVALID_ARGUMENT;
}

pscr_status gpu_kstats_add(gpu_kstats *t, const char *name, double seconds) {
  for (size_t i = 0; i < t->n; i++)
    if (strcmp(t->v[i].name, name) == 0) {
      t->v[i].count++;
      t->v[i].seconds += seconds;
      return PSCR_OK;
    }
  gpu_kstat *v = realloc(t->v, (t->n + 1) * sizeof *v);
  if (v == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  t->v = v;
  size_t len = strlen(name);
  char *copy = malloc(len + 1);
  if (copy == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  memcpy(copy, name, len + 1);
  v[t->n++] = (gpu_kstat){copy, 1, seconds};
  return PSCR_OK;
}

pscr_status gpu_kstats_get(const gpu_kstats *t, size_t i, const char **name,
                           unsigned long *count, double *seconds) {
  if (t == NULL || i >= t->n) return PSCR_ERR_INVALID_ARGUMENT;
  if (name) *name = t->v[i].name;
  if (count) *count = t->v[i].count;
  if (seconds) *seconds = t->v[i].seconds;
  return PSCR_OK;
}

void gpu_kstats_free(gpu_kstats *t) {
  for (size_t i = 0; i < t->n; i++) free(t->v[i].name);
  free(t->v);
  *t = (gpu_kstats){0};
}

static pscr_status launch(td_job *j, const char *name, size_t items, int wg, int nargs,
                          const gpu_arg *args) {
  return td_launch(j, name, items, wg, 0, nargs, args);
}

/* THOMAS: one work-item per system, the factors in two interleaved work
 * arrays (kernels/common/td_thomas.h). */
static pscr_status solve_thomas(td_job *j, gpu_td_src src, long long n, long long batch,
                                gpu_ptr b) {
  pscr_status st = PSCR_OK;
  size_t len = (size_t)n * (size_t)batch * j->esize, one = td_align(j, len);
  int wg = j->g->tune.thomas_wg;
  if ((size_t)wg > j->g->max_wg) wg = (int)j->g->max_wg;
  gpu_ptr w;
  TRY(j->g->work(j->g, 2 * one, &w));
  gpu_ptr wu = gpu_sub(w, 0, len), wy = gpu_sub(w, one, len), flags = j->g->flags;
  {
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n), GPU_LONG(batch), GPU_PTR(b),
                      GPU_PTR(wu),   GPU_PTR(wy), GPU_PTR(flags)};
    TRY(launch(j, "td_thomas_fwd", (size_t)batch, wg, NARGS(args), args));
  }
  {
    gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n), GPU_LONG(batch), GPU_PTR(wu),
                      GPU_PTR(wy),   GPU_PTR(b),  GPU_PTR(flags)};
    TRY(launch(j, "td_thomas_bwd", (size_t)batch, wg, NARGS(args), args));
  }
  j->partitions = 1;
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
  TRY(launch(j, "td_gen", (size_t)total, j->line_wg, NARGS(args), args));
cleanup:
  return st;
}

static pscr_status put(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr x,
                       gpu_ptr d, int div, gpu_ptr b) {
  long long total = n * batch;
  gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n),  GPU_LONG(total), GPU_PTR(x),
                    GPU_PTR(d),    GPU_INT(div), GPU_PTR(b),      GPU_PTR(j->g->flags)};
  return launch(j, "td_put", (size_t)total, j->line_wg, NARGS(args), args);
}

/* CR (seed 004): reduction levels while more than one row remains, then the
 * back-substitution from the last stride down to 1. */
static pscr_status solve_cr(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b) {
  pscr_status st = PSCR_OK;
  gpu_ptr arr[8];
  TRY(gen(j, src, n, batch, b, 1, arr));
  long long s = 1;
  for (; n / s > 1; s *= 2) {
    long long nk = n / (2 * s), total = nk * batch;
    gpu_arg args[] = {GPU_LONG(n),     GPU_LONG(s),     GPU_LONG(nk),
                      GPU_LONG(total), GPU_PTR(arr[0]), GPU_PTR(arr[1]),
                      GPU_PTR(arr[2]), GPU_PTR(arr[3]), GPU_PTR(j->g->flags)};
    TRY(launch(j, "td_cr_reduce", (size_t)total, j->line_wg, NARGS(args), args));
  }
  for (; s >= 1; s /= 2) { /* stride s first: the one row left, x / d */
    long long nk = (n - s) / (2 * s) + 1, total = nk * batch;
    gpu_arg args[] = {GPU_LONG(n),     GPU_LONG(s),     GPU_LONG(nk),
                      GPU_LONG(total), GPU_PTR(arr[0]), GPU_PTR(arr[1]),
                      GPU_PTR(arr[2]), GPU_PTR(arr[3]), GPU_PTR(j->g->flags)};
    TRY(launch(j, "td_cr_backsub", (size_t)total, j->line_wg, NARGS(args), args));
  }
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
    TRY(launch(j, "td_pcr_step", (size_t)total, j->line_wg, NARGS(args), args));
    cur = 1 - cur;
  }
  TRY(put(j, src, n, batch, arr[4 * cur + 3], arr[4 * cur + 1], 1, b));
cleanup:
  return st;
}

/* One solve's limits and module parameters (where local arrays are static:
 * the tile and g-Spike sizes that fit the device's local memory). */
static void job_init(td_job *j, gpu_device *g, pscr_dtype dtype) {
  *j = (td_job){.g = g, .esize = pscr_dtype_size(dtype)};
  /* static local arrays: room for the kernels' other local variables */
  j->limit = g->static_local && g->local_bytes > 256 ? g->local_bytes - 256 : g->local_bytes;
  j->line_wg = g->max_wg < TD_LINE_WG ? (int)g->max_wg : TD_LINE_WG;
  /* y in local memory where local arrays are sized by the launch (CUDA): a
   * fixed 48 KiB (NVIDIA's OpenCL) would not hold 16-row tiles with it */
  j->par = (gpu_td_params){.complex_ = dtype == PSCR_C128,
                           .reg_ysm = g->static_local ? 0 : g->tune.pass_ysm ? 2 : 1};
  gpu_td_tile_params(j);
  gpu_td_gspike_params(j);
}

pscr_status gpu_td_module(gpu_device *g, pscr_dtype dtype) {
  return gpu_td_module_local(g, dtype, 0);
}

pscr_status gpu_td_module_local(gpu_device *g, pscr_dtype dtype, size_t tile_local) {
  td_job job;
  job_init(&job, g, dtype);
  if (g->static_local && g->shrink_local && tile_local > (size_t)job.par.tile_local &&
      tile_local <= job.limit / job.esize)
    job.par.tile_local = (int)tile_local;
  return td_module(&job);
}

/* AUTO: THOMAS-like solvers only where dominance is proven (td_scan over
 * every row: CR_PCR_THOMAS where all are strictly dominant, else
 * SPIKE_DIAG_PIVOT); waits for the status words, and leaves them clear. */
static pscr_status auto_choice(td_job *j, gpu_td_src src, long long n, long long batch,
                               pscr_td_algorithm *alg) {
  int fl[GPU_TD_FLAG_WORDS] = {0};
  long long total = n * batch;
  gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n), GPU_LONG(total), GPU_PTR(j->g->flags)};
  pscr_status st = launch(j, "td_scan", (size_t)total, j->line_wg, NARGS(args), args);
  if (st == PSCR_OK) st = j->g->flags_read(j->g, fl);
  if (st == PSCR_OK && fl[TD_FLAG_NONFINITE]) st = PSCR_ERR_NONFINITE;
  if (st == PSCR_OK) st = j->g->flags_clear(j->g);
  *alg = fl[TD_FLAG_NOT_DOMINANT] ? PSCR_TD_SPIKE_DIAG_PIVOT : PSCR_TD_CR_PCR_THOMAS;
  return st;
}

pscr_status gpu_td_scan_systems(gpu_device *g, pscr_dtype dtype, size_t n, size_t batch,
                                gpu_td_src src, gpu_ptr out) {
  td_job job;
  job_init(&job, g, dtype);
  long long total = (long long)n * (long long)batch;
  pscr_status st = td_module(&job);
  if (st == PSCR_OK) st = g->zero(g, out, batch * sizeof(int));
  gpu_arg args[] = {SRC_ARGS(src), GPU_LONG(n), GPU_LONG(total), GPU_PTR(out)};
  if (st == PSCR_OK && total > 0)
    st = launch(&job, "pscr_scan_sys", (size_t)total, job.line_wg, NARGS(args), args);
  return st;
}

/* After a failed one-pass batch solve: b back from the saved rows. */
static pscr_status restore(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b) {
  long long total = n * batch;
  gpu_arg args[] = {SRC_ARGS(src),     GPU_LONG(n), GPU_LONG(total),
                    GPU_PTR(j->saved), GPU_PTR(b),  GPU_PTR(j->g->flags)};
  return launch(j, "td_restore", (size_t)total, j->line_wg, NARGS(args), args);
}

static pscr_status solve(gpu_device *g, pscr_td_algorithm alg, pscr_dtype dtype, size_t n_,
                         size_t batch_, gpu_td_src src, gpu_ptr b, pscr_td_report *rep,
                         int keep_b) {
  td_job job;
  job_init(&job, g, dtype);
  job.keep_b = keep_b;
  long long n = (long long)n_, batch = (long long)batch_;
  int fl[GPU_TD_FLAG_WORDS] = {0};
  pscr_status st = PSCR_OK;
  if (alg == PSCR_TD_LAPACK) return PSCR_ERR_UNSUPPORTED;
  TRY(td_module(&job));
  TRY(g->flags_clear(g));
  TRY(g->timer_start(g));
  if (alg == PSCR_TD_AUTO) TRY(auto_choice(&job, src, n, batch, &alg));
  if (rep) rep->used = alg;
  switch (alg) {
  case PSCR_TD_THOMAS: TRY(solve_thomas(&job, src, n, batch, b)); break;
  case PSCR_TD_SPIKE_DIAG_PIVOT: TRY(gpu_td_solve_tiled(&job, src, n, batch, b, 1)); break;
  case PSCR_TD_CR: TRY(solve_cr(&job, src, n, batch, b)); break;
  case PSCR_TD_PCR: TRY(solve_pcr(&job, src, n, batch, b)); break;
  case PSCR_TD_CR_PCR_THOMAS:
  case PSCR_TD_PCR_THOMAS: TRY(gpu_td_solve_tiled(&job, src, n, batch, b, 0)); break;
  case PSCR_TD_GSPIKE: TRY(gpu_td_solve_gspike(&job, src, n, batch, b)); break;
  default: st = PSCR_ERR_UNSUPPORTED; goto cleanup;
  }
  double seconds = 0;
  TRY(g->timer_stop(g));
  TRY(g->flags_read(g, fl));
  TRY(g->timer_seconds(g, &seconds));
  st = gpu_td_flags_status(fl);
  if (st != PSCR_OK && job.saved.mem) {
    pscr_status rs = restore(&job, src, n, batch, b);
    if (rs != PSCR_OK) return rs;
  }
  if (rep) {
    rep->seconds = seconds;
    int spike = alg == PSCR_TD_SPIKE_DIAG_PIVOT || alg == PSCR_TD_GSPIKE;
    rep->partitions = spike ? job.partitions : 0;
    rep->modified_blocks = job.modified_blocks;
  }
cleanup:
  return st;
}

pscr_status gpu_td_solve(gpu_device *g, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                         size_t batch, gpu_td_src src, gpu_ptr b, pscr_td_report *rep) {
  return solve(g, alg, dtype, n, batch, src, b, rep, 1);
}

pscr_status gpu_td_solve_scratch(gpu_device *g, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                                 size_t batch, gpu_td_src src, gpu_ptr b, pscr_td_report *rep) {
  return solve(g, alg, dtype, n, batch, src, b, rep, 0);
}

pscr_status gpu_td_solve_queued(gpu_device *g, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                                size_t batch, gpu_td_src src, gpu_ptr b) {
  int pivot = alg == PSCR_TD_SPIKE_DIAG_PIVOT;
  if (alg != PSCR_TD_CR_PCR_THOMAS && alg != PSCR_TD_PCR_THOMAS && !pivot)
    return PSCR_ERR_UNSUPPORTED;
  td_job job;
  job_init(&job, g, dtype);
  pscr_status st = td_module(&job);
  if (st == PSCR_OK && n > 0 && batch > 0)
    st = gpu_td_solve_tiled(&job, src, (long long)n, (long long)batch, b, pivot);
  return st;
}

static gpu_ptr native(const pscr_array *a) {
  gpu_ptr p = {a ? a->native : NULL, 0, 0};
  return p;
}

/* A queued solve's status words: a buffer of their own (OpenCL takes regions
 * of the work buffer alone), GPU_TD_FLAG_WORDS
 * ints in one double each. */
#define SLOT_DOUBLES GPU_TD_FLAG_WORDS

/* The device interface of ctx with status words of the next queued solve's
 * own (ctx->qflags[ctx->queued]) as its flags; settles first where every
 * slot is in use. The first queued solve makes every slot, zeroed in the
 * queue's order: a slot made by a later one, written from the host, waited
 * for the queue in the middle of a pipeline (H100, shifted 16384 x 512
 * queued: 64 us of host time a call, 0.090 ms on the device's clock). */
static pscr_status queue_device(pscr_context *ctx, gpu_device *g) {
  pscr_status st = ctx->ops->gpu(ctx, g);
  if (st != PSCR_OK) return st;
  if (ctx->queued >= PSCR_QUEUE_SLOTS) pscr_context_settle(ctx); /* every slot in use */
  int make = ctx->qflags[ctx->queued] == NULL; /* this solve's slot, then every later one */
  for (int k = ctx->queued; make && k < PSCR_QUEUE_SLOTS; k++) {
    pscr_array **slot = &ctx->qflags[k];
    if (*slot != NULL) continue;
    st = pscr_array_create(ctx, PSCR_F64, SLOT_DOUBLES, slot);
    if (st == PSCR_OK) st = g->zero(g, native(*slot), SLOT_DOUBLES * sizeof(double));
    if (st != PSCR_OK) {
      pscr_array_destroy(*slot);
      *slot = NULL;
      return st;
    }
  }
  g->flags = native(ctx->qflags[ctx->queued]);
  return PSCR_OK;
}

pscr_status gpu_td_queue(pscr_context *ctx, const pscr_td_request *req) {
  gpu_device g;
  pscr_status st = queue_device(ctx, &g);
  if (st != PSCR_OK) return st;
  return gpu_td_solve_queued(&g, req->alg, req->dtype, req->n, req->batch, gpu_td_src_plain(req),
                             native(req->b));
}

pscr_status gpu_td_queue_shifted(pscr_context *ctx, const pscr_td_shifted_request *req) {
  gpu_device g;
  pscr_status st = queue_device(ctx, &g);
  if (st != PSCR_OK) return st;
  return gpu_td_solve_queued(&g, req->alg, req->dtype, req->n, req->nshift,
                             gpu_td_src_shifted(req), native(req->b));
}

pscr_status gpu_td_finish(pscr_context *ctx) {
  pscr_status st = PSCR_OK;
  int fl[GPU_TD_FLAG_WORDS] = {0};
  for (int k = 0; k < ctx->queued && k < PSCR_QUEUE_SLOTS && st == PSCR_OK; k++) {
    int w[2 * SLOT_DOUBLES] = {0};
    st = pscr_array_read(ctx->qflags[k], w); /* the first waits for the queue */
    if (st == PSCR_OK && gpu_td_flags_status(w) != PSCR_OK) {
      for (int i = 0; i < GPU_TD_FLAG_WORDS; i++) fl[i] |= w[i];
      memset(w, 0, sizeof w);
      st = pscr_array_write(ctx->qflags[k], w);
    }
  }
  return st != PSCR_OK ? st : gpu_td_flags_status(fl);
}

gpu_td_src gpu_td_src_plain(const pscr_td_request *r) {
  gpu_ptr none = {0};
  gpu_td_src s = {native(r->dl), native(r->d), native(r->du),        none, none,
                  none,          none,         (long long)r->stride, 1, 0, NULL};
  return s;
}

gpu_td_src gpu_td_src_shifted(const pscr_td_shifted_request *r) {
  gpu_td_src s = {native(r->a_dl),  native(r->a_d),  native(r->a_du),
                  native(r->m_dl),  native(r->m_d),  native(r->m_du),
                  native(r->shift), (long long)r->n, 1, 0, NULL};
  return s;
}
