/* The OpenCL tridiagonal checks of one dtype (included by
 * test_opencl_tridiag_{d,z}.c, one ctest each so CI runs them in parallel):
 * every algorithm x {one system, strided batch, shifted (M diagonal or not)}
 * against the CPU backend on fresh random data, pivoting solvers on
 * non-dominant matrices, bad input (NaN, singular, wrong arrays: b untouched),
 * GSPIKE's singular blocks (modified blocks, the residual check and its windows,
 * the shifted grid), 48 KiB shapes (record merges, one tile of 16-row
 * partitions in four parts), the shifted kernels of a constant group size,
 * the passes' copies of W = 64, and, last, that every "td_" KERNEL of
 * kernels/common was launched. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collections.h"
#include "core/timer.h"
#include "opencl_lsan.h"
#include "testing.h"

#if PSCR_HAVE_OPENCL
#include "backend/opencl/opencl.h"
#include "opencl_coverage.h"
#include "../cpu/wspec_check.h"

/* The algorithms the GPU backends run (LAPACK is CPU-only: UNSUPPORTED). */
static const pscr_td_algorithm gpu_algs[] = {
    PSCR_TD_AUTO,       PSCR_TD_THOMAS,           PSCR_TD_CR,    PSCR_TD_PCR, PSCR_TD_CR_PCR_THOMAS,
    PSCR_TD_PCR_THOMAS, PSCR_TD_SPIKE_DIAG_PIVOT, PSCR_TD_GSPIKE};
#define NALGS (sizeof gpu_algs / sizeof *gpu_algs)

static const char *alg_name(pscr_td_algorithm a) { return pscr_td_algorithm_name(a); }

/* max_i |x_i - y_i| / max_i |y_i| over count entries. */
static double rel_diff(pscr_dtype t, size_t count, const void *x, const void *y) {
  double num = 0, den = 0;
  for (size_t i = 0; i < count; i++) {
    double e = cabs(pt_get(t, x, i) - pt_get(t, y, i)), m = cabs(pt_get(t, y, i));
    if (!(e <= num)) num = e;
    if (m > den) den = m;
  }
  return den > 0 ? num / den : num;
}

/* Batch (batch = 1, stride = n: one system) on OpenCL vs the CPU backend. */
static void check_batch(pscr_context *ocl, pscr_context *cpu, pt_rng *r, pscr_td_algorithm alg,
                        pscr_dtype t, size_t n, size_t batch, size_t stride, double *worst) {
  size_t count = stride * (batch - 1) + n, e = pt_size(t);
  void *dl = pt_alloc(t, count), *d = pt_alloc(t, count), *du = pt_alloc(t, count);
  void *b = pt_alloc(t, count), *x = pt_alloc(t, count), *ref = pt_alloc(t, count);
  pt_fill_dominant(r, t, n, batch, stride, dl, d, du, 0.5);
  for (size_t s = 0; s < batch; s++) { /* ignored corners hold garbage */
    pt_set(t, dl, s * stride, 1e300);
    pt_set(t, du, s * stride + n - 1, -1e300);
  }
  pt_fill_uniform(r, t, b, count, -1, 1);
  memcpy(x, b, count * e);
  memcpy(ref, b, count * e);
  pscr_td_algorithm calg = alg == PSCR_TD_AUTO ? PSCR_TD_LAPACK : alg;
  PT_CHECK_STATUS(pscr_tridiag_solve(cpu, calg, t, n, batch, stride, dl, d, du, ref, NULL),
                  PSCR_OK);
  pscr_td_report rep = {0};
  double wall = pscr_wtime();
  pscr_status st = pscr_tridiag_solve(ocl, alg, t, n, batch, stride, dl, d, du, x, &rep);
  wall = pscr_wtime() - wall;
  PT_CHECK(st == PSCR_OK, "%s n %zu batch %zu: %s", alg_name(alg), n, batch,
           pscr_status_string(st));
  if (st == PSCR_OK) {
    double err = 0;
    for (size_t s = 0; s < batch; s++) {
      double es = rel_diff(t, n, (char *)x + s * stride * e, (char *)ref + s * stride * e);
      if (!(es <= err)) err = es;
      if (stride > n) /* the padding between systems is not touched */
        PT_CHECK(s + 1 == batch ||
                     pt_equal_bytes((char *)x + (s * stride + n) * e,
                                    (char *)b + (s * stride + n) * e, (stride - n) * e),
                 "padding %s", alg_name(alg));
    }
    PT_CHECK_LE(err, 1e-12, "%s dtype %d n %zu batch %zu", alg_name(alg), t, n, batch);
    if (!(err <= *worst)) *worst = err;
    PT_CHECK(alg == PSCR_TD_AUTO ? rep.used != PSCR_TD_AUTO : rep.used == alg, "report.used");
    /* device time of the solve: within the call's wall time, > 0 for real work */
    PT_CHECK(rep.seconds <= wall && (n * batch < 1000 ? rep.seconds >= 0 : rep.seconds > 0),
             "report.seconds %.3e, wall %.3e", rep.seconds, wall);
  }
  free(dl), free(d), free(du), free(b), free(x), free(ref);
}

static void check_shifted(pscr_context *ocl, pscr_context *cpu, pt_rng *r, pscr_td_algorithm alg,
                          pscr_dtype t, size_t n, size_t nshift, int diagonal_m, double *worst) {
  size_t e = pt_size(t);
  void *a[3], *m[3];
  for (int k = 0; k < 3; k++) a[k] = pt_alloc(t, n), m[k] = pt_alloc(t, n);
  /* A + s M strictly dominant for every shift: M's diagonal has A's phase,
   * |M's off-diagonals| <= 0.15, Re s >= 0.5 >= 3 |Im s| (no algorithm here pivots). */
  pt_fill_dominant(r, t, n, 1, n, a[0], a[1], a[2], 0.2);
  pt_fill_uniform(r, t, m[0], n, -0.1, 0.1);
  pt_fill_uniform(r, t, m[2], n, -0.1, 0.1);
  for (size_t i = 0; i < n; i++) {
    double complex ad = pt_get(t, a[1], i);
    pt_set(t, m[1], i, pt_uniform(r, 1, 2) * ad / cabs(ad));
  }
  /* ignored corners hold garbage (the GPU reads them and must drop them) */
  pt_set(t, a[0], 0, NAN), pt_set(t, m[0], 0, 1e300);
  pt_set(t, a[2], n - 1, -1e300), pt_set(t, m[2], n - 1, INFINITY);
  void *shift = pt_alloc(t, nshift), *b = pt_alloc(t, n * nshift), *x = pt_alloc(t, n * nshift);
  void *ref = pt_alloc(t, n * nshift);
  for (size_t s = 0; s < nshift; s++)
    pt_set(t, shift, s,
           CMPLX(pt_uniform(r, 0.5, 3), t == PSCR_C128 ? pt_uniform(r, -0.15, 0.15) : 0));
  pt_fill_uniform(r, t, b, n * nshift, -1, 1);
  memcpy(x, b, n * nshift * e);
  memcpy(ref, b, n * nshift * e);
  void *mdl = diagonal_m ? NULL : m[0], *mdu = diagonal_m ? NULL : m[2];
  pscr_td_algorithm calg = alg == PSCR_TD_AUTO ? PSCR_TD_LAPACK : alg;
  PT_CHECK_STATUS(pscr_tridiag_solve_shifted(cpu, calg, t, n, nshift, a[0], a[1], a[2], mdl, m[1],
                                             mdu, shift, ref, NULL),
                  PSCR_OK);
  pscr_status st = pscr_tridiag_solve_shifted(ocl, alg, t, n, nshift, a[0], a[1], a[2], mdl, m[1],
                                              mdu, shift, x, NULL);
  PT_CHECK(st == PSCR_OK, "%s shifted n %zu: %s", alg_name(alg), n, pscr_status_string(st));
  if (st == PSCR_OK) {
    double err = 0;
    for (size_t s = 0; s < nshift; s++) {
      double es = rel_diff(t, n, (char *)x + s * n * e, (char *)ref + s * n * e);
      if (!(es <= err)) err = es;
    }
    PT_CHECK_LE(err, 1e-12, "%s shifted dtype %d n %zu nshift %zu diag %d", alg_name(alg), t, n,
                nshift, diagonal_m);
    if (!(err <= *worst)) *worst = err;
    /* the same solve on device arrays: the same kernels, so the same bits */
    memcpy(ref, b, n * nshift * e);
    PT_CHECK_STATUS(pt_solve_shifted_arrays(ocl, alg, t, n, nshift, a[0], a[1], a[2], mdl, m[1],
                                            mdu, shift, ref),
                    PSCR_OK);
    PT_CHECK(pt_equal_bytes(x, ref, n * nshift * e), "%s shifted arrays dtype %d n %zu",
             alg_name(alg), t, n);
  }
  for (int k = 0; k < 3; k++) free(a[k]), free(m[k]);
  free(shift), free(b), free(x), free(ref);
}

/* A real plain batch of 64 x 4096 rows at 48 KiB of local memory (NVIDIA's
 * OpenCL): queued, one tile of 16-row partitions in four parts
 * (gpu_tile.c's plain_four: td_reg_solve); waiting, where b is kept on error,
 * the two passes (td_reg_fwd). Both against the CPU backend. */
static void check_plain_four(pscr_context *g48, pscr_context *cpu, pt_rng *r, pscr_dtype t) {
  const size_t n = 4096, batch = 64, count = n * batch, e = pt_size(t); /* 2^18 rows: reg_min */
  void *h[4], *x = pt_alloc(t, count), *ref = pt_alloc(t, count);
  for (int k = 0; k < 4; k++) h[k] = pt_alloc(t, count);
  pt_fill_dominant(r, t, n, batch, n, h[0], h[1], h[2], 0.5);
  pt_fill_uniform(r, t, h[3], count, -1, 1);
  memcpy(ref, h[3], count * e);
  PT_CHECK_STATUS(
      pscr_tridiag_solve(cpu, PSCR_TD_LAPACK, t, n, batch, n, h[0], h[1], h[2], ref, NULL),
      PSCR_OK);
  pscr_array *a[4] = {NULL, NULL, NULL, NULL};
  int ok = 1;
  for (int k = 0; k < 4; k++) {
    PT_CHECK_STATUS(pscr_array_create(g48, t, count, &a[k]), PSCR_OK);
    ok = ok && a[k] && pscr_array_write(a[k], h[k]) == PSCR_OK;
  }
  for (int queued = 1; queued >= 0 && ok; queued--) {
    PT_CHECK_STATUS(pscr_array_write(a[3], h[3]), PSCR_OK);
    unsigned long s0 = pscr_opencl_launch_count(g48, "td_reg_solve");
    unsigned long f0 = ws_family(g48, pscr_opencl_launch_count, "td_reg_fwd");
    if (queued) {
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays_queued(g48, PSCR_TD_CR_PCR_THOMAS, t, n, batch, n,
                                                       a[0], a[1], a[2], a[3]),
                      PSCR_OK);
      PT_CHECK_STATUS(pscr_context_finish(g48), PSCR_OK);
    } else {
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays(g48, PSCR_TD_CR_PCR_THOMAS, t, n, batch, n, a[0],
                                                a[1], a[2], a[3], NULL),
                      PSCR_OK);
    }
    PT_CHECK_STATUS(pscr_array_read(a[3], x), PSCR_OK);
    double err = rel_diff(t, count, x, ref);
    PT_CHECK_LE(err, 1e-12, "48 KiB plain 4096 x 64, queued %d", queued);
    unsigned long one = pscr_opencl_launch_count(g48, "td_reg_solve") - s0;
    unsigned long fwd = ws_family(g48, pscr_opencl_launch_count, "td_reg_fwd") - f0;
    int want_one = queued && t == PSCR_F64;
    PT_CHECK(one == (want_one ? 1u : 0u) && fwd == (want_one ? 0u : 1u),
             "48 KiB plain 4096 x 64, queued %d, dtype %d: %lu td_reg_solve, %lu td_reg_fwd",
             queued, t, one, fwd);
  }
  for (int k = 0; k < 4; k++) pscr_array_destroy(a[k]), free(h[k]);
  free(x), free(ref);
}

/* Non-dominant random matrices: the pivoting solvers must still be backward stable. */
static void check_pivoting(pscr_context *ocl, pt_rng *r, pscr_td_algorithm alg, pscr_dtype t,
                           size_t n, double *worst) {
  void *dl = pt_alloc(t, n), *d = pt_alloc(t, n), *du = pt_alloc(t, n), *b = pt_alloc(t, n);
  void *x = pt_alloc(t, n);
  pt_fill_uniform(r, t, dl, n, -1, 1);
  pt_fill_uniform(r, t, d, n, -1, 1);
  pt_fill_uniform(r, t, du, n, -1, 1);
  pt_fill_uniform(r, t, b, n, -1, 1);
  memcpy(x, b, n * pt_size(t));
  pscr_status st = pscr_tridiag_solve(ocl, alg, t, n, 1, n, dl, d, du, x, NULL);
  PT_CHECK(st == PSCR_OK, "%s pivoting n %zu: %s", alg_name(alg), n, pscr_status_string(st));
  if (st == PSCR_OK) {
    double be = pt_backward_error(t, n, dl, d, du, x, b);
    PT_CHECK_LE(be, 1e-12, "%s non-dominant dtype %d n %zu", alg_name(alg), t, n);
    if (!(be <= *worst)) *worst = be;
  }
  free(dl), free(d), free(du), free(b), free(x);
}

/* Bad input: b (host or device) untouched, the matching status. */
static void check_bad(pscr_context *ocl, pscr_context *cpu, pt_rng *r, pscr_td_algorithm alg,
                      pscr_dtype t) {
  const size_t n = 300, batch = 3, count = n * batch, e = pt_size(t);
  void *dl = pt_alloc(t, count), *d = pt_alloc(t, count), *du = pt_alloc(t, count);
  void *b = pt_alloc(t, count), *x = pt_alloc(t, count);
  pt_fill_dominant(r, t, n, batch, n, dl, d, du, 0.5);
  pt_fill_uniform(r, t, b, count, -1, 1);
  pscr_array *a[4] = {NULL, NULL, NULL, NULL};
  void *host[4] = {dl, d, du, b};
  for (int k = 0; k < 4; k++) {
    PT_CHECK_STATUS(pscr_array_create(ocl, t, count, &a[k]), PSCR_OK);
    if (a[k]) PT_CHECK_STATUS(pscr_array_write(a[k], host[k]), PSCR_OK);
  }
  if (a[0] && a[1] && a[2] && a[3]) {
    /* NaN in the second system's diagonal, on the device: NONFINITE, b untouched. */
    pt_set(t, d, n + 7, NAN);
    PT_CHECK_STATUS(pscr_array_write(a[1], d), PSCR_OK);
    PT_CHECK_STATUS(
        pscr_tridiag_solve_arrays(ocl, alg, t, n, batch, n, a[0], a[1], a[2], a[3], NULL),
        PSCR_ERR_NONFINITE);
    PT_CHECK_STATUS(pscr_array_read(a[3], x), PSCR_OK);
    PT_CHECK(pt_equal_bytes(x, b, count * e), "%s NaN: device b untouched", alg_name(alg));
    /* the same through the host API */
    memcpy(x, b, count * e);
    PT_CHECK_STATUS(pscr_tridiag_solve(ocl, alg, t, n, batch, n, dl, d, du, x, NULL),
                    PSCR_ERR_NONFINITE);
    PT_CHECK(pt_equal_bytes(x, b, count * e), "%s NaN: host b untouched", alg_name(alg));
    /* NaN / Inf in an off-diagonal at rows around partition and tile ends of
     * the second system: NONFINITE, b untouched. g-Spike finds them inside
     * its first sweep, couplings included (its tile load does not check), so
     * without the whole-system solve that a NaN reaching its blocks' tests
     * would also end in. */
    unsigned long whole0 = pscr_opencl_launch_count(ocl, "td_gs_whole");
    pt_set(t, d, n + 7, 1.5);
    PT_CHECK_STATUS(pscr_array_write(a[1], d), PSCR_OK);
    static const size_t rows_at[] = {1, 15, 16, 17, 31, 32, 63, 64, 128, 255, 256, 298};
    for (size_t k = 0; k < sizeof rows_at / sizeof *rows_at; k++)
      for (int w = 0; w < 2; w++) {
        void *off = w ? du : dl;
        size_t at = n + rows_at[k] - (size_t)w; /* du: the row above the same junction */
        double complex keep = pt_get(t, off, at);
        pt_set(t, off, at, k % 2 ? NAN : (w ? -1.0 : 1.0) / 0.0);
        PT_CHECK_STATUS(pscr_array_write(a[w ? 2 : 0], off), PSCR_OK);
        PT_CHECK_STATUS(
            pscr_tridiag_solve_arrays(ocl, alg, t, n, batch, n, a[0], a[1], a[2], a[3], NULL),
            PSCR_ERR_NONFINITE);
        PT_CHECK_STATUS(pscr_array_read(a[3], x), PSCR_OK);
        PT_CHECK(pt_equal_bytes(x, b, count * e), "%s: %s[%zu] not finite, device b touched",
                 alg_name(alg), w ? "du" : "dl", at);
        pt_set(t, off, at, keep);
        PT_CHECK_STATUS(pscr_array_write(a[w ? 2 : 0], off), PSCR_OK);
      }
    PT_CHECK(pscr_opencl_launch_count(ocl, "td_gs_whole") == whole0,
             "%s: a non-finite entry went to td_gs_whole", alg_name(alg));
    /* NaN in the entries the API ignores (dl[0], du[n - 1] of a system): the
     * solve goes on, as with any other value there. */
    PT_CHECK_STATUS(
        pscr_tridiag_solve_arrays(ocl, alg, t, n, batch, n, a[0], a[1], a[2], a[3], NULL),
        PSCR_OK);
    void *ref = pt_alloc(t, count);
    PT_CHECK_STATUS(pscr_array_read(a[3], ref), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_write(a[3], b), PSCR_OK);
    double complex k0 = pt_get(t, dl, n), k1 = pt_get(t, du, 2 * n - 1);
    pt_set(t, dl, n, NAN), pt_set(t, du, 2 * n - 1, NAN);
    PT_CHECK_STATUS(pscr_array_write(a[0], dl), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_write(a[2], du), PSCR_OK);
    PT_CHECK_STATUS(
        pscr_tridiag_solve_arrays(ocl, alg, t, n, batch, n, a[0], a[1], a[2], a[3], NULL),
        PSCR_OK);
    PT_CHECK_STATUS(pscr_array_read(a[3], x), PSCR_OK);
    double dx = rel_diff(t, count, x, ref);
    PT_CHECK(dx <= 1e-13, "%s: NaN in ignored entries changed x by %.2e", alg_name(alg), dx);
    pt_set(t, dl, n, k0), pt_set(t, du, 2 * n - 1, k1);
    PT_CHECK_STATUS(pscr_array_write(a[0], dl), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_write(a[2], du), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_write(a[3], b), PSCR_OK);
    free(ref);
    /* The last system all zero: SINGULAR, b untouched (also the other systems). */
    pt_set(t, d, n + 7, 1.5);
    for (size_t i = 2 * n; i < 3 * n; i++)
      pt_set(t, dl, i, 0), pt_set(t, d, i, 0), pt_set(t, du, i, 0);
    PT_CHECK_STATUS(pscr_array_write(a[0], dl), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_write(a[1], d), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_write(a[2], du), PSCR_OK);
    PT_CHECK_STATUS(
        pscr_tridiag_solve_arrays(ocl, alg, t, n, batch, n, a[0], a[1], a[2], a[3], NULL),
        PSCR_ERR_SINGULAR);
    PT_CHECK_STATUS(pscr_array_read(a[3], x), PSCR_OK);
    PT_CHECK(pt_equal_bytes(x, b, count * e), "%s singular: device b untouched", alg_name(alg));
    /* Arrays of the wrong dtype, size or context; bad sizes. */
    pscr_array *other = NULL, *small = NULL, *cpu_arr = NULL;
    pscr_dtype wrong = t == PSCR_F64 ? PSCR_C128 : PSCR_F64;
    PT_CHECK_STATUS(pscr_array_create(ocl, wrong, count, &other), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_create(ocl, t, count - 1, &small), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_create(cpu, t, count, &cpu_arr), PSCR_OK);
    PT_CHECK_STATUS(
        pscr_tridiag_solve_arrays(ocl, alg, t, n, batch, n, a[0], other, a[2], a[3], NULL),
        PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(
        pscr_tridiag_solve_arrays(ocl, alg, t, n, batch, n, a[0], a[1], small, a[3], NULL),
        PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(
        pscr_tridiag_solve_arrays(ocl, alg, t, n, batch, n, a[0], a[1], a[2], cpu_arr, NULL),
        PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(
        pscr_tridiag_solve_arrays(ocl, alg, t, n, batch, n - 1, a[0], a[1], a[2], a[3], NULL),
        PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(
        pscr_tridiag_solve_arrays(ocl, alg, t, 0, batch, n, a[0], a[1], a[2], a[3], NULL),
        PSCR_ERR_INVALID_ARGUMENT);
    pscr_array_destroy(other);
    pscr_array_destroy(small);
    pscr_array_destroy(cpu_arr);
  }
  for (int k = 0; k < 4; k++) pscr_array_destroy(a[k]);
  free(dl), free(d), free(du), free(b), free(x);
}

/* GSPIKE with its partitions on singular diagonal blocks (seed 000 section 4,
 * the CUDA stability test's bars): 0 .. all of 16 blocks singular, Toeplitz
 * (exact: modified blocks, the residual check's windows or, for a special last
 * block, one refinement step in a second td_gs_up / td_gs_down pass; forward
 * error <= 1e-12) and random (cond <= 1e6: <= 1e-9; or the shifted grid / one
 * partition); and a partition with exactly dependent
 * leading columns (the CPU's BLOCK_FAILED), which GSPIKE must solve on the
 * grid shifted by half a partition (nb + 1 partitions). One system and a batch. */
enum { GS_N = 512, GS_BLOCK = 32, GS_BATCH = 3 };

/* Identity but for the singular block [1 1; 1 1] on rows 1023 and 1024: a
 * junction of tiles of 128 to 1024 rows, where only the tiles' record merge
 * meets a zero (D = 1 - 1 * 1). SINGULAR, and b untouched. */
static void check_top_singular(pscr_context *ocl, pt_rng *r, pscr_td_algorithm alg,
                               pscr_dtype t) {
  size_t n = 3000, e = pt_size(t);
  void *dl = pt_alloc(t, n), *d = pt_alloc(t, n), *du = pt_alloc(t, n);
  void *b = pt_alloc(t, n), *b0 = pt_alloc(t, n);
  for (size_t i = 0; i < n; i++) pt_set(t, dl, i, 0), pt_set(t, d, i, 1), pt_set(t, du, i, 0);
  pt_set(t, du, 1023, 1);
  pt_set(t, dl, 1024, 1);
  pt_fill_uniform(r, t, b, n, -1, 1);
  memcpy(b0, b, n * e);
  PT_CHECK_STATUS(pscr_tridiag_solve(ocl, alg, t, n, 1, n, dl, d, du, b, NULL), PSCR_ERR_SINGULAR);
  PT_CHECK(pt_equal_bytes(b, b0, n * e), "%s: b untouched on a singular tile junction",
           alg_name(alg));
  free(dl), free(d), free(du), free(b), free(b0);
}

/* GSPIKE on random U(-1,1) rows: F64 2^22 of them, two fixed draws (pt_rng seeds 22
 * and 101; each row's dl, d, du, b in turn), C128 2^20; gs_q 16, gs_gp 8, gs_w 64.
 * Seed 22: a reduced level meets the pair of a nearly singular partition (tips near
 * 1e13). Without td_gs_equil every test of that pair's block failed, on both grids,
 * and the solve took one partition (td_gs_whole, one work-item). Now every partition
 * stays: 2^18 of them.
 * Seed 101: partitions with |R_mm| in [1e-4, 1e-3) scale left unmodified cost
 * digits that one refinement step did not bring back (backward error 8.7e-15 with
 * TD_SPIKE_MODIFY 1e-4, 2.1e-17 with 1e-3).
 * The residual check (td_gs_seam, td_gs_fix) leaves every row's term below
 * 2^-53 ||A|| ||x||, so at most 1.1e-16 a row plus rounding: bound 3e-16. With
 * gs_fix_tau 64 (terms above 2^-64 ||A|| ||x||: thousands) and gs_fix_k 0 the
 * windows hold the junction rows alone, so many fail their edge test and the
 * failed tiles go through a full solve (td_gs_unfixed, td_gs_add). */
static void check_gspike_random_levels(pscr_context *ocl, pscr_dtype t) {
  /* C128: 2^20 rows, dl, d, du and b drawn whole in turn (pt_rng seed 1) */
  const size_t n = (size_t)1 << (t == PSCR_F64 ? 22 : 20), e = pt_size(t);
  void *dl = malloc(n * e), *d = malloc(n * e), *du = malloc(n * e);
  void *b = malloc(n * e), *b0 = malloc(n * e);
  PT_CHECK(dl && d && du && b && b0, "gspike random levels: out of host memory");
  static const uint64_t seeds[] = {22, 101};
  for (int k = 0; k < (t == PSCR_F64 ? 2 : 1) && dl && d && du && b && b0; k++) {
    pt_rng r;
    pt_rng_seed(&r, t == PSCR_F64 ? seeds[k] : 1);
    if (t == PSCR_F64) {
      double *l = dl, *m = d, *u = du, *f = b0;
      for (size_t i = 0; i < n; i++) {
        l[i] = pt_uniform(&r, -1, 1);
        m[i] = pt_uniform(&r, -1, 1);
        u[i] = pt_uniform(&r, -1, 1);
        f[i] = pt_uniform(&r, -1, 1);
      }
    } else {
      pt_fill_uniform(&r, t, dl, n, -1, 1);
      pt_fill_uniform(&r, t, d, n, -1, 1);
      pt_fill_uniform(&r, t, du, n, -1, 1);
      pt_fill_uniform(&r, t, b0, n, -1, 1);
    }
    int sd = t == PSCR_F64 ? (int)seeds[k] : 1;
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "gs_q", 16), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "gs_gp", 8), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "gs_w", 64), PSCR_OK);
    for (int fix_k = 24; fix_k >= 0; fix_k -= 24) {
      PT_CHECK_STATUS(pscr_opencl_tune(ocl, "gs_fix_k", fix_k), PSCR_OK);
      PT_CHECK_STATUS(pscr_opencl_tune(ocl, "gs_fix_tau", fix_k ? 53 : 64), PSCR_OK);
      unsigned long unfixed = pscr_opencl_launch_count(ocl, "td_gs_unfixed");
      pscr_td_report rep;
      memcpy(b, b0, n * e);
      pscr_status st = pscr_tridiag_solve(ocl, PSCR_TD_GSPIKE, t, n, 1, n, dl, d, du, b, &rep);
      PT_CHECK_STATUS(st, PSCR_OK);
      PT_CHECK(rep.partitions == (int)(n / 16),
               "gspike random %s, seed %d: %d partitions, %zu expected",
               (t == PSCR_F64 ? "f64" : "c128"), sd, rep.partitions, n / 16);
      if (st == PSCR_OK)
        PT_CHECK_LE(pt_backward_error(t, n, dl, d, du, b, b0), 3e-16,
                    "gspike random %s %zu rows, seed %d, gs_fix_k %d, backward error",
                    (t == PSCR_F64 ? "f64" : "c128"), n, sd, fix_k);
      if (fix_k == 0)
        PT_CHECK(pscr_opencl_launch_count(ocl, "td_gs_unfixed") == unfixed + 1,
                 "gspike random %s, seed %d: windows of the junction rows alone fail (tau 2^-64)",
                 (t == PSCR_F64 ? "f64" : "c128"), sd);
    }
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "gs_fix_k", 24), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "gs_fix_tau", 53), PSCR_OK);
  }
  free(dl), free(d), free(du), free(b), free(b0);
}

static void gs_batch(pt_rng *r, pscr_dtype t, void *dl, void *d, void *du, void *x, void *b) {
  size_t es = pt_size(t);
  for (int s = 1; s < GS_BATCH; s++) {
    memcpy((char *)dl + s * GS_N * es, dl, GS_N * es);
    memcpy((char *)d + s * GS_N * es, d, GS_N * es);
    memcpy((char *)du + s * GS_N * es, du, GS_N * es);
  }
  pt_fill_uniform(r, t, x, (size_t)GS_N * GS_BATCH, -1, 1);
  for (int s = 0; s < GS_BATCH; s++)
    pt_matvec_accurate(t, GS_N, dl, d, du, (char *)x + s * GS_N * es, (char *)b + s * GS_N * es);
}

static void check_gspike_blocks(pscr_context *ocl, pt_rng *r, uint64_t seed, pscr_dtype t) {
  const size_t nb = GS_N / GS_BLOCK, cnt = (size_t)GS_N * GS_BATCH, es = pt_size(t);
  void *dl = pt_alloc(t, cnt), *d = pt_alloc(t, cnt), *du = pt_alloc(t, cnt);
  void *x = pt_alloc(t, cnt), *b = pt_alloc(t, cnt), *y = pt_alloc(t, cnt);
  PT_CHECK_STATUS(pscr_opencl_tune(ocl, "gs_q", GS_BLOCK), PSCR_OK);
  int modified = 0;
  for (int kind = PT_SINGULAR_TOEPLITZ; kind <= PT_SINGULAR_RANDOM; kind++)
    for (size_t ns = 0;; ns = ns ? 2 * ns : 1) {
      uint64_t draw = seed + 1000 * ns;
      double kappa;
      int tries = 0;
      do { /* random blocks: redrawn until cond <= 1e6 */
        PT_CHECK_STATUS(
            pt_singular_blocks((pt_singular_kind)kind, t, GS_N, GS_BLOCK, ns, draw++, dl, d, du),
            PSCR_OK);
        kappa = pt_condition(t, GS_N, dl, d, du);
      } while (kind == PT_SINGULAR_RANDOM && kappa > 1e6 && ++tries < 50);
      gs_batch(r, t, dl, d, du, x, b);
      const char *kname = kind == PT_SINGULAR_TOEPLITZ ? "toeplitz" : "random";
      double bound = kind == PT_SINGULAR_TOEPLITZ ? 1e-12 : 1e-9;
      for (int batch = 1; batch <= GS_BATCH; batch += GS_BATCH - 1) {
        memcpy(y, b, cnt * es);
        pscr_td_report rep;
        pscr_status st = pscr_tridiag_solve(ocl, PSCR_TD_GSPIKE, t, GS_N, (size_t)batch, GS_N, dl,
                                            d, du, y, &rep);
        PT_CHECK(st == PSCR_OK, "gspike %s, %zu of %zu singular, batch %d: %s", kname, ns, nb,
                 batch, pscr_status_string(st));
        if (st != PSCR_OK) continue;
        PT_CHECK(rep.partitions == (int)nb ||
                     (kind == PT_SINGULAR_RANDOM &&
                      (rep.partitions == 1 || rep.partitions == (int)nb + 1)),
                 "gspike %s: %d partitions, %zu expected", kname, rep.partitions, nb);
        if (kind == PT_SINGULAR_TOEPLITZ && ns > 1)
          PT_CHECK(rep.modified_blocks >= batch * ((int)ns - 1),
                   "gspike toeplitz: %d modified blocks for %zu singular x %d",
                   rep.modified_blocks, ns, batch);
        modified += rep.modified_blocks;
        for (int s = 0; s < batch; s++) {
          size_t o = (size_t)s * GS_N * es;
          double fwd = pt_rel_error_2(t, GS_N, (char *)y + o, (char *)x + o);
          PT_CHECK_LE(fwd, bound, "gspike %s, %zu of %zu singular (%d modified), cond %.2e, "
                      "system %d", kname, ns, nb, rep.modified_blocks, kappa, s);
        }
      }
      if (ns == nb) break;
    }
  /* exactly dependent leading columns in rows 64..66: R_11 = 0 on the first grid */
  pt_fill_dominant(r, t, GS_N, 1, GS_N, dl, d, du, 0.5);
  pt_set(t, d, 2 * GS_BLOCK, 1.0);
  pt_set(t, du, 2 * GS_BLOCK, 2.0);
  pt_set(t, dl, 2 * GS_BLOCK + 1, 1.0);
  pt_set(t, d, 2 * GS_BLOCK + 1, 2.0);
  pt_set(t, dl, 2 * GS_BLOCK + 2, 0.0);
  gs_batch(r, t, dl, d, du, x, b);
  for (int batch = 1; batch <= GS_BATCH; batch += GS_BATCH - 1) {
    memcpy(y, b, cnt * es);
    pscr_td_report rep;
    pscr_status st =
        pscr_tridiag_solve(ocl, PSCR_TD_GSPIKE, t, GS_N, (size_t)batch, GS_N, dl, d, du, y, &rep);
    PT_CHECK(st == PSCR_OK, "gspike, dependent leading columns, batch %d: %s", batch,
             pscr_status_string(st));
    if (st != PSCR_OK) continue;
    PT_CHECK(rep.partitions == (int)nb + 1, "gspike: %d partitions, shifted grid %zu expected",
             rep.partitions, nb + 1);
    for (int s = 0; s < batch; s++) {
      size_t o = (size_t)s * GS_N * es;
      double be = pt_backward_error(t, GS_N, (char *)dl + o, (char *)d + o, (char *)du + o,
                                    (char *)y + o, (char *)b + o);
      PT_CHECK_LE(be, 1e-13, "gspike shifted grid, system %d", s);
    }
  }
  fprintf(stderr, "gspike singular blocks: %d modified blocks reported\n", modified);
  free(dl), free(d), free(du), free(x), free(b), free(y);
}

static int td_check_main(pscr_dtype t, const char *name) {
  if (!pscr_backend_available(PSCR_BACKEND_OPENCL)) return PT_SKIP;
  pt_rng r;
  uint64_t seed = pt_fresh_seed();
  pt_rng_seed(&r, seed);
  pscr_context *ocl = NULL, *cpu = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ocl), PSCR_OK);
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &cpu), PSCR_OK);
  if (ocl == NULL || cpu == NULL) goto done;
  static const size_t ones[] = {1, 2, 3, 7, 64, 1000, 4097, 65539};
  static const size_t batch_n[][3] = {{5, 3, 8}, {300, 17, 301}, {2100, 4, 2100}, {5000, 2, 5003}};
  /* shifted tiles of 16 rows a work-item (gpu_tile.c: real above 1024 rows,
   * complex in one tile; several tiles of 8 complex rows) */
  static const size_t shifted[][2] = {{1, 3},    {33, 4},   {1000, 9}, {3000, 3},
                                      {5000, 2}, {7000, 2}, {65539, 2}};
  for (size_t k = 0; k < NALGS; k++) {
    pscr_td_algorithm alg = gpu_algs[k];
    double worst = 0;
    for (size_t i = 0; i < sizeof ones / sizeof *ones; i++)
      check_batch(ocl, cpu, &r, alg, t, ones[i], 1, ones[i], &worst);
    for (size_t i = 0; i < sizeof batch_n / sizeof *batch_n; i++)
      check_batch(ocl, cpu, &r, alg, t, batch_n[i][0], batch_n[i][1], batch_n[i][2], &worst);
    for (size_t i = 0; i < sizeof shifted / sizeof *shifted; i++)
      for (int diag = 0; diag < 2; diag++)
        check_shifted(ocl, cpu, &r, alg, t, shifted[i][0], shifted[i][1], diag, &worst);
    double piv = 0;
    if (alg == PSCR_TD_SPIKE_DIAG_PIVOT || alg == PSCR_TD_GSPIKE || alg == PSCR_TD_AUTO)
      for (size_t n = 10; n <= 10000; n *= 10) check_pivoting(ocl, &r, alg, t, n, &piv);
    check_bad(ocl, cpu, &r, alg, t);
    fprintf(stderr, "%-18s worst rel. diff to CPU %.2e, non-dominant backward error %.2e\n",
            alg_name(alg), worst, piv);
  }
  /* td_reg.h's variants by tuning: rows a work-item (reg_q) and the parts the
   * tile is staged in (reg_ph), every power of 2 the kernels take; others are
   * refused */
  {
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "reg_q", 3), PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "reg_ph", 3), PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "reg_q", 32), PSCR_ERR_INVALID_ARGUMENT);
    static const int var[][2] = {{16, 1}, {16, 4}, {8, 2}, {4, 1}};
    double worst = 0;
    for (size_t v = 0; v < sizeof var / sizeof *var; v++) {
      PT_CHECK_STATUS(pscr_opencl_tune(ocl, "reg_q", var[v][0]), PSCR_OK);
      PT_CHECK_STATUS(pscr_opencl_tune(ocl, "reg_ph", var[v][1]), PSCR_OK);
      check_shifted(ocl, cpu, &r, PSCR_TD_CR_PCR_THOMAS, t, 3000, 2, (int)v % 2, &worst);
      check_batch(ocl, cpu, &r, PSCR_TD_CR_PCR_THOMAS, t, 5000, 2, 5000, &worst);
    }
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "reg_q", 0), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "reg_ph", 0), PSCR_OK);
    fprintf(stderr, "reg_q / reg_ph variants: worst rel. diff to CPU %.2e\n", worst);
  }
  /* LAPACK is the CPU reference: not on devices. */
  {
    double x = 1, one = 1;
    PT_CHECK_STATUS(
        pscr_tridiag_solve(ocl, PSCR_TD_LAPACK, PSCR_F64, 1, 1, 1, &one, &one, &one, &x, NULL),
        PSCR_ERR_UNSUPPORTED);
  }
  /* record merges of two levels and more (64 records a group): the top level
   * takes td_tile_gdown alone, the levels below td_tile_gup too */
  {
    gpu_td_tuning dft;
    gpu_td_tuning_default(&dft);
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "merge_w", 32), PSCR_OK);
    unsigned long up0 = pscr_opencl_launch_count(ocl, "td_tile_gup");
    unsigned long down0 = pscr_opencl_launch_count(ocl, "td_tile_gdown");
    double worst = 0;
    check_batch(ocl, cpu, &r, PSCR_TD_CR_PCR_THOMAS, t, 65539, 2, 65540, &worst);
    check_batch(ocl, cpu, &r, PSCR_TD_SPIKE_DIAG_PIVOT, t, 65539, 1, 65539, &worst);
    unsigned long ups = pscr_opencl_launch_count(ocl, "td_tile_gup") - up0;
    unsigned long downs = pscr_opencl_launch_count(ocl, "td_tile_gdown") - down0;
    PT_CHECK(ups >= 2 && downs > ups, "merge levels: %lu td_tile_gup, %lu td_tile_gdown", ups,
             downs);
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "merge_w", dft.merge_w), PSCR_OK);
  }
  /* a system of a few local-memory tiles (48 KiB, NVIDIA's; rows in registers
   * off: 6 to 12 tiles of 3000 rows): td_tile_bwd merges the tiles' records
   * itself, with no td_tile_gdown (merge_self); merge_self = 0 takes the
   * launch again */
  pscr_context *g48 = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &g48), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(g48, "local_mem", 49152), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(g48, "tile_reg", 0), PSCR_OK);
  for (int self = 1; self >= 0 && g48; self--) {
    PT_CHECK_STATUS(pscr_opencl_tune(g48, "merge_self", self), PSCR_OK);
    for (int k = 0; k < 2; k++) {
      pscr_td_algorithm alg = k ? PSCR_TD_SPIKE_DIAG_PIVOT : PSCR_TD_CR_PCR_THOMAS;
      unsigned long down0 = pscr_opencl_launch_count(g48, "td_tile_gdown");
      unsigned long bwd0 = pscr_opencl_launch_count(g48, "td_tile_bwd");
      double worst = 0;
      check_batch(g48, cpu, &r, alg, t, 3000, 1, 3000, &worst);
      check_top_singular(g48, &r, alg, t);
      unsigned long downs = pscr_opencl_launch_count(g48, "td_tile_gdown") - down0;
      unsigned long bwds = pscr_opencl_launch_count(g48, "td_tile_bwd") - bwd0;
      PT_CHECK(bwds == 2 && downs == (self ? 0u : 2u),
               "%s merge_self %d: %lu td_tile_gdown, %lu backward passes", alg_name(alg), self,
               downs, bwds);
    }
  }
  if (g48) {
    PT_CHECK_STATUS(pscr_opencl_tune(g48, "tile_reg", 1), PSCR_OK);
    check_plain_four(g48, cpu, &r, t);
  }
  pscr_context_destroy(g48);
  check_wspec(ocl, &r, t, pscr_opencl_tune, pscr_opencl_launch_count);
  if (t == PSCR_F64) check_wg_cap(ocl, &r, pscr_opencl_tune, pscr_opencl_launch_count);
  /* the passes' copies of W = 64 (real rows; NVIDIA's OpenCL's passes at 48
   * KiB), on ocl, whose launches the coverage counts */
  {
    cl_ulong lm = ((ocl_state *)((struct pscr_context *)ocl)->impl)->local_mem;
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "local_mem", 49152), PSCR_OK);
    check_wspec_pass(ocl, &r, pscr_opencl_tune, pscr_opencl_launch_count);
    check_pass_two(ocl, &r, pscr_opencl_tune, pscr_opencl_launch_count);
    PT_CHECK_STATUS(pscr_opencl_tune(ocl, "local_mem", (int)lm), PSCR_OK);
  }
  check_gspike_random_levels(ocl, t); /* tunes gs_q, gs_gp, gs_w */
  check_gspike_blocks(ocl, &r, seed, t); /* last: it tunes gs_q */
  opencl_check_coverage(ocl, "td_");
done:
  pscr_context_destroy(ocl);
  pscr_context_destroy(cpu);
  return pt_exit(name);
}
#else
static int td_check_main(pscr_dtype t, const char *name) {
  (void)t, (void)name;
  return PT_SKIP;
}
#endif
