/* Queued solves (pscr_tridiag_solve_arrays_queued, pscr_context_finish) on
 * any backend, shared by the cpu, cuda and opencl tests: results equal to the
 * waiting solve's; a failure (NaN, a singular matrix) reported by the next
 * finish and only there, whatever ran between; the next finish starts afresh;
 * the matrices untouched; bad arguments refused at once. */
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

/* A test's main for one backend: 77 where it is not available. */
static int queued_main(pscr_backend backend, const char *name) {
  if (!pscr_backend_available(backend)) return PT_SKIP;
  pt_rng rng;
  pt_rng_seed(&rng, pt_fresh_seed());
  pscr_context *ctx = NULL;
  if (pscr_context_create(backend, 0, &ctx) != PSCR_OK) return PT_SKIP;
  queued_checks(ctx, &rng);
  pscr_context_destroy(ctx);
  return pt_exit(name);
}

#endif
