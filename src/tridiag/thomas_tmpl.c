/* Thomas algorithm: LU without pivoting. Forward sweep into scratch, then
 * back substitution into b, so b is untouched when a zero pivot is met. */
#include "core/scalar.h"
#include "tridiag/td.h"

pscr_status FN(td_thomas)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl) {
  /* c' (modified super-diagonal) and y (modified rhs): 2n scalars of scratch */
  T *c = td_scratch(ctl, 2 * n * sizeof *c);
  if (c == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  T *y = c + n;
  pscr_status st = PSCR_OK;
  T piv = d[0];
  if (piv == 0) {
    st = PSCR_ERR_SINGULAR;
    goto cleanup;
  }
  c[0] = n > 1 ? du[0] / piv : 0;
  y[0] = b[0] / piv;
  for (size_t i = 1; i < n; i++) {
    piv = d[i] - dl[i] * c[i - 1];
    if (piv == 0 || !S_ISFINITE(piv)) {
      st = PSCR_ERR_SINGULAR;
      goto cleanup;
    }
    c[i] = i + 1 < n ? du[i] / piv : 0;
    y[i] = (b[i] - dl[i] * y[i - 1]) / piv;
  }
  b[n - 1] = y[n - 1];
  for (size_t i = n - 1; i-- > 0;) b[i] = y[i] - c[i] * b[i + 1];
cleanup:
  td_scratch_free(ctl, c);
  return st;
}
