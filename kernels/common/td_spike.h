/* The SPIKE reduced system, solved by recursive SPIKE ("on the fly", seed 001
 * section II): neighbouring partitions L, R are merged level by level; a
 * merged partition S keeps only the tops and bottoms of its y, w, v, so that
 *   x_S = y_S - w_S xl - v_S xr
 * with xl / xr the solution just outside S. At the junction of L and R the
 * unknowns bL (last row of L) and tR (first row of R) satisfy
 *   [1 vLb; wRt 1] [bL; tR] = [yLb - wLb xl; yRt - vRt xr],  D = 1 - vLb wRt,
 * which gives S's record (up) and, once xl, xr of S are known, the values
 * outside L and R (down). Level records: field f of node g at v[f * cnt + g],
 * fields y_t, y_b, w_t, w_b, v_t, v_b (TD_NODE_* of td_part.h); outside
 * values: xl at o[g], xr at o[cnt + g]. Pc children / Pp parents per system. */
#ifndef PSCR_TD_SPIKE_H
#define PSCR_TD_SPIKE_H

#include "common/td_part.h"

KERNEL void td_spike_up(long Pc, long cc, const GLOBAL scalar *vc, long Pp, long cp,
                        GLOBAL scalar *vp, GLOBAL int *flags) {
  long g = TD_GID();
  if (g >= cp) return;
  long sys = g / Pp, k = g - sys * Pp, l = sys * Pc + 2 * k, r = l + 1;
  if (2 * k + 1 >= Pc) { /* unpaired: passes up unchanged */
    for (int f = 0; f < 6; f++) vp[f * cp + g] = vc[f * cc + l];
    return;
  }
  scalar yLt = vc[l], yLb = vc[cc + l], wLt = vc[2 * cc + l], wLb = vc[3 * cc + l];
  scalar vLt = vc[4 * cc + l], vLb = vc[5 * cc + l];
  scalar yRt = vc[r], yRb = vc[cc + r], wRt = vc[2 * cc + r], wRb = vc[3 * cc + r];
  scalar vRt = vc[4 * cc + r], vRb = vc[5 * cc + r];
  scalar D = S_FMS(S_ONE, vLb, wRt);
  if (S_ISZERO(D)) {
    flags[TD_FLAG_SINGULAR] = 1;
    return;
  }
  /* tR = tR0 + tRl xl + tRr xr,  bL = bL0 + bLl xl + bLr xr */
  scalar tR0 = S_DIV(S_FMS(yRt, wRt, yLb), D), tRl = S_DIV(S_MUL(wRt, wLb), D);
  scalar tRr = S_NEG(S_DIV(vRt, D));
  scalar bL0 = S_DIV(S_FMS(yLb, vLb, yRt), D), bLl = S_NEG(S_DIV(wLb, D));
  scalar bLr = S_DIV(S_MUL(vLb, vRt), D);
  vp[g] = S_FMS(yLt, vLt, tR0);
  vp[2 * cp + g] = S_FMA(wLt, vLt, tRl);
  vp[4 * cp + g] = S_MUL(vLt, tRr);
  vp[cp + g] = S_FMS(yRb, wRb, bL0);
  vp[3 * cp + g] = S_MUL(wRb, bLl);
  vp[5 * cp + g] = S_FMA(vRb, wRb, bLr);
}

KERNEL void td_spike_down(long Pc, long cc, const GLOBAL scalar *vc, GLOBAL scalar *oc, long Pp,
                          long cp, const GLOBAL scalar *op) {
  long g = TD_GID();
  if (g >= cp) return;
  long sys = g / Pp, k = g - sys * Pp, l = sys * Pc + 2 * k, r = l + 1;
  scalar xl = op[g], xr = op[cp + g];
  if (2 * k + 1 >= Pc) {
    oc[l] = xl;
    oc[cc + l] = xr;
    return;
  }
  scalar yLb = vc[cc + l], wLb = vc[3 * cc + l], vLb = vc[5 * cc + l];
  scalar yRt = vc[r], wRt = vc[2 * cc + r], vRt = vc[4 * cc + r];
  scalar D = S_FMS(S_ONE, vLb, wRt);
  scalar el = S_FMS(yLb, wLb, xl), er = S_FMS(yRt, vRt, xr);
  scalar bL = S_DIV(S_FMS(el, vLb, er), D), tR = S_DIV(S_FMS(er, wRt, el), D);
  oc[l] = xl;
  oc[cc + l] = tR;
  oc[r] = bL;
  oc[cc + r] = xr;
}

#endif
