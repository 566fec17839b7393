/* Every algorithm x dtype x {one system, strided batch, shifted} against LAPACK
 * on fresh random strictly dominant data: relative error <= 1e-12. */
#include <stdlib.h>
#include <string.h>

#include "testing.h"

static const size_t sizes[] = {1, 2, 3, 7, 64, 1000, 65539};

static void check_one(pscr_context *ctx, pt_rng *r, pscr_td_algorithm alg, pscr_dtype t,
                      size_t n) {
  void *dl = pt_alloc(t, n), *d = pt_alloc(t, n), *du = pt_alloc(t, n);
  void *b = pt_alloc(t, n), *x = pt_alloc(t, n), *ref = pt_alloc(t, n);
  pt_fill_dominant(r, t, n, 1, n, dl, d, du, 0.5);
  /* The ignored corners hold garbage: a solver must not read them. */
  pt_set(t, dl, 0, 1e300);
  pt_set(t, du, n - 1, -1e300);
  pt_fill_uniform(r, t, b, n, -1, 1);
  memcpy(x, b, n * pt_size(t));
  PT_CHECK(pt_lapack_solve(t, n, dl, d, du, b, ref) == 0, "reference solve");
  pscr_td_report rep;
  pscr_status st = pscr_tridiag_solve(ctx, alg, t, n, 1, n, dl, d, du, x, &rep);
  PT_CHECK_STATUS(st, PSCR_OK);
  if (st == PSCR_OK)
    PT_CHECK_LE(pt_rel_error(t, n, x, ref), 1e-12, "%s dtype %d n %zu one", pscr_td_algorithm_name(alg), t, n);
  PT_CHECK(alg == PSCR_TD_AUTO ? rep.used != PSCR_TD_AUTO : rep.used == alg, "report.used");
  free(dl), free(d), free(du), free(b), free(x), free(ref);
}

static void check_batch(pscr_context *ctx, pt_rng *r, pscr_td_algorithm alg, pscr_dtype t,
                        size_t n, size_t batch) {
  size_t stride = n + 3, count = stride * batch, e = pt_size(t);
  void *dl = pt_alloc(t, count), *d = pt_alloc(t, count), *du = pt_alloc(t, count);
  void *b = pt_alloc(t, count), *x = pt_alloc(t, count), *ref = pt_alloc(t, n);
  pt_fill_dominant(r, t, n, batch, stride, dl, d, du, 0.5);
  pt_fill_uniform(r, t, b, count, -1, 1);
  memcpy(x, b, count * e);
  pscr_status st = pscr_tridiag_solve(ctx, alg, t, n, batch, stride, dl, d, du, x, NULL);
  PT_CHECK_STATUS(st, PSCR_OK);
  double worst = 0;
  for (size_t s = 0; s < batch && st == PSCR_OK; s++) {
    size_t o = s * stride * e;
    pt_lapack_solve(t, n, (char *)dl + o, (char *)d + o, (char *)du + o, (char *)b + o, ref);
    double err = pt_rel_error(t, n, (char *)x + o, ref);
    if (!(err <= worst)) worst = err;
    /* the padding between systems is not touched */
    PT_CHECK(pt_equal_bytes((char *)x + o + n * e, (char *)b + o + n * e, 3 * e), "padding");
  }
  if (st == PSCR_OK)
    PT_CHECK_LE(worst, 1e-12, "%s dtype %d n %zu batch %zu", pscr_td_algorithm_name(alg), t, n, batch);
  free(dl), free(d), free(du), free(b), free(x), free(ref);
}

static void check_shifted(pscr_context *ctx, pt_rng *r, pscr_td_algorithm alg, pscr_dtype t,
                          size_t n, size_t nshift, int diagonal_m) {
  size_t e = pt_size(t);
  void *a[3], *m[3], *dl = pt_alloc(t, n), *d = pt_alloc(t, n), *du = pt_alloc(t, n);
  for (int k = 0; k < 3; k++) a[k] = pt_alloc(t, n), m[k] = pt_alloc(t, n);
  /* A dominant with a positive diagonal, M with diagonal in [1, 2] and small
   * off-diagonals, shifts with Re >= 0 and small Im: A + s M stays strictly
   * dominant (margin >= 0.1 > growth of the off-diagonals), so well conditioned. */
  pt_fill_dominant(r, t, n, 1, n, a[0], a[1], a[2], 1.0);
  for (size_t i = 0; i < n; i++) pt_set(t, a[1], i, cabs(pt_get(t, a[1], i)));
  pt_fill_uniform(r, t, m[0], n, -0.01, 0.01);
  pt_fill_uniform(r, t, m[2], n, -0.01, 0.01);
  for (size_t i = 0; i < n; i++) pt_set(t, m[1], i, pt_uniform(r, 1, 2));
  void *shift = pt_alloc(t, nshift), *b = pt_alloc(t, n * nshift), *x = pt_alloc(t, n * nshift);
  void *ref = pt_alloc(t, n);
  for (size_t k = 0; k < nshift; k++)
    pt_set(t, shift, k, CMPLX(pt_uniform(r, 0, 3), t == PSCR_C128 ? pt_uniform(r, -0.3, 0.3) : 0));
  pt_fill_uniform(r, t, b, n * nshift, -1, 1);
  memcpy(x, b, n * nshift * e);
  pscr_status st = pscr_tridiag_solve_shifted(ctx, alg, t, n, nshift, a[0], a[1], a[2],
                                              diagonal_m ? NULL : m[0], m[1],
                                              diagonal_m ? NULL : m[2], shift, x, NULL);
  PT_CHECK_STATUS(st, PSCR_OK);
  double worst = 0;
  for (size_t s = 0; s < nshift && st == PSCR_OK; s++) {
    double complex sh = pt_get(t, shift, s);
    for (size_t i = 0; i < n; i++) {
      pt_set(t, dl, i, pt_get(t, a[0], i) + (diagonal_m ? 0 : sh * pt_get(t, m[0], i)));
      pt_set(t, d, i, pt_get(t, a[1], i) + sh * pt_get(t, m[1], i));
      pt_set(t, du, i, pt_get(t, a[2], i) + (diagonal_m ? 0 : sh * pt_get(t, m[2], i)));
    }
    pt_lapack_solve(t, n, dl, d, du, (char *)b + s * n * e, ref);
    double err = pt_rel_error(t, n, (char *)x + s * n * e, ref);
    if (!(err <= worst)) worst = err;
  }
  if (st == PSCR_OK)
    PT_CHECK_LE(worst, 1e-12, "%s dtype %d n %zu shifted %zu", pscr_td_algorithm_name(alg), t, n, nshift);
  /* the same solve on arrays: the same bits */
  void *y = pt_alloc(t, n * nshift);
  memcpy(y, b, n * nshift * e);
  PT_CHECK_STATUS(pt_solve_shifted_arrays(ctx, alg, t, n, nshift, a[0], a[1], a[2],
                                          diagonal_m ? NULL : m[0], m[1], diagonal_m ? NULL : m[2],
                                          shift, y),
                  PSCR_OK);
  PT_CHECK(pt_equal_bytes(x, y, n * nshift * e), "%s dtype %d n %zu shifted arrays",
           pscr_td_algorithm_name(alg), t, n);
  free(y);
  for (int k = 0; k < 3; k++) free(a[k]), free(m[k]);
  free(dl), free(d), free(du), free(shift), free(b), free(x), free(ref);
}

int main(void) {
  pt_rng r;
  pt_rng_seed(&r, pt_fresh_seed());
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx), PSCR_OK);
  for (int a = 0; a < PSCR_TD_ALGORITHM_COUNT; a++)
    for (int t = 0; t < 2; t++)
      for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        check_one(ctx, &r, (pscr_td_algorithm)a, (pscr_dtype)t, n);
        size_t batch = n <= 1000 ? 9 : 2, nshift = n <= 1000 ? 7 : 2;
        check_batch(ctx, &r, (pscr_td_algorithm)a, (pscr_dtype)t, n, batch);
        check_shifted(ctx, &r, (pscr_td_algorithm)a, (pscr_dtype)t, n, nshift, (int)(k % 2));
      }
  pscr_context_destroy(ctx);
  return pt_exit("test_tridiag_all");
}
