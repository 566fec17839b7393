/* The reference: LAPACK gtsv (partial pivoting) on copies of the diagonals. */
#include <lapacke.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/scalar.h"
#include "tridiag/td.h"

#if PSCR_Z
#define GTSV LAPACKE_zgtsv_work
#define LT lapack_complex_double
#else
#define GTSV LAPACKE_dgtsv_work
#define LT double
#endif

pscr_status FN(td_lapack)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl) {
  if (n > (size_t)INT32_MAX) return PSCR_ERR_UNSUPPORTED; /* LAPACK's int */
  size_t ld = n + TD_SKEW(T); /* the four copies skewed (td.h) */
  T *w = td_scratch(ctl, 4 * ld * sizeof *w);
  if (w == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  T *l = w, *dd = w + ld, *u = w + 2 * ld, *x = w + 3 * ld;
  if (n > 1) {
    memcpy(l, dl + 1, (n - 1) * sizeof *l);
    memcpy(u, du, (n - 1) * sizeof *u);
  }
  memcpy(dd, d, n * sizeof *dd);
  memcpy(x, b, n * sizeof *x);
  lapack_int info = GTSV(LAPACK_COL_MAJOR, (lapack_int)n, 1, (LT *)l, (LT *)dd, (LT *)u, (LT *)x, (lapack_int)n);
  pscr_status st = info == 0 ? PSCR_OK : info > 0 ? PSCR_ERR_SINGULAR : PSCR_ERR_INVALID_ARGUMENT;
  if (st == PSCR_OK) memcpy(b, x, n * sizeof *b);
  td_scratch_free(ctl, w);
  return st;
}
