/* The public tridiagonal entry points: argument checks, then the backend. */
#include <stdint.h>
#include <stdlib.h>

#include "core/context.h"
#include "tridiag/chunked.h"
#include "tridiag/td.h"

static int alg_known(pscr_td_algorithm alg) { return (unsigned)alg < PSCR_TD_ALGORITHM_COUNT; }

/* Elements spanned by a strided batch, or 0 on overflow. */
static size_t span(size_t n, size_t batch, size_t stride) {
  if (batch > 1 && stride > (SIZE_MAX / 16 - n) / (batch - 1)) return 0;
  return (batch - 1) * stride + n;
}

static pscr_status check_request(const pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype,
                                 size_t n, size_t batch, size_t stride) {
  if (ctx == NULL || !alg_known(alg) || !pscr_dtype_valid(dtype) || n == 0 || batch == 0 ||
      stride < n)
    return PSCR_ERR_INVALID_ARGUMENT;
  if (span(n, batch, stride) == 0) return PSCR_ERR_OUT_OF_MEMORY;
  return PSCR_OK;
}

static void report_reset(pscr_td_report *rep, pscr_td_algorithm alg) {
  if (rep) *rep = (pscr_td_report){.used = alg};
}

/* A host buffer seen as an array of the CPU backend (no copy). */
static pscr_array host_view(pscr_context *ctx, pscr_dtype dtype, size_t count, const void *p) {
  return (pscr_array){.ctx = ctx, .dtype = dtype, .count = count, .native = (void *)p};
}

/* Uploads host data into a new device array (GPU backends). */
static pscr_status upload(pscr_context *ctx, pscr_dtype dtype, size_t count, const void *host,
                          pscr_array **arr) {
  pscr_status st = pscr_array_create(ctx, dtype, count, arr);
  if (st == PSCR_OK && host) st = pscr_array_write(*arr, host);
  return st;
}

pscr_status pscr_tridiag_solve(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                               size_t batch, size_t stride, const void *dl, const void *d,
                               const void *du, void *b, pscr_td_report *report) {
  pscr_status st = check_request(ctx, alg, dtype, n, batch, stride);
  if (st != PSCR_OK) return st;
  if (dl == NULL || d == NULL || du == NULL || b == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  report_reset(report, alg);
  pscr_context_settle(ctx);
  size_t count = span(n, batch, stride);
  if (ctx->backend == PSCR_BACKEND_CPU) {
    pscr_array adl = host_view(ctx, dtype, count, dl), ad = host_view(ctx, dtype, count, d),
               adu = host_view(ctx, dtype, count, du), ab = host_view(ctx, dtype, count, b);
    return pscr_tridiag_solve_arrays(ctx, alg, dtype, n, batch, stride, &adl, &ad, &adu, &ab,
                                     report);
  }
  /* Device backends: NaN/Inf are refused here, before anything moves. */
  int dominant = 0, th = ctx->threads;
  int finite = dtype == PSCR_F64 ? td_scan_d(n, batch, stride, dl, d, du, th, &dominant)
                                 : td_scan_z(n, batch, stride, dl, d, du, th, &dominant);
  if (!finite) return PSCR_ERR_NONFINITE;
  td_chunking chunks; /* one system larger than the device: streamed in chunks */
  if (batch == 1 && td_chunk_plan(ctx, alg, dtype, n, dominant, &chunks))
    return td_solve_chunked(ctx, &chunks, dtype, n, dl, d, du, b, report);
  pscr_array *arr[4] = {NULL, NULL, NULL, NULL};
  const void *host[4] = {dl, d, du, b};
  for (int i = 0; i < 4 && st == PSCR_OK; i++) st = upload(ctx, dtype, count, host[i], &arr[i]);
  if (st == PSCR_OK)
    st = pscr_tridiag_solve_arrays(ctx, alg, dtype, n, batch, stride, arr[0], arr[1], arr[2],
                                   arr[3], report);
  if (st == PSCR_OK) st = pscr_array_read(arr[3], b);
  for (int i = 0; i < 4; i++) pscr_array_destroy(arr[i]);
  return st;
}

static int array_ok(const pscr_context *ctx, const pscr_array *a, pscr_dtype dtype, size_t count) {
  return a != NULL && a->ctx == ctx && a->dtype == dtype && a->count >= count;
}

/* check_request, and the four arrays of ctx, of dtype and long enough. */
static pscr_status check_arrays(const pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype,
                                size_t n, size_t batch, size_t stride, const pscr_array *dl,
                                const pscr_array *d, const pscr_array *du, const pscr_array *b) {
  pscr_status st = check_request(ctx, alg, dtype, n, batch, stride);
  if (st != PSCR_OK) return st;
  size_t count = span(n, batch, stride);
  if (!array_ok(ctx, dl, dtype, count) || !array_ok(ctx, d, dtype, count) ||
      !array_ok(ctx, du, dtype, count) || !array_ok(ctx, b, dtype, count))
    return PSCR_ERR_INVALID_ARGUMENT;
  return PSCR_OK;
}

pscr_status pscr_tridiag_solve_arrays(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype,
                                      size_t n, size_t batch, size_t stride, const pscr_array *dl,
                                      const pscr_array *d, const pscr_array *du, pscr_array *b,
                                      pscr_td_report *report) {
  pscr_status st = check_arrays(ctx, alg, dtype, n, batch, stride, dl, d, du, b);
  if (st != PSCR_OK) return st;
  report_reset(report, alg);
  pscr_context_settle(ctx);
  pscr_td_request req = {alg, dtype, n, batch, stride, dl, d, du, b};
  return ctx->ops->tridiag(ctx, &req, report);
}

/* A solve at once in place of a queued one: its numerical failure kept for
 * pscr_context_finish, as a queued solve's would be. */
static pscr_status keep_failure(pscr_context *ctx, pscr_status st) {
  if (st == PSCR_ERR_NONFINITE || st == PSCR_ERR_SINGULAR) {
    if (ctx->pending == PSCR_OK) ctx->pending = st;
    st = PSCR_OK;
  }
  return st;
}

pscr_status pscr_tridiag_solve_arrays_queued(pscr_context *ctx, pscr_td_algorithm alg,
                                             pscr_dtype dtype, size_t n, size_t batch,
                                             size_t stride, const pscr_array *dl,
                                             const pscr_array *d, const pscr_array *du,
                                             pscr_array *b) {
  pscr_status st = check_arrays(ctx, alg, dtype, n, batch, stride, dl, d, du, b);
  if (st != PSCR_OK) return st;
  /* AUTO's stable choice without the dominance scan, which would wait */
  if (alg == PSCR_TD_AUTO) alg = PSCR_TD_SPIKE_DIAG_PIVOT;
  pscr_td_request req = {alg, dtype, n, batch, stride, dl, d, du, b};
  if (ctx->ops->tridiag_queued) { /* UNSUPPORTED: a solver the device does not queue */
    st = ctx->ops->tridiag_queued(ctx, &req);
    if (st == PSCR_OK) ctx->queued++;
    if (st != PSCR_ERR_UNSUPPORTED) return st;
  }
  /* solved at once (the CPU; solvers a device does not queue), its failure kept */
  pscr_context_settle(ctx);
  return keep_failure(ctx, ctx->ops->tridiag(ctx, &req, NULL));
}

pscr_status pscr_tridiag_solve_shifted(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype,
                                       size_t n, size_t nshift, const void *a_dl, const void *a_d,
                                       const void *a_du, const void *m_dl, const void *m_d,
                                       const void *m_du, const void *shift, void *b,
                                       pscr_td_report *report) {
  pscr_status st = check_request(ctx, alg, dtype, n, nshift, n);
  if (st != PSCR_OK) return st;
  if (a_dl == NULL || a_d == NULL || a_du == NULL || m_d == NULL || shift == NULL || b == NULL ||
      (m_dl == NULL) != (m_du == NULL))
    return PSCR_ERR_INVALID_ARGUMENT;
  report_reset(report, alg);
  pscr_context_settle(ctx);
  pscr_array *arr[8] = {NULL};
  const void *host[8] = {a_dl, a_d, a_du, m_dl, m_d, m_du, shift, b};
  size_t counts[8] = {n, n, n, n, n, n, nshift, n * nshift};
  pscr_array views[8];
  if (ctx->backend == PSCR_BACKEND_CPU) {
    for (int i = 0; i < 8; i++) {
      views[i] = host_view(ctx, dtype, counts[i], host[i]);
      arr[i] = host[i] ? &views[i] : NULL;
    }
  } else {
    for (int i = 0; i < 8 && st == PSCR_OK; i++)
      if (host[i]) st = upload(ctx, dtype, counts[i], host[i], &arr[i]);
  }
  if (st == PSCR_OK) {
    pscr_td_shifted_request req = {alg,    dtype,  n,      nshift, arr[0], arr[1],
                                   arr[2], arr[3], arr[4], arr[5], arr[6], arr[7]};
    st = ctx->ops->tridiag_shifted(ctx, &req, report);
  }
  if (ctx->backend != PSCR_BACKEND_CPU) {
    if (st == PSCR_OK) st = pscr_array_read(arr[7], b);
    for (int i = 0; i < 8; i++) pscr_array_destroy(arr[i]);
  }
  return st;
}

/* check_request, and the arrays of a shifted request: of ctx and dtype, A and
 * M of n entries (m_dl and m_du both or neither), shift of nshift, b of
 * n * nshift. */
static pscr_status check_shifted_arrays(const pscr_context *ctx,
                                        const pscr_td_shifted_request *r) {
  pscr_status st = check_request(ctx, r->alg, r->dtype, r->n, r->nshift, r->n);
  if (st != PSCR_OK) return st;
  pscr_dtype t = r->dtype;
  size_t n = r->n; /* n * nshift fits: check_request's span */
  if (!array_ok(ctx, r->a_dl, t, n) || !array_ok(ctx, r->a_d, t, n) ||
      !array_ok(ctx, r->a_du, t, n) || !array_ok(ctx, r->m_d, t, n) ||
      (r->m_dl == NULL) != (r->m_du == NULL) || (r->m_dl && !array_ok(ctx, r->m_dl, t, n)) ||
      (r->m_du && !array_ok(ctx, r->m_du, t, n)) || !array_ok(ctx, r->shift, t, r->nshift) ||
      !array_ok(ctx, r->b, t, n * r->nshift))
    return PSCR_ERR_INVALID_ARGUMENT;
  return PSCR_OK;
}

pscr_status pscr_tridiag_solve_shifted_arrays(pscr_context *ctx, pscr_td_algorithm alg,
                                              pscr_dtype dtype, size_t n, size_t nshift,
                                              const pscr_array *a_dl, const pscr_array *a_d,
                                              const pscr_array *a_du, const pscr_array *m_dl,
                                              const pscr_array *m_d, const pscr_array *m_du,
                                              const pscr_array *shift, pscr_array *b,
                                              pscr_td_report *report) {
  pscr_td_shifted_request req = {alg, dtype, n, nshift, a_dl, a_d, a_du, m_dl, m_d, m_du, shift, b};
  pscr_status st = check_shifted_arrays(ctx, &req);
  if (st != PSCR_OK) return st;
  report_reset(report, alg);
  pscr_context_settle(ctx);
  return ctx->ops->tridiag_shifted(ctx, &req, report);
}

pscr_status pscr_tridiag_solve_shifted_arrays_queued(pscr_context *ctx, pscr_td_algorithm alg,
                                                     pscr_dtype dtype, size_t n, size_t nshift,
                                                     const pscr_array *a_dl, const pscr_array *a_d,
                                                     const pscr_array *a_du,
                                                     const pscr_array *m_dl, const pscr_array *m_d,
                                                     const pscr_array *m_du,
                                                     const pscr_array *shift, pscr_array *b) {
  pscr_td_shifted_request req = {alg, dtype, n, nshift, a_dl, a_d, a_du, m_dl, m_d, m_du, shift, b};
  pscr_status st = check_shifted_arrays(ctx, &req);
  if (st != PSCR_OK) return st;
  /* AUTO's stable choice without the dominance scan, which would wait */
  if (req.alg == PSCR_TD_AUTO) req.alg = PSCR_TD_SPIKE_DIAG_PIVOT;
  if (ctx->ops->tridiag_shifted_queued) { /* UNSUPPORTED: a solver the device does not queue */
    st = ctx->ops->tridiag_shifted_queued(ctx, &req);
    if (st == PSCR_OK) ctx->queued++;
    if (st != PSCR_ERR_UNSUPPORTED) return st;
  }
  /* solved at once (the CPU; solvers a device does not queue), its failure kept */
  pscr_context_settle(ctx);
  return keep_failure(ctx, ctx->ops->tridiag_shifted(ctx, &req, NULL));
}
