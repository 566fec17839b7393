/* pscr_eigen_block (eigen.h): argument checks and dispatch by dtype (real
 * Toeplitz pencils to their closed form); the chunking of a block's vectors
 * (eigen_impl.h), shared by both dtypes and the plan's cost benchmark. */
#include "eigen/eigen.h"

#include <complex.h>
#include <math.h>
#include <stdint.h>

#include "eigen/eigen_impl.h"

static int finite_d(const double *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(p[i])) return 0;
  return 1;
}

static int finite_z(const double complex *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(creal(p[i])) || !isfinite(cimag(p[i]))) return 0;
  return 1;
}

pscr_status pscr_eigen_block(pscr_dtype dtype, size_t m, const void *a_diag, const void *a_off,
                             const void *m_diag, const void *m_off, size_t nrows,
                             const size_t *rows, void *lambda, void *comp) {
  if (dtype != PSCR_F64 && dtype != PSCR_C128) return PSCR_ERR_INVALID_ARGUMENT;
  if (m == 0 || m > (size_t)INT32_MAX || a_diag == NULL || m_diag == NULL || lambda == NULL ||
      (m > 1 && a_off == NULL) || (nrows > 0 && (rows == NULL || comp == NULL)))
    return PSCR_ERR_INVALID_ARGUMENT;
  for (size_t r = 0; r < nrows; r++)
    if (rows[r] >= m) return PSCR_ERR_INVALID_ARGUMENT;
  static const double complex zero = 0; /* a_off may be NULL when m = 1 */
  if (m == 1) a_off = &zero, m_off = NULL;
  if (dtype == PSCR_F64) {
    if (!finite_d(a_diag, m) || !finite_d(a_off, m - 1) || !finite_d(m_diag, m) ||
        (m_off && !finite_d(m_off, m - 1)))
      return PSCR_ERR_NONFINITE;
    const double *ad = a_diag, *ao = a_off, *md = m_diag, *mo = m_off;
    if (eigen_is_toeplitz_d(m, ad, ao, md, mo)) /* uniform mesh: closed form */
      return eigen_toeplitz_d(m, ad[0], m > 1 ? ao[0] : 0, md[0], mo ? mo[0] : 0, nrows, rows,
                              lambda, comp);
    return eigen_pencil_d(m, ad, ao, md, mo, nrows, rows, lambda, comp);
  }
  if (!finite_z(a_diag, m) || !finite_z(a_off, m - 1) || !finite_z(m_diag, m) ||
      (m_off && !finite_z(m_off, m - 1)))
    return PSCR_ERR_NONFINITE;
  return eigen_pencil_z(m, a_diag, a_off, m_diag, m_off, nrows, rows, lambda, comp);
}

double eigen_cluster_delta(size_t n, double lmax) {
  return n <= EIGEN_FULL ? INFINITY : EIGEN_CLUSTER * lmax;
}

size_t eigen_chunk_cuts(size_t n, const double *re, size_t stride, double delta, size_t *cut) {
  size_t nc = 0, k = EIGEN_CHUNK;
  cut[0] = 0;
  while (k + EIGEN_CHUNK / 2 <= n) {
    if (re[k * stride] - re[(k - 1) * stride] > delta) {
      cut[++nc] = k;
      k += EIGEN_CHUNK;
    } else {
      k++;
    }
  }
  cut[++nc] = n;
  return nc;
}
