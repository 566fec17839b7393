/* Where row r of system `sys` lives. Two sources share one parameter list:
 *  - plain (shift == 0): three diagonals cdl, cd, cdu and the right-hand side
 *    at sys * sstride + (r + 1) * rstep - 1 (rstep > 1 views the rows left
 *    after global cyclic-reduction steps, stride rstep);
 *  - shifted (shift != 0): A + shift[sys] M formed on the fly from the shared
 *    diagonals cdl, cd, cdu (A) and mdl, md, mdu (M; mdl/mdu may be 0), the
 *    right-hand side at sys * sstride + r.
 * Coupling outside the system (row 0's sub-, row n-1's super-diagonal) reads as 0. */
#ifndef PSCR_TD_ROWS_H
#define PSCR_TD_ROWS_H

#include "common/td_scalar.h"

#define TD_SRC_PARAMS                                                                              \
  const GLOBAL scalar *cdl, const GLOBAL scalar *cd, const GLOBAL scalar *cdu,                    \
      const GLOBAL scalar *mdl, const GLOBAL scalar *md, const GLOBAL scalar *mdu,                \
      const GLOBAL scalar *shift, long sstride, long rstep
#define TD_SRC_ARGS cdl, cd, cdu, mdl, md, mdu, shift, sstride, rstep

/* Index of the right-hand side (and solution) of row r. */
DEVICE long td_rhs_index(TD_SRC_PARAMS, long sys, long r) {
  return sys * sstride + (r + 1) * rstep - 1;
}

/* Loads the coefficients (a: sub, d: diagonal, c: super) of row r of n;
 * raises the non-finite flag on NaN/Inf. */
DEVICE void td_row(TD_SRC_PARAMS, long sys, long r, long n, scalar *a, scalar *d, scalar *c,
                   GLOBAL int *flags) {
  scalar aa = S_ZERO, dd, cc = S_ZERO;
  if (shift != 0) {
    scalar s = shift[sys];
    dd = S_FMA(cd[r], s, md[r]);
    if (r > 0) aa = mdl != 0 ? S_FMA(cdl[r], s, mdl[r]) : cdl[r];
    if (r + 1 < n) cc = mdu != 0 ? S_FMA(cdu[r], s, mdu[r]) : cdu[r];
  } else {
    long i = sys * sstride + (r + 1) * rstep - 1;
    dd = cd[i];
    if (r > 0) aa = cdl[i];
    if (r + 1 < n) cc = cdu[i];
  }
  if (!(S_ISFINITE(aa) && S_ISFINITE(dd) && S_ISFINITE(cc))) flags[TD_FLAG_NONFINITE] = 1;
  *a = aa;
  *d = dd;
  *c = cc;
}

/* td_row without the flag store (returns 0 on NaN/Inf), so that loads of
 * consecutive rows can be issued together. */
DEVICE int td_row_ok(TD_SRC_PARAMS, long sys, long r, long n, scalar *a, scalar *d, scalar *c) {
  scalar aa = S_ZERO, dd, cc = S_ZERO;
  if (shift != 0) {
    scalar s = shift[sys];
    dd = S_FMA(cd[r], s, md[r]);
    if (r > 0) aa = mdl != 0 ? S_FMA(cdl[r], s, mdl[r]) : cdl[r];
    if (r + 1 < n) cc = mdu != 0 ? S_FMA(cdu[r], s, mdu[r]) : cdu[r];
  } else {
    long i = sys * sstride + (r + 1) * rstep - 1;
    dd = cd[i];
    if (r > 0) aa = cdl[i];
    if (r + 1 < n) cc = cdu[i];
  }
  *a = aa;
  *d = dd;
  *c = cc;
  return S_ISFINITE(aa) && S_ISFINITE(dd) && S_ISFINITE(cc);
}

/* The coupling of row r to the row before it (r > 0), for SPIKE partitions. */
DEVICE scalar td_row_sub(TD_SRC_PARAMS, long sys, long r) {
  if (shift != 0) return mdl != 0 ? S_FMA(cdl[r], shift[sys], mdl[r]) : cdl[r];
  return cdl[sys * sstride + (r + 1) * rstep - 1];
}
/* The coupling of row r to the row after it (r < n - 1). */
DEVICE scalar td_row_sup(TD_SRC_PARAMS, long sys, long r) {
  if (shift != 0) return mdu != 0 ? S_FMA(cdu[r], shift[sys], mdu[r]) : cdu[r];
  return cdu[sys * sstride + (r + 1) * rstep - 1];
}

#endif
