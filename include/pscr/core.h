/* libpscr core: status codes, data types, backends, contexts and device arrays. */
#ifndef PSCR_CORE_H
#define PSCR_CORE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Every fallible libpscr function returns one of these. */
typedef enum {
  PSCR_OK = 0,
  PSCR_ERR_INVALID_ARGUMENT,    /* NULL, zero size, bad stride, unknown enum */
  PSCR_ERR_OUT_OF_MEMORY,       /* host or device allocation failed */
  PSCR_ERR_SINGULAR,            /* matrix (numerically) singular, solve refused */
  PSCR_ERR_NONFINITE,           /* NaN or Inf found in the input */
  PSCR_ERR_NOT_CONVERGED,       /* an iteration (eigen-solver) did not converge */
  PSCR_ERR_UNSUPPORTED,         /* valid request this build/backend cannot serve */
  PSCR_ERR_BACKEND_UNAVAILABLE, /* backend not compiled in, or no device */
  PSCR_ERR_DEVICE,              /* CUDA / OpenCL runtime error */
  PSCR_ERR_IO                   /* tuning or data file unreadable / malformed */
} pscr_status;

/** @return a short English description of @p status; never NULL. */
const char *pscr_status_string(pscr_status status);

/** Scalar types: PSCR_F64 is double, PSCR_C128 is C99 double complex (re, im interleaved). */
typedef enum { PSCR_F64 = 0, PSCR_C128 = 1 } pscr_dtype;

typedef enum { PSCR_BACKEND_CPU = 0, PSCR_BACKEND_CUDA = 1, PSCR_BACKEND_OPENCL = 2 } pscr_backend;

/** @return 1 if @p backend is compiled in AND a device is usable, else 0. */
int pscr_backend_available(pscr_backend backend);

typedef struct pscr_context pscr_context;

/** Waits for the solves queued on @p ctx (pscr_tridiag_solve_arrays_queued,
 * pscr_tridiag_solve_shifted_arrays_queued) and returns the failure of the
 * first that failed since the last call (their status words are shared:
 * PSCR_ERR_NONFINITE before PSCR_ERR_SINGULAR), or PSCR_OK; the next call
 * starts afresh. An addition to API.md. */
pscr_status pscr_context_finish(pscr_context *ctx);

/** Creates a context on device @p device_index of @p backend (ignored for the CPU).
 * GPU kernels are compiled at run time, the first time a context needs them
 * (CUDA: NVRTC, 10-15 s a kernel module). With the environment variable
 * PSCR_CACHE_DIR naming a writable directory, CUDA keeps the compiled modules
 * there and later processes load them at once.
 * @return PSCR_ERR_BACKEND_UNAVAILABLE when the backend is absent or has no such device. */
pscr_status pscr_context_create(pscr_backend backend, int device_index, pscr_context **ctx);
/** Releases everything the context holds. NULL is a no-op. */
void pscr_context_destroy(pscr_context *ctx);

typedef struct pscr_array pscr_array; /* a buffer on the context's device */

/** Allocates @p count elements of @p dtype on the context's device. */
pscr_status pscr_array_create(pscr_context *ctx, pscr_dtype dtype, size_t count, pscr_array **arr);
/** Copies count elements host -> device. */
pscr_status pscr_array_write(pscr_array *arr, const void *host);
/** Copies count elements device -> host. */
pscr_status pscr_array_read(const pscr_array *arr, void *host);
/** @return the CUDA device pointer, the cl_mem, or the host pointer (CPU); NULL for NULL. */
void *pscr_array_native(pscr_array *arr);
/** NULL is a no-op. */
void pscr_array_destroy(pscr_array *arr);

/* Additions to API.md. */
/** Copies src's elements into dst on the device, both arrays of one context with the same
 * dtype and count (dst == src: nothing to do), and waits for the copy, as pscr_array_write
 * does: e.g. a right-hand side kept on the device for repeated solves.
 * @return PSCR_ERR_INVALID_ARGUMENT for NULL or mismatched arrays (nothing copied). */
pscr_status pscr_array_copy(pscr_array *dst, const pscr_array *src);
/** @return the array's element count and dtype (0 / PSCR_F64 for NULL). */
size_t pscr_array_count(const pscr_array *arr);
pscr_dtype pscr_array_dtype(const pscr_array *arr);
/** @return the backend of a context (PSCR_BACKEND_CPU for NULL). */
pscr_backend pscr_context_backend(const pscr_context *ctx);
/** Sets the number of CPU threads the context uses (0 = all). */
pscr_status pscr_context_set_threads(pscr_context *ctx, int threads);

#ifdef __cplusplus
}
#endif
#endif
