/* pscr_eigen_block against dense LAPACK (dsygv / zggev): eigenvalue errors,
 * residuals ||A w - lambda M w|| / ((||A|| + |lambda| ||M||) ||w||), the
 * M-orthonormality W^T M W = I (transpose also for complex: seed 003 (19)),
 * subsets of components against the full vectors, the smallest eigenvalues
 * of Poisson pencils to high relative accuracy (analytic reference), the
 * result independent of the thread count, and bad input. Real Toeplitz
 * pencils (uniform meshes) take a closed form: it is checked against the
 * general path and exact eigenpairs, and the general path is still run on
 * the Poisson pencils directly. Large real blocks (EIGEN_STURM_MIN) take
 * eigen_sturm_values_d: checked against the old reduction + dsterf and long
 * double bisection on graded, random, Wilkinson, glued, perturbed Toeplitz
 * and strongly graded families, and end to end on graded-mesh pencils. */
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "eigen/eigen.h"
#include "eigen/eigen_impl.h"
#include "testing.h"

typedef double complex C;

#ifdef _OPENMP
#define TEAM_OF_TWO 2
static int team_size(void) { return omp_get_num_threads(); }
#else
#define TEAM_OF_TWO 1 /* no OpenMP: the statement runs alone */
static int team_size(void) { return 1; }
#endif

/* Runs the statement on one thread of a team of two (the other is free for
 * the tasks it spawns) and asserts that the team has two threads. */
#define IN_TEAM_OF_TWO(stmt)                                                                       \
  do {                                                                                             \
    int team_ = 0;                                                                                 \
    _Pragma("omp parallel num_threads(2)") _Pragma("omp single") {                                 \
      team_ = team_size();                                                                         \
      stmt;                                                                                        \
    }                                                                                              \
    PT_CHECK(team_ == TEAM_OF_TWO, "a team of %d threads (got %d)", TEAM_OF_TWO, team_);           \
  } while (0)

/* One pencil, generated in complex and passed to the library as dtype t. */
typedef struct {
  pscr_dtype t;
  size_t m;
  C *ad, *ao, *md, *mo; /* mo == NULL: diagonal M */
  const char *name;
  int general; /* real: eigen_pencil_d itself, bypassing the Toeplitz closed form */
} pencil;

/* pscr_eigen_block, or the general real path as pscr_eigen_block calls it. */
static pscr_status solve(const pencil *p, const void *ad, const void *ao, const void *md,
                         const void *mo, size_t nrows, const size_t *rows, void *lam, void *comp) {
  static const double zero = 0;
  if (!p->general) return pscr_eigen_block(p->t, p->m, ad, ao, md, mo, nrows, rows, lam, comp);
  return eigen_pencil_d(p->m, ad, p->m > 1 ? ao : &zero, md, p->m > 1 ? mo : NULL, nrows, rows,
                        lam, comp);
}

static double tol_lam(pscr_dtype t) { return t == PSCR_F64 ? 1e-12 : 1e-10; }
static double tol_res(pscr_dtype t) { return t == PSCR_F64 ? 1e-12 : 1e-10; }
static double tol_orth(pscr_dtype t) { return t == PSCR_F64 ? 1e-11 : 1e-9; }

static C *zalloc(size_t n) { return pt_alloc(PSCR_C128, n); }

static void *to_dtype(pscr_dtype t, const C *p, size_t n) {
  if (p == NULL) return NULL;
  void *q = pt_alloc(t, n);
  for (size_t i = 0; i < n; i++) pt_set(t, q, i, p[i]);
  return q;
}

/* y = T x for the symmetric tridiagonal (d, o), o == NULL: diagonal; and
 * T's inf-norm. Complex (tmv, tnorm) and real (dtmv, dnorm) from one text. */
#define TRI_HELPERS(MV, NORM, T, ABS)                                                              \
  static void MV(size_t m, const T *d, const T *o, const T *x, T *y) {                             \
    for (size_t i = 0; i < m; i++) {                                                               \
      y[i] = d[i] * x[i];                                                                          \
      if (o && i > 0) y[i] += o[i - 1] * x[i - 1];                                                 \
      if (o && i + 1 < m) y[i] += o[i] * x[i + 1];                                                 \
    }                                                                                              \
  }                                                                                                \
  static double NORM(size_t m, const T *d, const T *o) {                                           \
    double r = 0;                                                                                  \
    for (size_t i = 0; i < m; i++)                                                                 \
      r = fmax(r, ABS(d[i]) + (o && i > 0 ? ABS(o[i - 1]) : 0) + (o && i + 1 < m ? ABS(o[i]) : 0)); \
    return r;                                                                                      \
  }
TRI_HELPERS(tmv, tnorm, C, cabs)
TRI_HELPERS(dtmv, dnorm, double, fabs)

/* Dense reference eigenvalues, ascending real part. @return LAPACK info. */
static int reference(const pencil *p, C *ref) {
  size_t m = p->m;
  int info;
  if (p->t == PSCR_F64) {
    double *a = calloc(m * m, 8), *b = calloc(m * m, 8), *w = malloc(m * 8);
    for (size_t i = 0; i < m; i++) {
      a[i * m + i] = creal(p->ad[i]);
      b[i * m + i] = creal(p->md[i]);
      if (i + 1 < m) {
        a[i * m + i + 1] = a[(i + 1) * m + i] = creal(p->ao[i]);
        if (p->mo) b[i * m + i + 1] = b[(i + 1) * m + i] = creal(p->mo[i]);
      }
    }
    info = LAPACKE_dsygv(LAPACK_COL_MAJOR, 1, 'N', 'U', (int)m, a, (int)m, b, (int)m, w);
    for (size_t i = 0; i < m; i++) ref[i] = w[i];
    free(a), free(b), free(w);
    return info;
  }
  C *a = zalloc(m * m), *b = zalloc(m * m), *al = zalloc(m), *be = zalloc(m);
  for (size_t i = 0; i < m; i++) {
    a[i * m + i] = p->ad[i];
    b[i * m + i] = p->md[i];
    if (i + 1 < m) {
      a[i * m + i + 1] = a[(i + 1) * m + i] = p->ao[i];
      if (p->mo) b[i * m + i + 1] = b[(i + 1) * m + i] = p->mo[i];
    }
  }
  info = LAPACKE_zggev(LAPACK_COL_MAJOR, 'N', 'N', (int)m, a, (int)m, b, (int)m, al, be, NULL, 1,
                       NULL, 1);
  for (size_t i = 0; i < m; i++) ref[i] = al[i] / be[i];
  for (size_t i = 1; i < m; i++) /* insertion sort by real part */
    for (size_t j = i; j > 0 && creal(ref[j]) < creal(ref[j - 1]); j--) {
      C s = ref[j];
      ref[j] = ref[j - 1], ref[j - 1] = s;
    }
  free(a), free(b), free(al), free(be);
  return info;
}

/* Worst errors seen over all cases of one kind, for the summary. */
typedef struct { double lam, res, orth; } worst;

static void check_pencil(pt_rng *rng, const pencil *p, worst *wst) {
  size_t m = p->m, n = m;
  pscr_dtype t = p->t;
  void *ad = to_dtype(t, p->ad, m), *ao = to_dtype(t, p->ao, m ? m - 1 : 0);
  void *md = to_dtype(t, p->md, m), *mo = to_dtype(t, p->mo, m ? m - 1 : 0);
  size_t *rows = malloc(n * sizeof *rows);
  for (size_t i = 0; i < n; i++) rows[i] = i;
  void *lam = pt_alloc(t, m), *comp = pt_alloc(t, m * n);
  PT_CHECK_STATUS(solve(p, ad, ao, md, mo, n, rows, lam, comp), PSCR_OK);

  C *ref = zalloc(m), *w = zalloc(m), *aw = zalloc(m), *mw = zalloc(m);
  PT_CHECK(reference(p, ref) == 0, "%s m=%zu: reference failed", p->name, m);
  double refmax = 0, elam = 0, eres = 0, eorth = 0;
  for (size_t l = 0; l < m; l++) refmax = fmax(refmax, cabs(ref[l]));
  char *used = calloc(m, 1);
  for (size_t l = 0; l < m; l++) { /* nearest unused reference eigenvalue */
    C x = pt_get(t, lam, l);
    if (l > 0) PT_CHECK(creal(x) >= creal(pt_get(t, lam, l - 1)), "%s: not ascending", p->name);
    size_t best = 0;
    double bd = INFINITY;
    for (size_t k = 0; k < m; k++)
      if (!used[k] && cabs(x - ref[k]) < bd) bd = cabs(x - ref[k]), best = k;
    used[best] = 1;
    elam = fmax(elam, bd / refmax);
  }
  free(used);
  double an = tnorm(m, p->ad, p->ao), mn = tnorm(m, p->md, p->mo);
  for (size_t l = 0; l < m; l++) { /* residuals */
    C x = pt_get(t, lam, l);
    double wn = 0, rn = 0;
    for (size_t i = 0; i < m; i++) w[i] = pt_get(t, comp, l * n + i), wn = fmax(wn, cabs(w[i]));
    tmv(m, p->ad, p->ao, w, aw);
    tmv(m, p->md, p->mo, w, mw);
    for (size_t i = 0; i < m; i++) rn = fmax(rn, cabs(aw[i] - x * mw[i]));
    eres = fmax(eres, rn / ((an + cabs(x) * mn) * wn));
  }
  C *wm = zalloc(m * m); /* rows: w_l and M w_l */
  double *w2 = malloc(m * sizeof *w2);
  for (size_t l = 0; l < m; l++) {
    for (size_t i = 0; i < m; i++) w[i] = pt_get(t, comp, l * n + i);
    tmv(m, p->md, p->mo, w, wm + l * m);
    w2[l] = 0;
    for (size_t i = 0; i < m; i++) w2[l] += creal(w[i] * conj(w[i]));
    w2[l] = sqrt(w2[l]);
  }
  for (size_t k = 0; k < m; k++) /* (W^T M W - I)_{kl}, scaled by ||M|| ||w_k|| ||w_l|| (>= 1 if real) */
    for (size_t l = 0; l < m; l++) {
      C s = 0;
      for (size_t i = 0; i < m; i++) s += pt_get(t, comp, k * n + i) * wm[l * m + i];
      double e = cabs(s - (k == l ? 1.0 : 0.0)) / fmax(1.0, mn * w2[k] * w2[l]);
      eorth = fmax(eorth, e);
    }
  PT_CHECK_LE(elam, tol_lam(t), "%s m=%zu eigenvalues", p->name, m);
  PT_CHECK_LE(eres, tol_res(t), "%s m=%zu residual", p->name, m);
  PT_CHECK_LE(eorth, tol_orth(t), "%s m=%zu W^T M W - I", p->name, m);
  wst->lam = fmax(wst->lam, elam), wst->res = fmax(wst->res, eres), wst->orth = fmax(wst->orth, eorth);

  /* A few components (q + 1 rows, repeats allowed) must equal the full vectors'. */
  size_t nr = 5, sub[5];
  for (size_t r = 0; r < nr; r++) sub[r] = (size_t)pt_uniform(rng, 0, (double)m) % m;
  void *lam2 = pt_alloc(t, m), *comp2 = pt_alloc(t, m * nr);
  PT_CHECK_STATUS(solve(p, ad, ao, md, mo, nr, sub, lam2, comp2), PSCR_OK);
  double dl = 0, dc = 0;
  for (size_t l = 0; l < m; l++) {
    dl = fmax(dl, cabs(pt_get(t, lam2, l) - pt_get(t, lam, l)));
    for (size_t r = 0; r < nr; r++)
      dc = fmax(dc, cabs(pt_get(t, comp2, l * nr + r) - pt_get(t, comp, l * n + sub[r])));
  }
  PT_CHECK(dl == 0 && dc == 0, "%s m=%zu: subset differs (lambda %.2e, comp %.2e)", p->name, m, dl, dc);

  free(ad), free(ao), free(md), free(mo), free(rows), free(lam), free(comp), free(ref), free(w);
  free(aw), free(mw), free(wm), free(w2), free(lam2), free(comp2);
}

/* The cases; every pencil gets fresh random data. */
enum { RAND_TRI, RAND_DIAG, POISSON_LUMPED, POISSON_FEM, WILKINSON, GLUED, CHAIN, CLUSTER, NREAL,
       Z_RAND_TRI = 0, Z_RAND_DIAG, Z_HELMHOLTZ, Z_GLUED, Z_CHAIN, Z_CLUSTER, Z_SCALED, NCPLX };

static void make(pt_rng *r, pscr_dtype t, int kind, size_t m, pencil *p) {
  p->t = t, p->m = m, p->general = 0;
  p->ad = zalloc(m), p->ao = zalloc(m), p->md = zalloc(m), p->mo = zalloc(m);
  double h = 1.0 / (double)(m + 1);
  C im = t == PSCR_C128 ? I : 0;
  int glued = (t == PSCR_F64 && kind == GLUED) || (t == PSCR_C128 && kind == Z_GLUED);
  int chain = (t == PSCR_F64 && kind == CHAIN) || (t == PSCR_C128 && kind == Z_CHAIN);
  int diag = (t == PSCR_F64 && (kind == RAND_DIAG || kind == POISSON_LUMPED || kind == WILKINSON ||
                                 kind == CLUSTER)) ||
             (t == PSCR_C128 && (kind == Z_RAND_DIAG || kind == Z_CLUSTER));
  if (t == PSCR_F64 && (kind == POISSON_LUMPED || kind == POISSON_FEM)) {
    p->name = kind == POISSON_FEM ? "poisson-fem" : "poisson-lumped";
    for (size_t i = 0; i < m; i++) {
      p->ad[i] = 2 / h, p->ao[i] = -1 / h;
      p->md[i] = kind == POISSON_FEM ? 2 * h / 3 : h, p->mo[i] = h / 6;
    }
  } else if (t == PSCR_F64 && kind == WILKINSON) { /* W+: pairs equal to many digits */
    /* (Complex symmetric pencils with such pairs are ill-posed: any basis of a
     * pair's plane is as good, and one with w^T M w = 1 may be nearly isotropic.) */
    p->name = "wilkinson";
    for (size_t i = 0; i < m; i++) p->ad[i] = fabs((double)i - (double)(m - 1) / 2), p->ao[i] = 1, p->md[i] = 1;
  } else if ((t == PSCR_F64 && kind == CLUSTER) || (t == PSCR_C128 && kind == Z_CLUSTER)) {
    /* all eigenvalues within ~1e-8 of 1: every vector is reorthogonalized */
    p->name = "cluster";
    for (size_t i = 0; i < m; i++) {
      p->ad[i] = 1 + 1e-8 * pt_uniform(r, -1, 1) * (1 + im), p->ao[i] = 1e-9 * pt_uniform(r, 0.5, 1);
      p->md[i] = pt_uniform(r, 0.5, 2) * (1 + 0.1 * im);
    }
  } else if (t == PSCR_C128 && (kind == Z_HELMHOLTZ || kind == Z_SCALED)) {
    /* seed 003 (33)-(35), uniform h; scaled: A * 1e200, M * 1e160 (lambda * 1e40) */
    p->name = kind == Z_SCALED ? "helmholtz-scaled" : "helmholtz";
    double om = pt_uniform(r, 5, 40), fa = kind == Z_SCALED ? 1e200 : 1, fm = kind == Z_SCALED ? 1e160 : 1;
    for (size_t i = 0; i < m; i++) {
      p->ad[i] = 2 / h, p->ao[i] = -1 / h, p->md[i] = 2 * h / 3, p->mo[i] = h / 6;
    }
    p->ad[0] += -1 / h - I * om / 2, p->md[0] += -h / 3 + I / (2 * om);
    p->ad[m - 1] += -1 / h - I * om / 2, p->md[m - 1] += -h / 3 + I / (2 * om);
    for (size_t i = 0; i < m; i++) p->ad[i] *= fa, p->ao[i] *= fa, p->md[i] *= fm, p->mo[i] *= fm;
  } else { /* random: A symmetric, M dominant (SPD when real, Re M SPD when complex) */
    p->name = glued ? "glued" : chain ? "chain" : diag ? "random-diagM" : "random-triM";
    size_t period = glued || chain ? 5 : m;
    for (size_t i = 0; i < m; i++) {
      if (i >= period) {
        p->ad[i] = p->ad[i - period], p->ao[i] = p->ao[i - period];
        p->md[i] = p->md[i - period], p->mo[i] = p->mo[i - period];
        continue;
      }
      p->ad[i] = pt_uniform(r, -1, 1) + 0.3 * im * pt_uniform(r, -1, 1);
      p->ao[i] = pt_uniform(r, -1, 1) + 0.3 * im * pt_uniform(r, -1, 1);
      p->mo[i] = pt_uniform(r, -0.5, 0.5) + 0.1 * im * pt_uniform(r, -1, 1);
      p->md[i] = pt_uniform(r, 1.0, 2.0) + 0.1 * im * pt_uniform(r, -1, 1);
    }
    /* copies of one block: split exactly (glued: eigenvalues of multiplicity
     * m / 5) or coupled by 1e-6 (chain: bands of m / 5 close eigenvalues) */
    if (glued || chain)
      for (size_t i = period - 1; i + 1 < m; i += period)
        p->ao[i] = chain ? 1e-6 * pt_uniform(r, 0.5, 1) : 0, p->mo[i] = 0;
  }
  if (diag) {
    free(p->mo);
    p->mo = NULL;
  }
}

static void free_pencil(pencil *p) { free(p->ad), free(p->ao), free(p->md), free(p->mo); }

static void bad_input(void) {
  size_t rows[2] = {0, 2};
  double ad[3] = {2, 2, 2}, ao[2] = {-1, -1}, md[3] = {1, 1, 1}, mo[2] = {0.2, 0.2}, lam[3], comp[6];
  double mneg[3] = {1, -1, 1}, mind[2] = {0.9, 0.9}; /* indefinite: diag 1, off 0.9 */
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 3, ad, ao, md, mo, 2, rows, lam, comp), PSCR_OK);
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 3, ad, ao, mneg, NULL, 2, rows, lam, comp),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 3, ad, ao, mneg, mo, 2, rows, lam, comp),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 3, ad, ao, md, mind, 2, rows, lam, comp),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 0, ad, ao, md, mo, 2, rows, lam, comp),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 3, NULL, ao, md, mo, 2, rows, lam, comp),
                  PSCR_ERR_INVALID_ARGUMENT);
  size_t badrow[1] = {3};
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 3, ad, ao, md, mo, 1, badrow, lam, comp),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_eigen_block((pscr_dtype)7, 3, ad, ao, md, mo, 2, rows, lam, comp),
                  PSCR_ERR_INVALID_ARGUMENT);
  /* Valid corner cases: no components wanted; m = 1 with a_off = NULL. */
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 3, ad, ao, md, mo, 0, NULL, lam, NULL), PSCR_OK);
  PT_CHECK(fabs(lam[0] - (2 - sqrt(2)) / (1 + 0.2 * sqrt(2))) < 1e-14, "nrows = 0: lambda_0 = %.17g",
           lam[0]); /* tridiagonal Toeplitz pencil: (2 - 2cos(pi/4)) / (1 + 0.4cos(pi/4)) */
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 1, ad, NULL, md, NULL, 1, rows, lam, comp), PSCR_OK);
  PT_CHECK(lam[0] == 2 && fabs(comp[0]) == 1, "m = 1: lambda %g, w %g", lam[0], comp[0]);
  ad[1] = NAN;
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 3, ad, ao, md, mo, 2, rows, lam, comp),
                  PSCR_ERR_NONFINITE);
  ad[1] = 2, mo[0] = INFINITY;
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 3, ad, ao, md, mo, 2, rows, lam, comp),
                  PSCR_ERR_NONFINITE);
  C zad[3] = {2, 2, 2}, zao[2] = {-1, -1}, zmd[3] = {1, 1, 1 + 0.5 * I}, zmo[2] = {0.2, 0.2};
  C zlam[3], zcomp[6];
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_C128, 3, zad, zao, zmd, zmo, 2, rows, zlam, zcomp), PSCR_OK);
  ((double *)&zao[1])[1] = NAN; /* imaginary part */
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_C128, 3, zad, zao, zmd, zmo, 2, rows, zlam, zcomp),
                  PSCR_ERR_NONFINITE);
  zao[1] = -1, zmd[2] = INFINITY;
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_C128, 3, zad, zao, zmd, NULL, 2, rows, zlam, zcomp),
                  PSCR_ERR_NONFINITE);
  zmd[2] = 0; /* singular complex M: diagonal, and M = Z Z^T breaking down */
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_C128, 3, zad, zao, zmd, NULL, 2, rows, zlam, zcomp),
                  PSCR_ERR_INVALID_ARGUMENT);
  C zmd2[3] = {1, I, 1}, zmo2[2] = {1, 0}; /* leading 2x2 block [[1, 1], [1, i]] ... */
  zmd2[1] = 1;                              /* ... made singular: [[1, 1], [1, 1]] */
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_C128, 3, zad, zao, zmd2, zmo2, 2, rows, zlam, zcomp),
                  PSCR_ERR_INVALID_ARGUMENT);
}

/* Small eigenvalues to high relative accuracy (Rayleigh quotient in edge form,
 * long double last step): the 1D Poisson pencils on a uniform mesh, lumped and
 * consistent M, have lambda_l = (4/h^2) sin^2(theta/2) and
 * (6/h^2)(1 - cos theta)/(2 + cos theta), theta = l pi h. Before the fix the
 * lowest were off by eps ||A|| / lambda_1 (~1e-10 at m = 1000). Asserted: relative
 * error of the 16 smallest against the reference, and their residuals
 * ||(A - lambda M) w|| (long double arithmetic) in units of eps ||A|| ||w||:
 * the exact vectors rounded to double give ~0.3, double inverse iteration 3-12. */
static void small_eigenvalues(size_t m, int consistent, int general, double *elam, double *eres) {
  long double h = 1.0L / (long double)(m + 1);
  double *ad = malloc(m * 8), *ao = malloc(m * 8), *md = malloc(m * 8), *mo = malloc(m * 8);
  for (size_t i = 0; i < m; i++) {
    ad[i] = (double)(2 / h), ao[i] = (double)(-1 / h);
    md[i] = (double)(consistent ? 2 * h / 3 : h), mo[i] = (double)(h / 6);
  }
  size_t nl = 16, *rows = malloc(m * sizeof *rows);
  for (size_t i = 0; i < m; i++) rows[i] = i;
  double *lam = malloc(m * 8), *comp = malloc(m * m * 8);
  pencil p = {.t = PSCR_F64, .m = m, .general = general}; /* general: the path of non-uniform meshes */
  PT_CHECK_STATUS(solve(&p, ad, ao, md, consistent ? mo : NULL, m, rows, lam, comp), PSCR_OK);
  *elam = *eres = 0;
  for (size_t l = 0; l < nl; l++) {
    /* the data are the rounded 2/h, -1/h, ...: exact pencil of those entries */
    long double th = (long double)(l + 1) * 3.14159265358979323846264338327950288L * h;
    long double a0 = ad[0], a1 = -(long double)ao[0], m0 = md[0], m1 = consistent ? mo[0] : 0;
    long double s2 = 4 * sinl(th / 2) * sinl(th / 2); /* 2 - 2 cos(theta) without cancellation */
    long double ref = ((a0 - 2 * a1) + a1 * s2) / ((m0 + 2 * m1) - m1 * s2);
    *elam = fmax(*elam, (double)fabsl((lam[l] - ref) / ref));
    const double *w = comp + l * m;
    long double rn = 0, wn = 0, an = 4 / h;
    for (size_t i = 0; i < m; i++) {
      long double aw = (long double)ad[i] * w[i], mw = (long double)md[i] * w[i];
      long double ml = i > 0 && consistent ? mo[i - 1] : 0, mr = i + 1 < m && consistent ? mo[i] : 0;
      if (i > 0) aw += (long double)ao[i - 1] * w[i - 1], mw += ml * w[i - 1];
      if (i + 1 < m) aw += (long double)ao[i] * w[i + 1], mw += mr * w[i + 1];
      rn = fmaxl(rn, fabsl(aw - (long double)lam[l] * mw)), wn = fmaxl(wn, fabsl(w[i]));
    }
    *eres = fmax(*eres, (double)(rn / (DBL_EPSILON * an * wn)));
  }
  PT_CHECK_LE(*elam, 4 * DBL_EPSILON, "m %zu %s%s: relative error of the 16 smallest eigenvalues",
              m, consistent ? "consistent M" : "lumped M", general ? " (general path)" : "");
  PT_CHECK_LE(*eres, 2.0, "m %zu %s%s: residuals / (eps ||A|| ||w||)", m,
              consistent ? "consistent M" : "lumped M", general ? " (general path)" : "");
  free(ad), free(ao), free(md), free(mo), free(rows), free(lam), free(comp);
}

/* A large block's vectors run as OpenMP tasks in chunks of the spectrum (cut
 * at wide gaps only): inside a parallel region of 2 threads the result must be
 * bitwise the one-thread result. Poisson m = 3000 (11 chunks; the general
 * path, not the closed form) and complex Helmholtz m = 1500. */
static void chunks_vs_one_thread(pt_rng *rng) {
  for (int cplx = 0; cplx < 2; cplx++) {
    pencil p;
    make(rng, cplx ? PSCR_C128 : PSCR_F64, cplx ? Z_HELMHOLTZ : POISSON_FEM, cplx ? 1500 : 3000,
         &p);
    pscr_dtype t = p.t;
    size_t m = p.m, rows[5] = {0, m - 1, m / 4, m / 2, 3 * m / 4};
    p.general = !cplx;
    void *ad = to_dtype(t, p.ad, m), *ao = to_dtype(t, p.ao, m - 1);
    void *md = to_dtype(t, p.md, m), *mo = to_dtype(t, p.mo, m - 1);
    void *lam1 = pt_alloc(t, m), *comp1 = pt_alloc(t, 5 * m);
    void *lam2 = pt_alloc(t, m), *comp2 = pt_alloc(t, 5 * m);
    PT_CHECK_STATUS(solve(&p, ad, ao, md, mo, 5, rows, lam1, comp1), PSCR_OK);
    pscr_status st = PSCR_ERR_INVALID_ARGUMENT;
    IN_TEAM_OF_TWO(st = solve(&p, ad, ao, md, mo, 5, rows, lam2, comp2));
    PT_CHECK_STATUS(st, PSCR_OK);
    size_t e = pt_size(t);
    PT_CHECK(pt_equal_bytes(lam1, lam2, m * e) && pt_equal_bytes(comp1, comp2, 5 * m * e),
             "%s m=%zu: 2 threads differ from 1", p.name, m);
    free(ad), free(ao), free(md), free(mo), free(lam1), free(comp1), free(lam2), free(comp2);
    free_pencil(&p);
  }
}

/* ---- real Toeplitz pencils: the closed form (src/eigen/toeplitz.c) ---- */

/* n entries v (also for an off-diagonal: its last entry is never read). */
static double *dfill(size_t n, double v) {
  double *p = malloc(n * sizeof *p);
  for (size_t i = 0; i < n; i++) p[i] = v;
  return p;
}


/* A full real eigendecomposition (comp: all m rows): worst residual
 * ||A w - lambda M w|| / ((||A|| + |lambda| ||M||) ||w||) (inf-norms) and, if
 * orth, worst |(W^T M W - I)_kl| / max(1, ||M|| ||w_k|| ||w_l||) (2-norms of
 * w, as check_pencil; O(m^3)). */
static void dcheck(size_t m, const double *ad, const double *ao, const double *md,
                   const double *mo, const double *lam, const double *comp, int orth, double *res,
                   double *eorth) {
  double an = dnorm(m, ad, ao), mn = dnorm(m, md, mo), *aw = malloc(m * 8), *mw = malloc(m * m * 8);
  double *w2 = calloc(m, 8);
  *res = *eorth = 0;
  for (size_t l = 0; l < m; l++) {
    const double *w = comp + l * m;
    double rn = 0, wn = 0;
    dtmv(m, ad, ao, w, aw);
    dtmv(m, md, mo, w, mw + l * m);
    for (size_t i = 0; i < m; i++) {
      rn = fmax(rn, fabs(aw[i] - lam[l] * mw[l * m + i])), wn = fmax(wn, fabs(w[i]));
      w2[l] += w[i] * w[i];
    }
    *res = fmax(*res, rn / ((an + fabs(lam[l]) * mn) * wn));
    w2[l] = sqrt(w2[l]);
  }
  for (size_t k = 0; orth && k < m; k++)
    for (size_t l = 0; l < m; l++) {
      double x = 0;
      for (size_t i = 0; i < m; i++) x += comp[k * m + i] * mw[l * m + i];
      *eorth = fmax(*eorth, fabs(x - (k == l)) / fmax(1, mn * w2[k] * w2[l]));
    }
  free(aw), free(mw), free(w2);
}

/* Random Toeplitz pencils A = tridiag(b, a, b) (indefinite in general),
 * M = c I or tridiag(d, c, d) SPD, orders 1 .. 1000: pscr_eigen_block takes the
 * closed form (bitwise eigen_toeplitz_d) and agrees with the general path
 * (eigen_pencil_d) to 1e-13 (||A|| + |lambda| ||M||); ascending; residuals and
 * W^T M W - I (m <= 300) at rounding level; a subset of rows (repeats)
 * bitwise the full vectors'. Also A = a I, M = c I (one eigenvalue of
 * multiplicity m), bc = ad (lambda = 1/2 for all k), and Dirichlet A with M
 * near singular (d = -0.499 c). */
static void toeplitz_vs_general(pt_rng *rng) {
  size_t sizes[14] = {1, 2, 3, 7, 31, 64, 255, 1000};
  for (size_t i = 8; i < 11; i++) sizes[i] = 2 + (size_t)pt_uniform(rng, 0, 400);
  sizes[11] = sizes[12] = sizes[13] = 40; /* the special pencils below */
  double wl[2] = {0, 0}, wr[2] = {0, 0}, wo[2] = {0, 0};
  for (size_t s = 0; s < 14; s++)
    for (int cons = 0; cons < 2; cons++) {
      size_t m = sizes[s];
      double a = pt_uniform(rng, -1, 1), b = pt_uniform(rng, -1, 1), c = pt_uniform(rng, 1, 2);
      double d = cons ? c * pt_uniform(rng, -0.49, 0.49) : 0;
      if (s == 11) b = 0, d = 0; /* A = a I, M = c I: the general path splits it into 1 x 1 */
      if (s == 12) a = 2, b = 0.5, c = 4, d = cons; /* consistent: bc = ad, lambda = 1/2 for all k */
      if (s == 13) a = -2 * b, d = cons ? -0.499 * c : 0; /* Dirichlet A, M near singular */
      double *ad = dfill(m, a), *ao = dfill(m, b), *md = dfill(m, c);
      double *mo = cons ? dfill(m, d) : NULL;
      size_t *rows = malloc(m * sizeof *rows), sub[5];
      for (size_t i = 0; i < m; i++) rows[i] = i;
      for (size_t r = 0; r < 5; r++) sub[r] = (size_t)pt_uniform(rng, 0, (double)m) % m;
      double *lam = malloc(m * 8), *comp = malloc(m * m * 8), *lt = malloc(m * 8);
      double *ct = malloc(m * m * 8), *lg = malloc(m * 8), *cg = malloc(m * m * 8);
      double *ls = malloc(m * 8), *cs = malloc(5 * m * 8);
      const double *mop = cons ? mo : NULL;
      PT_CHECK(eigen_is_toeplitz_d(m, ad, ao, md, mop), "m=%zu: not seen as Toeplitz", m);
      PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, m, ad, ao, md, mop, m, rows, lam, comp), PSCR_OK);
      PT_CHECK_STATUS(eigen_toeplitz_d(m, a, m > 1 ? b : 0, c, m > 1 ? d : 0, m, rows, lt, ct),
                      PSCR_OK);
      PT_CHECK(pt_equal_bytes(lam, lt, m * 8) && pt_equal_bytes(comp, ct, m * m * 8),
               "m=%zu: pscr_eigen_block is not the closed form", m);
      PT_CHECK_STATUS(eigen_pencil_d(m, ad, ao, md, m > 1 ? mop : NULL, m, rows, lg, cg), PSCR_OK);
      double an = dnorm(m, ad, ao), mn = dnorm(m, md, mop), elam = 0, res, orth;
      for (size_t l = 0; l < m; l++) {
        elam = fmax(elam, fabs(lam[l] - lg[l]) / (an + fabs(lg[l]) * mn));
        if (l > 0) PT_CHECK(lam[l] >= lam[l - 1], "m=%zu: not ascending at %zu", m, l);
      }
      dcheck(m, ad, ao, md, mop, lam, comp, m <= 300, &res, &orth);
      PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, m, ad, ao, md, mop, 5, sub, ls, cs), PSCR_OK);
      int same = pt_equal_bytes(ls, lam, m * 8);
      for (size_t l = 0; l < m; l++)
        for (size_t r = 0; r < 5; r++) same = same && cs[l * 5 + r] == comp[l * m + sub[r]];
      PT_CHECK(same, "m=%zu: a subset of rows differs from the full vectors", m);
      PT_CHECK_LE(elam, 1e-13, "toeplitz m=%zu %s: eigenvalues vs the general path", m,
                  cons ? "consistent" : "lumped");
      PT_CHECK_LE(res, 1e-15, "toeplitz m=%zu %s: residual", m, cons ? "consistent" : "lumped");
      PT_CHECK_LE(orth, 2e-14, "toeplitz m=%zu %s: W^T M W - I", m, cons ? "consistent" : "lumped");
      for (size_t l = 0; s == 12 && cons && l < m; l++)
        PT_CHECK(fabs(lam[l] - 0.5) <= 2 * DBL_EPSILON, "bc = ad: lambda %.17g", lam[l]);
      wl[cons] = fmax(wl[cons], elam), wr[cons] = fmax(wr[cons], res), wo[cons] = fmax(wo[cons], orth);
      free(ad), free(ao), free(md), free(mo), free(rows), free(lam), free(comp), free(lt);
      free(ct), free(lg), free(cg), free(ls), free(cs);
    }
  for (int cons = 0; cons < 2; cons++)
    fprintf(stderr,
            "f64  toeplitz %-10s closed form vs general: eig %.2e, residual %.2e, W^T M W - I "
            "%.2e\n",
            cons ? "consistent" : "lumped", wl[cons], wr[cons], wo[cons]);
}

/* Exact data, exact eigenpairs (long double): Dirichlet Poisson A = (2, -1)
 * (lambda_k = 4 sin^2(theta_k / 2) (lumped, M = I) or over 6 - 4 sin^2 (M =
 * (4, 1)): ascending in k) and its Neumann-like mirror A = (2, 1) (lambda_k =
 * 4 cos^2(theta_k / 2): descending in k), orders up to 8191: every eigenvalue
 * to a relative eps (x87 long double: rounded once; measured 0.49 eps) or
 * 6 eps (double: measured 3.1 eps), also the smallest (a general solver
 * reaches only eps ||A|| there); every component of the M-normalized,
 * w(row 0) > 0 eigenvectors to as much of its vector's largest (all rows for
 * m <= 1000, 9 rows beyond). */
static void toeplitz_exact(void) {
  static const size_t sizes[] = {1, 2, 3, 7, 31, 64, 255, 1000, 8191};
  const long double pi = 3.14159265358979323846264338327950288L;
  const double tol = (LDBL_MANT_DIG == 64 ? 1 : 6) * DBL_EPSILON; /* toeplitz.c's precision */
  double wl = 0, wc = 0;
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
    for (int kind = 0; kind < 4; kind++) { /* lumped / consistent, Dirichlet / Neumann-like */
      size_t m = sizes[s], n = m + 1, nr = m <= 1000 ? m : 9;
      int cons = kind & 1, neu = kind >> 1;
      double b = neu ? 1 : -1, c = cons ? 4 : 1, d = cons ? 1 : 0;
      double *ad = dfill(m, 2), *ao = dfill(m, b), *md = dfill(m, c), *mo = dfill(m, d);
      size_t *rows = malloc(nr * sizeof *rows);
      for (size_t r = 0; r < nr; r++) rows[r] = nr == m ? r : r * (m - 1) / (nr - 1);
      double *lam = malloc(m * 8), *comp = malloc(m * nr * 8);
      PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, m, ad, ao, md, cons ? mo : NULL, nr, rows, lam,
                                       comp),
                      PSCR_OK);
      double el = 0, ec = 0;
      for (size_t l = 0; l < m; l++) {
        size_t k = neu ? m - l : l + 1; /* ascending order */
        /* sin and cos of theta / 2 (cos as sin of the complement: accurate near pi / 2) */
        long double sn = sinl((long double)k * pi / (long double)(2 * n));
        long double cs = sinl((long double)(n - k) * pi / (long double)(2 * n));
        long double alpha = neu ? 4 * cs * cs : 4 * sn * sn;
        long double mu = cons ? 6 - 4 * sn * sn : 1; /* c + 2d cos theta = (c + 2d) - 4d sin^2 */
        long double ref = alpha / mu;
        el = fmax(el, (double)fabsl((lam[l] - ref) / ref));
        long double nrm = sqrtl(2 / ((long double)n * mu)), wmax = 0, e = 0;
        for (size_t r = 0; r < nr; r++) {
          unsigned long long q = (unsigned long long)(rows[r] + 1) * k % (2 * n); /* exact */
          long double w = nrm * sinl((long double)q * pi / (long double)n);
          wmax = fmaxl(wmax, fabsl(w)), e = fmaxl(e, fabsl(comp[l * nr + r] - w));
        }
        ec = fmax(ec, (double)(e / wmax));
      }
      PT_CHECK_LE(el, tol, "exact m=%zu kind %d: relative eigenvalue error", m, kind);
      PT_CHECK_LE(ec, tol, "exact m=%zu kind %d: component error", m, kind);
      wl = fmax(wl, el), wc = fmax(wc, ec);
      free(ad), free(ao), free(md), free(mo), free(rows), free(lam), free(comp);
    }
  fprintf(stderr, "f64  toeplitz exact (Poisson, Neumann-like): relative eig err %.2e (%.2f eps), "
                  "component err %.2e\n", wl, wl / DBL_EPSILON, wc);
}

/* A pencil one ulp away from Toeplitz (in A's diagonal, A's or M's
 * off-diagonal, M's diagonal) is not Toeplitz: pscr_eigen_block gives the
 * general path's result bitwise, still correct (residual, W^T M W - I), its
 * eigenvalues within 1e-13 of the closed form's for the unperturbed pencil. A
 * Toeplitz M that is not positive definite is refused like in the general
 * path: c + 2d cos(pi / (m + 1)) < 0 with d / c = -0.55 for m = 10 (but M is
 * SPD, and the pencil solved, for m = 2), and c <= 0 for diagonal M. */
static void toeplitz_edges(pt_rng *rng) {
  size_t m = 64, *rows = malloc(m * sizeof *rows);
  for (size_t i = 0; i < m; i++) rows[i] = i;
  double *lam = malloc(m * 8), *comp = malloc(m * m * 8), *lg = malloc(m * 8);
  double *cg = malloc(m * m * 8), *lt = malloc(m * 8), *ct = malloc(m * m * 8);
  for (int which = 0; which < 4; which++) {
    double a = pt_uniform(rng, -1, 1), b = pt_uniform(rng, -1, 1), c = pt_uniform(rng, 1, 2);
    double d = c * pt_uniform(rng, -0.4, 0.4);
    double *ad = dfill(m, a), *ao = dfill(m, b), *md = dfill(m, c), *mo = dfill(m, d);
    PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, m, ad, ao, md, mo, m, rows, lt, ct), PSCR_OK);
    double *x = which == 0 ? &ad[m / 2] : which == 1 ? &ao[m / 3] : which == 2 ? &mo[m - 2] : &md[5];
    *x = nextafter(*x, INFINITY);
    PT_CHECK(!eigen_is_toeplitz_d(m, ad, ao, md, mo), "perturbed %d: seen as Toeplitz", which);
    PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, m, ad, ao, md, mo, m, rows, lam, comp), PSCR_OK);
    PT_CHECK_STATUS(eigen_pencil_d(m, ad, ao, md, mo, m, rows, lg, cg), PSCR_OK);
    PT_CHECK(pt_equal_bytes(lam, lg, m * 8) && pt_equal_bytes(comp, cg, m * m * 8),
             "perturbed %d: not the general path's result", which);
    double an = dnorm(m, ad, ao), mn = dnorm(m, md, mo), el = 0, res, orth;
    for (size_t l = 0; l < m; l++) el = fmax(el, fabs(lam[l] - lt[l]) / (an + fabs(lt[l]) * mn));
    dcheck(m, ad, ao, md, mo, lam, comp, 1, &res, &orth);
    PT_CHECK_LE(el, 1e-13, "perturbed %d: eigenvalues vs the closed form", which);
    PT_CHECK_LE(res, tol_res(PSCR_F64), "perturbed %d: residual", which);
    PT_CHECK_LE(orth, tol_orth(PSCR_F64), "perturbed %d: W^T M W - I", which);
    free(ad), free(ao), free(md), free(mo);
  }
  double ad[10], ao[9], md[10], mo[9], l10[10], c10[10];
  for (size_t i = 0; i < 10; i++) ad[i] = 2, ao[i % 9] = -1, md[i] = 1, mo[i % 9] = -0.55;
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 10, ad, ao, md, mo, 1, rows, l10, c10),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(eigen_pencil_d(10, ad, ao, md, mo, 1, rows, l10, c10), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 2, ad, ao, md, mo, 2, rows, l10, c10), PSCR_OK);
  /* (2 -+ 1) / (1 -+ 0.55): lambda = 3 / 1.55 and 1 / 0.45 */
  PT_CHECK(fabs(l10[0] - 3 / 1.55) < 4e-16 * 3 / 1.55 && fabs(l10[1] - 1 / 0.45) < 4e-16 / 0.45,
           "m = 2, d / c = -0.55: lambda %.17g %.17g", l10[0], l10[1]);
  for (int k = 0; k < 2; k++) { /* M = c I with c = 0, then c = -1 */
    for (size_t i = 0; i < 10; i++) md[i] = -k;
    PT_CHECK_STATUS(pscr_eigen_block(PSCR_F64, 10, ad, ao, md, NULL, 1, rows, l10, c10),
                    PSCR_ERR_INVALID_ARGUMENT);
  }
  free(rows), free(lam), free(comp), free(lg), free(cg), free(lt), free(ct);
}

/* ---- large real blocks: eigen_sturm_values_d (src/eigen/sturm.c) ---- */

/* The old path of eigen_values_d (still taken below EIGEN_STURM_MIN):
 * reduction to a standard tridiagonal (diagonal M: scaling; tridiagonal M:
 * dpbstf + dsbgst), then LAPACK dsterf. Ascending. @return LAPACK info. */
static int dsterf_path(size_t n, const double *ad, const double *ao, const double *md,
                       const double *mo, double *lam) {
  double *ab = malloc(2 * n * 8), *bb = malloc(2 * n * 8), *w = malloc(2 * n * 8), x = 0;
  int info = 0;
  if (mo == NULL) {
    for (size_t i = 0; i < n; i++) {
      lam[i] = ad[i] / md[i];
      if (i + 1 < n) w[i] = ao[i] / sqrt(md[i]) / sqrt(md[i + 1]);
    }
  } else {
    for (size_t j = 0; j < n; j++) {
      ab[2 * j + 1] = ad[j], ab[2 * j] = j ? ao[j - 1] : 0;
      bb[2 * j + 1] = md[j], bb[2 * j] = j ? mo[j - 1] : 0;
    }
    info = LAPACKE_dpbstf_work(LAPACK_COL_MAJOR, 'U', (int)n, 1, bb, 2);
    if (info == 0)
      info = LAPACKE_dsbgst_work(LAPACK_COL_MAJOR, 'N', 'U', (int)n, 1, 1, ab, 2, bb, 2, &x, 1, w);
    for (size_t j = 0; j < n; j++) lam[j] = ab[2 * j + 1];
    for (size_t j = 1; j < n; j++) w[j - 1] = ab[2 * j];
  }
  if (info == 0) info = LAPACKE_dsterf_work((int)n, lam, w);
  free(ab), free(bb), free(w);
  return info;
}

/* The k-th smallest eigenvalue (k from 0) of (A, M) by bisection on inertia
 * counts in long double (x87: 11 more bits than double, so the reference's
 * own error is ~2^-11 of the double methods'), within [lo, hi]. */
static long double ld_eig(size_t n, const double *ad, const double *ao, const double *md,
                          const double *mo, size_t k, long double lo, long double hi) {
  for (;;) {
    long double x = 0.5L * (lo + hi), q = 1;
    if (!(x > lo && x < hi)) return x;
    size_t c = 0;
    for (size_t i = 0; i < n; i++) {
      long double e = i ? ao[i - 1] - (mo ? x * mo[i - 1] : 0) : 0;
      q = ((long double)ad[i] - x * md[i]) - (i ? e * e / q : 0);
      if (fabsl(q) < 1e-4000L) q = -1e-4000L;
      c += q < 0;
    }
    if (c <= k)
      lo = x;
    else
      hi = x;
  }
}

/* The test families, as a pencil (ad, ao, md, mo): mo NULL for diagonal M. */
enum { S_GRADED_FEM, S_GRADED_LUMPED, S_GEOMETRIC, S_RANDOM, S_RANDOM_PENCIL, S_WILKINSON,
       S_GLUED_WILKINSON, S_TOEPLITZ_PERTURBED, S_STRONGLY_GRADED, S_NFAM };
static const char *sturm_names[S_NFAM] = {
    "graded-fem", "graded-lumped", "geometric-fem", "random", "random-pencil",
    "wilkinson", "glued-wilkinson", "toeplitz-1e-12", "strongly-graded"};

static void sturm_family(pt_rng *r, int fam, size_t n, double *ad, double *ao, double *md,
                         double **mo) {
  if (fam <= S_GEOMETRIC) { /* FEM on a sinh-graded (h ratio ~27) or geometric (1e3) mesh */
    double hp = 0;
    for (size_t j = 0; j <= n; j++) {
      double t0 = (double)j / (double)(n + 1), t1 = (double)(j + 1) / (double)(n + 1), h;
      if (fam == S_GEOMETRIC)
        h = (pow(1e3, t1) - pow(1e3, t0)) / (1e3 - 1);
      else
        h = 0.5 * (sinh(4 * (2 * t1 - 1)) - sinh(4 * (2 * t0 - 1))) / sinh(4);
      if (j > 0) {
        ad[j - 1] = 1 / hp + 1 / h, ao[j - 1] = -1 / h;
        md[j - 1] = fam == S_GRADED_LUMPED ? (hp + h) / 2 : (hp + h) / 3, (*mo)[j - 1] = h / 6;
      }
      hp = h;
    }
    if (fam == S_GRADED_LUMPED) free(*mo), *mo = NULL;
    return;
  }
  for (size_t i = 0; i < n; i++) {
    double t = (double)i / (double)n, wl = fabs((double)(i % 21) - 10);
    md[i] = 1, (*mo)[i] = 0;
    switch (fam) {
    case S_RANDOM:
      ad[i] = pt_uniform(r, -1, 1), ao[i] = pt_uniform(r, -1, 1);
      break;
    case S_RANDOM_PENCIL: /* M diagonally dominant: SPD */
      ad[i] = pt_uniform(r, -1, 1), ao[i] = pt_uniform(r, -1, 1);
      md[i] = pt_uniform(r, 1, 2), (*mo)[i] = pt_uniform(r, -0.5, 0.5);
      break;
    case S_WILKINSON: /* W+: pairs equal to far below eps */
      ad[i] = fabs((double)i - (double)(n - 1) / 2), ao[i] = 1;
      break;
    case S_GLUED_WILKINSON: /* copies of W+_21 glued by 1e-12: clusters of n / 21 */
      ad[i] = wl, ao[i] = i % 21 == 20 ? 1e-12 : 1;
      break;
    case S_TOEPLITZ_PERTURBED: /* 1-2-1 with the diagonal perturbed by 1e-12 */
      ad[i] = 2 * (1 + 1e-12 * pt_uniform(r, -1, 1)), ao[i] = 1;
      break;
    default: /* strongly graded: 12 decades; the small eigenvalues have high relative accuracy */
      ad[i] = 2 * pow(10, -12 * t), ao[i] = pow(10, -12 * (t + 0.5 / (double)n));
      break;
    }
  }
  if (fam != S_RANDOM_PENCIL) free(*mo), *mo = NULL;
}

/* eigen_sturm_values_d against the old path (reduction + dsterf) and against
 * long double bisection at sampled indices (where the two disagree most, both
 * ends, random ones), on each family at n = 513, 1000, 3000. Asserted: every
 * eigenvalue within 1024 eps L of dsterf's (L = max |lambda|; dsterf's own
 * error reaches ~300 eps L on W+, a wrong index is off by a gap), the
 * sampled errors (so also where they disagree most) within 4 eps L and no
 * larger than dsterf's largest + eps L (measured: at most 1.0 eps L, dsterf
 * 8 - 270 eps L), the strongly graded family's eigenvalues to a relative
 * 1e-11 (measured 8e-13, dsterf 3e-12), ascending order (up to 2 eps L
 * within clusters), the same bits in a team of 2 threads (chunks as tasks),
 * and the same through eigen_values_d. */
static void sturm_vs_dsterf(pt_rng *rng) {
  static const size_t sizes[3] = {513, 1000, 3000};
  const int nsamp = 24, ldref = LDBL_MANT_DIG >= 64;
  for (int fam = 0; fam < S_NFAM; fam++) {
    double wd = 0, wn = 0, wo = 0, wrn = 0, wro = 0;
    for (size_t si = 0; si < 3; si++) {
      size_t n = sizes[si];
      double *ad = malloc(n * 8), *ao = malloc(n * 8), *md = malloc(n * 8), *mo = malloc(n * 8);
      double *lam = malloc(n * 8), *lam2 = malloc(n * 8), *ref = malloc(n * 8);
      double *lv = malloc(n * 8), *work = malloc(10 * n * 8);
      sturm_family(rng, fam, n, ad, ao, md, &mo);
      PT_CHECK_STATUS(eigen_sturm_values_d(n, ad, ao, md, mo, lam), PSCR_OK);
      pscr_status st = PSCR_ERR_INVALID_ARGUMENT;
      IN_TEAM_OF_TWO(st = eigen_sturm_values_d(n, ad, ao, md, mo, lam2));
      PT_CHECK_STATUS(st, PSCR_OK);
      PT_CHECK(pt_equal_bytes(lam, lam2, n * 8), "%s n=%zu: 2 threads differ from 1",
               sturm_names[fam], n);
      PT_CHECK_STATUS(eigen_values_d(n, ad, ao, md, mo, lv, work), PSCR_OK);
      PT_CHECK(n < EIGEN_STURM_MIN || pt_equal_bytes(lam, lv, n * 8),
               "%s n=%zu: eigen_values_d is not the new path", sturm_names[fam], n);
      PT_CHECK(dsterf_path(n, ad, ao, md, mo, ref) == 0, "%s n=%zu: dsterf failed", sturm_names[fam], n);
      double L = fmax(fabs(ref[0]), fabs(ref[n - 1])), ed = 0, asc = 0;
      size_t kd = 0; /* where the two disagree most */
      for (size_t k = 0; k < n; k++) {
        if (fabs(lam[k] - ref[k]) > ed) ed = fabs(lam[k] - ref[k]), kd = k;
        if (k > 0) asc = fmax(asc, lam[k - 1] - lam[k]);
      }
      ed /= DBL_EPSILON * L, asc /= DBL_EPSILON * L;
      PT_CHECK_LE(ed, 1024.0, "%s n=%zu: |new - dsterf| / (eps L)", sturm_names[fam], n);
      PT_CHECK_LE(asc, 2.0, "%s n=%zu: descent / (eps L)", sturm_names[fam], n);
      double en = 0, eo = 0, rn = 0, ro = 0;
      long double lo = ref[0] - 0.01L * L - 1, hi = ref[n - 1] + 0.01L * L + 1;
      for (int s = 0; ldref && s < nsamp; s++) {
        size_t k = s == 0 ? kd : s < 4 ? (size_t)s : s < 8 ? n - 8 + (size_t)s : (size_t)pt_uniform(rng, 0, (double)n) % n;
        long double x = ld_eig(n, ad, ao, md, mo, k, lo, hi);
        double a = (double)fabsl(lam[k] - x), b = (double)fabsl(ref[k] - x);
        en = fmax(en, a), eo = fmax(eo, b);
        if (x != 0) rn = fmax(rn, a / (double)fabsl(x)), ro = fmax(ro, b / (double)fabsl(x));
      }
      en /= DBL_EPSILON * L, eo /= DBL_EPSILON * L;
      PT_CHECK_LE(en, 4.0, "%s n=%zu: sampled error / (eps L)", sturm_names[fam], n);
      PT_CHECK_LE(en, eo + 1.0, "%s n=%zu: sampled error vs dsterf's (%.2f eps L)",
                  sturm_names[fam], n, eo);
      if (fam == S_STRONGLY_GRADED && ldref)
        PT_CHECK_LE(rn, 1e-11, "%s n=%zu: relative error (dsterf %.2e)", sturm_names[fam], n, ro);
      wd = fmax(wd, ed), wn = fmax(wn, en), wo = fmax(wo, eo), wrn = fmax(wrn, rn), wro = fmax(wro, ro);
      free(ad), free(ao), free(md), free(mo), free(lam), free(lam2), free(ref), free(lv), free(work);
    }
    fprintf(stderr,
            "f64  sturm %-16s |new - dsterf| %5.2f eps L; vs long double: new %5.2f, dsterf "
            "%6.2f eps L (relative %.1e, %.1e)\n",
            sturm_names[fam], wd, wn, wo, wrn, wro);
  }
}

/* A random tridiagonal (n = 3000, entries U(-1, 1) from a fixed xorshift
 * sequence, M = I) found by a stress run: the vector of eigenvalue 1253 is
 * localized, and near it a pivot of the sweep comes within an ulp of a pole,
 * so H (large cancelling terms) loses a digit while G keeps its: Laguerre's
 * step fell 7% short and the cubic-convergence stop took it (3e4 eps L off).
 * Now the sweep's rounding bound on H sends such steps to Newton. Asserted:
 * eigenvalues 1249 .. 1257 within 4 eps L of long double bisection and
 * 64 eps L of dsterf. */
static void sturm_localized(void) {
  size_t n = 3000;
  uint64_t st = 0x9E3779B97F4A7C15ULL * 1244 + 2 * 7919;
  double *ad = malloc(n * 8), *ao = malloc(n * 8), *md = malloc(n * 8), *lam = malloc(n * 8);
  double *ref = malloc(n * 8);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 2; k++) {
      st ^= st << 13, st ^= st >> 7, st ^= st << 17;
      (k ? ao : ad)[i] = (double)(st >> 11) * 0x1p-53 * 2 - 1;
      md[i] = 1;
    }
  PT_CHECK_STATUS(eigen_sturm_values_d(n, ad, ao, md, NULL, lam), PSCR_OK);
  PT_CHECK(dsterf_path(n, ad, ao, md, NULL, ref) == 0, "localized: dsterf failed");
  double L = fmax(fabs(ref[0]), fabs(ref[n - 1])), en = 0, ed = 0;
  for (size_t k = 1249; k <= 1257; k++) {
    ed = fmax(ed, fabs(lam[k] - ref[k]) / (DBL_EPSILON * L));
    if (LDBL_MANT_DIG >= 64)
      en = fmax(en, (double)fabsl(lam[k] - ld_eig(n, ad, ao, md, NULL, k, -4, 4)) / (DBL_EPSILON * L));
  }
  PT_CHECK_LE(en, 4.0, "localized: error / (eps L) near eigenvalue 1253");
  PT_CHECK_LE(ed, 64.0, "localized: |new - dsterf| / (eps L) near eigenvalue 1253");
  fprintf(stderr, "f64  sturm localized (random, n=3000, eigenvalues 1249..1257): error %.2f eps L, "
                  "|new - dsterf| %.2f eps L\n", en, ed);
  free(ad), free(ao), free(md), free(lam), free(ref);
}

/* The whole general path with the new eigenvalues (m >= EIGEN_STURM_MIN):
 * graded-mesh FEM pencils against dense dsygv (eigenvalues, residuals,
 * W^T M W - I, subsets of rows), as the small cases in main; and M not
 * positive definite refused as below the bound. */
static void sturm_pencils(pt_rng *rng) {
  for (int fam = 0; fam < 2; fam++) {
    size_t m = 600;
    double *ad = malloc(m * 8), *ao = malloc(m * 8), *md = malloc(m * 8), *mo = malloc(m * 8);
    sturm_family(rng, fam ? S_GRADED_LUMPED : S_GRADED_FEM, m, ad, ao, md, &mo);
    pencil p = {.t = PSCR_F64, .m = m, .name = sturm_names[fam], .general = 1};
    p.ad = zalloc(m), p.ao = zalloc(m), p.md = zalloc(m), p.mo = mo ? zalloc(m) : NULL;
    for (size_t i = 0; i < m; i++) {
      p.ad[i] = ad[i], p.ao[i] = ao[i], p.md[i] = md[i];
      if (mo) p.mo[i] = mo[i];
    }
    worst wst = {0, 0, 0};
    check_pencil(rng, &p, &wst);
    fprintf(stderr, "f64  %-15s (general, m=%zu) max eig err %.2e  residual %.2e  W^T M W - I %.2e\n",
            p.name, m, wst.lam, wst.res, wst.orth);
    free_pencil(&p);
    free(ad), free(ao), free(md), free(mo);
  }
  size_t m = 300, rows[1] = {0};
  double *ad = malloc(m * 8), *ao = malloc(m * 8), *md = malloc(m * 8), *mo = malloc(m * 8);
  double *lam = malloc(m * 8), *comp = malloc(m * 8);
  for (size_t i = 0; i < m; i++) ad[i] = 2 + 0.01 * (double)i, ao[i] = -1, md[i] = 1, mo[i] = 0.45;
  md[m / 2] = -1; /* diagonal M with a negative entry */
  PT_CHECK_STATUS(eigen_pencil_d(m, ad, ao, md, NULL, 1, rows, lam, comp), PSCR_ERR_INVALID_ARGUMENT);
  md[m / 2] = 1, mo[m / 3] = 0.9; /* tridiagonal M: indefinite 2 x 2 minor [1 0.9; 0.9 1] ... */
  mo[m / 3 - 1] = 0.9;           /* ... with a neighbour coupling too: pivot < 0 */
  PT_CHECK_STATUS(eigen_sturm_values_d(m, ad, ao, md, mo, lam), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(eigen_pencil_d(m, ad, ao, md, mo, 1, rows, lam, comp), PSCR_ERR_INVALID_ARGUMENT);
  free(ad), free(ao), free(md), free(mo), free(lam), free(comp);
}

int main(void) {
  pt_rng rng;
  pt_rng_seed(&rng, pt_fresh_seed());
  const size_t sizes[] = {1, 2, 3, 4, 5, 16, 17, 63, 64, 65, 200};
  const char *names[2][NREAL] = {
      {"random-triM", "random-diagM", "poisson-lumped", "poisson-fem", "wilkinson", "glued", "chain",
       "cluster"},
      {"random-triM", "random-diagM", "helmholtz", "glued", "chain", "cluster", "helmholtz-scaled"}};
  for (int t = 0; t < 2; t++) {
    pscr_dtype dt = t ? PSCR_C128 : PSCR_F64;
    for (int kind = 0; kind < (t ? NCPLX : NREAL); kind++) {
      /* real Poisson: also the general path, which the closed form bypasses */
      int ng = !t && (kind == POISSON_LUMPED || kind == POISSON_FEM) ? 2 : 1;
      for (int g = 0; g < ng; g++) {
        worst wst = {0, 0, 0};
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
          pencil p;
          make(&rng, dt, kind, sizes[s], &p);
          p.general = g;
          check_pencil(&rng, &p, &wst);
          free_pencil(&p);
        }
        fprintf(stderr, "%-4s %-15s%s max eig err %.2e  residual %.2e  W^T M W - I %.2e\n",
                t ? "c128" : "f64", names[t][kind], g ? " (general)" : "", wst.lam, wst.res,
                wst.orth);
      }
    }
  }
  static const size_t small_m[] = {1000, 1023};
  for (size_t k = 0; k < 2; k++)
    for (int cons = 0; cons < 2; cons++)
    for (int g = 0; g < 2; g++) {
      double el, er;
      small_eigenvalues(small_m[k], cons, g, &el, &er);
      fprintf(stderr,
              "f64  poisson m=%zu %-10s 16 smallest%s: relative error %.2e, residual %.2f eps "
              "||A|| ||w||\n",
              small_m[k], cons ? "consistent" : "lumped", g ? " (general)" : "", el, er);
    }
  toeplitz_vs_general(&rng);
  toeplitz_exact();
  toeplitz_edges(&rng);
  chunks_vs_one_thread(&rng);
  sturm_vs_dsterf(&rng);
  sturm_localized();
  sturm_pencils(&rng);
  bad_input();
  return pt_exit("test_eigen");
}
