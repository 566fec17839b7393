/* Private to the CUDA tridiagonal drivers (cuda_tridiag.c, cuda_tile.c,
 * cuda_gspike.c): where a system's rows come from, one solve's state, and
 * launch helpers. */
#ifndef PSCR_BACKEND_CUDA_TD_H
#define PSCR_BACKEND_CUDA_TD_H

#include "backend/cuda/cuda_backend.h"

#define TD_LINE_WG 256 /* work-group of the row-parallel kernels */
#define TD_FLAG_WORDS 8 /* status words of kernels/common/td_scalar.h */
#define TD_FLAG_FALLBACK 3
#define TD_FLAG_MODIFIED 4
#define TD_FLAG_REFINE 5

/* The kernels' TD_SRC_PARAMS (kernels/common/td_rows.h). */
typedef struct {
  CUdeviceptr dl, d, du, mdl, md, mdu, shift;
  long long sstride, rstep;
} td_src;

typedef struct {
  pscr_context *ctx;
  cuda_state *s;
  CUmodule mod;
  cuda_params par;
  size_t esize;
  int partitions;      /* per system, for the report */
  int modified_blocks; /* g-Spike */
} td_job;

#define SRC_ARGS(src)                                                                              \
  &(src).dl, &(src).d, &(src).du, &(src).mdl, &(src).md, &(src).mdu, &(src).shift,                 \
      &(src).sstride, &(src).rstep

#define TRY(expr)                                                                                  \
  do {                                                                                             \
    st = (expr);                                                                                   \
    if (st != PSCR_OK) goto cleanup;                                                               \
  } while (0)

/* Dynamic local memory a launch may take: the opt-in limit less a margin for
 * the kernels' static __shared__ words. */
static inline size_t td_smem_limit(const td_job *j) { return (size_t)j->s->smem_optin - 1024; }

static inline pscr_status td_launch(td_job *j, const char *name, size_t items, int wg,
                                    size_t smem, void **args) {
  if (smem > td_smem_limit(j)) return PSCR_ERR_UNSUPPORTED;
  return cuda_launch(j->ctx, j->mod, name, items, wg, (unsigned)smem, args);
}

static inline size_t td_align(size_t x) { return (x + 255) & ~(size_t)255; }

/* Waits for the stream and reads the status words into out[TD_FLAG_WORDS]. */
pscr_status cuda_td_flags_read(td_job *j, int *out);

/* CR_PCR_THOMAS (pivot = 0) and SPIKE_DIAG_PIVOT (pivot = 1): the tiled
 * engine of kernels/common/td_tile.h. */
pscr_status cuda_td_solve_tiled(td_job *j, td_src src, long long n, long long batch, CUdeviceptr b,
                           int pivot);

/* GSPIKE (kernels/common/td_gspike.h); reads the status words itself. */
pscr_status cuda_td_solve_gspike(td_job *j, td_src src, long long n, long long batch, CUdeviceptr b);

#endif
