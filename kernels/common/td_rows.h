/* Where row r of system `sys` lives. Two sources share one parameter list:
 *  - plain (shift == 0): three diagonals cdl, cd, cdu and the right-hand side
 *    at sys * sstride + (r + 1) * rstep - 1 (rstep > 1 views the rows left
 *    after global cyclic-reduction steps, stride rstep);
 *  - shifted (shift != 0): A + shift[sys] M formed on the fly from the shared
 *    diagonals cdl, cd, cdu (A) and mdl, md, mdu (M; mdl/mdu may be 0), the
 *    right-hand side at sys * sstride + r;
 * sys counted from sys0 (a solve of part of the systems).
 * Coupling outside the system (row 0's sub-, row n-1's super-diagonal) reads as 0. */
#ifndef PSCR_TD_ROWS_H
#define PSCR_TD_ROWS_H

#include "common/td_scalar.h"

#define TD_SRC_PARAMS                                                                              \
  const GLOBAL scalar *cdl, const GLOBAL scalar *cd, const GLOBAL scalar *cdu,                     \
      const GLOBAL scalar *mdl, const GLOBAL scalar *md, const GLOBAL scalar *mdu,                 \
      const GLOBAL scalar *shift, long sstride, long rstep, long sys0
#define TD_SRC_ARGS cdl, cd, cdu, mdl, md, mdu, shift, sstride, rstep, sys0
/* TD_SRC_PARAMS as a kernel takes them (P: GPTR, or XPTR after XBASE), and
 * their offsets applied */
#define TD_SRC_KPARAMS_(P)                                                                         \
  P(const scalar, cdl), P(const scalar, cd), P(const scalar, cdu), P(const scalar, mdl),           \
      P(const scalar, md), P(const scalar, mdu), P(const scalar, shift), long sstride, long rstep,  \
      long sys0
#define TD_SRC_KAT_(P)                                                                             \
  P##_AT(const scalar, cdl); P##_AT(const scalar, cd); P##_AT(const scalar, cdu);                  \
      P##_AT(const scalar, mdl); P##_AT(const scalar, md); P##_AT(const scalar, mdu);              \
      P##_AT(const scalar, shift)
#define TD_SRC_KPARAMS TD_SRC_KPARAMS_(GPTR)
#define TD_SRC_KAT() TD_SRC_KAT_(GPTR)

/* Index of the right-hand side (and solution) of row r. A solve of systems
 * sys0 .. sys0 + batch - 1 of a larger set numbers them from 0 (OpenCL takes
 * no offsets into buffers). */
DEVICE long td_rhs_index(TD_SRC_PARAMS, long sys, long r) {
  return (sys0 + sys) * sstride + (r + 1) * rstep - 1;
}

/* At a kernel's start: a solve of systems sys0 .. of a larger set moved to
 * its own, the sources and b offset once and sys0 zeroed, so the per-row
 * index math folds it away (H100, CR_PCR_THOMAS batch 4096 x 4096, td_reg.h:
 * 0.456 ms with sys0 in every row's index, 0.35-0.36 offset once, as without
 * sys0). Kernels without it stay right: td_tile.h's go without (with it,
 * SPIKE_DIAG_PIVOT one system 2^26 took 3.27 ms against 2.78). */
#define TD_SRC_AT_SYS0(b)                                                                          \
  do {                                                                                             \
    long o_ = sys0 * sstride;                                                                      \
    if (shift != 0) {                                                                              \
      shift += sys0;                                                                               \
    } else {                                                                                       \
      cdl += o_;                                                                                   \
      cd += o_;                                                                                    \
      cdu += o_;                                                                                   \
    }                                                                                              \
    (b) += o_;                                                                                     \
    sys0 = 0;                                                                                      \
  } while (0)

/* Row r of n of A + s M at array index i (a: sub, d: diagonal, c: super);
 * M's arrays may be null (mdl and mdu: M diagonal; all three: plain A, s = 0).
 * Returns 0 on NaN/Inf. Branch-free: the loads are unconditional (dl[0] and
 * du[n-1] exist and are ignored, tridiag.h) or predicated on uniform null
 * tests, the couplings outside the system are selected away. Per-row branches
 * made nvcc issue the rows of a tile one memory latency after another (ncu,
 * td_reg_fwd: 63 % of the instructions and 74 % of the stalls were the load). */
DEVICE int td_coef_row(const GLOBAL scalar *cdl, const GLOBAL scalar *cd, const GLOBAL scalar *cdu,
                       const GLOBAL scalar *mdl, const GLOBAL scalar *md, const GLOBAL scalar *mdu,
                       scalar s, long i, long r, long n, scalar *a, scalar *d, scalar *c) {
  scalar aa = cdl[i], dd = cd[i], cc = cdu[i];
  if (mdl != 0) aa = S_FMA(aa, s, mdl[i]);
  if (md != 0) dd = S_FMA(dd, s, md[i]);
  if (mdu != 0) cc = S_FMA(cc, s, mdu[i]);
  *a = r > 0 ? aa : S_ZERO;
  *d = dd;
  *c = r + 1 < n ? cc : S_ZERO;
  return S_ISFINITE(*a) && S_ISFINITE(dd) && S_ISFINITE(*c);
}

/* The coefficients of row r of system sys (0 <= r < n); returns 0 on NaN/Inf.
 * sh: shift != 0, a literal where the caller knows the source at compile time. */
DEVICE int td_row_ok_k(TD_SRC_PARAMS, int sh, long sys, long r, long n, scalar *a, scalar *d,
                       scalar *c) {
  long i = sh ? r : (sys0 + sys) * sstride + (r + 1) * rstep - 1;
  return td_coef_row(cdl, cd, cdu, mdl, md, mdu, sh ? shift[sys0 + sys] : S_ZERO, i, r, n, a, d, c);
}
DEVICE int td_row_ok(TD_SRC_PARAMS, long sys, long r, long n, scalar *a, scalar *d, scalar *c) {
  return td_row_ok_k(TD_SRC_ARGS, shift != 0, sys, r, n, a, d, c);
}

/* td_row_ok, raising the non-finite flag on NaN/Inf. */
DEVICE void td_row(TD_SRC_PARAMS, long sys, long r, long n, scalar *a, scalar *d, scalar *c,
                   GLOBAL int *flags) {
  if (!td_row_ok(TD_SRC_ARGS, sys, r, n, a, d, c)) flags[TD_FLAG_NONFINITE] = 1;
}

/* Row r of system sys and its right-hand side f; rows outside 0..n-1 are
 * identity rows (f = 0). r is clamped, so the loads stay unconditional and an
 * unrolled caller keeps all its rows in flight. Returns 0 on a NaN/Inf
 * coefficient. */
DEVICE int td_row_fetch_k(TD_SRC_PARAMS, int sh, long sys, long r, long n,
                          const GLOBAL scalar *b, scalar *a, scalar *d, scalar *c, scalar *f) {
  long rr = r < 0 ? 0 : r < n ? r : n - 1;
  int ok = td_row_ok_k(TD_SRC_ARGS, sh, sys, rr, n, a, d, c);
  *f = b[td_rhs_index(TD_SRC_ARGS, sys, rr)];
  if (r != rr) {
    *a = S_ZERO;
    *d = S_ONE;
    *c = S_ZERO;
    *f = S_ZERO;
    ok = 1;
  }
  return ok;
}
DEVICE int td_row_fetch(TD_SRC_PARAMS, long sys, long r, long n, const GLOBAL scalar *b,
                        scalar *a, scalar *d, scalar *c, scalar *f) {
  return td_row_fetch_k(TD_SRC_ARGS, shift != 0, sys, r, n, b, a, d, c, f);
}

/* At a kernel's start: the source fixed at compile time, rows of stride 1
 * (sh 0: plain, sh 1: shifted; the host launches the kernel of its source),
 * so the row index math of the other source folds away. */
#define TD_SRC_FIX(sh)                                                                             \
  do {                                                                                             \
    rstep = 1;                                                                                     \
    if (!(sh)) shift = mdl = md = mdu = 0;                                                         \
  } while (0)

#endif
