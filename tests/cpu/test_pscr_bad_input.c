/* Bad input and edge cases of the solver API (include/pscr/solver.h): every
 * documented status of pscr_plan_create / pscr_solve / pscr_solve_array /
 * pscr_plan_get_info, NaN and Inf in the right-hand side (refused or
 * propagated, never a finite answer), singular problems, a plan that
 * outlives the caller's factor arrays, options defaults. */
#include <math.h>
#include <stdlib.h>

#include "core/context.h"
#include "pscr/pscr_internal.h"
#include "pscr_test_util.h"

enum { N1 = 9, N2 = 7, N3 = 5 };

typedef struct {
  pt_fac f[3];
  pscr_problem pb;
} prob;

static void make(pt_rng *r, pscr_dtype t, int ndim, prob *p) {
  size_t n[3] = {N1, N2, N3};
  for (int d = 0; d < ndim; d++) pt_fac_make(r, t, PT_POISSON, n[d], 0, &p->f[d]);
  p->pb = (pscr_problem){.ndim = ndim, .dtype = t, .c_re = 1.0};
  for (int d = 0; d < ndim; d++) p->pb.dim[d] = pt_fac_view(&p->f[d]);
}
static void drop(prob *p) {
  for (int d = 0; d < p->pb.ndim; d++) pt_fac_free(&p->f[d]);
}

/* plan_create must fail with `want` and leave *plan untouched. */
static void refused(pscr_context *ctx, const pscr_problem *pb, const pscr_options *opt,
                    pscr_status want, const char *what) {
  pscr_plan *sentinel = (pscr_plan *)&sentinel, *plan = sentinel;
  pscr_status st = pscr_plan_create(ctx, pb, opt, &plan);
  PT_CHECK(st == want, "%s: got '%s', expected '%s'", what, pscr_status_string(st),
           pscr_status_string(want));
  PT_CHECK(plan == sentinel, "%s: plan written on failure", what);
}

static void arguments(pscr_context *ctx, pt_rng *r, pscr_dtype t, int ndim) {
  prob p;
  make(r, t, ndim, &p);
  pscr_options opt;
  pscr_options_default(&opt);
  pscr_plan *plan = NULL;
  PT_CHECK_STATUS(pscr_plan_create(NULL, &p.pb, &opt, &plan), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_plan_create(ctx, NULL, &opt, &plan), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_plan_create(ctx, &p.pb, &opt, NULL), PSCR_ERR_INVALID_ARGUMENT);
  pscr_problem q = p.pb;
  for (int nd = -1; nd <= 5; nd++)
    if (nd != 2 && nd != 3) q.ndim = nd, refused(ctx, &q, &opt, PSCR_ERR_INVALID_ARGUMENT, "ndim");
  q = p.pb, q.dtype = (pscr_dtype)5;
  refused(ctx, &q, &opt, PSCR_ERR_INVALID_ARGUMENT, "dtype");
  if (t == PSCR_F64)
    q = p.pb, q.c_im = 1, refused(ctx, &q, &opt, PSCR_ERR_INVALID_ARGUMENT, "real c");
  for (int d = 0; d < ndim; d++) {
    q = p.pb, q.dim[d].n = 0;
    refused(ctx, &q, &opt, PSCR_ERR_INVALID_ARGUMENT, "n = 0");
    q = p.pb, q.dim[d].a_diag = NULL;
    refused(ctx, &q, &opt, PSCR_ERR_INVALID_ARGUMENT, "a_diag NULL");
    q = p.pb, q.dim[d].a_off = NULL;
    refused(ctx, &q, &opt, PSCR_ERR_INVALID_ARGUMENT, "a_off NULL");
    q = p.pb, q.dim[d].m_diag = NULL;
    refused(ctx, &q, &opt, PSCR_ERR_INVALID_ARGUMENT, "m_diag NULL");
    /* NaN / Inf in every factor array */
    void *arrs[3] = {p.f[d].ad, p.f[d].ao, p.f[d].md};
    for (int k = 0; k < 3; k++)
      for (int w = 0; w < 2; w++) {
        size_t i = w ? 0 : N3 - 2;
        double complex old = pt_get(t, arrs[k], i);
        pt_set(t, arrs[k], i, w ? NAN : INFINITY);
        refused(ctx, &p.pb, &opt, PSCR_ERR_NONFINITE, "NaN/Inf in a factor");
        pt_set(t, arrs[k], i, old);
      }
  }
  q = p.pb, q.c_re = NAN;
  refused(ctx, &q, &opt, PSCR_ERR_NONFINITE, "c NaN");
  pscr_options o = opt;
  for (int rdx = -2; rdx < 2; rdx++)
    o.radix = rdx, refused(ctx, &p.pb, &o, PSCR_ERR_INVALID_ARGUMENT, "radix");
  o = opt, o.innermost = (pscr_td_algorithm)99;
  refused(ctx, &p.pb, &o, PSCR_ERR_INVALID_ARGUMENT, "innermost");
  o = opt, o.innermost = (pscr_td_algorithm)-1;
  refused(ctx, &p.pb, &o, PSCR_ERR_INVALID_ARGUMENT, "innermost");
  o = opt, o.threads = -1;
  refused(ctx, &p.pb, &o, PSCR_ERR_INVALID_ARGUMENT, "threads");
  /* a real M1 (M2 in 3D) that is not positive definite */
  for (int d = 0; d < ndim - 1 && t == PSCR_F64; d++) {
    double complex old = pt_get(t, p.f[d].md, 3);
    pt_set(t, p.f[d].md, 3, -1.0);
    refused(ctx, &p.pb, &opt, PSCR_ERR_INVALID_ARGUMENT, "M not positive definite");
    pt_set(t, p.f[d].md, 3, old);
  }
  /* a GPU backend whose context has no device interface (ops->gpu): the
   * GPU stages refuse it (tests/opencl, tests/cuda run the real ones) */
  pscr_context fake = *ctx;
  fake.backend = PSCR_BACKEND_OPENCL;
  refused(&fake, &p.pb, &opt, PSCR_ERR_UNSUPPORTED, "GPU backend");

  /* solve, solve_array, get_info */
  PT_CHECK_STATUS(pscr_plan_create(ctx, &p.pb, NULL, &plan), PSCR_OK);
  size_t total = N1 * N2 * (ndim == 3 ? N3 : 1);
  void *f = pt_alloc(t, total), *f0 = pt_alloc(t, total);
  pt_fill_uniform(r, t, f, total, -1, 1);
  memcpy(f0, f, total * pt_size(t));
  PT_CHECK_STATUS(pscr_solve(NULL, f), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_solve(plan, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK(pt_equal_bytes(f, f0, total * pt_size(t)), "f untouched");
  PT_CHECK_STATUS(pscr_solve_array(plan, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_solve_array(NULL, NULL), PSCR_ERR_INVALID_ARGUMENT);
  pscr_array *arr = NULL, *small = NULL, *other = NULL;
  PT_CHECK_STATUS(pscr_array_create(ctx, t, total, &arr), PSCR_OK);
  PT_CHECK_STATUS(pscr_array_create(ctx, t, total - 1, &small), PSCR_OK);
  PT_CHECK_STATUS(pscr_array_create(ctx, t == PSCR_F64 ? PSCR_C128 : PSCR_F64, total, &other),
                  PSCR_OK);
  PT_CHECK_STATUS(pscr_solve_array(plan, small), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_solve_array(plan, other), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_array_write(arr, f), PSCR_OK);
  PT_CHECK_STATUS(pscr_solve_array(plan, arr), PSCR_OK);
  PT_CHECK_STATUS(pscr_solve(plan, f), PSCR_OK);
  void *g = pt_alloc(t, total);
  PT_CHECK_STATUS(pscr_array_read(arr, g), PSCR_OK);
  PT_CHECK(pt_equal_bytes(f, g, total * pt_size(t)), "solve_array == solve");
  pscr_array_destroy(arr), pscr_array_destroy(small), pscr_array_destroy(other);
  pscr_plan_info info;
  PT_CHECK_STATUS(pscr_plan_get_info(NULL, &info), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_plan_get_info(plan, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_plan_get_info(plan, &info), PSCR_OK);
  PT_CHECK(info.device_bytes > 0 && info.plan_seconds > 0 && info.last_solve_seconds > 0, "info");

  /* NaN / Inf in f: refused or propagated, never a finite answer */
  size_t where[3] = {0, total / 2, total - 1};
  for (int w = 0; w < 3; w++)
    for (int k = 0; k < 2; k++) {
      memcpy(f, f0, total * pt_size(t));
      pt_set(t, f, where[w], k ? INFINITY : NAN);
      pscr_status st = pscr_solve(plan, f);
      int finite = 1;
      for (size_t i = 0; i < total; i++) {
        double complex z = pt_get(t, f, i);
        finite = finite && isfinite(creal(z)) && isfinite(cimag(z));
      }
      PT_CHECK(st == PSCR_ERR_NONFINITE || (st == PSCR_OK && !finite),
               "%dD dtype %d: %s at %zu gave '%s' and a finite answer", ndim, (int)t,
               k ? "Inf" : "NaN", where[w], pscr_status_string(st));
    }
  pscr_plan_destroy(plan);
  pscr_plan_destroy(NULL);
  free(f), free(f0), free(g);
  drop(&p);
}

/* The plan keeps copies: the caller's factors may be freed (here: trashed) after create. */
static void outlives(pscr_context *ctx, pt_rng *r, pscr_dtype t, int ndim) {
  prob p;
  make(r, t, ndim, &p);
  size_t total = N1 * N2 * (ndim == 3 ? N3 : 1);
  void *b = pt_alloc(t, total), *ref = pt_alloc(t, total), *u = pt_alloc(t, total);
  pt_fill_uniform(r, t, b, total, -1, 1);
  PT_CHECK(pt_kron_reference(t, ndim, p.f, p.pb.c_re, b, ref) == 0, "reference");
  pscr_plan *plan = NULL;
  PT_CHECK_STATUS(pscr_plan_create(ctx, &p.pb, NULL, &plan), PSCR_OK);
  for (int d = 0; d < ndim; d++) {
    size_t n = p.f[d].n;
    pt_fill_uniform(r, t, p.f[d].ad, n, 1e6, 1e7);
    pt_fill_uniform(r, t, p.f[d].ao, n, 1e6, 1e7);
    pt_fill_uniform(r, t, p.f[d].md, n, 1e6, 1e7);
  }
  drop(&p);
  memcpy(u, b, total * pt_size(t));
  PT_CHECK_STATUS(pscr_solve(plan, u), PSCR_OK);
  PT_CHECK_LE(pt_rel_error(t, total, u, ref), 1e-12, "after the factors were freed");
  pscr_plan_destroy(plan);
  free(b), free(ref), free(u);
}

/* Singular problems: a shifted inner system exactly singular -> PSCR_ERR_SINGULAR. */
static void singular(pscr_context *ctx, pscr_dtype t, int ndim, pscr_td_algorithm alg) {
  /* dims 0..ndim-2: A = 0, M = I (eigenvalues exactly 0); last: A = [1 1; 1 1], M = I, c = 0 */
  size_t n[3] = {5, 3, 2};
  n[ndim - 1] = 2;
  pscr_problem pb = {.ndim = ndim, .dtype = t};
  void *bufs[3][3];
  for (int d = 0; d < ndim; d++) {
    int last = d == ndim - 1;
    for (int k = 0; k < 3; k++) bufs[d][k] = pt_alloc(t, n[d]);
    for (size_t i = 0; i < n[d]; i++) {
      pt_set(t, bufs[d][0], i, last ? 1 : 0);
      pt_set(t, bufs[d][1], i, last ? 1 : 0);
      pt_set(t, bufs[d][2], i, 1);
    }
    pb.dim[d] = (pscr_factor){n[d], bufs[d][0], bufs[d][1], bufs[d][2], NULL};
  }
  pscr_options opt;
  pscr_options_default(&opt);
  opt.innermost = alg;
  pscr_plan *plan = NULL;
  PT_CHECK_STATUS(pscr_plan_create(ctx, &pb, &opt, &plan), PSCR_OK);
  size_t total = n[0] * n[1] * (ndim == 3 ? n[2] : 1);
  void *f = pt_alloc(t, total);
  for (size_t i = 0; i < total; i++) pt_set(t, f, i, 1.0 + (double)i);
  if (plan) PT_CHECK_STATUS(pscr_solve(plan, f), PSCR_ERR_SINGULAR);
  pscr_plan_destroy(plan);
  free(f);
  for (int d = 0; d < ndim; d++)
    for (int k = 0; k < 3; k++) free(bufs[d][k]);
}

/* 1 x 1: A = A1 M2 + M1 A2 + c M1 M2 = 1 + 1 - 2 = 0. */
static void singular_1x1(pscr_context *ctx, pscr_dtype t) {
  void *one = pt_alloc(t, 1), *f = pt_alloc(t, 1);
  pt_set(t, one, 0, 1.0), pt_set(t, f, 0, 3.0);
  pscr_problem pb = {.ndim = 2, .dtype = t, .c_re = -2};
  pb.dim[0] = pb.dim[1] = (pscr_factor){1, one, NULL, one, NULL};
  pscr_plan *plan = NULL;
  PT_CHECK_STATUS(pscr_plan_create(ctx, &pb, NULL, &plan), PSCR_OK);
  if (plan) PT_CHECK_STATUS(pscr_solve(plan, f), PSCR_ERR_SINGULAR);
  pscr_plan_destroy(plan);
  pb.c_re = -1; /* now 1: u = f */
  PT_CHECK_STATUS(pscr_plan_create(ctx, &pb, NULL, &plan), PSCR_OK);
  if (plan) PT_CHECK_STATUS(pscr_solve(plan, f), PSCR_OK);
  PT_CHECK(cabs(pt_get(t, f, 0) - 3.0) < 1e-15, "1 x 1 solve");
  pscr_plan_destroy(plan);
  free(one), free(f);
}

int main(void) {
  uint64_t seed = pt_fresh_seed();
  pt_rng r;
  pt_rng_seed(&r, seed);
  pscr_options opt;
  pscr_options_default(&opt);
  PT_CHECK(opt.radix == 4 && opt.innermost == PSCR_TD_AUTO && opt.threads == 0 &&
               opt.tuning_file == NULL,
           "options defaults");
  pscr_options_default(NULL);
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx), PSCR_OK);
  for (int t = 0; t < 2; t++)
    for (int ndim = 2; ndim <= 3; ndim++) {
      pscr_dtype dt = t ? PSCR_C128 : PSCR_F64;
      arguments(ctx, &r, dt, ndim);
      outlives(ctx, &r, dt, ndim);
      singular(ctx, dt, ndim, PSCR_TD_AUTO);
      singular(ctx, dt, ndim, PSCR_TD_THOMAS);
    }
  singular_1x1(ctx, PSCR_F64);
  singular_1x1(ctx, PSCR_C128);
  pscr_context_destroy(ctx);
  return pt_exit("test_pscr_bad_input");
}
