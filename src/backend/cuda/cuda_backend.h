/* The CUDA backend's private state. The driver (libcuda.so.1) is loaded with
 * dlopen so that the library and its tests run on machines without a driver;
 * NVRTC is linked (it compiles without a GPU). */
#ifndef PSCR_BACKEND_CUDA_BACKEND_H
#define PSCR_BACKEND_CUDA_BACKEND_H

#include <cuda.h>
#include <nvrtc.h>

#include "core/context.h"

/* The driver entry points used, resolved by their versioned names. */
#define CUDA_DRIVER_FUNCS(X)                                                                       \
  X(cuInit) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetAttribute)                           \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxPushCurrent)                   \
  X(cuCtxPopCurrent) X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize) X(cuMemAlloc)   \
  X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoHAsync) X(cuMemsetD32Async)          \
  X(cuMemsetD8Async) X(cuMemAllocHost) X(cuMemFreeHost) X(cuModuleLoadData) X(cuModuleUnload)    \
  X(cuModuleGetFunction) X(cuFuncSetAttribute) X(cuLaunchKernel) X(cuEventCreate)                \
  X(cuEventDestroy) X(cuEventRecord) X(cuEventSynchronize) X(cuEventElapsedTime)

#define CUDA_DECLARE_PTR(name) __typeof__(&name) name;
typedef struct {
  void *lib;
  CUDA_DRIVER_FUNCS(CUDA_DECLARE_PTR)
} cuda_driver;
#undef CUDA_DECLARE_PTR

/* Loads libcuda.so.1 and resolves every entry point (PSCR_ERR_BACKEND_UNAVAILABLE if absent). */
pscr_status cuda_driver_load(cuda_driver *drv);
void cuda_driver_unload(cuda_driver *drv);

#define CUDA_CACHE_SIZE 32
#define CUDA_KEY_LEN 192

typedef struct {
  char key[CUDA_KEY_LEN]; /* the -D options the module was compiled with */
  CUmodule module;
} cuda_module;

typedef struct {
  cuda_driver drv;
  CUdevice dev;
  CUcontext cu; /* the device's primary context (shared with the runtime API) */
  CUstream stream;
  CUevent ev0, ev1;
  int arch;             /* compute capability, e.g. 90 */
  int smem_optin;       /* shared memory per block after opting in (bytes) */
  CUdeviceptr flags;    /* TD_FLAG_* words (8), cleared before each solve */
  int *flags_host;      /* pinned copy */
  CUdeviceptr work;     /* scratch, grown on demand */
  size_t work_bytes;
  cuda_module cache[CUDA_CACHE_SIZE];
  int ncache;
  /* tuning (defaults chosen for the H100; see pscr_cuda_tune) */
  int spike_m;    /* SPIKE partition size */
  int part_wg;    /* work-group of the partition kernels */
  int crpcr_wg;   /* CR_PCR_THOMAS work-group (TD_WG) */
  int crpcr_dmax; /* stage C -> D switch (TD_D_MAX) */
  int tile_q;     /* rows per work-item of the tiled engine (power of 2) */
  int tile_w;     /* work-items per tile of the multi-tile passes */
  int merge_w;    /* work-items of the tile-record merge (2x records each) */
  int gs_q;       /* g-Spike rows per level-0 partition (power of 2) */
  int gs_w;       /* g-Spike partitions per tile */
  int gs_gp;      /* g-Spike pairs per reduced-level block */
} cuda_state;

static inline cuda_state *cuda_of(pscr_context *ctx) { return (cuda_state *)ctx->impl; }

/* Maps a driver / NVRTC result to a status. */
pscr_status cuda_status(CUresult r);

/* Tuning parameters of one kernel module (compile-time -D macros). */
typedef struct {
  int complex_;   /* PSCR_COMPLEX */
  int wg;         /* TD_WG */
  int smem_n;     /* TD_SMEM_N */
  int d_max;      /* TD_D_MAX */
} cuda_params;

/* NVRTC options for a parameter set into opts[] (returns the count, <= 8);
 * the strings live in buf. arch = 0: PTX for compute_90 (no device needed). */
int cuda_params_options(const cuda_params *p, int arch, char buf[8][64], const char *opts[8]);

/* Compiles kernels/cuda/td.cu with NVRTC for the given options. On success
 * *image (malloc'ed) holds CUBIN (arch > 0) or PTX (arch == 0), and *log
 * (malloc'ed, may be NULL) the compiler log. */
pscr_status cuda_compile(const cuda_params *p, int arch, char **image, size_t *size, char **log);

/* The module for a parameter set, compiled on first use and cached. */
pscr_status cuda_module_get(pscr_context *ctx, const cuda_params *p, CUmodule *mod);

/* Scratch of at least `bytes` on the device (kept by the context). */
pscr_status cuda_work(pscr_context *ctx, size_t bytes, CUdeviceptr *ptr);

/* Launches `name` of mod on ctx's stream with 1D groups of wg over `items` work-items. */
pscr_status cuda_launch(pscr_context *ctx, CUmodule mod, const char *name, size_t items, int wg,
                        unsigned smem, void **args);

/* The backend's tridiagonal operations (cuda_tridiag.c). */
pscr_status cuda_tridiag(pscr_context *ctx, const pscr_td_request *req, pscr_td_report *rep);
pscr_status cuda_tridiag_shifted(pscr_context *ctx, const pscr_td_shifted_request *req,
                                 pscr_td_report *rep);

#endif
