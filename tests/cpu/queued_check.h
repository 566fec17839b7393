/* Queued solves (pscr_tridiag_solve_arrays_queued and its shifted form,
 * pscr_context_finish) on any backend, shared by the cpu, cuda and opencl
 * tests: results equal to the waiting solve's (the shifted: bit for bit); a
 * failure (NaN, a singular matrix) reported by the next finish and only
 * there, whatever ran between; the next finish starts afresh; the matrices
 * untouched; bad arguments refused at once. */
#ifndef PSCR_TESTS_QUEUED_CHECK_H
#define PSCR_TESTS_QUEUED_CHECK_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"

/* One problem: a batch of `batch` systems of n rows on ctx's device, and the
 * host copies it came from. */
typedef struct {
  pscr_dtype t;
  size_t n, batch, count;
  void *h[4];          /* dl, d, du, b as made */
  pscr_array *a[4];    /* their device copies */
} q_problem;

static void q_make(pscr_context *ctx, pt_rng *rng, pscr_dtype t, size_t n, size_t batch,
                   int dominant, q_problem *p) {
  *p = (q_problem){.t = t, .n = n, .batch = batch, .count = n * batch};
  for (int i = 0; i < 4; i++) p->h[i] = pt_alloc(t, p->count);
  if (dominant)
    pt_fill_dominant(rng, t, n, batch, n, p->h[0], p->h[1], p->h[2], 0.5);
  else
    for (int i = 0; i < 3; i++) pt_fill_uniform(rng, t, p->h[i], p->count, -1, 1);
  pt_fill_uniform(rng, t, p->h[3], p->count, -1, 1);
  for (int i = 0; i < 4; i++) {
    PT_CHECK_STATUS(pscr_array_create(ctx, t, p->count, &p->a[i]), PSCR_OK);
    if (p->a[i]) PT_CHECK_STATUS(pscr_array_write(p->a[i], p->h[i]), PSCR_OK);
  }
}

static void q_free(q_problem *p) {
  for (int i = 0; i < 4; i++) {
    pscr_array_destroy(p->a[i]);
    free(p->h[i]);
  }
}

static pscr_status q_queue(pscr_context *ctx, pscr_td_algorithm alg, q_problem *p) {
  return pscr_tridiag_solve_arrays_queued(ctx, alg, p->t, p->n, p->batch, p->n, p->a[0], p->a[1],
                                          p->a[2], p->a[3]);
}

/* The queued solution of p (its device b) against the waiting solve of the
 * same data by alg on the same context, and the matrices untouched. */
static void q_compare(pscr_context *ctx, pscr_td_algorithm alg, q_problem *p, const char *what) {
  size_t es = pt_size(p->t), bytes = p->count * es;
  void *xq = pt_alloc(p->t, p->count), *x = pt_alloc(p->t, p->count);
  void *back = pt_alloc(p->t, p->count);
  PT_CHECK_STATUS(pscr_array_read(p->a[3], xq), PSCR_OK);
  for (int i = 0; i < 3; i++) {
    PT_CHECK_STATUS(pscr_array_read(p->a[i], back), PSCR_OK);
    PT_CHECK(pt_equal_bytes(back, p->h[i], bytes), "%s: matrix array %d changed", what, i);
  }
  memcpy(x, p->h[3], bytes);
  PT_CHECK_STATUS(pscr_tridiag_solve(ctx, alg, p->t, p->n, p->batch, p->n, p->h[0], p->h[1],
                                     p->h[2], x, NULL),
                  PSCR_OK);
  double e = 0, m = 0;
  for (size_t i = 0; i < p->count; i++) {
    e = fmax(e, cabs(pt_get(p->t, xq, i) - pt_get(p->t, x, i)));
    m = fmax(m, cabs(pt_get(p->t, x, i)));
  }
  PT_CHECK_LE(e / m, 1e-12, "%s: n %zu batch %zu, queued against waiting solve", what, p->n,
              p->batch);
  free(xq), free(x), free(back);
}

/* Every check on ctx (a context of the backend under test). */
static void queued_checks(pscr_context *ctx, pt_rng *rng) {
  static const size_t sizes[] = {1, 33, 1000, 5000, 70000}; /* 70000: multi-tile everywhere */
  PT_CHECK_STATUS(pscr_context_finish(NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK); /* nothing queued */
  for (int z = 0; z < 2; z++) {
    pscr_dtype t = z ? PSCR_C128 : PSCR_F64;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
      size_t n = sizes[k], batch = n > 1000 ? 2 : 3;
      q_problem p1, p2, p3, bad, sing;
      q_make(ctx, rng, t, n, batch, 1, &p1);
      q_make(ctx, rng, t, n, batch, 0, &p2);
      q_make(ctx, rng, t, n, batch, 0, &p3);
      q_make(ctx, rng, t, n, batch, 1, &bad);
      q_make(ctx, rng, t, n, batch, 1, &sing);
      /* 1. three solves queued, one finish */
      PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_CR_PCR_THOMAS, &p1), PSCR_OK);
      PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, &p2), PSCR_OK);
      PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_AUTO, &p3), PSCR_OK);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
      q_compare(ctx, PSCR_TD_CR_PCR_THOMAS, &p1, "CR_PCR_THOMAS");
      q_compare(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, &p2, "SPIKE_DIAG_PIVOT");
      q_compare(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, &p3, "AUTO");
      /* 2. a NaN among good solves: their results stand, the finish says NONFINITE */
      size_t at = (size_t)pt_uniform(rng, 0, (double)bad.count - 1);
      pt_set(t, bad.h[1], at, NAN);
      PT_CHECK_STATUS(pscr_array_write(bad.a[1], bad.h[1]), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_write(p1.a[3], p1.h[3]), PSCR_OK);
      PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_CR_PCR_THOMAS, &bad), PSCR_OK);
      PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_CR_PCR_THOMAS, &p1), PSCR_OK);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_ERR_NONFINITE);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK); /* afresh */
      q_compare(ctx, PSCR_TD_CR_PCR_THOMAS, &p1, "CR_PCR_THOMAS after a NaN");
      /* 3. a singular batch (all zero), then a waiting solve between: that one
       * reports its own status, the finish the queued one's */
      void *zero = pt_alloc(t, sing.count);
      PT_CHECK_STATUS(pscr_array_write(sing.a[1], zero), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_write(sing.a[0], zero), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_write(sing.a[2], zero), PSCR_OK);
      PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, &sing), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_write(p2.a[3], p2.h[3]), PSCR_OK);
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, t, n, batch, n,
                                                p2.a[0], p2.a[1], p2.a[2], p2.a[3], NULL),
                      PSCR_OK);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_ERR_SINGULAR);
      /* 4. solvers a device does not queue: solved at once, failure kept */
      PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_GSPIKE, &bad), PSCR_OK);
      PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_THOMAS, &p1), PSCR_OK);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_ERR_NONFINITE);
      /* 5. bad arguments: refused at once, nothing kept */
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays_queued(ctx, PSCR_TD_CR_PCR_THOMAS, t, n, batch, n,
                                                       p1.a[0], NULL, p1.a[2], p1.a[3]),
                      PSCR_ERR_INVALID_ARGUMENT);
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays_queued(ctx, (pscr_td_algorithm)99, t, n, batch, n,
                                                       p1.a[0], p1.a[1], p1.a[2], p1.a[3]),
                      PSCR_ERR_INVALID_ARGUMENT);
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays_queued(ctx, PSCR_TD_CR_PCR_THOMAS, t, n, batch + 1,
                                                       n, p1.a[0], p1.a[1], p1.a[2], p1.a[3]),
                      PSCR_ERR_INVALID_ARGUMENT);
      PT_CHECK_STATUS(pscr_tridiag_solve_arrays_queued(NULL, PSCR_TD_CR_PCR_THOMAS, t, n, batch, n,
                                                       p1.a[0], p1.a[1], p1.a[2], p1.a[3]),
                      PSCR_ERR_INVALID_ARGUMENT);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
      /* 6. more solves than the status slots (PSCR_QUEUE_SLOTS, 32): the
       * 33rd waits for the others, a failure past it still reported */
      if (n == 33) {
        for (int i = 0; i < 40; i++)
          PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_CR_PCR_THOMAS, i == 35 ? &bad : &p1), PSCR_OK);
        PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_ERR_NONFINITE);
        for (int i = 0; i < 40; i++)
          PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_CR_PCR_THOMAS, &p1), PSCR_OK);
        PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
      }
      /* 7. a queued solve, then its arrays destroyed: destruction waits for it */
      PT_CHECK_STATUS(q_queue(ctx, PSCR_TD_CR_PCR_THOMAS, &bad), PSCR_OK);
      free(zero);
      q_free(&p1), q_free(&p2), q_free(&p3), q_free(&bad), q_free(&sing);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_ERR_NONFINITE);
    }
  }
}

/* One shifted problem: (A + shift[s] M) x_s = b_s, s < ns, on ctx's device,
 * and the host copies it came from: a_dl, a_d, a_du, m_dl, m_d, m_du (NULL
 * where M is diagonal), shift, b. */
typedef struct {
  pscr_dtype t;
  size_t n, ns;
  void *h[8];
  pscr_array *a[8];
} qs_problem;

static size_t qs_count(const qs_problem *p, int i) {
  return i < 6 ? p->n : i == 6 ? p->ns : p->n * p->ns;
}

static void qs_upload(pscr_context *ctx, qs_problem *p) {
  for (int i = 0; i < 8; i++)
    if (p->h[i]) {
      PT_CHECK_STATUS(pscr_array_create(ctx, p->t, qs_count(p, i), &p->a[i]), PSCR_OK);
      if (p->a[i]) PT_CHECK_STATUS(pscr_array_write(p->a[i], p->h[i]), PSCR_OK);
    }
}

/* dominant: A + s M strictly diagonally dominant for every shift (A's
 * diagonal made positive, M's in [2, 3], Re s in [0, 4], |Im s| <= 0.3 Re s);
 * else every entry random. */
static void qs_make(pscr_context *ctx, pt_rng *rng, pscr_dtype t, size_t n, size_t ns,
                    int dominant, int diag_m, qs_problem *p) {
  *p = (qs_problem){.t = t, .n = n, .ns = ns};
  for (int i = 0; i < 8; i++)
    if (!diag_m || (i != 3 && i != 5)) p->h[i] = pt_alloc(t, qs_count(p, i));
  if (dominant) {
    pt_fill_dominant(rng, t, n, 1, n, p->h[0], p->h[1], p->h[2], 0.5);
    for (size_t i = 0; i < n; i++) {
      pt_set(t, p->h[1], i, cabs(pt_get(t, p->h[1], i)));
      pt_set(t, p->h[4], i, pt_uniform(rng, 2, 3));
    }
    for (int i = 3; i < 6; i += 2)
      if (p->h[i]) pt_fill_uniform(rng, t, p->h[i], n, -0.5, 0.5);
    for (size_t s = 0; s < ns; s++) {
      double re = pt_uniform(rng, 0, 4);
      pt_set(t, p->h[6], s, CMPLX(re, t == PSCR_C128 ? re * pt_uniform(rng, -0.3, 0.3) : 0));
    }
  } else {
    for (int i = 0; i < 7; i++)
      if (p->h[i]) pt_fill_uniform(rng, t, p->h[i], qs_count(p, i), -1, 1);
  }
  pt_fill_uniform(rng, t, p->h[7], n * ns, -1, 1);
  qs_upload(ctx, p);
}

static void qs_free(qs_problem *p) {
  for (int i = 0; i < 8; i++) {
    pscr_array_destroy(p->a[i]);
    free(p->h[i]);
  }
}

static pscr_status qs_queue(pscr_context *ctx, pscr_td_algorithm alg, qs_problem *p) {
  return pscr_tridiag_solve_shifted_arrays_queued(ctx, alg, p->t, p->n, p->ns, p->a[0], p->a[1],
                                                  p->a[2], p->a[3], p->a[4], p->a[5], p->a[6],
                                                  p->a[7]);
}

/* b's device copy (p->h[7] before any solve) unchanged, byte for byte. */
static int qs_b_untouched(qs_problem *p) {
  size_t bytes = p->n * p->ns * pt_size(p->t);
  void *back = pt_alloc(p->t, p->n * p->ns);
  int same = pscr_array_read(p->a[7], back) == PSCR_OK && pt_equal_bytes(back, p->h[7], bytes);
  free(back);
  return same;
}

/* The queued solution of p (its device b) against the waiting solve by alg
 * of the same arrays on the same context, bit for bit; A, M and the shifts
 * untouched; for a dominant p, each system's backward error. */
static void qs_compare(pscr_context *ctx, pscr_td_algorithm alg, qs_problem *p, int dominant,
                       const char *what) {
  pscr_dtype t = p->t;
  size_t n = p->n, total = n * p->ns, es = pt_size(t);
  void *xq = pt_alloc(t, total), *x = pt_alloc(t, total), *back = pt_alloc(t, total);
  PT_CHECK_STATUS(pscr_array_read(p->a[7], xq), PSCR_OK);
  for (int i = 0; i < 7; i++)
    if (p->a[i]) {
      PT_CHECK_STATUS(pscr_array_read(p->a[i], back), PSCR_OK);
      PT_CHECK(pt_equal_bytes(back, p->h[i], qs_count(p, i) * es), "%s: array %d changed", what, i);
    }
  PT_CHECK_STATUS(pscr_array_write(p->a[7], p->h[7]), PSCR_OK);
  PT_CHECK_STATUS(pscr_tridiag_solve_shifted_arrays(ctx, alg, t, n, p->ns, p->a[0], p->a[1],
                                                    p->a[2], p->a[3], p->a[4], p->a[5], p->a[6],
                                                    p->a[7], NULL),
                  PSCR_OK);
  PT_CHECK_STATUS(pscr_array_read(p->a[7], x), PSCR_OK);
  PT_CHECK(pt_equal_bytes(xq, x, total * es), "%s: n %zu nshift %zu, queued != waiting solve",
           what, n, p->ns);
  if (dominant) { /* A + s M formed on the host, each system's backward error */
    void *l = pt_alloc(t, n), *d = pt_alloc(t, n), *u = pt_alloc(t, n);
    double worst = 0;
    for (size_t s = 0; s < p->ns; s++) {
      double complex sh = pt_get(t, p->h[6], s);
      for (size_t i = 0; i < n; i++) {
        pt_set(t, l, i, pt_get(t, p->h[0], i) + (p->h[3] ? sh * pt_get(t, p->h[3], i) : 0));
        pt_set(t, d, i, pt_get(t, p->h[1], i) + sh * pt_get(t, p->h[4], i));
        pt_set(t, u, i, pt_get(t, p->h[2], i) + (p->h[5] ? sh * pt_get(t, p->h[5], i) : 0));
      }
      double e = pt_backward_error(t, n, l, d, u, (char *)xq + s * n * es,
                                   (char *)p->h[7] + s * n * es);
      if (!(e <= worst)) worst = e;
    }
    PT_CHECK_LE(worst, 1e-12, "%s: n %zu nshift %zu, backward error", what, n, p->ns);
    free(l), free(d), free(u);
  }
  free(xq), free(x), free(back);
}

/* The shifted queued form (pscr_tridiag_solve_shifted_arrays_queued) on ctx. */
static void queued_shifted_checks(pscr_context *ctx, pt_rng *rng) {
  static const size_t sizes[][2] = {{1, 4}, {33, 5}, {512, 3}, {70000, 2}}; /* n, nshift */
  for (int z = 0; z < 2; z++) {
    pscr_dtype t = z ? PSCR_C128 : PSCR_F64;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
      size_t n = sizes[k][0], ns = sizes[k][1];
      qs_problem p1, p2, p3, p4, bad, nanb, sing;
      qs_make(ctx, rng, t, n, ns, 1, 0, &p1);
      qs_make(ctx, rng, t, n, ns, 0, 0, &p2);
      qs_make(ctx, rng, t, n, ns, 1, 1, &p3); /* M diagonal */
      qs_make(ctx, rng, t, n, ns, 1, 0, &p4);
      qs_make(ctx, rng, t, n, ns, 1, 0, &bad);
      qs_make(ctx, rng, t, n, ns, 1, 0, &nanb);
      /* 1. queued solvers, AUTO, and one the devices solve at once; one finish */
      PT_CHECK_STATUS(qs_queue(ctx, PSCR_TD_CR_PCR_THOMAS, &p1), PSCR_OK);
      PT_CHECK_STATUS(qs_queue(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, &p2), PSCR_OK);
      PT_CHECK_STATUS(qs_queue(ctx, PSCR_TD_AUTO, &p3), PSCR_OK);
      PT_CHECK_STATUS(qs_queue(ctx, PSCR_TD_THOMAS, &p4), PSCR_OK);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
      qs_compare(ctx, PSCR_TD_CR_PCR_THOMAS, &p1, 1, "shifted CR_PCR_THOMAS");
      qs_compare(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, &p2, 0, "shifted SPIKE_DIAG_PIVOT");
      qs_compare(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, &p3, 1, "shifted AUTO");
      qs_compare(ctx, PSCR_TD_THOMAS, &p4, 1, "shifted THOMAS");
      /* 2. a NaN in A among good solves: theirs stand, the finish says
       * NONFINITE, the one after it OK */
      pt_set(t, bad.h[1], (size_t)pt_uniform(rng, 0, (double)n - 1), NAN);
      PT_CHECK_STATUS(pscr_array_write(bad.a[1], bad.h[1]), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_write(p1.a[7], p1.h[7]), PSCR_OK);
      PT_CHECK_STATUS(qs_queue(ctx, PSCR_TD_CR_PCR_THOMAS, &bad), PSCR_OK);
      PT_CHECK_STATUS(qs_queue(ctx, PSCR_TD_CR_PCR_THOMAS, &p1), PSCR_OK);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_ERR_NONFINITE);
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
      qs_compare(ctx, PSCR_TD_CR_PCR_THOMAS, &p1, 1, "shifted CR_PCR_THOMAS after a NaN");
      /* ... and in one right-hand side, which no solver scans for: the
       * finish says what the waiting solve of the same data returns, a
       * failure, or PSCR_OK with the NaN in that system's solution and the
       * same bits */
      size_t nan_at = (ns / 2) * n + (size_t)pt_uniform(rng, 0, (double)n - 1);
      pt_set(t, nanb.h[7], nan_at, NAN);
      for (int a = 0; a < 2; a++) {
        pscr_td_algorithm alg = a ? PSCR_TD_SPIKE_DIAG_PIVOT : PSCR_TD_CR_PCR_THOMAS;
        size_t total = n * ns, bytes = total * pt_size(t);
        void *xq = pt_alloc(t, total), *x = pt_alloc(t, total);
        PT_CHECK_STATUS(pscr_array_write(nanb.a[7], nanb.h[7]), PSCR_OK);
        PT_CHECK_STATUS(qs_queue(ctx, alg, &nanb), PSCR_OK);
        pscr_status fq = pscr_context_finish(ctx);
        PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
        PT_CHECK_STATUS(pscr_array_read(nanb.a[7], xq), PSCR_OK);
        PT_CHECK_STATUS(pscr_array_write(nanb.a[7], nanb.h[7]), PSCR_OK);
        pscr_status fw = pscr_tridiag_solve_shifted_arrays(
            ctx, alg, t, n, ns, nanb.a[0], nanb.a[1], nanb.a[2], nanb.a[3], nanb.a[4], nanb.a[5],
            nanb.a[6], nanb.a[7], NULL);
        PT_CHECK_STATUS(fq, fw);
        PT_CHECK(fw == PSCR_OK || fw == PSCR_ERR_NONFINITE || fw == PSCR_ERR_SINGULAR,
                 "NaN in b: %s", pscr_status_string(fw));
        if (fq == PSCR_OK && fw == PSCR_OK) {
          PT_CHECK_STATUS(pscr_array_read(nanb.a[7], x), PSCR_OK);
          PT_CHECK(pt_equal_bytes(xq, x, bytes), "NaN in b (n %zu): queued != waiting solve", n);
          int has_nan = 0;
          for (size_t i = (ns / 2) * n; i < (ns / 2 + 1) * n; i++)
            has_nan |= isnan(creal(pt_get(t, xq, i))) || isnan(cimag(pt_get(t, xq, i)));
          PT_CHECK(has_nan, "NaN in b (n %zu): a finite solution", n);
        }
        free(xq), free(x);
      }
      /* 3. a singular shift: A and M diagonal, A + shift[1] M with a zero
       * row (2 + (-2) * 1, exact), the other shift fine; a waiting solve
       * between reports its own status, the finish the queued one's */
      sing = (qs_problem){.t = t, .n = n, .ns = 2};
      for (int i = 0; i < 8; i++)
        if (i != 3 && i != 5) sing.h[i] = pt_alloc(t, qs_count(&sing, i)); /* zeroed */
      for (size_t i = 0; i < n; i++) {
        pt_set(t, sing.h[1], i, pt_uniform(rng, 1, 2));
        pt_set(t, sing.h[4], i, pt_uniform(rng, 0.1, 0.2));
      }
      size_t zr = (size_t)pt_uniform(rng, 0, (double)n - 1);
      pt_set(t, sing.h[1], zr, 2);
      pt_set(t, sing.h[4], zr, 1);
      pt_set(t, sing.h[6], 0, 0.5);
      pt_set(t, sing.h[6], 1, -2);
      pt_fill_uniform(rng, t, sing.h[7], 2 * n, -1, 1);
      qs_upload(ctx, &sing);
      static const pscr_td_algorithm sing_algs[] = {PSCR_TD_SPIKE_DIAG_PIVOT, PSCR_TD_AUTO,
                                                    PSCR_TD_THOMAS};
      for (size_t a = 0; a < sizeof sing_algs / sizeof sing_algs[0]; a++) {
        PT_CHECK_STATUS(pscr_array_write(sing.a[7], sing.h[7]), PSCR_OK);
        PT_CHECK_STATUS(qs_queue(ctx, sing_algs[a], &sing), PSCR_OK);
        PT_CHECK_STATUS(pscr_array_write(p2.a[7], p2.h[7]), PSCR_OK);
        PT_CHECK_STATUS(pscr_tridiag_solve_shifted_arrays(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, t, n, ns,
                                                          p2.a[0], p2.a[1], p2.a[2], p2.a[3],
                                                          p2.a[4], p2.a[5], p2.a[6], p2.a[7],
                                                          NULL),
                        PSCR_OK);
        PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_ERR_SINGULAR);
        PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
      }
      /* 4. bad arguments: refused at once, nothing queued (bad's NaN in A
       * would make the finish NONFINITE), b untouched */
      PT_CHECK_STATUS(pscr_array_write(bad.a[7], bad.h[7]), PSCR_OK);
      pscr_array *other = NULL, *shorter = NULL;
      PT_CHECK_STATUS(pscr_array_create(ctx, z ? PSCR_F64 : PSCR_C128, n * ns, &other), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_create(ctx, t, n * ns - 1, &shorter), PSCR_OK);
      pscr_array **A = bad.a;
#define QS_BAD(c, alg, dt, n_, ns_, i0, i1, i2, i3, i4, i5, i6, i7)                                \
  PT_CHECK_STATUS(pscr_tridiag_solve_shifted_arrays_queued(c, alg, dt, n_, ns_, i0, i1, i2, i3,   \
                                                           i4, i5, i6, i7),                        \
                  PSCR_ERR_INVALID_ARGUMENT)
      const pscr_td_algorithm C = PSCR_TD_CR_PCR_THOMAS;
      QS_BAD(NULL, C, t, n, ns, A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
      QS_BAD(ctx, (pscr_td_algorithm)99, t, n, ns, A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
      QS_BAD(ctx, C, (pscr_dtype)5, n, ns, A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
      QS_BAD(ctx, C, t, 0, ns, A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
      QS_BAD(ctx, C, t, n, 0, A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
      QS_BAD(ctx, C, t, n, ns, NULL, A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
      QS_BAD(ctx, C, t, n, ns, A[0], NULL, A[2], A[3], A[4], A[5], A[6], A[7]);
      QS_BAD(ctx, C, t, n, ns, A[0], A[1], NULL, A[3], A[4], A[5], A[6], A[7]);
      QS_BAD(ctx, C, t, n, ns, A[0], A[1], A[2], A[3], NULL, A[5], A[6], A[7]);
      QS_BAD(ctx, C, t, n, ns, A[0], A[1], A[2], A[3], A[4], A[5], NULL, A[7]);
      QS_BAD(ctx, C, t, n, ns, A[0], A[1], A[2], A[3], A[4], A[5], A[6], NULL);
      QS_BAD(ctx, C, t, n, ns, A[0], A[1], A[2], A[3], A[4], NULL, A[6], A[7]); /* m_dl alone */
      QS_BAD(ctx, C, t, n, ns, A[0], A[1], A[2], NULL, A[4], A[5], A[6], A[7]); /* m_du alone */
      QS_BAD(ctx, C, t, n, ns, A[0], other, A[2], A[3], A[4], A[5], A[6], A[7]); /* dtype */
      QS_BAD(ctx, C, t, n, ns, A[0], A[1], A[2], A[3], A[4], A[5], A[6], other);
      QS_BAD(ctx, C, t, n, ns, A[0], A[1], A[2], A[3], A[4], A[5], A[6], shorter); /* short */
      QS_BAD(ctx, C, t, n + 1, ns, A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
      QS_BAD(ctx, C, t, n, ns + 1, A[0], A[1], A[2], A[3], A[4], A[5], A[6], A[7]);
#undef QS_BAD
      PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
      PT_CHECK(qs_b_untouched(&bad), "shifted queued: b changed by refused calls (n %zu)", n);
      pscr_array_destroy(other), pscr_array_destroy(shorter);
      /* 5. more solves than the status slots, a failure past the 32nd */
      if (n == 33) {
        for (int i = 0; i < 40; i++)
          PT_CHECK_STATUS(qs_queue(ctx, PSCR_TD_SPIKE_DIAG_PIVOT, i == 35 ? &bad : &p4), PSCR_OK);
        PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_ERR_NONFINITE);
        PT_CHECK_STATUS(pscr_context_finish(ctx), PSCR_OK);
      }
      qs_free(&p1), qs_free(&p2), qs_free(&p3), qs_free(&p4), qs_free(&bad), qs_free(&nanb);
      qs_free(&sing);
    }
  }
}

/* A test's main for one backend: 77 where it is not available. */
static int queued_main(pscr_backend backend, const char *name) {
  if (!pscr_backend_available(backend)) return PT_SKIP;
  pt_rng rng;
  pt_rng_seed(&rng, pt_fresh_seed());
  pscr_context *ctx = NULL;
  if (pscr_context_create(backend, 0, &ctx) != PSCR_OK) return PT_SKIP;
  queued_checks(ctx, &rng);
  queued_shifted_checks(ctx, &rng);
  pscr_context_destroy(ctx);
  return pt_exit(name);
}

#endif
