/* Thomas algorithm: LU without pivoting. Forward sweep into scratch, then
 * back substitution into b, so b is untouched when a zero pivot is met. */
#include "core/scalar.h"
#include "tridiag/pcr_kernels.h"
#include "tridiag/td.h"

/* Real: two divisions (each as short on the critical path as 1/piv and a
 * product). Complex: '/' calls __divdc3, so one branch-free reciprocal. */
#if PSCR_Z
#define TM_DIV(x, p) PK_MUL((x), pk_recip_z(p))
#else
#define TM_DIV(x, p) ((x) / (p))
#endif

pscr_status FN(td_thomas)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl) {
  /* c' (modified super-diagonal) and y (modified rhs), y skewed off c's page
   * offset (TD_SKEW: a 2x slowdown otherwise, measured at n = 2^25) */
  T *c = td_scratch(ctl, (2 * n + TD_SKEW(T)) * sizeof *c);
  if (c == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  T *y = c + n + TD_SKEW(T);
  /* The recurrences stay in registers (no store-to-load forwarding on the
   * critical path: 8.1 vs 11 ns per row); bad pivots (zero, NaN, Inf) are
   * flagged, not branched on, and checked before b is written. */
  T piv = d[0], cp = n > 1 ? TM_DIV(du[0], piv) : 0, yp = TM_DIV(b[0], piv);
  int bad = PK_BAD(piv);
  c[0] = cp, y[0] = yp;
  for (size_t i = 1; i + 1 < n; i++) {
    piv = d[i] - PK_MUL(dl[i], cp);
    bad |= PK_BAD(piv);
    cp = TM_DIV(du[i], piv);
    yp = TM_DIV(b[i] - PK_MUL(dl[i], yp), piv);
    c[i] = cp, y[i] = yp;
  }
  if (n > 1) {
    piv = d[n - 1] - PK_MUL(dl[n - 1], cp);
    bad |= PK_BAD(piv);
    yp = TM_DIV(b[n - 1] - PK_MUL(dl[n - 1], yp), piv);
  }
  pscr_status st = bad ? PSCR_ERR_SINGULAR : PSCR_OK;
  if (st == PSCR_OK) {
    T x = yp;
    b[n - 1] = x;
    for (size_t i = n - 1; i-- > 0;) b[i] = x = y[i] - PK_MUL(c[i], x);
  }
  td_scratch_free(ctl, c);
  return st;
}
