/* CUDA backend statuses: NaN/Inf -> NONFINITE, an exactly singular matrix ->
 * SINGULAR for every algorithm, b untouched (host API and device arrays,
 * also a batch whose other systems are fine), bad arrays -> INVALID_ARGUMENT,
 * device arrays round-trip.
 * Skipped (77) without a usable CUDA device. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"
#include "../cpu/array_copy_check.h"

static const pscr_td_algorithm algs[] = {PSCR_TD_THOMAS,        PSCR_TD_CR,
                                         PSCR_TD_PCR,           PSCR_TD_CR_PCR_THOMAS,
                                         PSCR_TD_SPIKE_DIAG_PIVOT, PSCR_TD_GSPIKE,
                                         PSCR_TD_AUTO};

int main(void) {
  if (!pscr_backend_available(PSCR_BACKEND_CUDA)) return PT_SKIP;
  pt_rng rng;
  pt_rng_seed(&rng, pt_fresh_seed());
  pscr_context *gpu = NULL, *cpu = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CUDA, 0, &gpu), PSCR_OK);
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &cpu), PSCR_OK);
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CUDA, 1 << 20, &(pscr_context *){NULL}),
                  PSCR_ERR_INVALID_ARGUMENT);
  if (gpu == NULL || cpu == NULL) return pt_exit("cuda_status");
  for (int z = 0; z < 2; z++) {
    pscr_dtype t = z ? PSCR_C128 : PSCR_F64;
    size_t es = pt_size(t);
    for (size_t n = 5; n <= 5000; n *= 10) {
      size_t batch = 3, count = n * batch;
      void *dl = pt_alloc(t, count), *d = pt_alloc(t, count), *du = pt_alloc(t, count);
      void *b = pt_alloc(t, count), *b0 = pt_alloc(t, count), *zero = pt_alloc(t, count);
      pt_fill_dominant(&rng, t, n, batch, n, dl, d, du, 0.5);
      pt_fill_uniform(&rng, t, b, count, -1, 1);
      memcpy(b0, b, count * es);
      pscr_array *a[4] = {NULL};
      void *back = pt_alloc(t, count);
      for (int i = 0; i < 4; i++) PT_CHECK_STATUS(pscr_array_create(gpu, t, count, &a[i]), PSCR_OK);
      for (size_t k = 0; k < sizeof algs / sizeof algs[0]; k++) {
        const char *name = pscr_td_algorithm_name(algs[k]);
        /* NaN in the matrix, found by the host scan and by the kernels */
        size_t at = (size_t)pt_uniform(&rng, 0, (double)count - 1);
        pt_set(t, d, at, NAN);
        PT_CHECK_STATUS(pscr_tridiag_solve(gpu, algs[k], t, n, batch, n, dl, d, du, b, NULL),
                        PSCR_ERR_NONFINITE);
        PT_CHECK(pt_equal_bytes(b, b0, count * es), "%s: b changed on NaN", name);
        pscr_array_write(a[0], dl), pscr_array_write(a[1], d), pscr_array_write(a[2], du);
        pscr_array_write(a[3], b);
        PT_CHECK_STATUS(pscr_tridiag_solve_arrays(gpu, algs[k], t, n, batch, n, a[0], a[1], a[2],
                                                  a[3], NULL),
                        PSCR_ERR_NONFINITE);
        PT_CHECK_STATUS(pscr_array_read(a[3], back), PSCR_OK);
        PT_CHECK(pt_equal_bytes(back, b0, count * es), "%s: device b changed on NaN", name);
        pt_set(t, d, at, 1.0 / 0.0 * (at % 2 ? 1 : -1));
        PT_CHECK_STATUS(pscr_tridiag_solve(gpu, algs[k], t, n, batch, n, dl, d, du, b, NULL),
                        PSCR_ERR_NONFINITE);
        pt_set(t, d, at, 4.0);
        /* device arrays, the last system singular (zero), the others fine */
        void *dz = pt_alloc(t, count);
        memcpy(dz, d, count * es);
        for (size_t i = (batch - 1) * n; i < count; i++) pt_set(t, dz, i, 0);
        pscr_array_write(a[1], dz);
        pscr_array_write(a[0], zero), pscr_array_write(a[2], zero);
        PT_CHECK_STATUS(pscr_tridiag_solve_arrays(gpu, algs[k], t, n, batch, n, a[0], a[1], a[2],
                                                  a[3], NULL),
                        PSCR_ERR_SINGULAR);
        PT_CHECK_STATUS(pscr_array_read(a[3], back), PSCR_OK);
        PT_CHECK(pt_equal_bytes(back, b0, count * es), "%s: device b changed on SINGULAR", name);
        free(dz);
        /* the zero matrix: every pivot is zero */
        PT_CHECK_STATUS(
            pscr_tridiag_solve(gpu, algs[k], t, n, batch, n, zero, zero, zero, b, NULL),
            PSCR_ERR_SINGULAR);
        PT_CHECK(pt_equal_bytes(b, b0, count * es), "%s: b changed on SINGULAR", name);
        /* shifted: NaN in a shift */
        void *sh = pt_alloc(t, batch);
        pt_set(t, sh, 1, NAN);
        PT_CHECK_STATUS(pscr_tridiag_solve_shifted(gpu, algs[k], t, n, batch, dl, d, du, NULL, d,
                                                   NULL, sh, b, NULL),
                        PSCR_ERR_NONFINITE);
        PT_CHECK(pt_equal_bytes(b, b0, count * es), "%s: b changed on NaN shift", name);
        free(sh);
      }
      /* arrays: wrong dtype, too short, another context */
      pscr_array *other = NULL, *shortarr = NULL;
      PT_CHECK_STATUS(pscr_array_create(gpu, t == PSCR_F64 ? PSCR_C128 : PSCR_F64, count, &other),
                      PSCR_OK);
      PT_CHECK_STATUS(pscr_array_create(gpu, t, count - 1, &shortarr), PSCR_OK);
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays(gpu, PSCR_TD_THOMAS, t, n, batch, n, other, a[1],
                                                a[2], a[3], NULL),
                      PSCR_ERR_INVALID_ARGUMENT);
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays(gpu, PSCR_TD_THOMAS, t, n, batch, n, a[0], a[1],
                                                a[2], shortarr, NULL),
                      PSCR_ERR_INVALID_ARGUMENT);
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays(cpu, PSCR_TD_THOMAS, t, n, batch, n, a[0], a[1],
                                                a[2], a[3], NULL),
                      PSCR_ERR_INVALID_ARGUMENT);
      PT_CHECK_STATUS(pscr_tridiag_solve(gpu, PSCR_TD_LAPACK, t, n, batch, n, dl, d, du, b, NULL),
                      PSCR_ERR_UNSUPPORTED);
      /* round trip and native pointer */
      PT_CHECK_STATUS(pscr_array_write(a[3], b0), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_read(a[3], back), PSCR_OK);
      PT_CHECK(pt_equal_bytes(back, b0, count * es), "array round trip");
      PT_CHECK(pscr_array_native(a[3]) != NULL, "native pointer");
      free(back);
      pscr_array_destroy(other), pscr_array_destroy(shortarr);
      for (int i = 0; i < 4; i++) pscr_array_destroy(a[i]);
      free(dl), free(d), free(du), free(b), free(b0), free(zero);
    }
  }
  pt_check_array_copy(gpu, &rng);
  pscr_context_destroy(gpu);
  pscr_context_destroy(cpu);
  return pt_exit("cuda_status");
}
