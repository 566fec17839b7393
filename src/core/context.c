/* Contexts and device arrays: thin wrappers over the backend table. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"

const struct pscr_backend_ops *pscr_backend_lookup(pscr_backend backend) {
  switch (backend) {
  case PSCR_BACKEND_CPU: return &pscr_cpu_ops;
#if PSCR_HAVE_CUDA
  case PSCR_BACKEND_CUDA: return &pscr_cuda_ops;
#endif
#if PSCR_HAVE_OPENCL
  case PSCR_BACKEND_OPENCL: return &pscr_opencl_ops;
#endif
  default: return NULL;
  }
}

static int backend_known(pscr_backend b) {
  return b == PSCR_BACKEND_CPU || b == PSCR_BACKEND_CUDA || b == PSCR_BACKEND_OPENCL;
}

int pscr_backend_available(pscr_backend backend) {
  const struct pscr_backend_ops *ops = pscr_backend_lookup(backend);
  return ops != NULL && ops->available();
}

pscr_status pscr_context_create(pscr_backend backend, int device_index, pscr_context **ctx) {
  if (ctx == NULL || !backend_known(backend) || device_index < 0)
    return PSCR_ERR_INVALID_ARGUMENT;
  const struct pscr_backend_ops *ops = pscr_backend_lookup(backend);
  if (ops == NULL || !ops->available()) return PSCR_ERR_BACKEND_UNAVAILABLE;
  pscr_context *c = calloc(1, sizeof *c);
  if (c == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  c->backend = backend;
  c->ops = ops;
  c->device_index = device_index;
  pscr_status st = ops->init(c, device_index);
  if (st != PSCR_OK) {
    free(c);
    return st;
  }
  *ctx = c;
  return PSCR_OK;
}

void pscr_context_settle(pscr_context *ctx) {
  if (ctx == NULL || ctx->queued == 0) return;
  pscr_status st = ctx->ops->finish ? ctx->ops->finish(ctx) : PSCR_OK;
  ctx->queued = 0;
  if (ctx->pending == PSCR_OK) ctx->pending = st;
}

pscr_status pscr_context_finish(pscr_context *ctx) {
  if (ctx == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  pscr_context_settle(ctx);
  pscr_status st = ctx->pending;
  ctx->pending = PSCR_OK;
  return st;
}

void pscr_context_destroy(pscr_context *ctx) {
  if (ctx == NULL) return;
  pscr_context_settle(ctx);
  for (int i = 0; i < PSCR_QUEUE_SLOTS; i++) pscr_array_destroy(ctx->qflags[i]);
  if (ctx->ops->fini) ctx->ops->fini(ctx);
  free(ctx);
}

pscr_backend pscr_context_backend(const pscr_context *ctx) {
  return ctx ? ctx->backend : PSCR_BACKEND_CPU;
}

pscr_status pscr_context_set_threads(pscr_context *ctx, int threads) {
  if (ctx == NULL || threads < 0) return PSCR_ERR_INVALID_ARGUMENT;
  ctx->threads = threads;
  return PSCR_OK;
}

pscr_status pscr_array_create(pscr_context *ctx, pscr_dtype dtype, size_t count, pscr_array **arr) {
  if (ctx == NULL || arr == NULL || count == 0 || !pscr_dtype_valid(dtype))
    return PSCR_ERR_INVALID_ARGUMENT;
  size_t esize = pscr_dtype_size(dtype);
  if (count > SIZE_MAX / esize) return PSCR_ERR_OUT_OF_MEMORY;
  pscr_array *a = calloc(1, sizeof *a);
  if (a == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  a->ctx = ctx;
  a->dtype = dtype;
  a->count = count;
  pscr_status st = ctx->ops->alloc(ctx, count * esize, &a->native);
  if (st != PSCR_OK) {
    free(a);
    return st;
  }
  *arr = a;
  return PSCR_OK;
}

pscr_status pscr_array_write(pscr_array *arr, const void *host) {
  if (arr == NULL || host == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  return arr->ctx->ops->write(arr->ctx, arr->native, 0, host,
                              arr->count * pscr_dtype_size(arr->dtype));
}

pscr_status pscr_array_read(const pscr_array *arr, void *host) {
  if (arr == NULL || host == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  return arr->ctx->ops->read(arr->ctx, arr->native, 0, host,
                             arr->count * pscr_dtype_size(arr->dtype));
}

pscr_status pscr_array_copy(pscr_array *dst, const pscr_array *src) {
  if (dst == NULL || src == NULL || dst->ctx != src->ctx || dst->dtype != src->dtype ||
      dst->count != src->count)
    return PSCR_ERR_INVALID_ARGUMENT;
  if (dst == src) return PSCR_OK;
  if (dst->ctx->ops->copy == NULL) return PSCR_ERR_UNSUPPORTED;
  return dst->ctx->ops->copy(dst->ctx, dst->native, src->native,
                             dst->count * pscr_dtype_size(dst->dtype));
}

void *pscr_array_native(pscr_array *arr) { return arr ? arr->native : NULL; }
size_t pscr_array_count(const pscr_array *arr) { return arr ? arr->count : 0; }
pscr_dtype pscr_array_dtype(const pscr_array *arr) { return arr ? arr->dtype : PSCR_F64; }

void pscr_array_destroy(pscr_array *arr) {
  if (arr == NULL) return;
  pscr_context_settle(arr->ctx); /* a queued solve may still use it */
  arr->ctx->ops->release(arr->ctx, arr->native);
  free(arr);
}
