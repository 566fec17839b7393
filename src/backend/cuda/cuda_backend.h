/* The CUDA backend's private state. The driver (libcuda.so.1) is loaded with
 * dlopen so that the library and its tests run on machines without a driver;
 * NVRTC is linked (it compiles without a GPU). The launch logic of every
 * algorithm is the shared one of src/backend/gpu; cuda_device.c adapts it. */
#ifndef PSCR_BACKEND_CUDA_BACKEND_H
#define PSCR_BACKEND_CUDA_BACKEND_H

#include <cuda.h>
#include <nvrtc.h>

#include "backend/gpu/gpu_tridiag.h"
#include "core/context.h"

/* The driver entry points used, resolved by their versioned names. */
#define CUDA_DRIVER_FUNCS(X)                                                                       \
  X(cuInit) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetAttribute)                             \
  X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuCtxPushCurrent)                     \
  X(cuCtxPopCurrent) X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize) X(cuMemAlloc)     \
  X(cuMemFree) X(cuMemcpyHtoD) X(cuMemcpyDtoH) X(cuMemcpyDtoHAsync) X(cuMemcpyDtoDAsync)           \
  X(cuMemsetD32Async) X(cuMemsetD8Async) X(cuMemAllocHost) X(cuMemFreeHost) X(cuModuleLoadData)    \
  X(cuModuleUnload) X(cuModuleGetFunction) X(cuFuncSetAttribute) X(cuFuncGetAttribute)             \
  X(cuLaunchKernel) X(cuLaunchKernelEx) X(cuEventCreate) X(cuEventDestroy) X(cuEventRecord)        \
  X(cuEventSynchronize) X(cuEventElapsedTime) X(cuMemGetInfo)

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
#define CUDA_KEY_LEN 256

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
  int timer_armed;      /* a timed solve whose first launch records ev0 (dev_timer_start) */
  int arch;             /* compute capability, e.g. 90 */
  int smem_optin;       /* shared memory per block after opting in (bytes) */
  CUdeviceptr flags;    /* TD_FLAG_* words (GPU_TD_FLAG_WORDS), cleared before each solve */
  int *flags_host;      /* pinned copy */
  int flags_clean;      /* the words are known zero: read so (or cleared) with no launch since */
  CUdeviceptr work;     /* scratch, grown on demand */
  size_t work_bytes;
  cuda_module cache[CUDA_CACHE_SIZE];
  int ncache;
  CUmodule current;     /* the module made current by the device interface */
  gpu_td_tuning tune;   /* launch-time tuning (pscr_cuda_tune) */
  size_t local_cap;     /* shared memory a group may take, at most (0: the opt-in) */
  CUevent evp[2];       /* around each launch while tune.profile is 1 */
  gpu_kstats stats;     /* launches and device time per kernel, while profiling */
} cuda_state;

static inline cuda_state *cuda_of(pscr_context *ctx) { return (cuda_state *)ctx->impl; }

/* Maps a driver result to a status. */
pscr_status cuda_status(CUresult r);

/* Compiles kernels/cuda/td.cu with NVRTC for the module parameters p. On
 * success *image (malloc'ed) holds CUBIN (arch > 0) or PTX (arch == 0: for
 * compute_90, no device needed), and *log (malloc'ed, may be NULL) the log. */
pscr_status cuda_compile(const gpu_td_params *p, int arch, char **image, size_t *size, char **log);

/* The module for a parameter set, compiled on first use and cached (the
 * context must be current). */
pscr_status cuda_module_get(cuda_state *s, const gpu_td_params *p, CUmodule *mod);

/* The shared GPU device interface over this context (backend table `gpu`,
 * cuda_device.c): every call makes the context current itself. */
pscr_status cuda_gpu_device(pscr_context *ctx, gpu_device *g);

/* The backend's tridiagonal operations (cuda_device.c, through gpu_td_solve). */
pscr_status cuda_tridiag(pscr_context *ctx, const pscr_td_request *req, pscr_td_report *rep);
pscr_status cuda_tridiag_shifted(pscr_context *ctx, const pscr_td_shifted_request *req,
                                 pscr_td_report *rep);

#endif
