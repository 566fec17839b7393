/* pscr_eigen_block: argument checks and dispatch (TEMPORARY dense LAPACKE
 * version so the PSCR driver can be tested; replaced by the O(m^2) solvers). */
#include "eigen/eigen.h"

#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int finite_c(const double complex *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(creal(p[i])) || !isfinite(cimag(p[i]))) return 0;
  return 1;
}
static int finite_d(const double *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(p[i])) return 0;
  return 1;
}

static pscr_status dense_d(size_t m, const double *ad, const double *ao, const double *md,
                           const double *mo, size_t nrows, const size_t *rows, double *lambda,
                           double *comp) {
  double *a = calloc(m * m, sizeof *a), *b = calloc(m * m, sizeof *b);
  pscr_status st = PSCR_OK;
  if (a == NULL || b == NULL) { st = PSCR_ERR_OUT_OF_MEMORY; goto cleanup; }
  for (size_t i = 0; i < m; i++) {
    a[i * m + i] = ad[i];
    b[i * m + i] = md[i];
    if (i + 1 < m) {
      a[i * m + i + 1] = a[(i + 1) * m + i] = ao[i];
      if (mo) b[i * m + i + 1] = b[(i + 1) * m + i] = mo[i];
    }
  }
  lapack_int info = LAPACKE_dsygvd(LAPACK_COL_MAJOR, 1, 'V', 'U', (lapack_int)m, a, (lapack_int)m, b,
                                   (lapack_int)m, lambda);
  if (info > (lapack_int)m) { st = PSCR_ERR_INVALID_ARGUMENT; goto cleanup; }
  if (info != 0) { st = PSCR_ERR_NOT_CONVERGED; goto cleanup; }
  for (size_t l = 0; l < m; l++)
    for (size_t r = 0; r < nrows; r++) comp[l * nrows + r] = a[l * m + rows[r]];
cleanup:
  free(a);
  free(b);
  return st;
}

static pscr_status dense_z(size_t m, const double complex *ad, const double complex *ao,
                           const double complex *md, const double complex *mo, size_t nrows,
                           const size_t *rows, double complex *lambda, double complex *comp) {
  double complex *a = calloc(m * m, sizeof *a), *b = calloc(m * m, sizeof *b);
  double complex *v = malloc(m * m * sizeof *v), *al = malloc(m * sizeof *al),
                 *be = malloc(m * sizeof *be), *mv = malloc(m * sizeof *mv);
  size_t *ord = malloc(m * sizeof *ord);
  pscr_status st = PSCR_OK;
  if (!a || !b || !v || !al || !be || !mv || !ord) { st = PSCR_ERR_OUT_OF_MEMORY; goto cleanup; }
  for (size_t i = 0; i < m; i++) {
    a[i * m + i] = ad[i];
    b[i * m + i] = md[i];
    if (i + 1 < m) {
      a[i * m + i + 1] = a[(i + 1) * m + i] = ao[i];
      if (mo) b[i * m + i + 1] = b[(i + 1) * m + i] = mo[i];
    }
  }
  lapack_int info = LAPACKE_zggev(LAPACK_COL_MAJOR, 'N', 'V', (lapack_int)m, a, (lapack_int)m, b,
                                  (lapack_int)m, al, be, NULL, 1, v, (lapack_int)m);
  if (info != 0) { st = PSCR_ERR_NOT_CONVERGED; goto cleanup; }
  for (size_t l = 0; l < m; l++) {
    if (be[l] == 0) { st = PSCR_ERR_SINGULAR; goto cleanup; }
    al[l] /= be[l];
    ord[l] = l;
  }
  for (size_t i = 1; i < m; i++) /* insertion sort by real part */
    for (size_t j = i; j > 0 && creal(al[ord[j]]) < creal(al[ord[j - 1]]); j--) {
      size_t t = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = t;
    }
  for (size_t k = 0; k < m; k++) {
    size_t l = ord[k];
    double complex *w = v + l * m, s = 0;
    for (size_t i = 0; i < m; i++) {
      mv[i] = md[i] * w[i];
      if (mo && i > 0) mv[i] += mo[i - 1] * w[i - 1];
      if (mo && i + 1 < m) mv[i] += mo[i] * w[i + 1];
      s += w[i] * mv[i]; /* w^T M w, no conjugate: seed 003 (19) */
    }
    if (s == 0) { st = PSCR_ERR_NOT_CONVERGED; goto cleanup; }
    s = 1.0 / csqrt(s);
    lambda[k] = al[l];
    for (size_t r = 0; r < nrows; r++) comp[k * nrows + r] = w[rows[r]] * s;
  }
cleanup:
  free(a); free(b); free(v); free(al); free(be); free(mv); free(ord);
  return st;
}

pscr_status pscr_eigen_block(pscr_dtype dtype, size_t m, const void *a_diag, const void *a_off,
                             const void *m_diag, const void *m_off, size_t nrows,
                             const size_t *rows, void *lambda, void *comp) {
  if (m == 0 || a_diag == NULL || m_diag == NULL || lambda == NULL || (m > 1 && a_off == NULL) ||
      (nrows > 0 && (rows == NULL || comp == NULL)) || m > (size_t)INT32_MAX)
    return PSCR_ERR_INVALID_ARGUMENT;
  if (dtype != PSCR_F64 && dtype != PSCR_C128) return PSCR_ERR_INVALID_ARGUMENT;
  for (size_t r = 0; r < nrows; r++)
    if (rows[r] >= m) return PSCR_ERR_INVALID_ARGUMENT;
  if (m == 1) m_off = NULL;
  if (dtype == PSCR_F64) {
    if (!finite_d(a_diag, m) || !finite_d(a_off, m - 1) || !finite_d(m_diag, m) ||
        (m_off && !finite_d(m_off, m - 1)))
      return PSCR_ERR_NONFINITE;
    return dense_d(m, a_diag, a_off, m_diag, m_off, nrows, rows, lambda, comp);
  }
  if (!finite_c(a_diag, m) || !finite_c(a_off, m - 1) || !finite_c(m_diag, m) ||
      (m_off && !finite_c(m_off, m - 1)))
    return PSCR_ERR_NONFINITE;
  return dense_z(m, a_diag, a_off, m_diag, m_off, nrows, rows, lambda, comp);
}
