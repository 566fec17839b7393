/* CR_PCR_THOMAS, stages C and D of seed 003 section 4.4 (stage A is the
 * global-memory CR level of td_cr.h, run first when n > TD_SMEM_N): one
 * work-group per system, the system in local memory.
 *   stage C: cyclic-reduction levels in local memory while more than
 *            TD_D_MAX rows remain (rows j = (2k+2)s - 1 absorb j -+ s);
 *   stage D: PCR on the remaining m <= TD_D_MAX rows, one row per work-item
 *            in registers, neighbours exchanged through local memory, until
 *            every row is decoupled (the Thomas step disabled, as the seed's
 *            tuner allows);
 *   then the stage C back-substitution and a coalesced write of x.
 * Compile-time parameters: TD_WG (work-group size), TD_SMEM_N (rows held in
 * local memory), TD_D_MAX (stage C -> D switch, <= TD_WG). */
#ifndef PSCR_TD_SMEM_H
#define PSCR_TD_SMEM_H

#include "common/td_rows.h"

#ifndef TD_WG
#define TD_WG 256
#endif
#ifndef TD_SMEM_N
#define TD_SMEM_N 2048
#endif
#ifndef TD_D_MAX
#define TD_D_MAX 64
#endif

/* Systems of n <= TD_SMEM_N rows seen through TD_SRC_PARAMS (the user's
 * arrays, shifted systems, or the rows left by stage A); one group each. */
KERNEL void td_crpcr(TD_SRC_PARAMS, long n, GLOBAL scalar *b, GLOBAL int *flags) {
  LOCAL_ARRAY(scalar, sm, 4 * TD_SMEM_N);
  LOCAL int bad;
  /* four arrays of n rows (the host sizes the buffer by n) */
  LOCAL_P scalar *sa = sm, *sd = sm + n, *sc = sm + 2 * n, *sx = sm + 3 * n;
  long sys = GROUP_ID();
  int t = LOCAL_ID();
  if (t == 0) bad = 0;
  BARRIER();
  for (long r = t; r < n; r += TD_WG) {
    scalar aa, dd, cc;
    td_row(TD_SRC_ARGS, sys, r, n, &aa, &dd, &cc, flags);
    sa[r] = aa;
    sd[r] = dd;
    sc[r] = cc;
    sx[r] = b[td_rhs_index(TD_SRC_ARGS, sys, r)];
  }
  BARRIER();
  /* stage C: reduce */
  long s = 1;
  while (n / s > TD_D_MAX && n / (2 * s) >= 1) {
    long nk = n / (2 * s);
    for (long k = t; k < nk; k += TD_WG) {
      long j = (2 * k + 2) * s - 1, i1 = j - s, i2 = j + s;
      if (S_ISZERO(sd[i1]) || (i2 < n && S_ISZERO(sd[i2]))) {
        bad = 1;
        continue;
      }
      scalar alpha = S_NEG(S_DIV(sa[j], sd[i1]));
      scalar nd = S_FMA(sd[j], alpha, sc[i1]), nx = S_FMA(sx[j], alpha, sx[i1]);
      scalar nc = S_ZERO;
      if (i2 < n) {
        scalar gamma = S_NEG(S_DIV(sc[j], sd[i2]));
        nd = S_FMA(nd, gamma, sa[i2]);
        nx = S_FMA(nx, gamma, sx[i2]);
        nc = S_MUL(gamma, sc[i2]);
      }
      sa[j] = S_MUL(alpha, sa[i1]);
      sc[j] = nc;
      sd[j] = nd;
      sx[j] = nx;
    }
    BARRIER();
    s *= 2;
  }
  /* stage D: PCR on rows j_t = (t+1)s - 1, t < m */
  long m = n / s, j = (t + 1) * s - 1;
  scalar ra = S_ZERO, rd = S_ONE, rc = S_ZERO, rx = S_ZERO;
  if (t < m) {
    ra = sa[j];
    rd = sd[j];
    rc = sc[j];
    rx = sx[j];
  }
  for (long p = 1; p < m; p *= 2) {
    scalar na = S_ZERO, nc = S_ZERO, nd = rd, nx = rx;
    if (t < m) {
      if (t - p >= 0) {
        long i1 = (t - p + 1) * s - 1;
        if (S_ISZERO(sd[i1])) bad = 1;
        scalar alpha = S_NEG(S_DIV(ra, sd[i1]));
        na = S_MUL(alpha, sa[i1]);
        nd = S_FMA(nd, alpha, sc[i1]);
        nx = S_FMA(nx, alpha, sx[i1]);
      }
      if (t + p < m) {
        long i2 = (t + p + 1) * s - 1;
        if (S_ISZERO(sd[i2])) bad = 1;
        scalar gamma = S_NEG(S_DIV(rc, sd[i2]));
        nc = S_MUL(gamma, sc[i2]);
        nd = S_FMA(nd, gamma, sa[i2]);
        nx = S_FMA(nx, gamma, sx[i2]);
      }
    }
    BARRIER();
    if (t < m) {
      ra = na;
      rc = nc;
      rd = nd;
      rx = nx;
      sa[j] = ra;
      sc[j] = rc;
      sd[j] = rd;
      sx[j] = rx;
    }
    BARRIER();
  }
  if (t < m) {
    if (S_ISZERO(rd)) bad = 1;
    sx[j] = S_DIV(rx, rd);
  }
  BARRIER();
  /* stage C: back-substitute */
  for (s /= 2; s >= 1; s /= 2) {
    long nk = (n - s) / (2 * s) + 1;
    for (long k = t; k < nk; k += TD_WG) {
      long r = (2 * k + 1) * s - 1;
      scalar v = sx[r];
      if (r - s >= 0) v = S_FMS(v, sa[r], sx[r - s]);
      if (r + s < n) v = S_FMS(v, sc[r], sx[r + s]);
      if (S_ISZERO(sd[r])) bad = 1;
      sx[r] = S_DIV(v, sd[r]);
    }
    BARRIER();
  }
  if (bad) {
    if (t == 0) flags[TD_FLAG_SINGULAR] = 1;
    return;
  }
  for (long r = t; r < n; r += TD_WG) b[td_rhs_index(TD_SRC_ARGS, sys, r)] = sx[r];
}

#endif
