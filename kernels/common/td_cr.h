/* Global-memory kernels: copy-in / copy-out of compact work arrays, the
 * restore of b after a failed one-pass solve, the input scan for AUTO, one
 * cyclic-reduction level (seed 004) and one parallel cyclic-reduction level
 * (the CR and PCR baselines). Work arrays are compact: system s, row i at
 * s*n + i. One work-item per row (or per reduced row); 1D launches. */
#ifndef PSCR_TD_CR_H
#define PSCR_TD_CR_H

#include "common/td_rows.h"

/* Compact copies a, d, c, x of `total` = batch * n rows (coefficients formed
 * on the fly for shifted systems). */
KERNEL void td_gen(TD_SRC_KPARAMS, long n, long total, GPTR(const scalar, b), GPTR(scalar, a),
                   GPTR(scalar, d), GPTR(scalar, c), GPTR(scalar, x), GPTR(int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(const scalar, b);
  GPTR_AT(scalar, a);
  GPTR_AT(scalar, d);
  GPTR_AT(scalar, c);
  GPTR_AT(scalar, x);
  GPTR_AT(int, flags);
  long g = TD_GID();
  if (g >= total) return;
  long sys = g / n, r = g - sys * n;
  scalar aa, dd, cc;
  td_row(TD_SRC_ARGS, sys, r, n, &aa, &dd, &cc, flags);
  a[g] = aa;
  d[g] = dd;
  c[g] = cc;
  x[g] = b[td_rhs_index(TD_SRC_ARGS, sys, r)];
}

/* Writes the compact solution back, only when no flag was raised (b stays
 * untouched on error). div != 0: x / d first (the end of PCR). */
KERNEL void td_put(TD_SRC_KPARAMS, long n, long total, GPTR(const scalar, x),
                   GPTR(const scalar, d), int div, GPTR(scalar, b), GPTR(const int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(const scalar, x);
  GPTR_AT(const scalar, d);
  GPTR_AT(scalar, b);
  GPTR_AT(const int, flags);
  long g = TD_GID();
  if (g >= total || flags[TD_FLAG_NONFINITE] || flags[TD_FLAG_SINGULAR]) return;
  long sys = g / n, r = g - sys * n;
  scalar v = x[g];
  if (div) v = S_DIV(v, d[g]);
  b[td_rhs_index(TD_SRC_ARGS, sys, r)] = v;
}

/* The right-hand sides saved by a one-pass solve (td_tile_solve's bsave,
 * compact) written back after a flag was raised: b as it was before the solve. */
KERNEL void td_restore(TD_SRC_KPARAMS, long n, long total, GPTR(const scalar, saved),
                       GPTR(scalar, b), GPTR(const int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(const scalar, saved);
  GPTR_AT(scalar, b);
  GPTR_AT(const int, flags);
  long g = TD_GID();
  if (g >= total || !(flags[TD_FLAG_NONFINITE] || flags[TD_FLAG_SINGULAR])) return;
  long sys = g / n, r = g - sys * n;
  b[td_rhs_index(TD_SRC_ARGS, sys, r)] = saved[g];
}

/* AUTO's proof of safety: every row strictly dominant, |d| > |a|_1 + |c|_1
 * (|z|_1 >= |z|, so this is a proof), and every entry finite. */
DEVICE int td_dominant(scalar a, scalar d, scalar c) { return S_ABS(d) > S_ABS1(a) + S_ABS1(c); }

KERNEL void td_scan(TD_SRC_KPARAMS, long n, long total, GPTR(int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(int, flags);
  long g = TD_GID();
  if (g >= total) return;
  long sys = g / n, r = g - sys * n;
  scalar aa, dd, cc;
  td_row(TD_SRC_ARGS, sys, r, n, &aa, &dd, &cc, flags);
  if (!td_dominant(aa, dd, cc)) flags[TD_FLAG_NOT_DOMINANT] = 1;
}

/* td_scan per system, for a PSCR plan routing its systems (hence the name:
 * the PSCR tests cover it): out[sys] = 1 where system sys has a row that is
 * not strictly dominant or not finite (out cleared before). */
KERNEL void pscr_scan_sys(TD_SRC_KPARAMS, long n, long total, GPTR(int, out)) {
  TD_SRC_KAT();
  GPTR_AT(int, out);
  long g = TD_GID();
  if (g >= total) return;
  long sys = g / n, r = g - sys * n;
  scalar aa, dd, cc;
  int ok = td_row_ok(TD_SRC_ARGS, sys, r, n, &aa, &dd, &cc);
  if (!ok || !td_dominant(aa, dd, cc)) out[sys] = 1;
}

/* One CR reduction level at stride s: rows j = (2k+2)s - 1 absorb rows j -+ s.
 * nk = n / (2s) reduced rows per system, total = batch * nk. Rows j -+ s are
 * not written at this level, so the update is race-free in place. */
KERNEL void td_cr_reduce(long n, long s, long nk, long total, GPTR(scalar, a), GPTR(scalar, d),
                         GPTR(scalar, c), GPTR(scalar, x), GPTR(int, flags)) {
  GPTR_AT(scalar, a);
  GPTR_AT(scalar, d);
  GPTR_AT(scalar, c);
  GPTR_AT(scalar, x);
  GPTR_AT(int, flags);
  long g = TD_GID();
  if (g >= total) return;
  long sys = g / nk, k = g - sys * nk;
  long base = sys * n, j = base + (2 * k + 2) * s - 1, i1 = j - s, i2 = j + s;
  int right = (2 * k + 3) * s - 1 < n;
  if (S_ISZERO(d[i1]) || (right && S_ISZERO(d[i2]))) {
    flags[TD_FLAG_SINGULAR] = 1;
    return;
  }
  scalar alpha = S_NEG(S_DIV(a[j], d[i1]));
  scalar nd = S_FMA(d[j], alpha, c[i1]), nx = S_FMA(x[j], alpha, x[i1]);
  scalar nc = S_ZERO;
  if (right) {
    scalar gamma = S_NEG(S_DIV(c[j], d[i2]));
    nd = S_FMA(nd, gamma, a[i2]);
    nx = S_FMA(nx, gamma, x[i2]);
    nc = S_MUL(gamma, c[i2]);
  }
  a[j] = S_MUL(alpha, a[i1]);
  c[j] = nc;
  d[j] = nd;
  x[j] = nx;
}

/* One CR back-substitution level at stride s: rows j = (2k+1)s - 1 from their
 * solved neighbours j -+ s. nk = (n - s) / (2s) + 1 rows per system. */
KERNEL void td_cr_backsub(long n, long s, long nk, long total, GPTR(const scalar, a),
                          GPTR(const scalar, d), GPTR(const scalar, c), GPTR(scalar, x),
                          GPTR(int, flags)) {
  GPTR_AT(const scalar, a);
  GPTR_AT(const scalar, d);
  GPTR_AT(const scalar, c);
  GPTR_AT(scalar, x);
  GPTR_AT(int, flags);
  long g = TD_GID();
  if (g >= total) return;
  long sys = g / nk, k = g - sys * nk;
  long r = (2 * k + 1) * s - 1, j = sys * n + r;
  scalar v = x[j];
  if (r - s >= 0) v = S_FMS(v, a[j], x[j - s]);
  if (r + s < n) v = S_FMS(v, c[j], x[j + s]);
  if (S_ISZERO(d[j])) {
    flags[TD_FLAG_SINGULAR] = 1;
    return;
  }
  x[j] = S_DIV(v, d[j]);
}

/* One PCR level at stride s: every row absorbs rows i -+ s (double-buffered). */
KERNEL void td_pcr_step(long n, long s, long total, GPTR(const scalar, a),
                        GPTR(const scalar, d), GPTR(const scalar, c), GPTR(const scalar, x),
                        GPTR(scalar, a2), GPTR(scalar, d2), GPTR(scalar, c2), GPTR(scalar, x2),
                        GPTR(int, flags)) {
  GPTR_AT(const scalar, a);
  GPTR_AT(const scalar, d);
  GPTR_AT(const scalar, c);
  GPTR_AT(const scalar, x);
  GPTR_AT(scalar, a2);
  GPTR_AT(scalar, d2);
  GPTR_AT(scalar, c2);
  GPTR_AT(scalar, x2);
  GPTR_AT(int, flags);
  long g = TD_GID();
  if (g >= total) return;
  long r = g % n;
  scalar na = S_ZERO, nc = S_ZERO, nd = d[g], nx = x[g];
  if (r - s >= 0) {
    if (S_ISZERO(d[g - s])) flags[TD_FLAG_SINGULAR] = 1;
    scalar alpha = S_NEG(S_DIV(a[g], d[g - s]));
    na = S_MUL(alpha, a[g - s]);
    nd = S_FMA(nd, alpha, c[g - s]);
    nx = S_FMA(nx, alpha, x[g - s]);
  }
  if (r + s < n) {
    if (S_ISZERO(d[g + s])) flags[TD_FLAG_SINGULAR] = 1;
    scalar gamma = S_NEG(S_DIV(c[g], d[g + s]));
    nc = S_MUL(gamma, c[g + s]);
    nd = S_FMA(nd, gamma, a[g + s]);
    nx = S_FMA(nx, gamma, x[g + s]);
  }
  a2[g] = na;
  c2[g] = nc;
  d2[g] = nd;
  x2[g] = nx;
}

#endif
