/* The cuda backend: driver loading, context (device, primary context,
 * stream), device arrays, scratch, launches. Kernel compilation is in
 * cuda_program.c, the tridiagonal drivers in cuda_tridiag.c. */
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
    if (s->stream) d->cuStreamDestroy(s->stream);
    CUcontext dummy;
    d->cuCtxPopCurrent(&dummy);
  }
  if (s->cu) d->cuDevicePrimaryCtxRelease(s->dev);
  cuda_driver_unload(d);
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
  s->spike_m = 32;
  s->part_wg = 128;
  s->crpcr_wg = 256;
  s->crpcr_dmax = 64;
  s->tile_q = 8; /* H100 sweep (bench/RESULTS.md): q = 8 beat 16 and 32 */
  s->tile_w = 128;
  s->merge_w = 256;
  s->gs_q = 16;
  s->gs_w = 128;
  s->gs_gp = 16;
  CU(d->cuDevicePrimaryCtxRetain(&s->cu, s->dev));
  CU(d->cuCtxPushCurrent(s->cu));
  /* A blocking stream: ordered after work on the legacy default stream, so
   * callers that time with events on stream 0 see our kernels inside. */
  st = cuda_status(d->cuStreamCreate(&s->stream, CU_STREAM_DEFAULT));
  if (st == PSCR_OK) st = cuda_status(d->cuEventCreate(&s->ev0, CU_EVENT_DEFAULT));
  if (st == PSCR_OK) st = cuda_status(d->cuEventCreate(&s->ev1, CU_EVENT_DEFAULT));
  if (st == PSCR_OK) st = cuda_status(d->cuMemAlloc(&s->flags, 8 * sizeof(int)));
  if (st == PSCR_OK)
    st = cuda_status(d->cuMemAllocHost((void **)&s->flags_host, 8 * sizeof(int)));
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

pscr_status cuda_work(pscr_context *ctx, size_t bytes, CUdeviceptr *ptr) {
  cuda_state *s = cuda_of(ctx);
  pscr_status st = PSCR_OK;
  if (bytes > s->work_bytes) {
    if (s->work) {
      CU(s->drv.cuStreamSynchronize(s->stream));
      s->drv.cuMemFree(s->work);
      s->work = 0;
      s->work_bytes = 0;
    }
    CU(s->drv.cuMemAlloc(&s->work, bytes));
    s->work_bytes = bytes;
  }
  *ptr = s->work;
cleanup:
  return st;
}

pscr_status cuda_launch(pscr_context *ctx, CUmodule mod, const char *name, size_t items, int wg,
                        unsigned smem, void **args) {
  cuda_state *s = cuda_of(ctx);
  CUfunction fn;
  pscr_status st = PSCR_OK;
  if (items == 0) return PSCR_OK;
  size_t groups = (items + (size_t)wg - 1) / (size_t)wg;
  if (groups > 0x7fffffffu) return PSCR_ERR_UNSUPPORTED;
  CU(s->drv.cuModuleGetFunction(&fn, mod, name));
  if (smem > 48 * 1024)
    CU(s->drv.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)smem));
  CU(s->drv.cuLaunchKernel(fn, (unsigned)groups, 1, 1, (unsigned)wg, 1, 1, smem, s->stream, args,
                           NULL));
cleanup:
  return st;
}

/* Developer hook for the benchmark's parameter sweep (found through a weak
 * reference): sets one tuning parameter of a CUDA context. */
pscr_status pscr_cuda_tune(pscr_context *ctx, const char *name, int value);
pscr_status pscr_cuda_tune(pscr_context *ctx, const char *name, int value) {
  if (ctx == NULL || ctx->backend != PSCR_BACKEND_CUDA || name == NULL || value < 1)
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
  if (strcmp(name, "spike_m") == 0)
    s->spike_m = value;
  else if (strcmp(name, "part_wg") == 0 && value % 32 == 0 && value <= 1024)
    s->part_wg = value;
  else if (strcmp(name, "crpcr_wg") == 0 && value % 32 == 0 && value <= 1024 &&
           s->crpcr_dmax <= value)
    s->crpcr_wg = value;
  else if (strcmp(name, "crpcr_dmax") == 0 && value <= s->crpcr_wg)
    s->crpcr_dmax = value;
  else if (strcmp(name, "tile_q") == 0 && value >= 2 && value <= 64 && !(value & (value - 1)))
    s->tile_q = value;
  else if (strcmp(name, "tile_w") == 0 && value % 32 == 0 && value <= 1024)
    s->tile_w = value;
  else if (strcmp(name, "merge_w") == 0 && value % 32 == 0 && value <= 512)
    s->merge_w = value;
  else if (strcmp(name, "gs_q") == 0 && value >= 2 && value <= 64 && !(value & (value - 1)))
    s->gs_q = value;
  else if (strcmp(name, "gs_w") == 0 && value % 32 == 0 && value <= 256)
    s->gs_w = value;
  else if (strcmp(name, "gs_gp") == 0 && value >= 2 && value <= 32)
    s->gs_gp = value;
  else
    return PSCR_ERR_INVALID_ARGUMENT;
  return PSCR_OK;
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
    .tridiag = cuda_tridiag,
    .tridiag_shifted = cuda_tridiag_shifted,
};
