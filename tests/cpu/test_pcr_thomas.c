/* CR, PCR and PCR_THOMAS (both variants, forced switch points, every thread
 * count) against LAPACK on fresh random dominant data: relative error <= 1e-12.
 * Also: the switch point model is sane, and a zero row gives
 * PSCR_ERR_SINGULAR with b untouched. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "testing.h"
#include "tridiag/pcr_thomas.h"
#include "tridiag/td.h"

typedef struct {
  pscr_dtype t;
  size_t n;
  void *dl, *d, *du, *b, *x, *ref;
} sys;

static void sys_make(pt_rng *r, sys *s, pscr_dtype t, size_t n) {
  s->t = t, s->n = n;
  s->dl = pt_alloc(t, n), s->d = pt_alloc(t, n), s->du = pt_alloc(t, n);
  s->b = pt_alloc(t, n), s->x = pt_alloc(t, n), s->ref = pt_alloc(t, n);
  pt_fill_dominant(r, t, n, 1, n, s->dl, s->d, s->du, 0.5);
  pt_set(t, s->dl, 0, 1e300); /* ignored corners hold garbage */
  pt_set(t, s->du, n - 1, -1e300);
  pt_fill_uniform(r, t, s->b, n, -1, 1);
  PT_CHECK(pt_lapack_solve(t, n, s->dl, s->d, s->du, s->b, s->ref) == 0, "reference n %zu", n);
}

static void sys_free(sys *s) {
  free(s->dl), free(s->d), free(s->du), free(s->b), free(s->x), free(s->ref);
}

/* alg: PSCR_TD_CR, PSCR_TD_PCR or PSCR_TD_PCR_THOMAS (then variant, levels). */
static pscr_status solve(sys *s, pscr_td_algorithm alg, int threads, int variant, int levels) {
  td_ctl ctl = {.threads = threads, .variant = variant};
  memcpy(s->x, s->b, s->n * pt_size(s->t));
  if (s->t == PSCR_F64) {
    if (alg == PSCR_TD_PCR_THOMAS)
      return td_pcr_thomas_run_d(s->n, s->dl, s->d, s->du, s->x, &ctl, levels);
    return td_lookup_d(alg)(s->n, s->dl, s->d, s->du, s->x, &ctl);
  }
  if (alg == PSCR_TD_PCR_THOMAS)
    return td_pcr_thomas_run_z(s->n, s->dl, s->d, s->du, s->x, &ctl, levels);
  return td_lookup_z(alg)(s->n, s->dl, s->d, s->du, s->x, &ctl);
}

static void check(sys *s, pscr_td_algorithm alg, int threads, int variant, int levels) {
  pscr_status st = solve(s, alg, threads, variant, levels);
  PT_CHECK(st == PSCR_OK, "%s n %zu dtype %d threads %d variant %d levels %d: %s",
           pscr_td_algorithm_name(alg), s->n, s->t, threads, variant, levels,
           pscr_status_string(st));
  if (st == PSCR_OK)
    PT_CHECK_LE(pt_rel_error(s->t, s->n, s->x, s->ref), 1e-12,
                "%s n %zu dtype %d threads %d variant %d levels %d", pscr_td_algorithm_name(alg),
                s->n, s->t, threads, variant, levels);
}

static void test_pcr_thomas(pt_rng *r, int maxt) {
  static const size_t sizes[] = {1, 2, 3, 7, 64, 1000, 65539, (size_t)1 << 20};
  static const int levels[] = {-1, 0, 1, 2, 3, 4, 5, 8, 10};
  for (int t = 0; t < 2; t++)
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      sys s;
      sys_make(r, &s, (pscr_dtype)t, sizes[k]);
      int big = sizes[k] > 100000;
      for (int th = 1; th <= maxt; th++) {
        if (big && th != 1 && th != maxt) continue;
        for (int v = 0; v <= 3; v++)
          for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
            if (big && levels[l] != -1 && levels[l] != 10) continue;
            if (v == 0 && levels[l] != -1) continue;
            check(&s, PSCR_TD_PCR_THOMAS, th, v, levels[l]);
          }
      }
      sys_free(&s);
    }
}

/* P+PT on a barely dominant system, -1, 2 + 1e-7, -1 (shifted 1D Laplacian,
 * condition ~4e7): its spikes w' decay slowly (like (1 - 3e-4)^k), so they
 * are carried across whole ranges and tiles; every level with a SIMD form
 * (P = 2 .. 16) and every thread count. Relative error <= 1e-7 (cond eps). */
static void test_weak(pt_rng *r, int maxt) {
  static const size_t sizes[] = {1000, 65539};
  for (int t = 0; t < 2; t++)
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      sys s;
      size_t n = sizes[k];
      s.t = (pscr_dtype)t, s.n = n;
      s.dl = pt_alloc(s.t, n), s.d = pt_alloc(s.t, n), s.du = pt_alloc(s.t, n);
      s.b = pt_alloc(s.t, n), s.x = pt_alloc(s.t, n), s.ref = pt_alloc(s.t, n);
      for (size_t i = 0; i < n; i++)
        pt_set(s.t, s.dl, i, -1), pt_set(s.t, s.d, i, 2 + 1e-7), pt_set(s.t, s.du, i, -1);
      pt_fill_uniform(r, s.t, s.b, n, -1, 1);
      PT_CHECK(pt_lapack_solve(s.t, n, s.dl, s.d, s.du, s.b, s.ref) == 0, "reference n %zu", n);
      for (int th = 1; th <= maxt; th++)
        for (int l = 1; l <= 4; l++) {
          pscr_status st = solve(&s, PSCR_TD_PCR_THOMAS, th, TD_PT_PARTITIONED, l);
          PT_CHECK_STATUS(st, PSCR_OK);
          if (st == PSCR_OK)
            PT_CHECK_LE(pt_rel_error(s.t, n, s.x, s.ref), 1e-7,
                        "weak n %zu dtype %d threads %d levels %d", n, t, th, l);
        }
      sys_free(&s);
    }
}

/* Through the public API, as users call it (context threads, AUTO never picked here). */
static void test_public(pt_rng *r, int maxt) {
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx), PSCR_OK);
  if (ctx == NULL) return;
  for (int t = 0; t < 2; t++) {
    sys s;
    sys_make(r, &s, (pscr_dtype)t, 200003);
    static const pscr_td_algorithm algs[] = {PSCR_TD_CR, PSCR_TD_PCR, PSCR_TD_PCR_THOMAS};
    for (int a = 0; a < 3; a++) {
      pscr_context_set_threads(ctx, maxt);
      memcpy(s.x, s.b, s.n * pt_size(s.t));
      pscr_td_report rep;
      PT_CHECK_STATUS(
          pscr_tridiag_solve(ctx, algs[a], s.t, s.n, 1, s.n, s.dl, s.d, s.du, s.x, &rep), PSCR_OK);
      PT_CHECK_LE(pt_rel_error(s.t, s.n, s.x, s.ref), 1e-12, "public %s",
                  pscr_td_algorithm_name(algs[a]));
    }
    sys_free(&s);
  }
  pscr_context_destroy(ctx);
}

/* The context's scratch pool (td_scratch): one context solving alternately
 * small and large systems with every algorithm (the pool grows, then is
 * reused by smaller solves), and two caller threads solving on the same
 * context at once (one holds the pool, the other allocates): every answer
 * within 1e-12 of LAPACK's. */
static void test_pool(pt_rng *r) {
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx), PSCR_OK);
  if (ctx == NULL) return;
  static const pscr_td_algorithm algs[] = {PSCR_TD_THOMAS, PSCR_TD_CR, PSCR_TD_PCR,
                                           PSCR_TD_PCR_THOMAS, PSCR_TD_SPIKE_DIAG_PIVOT,
                                           PSCR_TD_GSPIKE, PSCR_TD_LAPACK};
  sys s[2];
  sys_make(r, &s[0], PSCR_C128, 1001);
  sys_make(r, &s[1], PSCR_C128, 150001);
  pscr_context_set_threads(ctx, 2);
  for (int rep = 0; rep < 4; rep++)
    for (int a = 0; a < 7; a++) {
      sys *q = &s[rep & 1];
      memcpy(q->x, q->b, q->n * pt_size(q->t));
      PT_CHECK_STATUS(pscr_tridiag_solve(ctx, algs[a], q->t, q->n, 1, q->n, q->dl, q->d, q->du,
                                         q->x, NULL),
                      PSCR_OK);
      PT_CHECK_LE(pt_rel_error(q->t, q->n, q->x, q->ref), 1e-12, "pool: %s n %zu",
                  pscr_td_algorithm_name(algs[a]), q->n);
    }
  pscr_context_set_threads(ctx, 1);
  int ok[2] = {0, 0};
#ifdef _OPENMP
#pragma omp parallel for num_threads(2)
#endif
  for (int k = 0; k < 2; k++)
    for (int rep = 0; rep < 3; rep++) {
      size_t bytes = s[k].n * pt_size(s[k].t);
      void *x = malloc(bytes);
      memcpy(x, s[k].b, bytes);
      ok[k] += x && pscr_tridiag_solve(ctx, PSCR_TD_THOMAS, s[k].t, s[k].n, 1, s[k].n, s[k].dl,
                                       s[k].d, s[k].du, x, NULL) == PSCR_OK &&
               pt_rel_error(s[k].t, s[k].n, x, s[k].ref) <= 1e-12;
      free(x);
    }
  PT_CHECK(ok[0] == 3 && ok[1] == 3, "two threads on one context: %d and %d of 3 right", ok[0],
           ok[1]);
  sys_free(&s[0]), sys_free(&s[1]);
  pscr_context_destroy(ctx);
}

static void test_cr_pcr(pt_rng *r, int maxt) {
  static const pscr_td_algorithm algs[] = {PSCR_TD_CR, PSCR_TD_PCR};
  for (int t = 0; t < 2; t++) {
    for (size_t n = 1; n <= 40; n++) {
      sys s;
      sys_make(r, &s, (pscr_dtype)t, n);
      for (int a = 0; a < 2; a++) {
        check(&s, algs[a], 1, 0, 0);
        check(&s, algs[a], maxt, 0, 0);
      }
      sys_free(&s);
    }
    static const size_t big[] = {1000, 65539, 300001};
    for (size_t k = 0; k < 3; k++) {
      sys s;
      sys_make(r, &s, (pscr_dtype)t, big[k]);
      for (int a = 0; a < 2; a++) {
        check(&s, algs[a], 1, 0, 0);
        if (maxt > 1) check(&s, algs[a], maxt, 0, 0);
      }
      sys_free(&s);
    }
  }
}

/* A zero row: every method meets a zero pivot and must leave b untouched. */
static void test_singular(pt_rng *r, int maxt) {
  static const size_t sizes[] = {1, 5, 64, 4099, 70001};
  for (int t = 0; t < 2; t++)
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      sys s;
      size_t n = sizes[k];
      sys_make(r, &s, (pscr_dtype)t, n);
      size_t z = (size_t)pt_uniform(r, 0, (double)n);
      if (z >= n) z = n - 1;
      pt_set(s.t, s.dl, z, 0), pt_set(s.t, s.d, z, 0), pt_set(s.t, s.du, z, 0);
      void *keep = pt_alloc(s.t, n);
      struct {
        pscr_td_algorithm alg;
        int variant, levels;
      } cases[] = {{PSCR_TD_CR, 0, 0},         {PSCR_TD_PCR, 0, 0},
                   {PSCR_TD_PCR_THOMAS, 1, 0}, {PSCR_TD_PCR_THOMAS, 1, 2},
                   {PSCR_TD_PCR_THOMAS, 1, 6}, {PSCR_TD_PCR_THOMAS, 2, 2},
                   {PSCR_TD_PCR_THOMAS, 2, 6}, {PSCR_TD_PCR_THOMAS, 3, 1},
                   {PSCR_TD_PCR_THOMAS, 3, 2}, {PSCR_TD_PCR_THOMAS, 3, 4},
                   {PSCR_TD_PCR_THOMAS, 0, -1}};
      for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (int th = 1; th <= maxt; th += maxt > 1 ? maxt - 1 : 1) {
          pt_fill_uniform(r, s.t, s.b, n, -1, 1);
          memcpy(keep, s.b, n * pt_size(s.t));
          /* unscanned: P+PT's own scan must tell the zero row from bad input */
          td_ctl ctl = {.threads = th, .variant = cases[c].variant, .unscanned = 1};
          pscr_status st;
          if (s.t == PSCR_F64)
            st = cases[c].alg == PSCR_TD_PCR_THOMAS
                     ? td_pcr_thomas_run_d(n, s.dl, s.d, s.du, s.b, &ctl, cases[c].levels)
                     : td_lookup_d(cases[c].alg)(n, s.dl, s.d, s.du, s.b, &ctl);
          else
            st = cases[c].alg == PSCR_TD_PCR_THOMAS
                     ? td_pcr_thomas_run_z(n, s.dl, s.d, s.du, s.b, &ctl, cases[c].levels)
                     : td_lookup_z(cases[c].alg)(n, s.dl, s.d, s.du, s.b, &ctl);
          PT_CHECK(st == PSCR_ERR_SINGULAR, "%s variant %d levels %d n %zu zero row %zu: %s",
                   pscr_td_algorithm_name(cases[c].alg), cases[c].variant, cases[c].levels, n, z,
                   pscr_status_string(st));
          PT_CHECK(pt_equal_bytes(keep, s.b, n * pt_size(s.t)), "b untouched (%s n %zu)",
                   pscr_td_algorithm_name(cases[c].alg), n);
        }
      free(keep);
      sys_free(&s);
    }
}

/* NaN or Inf in dl, d or du, left to PCR_THOMAS's own input scan (P+PT
 * scans in its first pass: rows near the matrix's ends, tile edges and
 * range edges): PSCR_ERR_NONFINITE, b untouched. */
static void test_nonfinite(pt_rng *r, int maxt) {
  size_t n = 70001;
  for (int t = 0; t < 2; t++) {
    sys s;
    sys_make(r, &s, (pscr_dtype)t, n);
    void *keep = pt_alloc(s.t, n), *diag[3] = {s.dl, s.d, s.du};
    size_t rows[] = {0, 1, 2, 2047, 2048, 2049, n / 2, n - 2, n - 1, 0};
    rows[9] = (size_t)pt_uniform(r, 1, (double)n - 1);
    for (size_t k = 0; k < sizeof rows / sizeof *rows; k++)
      for (int q = 0; q < 3; q++) {
        size_t i = rows[k];
        if ((q == 0 && i == 0) || (q == 2 && i == n - 1)) continue; /* ignored corners */
        double complex old = pt_get(s.t, diag[q], i);
        pt_set(s.t, diag[q], i, k & 1 ? INFINITY : NAN);
        for (int th = 1; th <= maxt; th += maxt > 1 ? maxt - 1 : 1)
          for (int v = 0; v <= 3; v++) {
            memcpy(keep, s.b, n * pt_size(s.t));
            td_ctl ctl = {.threads = th, .variant = v, .unscanned = 1};
            pscr_status st = s.t == PSCR_F64
                                 ? td_pcr_thomas_run_d(n, s.dl, s.d, s.du, s.b, &ctl, -1)
                                 : td_pcr_thomas_run_z(n, s.dl, s.d, s.du, s.b, &ctl, -1);
            PT_CHECK(st == PSCR_ERR_NONFINITE, "variant %d threads %d diagonal %d row %zu: %s", v,
                     th, q, i, pscr_status_string(st));
            PT_CHECK(pt_equal_bytes(keep, s.b, n * pt_size(s.t)), "b untouched (row %zu)", i);
          }
        pt_set(s.t, diag[q], i, old);
      }
    free(keep);
    sys_free(&s);
  }
}

/* The switch point model: 0 for tiny n, never past log2 n, monotone in n and cores. */
static void test_levels(void) {
  PT_CHECK(td_pcr_thomas_levels(1, 16) == 0 && td_pcr_thomas_levels(100, 64) == 0,
           "tiny n gives 0 levels");
  PT_CHECK(td_pcr_thomas_levels((size_t)1 << 25, 16) > 0, "2^25 rows on 16 cores split");
  int monotone_n = 1, monotone_p = 1, bounded = 1;
  for (int p = 1; p <= 128; p++) {
    int prev = 0;
    for (size_t n = 1; n <= ((size_t)1 << 30); n = n * 3 / 2 + 1) {
      int l = td_pcr_thomas_levels(n, p);
      if (l < prev) monotone_n = 0;
      if (l < 0 || ((size_t)1 << l) > n) bounded = 0;
      if (p > 1 && l < td_pcr_thomas_levels(n, p - 1)) monotone_p = 0;
      prev = l;
    }
  }
  PT_CHECK(monotone_n, "levels non-decreasing in n");
  PT_CHECK(monotone_p, "levels non-decreasing in cores");
  PT_CHECK(bounded, "0 <= levels <= log2 n");
}

int main(void) {
  pt_rng r;
  pt_rng_seed(&r, pt_fresh_seed());
#ifdef _OPENMP
  int maxt = omp_get_max_threads();
#else
  int maxt = 1;
#endif
  if (maxt > 16) maxt = 16;
  test_levels();
  test_cr_pcr(&r, maxt);
  test_singular(&r, maxt);
  test_nonfinite(&r, maxt);
  test_pcr_thomas(&r, maxt);
  test_weak(&r, maxt);
  test_public(&r, maxt);
  test_pool(&r);
  return pt_exit("pcr_thomas");
}
