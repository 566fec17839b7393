/* The cuda backend: driver loading, context (device, primary context,
 * stream), device arrays. Kernel compilation is in cuda_program.c; scratch,
 * launches and the tridiagonal solves in cuda_device.c (the shared GPU
 * device interface of src/backend/gpu). */
#define _GNU_SOURCE /* RTLD_NODELETE */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/cuda_backend.h"

#define STR_(x) #x
#define STR(x) STR_(x)

pscr_status cuda_driver_load(cuda_driver *drv) {
  memset(drv, 0, sizeof *drv);
  /* NODELETE: the driver keeps threads; it must never be unmapped under them. */
  drv->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (drv->lib == NULL) return PSCR_ERR_BACKEND_UNAVAILABLE;
#define CUDA_RESOLVE(name)                                                                         \
  *(void **)&drv->name = dlsym(drv->lib, STR(name));                                               \
  if (drv->name == NULL) goto fail;
  CUDA_DRIVER_FUNCS(CUDA_RESOLVE)
#undef CUDA_RESOLVE
  return PSCR_OK;
fail:
  cuda_driver_unload(drv);
  return PSCR_ERR_BACKEND_UNAVAILABLE;
}

void cuda_driver_unload(cuda_driver *drv) {
  if (drv->lib) dlclose(drv->lib);
  memset(drv, 0, sizeof *drv);
}

pscr_status cuda_status(CUresult r) {
  if (r == CUDA_SUCCESS) return PSCR_OK;
  if (r == CUDA_ERROR_OUT_OF_MEMORY) return PSCR_ERR_OUT_OF_MEMORY;
  return PSCR_ERR_DEVICE;
}

#define CU(call)                                                                                   \
  do {                                                                                             \
    st = cuda_status(call);                                                                        \
    if (st != PSCR_OK) goto cleanup;                                                               \
  } while (0)

/* 1 only with a loadable driver that initializes and reports a device. */
static int cuda_available(void) {
  cuda_driver drv;
  if (cuda_driver_load(&drv) != PSCR_OK) return 0;
  int count = 0;
  int ok = drv.cuInit(0) == CUDA_SUCCESS && drv.cuDeviceGetCount(&count) == CUDA_SUCCESS &&
           count > 0;
  cuda_driver_unload(&drv);
  return ok;
}

static void cuda_fini(pscr_context *ctx) {
  cuda_state *s = cuda_of(ctx);
  if (s == NULL) return;
  cuda_driver *d = &s->drv;
  if (s->cu && d->cuCtxPushCurrent(s->cu) == CUDA_SUCCESS) {
    for (int i = 0; i < s->ncache; i++) d->cuModuleUnload(s->cache[i].module);
    if (s->work) d->cuMemFree(s->work);
    if (s->flags) d->cuMemFree(s->flags);
    if (s->flags_host) d->cuMemFreeHost(s->flags_host);
    if (s->ev0) d->cuEventDestroy(s->ev0);
    if (s->ev1) d->cuEventDestroy(s->ev1);
    if (s->evp[0]) d->cuEventDestroy(s->evp[0]);
    if (s->evp[1]) d->cuEventDestroy(s->evp[1]);
    if (s->stream) d->cuStreamDestroy(s->stream);
    CUcontext dummy;
    d->cuCtxPopCurrent(&dummy);
  }
  if (s->cu) d->cuDevicePrimaryCtxRelease(s->dev);
  cuda_driver_unload(d);
  gpu_kstats_free(&s->stats);
  free(s);
  ctx->impl = NULL;
}

static pscr_status cuda_init(pscr_context *ctx, int device_index) {
  cuda_state *s = calloc(1, sizeof *s);
  if (s == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  ctx->impl = s;
  pscr_status st = cuda_driver_load(&s->drv);
  if (st != PSCR_OK) goto cleanup;
  cuda_driver *d = &s->drv;
  int count = 0, major = 0, minor = 0;
  CU(d->cuInit(0));
  CU(d->cuDeviceGetCount(&count));
  if (device_index >= count) {
    st = PSCR_ERR_INVALID_ARGUMENT;
    goto cleanup;
  }
  CU(d->cuDeviceGet(&s->dev, device_index));
  CU(d->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, s->dev));
  CU(d->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, s->dev));
  CU(d->cuDeviceGetAttribute(&s->smem_optin,
                             CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, s->dev));
  s->arch = 10 * major + minor;
  gpu_td_tuning_default(&s->tune);
  /* complex pivoting tiles of 8 rows a work-item where td_tile_load has
   * cp.async (H100: C128 SPIKE 4096^2 3.45 -> 3.20x floor, 8192^2 3.38 ->
   * 3.02x; bench/RESULTS.md); OpenCL keeps 4 */
  if (s->arch >= 80) s->tune.tile_mqz = 8;
  CU(d->cuDevicePrimaryCtxRetain(&s->cu, s->dev));
  CU(d->cuCtxPushCurrent(s->cu));
  /* A blocking stream: ordered after work on the legacy default stream, so
   * callers that time with events on stream 0 see our kernels inside. */
  st = cuda_status(d->cuStreamCreate(&s->stream, CU_STREAM_DEFAULT));
  if (st == PSCR_OK) st = cuda_status(d->cuEventCreate(&s->ev0, CU_EVENT_DEFAULT));
  if (st == PSCR_OK) st = cuda_status(d->cuEventCreate(&s->ev1, CU_EVENT_DEFAULT));
  for (int i = 0; i < 2 && st == PSCR_OK; i++)
    st = cuda_status(d->cuEventCreate(&s->evp[i], CU_EVENT_DEFAULT));
  if (st == PSCR_OK) st = cuda_status(d->cuMemAlloc(&s->flags, GPU_TD_FLAG_WORDS * sizeof(int)));
  if (st == PSCR_OK)
    st = cuda_status(d->cuMemAllocHost((void **)&s->flags_host, GPU_TD_FLAG_WORDS * sizeof(int)));
  CUcontext dummy;
  d->cuCtxPopCurrent(&dummy);
cleanup:
  if (st != PSCR_OK) cuda_fini(ctx);
  return st;
}

static pscr_status cuda_alloc(pscr_context *ctx, size_t bytes, void **native) {
  cuda_state *s = cuda_of(ctx);
  CUdeviceptr p = 0;
  pscr_status st = cuda_status(s->drv.cuCtxPushCurrent(s->cu));
  if (st != PSCR_OK) return st;
  st = cuda_status(s->drv.cuMemAlloc(&p, bytes));
  CUcontext dummy;
  s->drv.cuCtxPopCurrent(&dummy);
  *native = (void *)(uintptr_t)p;
  return st;
}

static void cuda_release(pscr_context *ctx, void *native) {
  cuda_state *s = cuda_of(ctx);
  if (native == NULL || s->drv.cuCtxPushCurrent(s->cu) != CUDA_SUCCESS) return;
  s->drv.cuMemFree((CUdeviceptr)(uintptr_t)native);
  CUcontext dummy;
  s->drv.cuCtxPopCurrent(&dummy);
}

/* Copies are ordered after the context's stream (the kernels run there). */
static pscr_status cuda_write(pscr_context *ctx, void *native, size_t offset, const void *host,
                              size_t bytes) {
  cuda_state *s = cuda_of(ctx);
  pscr_status st = cuda_status(s->drv.cuCtxPushCurrent(s->cu));
  if (st != PSCR_OK) return st;
  st = cuda_status(s->drv.cuStreamSynchronize(s->stream));
  if (st == PSCR_OK)
    st = cuda_status(s->drv.cuMemcpyHtoD((CUdeviceptr)(uintptr_t)native + offset, host, bytes));
  CUcontext dummy;
  s->drv.cuCtxPopCurrent(&dummy);
  return st;
}

static pscr_status cuda_read(pscr_context *ctx, const void *native, size_t offset, void *host,
                             size_t bytes) {
  cuda_state *s = cuda_of(ctx);
  pscr_status st = cuda_status(s->drv.cuCtxPushCurrent(s->cu));
  if (st != PSCR_OK) return st;
  st = cuda_status(s->drv.cuStreamSynchronize(s->stream));
  if (st == PSCR_OK)
    st = cuda_status(s->drv.cuMemcpyDtoH(host, (CUdeviceptr)(uintptr_t)native + offset, bytes));
  CUcontext dummy;
  s->drv.cuCtxPopCurrent(&dummy);
  return st;
}

/* On the context's stream, after its kernels; waited for (pscr_array_copy). */
static pscr_status cuda_copy(pscr_context *ctx, void *dst, const void *src, size_t bytes) {
  cuda_state *s = cuda_of(ctx);
  pscr_status st = cuda_status(s->drv.cuCtxPushCurrent(s->cu));
  if (st != PSCR_OK) return st;
  st = cuda_status(s->drv.cuMemcpyDtoDAsync((CUdeviceptr)(uintptr_t)dst,
                                            (CUdeviceptr)(uintptr_t)src, bytes, s->stream));
  if (st == PSCR_OK) st = cuda_status(s->drv.cuStreamSynchronize(s->stream));
  CUcontext dummy;
  s->drv.cuCtxPopCurrent(&dummy);
  return st;
}

/* Developer hook for the benchmark's parameter sweep (found through a weak
 * reference): sets one tuning parameter of a CUDA context (gpu_td_tune's
 * names), "release_work" frees the scratch, "local_mem" caps the shared
 * memory of a group (bytes; 0: the device's opt-in; 49152: OpenCL's on
 * NVIDIA, for A/B runs). */
pscr_status pscr_cuda_tune(pscr_context *ctx, const char *name, int value);
pscr_status pscr_cuda_tune(pscr_context *ctx, const char *name, int value) {
  if (ctx == NULL || ctx->backend != PSCR_BACKEND_CUDA || name == NULL) /* values: gpu_td_tune */
    return PSCR_ERR_INVALID_ARGUMENT;
  cuda_state *s = cuda_of(ctx);
  if (strcmp(name, "release_work") == 0) { /* frees the scratch (the next solve re-grows it) */
    if (s->work == 0) return PSCR_OK;
    pscr_status st = cuda_status(s->drv.cuCtxPushCurrent(s->cu));
    if (st != PSCR_OK) return st;
    st = cuda_status(s->drv.cuStreamSynchronize(s->stream));
    if (st == PSCR_OK) st = cuda_status(s->drv.cuMemFree(s->work));
    CUcontext dummy;
    s->drv.cuCtxPopCurrent(&dummy);
    if (st == PSCR_OK) {
      s->work = 0;
      s->work_bytes = 0;
    }
    return st;
  }
  if (strcmp(name, "profile_clear") == 0) { /* forgets the kernel statistics */
    gpu_kstats_free(&s->stats);
    return PSCR_OK;
  }
  if (strcmp(name, "local_mem") == 0) {
    if (value != 0 && (value < 1024 || value > s->smem_optin)) return PSCR_ERR_INVALID_ARGUMENT;
    s->local_cap = (size_t)value;
    return PSCR_OK;
  }
  return gpu_td_tune(&s->tune, name, value);
}

/* Kernel i of the launch statistics (kept while tuning `profile` is 1): name,
 * launches, device seconds; INVALID_ARGUMENT past the last. */
pscr_status pscr_cuda_kernel_stat(const pscr_context *ctx, size_t i, const char **name,
                                  unsigned long *count, double *seconds);
pscr_status pscr_cuda_kernel_stat(const pscr_context *ctx, size_t i, const char **name,
                                  unsigned long *count, double *seconds) {
  if (ctx == NULL || ctx->backend != PSCR_BACKEND_CUDA || ctx->impl == NULL)
    return PSCR_ERR_INVALID_ARGUMENT;
  return gpu_kstats_get(&((const cuda_state *)ctx->impl)->stats, i, name, count, seconds);
}

/* Free and total device memory (the chunked SPIKE decides from it). */
static pscr_status cuda_mem_info(pscr_context *ctx, size_t *free_bytes, size_t *total_bytes) {
  cuda_state *s = cuda_of(ctx);
  pscr_status st = cuda_status(s->drv.cuCtxPushCurrent(s->cu));
  if (st != PSCR_OK) return st;
  st = cuda_status(s->drv.cuMemGetInfo(free_bytes, total_bytes));
  CUcontext dummy;
  s->drv.cuCtxPopCurrent(&dummy);
  return st;
}

const struct pscr_backend_ops pscr_cuda_ops = {
    .name = "cuda",
    .available = cuda_available,
    .init = cuda_init,
    .fini = cuda_fini,
    .alloc = cuda_alloc,
    .release = cuda_release,
    .write = cuda_write,
    .read = cuda_read,
    .copy = cuda_copy,
    .tridiag = cuda_tridiag,
    .tridiag_shifted = cuda_tridiag_shifted,
    .gpu = cuda_gpu_device,
    .mem_info = cuda_mem_info,
    .tridiag_queued = gpu_td_queue,
    .tridiag_shifted_queued = gpu_td_queue_shifted,
    .finish = gpu_td_finish,
};
