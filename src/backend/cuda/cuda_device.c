/* The CUDA side of the shared GPU device interface (gpu_device of
 * src/backend/gpu/gpu_tridiag.h): gpu_arg -> void *params[], gpu_ptr ->
 * CUdeviceptr + off, the module = the NVRTC program of the gpu_td_params
 * (cached per parameter set), launches on the context's stream with dynamic
 * shared memory, a scratch buffer grown on demand, the status words with a
 * pinned host copy, and an event timer. Every operation makes the context's
 * primary context current for its own duration, so the PSCR stages can call
 * them directly. The tridiagonal operations of the backend table are
 * gpu_td_solve over this interface. */
#include <stdint.h>
#include <string.h>

#include "backend/cuda/cuda_backend.h"

#define MAX_ARGS 40 /* pscr_reg_bwd takes 32 */
/* dynamic shared memory a launch may take: the opt-in limit less a margin
 * for the kernels' static __shared__ words */
#define STATIC_SMEM 1024

#define CU(call)                                                                                   \
  do {                                                                                             \
    st = cuda_status(call);                                                                        \
    if (st != PSCR_OK) goto cleanup;                                                               \
  } while (0)

static pscr_status push(cuda_state *s) { return cuda_status(s->drv.cuCtxPushCurrent(s->cu)); }
static void pop(cuda_state *s) {
  CUcontext dummy;
  s->drv.cuCtxPopCurrent(&dummy);
}

static CUdeviceptr dptr(gpu_ptr p) { return p.mem ? (CUdeviceptr)(uintptr_t)p.mem + p.off : 0; }

static pscr_status dev_module(gpu_device *g, const gpu_td_params *p) {
  cuda_state *s = g->impl;
  pscr_status st = push(s);
  if (st != PSCR_OK) return st;
  st = cuda_module_get(s, p, &s->current);
  pop(s);
  return st;
}

static int dev_kernel_wg(gpu_device *g, const char *name) {
  cuda_state *s = g->impl;
  CUfunction fn;
  int v = 0;
  if (s->current == NULL || push(s) != PSCR_OK) return 0;
  if (s->drv.cuModuleGetFunction(&fn, s->current, name) != CUDA_SUCCESS ||
      s->drv.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn) != CUDA_SUCCESS)
    v = 0;
  pop(s);
  return v;
}

/* A timed solve starts at its first device command (ev0 recorded then), as
 * OpenCL's starts at its first launch: the host's choices, module lookups and
 * argument lists before it are not device time. H100, the shifted host
 * form's reports, ev0 at timer_start against here, six runs: 1024 systems x
 * 16384 rows 3.12-3.25x floor against 2.95-3.08, 16384 x 512 2.34-2.99
 * against 2.30-2.57 (bench/RESULTS.md). */
static CUresult timer_begin(cuda_state *s) {
  if (!s->timer_armed) return CUDA_SUCCESS;
  s->timer_armed = 0;
  return s->drv.cuEventRecord(s->ev0, s->stream);
}

/* A launch in clusters of `cluster` groups (1: cuLaunchKernel). */
static pscr_status launch(gpu_device *g, const char *name, size_t items, int wg,
                          size_t local_bytes, int cluster, int nargs, const gpu_arg *args) {
  cuda_state *s = g->impl;
  if (nargs > MAX_ARGS || wg <= 0 || wg > 1024 || s->current == NULL) return PSCR_ERR_DEVICE;
  if (items == 0) return PSCR_OK;
  size_t groups = (items + (size_t)wg - 1) / (size_t)wg;
  if (groups > 0x7fffffffu || local_bytes > g->local_bytes) return PSCR_ERR_UNSUPPORTED;
  /* the kernels' long, int and pointer parameters, each at its own address */
  union {
    CUdeviceptr p;
    long long l;
    int i;
  } vals[MAX_ARGS];
  void *params[MAX_ARGS];
  int np = 0;
  for (int i = 0; i < nargs; i++) {
    switch (args[i].kind) {
    case GPU_ARG_PTR:
    case GPU_ARG_XPTR:
    case GPU_ARG_PKPTR: vals[np].p = dptr(args[i].p); break; /* PKPTR, XPTR: the pointer itself */
    case GPU_ARG_LONG: vals[np].l = args[i].l; break;
    case GPU_ARG_INT: vals[np].i = args[i].i; break;
    case GPU_ARG_PKBASE:
    case GPU_ARG_XBASE: continue; /* no such parameter */
    default: return PSCR_ERR_DEVICE;
    }
    params[np] = &vals[np];
    np++;
  }
  pscr_status st = push(s);
  if (st != PSCR_OK) return st;
  CUfunction fn;
  CU(s->drv.cuModuleGetFunction(&fn, s->current, name));
  if (local_bytes > 48 * 1024)
    CU(s->drv.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 (int)local_bytes));
  s->flags_clean = 0; /* any kernel may raise a status word */
  CU(timer_begin(s));
  if (s->tune.profile) CU(s->drv.cuEventRecord(s->evp[0], s->stream));
  if (cluster > 1) {
    CUlaunchAttribute at = {.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION};
    at.value.clusterDim.x = (unsigned)cluster;
    at.value.clusterDim.y = at.value.clusterDim.z = 1;
    CUlaunchConfig cfg = {.gridDimX = (unsigned)groups, .gridDimY = 1, .gridDimZ = 1,
                          .blockDimX = (unsigned)wg, .blockDimY = 1, .blockDimZ = 1,
                          .sharedMemBytes = (unsigned)local_bytes, .hStream = s->stream,
                          .attrs = &at, .numAttrs = 1};
    /* a cluster the device cannot place (its groups' registers or shared
     * memory): the caller takes another way */
    if (groups % (size_t)cluster != 0 ||
        s->drv.cuLaunchKernelEx(&cfg, fn, params, NULL) != CUDA_SUCCESS) {
      st = PSCR_ERR_UNSUPPORTED;
      goto cleanup;
    }
  } else {
    CU(s->drv.cuLaunchKernel(fn, (unsigned)groups, 1, 1, (unsigned)wg, 1, 1,
                             (unsigned)local_bytes, s->stream, params, NULL));
  }
  if (s->tune.profile) { /* this launch alone: wait for it */
    float ms = 0;
    CU(s->drv.cuEventRecord(s->evp[1], s->stream));
    CU(s->drv.cuEventSynchronize(s->evp[1]));
    CU(s->drv.cuEventElapsedTime(&ms, s->evp[0], s->evp[1]));
    st = gpu_kstats_add(&s->stats, name, 1e-3 * ms);
  }
cleanup:
  pop(s);
  return st;
}

static pscr_status dev_launch(gpu_device *g, const char *name, size_t items, int wg,
                              size_t local_bytes, int nargs, const gpu_arg *args) {
  return launch(g, name, items, wg, local_bytes, 1, nargs, args);
}
static pscr_status dev_launch_cluster(gpu_device *g, const char *name, size_t items, int wg,
                                      size_t local_bytes, int cluster, int nargs,
                                      const gpu_arg *args) {
  return launch(g, name, items, wg, local_bytes, cluster, nargs, args);
}

static pscr_status dev_work(gpu_device *g, size_t bytes, gpu_ptr *w) {
  cuda_state *s = g->impl;
  pscr_status st = push(s);
  if (st != PSCR_OK) return st;
  if (bytes > s->work_bytes) {
    if (s->work) { /* kernels in flight may still use it */
      CU(s->drv.cuStreamSynchronize(s->stream));
      s->drv.cuMemFree(s->work);
      s->work = 0;
      s->work_bytes = 0;
    }
    CU(s->drv.cuMemAlloc(&s->work, bytes));
    s->work_bytes = bytes;
  }
  *w = (gpu_ptr){(void *)(uintptr_t)s->work, 0, 0};
cleanup:
  pop(s);
  return st;
}

static pscr_status dev_zero(gpu_device *g, gpu_ptr p, size_t bytes) {
  cuda_state *s = g->impl;
  if (bytes == 0) return PSCR_OK;
  pscr_status st = push(s);
  if (st != PSCR_OK) return st;
  st = cuda_status(timer_begin(s));
  if (st == PSCR_OK) st = cuda_status(s->drv.cuMemsetD8Async(dptr(p), 0, bytes, s->stream));
  pop(s);
  return st;
}

/* Skipped where the words are known zero (a solve's finish read them so,
 * and nothing launched since): one operation less a solve. */
static pscr_status dev_flags_clear(gpu_device *g) {
  cuda_state *s = g->impl;
  if (s->flags_clean) return PSCR_OK;
  pscr_status st = push(s);
  if (st != PSCR_OK) return st;
  st = cuda_status(s->drv.cuMemsetD32Async(s->flags, 0, GPU_TD_FLAG_WORDS, s->stream));
  pop(s);
  s->flags_clean = st == PSCR_OK;
  return st;
}

/* Waits for the stream. */
static pscr_status dev_flags_read(gpu_device *g, int out[GPU_TD_FLAG_WORDS]) {
  cuda_state *s = g->impl;
  size_t bytes = GPU_TD_FLAG_WORDS * sizeof(int);
  pscr_status st = push(s);
  if (st != PSCR_OK) return st;
  CU(s->drv.cuMemcpyDtoHAsync(s->flags_host, s->flags, bytes, s->stream));
  CU(s->drv.cuStreamSynchronize(s->stream));
  memcpy(out, s->flags_host, bytes);
  s->flags_clean = 1;
  for (int i = 0; i < GPU_TD_FLAG_WORDS; i++) s->flags_clean &= out[i] == 0;
cleanup:
  pop(s);
  return st;
}

/* The solve's start (ev0, at its first device command: timer_begin) or end
 * (ev1) on the stream. */
static pscr_status record(cuda_state *s, CUevent ev) {
  pscr_status st = push(s);
  if (st != PSCR_OK) return st;
  st = cuda_status(s->drv.cuEventRecord(ev, s->stream));
  pop(s);
  return st;
}
static pscr_status dev_timer_start(gpu_device *g) {
  cuda_state *s = g->impl;
  s->timer_armed = 1;
  return PSCR_OK;
}
static pscr_status dev_timer_stop(gpu_device *g) {
  cuda_state *s = g->impl;
  pscr_status st = s->timer_armed ? record(s, s->ev0) : PSCR_OK; /* no device command: 0 s */
  s->timer_armed = 0;
  return st == PSCR_OK ? record(s, s->ev1) : st;
}

/* Device time between the events (0 if the driver cannot tell). */
static pscr_status dev_timer_seconds(gpu_device *g, double *seconds) {
  cuda_state *s = g->impl;
  float ms = 0;
  *seconds = 0;
  pscr_status st = push(s);
  if (st != PSCR_OK) return st;
  CU(s->drv.cuEventSynchronize(s->ev1)); /* done already after flags_read */
  if (s->drv.cuEventElapsedTime(&ms, s->ev0, s->ev1) == CUDA_SUCCESS) *seconds = 1e-3 * ms;
cleanup:
  pop(s);
  return st;
}

pscr_status cuda_gpu_device(pscr_context *ctx, gpu_device *g) {
  cuda_state *s = cuda_of(ctx);
  size_t smem = (size_t)s->smem_optin;
  if (s->local_cap && s->local_cap < smem) smem = s->local_cap;
  *g = (gpu_device){.impl = s,
                    .align = 256,
                    .local_bytes = smem > 2 * STATIC_SMEM ? smem - STATIC_SMEM : smem / 2,
                    .max_wg = 1024,
                    .static_local = 0, /* LOCAL_ARRAY is dynamic shared memory */
                    .shrink_local = 0,
                    .tune = s->tune,
                    .module = dev_module,
                    .launch = dev_launch,
                    /* thread-block clusters (sm_90+: td.cu's TD_CLUSTER_*) */
                    .launch_cluster = s->arch >= 90 ? dev_launch_cluster : NULL,
                    .cluster_max = s->arch >= 90 ? 8 : 0,
                    .warp_shfl = gpu_kernel_shfl(1),
                    .kernel_wg = dev_kernel_wg,
                    .work = dev_work,
                    .zero = dev_zero,
                    .flags = {(void *)(uintptr_t)s->flags, 0, 0},
                    .flags_clear = dev_flags_clear,
                    .flags_read = dev_flags_read,
                    .timer_start = dev_timer_start,
                    .timer_stop = dev_timer_stop,
                    .timer_seconds = dev_timer_seconds};
  return PSCR_OK;
}

pscr_status cuda_tridiag(pscr_context *ctx, const pscr_td_request *req, pscr_td_report *rep) {
  gpu_device g;
  pscr_status st = cuda_gpu_device(ctx, &g);
  if (st != PSCR_OK) return st;
  gpu_ptr b = {req->b->native, 0, 0};
  return gpu_td_solve(&g, req->alg, req->dtype, req->n, req->batch, gpu_td_src_plain(req), b, rep);
}

/* Shifted requests come from the host API only: b is its uploaded copy, so
 * it may be clobbered on error (no saved copy of b). */
pscr_status cuda_tridiag_shifted(pscr_context *ctx, const pscr_td_shifted_request *req,
                                 pscr_td_report *rep) {
  gpu_device g;
  pscr_status st = cuda_gpu_device(ctx, &g);
  if (st != PSCR_OK) return st;
  gpu_ptr b = {req->b->native, 0, 0};
  return gpu_td_solve_scratch(&g, req->alg, req->dtype, req->n, req->nshift,
                              gpu_td_src_shifted(req), b, rep);
}
