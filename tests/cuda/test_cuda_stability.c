/* The GPU pivoting solvers on the stability collections (tests/cpu/test_stability.c
 * holds the CPU side):
 *  1. SPIKE_DIAG_PIVOT and GSPIKE keep the normwise backward error <= 1e-10 on
 *     the well-conditioned matrices of seed 000 Table A.1 and seed 001 Table
 *     III (paper condition < 1e8), n = 512 as one system and as a batch of 3
 *     (the CPU bound for partitioned SPIKE; the GPU partitions have 16-32 rows).
 *  2. GSPIKE with its partitions set to the blocks (32 rows, pscr_cuda_tune)
 *     keeps the forward error <= 1e-12 on the Toeplitz and <= 1e-9 on the
 *     random singular-block matrices of seed 000 section 4, 0 .. all of 16
 *     blocks singular, and reports the modified blocks (Toeplitz: at least one
 *     per singular block but the last; random: or the one-partition fallback).
 *  3. A partition with exactly dependent leading columns makes GSPIKE solve
 *     again on a shifted partition grid, accurately.
 * Both dtypes, fresh random data. Skipped (77) without a CUDA device. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collections.h"
#include "testing.h"

enum { N = 512, BLOCK = 32, BATCH = 3 };
#define WELL_CONDITIONED 1e8
#define NBE_BOUND 1e-10

/* Tuning hook of the CUDA backend (weak: NULL without it). */
pscr_status pscr_cuda_tune(pscr_context *ctx, const char *name, int value) __attribute__((weak));

/* x random, b = A x accurately, for `batch` copies of one matrix (stride N). */
static void fill_batch(pt_rng *r, pscr_dtype t, void *dl, void *d, void *du, void *x, void *b) {
  size_t es = pt_size(t);
  for (int s = 1; s < BATCH; s++) {
    memcpy((char *)dl + s * N * es, dl, N * es);
    memcpy((char *)d + s * N * es, d, N * es);
    memcpy((char *)du + s * N * es, du, N * es);
  }
  pt_fill_uniform(r, t, x, (size_t)N * BATCH, -1, 1);
  for (int s = 0; s < BATCH; s++)
    pt_matvec_accurate(t, N, dl, d, du, (char *)x + s * N * es, (char *)b + s * N * es);
}

static void backward_errors(pscr_context *gpu, pt_rng *r, uint64_t seed, pscr_dtype t) {
  const pscr_td_algorithm algs[] = {PSCR_TD_SPIKE_DIAG_PIVOT, PSCR_TD_GSPIKE};
  size_t cnt = (size_t)N * BATCH, es = pt_size(t);
  void *dl = pt_alloc(t, cnt), *d = pt_alloc(t, cnt), *du = pt_alloc(t, cnt);
  void *x = pt_alloc(t, cnt), *b = pt_alloc(t, cnt), *y = pt_alloc(t, cnt);
  for (int c = 0; c < PT_COLLECTION_COUNT; c++)
    for (int id = 1; id <= pt_collection_count((pt_collection)c); id++) {
      pt_matrix_info info;
      pt_collection_info((pt_collection)c, id, &info);
      if (info.table_cond >= WELL_CONDITIONED) continue;
      PT_CHECK_STATUS(pt_collection_matrix((pt_collection)c, id, t, N, seed + (uint64_t)id, dl, d, du),
                      PSCR_OK);
      fill_batch(r, t, dl, d, du, x, b);
      for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
        for (int batch = 1; batch <= BATCH; batch += BATCH - 1) {
          memcpy(y, b, cnt * es);
          pscr_status st = pscr_tridiag_solve(gpu, algs[a], t, N, (size_t)batch, N, dl, d, du, y, NULL);
          const char *name = pscr_td_algorithm_name(algs[a]);
          PT_CHECK(st == PSCR_OK, "%s #%d %s %s batch %d: %s", pt_collection_name((pt_collection)c),
                   id, info.name, name, batch, pt_status_name(st));
          if (st != PSCR_OK) continue;
          for (int s = 0; s < batch; s++) {
            size_t o = (size_t)s * N * es;
            double nbe = pt_backward_error(t, N, (char *)dl + o, (char *)d + o, (char *)du + o,
                                           (char *)y + o, (char *)b + o);
            PT_CHECK_LE(nbe, NBE_BOUND, "%s #%d %s, %s, system %d of %d, %s",
                        pt_collection_name((pt_collection)c), id, info.name, name, s, batch,
                        t == PSCR_C128 ? "c128" : "f64");
          }
        }
    }
  free(dl), free(d), free(du), free(x), free(b), free(y);
}

static void singular_blocks(pscr_context *gpu, pt_rng *r, uint64_t seed, pscr_dtype t) {
  const size_t nb = N / BLOCK, cnt = (size_t)N * BATCH, es = pt_size(t);
  void *dl = pt_alloc(t, cnt), *d = pt_alloc(t, cnt), *du = pt_alloc(t, cnt);
  void *x = pt_alloc(t, cnt), *b = pt_alloc(t, cnt), *y = pt_alloc(t, cnt);
  for (int kind = PT_SINGULAR_TOEPLITZ; kind <= PT_SINGULAR_RANDOM; kind++)
    for (size_t ns = 0;; ns = ns ? 2 * ns : 1) {
      uint64_t draw = seed + 1000 * ns;
      double kappa;
      int tries = 0;
      do { /* random blocks: redrawn until cond <= 1e6 (as the CPU test) */
        PT_CHECK_STATUS(pt_singular_blocks((pt_singular_kind)kind, t, N, BLOCK, ns, draw++, dl, d, du),
                        PSCR_OK);
        kappa = pt_condition(t, N, dl, d, du);
      } while (kind == PT_SINGULAR_RANDOM && kappa > 1e6 && ++tries < 50);
      fill_batch(r, t, dl, d, du, x, b);
      const char *kname = kind == PT_SINGULAR_TOEPLITZ ? "toeplitz" : "random";
      double bound = kind == PT_SINGULAR_TOEPLITZ ? 1e-12 : 1e-9;
      for (int batch = 1; batch <= BATCH; batch += BATCH - 1) {
        memcpy(y, b, cnt * es);
        pscr_td_report rep;
        pscr_status st = pscr_tridiag_solve(gpu, PSCR_TD_GSPIKE, t, N, (size_t)batch, N, dl, d, du,
                                            y, &rep);
        PT_CHECK(st == PSCR_OK, "gspike %s, %zu of %zu singular, batch %d: %s", kname, ns, nb,
                 batch, pt_status_name(st));
        if (st != PSCR_OK) continue;
        /* random: also the shifted grid (nb + 1) or one partition */
        PT_CHECK(rep.partitions == (int)nb ||
                     (kind == PT_SINGULAR_RANDOM && (rep.partitions == 1 || rep.partitions == (int)nb + 1)),
                 "gspike %s: %d partitions, %zu expected", kname, rep.partitions, nb);
        if (kind == PT_SINGULAR_TOEPLITZ && rep.partitions == (int)nb && ns > 1)
          PT_CHECK(rep.modified_blocks >= batch * ((int)ns - 1),
                   "gspike toeplitz: %d modified blocks for %zu singular x %d", rep.modified_blocks,
                   ns, batch);
        for (int s = 0; s < batch; s++) {
          double fwd = pt_rel_error_2(t, N, (char *)y + s * N * es, (char *)x + s * N * es);
          PT_CHECK_LE(fwd, bound, "gspike %s, %zu of %zu singular (%d modified), cond %.2e, system %d, %s",
                      kname, ns, nb, rep.modified_blocks, kappa, s, t == PSCR_C128 ? "c128" : "f64");
        }
      }
      if (ns == nb) break;
    }
  free(dl), free(d), free(du), free(x), free(b), free(y);
}

/* 3. A partition whose leading columns are exactly dependent (rows 64..66:
 * d0 d1 = c0 a1 and a2 = 0, so R_11 = 0, the CPU's BLOCK_FAILED): GSPIKE
 * solves again on the grid shifted by half a partition, which must succeed
 * (backward error <= 1e-13, nb + 1 partitions reported). */
static void shifted_grid(pscr_context *gpu, pt_rng *r, pscr_dtype t) {
  const size_t cnt = (size_t)N * BATCH, es = pt_size(t), nb = N / BLOCK;
  void *dl = pt_alloc(t, cnt), *d = pt_alloc(t, cnt), *du = pt_alloc(t, cnt);
  void *x = pt_alloc(t, cnt), *b = pt_alloc(t, cnt), *y = pt_alloc(t, cnt);
  pt_fill_dominant(r, t, N, 1, N, dl, d, du, 0.5);
  pt_set(t, d, 2 * BLOCK, 1.0);
  pt_set(t, du, 2 * BLOCK, 2.0);
  pt_set(t, dl, 2 * BLOCK + 1, 1.0);
  pt_set(t, d, 2 * BLOCK + 1, 2.0);
  pt_set(t, dl, 2 * BLOCK + 2, 0.0);
  fill_batch(r, t, dl, d, du, x, b);
  for (int batch = 1; batch <= BATCH; batch += BATCH - 1) {
    memcpy(y, b, cnt * es);
    pscr_td_report rep;
    pscr_status st = pscr_tridiag_solve(gpu, PSCR_TD_GSPIKE, t, N, (size_t)batch, N, dl, d, du, y, &rep);
    PT_CHECK(st == PSCR_OK, "gspike, singular leading columns, batch %d: %s", batch, pt_status_name(st));
    if (st != PSCR_OK) continue;
    PT_CHECK(rep.partitions == (int)nb + 1, "gspike: %d partitions, shifted grid %zu expected",
             rep.partitions, nb + 1);
    for (int s = 0; s < batch; s++) {
      size_t o = (size_t)s * N * es;
      double nbe = pt_backward_error(t, N, (char *)dl + o, (char *)d + o, (char *)du + o,
                                     (char *)y + o, (char *)b + o);
      PT_CHECK_LE(nbe, 1e-13, "gspike shifted grid, system %d, %s", s, t == PSCR_C128 ? "c128" : "f64");
    }
  }
  free(dl), free(d), free(du), free(x), free(b), free(y);
}

int main(void) {
  if (!pscr_backend_available(PSCR_BACKEND_CUDA)) return PT_SKIP;
  uint64_t seed = pt_fresh_seed();
  pt_rng r;
  pt_rng_seed(&r, seed);
  pscr_context *gpu = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CUDA, 0, &gpu), PSCR_OK);
  if (gpu == NULL) return pt_exit("cuda_stability");
  PT_CHECK(pscr_cuda_tune != NULL, "the CUDA backend's tuning hook");
  if (pscr_cuda_tune) PT_CHECK_STATUS(pscr_cuda_tune(gpu, "gs_q", BLOCK), PSCR_OK);
  for (int t = PSCR_F64; t <= PSCR_C128; t++) {
    backward_errors(gpu, &r, seed, (pscr_dtype)t);
    singular_blocks(gpu, &r, seed, (pscr_dtype)t);
    shifted_grid(gpu, &r, (pscr_dtype)t);
  }
  pscr_context_destroy(gpu);
  return pt_exit("cuda_stability");
}
