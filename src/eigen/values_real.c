/* Eigenvalues of one unreduced real symmetric block with SPD M~ (seed 003
 * (23)). Large blocks (EIGEN_STURM_MIN): sturm.c, on the pencil itself, in
 * parallel chunks. Small ones: reduce to a standard symmetric tridiagonal C with the same
 * eigenvalues, then LAPACK dsterf (Pal-Walker-Kahan QL, O(n^2), no vectors).
 * Diagonal M: C = M^-1/2 A M^-1/2. Tridiagonal M: split Cholesky (dpbstf) and
 * Crawford's algorithm (dsbgst with ka = kb = 1 keeps C tridiagonal). */
#include <lapacke.h>
#include <math.h>

#include "eigen/eigen_impl.h"

pscr_status eigen_values_d(size_t n, const double *ad, const double *ao, const double *md,
                           const double *mo, double *lam, double *work) {
  if (n >= EIGEN_STURM_MIN) return eigen_sturm_values_d(n, ad, ao, md, mo, lam);
  lapack_int ln = (lapack_int)n, info;
  double *e = work;
  if (mo == NULL) {
    double *s = work + n;
    for (size_t i = 0; i < n; i++) {
      if (!(md[i] > 0)) return PSCR_ERR_INVALID_ARGUMENT;
      s[i] = 1 / sqrt(md[i]);
    }
    for (size_t i = 0; i < n; i++) {
      lam[i] = ad[i] * s[i] * s[i];
      if (i + 1 < n) e[i] = ao[i] * s[i] * s[i + 1];
    }
  } else {
    /* Band storage 'U', ldab = 2: row 1 the diagonal, row 0 the superdiagonal. */
    double *ab = work, *bb = work + 2 * n, *w = work + 4 * n, x = 0; /* 2n each */
    for (size_t j = 0; j < n; j++) {
      ab[2 * j + 1] = ad[j], ab[2 * j] = j ? ao[j - 1] : 0;
      bb[2 * j + 1] = md[j], bb[2 * j] = j ? mo[j - 1] : 0;
    }
    info = LAPACKE_dpbstf_work(LAPACK_COL_MAJOR, 'U', ln, 1, bb, 2);
    if (info != 0) return PSCR_ERR_INVALID_ARGUMENT; /* M not positive definite */
    info = LAPACKE_dsbgst_work(LAPACK_COL_MAJOR, 'N', 'U', ln, 1, 1, ab, 2, bb, 2, &x, 1, w);
    if (info != 0) return PSCR_ERR_NOT_CONVERGED;
    /* ab is read before lam / e are written: lam may not alias work. */
    for (size_t j = 0; j < n; j++) lam[j] = ab[2 * j + 1];
    for (size_t j = 1; j < n; j++) w[j - 1] = ab[2 * j];
    e = w;
  }
  info = LAPACKE_dsterf_work(ln, lam, e);
  return info == 0 ? PSCR_OK : PSCR_ERR_NOT_CONVERGED;
}
