/* OpenCL tridiagonal solves: the device interface of src/backend/gpu (which
 * runs the launch logic shared with CUDA) on an in-order queue. A pointer
 * argument is a buffer and a byte offset (GPTR); the kernels are
 * kernels/opencl/td.cl, i.e. kernels/common/td_*.h. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "backend/gpu/gpu_tridiag.h"
#include "backend/opencl/opencl.h"
#include "backend/opencl/opencl_tridiag.h"
#include "core/timer.h"

#define TD_ROOT "opencl/td.cl"

void ocl_tridiag_free(ocl_state *s) {
  if (s->queue) clFinish(s->queue);
  if (s->work) clReleaseMemObject(s->work);
  if (s->flags) clReleaseMemObject(s->flags);
  if (s->flags_host) { /* mapped with the queue, so there is one */
    if (s->flags_pinned)
      clEnqueueUnmapMemObject(s->queue, s->flags_host, s->flags_pinned, 0, NULL, NULL);
    clFinish(s->queue);
    clReleaseMemObject(s->flags_host);
  }
  s->work = s->flags = s->flags_host = NULL;
  s->flags_pinned = NULL;
  s->work_bytes = 0;
}

/* The buffer and byte offset of p: a user buffer, a piece of a chunk
 * (ocl_mem_at), or a region of the work buffer (the only buffer the shared
 * logic carves). The kernels take both (GPTR, td.cl): no sub-buffers. */
static pscr_status mem_of(ocl_state *s, gpu_ptr p, cl_mem *out, cl_long *off) {
  size_t at = p.off;
  cl_mem m = ocl_mem_at(p.mem, &at);
  if (m != (cl_mem)p.mem) { /* a piece */
    *out = m;
    *off = (cl_long)at;
    return PSCR_OK;
  }
  if ((p.off != 0 || p.len != 0) &&
      (p.mem != (void *)s->work || p.len == 0 || p.off > s->work_bytes ||
       p.len > s->work_bytes - p.off || p.off % s->base_align != 0))
    return PSCR_ERR_DEVICE; /* a layout the shared logic must not produce */
  *out = (cl_mem)p.mem;
  *off = (cl_long)p.off;
  return PSCR_OK;
}

static pscr_status dev_module(gpu_device *g, const gpu_td_params *p) {
  ocl_state *s = g->impl;
  char defines[256];
  gpu_td_params_defines(p, defines, sizeof defines);
  return ocl_program_get(s, TD_ROOT, defines, &s->current);
}

#define MAX_ARGS 64 /* pscr_reg_bwd takes 32, 47 with its pointers' offsets */

static int dev_kernel_wg(gpu_device *g, const char *name) {
  ocl_state *s = g->impl;
  ocl_program *prog = s->current;
  cl_uint ki = prog ? ocl_kernel_index(prog, name) : 0;
  size_t v = prog && ki < prog->nkernels ? prog->wg[ki] : 0;
  return v > 1024 ? 1024 : (int)v;
}

static pscr_status dev_launch(gpu_device *g, const char *name, size_t items, int wg,
                              size_t local_bytes, int nargs, const gpu_arg *args) {
  (void)local_bytes; /* LOCAL_ARRAY is sized by the module's -D sizes at compile time */
  ocl_state *s = g->impl;
  if (wg <= 0) return PSCR_ERR_DEVICE;
  ocl_arg a[MAX_ARGS];
  cl_mem xm[MAX_ARGS], base = NULL;
  cl_long xo[MAX_ARGS];
  int na = 0, best = 0;
  if (nargs > MAX_ARGS) return PSCR_ERR_DEVICE;
  for (int i = 0; i < nargs; i++) /* XPTRs: the buffer most of them lie in is the base */
    if (args[i].kind == GPU_ARG_XPTR) {
      pscr_status st = mem_of(s, args[i].p, &xm[i], &xo[i]);
      if (st != PSCR_OK) return st;
      int k = 0;
      for (int j = 0; j <= i; j++) k += args[j].kind == GPU_ARG_XPTR && xm[j] == xm[i];
      if (xm[i] && k > best) best = k, base = xm[i];
    }
  for (int i = 0; i < nargs; i++) {
    if (na + 2 > MAX_ARGS) return PSCR_ERR_DEVICE;
    switch (args[i].kind) {
    case GPU_ARG_PTR:      /* GPTR: the buffer, then the offset */
    case GPU_ARG_PKBASE: { /* PKBASE: a GPTR */
      cl_mem m = NULL;
      cl_long off = 0;
      pscr_status st = mem_of(s, args[i].p, &m, &off);
      if (st != PSCR_OK) return st;
      a[na++] = OCL_MEM(m);
      a[na++] = OCL_LONG(off);
      break;
    }
    case GPU_ARG_XBASE: a[na++] = OCL_MEM(base); break;
    case GPU_ARG_XPTR: /* in the base: no buffer, its offset; null: -1 */
      a[na++] = OCL_MEM(xm[i] == base ? NULL : xm[i]);
      a[na++] = OCL_LONG(xm[i] ? xo[i] : -1);
      break;
    case GPU_ARG_PKPTR: /* its offset in the pack: there must be one for a pointer */
      if (args[i].p.mem && args[i].l < 0) return PSCR_ERR_DEVICE;
      a[na++] = OCL_LONG(args[i].p.mem ? args[i].l : -1);
      break;
    case GPU_ARG_LONG: a[na++] = OCL_LONG(args[i].l); break;
    case GPU_ARG_INT: a[na++] = OCL_INT(args[i].i); break;
    default: return PSCR_ERR_DEVICE;
    }
  }
  size_t groups = (items + (size_t)wg - 1) / (size_t)wg;
  return ocl_launch(s, s->current, name, groups, (size_t)wg, na, a);
}

static pscr_status dev_work(gpu_device *g, size_t bytes, gpu_ptr *w) {
  ocl_state *s = g->impl;
  if (bytes > s->work_bytes) {
    cl_int err = clFinish(s->queue); /* nothing queued uses the old one */
    if (err != CL_SUCCESS) return ocl_status(err);
    if (s->work) clReleaseMemObject(s->work);
    s->work = NULL;
    s->work_bytes = 0;
    if (bytes > s->max_alloc) return PSCR_ERR_OUT_OF_MEMORY;
    size_t want = bytes;
    if (want < 2 * s->work_peak) /* doubling, within one allocation's limit */
      want = 2 * s->work_peak < s->max_alloc ? 2 * s->work_peak : s->max_alloc;
    s->work = clCreateBuffer(s->context, CL_MEM_READ_WRITE, want, NULL, &err);
    if (err != CL_SUCCESS && want > bytes) /* no room to double: what was asked */
      s->work = clCreateBuffer(s->context, CL_MEM_READ_WRITE, want = bytes, NULL, &err);
    bytes = want;
    if (err != CL_SUCCESS) {
      s->work = NULL;
      return ocl_status(err);
    }
    s->work_bytes = s->work_peak = bytes;
  }
  *w = (gpu_ptr){s->work, 0, 0};
  return PSCR_OK;
}

static pscr_status dev_zero(gpu_device *g, gpu_ptr p, size_t bytes) {
  ocl_state *s = g->impl;
  cl_uchar zero = 0;
  size_t off = p.off;
  cl_mem m = ocl_mem_at(p.mem, &off);
  if (bytes == 0) return PSCR_OK;
  return ocl_status(clEnqueueFillBuffer(s->queue, m, &zero, 1, off, bytes, 0, NULL, NULL));
}

/* Skipped where the words are known zero (a solve's finish read them so,
 * and nothing launched since): one operation less a solve. */
static pscr_status dev_flags_clear(gpu_device *g) {
  ocl_state *s = g->impl;
  cl_int zero = 0;
  if (s->flags_clean) return PSCR_OK;
  pscr_status st = ocl_status(clEnqueueFillBuffer(s->queue, s->flags, &zero, sizeof zero, 0,
                                                  GPU_TD_FLAG_WORDS * sizeof zero, 0, NULL, NULL));
  s->flags_clean = st == PSCR_OK;
  return st;
}

/* A word no status word holds (they are flags and counts). */
#define FLAG_UNREAD INT_MIN

/* Spins until every status word in pinned memory has lost FLAG_UNREAD: 1 if
 * they did within us microseconds. The in-order queue has then run every
 * launch before the read, and the read has landed. */
static int flags_landed(volatile const cl_int *w, int us) {
  double t0 = pscr_wtime();
  for (long it = 0;; it++) {
    int unread = 0;
    for (int i = 0; i < GPU_TD_FLAG_WORDS; i++) unread |= w[i] == FLAG_UNREAD;
    if (!unread) break;
    if ((it & 255) == 0 && pscr_wtime() - t0 > 1e-6 * us) return 0;
  }
  __atomic_thread_fence(__ATOMIC_ACQUIRE); /* the words before what the caller reads */
  return 1;
}

cl_int ocl_queue_wait(ocl_state *s, cl_int *words) {
  cl_int f[GPU_TD_FLAG_WORDS] = {0}, err;
  int spin = s->tune.wait_spin;
  if (s->flags_pinned) { /* opencl.h: flags_pinned */
    volatile cl_int *w = s->flags_pinned;
    for (int i = 0; spin && i < GPU_TD_FLAG_WORDS; i++) w[i] = FLAG_UNREAD;
    err = clEnqueueReadBuffer(s->queue, s->flags, CL_FALSE, 0, sizeof f, s->flags_pinned, 0, NULL,
                              NULL);
    /* the driver's clFinish sleeps and wakes late: spin a while first; a
     * long solve (or a failed read) then waits in clFinish, which reports */
    if (err == CL_SUCCESS && spin) err = clFlush(s->queue);
    if (err == CL_SUCCESS && !(spin && flags_landed(w, spin))) err = clFinish(s->queue);
    if (err == CL_SUCCESS) memcpy(f, s->flags_pinned, sizeof f);
  } else if (s->flags && words) {
    err = clEnqueueReadBuffer(s->queue, s->flags, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL);
  } else {
    err = clFinish(s->queue);
  }
  if (words) memcpy(words, f, sizeof f);
  return err;
}

static pscr_status dev_flags_read(gpu_device *g, int out[GPU_TD_FLAG_WORDS]) {
  ocl_state *s = g->impl;
  cl_int f[GPU_TD_FLAG_WORDS] = {0}, err = ocl_queue_wait(s, f);
  s->flags_clean = err == CL_SUCCESS;
  for (int i = 0; i < GPU_TD_FLAG_WORDS; i++) out[i] = f[i], s->flags_clean &= f[i] == 0;
  return ocl_status(err);
}

static pscr_status dev_timer_start(gpu_device *g) {
  ((ocl_state *)g->impl)->t0 = pscr_wtime();
  return PSCR_OK;
}

static pscr_status dev_timer_stop(gpu_device *g) {
  (void)g; /* the status read that follows waits for the queue */
  return PSCR_OK;
}

/* The host's time since timer_start (opencl.h: t0), the status read included. */
static pscr_status dev_timer_seconds(gpu_device *g, double *seconds) {
  *seconds = pscr_wtime() - ((ocl_state *)g->impl)->t0;
  return PSCR_OK;
}

pscr_status ocl_gpu_device(pscr_context *ctx, gpu_device *g) {
  ocl_state *s = ctx->impl;
  if (s->flags == NULL) {
    cl_int err;
    size_t bytes = GPU_TD_FLAG_WORDS * sizeof(cl_int);
    s->flags = clCreateBuffer(s->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    s->flags_clean = 0; /* a new buffer holds anything */
    if (err != CL_SUCCESS) {
      s->flags = NULL;
      return ocl_status(err);
    }
    /* pinned memory for the status read; without it, a blocking read */
    s->flags_host = clCreateBuffer(s->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes,
                                   NULL, &err);
    if (err == CL_SUCCESS)
      s->flags_pinned = clEnqueueMapBuffer(s->queue, s->flags_host, CL_TRUE,
                                           CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL,
                                           &err);
    if (err != CL_SUCCESS) s->flags_pinned = NULL;
  }
  *g = (gpu_device){.impl = s,
                    .align = s->base_align > 256 ? s->base_align : 256,
                    .local_bytes = (size_t)s->local_mem,
                    .max_wg = s->max_group,
                    .static_local = 1, /* LOCAL_ARRAY sized by -D at build time */
                    /* per-size modules only where local memory is scarce on-chip memory */
                    .shrink_local = s->local_is_local,
                    .warp_shfl = gpu_kernel_shfl(s->ptx >= 70), /* td.cl's inline PTX */
                    .pack_args = 1, /* td.cl's PKPTR: offsets into the pack */
                    .tune = s->tune,
                    .module = dev_module,
                    .launch = dev_launch,
                    .kernel_wg = dev_kernel_wg,
                    .work = dev_work,
                    .zero = dev_zero,
                    .flags = {s->flags, 0, 0},
                    .flags_clear = dev_flags_clear,
                    .flags_read = dev_flags_read,
                    .timer_start = dev_timer_start,
                    .timer_stop = dev_timer_stop,
                    .timer_seconds = dev_timer_seconds};
  return PSCR_OK;
}

pscr_status ocl_tridiag(pscr_context *ctx, const pscr_td_request *req, pscr_td_report *rep) {
  gpu_device g;
  pscr_status st = ocl_gpu_device(ctx, &g);
  if (st != PSCR_OK) return st;
  gpu_ptr b = {req->b->native, 0, 0};
  return gpu_td_solve(&g, req->alg, req->dtype, req->n, req->batch, gpu_td_src_plain(req), b,
                      rep);
}

/* Shifted requests come from the host API only: b is its uploaded copy, so
 * it may be clobbered on error (no saved copy of b). */
pscr_status ocl_tridiag_shifted(pscr_context *ctx, const pscr_td_shifted_request *req,
                                pscr_td_report *rep) {
  gpu_device g;
  pscr_status st = ocl_gpu_device(ctx, &g);
  if (st != PSCR_OK) return st;
  gpu_ptr b = {req->b->native, 0, 0};
  return gpu_td_solve_scratch(&g, req->alg, req->dtype, req->n, req->nshift,
                              gpu_td_src_shifted(req), b, rep);
}
