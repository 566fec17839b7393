/* Checks of one system streamed through a device in chunks
 * (src/tridiag/chunked.c), shared by tests/opencl/test_opencl_chunked.c and
 * tests/cuda/test_cuda_chunked.c, which differ in sizes only. Chunks are
 * forced with PSCR_TD_CHUNK_ROWS; every result is compared with LAPACK gtsv
 * on the same data:
 *  1. random non-dominant (U(-1,1)) and dominant systems, F64 and C128, K = 1,
 *     2, ~100 (even and odd n), ~1000 chunks, chunks of 1-2 rows: normwise backward
 *     error <= CHUNK_NBE (dominant: <= 1e-15), forward error vs LAPACK
 *     <= cond * 1e-13, report.partitions == K, report.used = AUTO's choice;
 *  2. the well-conditioned matrices of the stability collections (paper
 *     condition < 1e8): backward error <= 1e-10, the partitioned-SPIKE bar of
 *     tests/cpu/test_stability.c;
 *  3. a singular chunk (its last row zero but for the coupling) ->
 *     PSCR_ERR_SINGULAR, a NaN in b or d -> PSCR_ERR_NONFINITE, b untouched;
 *  4. batches are not chunked; the automatic decision (td_chunk_plan) chunks
 *     exactly the systems that do not fit the backend's mem_info budget;
 *  5. one fixed draw with nearly singular chunks: backward error <= 1e-15
 *     (the refinement step).
 * Fresh random data each run (PSCR_TEST_SEED replays one). */
#ifndef PSCR_TESTS_CHUNKED_CHECK_H
#define PSCR_TESTS_CHUNKED_CHECK_H

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collections.h"
#include "core/context.h"
#include "testing.h"
#include "tridiag/chunked.h"

#define CHUNK_NBE 1e-13      /* random non-dominant systems (SPIKE partitions) */
#define CHUNK_NBE_DOM 1e-15  /* strictly dominant systems */
#define CHUNK_NBE_COLL 1e-10 /* the collections: partitioned SPIKE (seed 001 Table IV, note a) */

typedef struct {
  size_t n;         /* random systems of order n and n - 1 */
  size_t rows;      /* ~100 chunks: n / rows */
  size_t n_coll;    /* collections: order, */
  size_t rows_coll; /* rows per chunk */
} chunk_sizes;

static void chunk_rows_set(size_t rows) {
  char buf[32];
  snprintf(buf, sizeof buf, "%zu", rows);
  setenv("PSCR_TD_CHUNK_ROWS", buf, 1);
}

static const char *dname(pscr_dtype t) { return t == PSCR_C128 ? "c128" : "f64"; }

/* A random matrix; the ignored corners hold garbage (they must never be read).
 */
static void random_matrix(pt_rng *r, pscr_dtype t, size_t n, int dominant, void *dl, void *d,
                          void *du) {
  if (dominant)
    pt_fill_dominant(r, t, n, 1, n, dl, d, du, 0.5);
  else {
    pt_fill_uniform(r, t, dl, n, -1, 1);
    pt_fill_uniform(r, t, d, n, -1, 1);
    pt_fill_uniform(r, t, du, n, -1, 1);
  }
  pt_set(t, dl, 0, 1e300);
  pt_set(t, du, n - 1, -1e300);
}

/* Solves in chunks of `rows` and checks against LAPACK. Returns the backward
 * error. */
static double chunk_solve_check(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype t, size_t n,
                                size_t rows, const void *dl, const void *d, const void *du,
                                const void *b, double bound, const char *what) {
  size_t es = pt_size(t), K = (n + rows - 1) / rows;
  void *x = pt_alloc(t, n), *ref = pt_alloc(t, n);
  memcpy(x, b, n * es);
  chunk_rows_set(rows);
  pscr_td_report rep = {0};
  pscr_status st = pscr_tridiag_solve(ctx, alg, t, n, 1, n, dl, d, du, x, &rep);
  unsetenv("PSCR_TD_CHUNK_ROWS");
  double nbe = INFINITY;
  PT_CHECK(st == PSCR_OK, "%s %s %s n %zu rows %zu: %s", what, pscr_td_algorithm_name(alg),
           dname(t), n, rows, pscr_status_string(st));
  if (st == PSCR_OK) {
    PT_CHECK(rep.partitions == (int)K, "%s: %d partitions, %zu chunks expected", what,
             rep.partitions, K);
    PT_CHECK(alg == PSCR_TD_AUTO
                 ? rep.used == PSCR_TD_SPIKE_DIAG_PIVOT || rep.used == PSCR_TD_CR_PCR_THOMAS
                 : rep.used == alg,
             "%s: report.used %s", what, pscr_td_algorithm_name(rep.used));
    PT_CHECK(rep.seconds > 0, "%s: report.seconds %.3e", what, rep.seconds);
    nbe = pt_backward_error(t, n, dl, d, du, x, b);
    PT_CHECK_LE(nbe, bound, "%s %s %s n %zu, %zu chunks", what, pscr_td_algorithm_name(alg),
                dname(t), n, K);
    PT_CHECK(pt_lapack_solve(t, n, dl, d, du, b, ref) == 0, "%s: LAPACK reference", what);
    double cond = pt_condition(t, n, dl, d, du), fwd = pt_rel_error(t, n, x, ref);
    PT_CHECK_LE(fwd, fmax(cond, 10.0) * 1e-13,
                "%s forward error vs LAPACK, cond %.2e, n %zu, %zu chunks", what, cond, n, K);
  }
  free(x), free(ref);
  return nbe;
}

/* 1. Random systems, K = 1, 2, ~100 (even and odd n), ~1000, and 1-2 row chunks. */
static void chunk_random(pscr_context *ctx, pt_rng *r, pscr_dtype t, const chunk_sizes *sz) {
  size_t N = sz->n;
  void *dl = pt_alloc(t, N), *d = pt_alloc(t, N), *du = pt_alloc(t, N), *b = pt_alloc(t, N);
  const struct {
    size_t n, rows;
  } cases[] = {{N, N},  {N, N / 2 + 1}, {N, sz->rows}, {N - 1, sz->rows - 3}, {N, sz->rows / 10},
               {61, 1}, {61, 2}};
  double worst[2] = {0, 0};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
    for (int dom = 0; dom <= 1; dom++) {
      size_t n = cases[c].n;
      random_matrix(r, t, n, dom, dl, d, du);
      pt_fill_uniform(r, t, b, n, -1, 1);
      double bound = dom ? CHUNK_NBE_DOM : CHUNK_NBE;
      const char *what = dom ? "dominant" : "random";
      double e =
          chunk_solve_check(ctx, PSCR_TD_AUTO, t, n, cases[c].rows, dl, d, du, b, bound, what);
      worst[dom] = fmax(worst[dom], e);
      if (c == 2) { /* the other solvers once, at ~100 chunks */
        e = chunk_solve_check(ctx, dom ? PSCR_TD_THOMAS : PSCR_TD_GSPIKE, t, n, cases[c].rows, dl,
                              d, du, b, bound, what);
        worst[dom] = fmax(worst[dom], e);
      }
    }
  printf("chunked %s: worst backward error random %.2e, dominant %.2e\n", dname(t), worst[0],
         worst[1]);
  free(dl), free(d), free(du), free(b);
}

/* 2. The well-conditioned matrices of both collections. */
static void chunk_collections(pscr_context *ctx, uint64_t seed, pscr_dtype t,
                              const chunk_sizes *sz) {
  size_t n = sz->n_coll;
  void *dl = pt_alloc(t, n), *d = pt_alloc(t, n), *du = pt_alloc(t, n), *b = pt_alloc(t, n);
  void *x = pt_alloc(t, n);
  double worst = 0;
  pt_rng r;
  pt_rng_seed(&r, seed);
  for (int c = 0; c < PT_COLLECTION_COUNT; c++)
    for (int id = 1; id <= pt_collection_count((pt_collection)c); id++) {
      pt_matrix_info info;
      pt_collection_info((pt_collection)c, id, &info);
      if (info.table_cond >= 1e8) continue;
      PT_CHECK_STATUS(
          pt_collection_matrix((pt_collection)c, id, t, n, seed + (uint64_t)id, dl, d, du),
          PSCR_OK);
      pt_fill_uniform(&r, t, x, n, -1, 1);
      pt_matvec_accurate(t, n, dl, d, du, x, b);
      char what[64];
      snprintf(what, sizeof what, "%s #%d %s", pt_collection_name((pt_collection)c), id, info.name);
      worst = fmax(worst, chunk_solve_check(ctx, PSCR_TD_AUTO, t, n, sz->rows_coll, dl, d, du, b,
                                            CHUNK_NBE_COLL, what));
    }
  printf("chunked %s: collections, worst backward error %.2e\n", dname(t), worst);
  free(dl), free(d), free(du), free(b), free(x);
}

/* One failing solve: the expected status and b untouched. */
static void chunk_expect(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype t, size_t n,
                         size_t rows, const void *dl, const void *d, const void *du, const void *b,
                         pscr_status want, const char *what) {
  size_t es = pt_size(t);
  void *x = pt_alloc(t, n);
  memcpy(x, b, n * es);
  chunk_rows_set(rows);
  PT_CHECK_STATUS(pscr_tridiag_solve(ctx, alg, t, n, 1, n, dl, d, du, x, NULL), want);
  unsetenv("PSCR_TD_CHUNK_ROWS");
  PT_CHECK(pt_equal_bytes(x, b, n * es), "%s %s %s: b modified", what, pscr_td_algorithm_name(alg),
           dname(t));
  free(x);
}

/* 3. A singular chunk (first, middle, last): its last row is zero inside the
 * chunk, so A_j is singular while A need not be. NaN in b and in d. */
static void chunk_errors(pscr_context *ctx, pt_rng *r, pscr_dtype t, const chunk_sizes *sz) {
  size_t n = 10 * sz->rows, rows = sz->rows;
  void *dl = pt_alloc(t, n), *d = pt_alloc(t, n), *du = pt_alloc(t, n), *b = pt_alloc(t, n);
  const pscr_td_algorithm algs[] = {PSCR_TD_AUTO, PSCR_TD_THOMAS, PSCR_TD_GSPIKE};
  for (size_t k = 0; k < 3; k++) {
    size_t j = k == 0 ? 0 : k == 1 ? 4 : 9, row = (j + 1) * rows - (j == 9 ? rows / 2 : 1);
    random_matrix(r, t, n, 1, dl, d, du);
    pt_fill_uniform(r, t, b, n, -1, 1);
    pt_set(t, d, row, 0);
    pt_set(t, dl, row, 0);
    if (j == 9) pt_set(t, du, row, 0); /* inside the last chunk: a zero row */
    for (size_t a = 0; a < sizeof algs / sizeof *algs; a++)
      chunk_expect(ctx, algs[a], t, n, rows, dl, d, du, b, PSCR_ERR_SINGULAR, "singular chunk");
  }
  random_matrix(r, t, n, 0, dl, d, du);
  pt_fill_uniform(r, t, b, n, -1, 1);
  pt_set(t, b, n / 2 + 3, NAN);
  chunk_expect(ctx, PSCR_TD_AUTO, t, n, rows, dl, d, du, b, PSCR_ERR_NONFINITE, "NaN in b");
  pt_set(t, b, n / 2 + 3, 0.5);
  pt_set(t, d, n - 2, INFINITY);
  chunk_expect(ctx, PSCR_TD_AUTO, t, n, rows, dl, d, du, b, PSCR_ERR_NONFINITE, "Inf in d");
  free(dl), free(d), free(du), free(b);
}

/* 4. A batch is never chunked; td_chunk_plan against the mem_info budget. */
static void chunk_policy(pscr_context *ctx, pt_rng *r, pscr_dtype t, const chunk_sizes *sz) {
  size_t n = sz->rows * 3 + 1, batch = 3, es = pt_size(t);
  void *dl = pt_alloc(t, n * batch), *d = pt_alloc(t, n * batch), *du = pt_alloc(t, n * batch);
  void *b = pt_alloc(t, n * batch), *x = pt_alloc(t, n * batch);
  pt_fill_uniform(r, t, dl, n * batch, -1, 1);
  pt_fill_uniform(r, t, d, n * batch, -1, 1);
  pt_fill_uniform(r, t, du, n * batch, -1, 1);
  pt_fill_uniform(r, t, b, n * batch, -1, 1);
  memcpy(x, b, n * batch * es);
  chunk_rows_set(sz->rows);
  pscr_td_report rep = {0};
  PT_CHECK_STATUS(pscr_tridiag_solve(ctx, PSCR_TD_AUTO, t, n, batch, n, dl, d, du, x, &rep),
                  PSCR_OK);
  unsetenv("PSCR_TD_CHUNK_ROWS");
  PT_CHECK(rep.partitions != 4, "batch chunked (%d partitions)", rep.partitions);
  for (size_t s = 0; s < batch; s++) {
    size_t o = s * n * es;
    double nbe = pt_backward_error(t, n, (char *)dl + o, (char *)d + o, (char *)du + o,
                                   (char *)x + o, (char *)b + o);
    PT_CHECK_LE(nbe, 1e-13, "batch system %zu, %s", s, dname(t));
  }
  free(dl), free(d), free(du), free(b), free(x);

  /* the decision alone (nothing allocated): fits -> whole, too large -> chunks
   */
  size_t free_bytes = 0, total = 0;
  td_chunking plan;
  if (ctx->ops->mem_info == NULL) {
    PT_CHECK(td_chunk_plan(ctx, PSCR_TD_AUTO, t, (size_t)1 << 40, 0, &plan) == 0,
             "no mem_info hook: never chunked automatically");
    return;
  }
  PT_CHECK_STATUS(ctx->ops->mem_info(ctx, &free_bytes, &total), PSCR_OK);
  PT_CHECK(free_bytes > 0 && free_bytes <= total, "mem_info free %zu total %zu", free_bytes, total);
  size_t whole = free_bytes / (5 * es) / 2; /* 4 arrays + 1 of scratch: half the budget */
  PT_CHECK(td_chunk_plan(ctx, PSCR_TD_AUTO, t, whole, 1, &plan) == 0, "n %zu fits: whole", whole);
  size_t big = free_bytes / (4 * es) + 1; /* the 4 arrays alone exceed the budget */
  PT_CHECK(td_chunk_plan(ctx, PSCR_TD_AUTO, t, big, 0, &plan) == 1 && plan.rows < big &&
               plan.rows >= 1024 && !plan.forced && plan.alg == PSCR_TD_SPIKE_DIAG_PIVOT,
           "n %zu too large: chunks of %zu rows", big, plan.rows);
  PT_CHECK(td_chunk_plan(ctx, PSCR_TD_AUTO, t, big, 1, &plan) == 1 &&
               plan.alg == PSCR_TD_CR_PCR_THOMAS,
           "dominant: AUTO chunks with CR_PCR_THOMAS");
  printf("chunked %s: mem_info free %.2f GB, total %.2f GB: above %zu rows, "
         "chunks of %zu\n",
         dname(t), free_bytes / 1e9, total / 1e9, big, plan.rows);
}

/* 5. A draw whose chunk blocks are nearly singular: U(-1,1) diagonals and
 * right-hand side from seed 255 (dl, d, du, b in that order), 10^5 rows in
 * 100 chunks of GSPIKE. Without chunked.c's refinement step its backward
 * error was 3.0e-13 (PoCL, b79d6f9); refined, 2.9e-17. The bar of a solve
 * larger than the device: 1e-15. */
static void chunk_refined(pscr_context *ctx) {
  size_t n = 100000;
  pt_rng r;
  pt_rng_seed(&r, 255);
  double *dl = pt_alloc(PSCR_F64, n), *d = pt_alloc(PSCR_F64, n), *du = pt_alloc(PSCR_F64, n);
  double *b = pt_alloc(PSCR_F64, n);
  pt_fill_uniform(&r, PSCR_F64, dl, n, -1, 1);
  pt_fill_uniform(&r, PSCR_F64, d, n, -1, 1);
  pt_fill_uniform(&r, PSCR_F64, du, n, -1, 1);
  pt_fill_uniform(&r, PSCR_F64, b, n, -1, 1);
  double e = chunk_solve_check(ctx, PSCR_TD_GSPIKE, PSCR_F64, n, 1000, dl, d, du, b, 1e-15,
                               "seed 255");
  printf("chunked f64: seed 255 (nearly singular chunks), backward error %.2e\n", e);
  free(dl), free(d), free(du), free(b);
}

/* All checks on one device context; returns pt_exit's code. */
static int chunked_main(pscr_context *ctx, const chunk_sizes *sz, const char *name) {
  uint64_t seed = pt_fresh_seed();
  pt_rng r;
  pt_rng_seed(&r, seed);
  unsetenv("PSCR_TD_CHUNK_ROWS");
  for (int t = 0; t < 2; t++) {
    chunk_random(ctx, &r, (pscr_dtype)t, sz);
    chunk_collections(ctx, seed + 7 * (uint64_t)t, (pscr_dtype)t, sz);
    chunk_errors(ctx, &r, (pscr_dtype)t, sz);
    chunk_policy(ctx, &r, (pscr_dtype)t, sz);
  }
  chunk_refined(ctx);
  return pt_exit(name);
}

#endif
