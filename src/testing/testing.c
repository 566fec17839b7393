/* Test and benchmark support: see testing.h. */
#include "testing.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int pt_failures = 0, pt_checks = 0;

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void pt_rng_seed(pt_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) { /* splitmix64 */
    seed += 0x9e3779b97f4a7c15ULL;
    uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    r->s[i] = z ^ (z >> 31);
  }
}

pscr_status pt_apply_tuning(pscr_context *ctx,
                            pscr_status (*tune)(pscr_context *, const char *, int),
                            const char *list) {
  for (const char *p = list; p && *p;) {
    char name[32];
    const char *eq = strchr(p, '='), *end = strchr(p, ',');
    if (eq == NULL || (end && end < eq) || (size_t)(eq - p) >= sizeof name)
      return PSCR_ERR_INVALID_ARGUMENT;
    memcpy(name, p, (size_t)(eq - p));
    name[eq - p] = '\0';
    pscr_status st = tune(ctx, name, atoi(eq + 1));
    if (st != PSCR_OK) return st;
    p = end ? end + 1 : NULL;
  }
  return PSCR_OK;
}

uint64_t pt_fresh_seed(void) {
  const char *env = getenv("PSCR_TEST_SEED");
  uint64_t seed;
  if (env && *env) {
    seed = strtoull(env, NULL, 0);
  } else {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    seed = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
  }
  fprintf(stderr, "seed: PSCR_TEST_SEED=%llu\n", (unsigned long long)seed);
  return seed;
}

static uint64_t next(pt_rng *r) {
  uint64_t *s = r->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

double pt_uniform(pt_rng *r, double lo, double hi) {
  return lo + (hi - lo) * ((double)(next(r) >> 11) * 0x1.0p-53);
}

double pt_normal(pt_rng *r) {
  double u1 = pt_uniform(r, 0x1.0p-53, 1.0), u2 = pt_uniform(r, 0, 1);
  return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

size_t pt_size(pscr_dtype t) { return t == PSCR_C128 ? 16 : 8; }

double complex pt_get(pscr_dtype t, const void *p, size_t i) {
  return t == PSCR_C128 ? ((const double complex *)p)[i] : ((const double *)p)[i];
}

void pt_set(pscr_dtype t, void *p, size_t i, double complex v) {
  if (t == PSCR_C128)
    ((double complex *)p)[i] = v;
  else
    ((double *)p)[i] = creal(v);
}

void *pt_alloc(pscr_dtype t, size_t count) {
  void *p = calloc(count ? count : 1, pt_size(t));
  if (p == NULL) {
    fprintf(stderr, "test: out of host memory (%zu elements)\n", count);
    exit(1);
  }
  return p;
}

void pt_fill_uniform(pt_rng *r, pscr_dtype t, void *p, size_t count, double lo, double hi) {
  for (size_t i = 0; i < count; i++) {
    double re = pt_uniform(r, lo, hi);
    double im = t == PSCR_C128 ? pt_uniform(r, lo, hi) : 0;
    pt_set(t, p, i, CMPLX(re, im));
  }
}

void pt_fill_dominant(pt_rng *r, pscr_dtype t, size_t n, size_t batch, size_t stride, void *dl,
                      void *d, void *du, double margin) {
  for (size_t s = 0; s < batch; s++)
    for (size_t i = 0; i < n; i++) {
      size_t k = s * stride + i;
      double complex l = CMPLX(pt_uniform(r, -1, 1), t == PSCR_C128 ? pt_uniform(r, -1, 1) : 0);
      double complex u = CMPLX(pt_uniform(r, -1, 1), t == PSCR_C128 ? pt_uniform(r, -1, 1) : 0);
      double off = (i > 0 ? cabs(l) : 0) + (i + 1 < n ? cabs(u) : 0);
      double mag = (off + 0.1) * (1 + margin);
      double complex phase =
          t == PSCR_C128 ? cexp(I * pt_uniform(r, 0, 2 * M_PI)) : (pt_uniform(r, 0, 1) < 0.5 ? -1 : 1);
      pt_set(t, dl, k, l);
      pt_set(t, du, k, u);
      pt_set(t, d, k, mag * phase);
    }
}

void pt_tridiag_matvec(pscr_dtype t, size_t n, const void *dl, const void *d, const void *du,
                       const void *x, void *y) {
  for (size_t i = 0; i < n; i++) {
    double complex v = pt_get(t, d, i) * pt_get(t, x, i);
    if (i > 0) v += pt_get(t, dl, i) * pt_get(t, x, i - 1);
    if (i + 1 < n) v += pt_get(t, du, i) * pt_get(t, x, i + 1);
    pt_set(t, y, i, v);
  }
}

int pt_lapack_solve(pscr_dtype t, size_t n, const void *dl, const void *d, const void *du,
                    const void *b, void *x) {
  size_t e = pt_size(t);
  char *w = malloc(3 * n * e + e);
  if (w == NULL) return -1000;
  char *l = w, *dd = w + n * e, *u = w + 2 * n * e;
  if (n > 1) {
    memcpy(l, (const char *)dl + e, (n - 1) * e);
    memcpy(u, du, (n - 1) * e);
  }
  memcpy(dd, d, n * e);
  memcpy(x, b, n * e);
  int info = t == PSCR_C128
                 ? LAPACKE_zgtsv_work(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_complex_double *)l,
                                      (lapack_complex_double *)dd, (lapack_complex_double *)u,
                                      (lapack_complex_double *)x, (lapack_int)n)
                 : LAPACKE_dgtsv_work(LAPACK_COL_MAJOR, (lapack_int)n, 1, (double *)l, (double *)dd, (double *)u,
                                      (double *)x, (lapack_int)n);
  free(w);
  return info;
}

static double inf_norm(pscr_dtype t, size_t n, const void *x) {
  double m = 0;
  for (size_t i = 0; i < n; i++) {
    double a = cabs(pt_get(t, x, i));
    if (!(a <= m)) m = a; /* NaN propagates */
  }
  return m;
}

double pt_rel_error(pscr_dtype t, size_t n, const void *x, const void *xref) {
  double num = 0;
  for (size_t i = 0; i < n; i++) {
    double a = cabs(pt_get(t, x, i) - pt_get(t, xref, i));
    if (!(a <= num)) num = a;
  }
  double den = inf_norm(t, n, xref);
  return den > 0 ? num / den : num;
}

double pt_backward_error(pscr_dtype t, size_t n, const void *dl, const void *d, const void *du,
                         const void *x, const void *b) {
  double rmax = 0, anorm = 0;
  for (size_t i = 0; i < n; i++) {
    double complex v = pt_get(t, d, i) * pt_get(t, x, i);
    double row = cabs(pt_get(t, d, i));
    if (i > 0) {
      v += pt_get(t, dl, i) * pt_get(t, x, i - 1);
      row += cabs(pt_get(t, dl, i));
    }
    if (i + 1 < n) {
      v += pt_get(t, du, i) * pt_get(t, x, i + 1);
      row += cabs(pt_get(t, du, i));
    }
    double r = cabs(pt_get(t, b, i) - v);
    if (!(r <= rmax)) rmax = r;
    if (row > anorm) anorm = row;
  }
  double den = anorm * inf_norm(t, n, x) + inf_norm(t, n, b);
  return den > 0 ? rmax / den : rmax;
}

double pt_condition(pscr_dtype t, size_t n, const void *dl, const void *d, const void *du) {
  size_t e = pt_size(t);
  char *w = malloc(5 * n * e + 2 * e);
  lapack_int *ipiv = malloc(n * sizeof *ipiv);
  double rcond = 0, anorm = 0;
  if (w == NULL || ipiv == NULL) {
    free(w);
    free(ipiv);
    return NAN;
  }
  for (size_t i = 0; i < n; i++) { /* 1-norm: column sums */
    double col = cabs(pt_get(t, d, i));
    if (i + 1 < n) col += cabs(pt_get(t, dl, i + 1));
    if (i > 0) col += cabs(pt_get(t, du, i - 1));
    if (col > anorm) anorm = col;
  }
  char *l = w, *dd = w + n * e, *u = w + 2 * n * e, *u2 = w + 3 * n * e;
  if (n > 1) {
    memcpy(l, (const char *)dl + e, (n - 1) * e);
    memcpy(u, du, (n - 1) * e);
  }
  memcpy(dd, d, n * e);
  lapack_int info;
  if (t == PSCR_C128) {
    info = LAPACKE_zgttrf((lapack_int)n, (lapack_complex_double *)l, (lapack_complex_double *)dd,
                          (lapack_complex_double *)u, (lapack_complex_double *)u2, ipiv);
    if (info == 0)
      info = LAPACKE_zgtcon('1', (lapack_int)n, (lapack_complex_double *)l,
                            (lapack_complex_double *)dd, (lapack_complex_double *)u,
                            (lapack_complex_double *)u2, ipiv, anorm, &rcond);
  } else {
    info = LAPACKE_dgttrf((lapack_int)n, (double *)l, (double *)dd, (double *)u, (double *)u2, ipiv);
    if (info == 0)
      info = LAPACKE_dgtcon('1', (lapack_int)n, (double *)l, (double *)dd, (double *)u,
                            (double *)u2, ipiv, anorm, &rcond);
  }
  free(w);
  free(ipiv);
  return (info == 0 && rcond > 0) ? 1.0 / rcond : INFINITY;
}

int pt_equal_bytes(const void *a, const void *b, size_t bytes) { return memcmp(a, b, bytes) == 0; }

pscr_status pt_solve_shifted_arrays(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype t,
                                    size_t n, size_t nshift, const void *a_dl, const void *a_d,
                                    const void *a_du, const void *m_dl, const void *m_d,
                                    const void *m_du, const void *shift, void *b) {
  const void *host[8] = {a_dl, a_d, a_du, m_dl, m_d, m_du, shift, b};
  size_t count[8] = {n, n, n, n, n, n, nshift, n * nshift};
  pscr_array *arr[8] = {NULL};
  pscr_status st = PSCR_OK;
  for (int i = 0; i < 8 && st == PSCR_OK; i++)
    if (host[i]) {
      st = pscr_array_create(ctx, t, count[i], &arr[i]);
      if (st == PSCR_OK) st = pscr_array_write(arr[i], host[i]);
    }
  if (st == PSCR_OK)
    st = pscr_tridiag_solve_shifted_arrays(ctx, alg, t, n, nshift, arr[0], arr[1], arr[2], arr[3],
                                           arr[4], arr[5], arr[6], arr[7], NULL);
  if (st == PSCR_OK) st = pscr_array_read(arr[7], b);
  for (int i = 0; i < 8; i++) pscr_array_destroy(arr[i]);
  return st;
}

int pt_exit(const char *name) {
  if (pt_checks == 0) {
    fprintf(stderr, "%s: no checks ran\n", name);
    return 1;
  }
  fprintf(stderr, "%s: %d checks, %d failed\n", name, pt_checks, pt_failures);
  return pt_failures ? 1 : 0;
}
