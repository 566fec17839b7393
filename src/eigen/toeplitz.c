/* Closed-form eigenpairs of a real Toeplitz pencil, the blocks of every
 * factor on a uniform mesh: A = tridiag(b, a, b), M = tridiag(d, c, d) of
 * order m (d = 0: M diagonal). With N = m + 1 and theta_k = k pi / N,
 * k = 1..m, both matrices have the eigenvectors v_k(j) = sin(j theta_k),
 * j = 1..m: A v_k = (a + 2b cos theta_k) v_k, M v_k = (c + 2d cos theta_k) v_k,
 * so lambda_k = (a + 2b cos theta_k) / (c + 2d cos theta_k), and since
 * sum_j sin^2(j theta_k) = N / 2, w_k = sqrt(2 / (N mu_k)) v_k has
 * w_k^T M w_k = 1. O(m) sines, then O(1) per component, no iteration. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "eigen/eigen_impl.h"

/* Where long double is x87's 64-bit significand (hardware, as for
 * EIGEN_LD_STEP), the formulas run in it and each result is rounded once: to
 * half an ulp but for the data's own cancellation. Elsewhere in double, a few
 * ulps (the angles are still carried in double-double). */
#if LDBL_MANT_DIG == 64
typedef long double X;
#define X_SQRT(x) sqrtl(x)
#else
typedef double X;
#define X_SQRT(x) sqrt(x)
#endif

int eigen_is_toeplitz_d(size_t m, const double *ad, const double *ao, const double *md,
                        const double *mo) {
  for (size_t i = 1; i < m; i++)
    if (ad[i] != ad[0] || md[i] != md[0]) return 0;
  for (size_t i = 1; i + 1 < m; i++)
    if (ao[i] != ao[0] || (mo && mo[i] != mo[0])) return 0;
  return 1;
}

/* sin(p pi / q) for 0 <= p <= q / 2, to about an ulp of X: the angle is
 * reduced to [0, pi/4] in integers (sin, or cos of the complement), so only
 * libm's rounding of a small argument remains. */
static X sin_frac(uint64_t p, uint64_t q) {
  int c = 4 * p > q; /* sin(p pi / q) = cos((q - 2p) pi / (2q)) */
#if LDBL_MANT_DIG == 64
  X h = 3.14159265358979323846264338327950288L * (X)(c ? q - 2 * p : p) / (X)(c ? 2 * q : q);
  return c ? cosl(h) : sinl(h);
#else
  static const double PI_HI = 0x1.921fb54442d18p+1, PI_LO = 0x1.1a62633145c07p-53;
  double t = (double)(c ? q - 2 * p : p), den = (double)(c ? 2 * q : q);
  double r = t / den, rl = fma(-r, den, t) / den; /* t / den = r + rl */
  double h = PI_HI * r, l = fma(PI_HI, r, -h) + (PI_HI * rl + PI_LO * r); /* angle h + l */
  return c ? cos(h) - l * sin(h) : sin(h) + l * cos(h);
#endif
}

/* a + 2b cos theta_k, s[p] = sin(p pi / (2N)): (a + 2b) - 4b sin^2(theta/2)
 * below pi/2, (a - 2b) + 4b cos^2(theta/2) above, so that a Dirichlet-like
 * (a = -2b) or Neumann-like (a = 2b) end of the spectrum keeps full relative
 * accuracy instead of losing it to cancellation. */
static X sym_value(X a, X b, size_t k, size_t n, const X *s) {
  if (2 * k == n) return a; /* cos theta = 0 */
  if (2 * k < n) return (a + 2 * b) - 4 * b * (s[k] * s[k]);
  return (a - 2 * b) + 4 * b * (s[n - k] * s[n - k]);
}

typedef struct {
  double lam;
  size_t k;
} toep_key;

static int toep_key_cmp(const void *pa, const void *pb) {
  const toep_key *x = pa, *y = pb;
  if (x->lam != y->lam) return x->lam < y->lam ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

pscr_status eigen_toeplitz_d(size_t m, double a, double b, double c, double d, size_t nrows,
                             const size_t *rows, double *lambda, double *comp) {
  size_t n = m + 1;
  X *s = malloc((n + 1) * sizeof *s);
  size_t *kk = malloc(m * sizeof *kk); /* kk[l]: the k of the l-th eigenvalue */
  pscr_status st = PSCR_OK;
  if (s == NULL || kk == NULL) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
  for (size_t p = 0; p <= n; p++) s[p] = sin_frac(p, 2 * n);
  /* lambda(cos theta) is monotone (its derivative has the sign of bc - ad):
   * ascending is k = 1..m or k = m..1; which one, the two ends tell. */
  int up = sym_value(a, b, 1, n, s) / sym_value(c, d, 1, n, s) <=
           sym_value(a, b, m, n, s) / sym_value(c, d, m, n, s);
  int sorted = 1;
  for (size_t l = 0; l < m; l++) {
    size_t k = up ? l + 1 : m - l;
    X mu = sym_value(c, d, k, n, s);
    if (!(mu > 0)) { /* M not positive definite: the general path's answer */
      st = PSCR_ERR_INVALID_ARGUMENT;
      goto cleanup;
    }
    kk[l] = k, lambda[l] = (double)(sym_value(a, b, k, n, s) / mu);
    if (!isfinite(lambda[l])) {
      st = PSCR_ERR_NOT_CONVERGED;
      goto cleanup;
    }
    if (l > 0 && lambda[l] < lambda[l - 1]) sorted = 0;
  }
  /* Rounding can swap eigenvalues that are equal or nearly so (bc = ad). */
  if (!sorted) {
    toep_key *key = malloc(m * sizeof *key);
    if (key == NULL) {
      st = PSCR_ERR_OUT_OF_MEMORY;
      goto cleanup;
    }
    for (size_t l = 0; l < m; l++) key[l].lam = lambda[l], key[l].k = kk[l];
    qsort(key, m, sizeof *key, toep_key_cmp);
    for (size_t l = 0; l < m; l++) lambda[l] = key[l].lam, kk[l] = key[l].k;
    free(key);
  }
  /* Components: sin(j k pi / N) from the table after exact integer argument
   * reduction (j k < 2^62): q = j k mod 2N, sin(q pi / N) = -sin((q - N) pi / N)
   * and = sin((N - q) pi / N), leaving q in [0, N / 2], i.e. s[2q]. */
  for (size_t l = 0; l < m && nrows > 0; l++) {
    uint64_t k = kk[l];
    X nrm = X_SQRT(2 / ((X)n * sym_value(c, d, k, n, s)));
    if (!isfinite(nrm)) {
      st = PSCR_ERR_NOT_CONVERGED;
      goto cleanup;
    }
    for (size_t r = 0; r < nrows; r++) {
      uint64_t q = ((uint64_t)rows[r] + 1) * k % (2 * (uint64_t)n);
      X v = nrm;
      if (q >= n) q -= n, v = -v;
      if (2 * q > n) q = n - q;
      comp[l * nrows + r] = (double)(v * s[2 * q]);
    }
  }
cleanup:
  free(s), free(kk);
  return st;
}
