/* Private to the shared GPU tridiagonal drivers (gpu_tridiag.c, gpu_tile.c,
 * gpu_gspike.c): one solve's state and launch helpers. */
#ifndef PSCR_BACKEND_GPU_TD_H
#define PSCR_BACKEND_GPU_TD_H

#include "backend/gpu/gpu_tridiag.h"

#define TD_LINE_WG 256 /* work-group of the row-parallel kernels */
/* status words of kernels/common/td_scalar.h */
#define TD_FLAG_NONFINITE 0
#define TD_FLAG_SINGULAR 1
#define TD_FLAG_NOT_DOMINANT 2
#define TD_FLAG_FALLBACK 3
#define TD_FLAG_MODIFIED 4
#define TD_FLAG_REFINE 5
#define TD_FLAG_SPECIAL0 7

typedef struct {
  gpu_device *g;
  gpu_td_params par; /* the module of the solve (tile / g-Spike sizes may change it) */
  size_t esize;
  size_t limit;        /* local memory a group may use (bytes) */
  int line_wg;         /* TD_LINE_WG within the device's limit */
  int keep_b;          /* b must stay untouched on NONFINITE / SINGULAR */
  gpu_ptr saved;       /* b's rows saved by a one-pass batch solve (mem NULL: none) */
  int partitions;      /* per system, for the report */
  int modified_blocks; /* g-Spike */
} td_job;

#define SRC_ARGS(s)                                                                                \
  GPU_PTR((s).dl), GPU_PTR((s).d), GPU_PTR((s).du), GPU_PTR((s).mdl), GPU_PTR((s).md),             \
      GPU_PTR((s).mdu), GPU_PTR((s).shift), GPU_LONG((s).sstride), GPU_LONG((s).rstep),        \
      GPU_LONG((s).sys0)
#define NARGS(a) ((int)(sizeof(a) / sizeof *(a)))

#define TRY(expr)                                                                                  \
  do {                                                                                             \
    st = (expr);                                                                                   \
    if (st != PSCR_OK) goto cleanup;                                                               \
  } while (0)

/* A launch needing more local memory than a group has: UNSUPPORTED. */
static inline pscr_status td_launch(td_job *j, const char *name, size_t items, int wg, size_t local,
                                    int nargs, const gpu_arg *args) {
  if (local > j->limit) return PSCR_ERR_UNSUPPORTED;
  return j->g->launch(j->g, name, items, wg, local, nargs, args);
}
/* The same for a kernel whose parameters start with XBASE (gpu_launch_x). */
static inline pscr_status td_launch_x(td_job *j, const char *name, size_t items, int wg,
                                      size_t local, int nargs, const gpu_arg *args) {
  if (local > j->limit) return PSCR_ERR_UNSUPPORTED;
  return gpu_launch_x(j->g, name, items, wg, local, nargs, args);
}

/* Sub-array sizes rounded to the device's alignment (CL_DEVICE_MEM_BASE_ADDR_ALIGN). */
static inline size_t td_align(const td_job *j, size_t x) {
  size_t a = j->g->align < 256 ? 256 : j->g->align;
  return (x + a - 1) / a * a;
}

/* Makes j->par's module current. */
static inline pscr_status td_module(td_job *j) { return j->g->module(j->g, &j->par); }

static inline int td_log2i(int v) {
  int l = 0;
  while ((1 << (l + 1)) <= v) l++;
  return l;
}

/* CR_PCR_THOMAS (pivot = 0) and SPIKE_DIAG_PIVOT (pivot = 1): the tiled
 * engine of kernels/common/td_tile.h (gpu_tile.c). A one-pass batch solve
 * with j->keep_b saves b's rows to j->saved first. */
pscr_status gpu_td_solve_tiled(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b,
                               int pivot);
/* The compile-time sizes of the tiled engine's merge kernels (static_local). */
void gpu_td_tile_params(td_job *j);

/* GSPIKE (kernels/common/td_gspike.h, gpu_gspike.c); reads the status words itself. */
pscr_status gpu_td_solve_gspike(td_job *j, gpu_td_src src, long long n, long long batch, gpu_ptr b);
/* The compile-time sizes of the g-Spike kernels (static_local). */
void gpu_td_gspike_params(td_job *j);

#endif
