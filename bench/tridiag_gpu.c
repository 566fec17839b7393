/* GPU tridiagonal benchmark: libpscr's CUDA engine and cuSPARSE on the same
 * device data in the same run. One JSON line per measurement: median of
 * >= 20 timed runs after warm-up (CUDA events on the legacy stream, which
 * the library's blocking stream is ordered with), GB/s of the bytes that must
 * move, and floor_ratio = time / (those bytes / measured copy bandwidth).
 * The right-hand side is restored (untimed) before every run. Built with
 * CUDA only (PSCR_BENCH_CUDA); usage: bench_tridiag_gpu [quick | f64 | c128 | sweep [c128]],
 * or one case: bench_tridiag_gpu case {one|batch|shifted} N BATCH [ALG [random [c128]]]
 * (ALG by pscr_td_algorithm_name, default cr_pcr_thomas; for profilers; tuning from
 * PSCR_BENCH_TUNE="name=value,..."), or one case on every GPU backend:
 * bench_tridiag_gpu vs {batch|shifted} N BATCH [ALG [random [c128]]] (versus()).
 * PSCR_BENCH_BATCHES_ONLY=1 skips the one-system rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timer.h"
#include "testing.h"

#if !PSCR_BENCH_CUDA
int main(void) {
  fprintf(stderr, "bench_tridiag_gpu: built without CUDA\n");
  return 0;
}
#else
#include <cuda_runtime.h>
#include <cusparse.h>

#define REPS 21
#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                   \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)
#define CS(x)                                                                                      \
  do {                                                                                             \
    cusparseStatus_t e_ = (x);                                                                     \
    if (e_ != CUSPARSE_STATUS_SUCCESS) {                                                           \
      fprintf(stderr, "%s:%d cusparse %d\n", __FILE__, __LINE__, (int)e_);                         \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

typedef struct {
  pscr_context *ctx;
  cusparseHandle_t sp;
  cudaEvent_t e0, e1;
  double bw; /* measured copy bandwidth, bytes/s (read + write) */
  const char *device;
  double call_ms; /* the last time_it's median host time in the call (its return) */
} bench;

typedef struct {
  const char *what, *matrix, *impl, *alg;
  pscr_dtype t;
  size_t n, batch;
  double bytes; /* that must move */
} row;

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void emit(bench *B, const row *r, double ms, double err) {
  double floor_ms = 1e3 * r->bytes / B->bw;
  printf("{\"what\":\"%s\",\"n\":%zu,\"batch\":%zu,\"dtype\":\"%s\",\"matrix\":\"%s\","
         "\"impl\":\"%s\",\"alg\":\"%s\",\"median_ms\":%.4f,\"gbps\":%.1f,\"floor_ms\":%.4f,"
         "\"floor_ratio\":%.2f,\"backward_error\":%.2e,\"call_ms\":%.4f}\n",
         r->what, r->n, r->batch, r->t == PSCR_F64 ? "f64" : "c128", r->matrix, r->impl, r->alg, ms,
         r->bytes / (ms * 1e-3) / 1e9, floor_ms, ms / floor_ms, err, B->call_ms);
  fflush(stdout);
}

/* Device buffers of one problem (plain layout, b0 = the saved rhs). */
typedef struct {
  pscr_array *dl, *d, *du, *b;
  void *b0, *work;
  size_t count, es;
} prob;

typedef int (*solver)(bench *B, prob *p, const row *r, void *arg);

/* Times `fn` (median of REPS after 3 warm-ups), restoring b before each run;
 * B->call_ms: the median host time until fn returned (a queued solve: its
 * host work before and between its launches). */
static double time_it(bench *B, prob *p, const row *r, solver fn, void *arg, int *failed) {
  double t[REPS], h[REPS];
  *failed = 0;
  for (int k = 0; k < REPS + 3; k++) {
    CK(cudaMemcpy(pscr_array_native(p->b), p->b0, p->count * p->es, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(B->e0, 0));
    double h0 = pscr_wtime();
    if (fn(B, p, r, arg)) {
      *failed = 1;
      return 0;
    }
    if (k >= 3) h[k - 3] = 1e3 * (pscr_wtime() - h0);
    CK(cudaEventRecord(B->e1, 0));
    CK(cudaEventSynchronize(B->e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, B->e0, B->e1));
    if (k >= 3) t[k - 3] = ms;
  }
  qsort(t, REPS, sizeof t[0], cmp);
  qsort(h, REPS, sizeof h[0], cmp);
  B->call_ms = h[REPS / 2];
  return t[REPS / 2];
}

/* The same solve queued: no status read, so no host round trip inside the
 * timed span (pscr_context_finish after the timing checks the status). */
static int run_queued(bench *B, prob *p, const row *r, void *arg) {
  pscr_td_algorithm alg = *(pscr_td_algorithm *)arg;
  pscr_status st = pscr_tridiag_solve_arrays_queued(B->ctx, alg, r->t, r->n, r->batch, r->n,
                                                    p->dl, p->d, p->du, p->b);
  if (st != PSCR_OK) fprintf(stderr, "pscr-queued %s: %s\n", r->alg, pscr_status_string(st));
  return st != PSCR_OK;
}

static int run_pscr(bench *B, prob *p, const row *r, void *arg) {
  pscr_td_algorithm alg = *(pscr_td_algorithm *)arg;
  pscr_status st = pscr_tridiag_solve_arrays(B->ctx, alg, r->t, r->n, r->batch, r->n, p->dl, p->d,
                                             p->du, p->b, NULL);
  if (st != PSCR_OK) fprintf(stderr, "pscr %s: %s\n", r->alg, pscr_status_string(st));
  return st != PSCR_OK;
}

/* Normwise backward error of the first system after the last timed run. */
static double check(prob *p, const row *r, const void *hdl, const void *hd, const void *hdu,
                    const void *hb) {
  void *x = pt_alloc(r->t, r->n);
  CK(cudaMemcpy(x, pscr_array_native(p->b), r->n * p->es, cudaMemcpyDeviceToHost));
  double e = pt_backward_error(r->t, r->n, hdl, hd, hdu, x, hb);
  free(x);
  return e;
}

/* Tuning hook of the CUDA backend (a weak reference: NULL if absent). */
pscr_status pscr_cuda_tune(pscr_context *ctx, const char *name, int value) __attribute__((weak));
pscr_status pscr_cuda_kernel_stat(const pscr_context *ctx, size_t i, const char **name,
                                  unsigned long *count, double *seconds) __attribute__((weak));
pscr_status pscr_opencl_tune(pscr_context *ctx, const char *name, int value) __attribute__((weak));
size_t pscr_opencl_kernel_wg(const pscr_context *ctx, const char *name) __attribute__((weak));
int pscr_opencl_bounded_entries(const pscr_context *ctx) __attribute__((weak));
pscr_status pscr_opencl_kernel_stat(const pscr_context *ctx, size_t i, const char **name,
                                    unsigned long *count, double *seconds) __attribute__((weak));

/* With tune profile=1 (PSCR_BENCH_TUNE): each kernel's launches and device
 * time on ctx, every launch timed alone (the case's own times are then
 * serialized too). */
static void print_profile(const pscr_context *ctx, const char *backend,
                          pscr_status (*stat)(const pscr_context *, size_t, const char **,
                                              unsigned long *, double *)) {
  const char *kn;
  unsigned long kc;
  double ks;
  for (size_t i = 0; stat != NULL && stat(ctx, i, &kn, &kc, &ks) == PSCR_OK; i++)
    if (kc > 0 && ks > 0) /* counted always, timed only with tune profile=1 */
      printf("# profile %-6s %-20s %6lu launches %9.1f us each\n", backend, kn, kc,
             1e6 * ks / (double)kc);
}

/* ---- cuSPARSE ---- */
typedef struct {
  int kind; /* 0 gtsv2, 1 gtsv2_nopivot, 2 gtsv2StridedBatch, 3..5 gtsvInterleavedBatch algo 0..2 */
  void *buf;
  void *il[4]; /* interleaved copies (kinds 3..5) */
} sp_arg;

static size_t sp_buffer(bench *B, prob *p, const row *r, sp_arg *a) {
  size_t bytes = 0;
  int n = (int)r->n, batch = (int)r->batch;
  void *dl = pscr_array_native(p->dl), *d = pscr_array_native(p->d), *du = pscr_array_native(p->du),
       *x = pscr_array_native(p->b);
  int z = r->t == PSCR_C128;
  switch (a->kind) {
  case 0:
    CS(z ? cusparseZgtsv2_bufferSizeExt(B->sp, n, 1, dl, d, du, x, n, &bytes)
         : cusparseDgtsv2_bufferSizeExt(B->sp, n, 1, dl, d, du, x, n, &bytes));
    break;
  case 1:
    CS(z ? cusparseZgtsv2_nopivot_bufferSizeExt(B->sp, n, 1, dl, d, du, x, n, &bytes)
         : cusparseDgtsv2_nopivot_bufferSizeExt(B->sp, n, 1, dl, d, du, x, n, &bytes));
    break;
  case 2:
    CS(z ? cusparseZgtsv2StridedBatch_bufferSizeExt(B->sp, n, dl, d, du, x, batch, n, &bytes)
         : cusparseDgtsv2StridedBatch_bufferSizeExt(B->sp, n, dl, d, du, x, batch, n, &bytes));
    break;
  default:
    CS(z ? cusparseZgtsvInterleavedBatch_bufferSizeExt(B->sp, a->kind - 3, n, a->il[0], a->il[1],
                                                       a->il[2], a->il[3], batch, &bytes)
         : cusparseDgtsvInterleavedBatch_bufferSizeExt(B->sp, a->kind - 3, n, a->il[0], a->il[1],
                                                       a->il[2], a->il[3], batch, &bytes));
  }
  return bytes;
}

static int run_sp(bench *B, prob *p, const row *r, void *arg) {
  sp_arg *a = arg;
  int n = (int)r->n, batch = (int)r->batch, z = r->t == PSCR_C128;
  void *dl = pscr_array_native(p->dl), *d = pscr_array_native(p->d), *du = pscr_array_native(p->du),
       *x = pscr_array_native(p->b);
  switch (a->kind) {
  case 0:
    CS(z ? cusparseZgtsv2(B->sp, n, 1, dl, d, du, x, n, a->buf)
         : cusparseDgtsv2(B->sp, n, 1, dl, d, du, x, n, a->buf));
    break;
  case 1:
    CS(z ? cusparseZgtsv2_nopivot(B->sp, n, 1, dl, d, du, x, n, a->buf)
         : cusparseDgtsv2_nopivot(B->sp, n, 1, dl, d, du, x, n, a->buf));
    break;
  case 2:
    CS(z ? cusparseZgtsv2StridedBatch(B->sp, n, dl, d, du, x, batch, n, a->buf)
         : cusparseDgtsv2StridedBatch(B->sp, n, dl, d, du, x, batch, n, a->buf));
    break;
  default:
    /* interleaved: the solve works in place on copies of the coefficients */
    CS(z ? cusparseZgtsvInterleavedBatch(B->sp, a->kind - 3, n, a->il[0], a->il[1], a->il[2], x,
                                         batch, a->buf)
         : cusparseDgtsvInterleavedBatch(B->sp, a->kind - 3, n, a->il[0], a->il[1], a->il[2], x,
                                         batch, a->buf));
  }
  return 0;
}

static const char *sp_names[] = {"gtsv2", "gtsv2_nopivot", "gtsv2StridedBatch",
                                 "gtsvInterleavedBatch0", "gtsvInterleavedBatch1",
                                 "gtsvInterleavedBatch2"};

/* ---- problems ---- */
static void fill(pt_rng *rng, pscr_dtype t, size_t n, size_t batch, int dominant, void *dl, void *d,
                 void *du, void *b) {
  size_t count = n * batch;
  if (dominant)
    pt_fill_dominant(rng, t, n, batch, n, dl, d, du, 0.5);
  else {
    pt_fill_uniform(rng, t, dl, count, -1, 1);
    pt_fill_uniform(rng, t, d, count, -1, 1);
    pt_fill_uniform(rng, t, du, count, -1, 1);
  }
  for (size_t s = 0; s < batch; s++) { /* the corners cuSPARSE wants zero */
    pt_set(t, dl, s * n, 0);
    pt_set(t, du, s * n + n - 1, 0);
  }
  pt_fill_uniform(rng, t, b, count, -1, 1);
}

static void upload(bench *B, pscr_dtype t, size_t count, const void *h, pscr_array **a) {
  if (pscr_array_create(B->ctx, t, count, a) != PSCR_OK || pscr_array_write(*a, h) != PSCR_OK) {
    fprintf(stderr, "upload failed\n");
    exit(1);
  }
}

/* All implementations on one plain problem (one system or a strided batch). */
static void plain(bench *B, pt_rng *rng, pscr_dtype t, size_t n, size_t batch, int dominant,
                  const pscr_td_algorithm *algs, int nalg, const int *kinds, int nkind) {
  size_t count = n * batch, es = pt_size(t);
  void *h[4];
  for (int i = 0; i < 4; i++) h[i] = pt_alloc(t, count);
  fill(rng, t, n, batch, dominant, h[0], h[1], h[2], h[3]);
  prob p = {.count = count, .es = es};
  upload(B, t, count, h[0], &p.dl), upload(B, t, count, h[1], &p.d);
  upload(B, t, count, h[2], &p.du), upload(B, t, count, h[3], &p.b);
  CK(cudaMalloc(&p.b0, count * es));
  CK(cudaMemcpy(p.b0, h[3], count * es, cudaMemcpyHostToDevice));
  row r = {.what = batch == 1 ? "one" : "batch", .matrix = dominant ? "dominant" : "random",
           .t = t, .n = n, .batch = batch, .bytes = 5.0 * es * (double)count};
  for (int k = 0; k < nalg; k++) {
    r.impl = "pscr";
    r.alg = pscr_td_algorithm_name(algs[k]);
    int failed;
    double ms = time_it(B, &p, &r, run_pscr, (void *)&algs[k], &failed);
    if (!failed) emit(B, &r, ms, check(&p, &r, h[0], h[1], h[2], h[3]));
    if (algs[k] != PSCR_TD_CR_PCR_THOMAS && algs[k] != PSCR_TD_SPIKE_DIAG_PIVOT) continue;
    r.impl = "pscr-queued"; /* the GPUs' queued solvers */
    ms = time_it(B, &p, &r, run_queued, (void *)&algs[k], &failed);
    pscr_status fin = pscr_context_finish(B->ctx);
    if (fin != PSCR_OK) fprintf(stderr, "pscr-queued %s: %s\n", r.alg, pscr_status_string(fin));
    if (!failed && fin == PSCR_OK) emit(B, &r, ms, check(&p, &r, h[0], h[1], h[2], h[3]));
  }
  if (nkind > 0 && pscr_cuda_tune != NULL) pscr_cuda_tune(B->ctx, "release_work", 1);
  for (int k = 0; k < nkind; k++) {
    sp_arg a = {.kind = kinds[k]};
    if (a.kind >= 3) { /* interleaved copies, built once and not timed */
      void *hi = pt_alloc(t, count);
      for (int v = 0; v < 3; v++) {
        for (size_t s = 0; s < batch; s++)
          for (size_t i = 0; i < n; i++) memcpy((char *)hi + (i * batch + s) * es, (char *)h[v] + (s * n + i) * es, es);
        CK(cudaMalloc(&a.il[v], count * es));
        CK(cudaMemcpy(a.il[v], hi, count * es, cudaMemcpyHostToDevice));
      }
      free(hi);
      a.il[3] = pscr_array_native(p.b);
    }
    size_t bytes = sp_buffer(B, &p, &r, &a);
    if (cudaMalloc(&a.buf, bytes ? bytes : 16) != cudaSuccess) { /* e.g. gtsv2 at C128 2^26 */
      cudaGetLastError();
      fprintf(stderr, "cusparse %s n=%zu: no memory for its %zu-byte buffer, skipped\n",
              sp_names[a.kind], r.n, bytes);
      for (int v = 0; v < 3; v++) cudaFree(a.il[v]);
      continue;
    }
    r.impl = "cusparse";
    r.alg = sp_names[a.kind];
    int failed;
    double ms = time_it(B, &p, &r, run_sp, &a, &failed);
    /* the interleaved solvers overwrite their coefficient copies: time only */
    if (!failed) emit(B, &r, ms, a.kind >= 3 ? -1.0 : check(&p, &r, h[0], h[1], h[2], h[3]));
    cudaFree(a.buf);
    for (int v = 0; v < 3; v++) cudaFree(a.il[v]);
  }
  pscr_array_destroy(p.dl), pscr_array_destroy(p.d), pscr_array_destroy(p.du);
  pscr_array_destroy(p.b);
  cudaFree(p.b0);
  for (int i = 0; i < 4; i++) free(h[i]);
  /* the library's scratch (PCR on 2^26 C128 holds 8 GiB) */
  if (pscr_cuda_tune != NULL) pscr_cuda_tune(B->ctx, "release_work", 1);
}

/* Shifted systems (A + shift_s M) x_s = b_s: only b read and x written per
 * system. Device arrays (pscr_tridiag_solve_shifted_arrays, then its queued
 * form: pscr-queued), timed as the plain rows are: events around the call, b
 * restored before each run. */
typedef struct {
  pscr_array *h[7];
  pscr_td_algorithm alg;
} shifted_args;

static int run_shifted(bench *B, prob *p, const row *r, void *arg) {
  shifted_args *a = arg;
  pscr_status st = pscr_tridiag_solve_shifted_arrays(B->ctx, a->alg, r->t, r->n, r->batch, a->h[0],
                                                     a->h[1], a->h[2], a->h[3], a->h[4], a->h[5],
                                                     a->h[6], p->b, NULL);
  if (st != PSCR_OK) fprintf(stderr, "shifted %s: %s\n", r->alg, pscr_status_string(st));
  return st != PSCR_OK;
}

/* The same queued, its status read once after the timing (run_queued). */
static int run_shifted_queued(bench *B, prob *p, const row *r, void *arg) {
  shifted_args *a = arg;
  pscr_status st = pscr_tridiag_solve_shifted_arrays_queued(B->ctx, a->alg, r->t, r->n, r->batch,
                                                            a->h[0], a->h[1], a->h[2], a->h[3],
                                                            a->h[4], a->h[5], a->h[6], p->b);
  if (st != PSCR_OK) fprintf(stderr, "shifted queued %s: %s\n", r->alg, pscr_status_string(st));
  return st != PSCR_OK;
}

/* A shifted problem: h[0 .. 2] A, h[3 .. 5] M, h[6] the shifts, *b the
 * right-hand sides (A + s M dominant for every shift). */
static void shifted_fill(pt_rng *rng, pscr_dtype t, size_t n, size_t nshift, void *h[7],
                         void **b) {
  for (int i = 0; i < 6; i++) h[i] = pt_alloc(t, n);
  h[6] = pt_alloc(t, nshift);
  *b = pt_alloc(t, n * nshift);
  pt_fill_dominant(rng, t, n, 1, n, h[0], h[1], h[2], 0.5);
  for (size_t i = 0; i < n; i++) {
    double complex v = pt_get(t, h[1], i);
    pt_set(t, h[1], i, creal(v) < 0 ? -v : v);
    pt_set(t, h[3], i, pt_uniform(rng, -0.5, 0.5));
    pt_set(t, h[4], i, pt_uniform(rng, 2, 3));
    pt_set(t, h[5], i, pt_uniform(rng, -0.5, 0.5));
  }
  for (size_t s = 0; s < nshift; s++) pt_set(t, h[6], s, pt_uniform(rng, 0, 4));
  pt_fill_uniform(rng, t, *b, n * nshift, -1, 1);
}

static void shifted(bench *B, pt_rng *rng, pscr_dtype t, size_t n, size_t nshift,
                    pscr_td_algorithm alg) {
  size_t es = pt_size(t);
  void *h[7], *b;
  shifted_fill(rng, t, n, nshift, h, &b);
  row r = {.what = "shifted", .matrix = "dominant", .impl = "pscr",
           .alg = pscr_td_algorithm_name(alg), .t = t, .n = n, .batch = nshift,
           .bytes = 2.0 * es * (double)(n * nshift)};
  shifted_args a = {.alg = alg};
  prob p = {.count = n * nshift, .es = es};
  int failed = 1;
  for (int i = 0; i < 7; i++)
    if (pscr_array_create(B->ctx, t, i < 6 ? n : nshift, &a.h[i]) != PSCR_OK ||
        pscr_array_write(a.h[i], h[i]) != PSCR_OK)
      goto done;
  if (pscr_array_create(B->ctx, t, n * nshift, &p.b) != PSCR_OK ||
      pscr_array_write(p.b, b) != PSCR_OK)
    goto done;
  CK(cudaMalloc(&p.b0, n * nshift * es));
  CK(cudaMemcpy(p.b0, b, n * nshift * es, cudaMemcpyHostToDevice));
  double ms = time_it(B, &p, &r, run_shifted, &a, &failed);
  if (!failed) emit(B, &r, ms, -1.0);
  if (!failed) {
    r.impl = "pscr-queued";
    ms = time_it(B, &p, &r, run_shifted_queued, &a, &failed);
    pscr_status fin = pscr_context_finish(B->ctx);
    if (fin != PSCR_OK) fprintf(stderr, "shifted queued %s: %s\n", r.alg, pscr_status_string(fin));
    if (!failed && fin == PSCR_OK) emit(B, &r, ms, -1.0);
  }
done:
  if (failed) fprintf(stderr, "shifted %zu x %zu: not timed\n", nshift, n);
  if (p.b0) CK(cudaFree(p.b0));
  pscr_array_destroy(p.b);
  for (int i = 0; i < 7; i++) pscr_array_destroy(a.h[i]), free(h[i]);
  free(b);
}

/* ---- the same solve on every GPU backend (issue 6: OpenCL against CUDA) ----
 * bench_tridiag_gpu vs {batch|shifted} N BATCH [ALG [random [c128]]]: the
 * library's waiting and queued solves on device arrays of each backend there
 * is (CUDA, then OpenCL: NVIDIA's with PSCR_OPENCL_PLATFORM=NVIDIA; tuning
 * from PSCR_BENCH_TUNE on both), timed alike by the host's clock until the
 * call returned (queued: until pscr_context_finish did), b rewritten
 * (untimed) before each run. Rows:
 * impl "cuda", "cuda-queued", "opencl", "opencl-queued"; backward_error of the
 * first system (batch) or, shifted, the largest relative difference to the
 * first backend's x. */
static double wall_it(bench *B, prob *p, const void *hb, const row *r, solver fn, void *arg,
                      int queued, int *failed) {
  double t[REPS];
  *failed = 1;
  for (int k = 0; k < REPS + 3; k++) {
    if (pscr_array_write(p->b, hb) != PSCR_OK || pscr_context_finish(B->ctx) != PSCR_OK) return 0;
    double h0 = pscr_wtime();
    if (fn(B, p, r, arg)) return 0;
    if (queued && pscr_context_finish(B->ctx) != PSCR_OK) return 0;
    if (k >= 3) t[k - 3] = 1e3 * (pscr_wtime() - h0);
  }
  qsort(t, REPS, sizeof t[0], cmp);
  *failed = 0;
  return B->call_ms = t[REPS / 2];
}

static void versus(bench *B, pscr_context *const *ctxs, const char *const *names, int nctx,
                   pt_rng *rng, int is_shifted, pscr_dtype t, size_t n, size_t batch,
                   int dominant, pscr_td_algorithm alg) {
  size_t count = n * batch, es = pt_size(t);
  void *h[7] = {0}, *hb, *x = pt_alloc(t, count), *x0 = pt_alloc(t, count);
  if (is_shifted)
    shifted_fill(rng, t, n, batch, h, &hb);
  else {
    for (int i = 0; i < 3; i++) h[i] = pt_alloc(t, count);
    hb = pt_alloc(t, count);
    fill(rng, t, n, batch, dominant, h[0], h[1], h[2], hb);
  }
  row r = {.what = is_shifted ? "shifted" : batch == 1 ? "one" : "batch",
           .matrix = dominant ? "dominant" : "random", .alg = pscr_td_algorithm_name(alg),
           .t = t, .n = n, .batch = batch, .bytes = (is_shifted ? 2.0 : 5.0) * es * (double)count};
  for (int c = 0; c < nctx; c++) {
    bench Bc = *B;
    Bc.ctx = ctxs[c];
    prob p = {.count = count, .es = es};
    shifted_args a = {.alg = alg};
    int ok = pscr_array_create(Bc.ctx, t, count, &p.b) == PSCR_OK;
    for (int i = 0; i < (is_shifted ? 7 : 3) && ok; i++) {
      size_t len = !is_shifted ? count : i < 6 ? n : batch;
      ok = pscr_array_create(Bc.ctx, t, len, &a.h[i]) == PSCR_OK &&
           pscr_array_write(a.h[i], h[i]) == PSCR_OK;
    }
    p.dl = a.h[0], p.d = a.h[1], p.du = a.h[2];
    for (int queued = 0; queued < 2 && ok; queued++) {
      char impl[32];
      snprintf(impl, sizeof impl, "%s%s", names[c], queued ? "-queued" : "");
      r.impl = impl;
      solver fn = is_shifted ? (queued ? run_shifted_queued : run_shifted)
                             : (queued ? run_queued : run_pscr);
      int failed;
      double ms = wall_it(&Bc, &p, hb, &r, fn, is_shifted ? (void *)&a : (void *)&alg, queued,
                          &failed);
      if (failed || pscr_array_read(p.b, x) != PSCR_OK) {
        fprintf(stderr, "vs %s %zu x %zu: failed\n", impl, batch, n);
        continue;
      }
      double err;
      if (!is_shifted)
        err = pt_backward_error(t, n, h[0], h[1], h[2], x, hb);
      else if (c == 0 && queued == 0)
        err = 0, memcpy(x0, x, count * es);
      else
        err = pt_rel_error(t, count, x, x0);
      emit(&Bc, &r, ms, err);
    }
    pscr_array_destroy(p.b);
    for (int i = 0; i < 7; i++) pscr_array_destroy(a.h[i]);
  }
  for (int i = 0; i < 7; i++) free(h[i]);
  free(hb), free(x), free(x0);
}

static double copy_bandwidth(void) {
  size_t bytes = (size_t)1 << 30;
  void *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 1, bytes));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  double t[REPS];
  for (int k = 0; k < REPS + 3; k++) {
    CK(cudaEventRecord(e0, 0));
    CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(e1, 0));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (k >= 3) t[k - 3] = ms;
  }
  qsort(t, REPS, sizeof t[0], cmp);
  cudaFree(a), cudaFree(b);
  cudaEventDestroy(e0), cudaEventDestroy(e1);
  return 2.0 * (double)bytes / (t[REPS / 2] * 1e-3);
}

/* One case's arguments (case, vs): argv[5] ALG by pscr_td_algorithm_name
 * (default cr_pcr_thomas), argv[6] "random" (else dominant), argv[7] "c128". */
static void case_args(int argc, char **argv, pscr_td_algorithm *alg, pscr_dtype *t,
                      int *dominant) {
  *alg = PSCR_TD_CR_PCR_THOMAS;
  for (int a = 0; argc > 5 && a <= PSCR_TD_GSPIKE; a++)
    if (strcmp(argv[5], pscr_td_algorithm_name((pscr_td_algorithm)a)) == 0)
      *alg = (pscr_td_algorithm)a;
  *t = argc > 7 && strcmp(argv[7], "c128") == 0 ? PSCR_C128 : PSCR_F64;
  *dominant = !(argc > 6 && strcmp(argv[6], "random") == 0);
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
  int only_c128 = argc > 1 && strcmp(argv[1], "c128") == 0;
  int only_f64 = argc > 1 && strcmp(argv[1], "f64") == 0;
  if (!pscr_backend_available(PSCR_BACKEND_CUDA)) {
    fprintf(stderr, "bench_tridiag_gpu: no CUDA device\n");
    return 77;
  }
  bench B = {0};
  struct cudaDeviceProp prop;
  CK(cudaSetDevice(0));
  CK(cudaFree(0));
  CK(cudaGetDeviceProperties(&prop, 0));
  B.device = prop.name;
  CS(cusparseCreate(&B.sp));
  CK(cudaEventCreate(&B.e0));
  CK(cudaEventCreate(&B.e1));
  if (pscr_context_create(PSCR_BACKEND_CUDA, 0, &B.ctx) != PSCR_OK) return 1;
  B.bw = copy_bandwidth();
  printf("{\"what\":\"copy\",\"device\":\"%s\",\"gbps\":%.1f}\n", B.device, B.bw / 1e9);
  pt_rng rng;
  pt_rng_seed(&rng, pt_fresh_seed());
  if (argc > 4 && strcmp(argv[1], "case") == 0) {
    /* PSCR_BENCH_TUNE="name=value,...": tuning of the CUDA backend for this case */
    const char *tune = getenv("PSCR_BENCH_TUNE");
    if (tune && *tune && (pscr_cuda_tune == NULL || pt_apply_tuning(B.ctx, pscr_cuda_tune, tune) != PSCR_OK))
      fprintf(stderr, "PSCR_BENCH_TUNE=%s refused\n", tune);
    pscr_td_algorithm alg;
    pscr_dtype t;
    int dominant;
    case_args(argc, argv, &alg, &t, &dominant);
    size_t n = strtoul(argv[3], NULL, 10), batch = strtoul(argv[4], NULL, 10);
    if (strcmp(argv[2], "shifted") == 0)
      shifted(&B, &rng, t, n, batch, alg);
    else
      plain(&B, &rng, t, n, batch, dominant, &alg, 1, NULL, 0);
    print_profile(B.ctx, "cuda", pscr_cuda_kernel_stat);
    pscr_context_destroy(B.ctx);
    cusparseDestroy(B.sp);
    return 0;
  }
  if (argc > 4 && strcmp(argv[1], "vs") == 0) {
    pscr_context *ctxs[2] = {B.ctx, NULL};
    const char *names[2] = {"cuda", "opencl"};
    int nctx = 1;
    if (pscr_backend_available(PSCR_BACKEND_OPENCL) &&
        pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ctxs[1]) == PSCR_OK)
      nctx = 2;
    else
      fprintf(stderr, "bench_tridiag_gpu vs: no OpenCL device, CUDA alone\n");
    const char *tune = getenv("PSCR_BENCH_TUNE"); /* both backends' */
    if (tune && *tune &&
        (pscr_cuda_tune == NULL || pt_apply_tuning(B.ctx, pscr_cuda_tune, tune) != PSCR_OK ||
         (nctx > 1 && (pscr_opencl_tune == NULL ||
                       pt_apply_tuning(ctxs[1], pscr_opencl_tune, tune) != PSCR_OK))))
      fprintf(stderr, "PSCR_BENCH_TUNE=%s refused\n", tune);
    pscr_td_algorithm alg;
    pscr_dtype t;
    int dominant;
    case_args(argc, argv, &alg, &t, &dominant);
    versus(&B, ctxs, names, nctx, &rng, strcmp(argv[2], "shifted") == 0, t,
           strtoul(argv[3], NULL, 10), strtoul(argv[4], NULL, 10), dominant, alg);
    print_profile(B.ctx, "cuda", pscr_cuda_kernel_stat);
    if (nctx > 1) print_profile(ctxs[1], "opencl", pscr_opencl_kernel_stat);
    if (nctx > 1 && pscr_opencl_kernel_wg && pscr_opencl_bounded_entries) {
      /* the last solve's program: were the register bounds written, what groups it takes */
      static const char *const ks[] = {"td_reg_solve", "td_reg_solve_s", "td_reg_fwd_s64",
                                       "td_reg_bwd_s64", "td_tile_solve"};
      fprintf(stderr, "# opencl program of the last solve: %d .maxntid;",
              pscr_opencl_bounded_entries(ctxs[1]));
      for (size_t k = 0; k < sizeof ks / sizeof *ks; k++)
        fprintf(stderr, " %s %zu", ks[k], pscr_opencl_kernel_wg(ctxs[1], ks[k]));
      fprintf(stderr, "\n");
    }
    pscr_context_destroy(ctxs[1]);
    pscr_context_destroy(B.ctx);
    cusparseDestroy(B.sp);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "sweep") == 0 && pscr_cuda_tune != NULL) {
    /* parameter sweep of the tiled engine and g-Spike (F64; C128 with "sweep c128") */
    char label[96];
    pscr_dtype t = argc > 2 && strcmp(argv[2], "c128") == 0 ? PSCR_C128 : PSCR_F64;
    const int tq[] = {4, 8, 16}, tw[] = {128, 256};
    for (int a = 0; a < 2; a++)
      for (int w = 0; w < 1; w++) {
        pscr_cuda_tune(B.ctx, "tile_q", tq[a]);
        pscr_cuda_tune(B.ctx, "tile_w", tw[w]);
        snprintf(label, sizeof label, "sweep tile_q=%d tile_w=%d", tq[a], tw[w]);
        printf("{\"what\":\"%s\"}\n", label);
        const pscr_td_algorithm two[] = {PSCR_TD_CR_PCR_THOMAS, PSCR_TD_SPIKE_DIAG_PIVOT};
        plain(&B, &rng, t, (size_t)1 << 24, 1, 1, two, 2, NULL, 0);
        if (w == 0) { /* one-tile systems: tile_w does not apply */
          plain(&B, &rng, t, 512, 16384, 1, two, 2, NULL, 0);
          plain(&B, &rng, t, 4096, 4096, 1, two, 2, NULL, 0);
          plain(&B, &rng, t, 1024, 1024, 0, two + 1, 1, NULL, 0);
          shifted(&B, &rng, t, 512, 16384, PSCR_TD_CR_PCR_THOMAS);
          shifted(&B, &rng, t, 4096, 4096, PSCR_TD_CR_PCR_THOMAS);
        }
        plain(&B, &rng, t, 16384, 1024, 1, two, 1, NULL, 0);
      }
    pscr_cuda_tune(B.ctx, "tile_q", 8);
    pscr_cuda_tune(B.ctx, "tile_w", 128);
    const int gq[] = {8, 16, 32}, gw[] = {64, 128};
    for (int a = 0; a < 3; a++)
      for (int w = 0; w < 2; w++) {
        pscr_cuda_tune(B.ctx, "gs_q", gq[a]);
        pscr_cuda_tune(B.ctx, "gs_w", gw[w]);
        snprintf(label, sizeof label, "sweep gs_q=%d gs_w=%d", gq[a], gw[w]);
        printf("{\"what\":\"%s\"}\n", label);
        pscr_td_algorithm g = PSCR_TD_GSPIKE;
        plain(&B, &rng, t, (size_t)1 << 22, 1, 1, &g, 1, NULL, 0);
        plain(&B, &rng, t, 1024, 1024, 0, &g, 1, NULL, 0);
      }
    pscr_cuda_tune(B.ctx, "gs_q", 16);
    pscr_cuda_tune(B.ctx, "gs_w", 128);
    pscr_context_destroy(B.ctx);
    cusparseDestroy(B.sp);
    return 0;
  }
  const pscr_td_algorithm one_algs[] = {PSCR_TD_SPIKE_DIAG_PIVOT, PSCR_TD_GSPIKE,
                                        PSCR_TD_CR_PCR_THOMAS, PSCR_TD_CR, PSCR_TD_PCR};
  const pscr_td_algorithm batch_algs[] = {PSCR_TD_CR_PCR_THOMAS, PSCR_TD_SPIKE_DIAG_PIVOT,
                                          PSCR_TD_GSPIKE, PSCR_TD_THOMAS};
  const int one_kinds[] = {0, 1}, batch_kinds[] = {2, 3, 4, 5};
  for (int z = only_c128; z < (only_f64 ? 1 : 2); z++) {
    pscr_dtype t = z ? PSCR_C128 : PSCR_F64;
    /* PSCR_BENCH_BATCHES_ONLY=1: the batch tables alone (a call's time limit) */
    const char *bo = getenv("PSCR_BENCH_BATCHES_ONLY");
    for (int lg = 20; lg <= (quick ? 22 : 26) && !(bo && *bo == '1'); lg += 2)
      for (int dom = 1; dom >= 0; dom--) /* CR and PCR (baselines) at 2^20 only */
        plain(&B, &rng, t, (size_t)1 << lg, 1, dom, one_algs, dom ? (lg <= 20 ? 5 : 3) : 2,
              one_kinds, dom ? 2 : 1);
    const size_t shapes[][2] = {{16384, 512}, {4096, 4096}, {1024, 16384}, {8192, 8192}, {1024, 1024}};
    for (int s = 0; s < (quick ? 2 : 5); s++) {
      plain(&B, &rng, t, shapes[s][1], shapes[s][0], 1, batch_algs, 4, batch_kinds, 4);
      plain(&B, &rng, t, shapes[s][1], shapes[s][0], 0, batch_algs + 1, 2, batch_kinds + 1, 2);
      shifted(&B, &rng, t, shapes[s][1], shapes[s][0], PSCR_TD_CR_PCR_THOMAS);
    }
  }
  pscr_context_destroy(B.ctx);
  cusparseDestroy(B.sp);
  return 0;
}
#endif
