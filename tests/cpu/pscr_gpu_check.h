/* PSCR on a GPU backend against the CPU backend on the same data (shared by
 * tests/opencl/test_opencl_pscr.c and tests/cuda/test_cuda_pscr.c): fresh
 * random problems of every kind, pscr_solve (host data) and pscr_solve_array
 * (device data) compared with the CPU's pscr_solve, the plan report, and bad
 * input. Header-only. */
#ifndef PSCR_GPU_CHECK_H
#define PSCR_GPU_CHECK_H

#include <stdio.h>

#include "pscr_test_util.h"
#include "backend/gpu/gpu_tridiag.h" /* gpu_td_tuning_default */

typedef struct {
  pscr_backend backend;
  pscr_context *gpu, *cpu, *other; /* other: a second context of the GPU backend */
  pt_rng r;
  double worst[2]; /* per dtype: the largest relative difference to the CPU */
  double c_add;    /* added to c (long 1D directions: well-conditioned inner systems) */
  double omega;    /* wave number of the Helmholtz factors (0: 4) */
  double scale;    /* every factor entry times this (0: 1) */
  int cases;
} gc_env;

/* The GPU backends' tuning hooks (weak: a backend that is not built leaves its NULL). */
pscr_status pscr_cuda_tune(pscr_context *ctx, const char *name, int value) __attribute__((weak));
pscr_status pscr_opencl_tune(pscr_context *ctx, const char *name, int value) __attribute__((weak));

static pscr_status gc_tune(gc_env *E, const char *name, int value) {
  pscr_status (*tune)(pscr_context *, const char *, int) =
      E->backend == PSCR_BACKEND_CUDA ? pscr_cuda_tune : pscr_opencl_tune;
  return tune ? tune(E->gpu, name, value) : PSCR_ERR_UNSUPPORTED;
}

/* Relative differences allowed against the CPU backend (issue 5). */
static double gc_tol(pscr_dtype t) { return t == PSCR_F64 ? 1e-11 : 1e-10; }

/* One problem: the CPU's solution, then the GPU's with `radix`, innermost
 * `alg` and `workspace` (pscr_options.workspace_bytes) through host and device data. */
static void gc_case(gc_env *E, pscr_dtype t, int ndim, const size_t *n, int kind, int radix,
                    pscr_td_algorithm alg, size_t workspace) {
  pt_fac f[3] = {{0}};
  double omega = E->omega > 0 ? E->omega : 4;
  size_t total = 1;
  for (int d = 0; d < ndim; d++) pt_fac_make(&E->r, t, kind, n[d], omega, &f[d]), total *= n[d];
  double complex c = pt_choose_c(&E->r, t, ndim, f, kind, omega) + E->c_add;
  for (int d = 0; d < ndim && E->scale != 0; d++) /* A and M alike: the eigenvalues stay */
    for (size_t i = 0; i < n[d]; i++) {
      void *arr[4] = {f[d].ad, f[d].ao, f[d].md, f[d].mo};
      for (int k = 0; k < 4; k++)
        if (arr[k] && (i + 1 < n[d] || k % 2 == 0))
          pt_set(t, arr[k], i, E->scale * pt_get(t, arr[k], i));
    }
  pscr_problem pb = {.ndim = ndim, .dtype = t, .c_re = creal(c), .c_im = cimag(c)};
  for (int d = 0; d < ndim; d++) pb.dim[d] = pt_fac_view(&f[d]);
  size_t bytes = total * pt_size(t);
  void *b = pt_alloc(t, total), *ref = pt_alloc(t, total), *u = pt_alloc(t, total),
       *ua = pt_alloc(t, total);
  pt_fill_uniform(&E->r, t, b, total, -1, 1);
  memcpy(ref, b, bytes), memcpy(u, b, bytes), memcpy(ua, b, bytes);
  char what[160];
  snprintf(what, sizeof what, "%dD %s dtype %d n %zu x %zu x %zu radix %d alg %s ws %zu", ndim,
           pt_kind_names[kind], (int)t, n[0], n[1], ndim == 3 ? n[2] : 1, radix,
           pscr_td_algorithm_name(alg), workspace);
  pscr_options opt;
  pscr_options_default(&opt);
  opt.radix = radix;
  pscr_plan *cp = NULL, *gp = NULL;
  pscr_array *arr = NULL;
  pscr_status st = pscr_plan_create(E->cpu, &pb, &opt, &cp);
  PT_CHECK(st == PSCR_OK, "CPU plan %s: %s", what, pscr_status_string(st));
  if (st == PSCR_OK) st = pscr_solve(cp, ref);
  PT_CHECK(st == PSCR_OK, "CPU solve %s: %s", what, pscr_status_string(st));
  opt.innermost = alg, opt.workspace_bytes = workspace;
  if (st == PSCR_OK) st = pscr_plan_create(E->gpu, &pb, &opt, &gp);
  PT_CHECK(st == PSCR_OK, "GPU plan %s: %s", what, pscr_status_string(st));
  if (st != PSCR_OK) goto done;
  E->cases++;
  PT_CHECK_STATUS(pscr_solve(gp, u), PSCR_OK);
  double err = pt_rel_error(t, total, u, ref);
  PT_CHECK_LE(err, gc_tol(t), "pscr_solve %s", what);
  if (!(err <= E->worst[t])) E->worst[t] = err;
  if (getenv("PSCR_TEST_VERBOSE")) printf("  %.2e  %s c_add %g\n", err, what, E->c_add);
  pscr_plan_info info;
  PT_CHECK_STATUS(pscr_plan_get_info(gp, &info), PSCR_OK);
  PT_CHECK(info.device_bytes > bytes && info.last_solve_seconds > 0 && /* f's copy + workspace */
               info.last_transfer_seconds > 0,
           "info %s: device bytes %zu, solve %.2e s, transfer %.2e s", what, info.device_bytes,
           info.last_solve_seconds, info.last_transfer_seconds);
  /* device data: the same kernels on the same data, the same answer */
  PT_CHECK_STATUS(pscr_array_create(E->gpu, t, total, &arr), PSCR_OK);
  if (arr == NULL) goto done;
  PT_CHECK_STATUS(pscr_array_write(arr, ua), PSCR_OK);
  PT_CHECK_STATUS(pscr_solve_array(gp, arr), PSCR_OK);
  PT_CHECK_STATUS(pscr_array_read(arr, ua), PSCR_OK);
  PT_CHECK(pt_equal_bytes(u, ua, bytes), "pscr_solve_array == pscr_solve: %s", what);
  PT_CHECK_STATUS(pscr_plan_get_info(gp, &info), PSCR_OK);
  PT_CHECK(info.last_transfer_seconds == 0, "no transfers in pscr_solve_array");
done:
  pscr_array_destroy(arr);
  pscr_plan_destroy(cp);
  pscr_plan_destroy(gp);
  for (int d = 0; d < ndim; d++) pt_fac_free(&f[d]);
  free(b), free(ref), free(u), free(ua);
}

/* Bad input: arrays of another dtype, context or backend, too small, NULL
 * (all INVALID_ARGUMENT, the array untouched), LAPACK innermost (UNSUPPORTED). */
static void gc_bad_input(gc_env *E, pscr_dtype t) {
  pt_fac f[2] = {{0}};
  size_t n[2] = {9, 7}, total = 63;
  for (int d = 0; d < 2; d++) pt_fac_make(&E->r, t, PT_POISSON, n[d], 0, &f[d]);
  pscr_problem pb = {.ndim = 2, .dtype = t, .c_re = 0.5};
  for (int d = 0; d < 2; d++) pb.dim[d] = pt_fac_view(&f[d]);
  pscr_options opt;
  pscr_options_default(&opt);
  pscr_plan *plan = NULL, *bad = NULL;
  opt.innermost = PSCR_TD_LAPACK;
  PT_CHECK_STATUS(pscr_plan_create(E->gpu, &pb, &opt, &bad), PSCR_ERR_UNSUPPORTED);
  PT_CHECK(bad == NULL, "plan written on failure");
  opt.innermost = PSCR_TD_AUTO;
  PT_CHECK_STATUS(pscr_plan_create(E->gpu, &pb, &opt, &plan), PSCR_OK);
  if (plan == NULL) goto done;
  PT_CHECK_STATUS(pscr_solve(plan, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_solve_array(plan, NULL), PSCR_ERR_INVALID_ARGUMENT);
  pscr_dtype other_t = t == PSCR_F64 ? PSCR_C128 : PSCR_F64;
  pscr_context *ctxs[4] = {E->gpu, E->gpu, E->cpu, E->other};
  pscr_dtype types[4] = {other_t, t, t, t};
  size_t counts[4] = {total, total - 1, total, total};
  const char *names[4] = {"other dtype", "too small", "CPU array", "other context"};
  void *h = pt_alloc(PSCR_C128, total), *back = pt_alloc(PSCR_C128, total); /* either dtype */
  pt_fill_uniform(&E->r, PSCR_C128, h, total, -1, 1);
  for (int k = 0; k < 4; k++) {
    pscr_array *a = NULL;
    if (ctxs[k] == NULL) continue; /* no second device context */
    PT_CHECK_STATUS(pscr_array_create(ctxs[k], types[k], counts[k], &a), PSCR_OK);
    if (a == NULL) continue;
    PT_CHECK_STATUS(pscr_array_write(a, h), PSCR_OK);
    pscr_status st = pscr_solve_array(plan, a);
    PT_CHECK(st == PSCR_ERR_INVALID_ARGUMENT, "%s: %s", names[k], pscr_status_string(st));
    PT_CHECK_STATUS(pscr_array_read(a, back), PSCR_OK);
    PT_CHECK(pt_equal_bytes(h, back, counts[k] * pt_size(types[k])), "%s: array untouched",
             names[k]);
    pscr_array_destroy(a);
  }
  free(h), free(back);
done:
  pscr_plan_destroy(plan);
  for (int d = 0; d < 2; d++) pt_fac_free(&f[d]);
}

/* A singular problem: every innermost system is A_last (dimension 0 has A = 0,
 * M = I, so every eigenvalue is 0, and c = 0), whose rows 299 and 300 (0 and
 * 1 where shorter) form the decoupled block [1 1; 1 1]; the rest is
 * tridiag(1, 4, 1). Every engine and partitioning meets the singular block:
 * PSCR_ERR_SINGULAR (host and device data), and the next solve of a regular
 * problem on the same context succeeds (the status words reset). */
static void gc_singular(gc_env *E, pscr_dtype t, size_t n0, size_t nl, pscr_td_algorithm alg) {
  size_t n[2] = {n0, nl}, total = n0 * nl, k0 = nl > 300 ? 299 : 0;
  void *bufs[2][4];
  for (int d = 0; d < 2; d++)
    for (int k = 0; k < 4; k++) bufs[d][k] = pt_alloc(t, n[d]);
  for (size_t i = 0; i < n[0]; i++) {
    pt_set(t, bufs[0][0], i, 0), pt_set(t, bufs[0][1], i, 0);
    pt_set(t, bufs[0][2], i, 1), pt_set(t, bufs[0][3], i, 0);
  }
  for (size_t i = 0; i < nl; i++) {
    int blk = i == k0 || i == k0 + 1;
    pt_set(t, bufs[1][0], i, blk ? 1 : 4);
    pt_set(t, bufs[1][1], i, i == k0 ? 1 : i + 1 == k0 || i == k0 + 1 ? 0 : 1);
    pt_set(t, bufs[1][2], i, 1), pt_set(t, bufs[1][3], i, 0);
  }
  pscr_problem pb = {.ndim = 2, .dtype = t};
  for (int d = 0; d < 2; d++) pb.dim[d] = (pscr_factor){n[d], bufs[d][0], bufs[d][1], bufs[d][2], bufs[d][3]};
  pscr_options opt;
  pscr_options_default(&opt);
  opt.innermost = alg;
  pscr_plan *plan = NULL;
  PT_CHECK_STATUS(pscr_plan_create(E->gpu, &pb, &opt, &plan), PSCR_OK);
  void *f = pt_alloc(t, total);
  pt_fill_uniform(&E->r, t, f, total, -1, 1);
  pscr_array *a = NULL;
  if (plan) {
    pscr_status st = pscr_solve(plan, f);
    PT_CHECK(st == PSCR_ERR_SINGULAR, "singular %s %zu x %zu, %s: %s", t == PSCR_F64 ? "F64" : "C128",
             n[0], nl, alg == PSCR_TD_AUTO ? "AUTO" : "CR_PCR_THOMAS", pscr_status_string(st));
    PT_CHECK_STATUS(pscr_array_create(E->gpu, t, total, &a), PSCR_OK);
    if (a) {
      PT_CHECK_STATUS(pscr_array_write(a, f), PSCR_OK);
      PT_CHECK_STATUS(pscr_solve_array(plan, a), PSCR_ERR_SINGULAR);
    }
  }
  pscr_array_destroy(a);
  pscr_plan_destroy(plan);
  free(f);
  for (int d = 0; d < 2; d++)
    for (int k = 0; k < 4; k++) free(bufs[d][k]);
  size_t r[2] = {n0, nl};
  gc_case(E, t, 2, r, PT_POISSON, 4, alg, 0); /* a regular problem next */
}

/* A problem far larger than any device: PSCR_ERR_OUT_OF_MEMORY from plan
 * creation (before the eigenpairs), the plan untouched. */
static void gc_oom(gc_env *E) {
  pt_fac f;
  pt_fac_make(&E->r, PSCR_C128, PT_POISSON, 4095, 0, &f);
  pscr_problem pb = {.ndim = 3, .dtype = PSCR_C128, .c_re = 1};
  for (int d = 0; d < 3; d++) pb.dim[d] = pt_fac_view(&f); /* 4095^3: 1.1 TB per vector */
  pscr_plan *sentinel = (pscr_plan *)&sentinel, *plan = sentinel;
  PT_CHECK_STATUS(pscr_plan_create(E->gpu, &pb, NULL, &plan), PSCR_ERR_OUT_OF_MEMORY);
  PT_CHECK(plan == sentinel, "plan written on failure");
  pt_fac_free(&f);
}

/* The small cases (seconds on PoCL): 2D and 3D, every problem kind, radices
 * 2 .. 7 and 1000 (one step), odd sizes, 3D groups of 1 and a few
 * subproblems (blocks over several groups), 3D's level 0 as one dense step
 * and as PSCR's steps, every innermost algorithm on
 * dominant systems, the unfused stages with pivoting, bad input, a plan too
 * large for the device. */
static void gc_small_suite(gc_env *E) {
  static const size_t s2[][2] = {{1, 1}, {1, 6}, {2, 3}, {3, 17}, {17, 2}, {33, 40}, {65, 31}};
  static const size_t s3[][3] = {{1, 1, 1}, {2, 3, 1}, {3, 1, 4}, {5, 4, 17}, {17, 9, 6}};
  static const int radices[] = {2, 3, 4, 5, 7};
  gpu_td_tuning dft;
  gpu_td_tuning_default(&dft);
  for (int t = 0; t < 2; t++) {
    pscr_dtype dt = t ? PSCR_C128 : PSCR_F64;
    int kinds[2] = {t ? PT_HELMHOLTZ : PT_POISSON, PT_RANDOM};
    for (size_t i = 0; i < sizeof s2 / sizeof *s2; i++)
      for (int k = 0; k < 2; k++)
        gc_case(E, dt, 2, s2[i], kinds[k], radices[(i + (size_t)k) % 5], PSCR_TD_AUTO, 0);
    for (size_t i = 0; i < sizeof s3 / sizeof *s3; i++)
      gc_case(E, dt, 3, s3[i], kinds[i % 2], radices[i % 5], PSCR_TD_AUTO, 0);
    static const size_t m2[2] = {40, 9}; /* M diagonal, radix > n: one step */
    gc_case(E, dt, 2, m2, PT_RANDOM_DIAG_M, 1000, PSCR_TD_AUTO, 0);
    static const size_t g3[3] = {19, 5, 7}; /* workspace for 1, then a few subproblems */
    gc_case(E, dt, 3, g3, kinds[0], 4, PSCR_TD_AUTO, 1);
    gc_case(E, dt, 3, g3, kinds[1], 2, PSCR_TD_AUTO, 3 * 16 * 35 * 5);
    /* the dense level 0 (the default from n0 = 8): pscr_gemm's tiles cut at
     * every edge (70 rows, 72 columns), one group and three; short rows */
    static const size_t d3[3] = {70, 9, 8}, l3[2][3] = {{9, 1, 1}, {12, 1, 5}};
    gc_case(E, dt, 3, d3, kinds[0], 4, PSCR_TD_AUTO, 0);
    gc_case(E, dt, 3, d3, kinds[1], 4, PSCR_TD_AUTO, 55296);
    for (int k = 0; k < 2; k++) /* rows of one and five scalars */
      gc_case(E, dt, 3, l3[k], kinds[k], 3, PSCR_TD_AUTO, 0);
    /* and PSCR's steps there, as before it */
    PT_CHECK_STATUS(gc_tune(E, "pscr_dense", 0), PSCR_OK);
    gc_case(E, dt, 3, g3, kinds[0], 4, PSCR_TD_AUTO, 1);
    gc_case(E, dt, 3, g3, kinds[1], 2, PSCR_TD_AUTO, 3 * 16 * 35 * 5);
    gc_case(E, dt, 3, s3[4], kinds[0], 3, PSCR_TD_AUTO, 0);
    PT_CHECK_STATUS(gc_tune(E, "pscr_dense", dft.pscr_dense), PSCR_OK);
    gc_bad_input(E, dt);
    for (int a = 0; a < 2; a++) /* one tile and several (rows 299 and 300 singular) */
      for (size_t nl = 40; nl <= 600; nl += 560)
        gc_singular(E, dt, 5, nl, a ? PSCR_TD_CR_PCR_THOMAS : PSCR_TD_AUTO);
  }
  static const pscr_td_algorithm algs[] = {PSCR_TD_THOMAS,     PSCR_TD_CR,
                                           PSCR_TD_PCR,        PSCR_TD_CR_PCR_THOMAS,
                                           PSCR_TD_PCR_THOMAS, PSCR_TD_GSPIKE};
  static const size_t a2[2] = {21, 30};
  for (size_t k = 0; k < sizeof algs / sizeof *algs; k++)
    gc_case(E, PSCR_F64, 2, a2, PT_POISSON, 4, algs[k], 0);
  /* no pivoting asked for: complex systems on the lane engine (or tiles) */
  gc_case(E, PSCR_C128, 2, a2, PT_HELMHOLTZ, 4, PSCR_TD_CR_PCR_THOMAS, 0);
  static const size_t c3[3] = {5, 6, 33};
  gc_case(E, PSCR_C128, 3, c3, PT_HELMHOLTZ, 3, PSCR_TD_CR_PCR_THOMAS, 0);
  /* the unfused stages (right-hand-side array, gpu_td_solve, sums) with pivoting */
  static const size_t u2[2] = {40, 33}, u3[3] = {17, 9, 6};
  for (int t = 0; t < 2; t++) {
    pscr_dtype dt = t ? PSCR_C128 : PSCR_F64;
    int kind = t ? PT_HELMHOLTZ : PT_RANDOM;
    gc_case(E, dt, 2, u2, kind, 3, PSCR_TD_SPIKE_DIAG_PIVOT, 0);
    gc_case(E, dt, 3, u3, kind, 4, PSCR_TD_SPIKE_DIAG_PIVOT, 0);
    gc_case(E, dt, 3, u3, PT_RANDOM, 2, PSCR_TD_SPIKE_DIAG_PIVOT, 3 * 16 * 54 * 6);
  }
  gc_oom(E);
}

/* The innermost engines of the fused path on problems that need pivoting
 * (random indefinite factors, Helmholtz at omega = 20 and 60 on coarse
 * meshes: 2x2 pivots across the lane engine's chunk ends): the lane engine
 * with diagonal pivoting in every tested system (pscr_lane = 2), the lane
 * engine as AUTO runs it (pscr_lane = 1: the test, or Thomas alone where
 * the plan proves the matrices definite), and the tiles (pscr_lane = 0);
 * then the default again. */
/* pscr_reg_fwdm / bwdm (passes 1 and 3 of small tasks, several a group)
 * however few their groups, with groups of 64 and 32 work-items: several
 * tiles, radices 4 and 3 (tasks of 3 and 15, of 2 and 8 eigenpairs), a zero
 * pivot; then 1024 rows, a power-of-2 count of tiles, whose record merge
 * takes several systems a group (real and complex). */
static void gc_fwdm_suite(gc_env *E) {
  static const size_t a[2] = {40, 600}, b[2] = {90, 1100}, c[2] = {150, 1024};
  PT_CHECK_STATUS(gc_tune(E, "pscr_rmmin", 1), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_rfwdm", 1), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_rbwdm", 1), PSCR_OK);
  for (int w = 64; w >= 32; w /= 2) {
    PT_CHECK_STATUS(gc_tune(E, "pscr_rmwg", w), PSCR_OK);
    E->c_add = 1e5; /* 1D Poisson of 600 rows and more: condition ~n^2 without a shift */
    gc_case(E, PSCR_F64, 2, a, PT_POISSON, 4, PSCR_TD_AUTO, 0);
    gc_case(E, PSCR_F64, 2, b, PT_POISSON, 3, PSCR_TD_CR_PCR_THOMAS, 0);
    E->c_add = 0;
    gc_case(E, PSCR_F64, 2, b, PT_RANDOM, 4, PSCR_TD_CR_PCR_THOMAS, 0);
    gc_singular(E, PSCR_F64, 5, 600, PSCR_TD_CR_PCR_THOMAS);
  }
  gpu_td_tuning d;
  gpu_td_tuning_default(&d);
  PT_CHECK_STATUS(gc_tune(E, "pscr_rmwg", d.pscr_rmwg), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_rmmin", d.pscr_rmmin), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_rfwdm", d.pscr_rfwdm), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_rbwdm", d.pscr_rbwdm), PSCR_OK);
  E->c_add = 1e5;
  gc_case(E, PSCR_F64, 2, c, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(E, PSCR_C128, 2, c, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
  E->c_add = 0;
}

static void gc_engine_suite(gc_env *E) {
  static const size_t s2[2] = {33, 40}, s3[3] = {9, 9, 9}, l2[2] = {5, 300}, w2[2] = {40, 300};
  for (int mode = 2; mode >= 0; mode--) {
    PT_CHECK_STATUS(gc_tune(E, "pscr_lane", mode), PSCR_OK);
    E->omega = 20;
    for (int t = 0; t < 2; t++) {
      pscr_dtype dt = t ? PSCR_C128 : PSCR_F64;
      int kind = t ? PT_HELMHOLTZ : PT_RANDOM;
      gc_case(E, dt, 2, s2, kind, 4, PSCR_TD_AUTO, 0);
      gc_case(E, dt, 2, l2, kind, 3, PSCR_TD_AUTO, 0);
      gc_case(E, dt, 3, s3, kind, 3, PSCR_TD_AUTO, 0);
    }
    E->omega = 60; /* kh ~ 1.5: most rows indefinite, 2x2 pivots across the lanes' chunk ends */
    gc_case(E, PSCR_C128, 2, w2, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
    E->omega = 0;
    /* entries of 1e100 (pivots far beyond the range of unscaled continuants) */
    E->scale = 1e100;
    gc_case(E, PSCR_F64, 2, l2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
    gc_case(E, PSCR_C128, 2, l2, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
    E->scale = 0;
  }
  PT_CHECK_STATUS(gc_tune(E, "pscr_lane", 3), PSCR_OK);
}

/* Regression (GPU residual 100x the CPU's, 2D Helmholtz 1023^2): the fused
 * kernels formed d_i = ad_i + (c + lambda) md_i, whose rounding (the same in
 * every row of a uniform mesh) is a shift error of eps |A| in the nearly
 * singular shifted systems; they now keep the rows in excess form, as the CPU
 * does (pscr_tile.h). The bench's problem (second-order absorbing boundary,
 * omega = 20 pi) on 63 x 1023: CPU ~9e-14, the plain rows gave ~1e-12. factor:
 * the GPU's residual over the CPU's, at most: 3 for PSCR's steps; 4 for one
 * dense step, whose products take every eigenvector component (2.0-3.2x in 14
 * runs); 8 where the systems go to the tridiagonal engine, which has no excess
 * form (2D's two steps: 2.5-3.5x on PoCL, 4.6x on the CUDA emulator). */
static void gc_helmholtz_residual(gc_env *E, double factor) {
  size_t n[2] = {63, 1023}, total = n[0] * n[1];
  double omega = 20 * M_PI;
  pt_fac f[2] = {{0}};
  pscr_problem pb = {.ndim = 2, .dtype = PSCR_C128, .c_re = -omega * omega};
  for (int d = 0; d < 2; d++) {
    double *h = malloc(n[d] * sizeof *h);
    f[d] = (pt_fac){n[d], pt_alloc(PSCR_C128, n[d]), pt_alloc(PSCR_C128, n[d]),
                    pt_alloc(PSCR_C128, n[d]), pt_alloc(PSCR_C128, n[d])};
    for (size_t i = 0; i + 1 < n[d]; i++) h[i] = 1.0 / (double)(n[d] - 1);
    PT_CHECK_STATUS(pscr_factor_helmholtz_abc(n[d], h, omega, f[d].ad, f[d].ao, f[d].md, f[d].mo),
                    PSCR_OK);
    pb.dim[d] = pt_fac_view(&f[d]);
    free(h);
  }
  void *b = pt_alloc(PSCR_C128, total), *u[2] = {pt_alloc(PSCR_C128, total),
                                                  pt_alloc(PSCR_C128, total)};
  pt_fill_uniform(&E->r, PSCR_C128, b, total, -1, 1);
  double rel[2] = {-1, -1};
  pscr_context *ctx[2] = {E->cpu, E->gpu};
  for (int k = 0; k < 2; k++) {
    pscr_plan *plan = NULL;
    memcpy(u[k], b, total * pt_size(PSCR_C128));
    PT_CHECK_STATUS(pscr_plan_create(ctx[k], &pb, NULL, &plan), PSCR_OK);
    if (plan) PT_CHECK_STATUS(pscr_solve(plan, u[k]), PSCR_OK);
    pscr_plan_destroy(plan);
    pt_kron_residual_ld(PSCR_C128, 2, f, pb.c_re, u[k], b, NULL, &rel[k], NULL);
  }
  PT_CHECK(rel[0] > 0 && rel[0] < 1e-12, "CPU Helmholtz 63 x 1023 residual %.2e", rel[0]);
  PT_CHECK_LE(rel[1], factor * rel[0], "GPU Helmholtz 63 x 1023 residual (CPU %.2e)", rel[0]);
  if (getenv("PSCR_TEST_VERBOSE"))
    printf("  Helmholtz 63 x 1023 residual: CPU %.2e, GPU %.2e\n", rel[0], rel[1]);
  for (int d = 0; d < 2; d++) pt_fac_free(&f[d]);
  free(b), free(u[0]), free(u[1]);
}

/* NaN in f: a status, not a silent answer. */
static void gc_nonfinite_f(gc_env *E, const size_t *n) {
  pt_fac f[2] = {{0}};
  for (int d = 0; d < 2; d++) pt_fac_make(&E->r, PSCR_F64, PT_POISSON, n[d], 0, &f[d]);
  pscr_problem pb = {.ndim = 2, .dtype = PSCR_F64};
  for (int d = 0; d < 2; d++) pb.dim[d] = pt_fac_view(&f[d]);
  double *b = pt_alloc(PSCR_F64, n[0] * n[1]);
  pt_fill_uniform(&E->r, PSCR_F64, b, n[0] * n[1], -1, 1);
  b[n[0] * n[1] / 2] = NAN;
  pscr_plan *plan = NULL;
  PT_CHECK_STATUS(pscr_plan_create(E->gpu, &pb, NULL, &plan), PSCR_OK);
  if (plan) {
    pscr_status st = pscr_solve(plan, b);
    PT_CHECK(st == PSCR_ERR_NONFINITE || st == PSCR_ERR_SINGULAR, "NaN in f %zu x %zu: %s", n[0],
             n[1], pscr_status_string(st));
  }
  /* the plan's next solve, of a finite f, is the CPU's (nothing left over from the failure) */
  double *ref = pt_alloc(PSCR_F64, n[0] * n[1]);
  pscr_plan *cp = NULL;
  pt_fill_uniform(&E->r, PSCR_F64, b, n[0] * n[1], -1, 1);
  memcpy(ref, b, n[0] * n[1] * sizeof *b);
  PT_CHECK_STATUS(pscr_plan_create(E->cpu, &pb, NULL, &cp), PSCR_OK);
  if (plan && cp) {
    PT_CHECK_STATUS(pscr_solve(cp, ref), PSCR_OK);
    PT_CHECK_STATUS(pscr_solve(plan, b), PSCR_OK);
    double err = pt_rel_error(PSCR_F64, n[0] * n[1], b, ref);
    PT_CHECK_LE(err, gc_tol(PSCR_F64), "the solve after NaN in f %zu x %zu", n[0], n[1]);
  }
  pscr_plan_destroy(cp);
  pscr_plan_destroy(plan);
  free(b), free(ref);
  for (int d = 0; d < 2; d++) pt_fac_free(&f[d]);
}

/* The dense innermost level (tuning pscr_dense_in, _inz, _in3) and 2D's two
 * steps as products (pscr_steps2, _steps2z): 2D and
 * 3D with pscr_gemm's tiles cut at their edges (64 x 128), a product split
 * along its inner index (520 x 3), dense on one level or both, real definite systems (small
 * slabs whole in pscr_slab, up to 64 x 64 in pscr_slab64, 2D's up to 128 x 128 in
 * pscr_slab128, else the queued CR_PCR_THOMAS solve; both at small sizes),
 * 3D's two dense levels' products in one launch each way (pscr_kron) and not,
 * complex and real random ones (the lines plan: tiles, lanes, pivoting
 * in every lane), every
 * innermost algorithm, the Helmholtz residual regression, 3D batches of 1
 * and a few subproblems, a singular system, NaN in f; with big set, larger
 * problems. */
static void gc_dense_suite(gc_env *E, int big) {
  gpu_td_tuning dft;
  gpu_td_tuning_default(&dft);
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense_in", dft.pscr_dense_in), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense_in3", dft.pscr_dense_in3), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense_inz", dft.pscr_dense_inz), PSCR_OK);
  static const size_t s2[][2] = {{8, 1}, {9, 70}, {70, 9}, {130, 33}, {65, 129}, {520, 3}};
  for (int t = 0; t < 2; t++) /* complex and real random: the lines plan's fused kernels */
    for (size_t i = 0; i < sizeof s2 / sizeof *s2; i++)
      for (int k = 0; k < 2; k++) {
        int kind = k ? PT_RANDOM : t ? PT_HELMHOLTZ : PT_POISSON;
        gc_case(E, t ? PSCR_C128 : PSCR_F64, 2, s2[i], kind, 4, PSCR_TD_AUTO, 0);
      }
  static const size_t c2[2] = {33, 40}, c3[3] = {9, 12, 7};
  gc_case(E, PSCR_C128, 2, c2, PT_HELMHOLTZ, 4, PSCR_TD_CR_PCR_THOMAS, 0);
  gc_helmholtz_residual(E, 4); /* 63 x 1023: the excess form through the lines plan */
  for (int lane = 1; lane <= 2; lane++) { /* the lines on the lanes (few lines: the tiles by
                                           * default); pivoting in every lane */
    PT_CHECK_STATUS(gc_tune(E, "pscr_lane", lane), PSCR_OK);
    gc_case(E, PSCR_C128, 2, c2, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
    gc_case(E, PSCR_F64, 2, c2, PT_RANDOM, 4, PSCR_TD_AUTO, 0);
    gc_case(E, PSCR_C128, 3, c3, PT_RANDOM, 3, PSCR_TD_AUTO, 0);
  }
  PT_CHECK_STATUS(gc_tune(E, "pscr_lane", dft.pscr_lane), PSCR_OK);
  static const pscr_td_algorithm algs[] = {PSCR_TD_CR_PCR_THOMAS, PSCR_TD_SPIKE_DIAG_PIVOT,
                                           PSCR_TD_THOMAS, PSCR_TD_GSPIKE, PSCR_TD_PCR_THOMAS};
  static const size_t a2[2] = {33, 40};
  for (size_t k = 0; k < sizeof algs / sizeof *algs; k++)
    gc_case(E, PSCR_F64, 2, a2, PT_POISSON, 4, algs[k], 0);
  static const size_t g3[3] = {19, 9, 7}; /* batches of one and of a few subproblems */
  PT_CHECK_STATUS(gc_tune(E, "pscr_slab", 0), PSCR_OK); /* small slabs as products too */
  gc_case(E, PSCR_F64, 2, a2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(E, PSCR_F64, 3, g3, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_singular(E, PSCR_F64, 9, 40, PSCR_TD_AUTO);
  PT_CHECK_STATUS(gc_tune(E, "pscr_slab", dft.pscr_slab), PSCR_OK);
  /* slabs past pscr_slab's bound of at most 64 x 64 (pscr_slab64), 2D and 3D's
   * level 1, at its edges; NaN in f there */
  static const size_t b2[][2] = {{64, 64}, {63, 33}, {45, 64}}, b3[3] = {9, 63, 40};
  for (size_t i = 0; i < sizeof b2 / sizeof *b2; i++)
    gc_case(E, PSCR_F64, 2, b2[i], PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(E, PSCR_F64, 3, b3, PT_POISSON, 3, PSCR_TD_AUTO, 0);
  gc_nonfinite_f(E, b2[1]);
  /* 2D's slabs past that, up to 128 x 128 (pscr_slab128: groups of 16 eigenpairs
   * summed up a tree), at its edges: one group (16 x 128), 2 (17), a tree not a
   * power of 2 (100: 7 groups), 8 (128 x 100); short lines (127 x 20); a random A
   * (the lines plan: not definite); NaN in f, a singular system there */
  static const size_t e2[][2] = {{16, 128}, {17, 128}, {100, 65}, {128, 100}, {127, 20}};
  for (size_t i = 0; i < sizeof e2 / sizeof *e2; i++)
    gc_case(E, PSCR_F64, 2, e2[i], PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(E, PSCR_F64, 2, e2[2], PT_RANDOM, 4, PSCR_TD_AUTO, 0);
  gc_nonfinite_f(E, e2[2]);
  gc_singular(E, PSCR_F64, 17, 128, PSCR_TD_AUTO);
  static const size_t s3[][3] = {{9, 9, 9}, {5, 12, 7}, {12, 70, 5}, {10, 8, 1}};
  for (int t = 0; t < 2; t++)
    for (size_t i = 0; i < sizeof s3 / sizeof *s3; i++)
      for (int k = 0; k < 2; k++) {
        int kind = k ? PT_RANDOM : t ? PT_HELMHOLTZ : PT_POISSON;
        gc_case(E, t ? PSCR_C128 : PSCR_F64, 3, s3[i], kind, 3, PSCR_TD_AUTO, 0);
      }
  /* both levels' products in pscr_kron (the 3D cases above; real ones where no slab
   * takes level 1): a group's share of the first product at its bound both ways
   * (pscr_ksplit = 1: the fewest groups, 2 a column; complex 56 x 32: 896 outputs,
   * real 60 x 64: 1920), n0 n1 at its bound (64 x 64) and past it (65 x 64:
   * pscr_gemm), the tuning's bound on n0 n1 lifted; with pscr_kron = 0, the four
   * products */
  static const size_t k3[][3] = {{56, 32, 3}, {60, 64, 2}, {64, 64, 1}, {65, 64, 2}};
  PT_CHECK_STATUS(gc_tune(E, "pscr_kron", 1 << 20), PSCR_OK); /* PSCR_GPU_PD_KCAP bounds it */
  PT_CHECK_STATUS(gc_tune(E, "pscr_ksplit", 1), PSCR_OK);
  gc_case(E, PSCR_C128, 3, k3[0], PT_HELMHOLTZ, 3, PSCR_TD_AUTO, 0);
  gc_case(E, PSCR_F64, 3, k3[1], PT_RANDOM, 3, PSCR_TD_AUTO, 0);
  PT_CHECK_STATUS(gc_tune(E, "pscr_ksplit", dft.pscr_ksplit), PSCR_OK);
  gc_case(E, PSCR_C128, 3, k3[0], PT_RANDOM, 3, PSCR_TD_AUTO, 0);
  for (size_t i = 1; i < sizeof k3 / sizeof *k3; i++)
    gc_case(E, PSCR_F64, 3, k3[i], PT_RANDOM, 3, PSCR_TD_AUTO, 0);
  PT_CHECK_STATUS(gc_tune(E, "pscr_kron", 0), PSCR_OK);
  gc_case(E, PSCR_C128, 3, s3[1], PT_HELMHOLTZ, 3, PSCR_TD_AUTO, 0);
  gc_case(E, PSCR_F64, 3, s3[2], PT_RANDOM, 3, PSCR_TD_AUTO, 0);
  PT_CHECK_STATUS(gc_tune(E, "pscr_kron", dft.pscr_kron), PSCR_OK);
  gc_case(E, PSCR_F64, 3, g3, PT_POISSON, 4, PSCR_TD_AUTO, 1);
  gc_case(E, PSCR_F64, 3, g3, PT_RANDOM, 4, PSCR_TD_CR_PCR_THOMAS, 14000);
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense", 0), PSCR_OK); /* PSCR's level 0 over it */
  gc_case(E, PSCR_F64, 3, g3, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense", dft.pscr_dense), PSCR_OK);
  for (int a = 0; a < 2; a++)
    gc_singular(E, PSCR_F64, 9, 40, a ? PSCR_TD_CR_PCR_THOMAS : PSCR_TD_AUTO);
  gc_nonfinite_f(E, a2);
  /* 2D's two steps as products (pscr_steps2, _steps2z; radix ceil(sqrt(n0 + 1))):
   * blocks all alike (8, 48), a last block of fewer rows (40, 130) or of one
   * row (57), one-row lines (48 x 1), products past pscr_gemm's 64-row tiles (130),
   * a product (27) split along its inner index (600 x 5: 23 x 5 outputs, 600 terms) */
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense_in", 0), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense_inz", 0), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_steps2", 1 << 20), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_steps2z", 1 << 20), PSCR_OK);
  static const size_t t2[][2] = {{8, 5}, {40, 33}, {48, 1}, {57, 20}, {130, 70}, {600, 5}};
  for (int t = 0; t < 2; t++)
    for (size_t i = 0; i < sizeof t2 / sizeof *t2; i++)
      for (int k = 0; k < 2; k++) {
        int kind = k ? PT_RANDOM : t ? PT_HELMHOLTZ : PT_POISSON;
        gc_case(E, t ? PSCR_C128 : PSCR_F64, 2, t2[i], kind, 4, PSCR_TD_AUTO, 0);
      }
  gc_case(E, PSCR_C128, 2, c2, PT_HELMHOLTZ, 4, PSCR_TD_CR_PCR_THOMAS, 0);
  gc_case(E, PSCR_F64, 2, a2, PT_RANDOM, 4, PSCR_TD_SPIKE_DIAG_PIVOT, 0);
  gc_helmholtz_residual(E, 8); /* 63 x 1023 in two steps of radix 8: the engine's pivoting */
  gc_singular(E, PSCR_F64, 9, 40, PSCR_TD_AUTO);
  gc_nonfinite_f(E, a2);
  PT_CHECK_STATUS(gc_tune(E, "pscr_lines", 2), PSCR_OK); /* their systems on a lines plan */
  gc_helmholtz_residual(E, 3);
  gc_case(E, PSCR_C128, 2, t2[3], PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
  gc_case(E, PSCR_F64, 2, t2[4], PT_RANDOM, 4, PSCR_TD_AUTO, 0);
  PT_CHECK_STATUS(gc_tune(E, "pscr_lines", dft.pscr_lines), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_steps2", 0), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_steps2z", 0), PSCR_OK);
  if (big) {
    static const size_t b2[2] = {1023, 1023}, b3[3] = {63, 63, 63};
    gc_case(E, PSCR_F64, 2, b2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
    gc_case(E, PSCR_F64, 3, b3, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  }
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense_in", 0), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense_in3", 0), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(E, "pscr_dense_inz", 0), PSCR_OK);
}

/* The backend's contexts; the innermost level keeps PSCR's steps (tuning
 * pscr_dense_in = _inz = _in3 = pscr_steps2 = _steps2z = 0) for every suite but
 * gc_dense_suite, so that they test the fused kernels at their small sizes. */
static int gc_open(gc_env *E, pscr_backend backend) {
  memset(E, 0, sizeof *E);
  E->backend = backend;
  uint64_t seed = pt_fresh_seed();
  pt_rng_seed(&E->r, seed);
  if (!pscr_backend_available(backend)) return 0;
  PT_CHECK_STATUS(pscr_context_create(backend, 0, &E->gpu), PSCR_OK);
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &E->cpu), PSCR_OK);
  if (pscr_context_create(backend, 0, &E->other) != PSCR_OK) E->other = NULL;
  if (E->gpu) PT_CHECK_STATUS(gc_tune(E, "pscr_dense_in", 0), PSCR_OK);
  if (E->gpu) PT_CHECK_STATUS(gc_tune(E, "pscr_dense_in3", 0), PSCR_OK);
  if (E->gpu) PT_CHECK_STATUS(gc_tune(E, "pscr_dense_inz", 0), PSCR_OK);
  if (E->gpu) PT_CHECK_STATUS(gc_tune(E, "pscr_steps2", 0), PSCR_OK);
  if (E->gpu) PT_CHECK_STATUS(gc_tune(E, "pscr_steps2z", 0), PSCR_OK);
  return E->gpu != NULL && E->cpu != NULL;
}

static void gc_close(gc_env *E) {
  printf("%d GPU plans; worst relative difference to the CPU: real %.2e, complex %.2e\n", E->cases,
         E->worst[0], E->worst[1]);
  pscr_context_destroy(E->gpu);
  pscr_context_destroy(E->cpu);
  pscr_context_destroy(E->other);
}

#endif
