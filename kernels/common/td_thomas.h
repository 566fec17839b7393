/* THOMAS on the GPU: one work-item per system, no pivoting (the baseline of
 * issue 4; seed 003's stage D without PCR). The factors u_i = c_i / den_i and
 * y_i = (f_i - a_i y_{i-1}) / den_i, den_i = d_i - a_i u_{i-1}, go to work
 * arrays in the interleaved layout w[i * batch + sys], so the loads of
 * neighbouring work-items are coalesced. td_thomas_bwd writes x only when no
 * flag was raised by any system: b is untouched on NONFINITE / SINGULAR. */
#ifndef PSCR_TD_THOMAS_H
#define PSCR_TD_THOMAS_H

#include "common/td_rows.h"

/* One row of the elimination: den = d - a u_prev, u = c / den,
 * y = (f - a y_prev) / den (one division, two products); returns den. */
DEVICE scalar td_thomas_row(scalar a, scalar d, scalar c, scalar f, scalar *u, scalar *y) {
  scalar den = S_FMS(d, a, *u), r = S_RCP(den);
  *u = S_MUL(c, r);
  *y = S_MUL(S_FMS(f, a, *y), r);
  return den;
}

KERNEL void td_thomas_fwd(TD_SRC_KPARAMS, long n, long batch, GPTR(const scalar, b),
                          GPTR(scalar, wu), GPTR(scalar, wy), GPTR(int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(const scalar, b);
  GPTR_AT(scalar, wu);
  GPTR_AT(scalar, wy);
  GPTR_AT(int, flags);
  long sys = TD_GID();
  if (sys >= batch) return;
  scalar u = S_ZERO, y = S_ZERO;
  for (long i = 0; i < n; i++) {
    scalar a, d, c;
    td_row(TD_SRC_ARGS, sys, i, n, &a, &d, &c, flags);
    if (S_ISZERO(td_thomas_row(a, d, c, b[td_rhs_index(TD_SRC_ARGS, sys, i)], &u, &y))) {
      flags[TD_FLAG_SINGULAR] = 1;
      return;
    }
    wu[i * batch + sys] = u;
    wy[i * batch + sys] = y;
  }
}

/* x_i = y_i - u_i x_{i+1} (u_{n-1} = 0). */
KERNEL void td_thomas_bwd(TD_SRC_KPARAMS, long n, long batch, GPTR(const scalar, wu),
                          GPTR(const scalar, wy), GPTR(scalar, b), GPTR(const int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(const scalar, wu);
  GPTR_AT(const scalar, wy);
  GPTR_AT(scalar, b);
  GPTR_AT(const int, flags);
  long sys = TD_GID();
  if (sys >= batch || flags[TD_FLAG_NONFINITE] || flags[TD_FLAG_SINGULAR]) return;
  scalar x = S_ZERO;
  for (long i = n - 1; i >= 0; i--) {
    x = S_FMS(wy[i * batch + sys], wu[i * batch + sys], x);
    b[td_rhs_index(TD_SRC_ARGS, sys, i)] = x;
  }
}

#endif
