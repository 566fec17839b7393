/* Shared by tests/cpu/test_pscr_*.c: factor matrices of the test problems,
 * the full Kronecker matrix solved by LAPACK band LU (an independent
 * reference), and A u through the Kronecker structure. Header-only. */
#ifndef PSCR_TEST_UTIL_H
#define PSCR_TEST_UTIL_H

#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"

enum { PT_RANDOM, PT_RANDOM_DIAG_M, PT_POISSON, PT_HELMHOLTZ, PT_NKINDS };
static const char *const pt_kind_names[] = {"random", "random-diagM", "poisson", "helmholtz"};

/* One tridiagonal factor pair (A_k, M_k) in the problem's dtype. */
typedef struct {
  size_t n;
  void *ad, *ao, *md, *mo; /* mo NULL: M diagonal */
} pt_fac;

static inline void pt_fac_free(pt_fac *f) { free(f->ad), free(f->ao), free(f->md), free(f->mo); }

/* random: symmetric A (diag U(-1,2), off U(-1,1): indefinite, rarely dominant),
 * M SPD dominant tridiagonal (or diagonal); complex adds small imaginary parts.
 * poisson: tridiag(-1,2,-1)/h, diag(h) on a random non-uniform mesh.
 * helmholtz: tridiag(-1,2,-1)/h with absorbing corners -i k, M = h tridiag(1/6,2/3,1/6)
 * with complex corner terms. */
static inline void pt_fac_make(pt_rng *r, pscr_dtype t, int kind, size_t n, double omega,
                               pt_fac *f) {
  f->n = n;
  f->ad = pt_alloc(t, n), f->ao = pt_alloc(t, n), f->md = pt_alloc(t, n);
  f->mo = kind == PT_RANDOM_DIAG_M || kind == PT_POISSON ? NULL : pt_alloc(t, n);
  double im = t == PSCR_C128 ? 1 : 0;
  double h = 1.0 / (double)(n + 1), hr = h * pt_uniform(r, 0.5, 1.5);
  for (size_t i = 0; i < n; i++) {
    double complex ad, ao = 0, md, mo = 0;
    switch (kind) {
    case PT_RANDOM:
    case PT_RANDOM_DIAG_M:
      ad = pt_uniform(r, -1, 2) + I * im * pt_uniform(r, -0.2, 0.2);
      ao = pt_uniform(r, -1, 1) + I * im * pt_uniform(r, -0.2, 0.2);
      md = pt_uniform(r, 2, 3) + I * im * pt_uniform(r, -0.1, 0.1);
      mo = pt_uniform(r, -0.8, 0.8) + I * im * pt_uniform(r, -0.1, 0.1);
      break;
    case PT_POISSON: {
      double hl = hr; /* steps h_i, h_{i+1} around node i */
      hr = h * pt_uniform(r, 0.5, 1.5);
      ad = 1 / hl + 1 / hr, ao = -1 / hr, md = 0.5 * (hl + hr);
      break;
    }
    default: {
      double k = omega;
      ad = 2 / h, ao = -1 / h, md = h * 2.0 / 3.0, mo = h / 6.0;
      if (i == 0 || i + 1 == n) ad += -I * k, md += I * 0.05 * h;
      break;
    }
    }
    pt_set(t, f->ad, i, ad), pt_set(t, f->md, i, md);
    if (i + 1 < n) {
      pt_set(t, f->ao, i, ao);
      if (f->mo) pt_set(t, f->mo, i, mo);
    }
  }
}

static inline pscr_factor pt_fac_view(const pt_fac *f) {
  return (pscr_factor){f->n, f->ad, f->ao, f->md, f->mo};
}

/* Entry (i, j) of A_k (which = 0) or M_k (which = 1). */
static inline double complex pt_tri(pscr_dtype t, const pt_fac *f, int which, size_t i, size_t j) {
  const void *d = which ? f->md : f->ad, *o = which ? f->mo : f->ao;
  if (i == j) return pt_get(t, d, i);
  if (o == NULL || (i > j ? i - j : j - i) != 1) return 0;
  return pt_get(t, o, i < j ? i : j);
}

/* Entry of the full Kronecker matrix (7) / (8) between multi-indices ii and jj. */
static inline double complex pt_kron_entry(pscr_dtype t, int ndim, const pt_fac *f,
                                           double complex c, const size_t *ii, const size_t *jj) {
  double complex mm = 1, s = 0;
  for (int d = 0; d < ndim; d++) mm *= pt_tri(t, &f[d], 1, ii[d], jj[d]);
  for (int d = 0; d < ndim; d++) {
    double complex p = pt_tri(t, &f[d], 0, ii[d], jj[d]);
    for (int e = 0; e < ndim; e++)
      if (e != d) p *= pt_tri(t, &f[e], 1, ii[e], jj[e]);
    s += p;
  }
  return s + c * mm;
}

static inline void pt_unravel(int ndim, const size_t *n, size_t idx, size_t *ii) {
  for (int d = ndim - 1; d >= 0; d--) ii[d] = idx % n[d], idx /= n[d];
}

/* Neighbour k < 3^ndim of multi-index ii (offsets -1, 0, 1 per dimension): its
 * multi-index jj and flat index *col. @return 0 when it falls outside. */
static inline int pt_neighbour(int ndim, const size_t *n, const size_t *ii, int k, size_t *jj,
                               size_t *col) {
  *col = 0;
  for (int d = 0; d < ndim; d++, k /= 3) {
    long j = (long)ii[d] + k % 3 - 1;
    if (j < 0 || j >= (long)n[d]) return 0;
    jj[d] = (size_t)j;
  }
  for (int d = 0; d < ndim; d++) *col = *col * n[d] + jj[d];
  return 1;
}

/* y = A x through the Kronecker structure (3^ndim-point stencil), complex
 * arithmetic; *anorm (may be NULL) = ||A||_inf, the largest row sum of |a_ij|. */
static inline void pt_kron_matvec(pscr_dtype t, int ndim, const pt_fac *f, double complex c,
                                  const void *x, double complex *y, double *anorm) {
  size_t n[3], total = 1;
  for (int d = 0; d < ndim; d++) n[d] = f[d].n, total *= n[d];
  int nnb = ndim == 2 ? 9 : 27;
  double amax = 0;
  for (size_t r = 0; r < total; r++) {
    size_t ii[3], jj[3];
    pt_unravel(ndim, n, r, ii);
    double complex s = 0;
    double arow = 0;
    for (int k = 0; k < nnb; k++) {
      size_t col;
      if (!pt_neighbour(ndim, n, ii, k, jj, &col)) continue;
      double complex a = pt_kron_entry(t, ndim, f, c, ii, jj);
      s += a * pt_get(t, x, col);
      arow += cabs(a);
    }
    y[r] = s;
    if (arow > amax) amax = arow;
  }
  if (anorm) *anorm = amax;
}

/* Relative residual ||b - A u||_inf / ||b||_inf and the normwise backward
 * error ||b - A u||_inf / (||A||_inf ||u||_inf + ||b||_inf). */
static inline void pt_kron_residual(pscr_dtype t, int ndim, const pt_fac *f, double complex c,
                                    const void *u, const void *b, double *rel, double *bwd) {
  size_t total = 1;
  for (int d = 0; d < ndim; d++) total *= f[d].n;
  double complex *au = malloc(total * sizeof *au);
  if (au == NULL) abort();
  double an = 0, rn = 0, bn = 0, un = 0;
  pt_kron_matvec(t, ndim, f, c, u, au, &an);
  for (size_t i = 0; i < total; i++) {
    double complex bi = pt_get(t, b, i);
    double e = cabs(bi - au[i]), m = cabs(bi), x = cabs(pt_get(t, u, i));
    if (!(e <= rn)) rn = e;
    if (m > bn) bn = m;
    if (!(x <= un)) un = x;
  }
  free(au);
  *rel = rn / bn;
  *bwd = rn / (an * un + bn);
}

/* Relative residuals of u in long double (x87: 11 more bits), so that the
 * measurement's own rounding (~eps ||A|| ||u||, up to ~2e-13 relative at 2D
 * 1023^2) stays out of a bound near 1e-12: rel_inf = ||b - A u||_inf / ||b||_inf,
 * rel_2 = ||b - A u||_2 / ||b||_2, bwd as in pt_kron_residual (any may be NULL). */
static inline void pt_kron_residual_ld(pscr_dtype t, int ndim, const pt_fac *f, double complex c,
                                       const void *u, const void *b, double *rel_inf,
                                       double *rel_2, double *bwd) {
  typedef long double complex lz;
  size_t n[3], total = 1;
  for (int d = 0; d < ndim; d++) n[d] = f[d].n, total *= n[d];
  long double rmax = 0, bmax = 0, umax = 0, amax = 0, r2 = 0, b2 = 0;
  for (size_t row = 0; row < total; row++) {
    size_t ii[3], jj[3];
    pt_unravel(ndim, n, row, ii);
    lz s = 0;
    long double arow = 0;
    for (int k = 0; k < (ndim == 2 ? 9 : 27); k++) {
      size_t col;
      if (!pt_neighbour(ndim, n, ii, k, jj, &col)) continue;
      lz mm = 1, a = 0; /* the entry of (7) / (8), formed in long double */
      for (int d = 0; d < ndim; d++) mm *= (lz)pt_tri(t, &f[d], 1, ii[d], jj[d]);
      for (int d = 0; d < ndim; d++) {
        lz p = pt_tri(t, &f[d], 0, ii[d], jj[d]);
        for (int e = 0; e < ndim; e++)
          if (e != d) p *= (lz)pt_tri(t, &f[e], 1, ii[e], jj[e]);
        a += p;
      }
      a += (lz)c * mm;
      s += a * (lz)pt_get(t, u, col);
      arow += cabsl(a);
    }
    lz bi = pt_get(t, b, row), r = bi - s;
    long double er = cabsl(r), eb = cabsl(bi), eu = cabsl((lz)pt_get(t, u, row));
    rmax = er > rmax || er != er ? er : rmax, bmax = eb > bmax ? eb : bmax;
    umax = eu > umax || eu != eu ? eu : umax, amax = arow > amax ? arow : amax;
    r2 += er * er, b2 += eb * eb;
  }
  if (rel_inf) *rel_inf = (double)(rmax / bmax);
  if (rel_2) *rel_2 = (double)sqrtl(r2 / b2);
  if (bwd) *bwd = (double)(rmax / (amax * umax + bmax));
}

/* u = A^{-1} b with the assembled Kronecker matrix and LAPACK zgbsv. @return info. */
static inline int pt_kron_reference(pscr_dtype t, int ndim, const pt_fac *f, double complex c,
                                    const void *b, void *u) {
  size_t n[3], total = 1, bw = 1;
  for (int d = 0; d < ndim; d++) n[d] = f[d].n, total *= n[d];
  for (int d = 1; d < ndim; d++) bw *= n[d];
  size_t kl = bw + (ndim == 3 ? n[2] : 0) + 1, ld = 3 * kl + 1; /* |row - col| <= kl */
  lapack_complex_double *ab = calloc(ld * total, sizeof *ab), *x = malloc(total * sizeof *x);
  lapack_int *piv = malloc(total * sizeof *piv);
  if (!ab || !x || !piv) abort();
  for (size_t r = 0; r < total; r++) {
    size_t ii[3], jj[3];
    pt_unravel(ndim, n, r, ii);
    for (int k = 0; k < (ndim == 2 ? 9 : 27); k++) {
      size_t col;
      if (!pt_neighbour(ndim, n, ii, k, jj, &col)) continue;
      ab[(kl + kl + r - col) + col * ld] = pt_kron_entry(t, ndim, f, c, ii, jj);
    }
    x[r] = pt_get(t, b, r);
  }
  lapack_int info = LAPACKE_zgbsv(LAPACK_COL_MAJOR, (lapack_int)total, (lapack_int)kl,
                                  (lapack_int)kl, 1, ab, (lapack_int)ld, piv, x, (lapack_int)total);
  for (size_t r = 0; r < total; r++) pt_set(t, u, r, x[r]);
  free(ab), free(x), free(piv);
  return (int)info;
}

/* Smallest eigenvalue of the real pencil (A, M) (dense LAPACK, for choosing c). */
static inline double pt_lambda_min(pscr_dtype t, const pt_fac *f) {
  size_t n = f->n;
  double *a = calloc(n * n, sizeof *a), *m = calloc(n * n, sizeof *m), *w = malloc(n * sizeof *w);
  if (!a || !m || !w) abort();
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      a[i * n + j] = creal(pt_tri(t, f, 0, i, j));
      m[i * n + j] = creal(pt_tri(t, f, 1, i, j));
    }
  lapack_int info = LAPACKE_dsygv(LAPACK_ROW_MAJOR, 1, 'N', 'U', (lapack_int)n, a, (lapack_int)n, m,
                                  (lapack_int)n, w);
  double lmin = info == 0 ? w[0] : NAN;
  free(a), free(m), free(w);
  return lmin;
}

/* c for a problem of this kind: random kinds are shifted so that every
 * eigenvalue lambda_1 + ... + c of the pencil has real part >= 0.5 (the
 * shifted inner systems are then far from singular, but rarely dominant). */
static inline double complex pt_choose_c(pt_rng *r, pscr_dtype t, int ndim, const pt_fac *f,
                                         int kind, double omega) {
  double im = t == PSCR_C128 ? 1 : 0;
  if (kind == PT_HELMHOLTZ) return -omega * omega;
  if (kind == PT_POISSON) return im * I * pt_uniform(r, -1, 1);
  double s = 0;
  for (int d = 0; d < ndim; d++) s += pt_lambda_min(t, &f[d]);
  return -s + pt_uniform(r, 0.5, 1.5) + im * I * pt_uniform(r, -0.1, 0.1);
}

/* One problem: the reference once, then PSCR with every radix (and the given
 * innermost algorithm). @return the worst relative error. */
static inline double pt_check_case(pscr_context *ctx, pt_rng *r, pscr_dtype t, int ndim,
                                   const size_t *n, int kind, const int *radix, int nradix,
                                   pscr_td_algorithm alg) {
  pt_fac f[3] = {{0}};
  double omega = 4;
  size_t total = 1;
  for (int d = 0; d < ndim; d++) pt_fac_make(r, t, kind, n[d], omega, &f[d]), total *= n[d];
  double complex c = pt_choose_c(r, t, ndim, f, kind, omega);
  void *b = pt_alloc(t, total), *ref = pt_alloc(t, total), *u = pt_alloc(t, total);
  pt_fill_uniform(r, t, b, total, -1, 1);
  int info = pt_kron_reference(t, ndim, f, c, b, ref);
  PT_CHECK(info == 0, "reference zgbsv info %d", info);
  pscr_problem pb = {.ndim = ndim, .dtype = t, .c_re = creal(c), .c_im = cimag(c)};
  for (int d = 0; d < ndim; d++) pb.dim[d] = pt_fac_view(&f[d]);
  double worst = 0;
  for (int k = 0; k < nradix; k++) {
    pscr_options opt;
    pscr_options_default(&opt);
    opt.radix = radix[k], opt.innermost = alg;
    pscr_plan *plan = NULL;
    pscr_status st = pscr_plan_create(ctx, &pb, &opt, &plan);
    PT_CHECK(st == PSCR_OK, "plan %s: %s", pt_kind_names[kind], pscr_status_string(st));
    if (st != PSCR_OK) continue;
    memcpy(u, b, total * pt_size(t));
    st = pscr_solve(plan, u);
    PT_CHECK(st == PSCR_OK, "solve %s: %s", pt_kind_names[kind], pscr_status_string(st));
    double err = pt_rel_error(t, total, u, ref);
    PT_CHECK_LE(err, 1e-10, "%dD dtype %d %s n %zu %zu %zu radix %d alg %d", ndim, (int)t,
                pt_kind_names[kind], n[0], n[1], ndim == 3 ? n[2] : 0, radix[k], (int)alg);
    if (!(err <= worst)) worst = err;
    pscr_plan_destroy(plan);
  }
  for (int d = 0; d < ndim; d++) pt_fac_free(&f[d]);
  free(b), free(ref), free(u);
  return worst;
}

/* ---- the harness of the PSCR tests against the dense reference ---- */

/* The size list and radices of issue 3 (every n1, n2 of the 2D sweeps). */
static const size_t pt_sweep_sizes[] = {1, 2, 3, 4, 5, 15, 16, 17, 63, 64, 65};
static const int pt_sweep_radices[] = {2, 3, 4, 5};

/* A fresh seed into *r (printed by the harness) and a CPU context; NULL (and a
 * failed check) if the context cannot be made. */
static inline pscr_context *pt_start(pt_rng *r) {
  pt_rng_seed(r, pt_fresh_seed());
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx), PSCR_OK);
  return ctx;
}

/* 2D, every (n1, n2) of pt_sweep_sizes x every radix of pt_sweep_radices, for the
 * kinds kind0..kind1 of dtype t (AUTO innermost): worst[kind] = the worst relative
 * error against the band-LU reference (each case asserts <= 1e-10). */
static inline void pt_sweep_2d(pscr_context *ctx, pt_rng *r, pscr_dtype t, int kind0, int kind1,
                               double *worst) {
  size_t ns = sizeof pt_sweep_sizes / sizeof *pt_sweep_sizes;
  int nr = (int)(sizeof pt_sweep_radices / sizeof *pt_sweep_radices);
  for (int kind = kind0; kind <= kind1; kind++) {
    worst[kind] = 0;
    for (size_t i = 0; i < ns; i++)
      for (size_t j = 0; j < ns; j++) {
        size_t n[2] = {pt_sweep_sizes[i], pt_sweep_sizes[j]};
        double e = pt_check_case(ctx, r, t, 2, n, kind, pt_sweep_radices, nr, PSCR_TD_AUTO);
        if (!(e <= worst[kind])) worst[kind] = e;
      }
  }
}

static inline void pt_print_worst(int kind0, int kind1, const double *worst) {
  for (int kind = kind0; kind <= kind1; kind++)
    printf("worst relative error %-13s %.2e\n", pt_kind_names[kind], worst[kind]);
}

#endif
