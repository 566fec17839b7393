/* Bad input for every public core and tridiagonal entry point: the documented
 * status, and the caller's data left untouched (byte compare). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"
#include "array_copy_check.h"

enum { N = 16 };

typedef struct {
  pscr_dtype t;
  void *dl, *d, *du, *b, *b0;
} sys;

static sys make(pt_rng *r, pscr_dtype t) {
  sys s = {t, pt_alloc(t, N), pt_alloc(t, N), pt_alloc(t, N), pt_alloc(t, N), pt_alloc(t, N)};
  pt_fill_dominant(r, t, N, 1, N, s.dl, s.d, s.du, 0.5);
  pt_fill_uniform(r, t, s.b, N, -1, 1);
  memcpy(s.b0, s.b, N * pt_size(t));
  return s;
}
static void drop(sys *s) { free(s->dl), free(s->d), free(s->du), free(s->b), free(s->b0); }
static int untouched(const sys *s) { return pt_equal_bytes(s->b, s->b0, N * pt_size(s->t)); }

static void core(void) {
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_context_create((pscr_backend)7, 0, &ctx), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, -1, &ctx), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK(ctx == NULL, "no context on failure");
  for (int b = PSCR_BACKEND_CUDA; b <= PSCR_BACKEND_OPENCL; b++)
    if (!pscr_backend_available((pscr_backend)b)) {
      PT_CHECK_STATUS(pscr_context_create((pscr_backend)b, 0, &ctx), PSCR_ERR_BACKEND_UNAVAILABLE);
    } else {
      PT_CHECK_STATUS(pscr_context_create((pscr_backend)b, 1 << 20, &ctx), PSCR_ERR_BACKEND_UNAVAILABLE);
    }
  PT_CHECK(pscr_backend_available(PSCR_BACKEND_CPU) == 1, "cpu is always available");
  PT_CHECK(pscr_backend_available((pscr_backend)-3) == 0, "unknown backend");
  for (int s = -1; s <= 12; s++) PT_CHECK(pscr_status_string((pscr_status)s) != NULL, "string");
  PT_CHECK(strcmp(pscr_td_algorithm_name((pscr_td_algorithm)99), "unknown") == 0, "alg name");

  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx), PSCR_OK);
  pscr_array *arr = NULL;
  PT_CHECK_STATUS(pscr_array_create(NULL, PSCR_F64, 4, &arr), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_F64, 0, &arr), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_array_create(ctx, (pscr_dtype)5, 4, &arr), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_F64, 4, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_C128, SIZE_MAX / 2, &arr), PSCR_ERR_OUT_OF_MEMORY);
  PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_F64, 4, &arr), PSCR_OK);
  double h[4] = {1, 2, 3, 4}, g[4] = {0};
  PT_CHECK_STATUS(pscr_array_write(NULL, h), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_array_write(arr, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_array_read(arr, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_array_write(arr, h), PSCR_OK);
  PT_CHECK_STATUS(pscr_array_read(arr, g), PSCR_OK);
  PT_CHECK(memcmp(h, g, sizeof h) == 0, "array round trip");
  PT_CHECK(pscr_array_native(NULL) == NULL && pscr_array_native(arr) != NULL, "native");
  PT_CHECK(pscr_array_count(arr) == 4 && pscr_array_dtype(arr) == PSCR_F64, "count/dtype");
  PT_CHECK_STATUS(pscr_context_set_threads(ctx, -1), PSCR_ERR_INVALID_ARGUMENT);
  pscr_array_destroy(arr);
  pscr_array_destroy(NULL);
  pscr_context_destroy(ctx);
  pscr_context_destroy(NULL);
}

static void tridiag(pscr_context *ctx, pt_rng *r, pscr_dtype t) {
  sys s = make(r, t);
  const pscr_td_algorithm A = PSCR_TD_AUTO;
#define SOLVE(c, alg, dt, n, batch, stride, l, m, u, b)                                            \
  pscr_tridiag_solve(c, alg, dt, n, batch, stride, l, m, u, b, NULL)
  PT_CHECK_STATUS(SOLVE(NULL, A, t, N, 1, N, s.dl, s.d, s.du, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, (pscr_td_algorithm)42, t, N, 1, N, s.dl, s.d, s.du, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, (pscr_td_algorithm)-1, t, N, 1, N, s.dl, s.d, s.du, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, A, (pscr_dtype)2, N, 1, N, s.dl, s.d, s.du, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, A, t, 0, 1, N, s.dl, s.d, s.du, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, A, t, N, 0, N, s.dl, s.d, s.du, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, A, t, N, 1, N - 1, s.dl, s.d, s.du, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, A, t, N, SIZE_MAX / 4, N, s.dl, s.d, s.du, s.b), PSCR_ERR_OUT_OF_MEMORY);
  PT_CHECK_STATUS(SOLVE(ctx, A, t, N, 1, N, NULL, s.d, s.du, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, A, t, N, 1, N, s.dl, NULL, s.du, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, A, t, N, 1, N, s.dl, s.d, NULL, s.b), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SOLVE(ctx, A, t, N, 1, N, s.dl, s.d, s.du, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK(untouched(&s), "b untouched after invalid arguments");

  /* NaN / Inf anywhere in the used matrix data: refused, b untouched, every algorithm. */
  void *diags[3] = {s.dl, s.d, s.du};
  for (int a = 0; a < PSCR_TD_ALGORITHM_COUNT; a++)
    for (int k = 0; k < 3; k++)
      for (int bad = 0; bad < 2; bad++) {
        size_t i = 1 + (size_t)(a + k) % (N - 2);
        double complex old = pt_get(t, diags[k], i);
        pt_set(t, diags[k], i, bad ? INFINITY : NAN);
        PT_CHECK_STATUS(SOLVE(ctx, (pscr_td_algorithm)a, t, N, 1, N, s.dl, s.d, s.du, s.b), PSCR_ERR_NONFINITE);
        PT_CHECK(untouched(&s), "b untouched after NaN (alg %d)", a);
        pt_set(t, diags[k], i, old);
      }
  /* ... but NaN in the ignored corners is fine. */
  pt_set(t, s.dl, 0, NAN);
  pt_set(t, s.du, N - 1, NAN);
  PT_CHECK_STATUS(SOLVE(ctx, A, t, N, 1, N, s.dl, s.d, s.du, s.b), PSCR_OK);
  memcpy(s.b, s.b0, N * pt_size(t));

  /* NaN in b: refused or propagated, never a finite wrong answer. */
  pt_set(t, s.b, 5, NAN);
  pscr_status st = SOLVE(ctx, PSCR_TD_THOMAS, t, N, 1, N, s.dl, s.d, s.du, s.b);
  int has_nan = 0;
  for (size_t i = 0; i < N; i++) has_nan |= isnan(creal(pt_get(t, s.b, i))) || isnan(cimag(pt_get(t, s.b, i)));
  PT_CHECK(st == PSCR_ERR_NONFINITE || (st == PSCR_OK && has_nan), "NaN in b propagates");
  memcpy(s.b, s.b0, N * pt_size(t));

  /* A singular matrix (a zero row): PSCR_ERR_SINGULAR and b untouched, one system and batch. */
  for (size_t i = 0; i < N; i++) pt_set(t, s.dl, i, 0), pt_set(t, s.du, i, 0);
  pt_set(t, s.d, 7, 0);
  const pscr_td_algorithm singular_algs[] = {PSCR_TD_LAPACK, PSCR_TD_THOMAS, PSCR_TD_CR, PSCR_TD_PCR,
                                             PSCR_TD_PCR_THOMAS, PSCR_TD_SPIKE_DIAG_PIVOT,
                                             PSCR_TD_GSPIKE, PSCR_TD_AUTO};
  for (size_t a = 0; a < sizeof singular_algs / sizeof *singular_algs; a++) {
    PT_CHECK_STATUS(SOLVE(ctx, singular_algs[a], t, N, 1, N, s.dl, s.d, s.du, s.b), PSCR_ERR_SINGULAR);
    PT_CHECK(untouched(&s), "b untouched after singular (%s)", pscr_td_algorithm_name(singular_algs[a]));
    /* a batch of 2 systems of order 8: only the first is singular (d[7] = 0) */
    PT_CHECK_STATUS(SOLVE(ctx, singular_algs[a], t, N / 2, 2, N / 2, s.dl, s.d, s.du, s.b), PSCR_ERR_SINGULAR);
    PT_CHECK(untouched(&s), "batch b untouched after singular (%s)", pscr_td_algorithm_name(singular_algs[a]));
  }
  drop(&s);

  /* solve_arrays: arrays of another dtype, too short, or NULL. */
  s = make(r, t);
  pscr_array *arr[4] = {NULL}, *small = NULL;
  for (int k = 0; k < 4; k++) pscr_array_create(ctx, t, N, &arr[k]);
  pscr_array_create(ctx, t == PSCR_F64 ? PSCR_C128 : PSCR_F64, N, &small);
  PT_CHECK_STATUS(pscr_tridiag_solve_arrays(ctx, A, t, N, 1, N, arr[0], arr[1], arr[2], NULL, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_tridiag_solve_arrays(ctx, A, t, N, 1, N, arr[0], small, arr[2], arr[3], NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_tridiag_solve_arrays(ctx, A, t, N, 2, N, arr[0], arr[1], arr[2], arr[3], NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_tridiag_solve_arrays(ctx, A, t, 0, 1, N, arr[0], arr[1], arr[2], arr[3], NULL), PSCR_ERR_INVALID_ARGUMENT);

  /* solve_shifted_arrays: NULL, short, another dtype, half-given M; b untouched */
  pscr_array *sh = NULL, *bs = NULL;
  double complex shv0[2] = {1, 2};
  void *bh = pt_alloc(t, 2 * N), *bh2 = pt_alloc(t, 2 * N);
  pt_fill_uniform(r, t, bh, 2 * N, -1, 1);
  pscr_array_create(ctx, t, 2, &sh);
  pscr_array_create(ctx, t, 2 * N, &bs);
  void *shh = pt_alloc(t, 2);
  for (int k = 0; k < 2; k++) pt_set(t, shh, (size_t)k, shv0[k]);
  pscr_array_write(sh, shh);
  pscr_array_write(bs, bh);
  /* each refused by both forms; the queued one keeps nothing for the finish */
  const struct {
    pscr_context *c;
    size_t n, ns;
    pscr_array *l, *ml, *mu, *s, *b;
  } bad_sa[] = {
      {NULL, N, 2, arr[0], arr[0], arr[2], sh, bs},   {ctx, 0, 2, arr[0], arr[0], arr[2], sh, bs},
      {ctx, N, 0, arr[0], arr[0], arr[2], sh, bs},    {ctx, N, 2, NULL, arr[0], arr[2], sh, bs},
      {ctx, N, 2, small, arr[0], arr[2], sh, bs},     {ctx, N, 2, arr[0], arr[0], NULL, sh, bs},
      {ctx, N, 2, arr[0], NULL, arr[2], sh, bs},      {ctx, N, 2, arr[0], arr[0], arr[2], NULL, bs},
      {ctx, N, 2, arr[0], arr[0], arr[2], sh, NULL},  {ctx, N, 3, arr[0], arr[0], arr[2], sh, bs},
      {ctx, N + 1, 2, arr[0], arr[0], arr[2], sh, bs}, {ctx, N, 2, arr[0], arr[0], arr[2], sh, arr[3]},
  };
  for (size_t k = 0; k < sizeof bad_sa / sizeof *bad_sa; k++) {
    pscr_status st = pscr_tridiag_solve_shifted_arrays(
        bad_sa[k].c, A, t, bad_sa[k].n, bad_sa[k].ns, bad_sa[k].l, arr[1], arr[2], bad_sa[k].ml,
        arr[1], bad_sa[k].mu, bad_sa[k].s, bad_sa[k].b, NULL);
    PT_CHECK(st == PSCR_ERR_INVALID_ARGUMENT, "shifted arrays, bad case %zu: %s", k,
             pscr_status_string(st));
    st = pscr_tridiag_solve_shifted_arrays_queued(bad_sa[k].c, A, t, bad_sa[k].n, bad_sa[k].ns,
                                                  bad_sa[k].l, arr[1], arr[2], bad_sa[k].ml, arr[1],
                                                  bad_sa[k].mu, bad_sa[k].s, bad_sa[k].b);
    PT_CHECK(st == PSCR_ERR_INVALID_ARGUMENT, "shifted arrays queued, bad case %zu: %s", k,
             pscr_status_string(st));
  }
  PT_CHECK_STATUS(pscr_tridiag_solve_shifted_arrays_queued(ctx, (pscr_td_algorithm)42, t, N, 2, arr[0], arr[1], arr[2], arr[0], arr[1], arr[2], sh, bs), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_tridiag_solve_shifted_arrays_queued(ctx, A, (pscr_dtype)2, N, 2, arr[0], arr[1], arr[2], arr[0], arr[1], arr[2], sh, bs), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
  pscr_array_read(bs, bh2);
  PT_CHECK(pt_equal_bytes(bh, bh2, 2 * N * pt_size(t)), "shifted arrays: b untouched after bad arguments");
  free(bh), free(bh2), free(shh);
  pscr_array_destroy(sh);
  pscr_array_destroy(bs);
  for (int k = 0; k < 4; k++) pscr_array_destroy(arr[k]);
  pscr_array_destroy(small);

  /* shifted: NULL data, nshift 0, half-given M, NaN shift. */
  double complex shv[2] = {1, 2};
  void *shift = pt_alloc(t, 2), *b2 = pt_alloc(t, 2 * N), *b2c = pt_alloc(t, 2 * N);
  for (int k = 0; k < 2; k++) pt_set(t, shift, (size_t)k, shv[k]);
  pt_fill_uniform(r, t, b2, 2 * N, -1, 1);
  memcpy(b2c, b2, 2 * N * pt_size(t));
#define SHIFTED(c, n, ns, ml, mu, sh, bb)                                                          \
  pscr_tridiag_solve_shifted(c, A, t, n, ns, s.dl, s.d, s.du, ml, s.d, mu, sh, bb, NULL)
  PT_CHECK_STATUS(SHIFTED(NULL, N, 2, s.dl, s.du, shift, b2), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SHIFTED(ctx, 0, 2, s.dl, s.du, shift, b2), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SHIFTED(ctx, N, 0, s.dl, s.du, shift, b2), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SHIFTED(ctx, N, 2, NULL, s.du, shift, b2), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SHIFTED(ctx, N, 2, s.dl, s.du, NULL, b2), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(SHIFTED(ctx, N, 2, s.dl, s.du, shift, NULL), PSCR_ERR_INVALID_ARGUMENT);
  pt_set(t, shift, 1, NAN);
  PT_CHECK_STATUS(SHIFTED(ctx, N, 2, s.dl, s.du, shift, b2), PSCR_ERR_NONFINITE);
  pt_set(t, shift, 1, 2);
  pt_set(t, s.d, 3, INFINITY);
  PT_CHECK_STATUS(SHIFTED(ctx, N, 2, s.dl, s.du, shift, b2), PSCR_ERR_NONFINITE);
  PT_CHECK(pt_equal_bytes(b2, b2c, 2 * N * pt_size(t)), "shifted b untouched");
  free(shift), free(b2), free(b2c);
  drop(&s);
}

int main(void) {
  pt_rng r;
  pt_rng_seed(&r, pt_fresh_seed());
  core();
  pscr_context *ctx = NULL;
  pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx);
  tridiag(ctx, &r, PSCR_F64);
  tridiag(ctx, &r, PSCR_C128);
  pt_check_array_copy(ctx, &r);
  pscr_context_destroy(ctx);
  return pt_exit("test_bad_input");
}
