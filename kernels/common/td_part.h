/* One work-item per partition: THOMAS (one partition per system, 1x1 pivots)
 * and the partition solver of SPIKE_DIAG_PIVOT (seed 001 section III: the
 * Erway-Marcia LBM^T factorization, asymmetric Bunch-Kaufman choice of 1x1 or
 * 2x2 pivots, eqs. (11)-(12)).
 *
 * Partition p of system sys holds rows r0 = p*m .. r0+mm-1 (mm = m, the last
 * one shorter). Its diagonal block A_p is solved for three right-hand sides:
 * f (the rows of b), wl e_1 and wr e_mm (the couplings to the neighbouring
 * partitions, the left and right spikes). Every pivot step leaves, per row,
 *   x_i = y_i - u_i x_next(i),   next(i) = i + 1, or i + 2 for the first row
 * of a 2x2 pivot,
 * so the factors are three numbers per row (u, y_f, y_w) and a pivot size;
 * they go to work arrays in the interleaved layout work[i * G + g] (g = the
 * global partition index, G partitions in all: coalesced across work-items).
 * The right spike's y is zero except in the last pivot block (y_v of the last
 * two rows are kept in the node record). */
#ifndef PSCR_TD_PART_H
#define PSCR_TD_PART_H

#include "common/td_rows.h"

/* The node record of a partition: field f of partition g at node[f * G + g]. */
#define TD_NODE_YT 0 /* top and bottom of y = A_p^{-1} f */
#define TD_NODE_YB 1
#define TD_NODE_WT 2 /* of w = A_p^{-1} (wl e_1) */
#define TD_NODE_WB 3
#define TD_NODE_VT 4 /* of v = A_p^{-1} (wr e_mm) */
#define TD_NODE_VB 5
#define TD_NODE_V2 6 /* y_v at row mm-2 (0 unless the last pivot is 2x2) */
#define TD_NODE_FIELDS 7

/* (sqrt(5) - 1) / 2: the Bunch-Kaufman constant of seed 001. */
#define TD_KAPPA 0.6180339887498949

DEVICE double td_max(double a, double b) { return a > b ? a : b; }

/* Forward sweep (factor + forward elimination) of every partition; with
 * spikes != 0 also the backward sweep for the node record (tops and bottoms
 * of y, w, v). pivot == 0: 1x1 pivots only (THOMAS). */
KERNEL void td_part_fwd(TD_SRC_PARAMS, long n, long m, long P, long G, int pivot, int spikes,
                        const GLOBAL scalar *b, GLOBAL scalar *wu, GLOBAL scalar *wy,
                        GLOBAL scalar *ww, GLOBAL uchar *wp, GLOBAL scalar *node,
                        GLOBAL int *flags) {
  long g = TD_GID();
  if (g >= G) return;
  long sys = g / P, p = g - sys * P, r0 = p * m;
  long mm = n - r0 < m ? n - r0 : m;
  scalar a0, bk, ck, a1 = S_ZERO, d1 = S_ZERO, c1 = S_ZERO, f1 = S_ZERO;
  td_row(TD_SRC_ARGS, sys, r0, n, &a0, &bk, &ck, flags);
  scalar wl = p > 0 ? a0 : S_ZERO;
  scalar wr = S_ZERO;
  if (mm == 1) {
    wr = ck;
    ck = S_ZERO;
  }
  scalar fk = b[td_rhs_index(TD_SRC_ARGS, sys, r0)], gk = wl;
  scalar vlast = S_ZERO, v2 = S_ZERO; /* y_v of rows mm-1 and mm-2 */
  long k = 0;
  while (k < mm) {
    int two = 0;
    if (k + 1 < mm) {
      td_row(TD_SRC_ARGS, sys, r0 + k + 1, n, &a1, &d1, &c1, flags);
      f1 = b[td_rhs_index(TD_SRC_ARGS, sys, r0 + k + 1)];
      if (k + 2 == mm) {
        wr = c1;
        c1 = S_ZERO;
      }
      if (pivot) {
        /* 1x1 if |b1| sigma1 >= kappa |a2 c1| (seed 001, after eq. (12)) */
        double sigma = td_max(td_max(S_ABS1(a1), S_ABS1(d1)), td_max(S_ABS1(ck), S_ABS1(c1)));
        if (k + 2 < mm) sigma = td_max(sigma, S_ABS1(td_row_sub(TD_SRC_ARGS, sys, r0 + k + 2)));
        two = S_ABS1(bk) * sigma < TD_KAPPA * S_ABS1(a1) * S_ABS1(ck);
      }
    }
    if (!two) {
      if (S_ISZERO(bk)) {
        flags[TD_FLAG_SINGULAR] = 1;
        return;
      }
      scalar u = S_DIV(ck, bk), y = S_DIV(fk, bk), yw = S_DIV(gk, bk);
      wu[k * G + g] = u;
      wy[k * G + g] = y;
      if (spikes) ww[k * G + g] = yw;
      if (pivot) wp[k * G + g] = 1;
      if (k + 1 == mm) vlast = S_DIV(wr, bk);
      if (k + 1 < mm) { /* Schur complement, eq. (12) with d = 1 */
        bk = S_FMS(d1, a1, u);
        fk = S_FMS(f1, a1, y);
        gk = S_NEG(S_MUL(a1, yw));
        ck = c1;
      }
      k += 1;
    } else {
      scalar delta = S_FMS(S_MUL(bk, d1), a1, ck); /* b1 b2 - a2 c1 */
      if (S_ISZERO(delta)) {
        flags[TD_FLAG_SINGULAR] = 1;
        return;
      }
      scalar y0 = S_DIV(S_FMS(S_MUL(d1, fk), ck, f1), delta);
      scalar y1 = S_DIV(S_FMS(S_MUL(bk, f1), a1, fk), delta);
      scalar w0 = S_DIV(S_MUL(d1, gk), delta);
      scalar w1 = S_NEG(S_DIV(S_MUL(a1, gk), delta));
      scalar u0 = S_NEG(S_DIV(S_MUL(ck, c1), delta));
      scalar u1 = S_DIV(S_MUL(bk, c1), delta);
      wu[k * G + g] = u0;
      wy[k * G + g] = y0;
      wu[(k + 1) * G + g] = u1;
      wy[(k + 1) * G + g] = y1;
      if (spikes) {
        ww[k * G + g] = w0;
        ww[(k + 1) * G + g] = w1;
      }
      wp[k * G + g] = 2;
      wp[(k + 1) * G + g] = 1;
      if (k + 2 == mm) {
        v2 = S_NEG(S_DIV(S_MUL(ck, wr), delta));
        vlast = S_DIV(S_MUL(bk, wr), delta);
      } else { /* Schur complement, eq. (12) with d = 2 */
        scalar a2, d2, c2;
        td_row(TD_SRC_ARGS, sys, r0 + k + 2, n, &a2, &d2, &c2, flags);
        if (k + 3 == mm) {
          wr = c2;
          c2 = S_ZERO;
        }
        bk = S_FMS(d2, a2, u1);
        fk = S_FMS(b[td_rhs_index(TD_SRC_ARGS, sys, r0 + k + 2)], a2, y1);
        gk = S_NEG(S_MUL(a2, w1));
        ck = c2;
      }
      k += 2;
    }
  }
  if (!spikes) return;
  /* Backward sweep for the tops; the bottoms are the last row's values. */
  scalar xf1 = S_ZERO, xf2 = S_ZERO, xw1 = S_ZERO, xw2 = S_ZERO, xv1 = S_ZERO, xv2 = S_ZERO;
  scalar fb = S_ZERO, wb = S_ZERO;
  for (long i = mm - 1; i >= 0; i--) {
    scalar u = wu[i * G + g];
    int skip = pivot && wp[i * G + g] == 2;
    scalar yv = i == mm - 1 ? vlast : (i == mm - 2 ? v2 : S_ZERO);
    scalar xf = S_FMS(wy[i * G + g], u, skip ? xf2 : xf1);
    scalar xw = S_FMS(ww[i * G + g], u, skip ? xw2 : xw1);
    scalar xv = S_FMS(yv, u, skip ? xv2 : xv1);
    if (i == mm - 1) {
      fb = xf;
      wb = xw;
    }
    xf2 = xf1;
    xf1 = xf;
    xw2 = xw1;
    xw1 = xw;
    xv2 = xv1;
    xv1 = xv;
  }
  node[TD_NODE_YT * G + g] = xf1;
  node[TD_NODE_YB * G + g] = fb;
  node[TD_NODE_WT * G + g] = xw1;
  node[TD_NODE_WB * G + g] = wb;
  node[TD_NODE_VT * G + g] = xv1;
  node[TD_NODE_VB * G + g] = vlast;
  node[TD_NODE_V2 * G + g] = v2;
}

/* Backward sweep with the neighbours' values known: x = y - w xl - v xr,
 * xl / xr the solution just left / right of the partition (out[g], out[G+g]),
 * written to b unless a flag was raised. */
KERNEL void td_part_bwd(TD_SRC_PARAMS, long n, long m, long P, long G, int pivot, int spikes,
                        const GLOBAL scalar *wu, const GLOBAL scalar *wy,
                        const GLOBAL scalar *ww, const GLOBAL uchar *wp,
                        const GLOBAL scalar *node, const GLOBAL scalar *out, GLOBAL scalar *b,
                        const GLOBAL int *flags) {
  long g = TD_GID();
  if (g >= G || flags[TD_FLAG_NONFINITE] || flags[TD_FLAG_SINGULAR]) return;
  long sys = g / P, p = g - sys * P, r0 = p * m;
  long mm = n - r0 < m ? n - r0 : m;
  scalar xl = S_ZERO, xr = S_ZERO, vb = S_ZERO, v2 = S_ZERO;
  if (spikes) {
    xl = out[g];
    xr = out[G + g];
    vb = node[TD_NODE_VB * G + g];
    v2 = node[TD_NODE_V2 * G + g];
  }
  scalar x1 = S_ZERO, x2 = S_ZERO;
  for (long i = mm - 1; i >= 0; i--) {
    scalar y = wy[i * G + g];
    if (spikes) {
      y = S_FMS(y, ww[i * G + g], xl);
      if (i == mm - 1) y = S_FMS(y, vb, xr);
      if (i == mm - 2) y = S_FMS(y, v2, xr);
    }
    int skip = pivot && wp[i * G + g] == 2;
    scalar x = S_FMS(y, wu[i * G + g], skip ? x2 : x1);
    b[td_rhs_index(TD_SRC_ARGS, sys, r0 + i)] = x;
    x2 = x1;
    x1 = x;
  }
}

#endif
