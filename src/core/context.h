/* Internal: contexts, arrays and the backend function table (DESIGN.md "One
 * driver, three backends"). A backend implements these operations; the
 * tridiagonal API and the PSCR driver call them and nothing else. */
#ifndef PSCR_CORE_CONTEXT_H
#define PSCR_CORE_CONTEXT_H

#include <pscr/pscr.h>

struct pscr_backend_ops;
struct gpu_device; /* src/backend/gpu/gpu_tridiag.h */

/* Solves a context queues before the next one waits for them (their status
 * words: pscr_context_finish reads one small buffer a solve). */
#define PSCR_QUEUE_SLOTS 32

struct pscr_context {
  pscr_backend backend;
  const struct pscr_backend_ops *ops;
  int device_index;
  int threads; /* CPU threads (0 = all) */
  void *impl;  /* backend-private state */
  int queued;          /* solves queued since the last settle (tridiag.h's *_queued entries) */
  pscr_status pending; /* the first failure of queued solves, for pscr_context_finish */
  /* GPUs: the queued solves' status words, a buffer each (made on first use) */
  struct pscr_array *qflags[PSCR_QUEUE_SLOTS];
};

struct pscr_array {
  pscr_context *ctx;
  pscr_dtype dtype;
  size_t count;
  void *native; /* host pointer, CUdeviceptr cast, or cl_mem */
};

static inline size_t pscr_dtype_size(pscr_dtype t) { return t == PSCR_C128 ? 16 : 8; }
static inline int pscr_dtype_valid(pscr_dtype t) { return t == PSCR_F64 || t == PSCR_C128; }

/* A tridiagonal request on device memory (pscr_tridiag_solve_arrays). */
typedef struct {
  pscr_td_algorithm alg;
  pscr_dtype dtype;
  size_t n, batch, stride;
  const pscr_array *dl, *d, *du;
  pscr_array *b;
} pscr_td_request;

/* A shifted request: (A + shift[s] M) x_s = b_s, all pointers native to the backend. */
typedef struct {
  pscr_td_algorithm alg;
  pscr_dtype dtype;
  size_t n, nshift;
  const pscr_array *a_dl, *a_d, *a_du, *m_dl, *m_d, *m_du, *shift;
  pscr_array *b;
} pscr_td_shifted_request;

struct pscr_backend_ops {
  const char *name;
  int (*available)(void);
  pscr_status (*init)(pscr_context *ctx, int device_index);
  void (*fini)(pscr_context *ctx);
  pscr_status (*alloc)(pscr_context *ctx, size_t bytes, void **native);
  /* Optional: an allocation the library alone uses (plans' arrays, never a
   * pscr_array's native), which release, write, read and the device's
   * launches take like alloc's; NULL: alloc. */
  pscr_status (*alloc_internal)(pscr_context *ctx, size_t bytes, void **native);
  void (*release)(pscr_context *ctx, void *native);
  pscr_status (*write)(pscr_context *ctx, void *native, size_t offset, const void *host,
                       size_t bytes);
  pscr_status (*read)(pscr_context *ctx, const void *native, size_t offset, void *host,
                      size_t bytes);
  /* bytes from src to dst on the device, complete on return (pscr_array_copy) */
  pscr_status (*copy)(pscr_context *ctx, void *dst, const void *src, size_t bytes);
  pscr_status (*tridiag)(pscr_context *ctx, const pscr_td_request *req, pscr_td_report *rep);
  pscr_status (*tridiag_shifted)(pscr_context *ctx, const pscr_td_shifted_request *req,
                                 pscr_td_report *rep);
  /* GPU backends: fills the shared device interface of src/backend/gpu (the
   * PSCR stages and tridiagonal drivers run on it); NULL on the CPU. */
  pscr_status (*gpu)(pscr_context *ctx, struct gpu_device *g);
  /* Optional (NULL = unknown: no automatic chunking of host-data solves,
   * src/tridiag/chunked.c): bytes the context can still allocate on its
   * device for one solve, and the device's memory size. */
  pscr_status (*mem_info)(pscr_context *ctx, size_t *free_bytes, size_t *total_bytes);
  /* Optional (NULL: queued requests are solved at once): enqueues a plain
   * request without waiting for it, as the context's solve number
   * ctx->queued since the last settle, or returns UNSUPPORTED for an
   * algorithm it cannot queue; finish waits for the queued solves and returns
   * their status. */
  pscr_status (*tridiag_queued)(pscr_context *ctx, const pscr_td_request *req);
  /* Optional (NULL: solved at once): tridiag_queued for a shifted request. */
  pscr_status (*tridiag_shifted_queued)(pscr_context *ctx, const pscr_td_shifted_request *req);
  pscr_status (*finish)(pscr_context *ctx);
};

/* ops->alloc_internal where the backend has it, else ops->alloc. */
static inline pscr_status pscr_alloc_internal(pscr_context *ctx, size_t bytes, void **native) {
  return ctx->ops->alloc_internal ? ctx->ops->alloc_internal(ctx, bytes, native)
                                  : ctx->ops->alloc(ctx, bytes, native);
}

/* Waits for the context's queued solves, if any, and keeps their failure
 * for pscr_context_finish: called before any work that reuses their status
 * words or memory (every solve entry, array destruction, context teardown). */
void pscr_context_settle(pscr_context *ctx);

/* The backends compiled into this build; NULL entries answer "not available". */
const struct pscr_backend_ops *pscr_backend_lookup(pscr_backend backend);
extern const struct pscr_backend_ops pscr_cpu_ops;
#if PSCR_HAVE_CUDA
extern const struct pscr_backend_ops pscr_cuda_ops;
#endif
#if PSCR_HAVE_OPENCL
extern const struct pscr_backend_ops pscr_opencl_ops;
#endif

#endif
