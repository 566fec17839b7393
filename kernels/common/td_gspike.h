/* GSPIKE on the GPU (seed 000): SPIKE with Givens-QR partitions (td_qr.h),
 * the singular-block modification, and the reduced system solved by g-Spike
 * again, level by level (seed 000 sec. 3.3 and Appendix C), as the CPU
 * version src/tridiag/spike_tmpl.c + gspike_tmpl.c does.
 *
 * Level 0: td_gs_tile, one work-item per partition of q = 1 << lq rows, a
 * group's W partitions loaded as one tile (coalesced, padded as in
 * td_tile.h); the grid of partitions may start sh rows before the system
 * (identity rows), which moves every partition boundary. phase 0 factors and writes each partition's pair
 *   t_j + wt_j b_{j-1} + vt_j t_{j+1} + ut_j b_j = yt_j
 *   db_j b_j + wb_j b_{j-1} + vb_j t_{j+1}       = yb_j
 * (t_j, b_j: first and last unknown of partition j); phase 1 factors again
 * and recovers x = Y - V t_{j+1} - W b_{j-1} (spike_tmpl.c top_recover).
 * Pair arrays: field f of pair i at pr[f * cnt + i] (TD_PR_*), cnt = pairs.
 * A modified partition j (zeta_j != 0) adds zeta_j to wt_{j+1}: the blocks
 * of the next level add it when they read the pairs.
 * Levels 1..: td_gs_level solves blocks of GP pairs (2 GP unknowns in the
 * column order of seed 000 Fig. C.2c, tridiagonal with two-entry coupling
 * columns), one work-item each, into the next level's pairs; td_gs_direct
 * solves a level of at most TD_GS_DIRECT pairs per system with one
 * work-item; td_gs_recover brings the solution down a level.
 * A block no level can solve raises TD_FLAG_FALLBACK: the host solves again
 * on the grid shifted by q/2 rows (a near-singular leading part of a block,
 * the CPU's BLOCK_FAILED, is seldom one again), and after a second failure
 * solves every system as one partition (td_gs_whole, global memory; td_put
 * of td_cr.h then writes x, so b stays untouched if a system is singular).
 * Where LOCAL_ARRAY is sized at compile time (OpenCL) the host sets the
 * work-items per group (TD_GW, TD_GS_LW, TD_GS_RW, TD_GS_DW) so that every
 * kernel's local array fits the device's local memory. */
#ifndef PSCR_TD_GSPIKE_H
#define PSCR_TD_GSPIKE_H

#include "common/td_tile.h"

#ifndef TD_GQ
#define TD_GQ 32 /* rows per level-0 partition (OpenCL local sizes) */
#endif
#ifndef TD_GW
#define TD_GW 64 /* work-items of td_gs_tile (OpenCL local sizes) */
#endif
#ifndef TD_GP
#define TD_GP 16 /* pairs per block of a reduced level */
#endif
#ifndef TD_GS_LW
#define TD_GS_LW 64 /* most work-items of td_gs_level (OpenCL local sizes) */
#endif
#ifndef TD_GS_RW
#define TD_GS_RW 64 /* most work-items of td_gs_recover (OpenCL local sizes) */
#endif
#ifndef TD_GS_DW
#define TD_GS_DW 8 /* most work-items of td_gs_direct (OpenCL local sizes) */
#endif
#define TD_GS_DIRECT 64 /* reduced levels of at most this many pairs are solved directly */

/* spike.h's thresholds */
#define TD_SPIKE_DELTA 1.0e-8
#define TD_SPIKE_MODIFY 1.0e-4
#define TD_SPIKE_MENDED 1.0e-6
#define TD_SPIKE_BIG 1.0e150
#define TD_SINGULAR_TOL (4 * 2.220446049250313e-16)
#define TD_DBL_MAX 1.7976931348623157e308

#define TD_QR_OK 0
#define TD_QR_FAILED 1
#define TD_QR_SPECIAL 2
#define TD_QR_WEAK 3 /* a near-singular block kept unmodified: refine the solution */

#define TD_PR_WT 0
#define TD_PR_WB 1
#define TD_PR_VT 2
#define TD_PR_VB 3
#define TD_PR_YT 4
#define TD_PR_YB 5
#define TD_PR_UT 6
#define TD_PR_DB 7
#define TD_PR_ZETA 8 /* the welcome fill-in of the block that made the pair */
#define TD_PR_SPEC 9 /* 1: a special (singular last) block */
#define TD_PR_XT 10  /* the solution t_j, b_j */
#define TD_PR_XB 11
#define TD_PR_FIELDS 12

DEVICE double td_min(double a, double b) { return a < b ? a : b; }
/* max that keeps NaN */
DEVICE double td_acc(double amax, double v) {
  return v <= amax ? amax : (v > amax ? v : v + amax);
}

/* G = [c s; -conj(s) c], G [a; beta] = [r; 0], c real (seed 000 App. B); *ar = |r|. */
DEVICE void td_givens(scalar a, scalar beta, double *c, scalar *s, scalar *r, double *ar) {
  if (S_ISZERO(beta)) {
    *c = 1;
    *s = S_ZERO;
    *r = a;
    *ar = S_ABS(a);
    return;
  }
#if PSCR_COMPLEX
  double nb = S_ABS(beta);
  if (S_ISZERO(a)) {
    *c = 0;
    *s = S_SCALE(1.0 / nb, S_CONJ(beta));
    *r = S_REAL(nb);
    *ar = nb;
    return;
  }
  double na = S_ABS(a), nrm = hypot(na, nb);
  scalar ph = S_SCALE(1.0 / na, a);
  *c = na / nrm;
  *s = S_SCALE(1.0 / nrm, S_MUL(ph, S_CONJ(beta)));
  *r = S_SCALE(nrm, ph);
  *ar = nrm;
#else
  double t2 = a * a + beta * beta;
  double nrm = (t2 > 1e-290 && t2 < 1e290) ? sqrt(t2) : hypot(a, beta);
  *c = a / nrm;
  *s = beta / nrm;
  *r = nrm;
  *ar = nrm;
#endif
}

DEVICE scalar td_phase(scalar z) {
#if PSCR_COMPLEX
  double a = S_ABS(z);
  return a > 0 ? S_SCALE(1.0 / a, z) : S_ONE;
#else
  return z < 0 ? -1.0 : 1.0;
#endif
}

#define TD_QR_NAME td_qr_local
#define TD_QR_SP LOCAL_P
#include "common/td_qr.h"
#undef TD_QR_NAME
#undef TD_QR_SP
#define TD_QR_NAME td_qr_global
#define TD_QR_SP GLOBAL
#include "common/td_qr.h"
#undef TD_QR_NAME
#undef TD_QR_SP

/* The pair of a solved block (spike_tmpl.c take_tips). */
DEVICE void td_gs_tips(GLOBAL scalar *pr, long cnt, long i, const LOCAL_P scalar *y,
                       const LOCAL_P scalar *w, const LOCAL_P scalar *v, long m, int left,
                       int right, int st, scalar zeta, scalar db) {
  pr[TD_PR_YT * cnt + i] = y[0];
  pr[TD_PR_YB * cnt + i] = y[m - 1];
  pr[TD_PR_WT * cnt + i] = left ? w[0] : S_ZERO;
  pr[TD_PR_WB * cnt + i] = left ? w[m - 1] : S_ZERO;
  int special = st == TD_QR_SPECIAL;
  pr[TD_PR_VT * cnt + i] = !special && right ? v[0] : S_ZERO;
  pr[TD_PR_VB * cnt + i] = !special && right ? v[m - 1] : S_ZERO;
  pr[TD_PR_UT * cnt + i] = special ? v[0] : S_ZERO;
  pr[TD_PR_DB * cnt + i] = special ? db : S_ONE;
  pr[TD_PR_ZETA * cnt + i] = zeta;
  pr[TD_PR_SPEC * cnt + i] = S_REAL(special ? 1.0 : 0.0);
}

/* x = Y - V tn - W bp (a special block: U b_j, and its last unknown is b_j). */
DEVICE void td_gs_combine(LOCAL_P scalar *y, const LOCAL_P scalar *w, const LOCAL_P scalar *v,
                          long m, int has_w, int has_v, int special, scalar bp, scalar tn) {
  for (long k = 0; k < m; k++) {
    scalar x = y[k];
    if (has_v) x = S_FMS(x, v[k], tn);
    if (has_w) x = S_FMS(x, w[k], bp);
    y[k] = x;
  }
  if (special) y[m - 1] = tn;
}

/* Level 0. Group g: tile g % nt of system g / nt; P partitions per system;
 * pr (cnt = batch P pairs). */
KERNEL void td_gs_tile(TD_SRC_PARAMS, long n, long sh, int lq, long P, long nt, int phase,
                       GLOBAL scalar *pr, long cnt, GLOBAL scalar *b, GLOBAL scalar *xout,
                       GLOBAL int *flags) {
  LOCAL_ARRAY(scalar, sm, 6 * TD_GW * (TD_GQ + 1));
  LOCAL int skip;
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), q = 1 << lq, S = W * (q + 1);
  LOCAL_P scalar *sa = sm, *sd = sm + S, *sc = sm + 2 * S, *sx = sm + 3 * S;
  LOCAL_P scalar *sw = sm + 4 * S, *sv = sm + 5 * S;
  /* the partition grid starts sh rows before the system (identity rows) */
  long g = GROUP_ID(), sys = g / nt, v0 = (g - sys * nt) * W * q, r0 = v0 - sh;
  long p = (g - sys * nt) * W + t, nv = n + sh;
  int rows = (int)(nv - v0 < (long)W * q ? nv - v0 : (long)W * q);
  if (t == 0)
    skip = phase == 1 && (flags[TD_FLAG_NONFINITE] || flags[TD_FLAG_SINGULAR] ||
                          flags[TD_FLAG_FALLBACK]);
  BARRIER(); /* before any work-item may raise skip (racecheck) */
  if (!td_tile_load(TD_SRC_ARGS, sys, r0, rows, n, lq, sa, sd, sc, sx, b, 0)) {
    flags[TD_FLAG_NONFINITE] = 1;
    skip = 1;
  }
  BARRIER();
  int o = t * (q + 1), mm = rows - t * q;
  if (mm > q) mm = q;
  if (mm > 0) {
    int left = p > 0, right = p + 1 < P;
    scalar cl0 = sa[o], cr1 = sc[o + mm - 1], zeta, db;
    int st = td_qr_local(sa + o, sd + o, sc + o, sx + o, sw + o, sv + o, mm, cl0, S_ZERO, S_ZERO,
                         cr1, left, right, 0, &zeta, &db);
    long i = sys * P + p;
    if (phase == 0) {
      if (st == TD_QR_FAILED) flags[TD_FLAG_FALLBACK] = 1;
      if (st == TD_QR_WEAK) flags[TD_FLAG_REFINE] = 1;
      if (st == TD_QR_SPECIAL || !S_ISZERO(zeta)) ATOMIC_ADD(&flags[TD_FLAG_MODIFIED], 1);
      td_gs_tips(pr, cnt, i, sx + o, sw + o, sv + o, mm, left, right, st, zeta, db);
    } else {
      int special = st == TD_QR_SPECIAL;
      scalar bp = left ? pr[TD_PR_XB * cnt + i - 1] : S_ZERO;
      scalar tn = special ? pr[TD_PR_XB * cnt + i] : (right ? pr[TD_PR_XT * cnt + i + 1] : S_ZERO);
      td_gs_combine(sx + o, sw + o, sv + o, mm, left, special || right, special, bp, tn);
    }
  }
  BARRIER();
  if (phase == 1 && !skip) {
    if (xout != 0 && (flags[TD_FLAG_MODIFIED] || flags[TD_FLAG_REFINE])) {
      /* refined next: keep b, x compact */
      for (int i = t; i < rows; i += W)
        if (r0 + i >= 0) xout[sys * n + r0 + i] = sx[TD_PAD(i, lq)];
    } else {
      td_tile_store(TD_SRC_ARGS, sys, r0, rows, lq, sx, b);
    }
  }
}

/* One step of iterative refinement after modified blocks (as spike_tmpl.c):
 * b -= A x (x compact, total = batch n rows), then b = x + b once b holds the
 * correction (add = 1), or b = x (add = 0). */
KERNEL void td_gs_resid(TD_SRC_PARAMS, long n, long total, const GLOBAL scalar *x,
                        GLOBAL scalar *b, GLOBAL int *flags) {
  long g = TD_GID();
  if (g >= total) return;
  long sys = g / n, r = g - sys * n;
  scalar a, d, c;
  td_row(TD_SRC_ARGS, sys, r, n, &a, &d, &c, flags);
  scalar ax = S_MUL(d, x[g]);
  if (r > 0) ax = S_FMA(ax, a, x[g - 1]);
  if (r + 1 < n) ax = S_FMA(ax, c, x[g + 1]);
  long i = td_rhs_index(TD_SRC_ARGS, sys, r);
  b[i] = S_SUB(b[i], ax);
}

KERNEL void td_gs_addx(TD_SRC_PARAMS, long n, long total, const GLOBAL scalar *x, int add,
                       GLOBAL scalar *b) {
  long g = TD_GID();
  if (g >= total) return;
  long sys = g / n, r = g - sys * n, i = td_rhs_index(TD_SRC_ARGS, sys, r);
  b[i] = add ? S_ADD(x[g], b[i]) : x[g];
}

/* Builds the block of pairs a .. a+m-1 of system sys (spike_tmpl.c
 * build_block) into rows of local memory at o; returns the couplings. */
DEVICE void td_gs_build(const GLOBAL scalar *pr, long cnt, long base, long a, long m,
                        LOCAL_P scalar *dl, LOCAL_P scalar *d, LOCAL_P scalar *du,
                        LOCAL_P scalar *f) {
  for (long i = 0; i < m; i++) {
    long j = base + a + i;
    int last = i + 1 == m;
    scalar wt = pr[TD_PR_WT * cnt + j];
    if (a + i > 0) wt = S_ADD(wt, pr[TD_PR_ZETA * cnt + j - 1]); /* W~ = W + zeta e_1 */
    dl[2 * i] = i ? S_ONE : S_ZERO;
    d[2 * i] = i ? wt : S_ONE;
    du[2 * i] = last ? pr[TD_PR_UT * cnt + j] : pr[TD_PR_VT * cnt + j];
    f[2 * i] = pr[TD_PR_YT * cnt + j];
    dl[2 * i + 1] = i ? pr[TD_PR_WB * cnt + j] : S_ZERO;
    d[2 * i + 1] = last ? pr[TD_PR_DB * cnt + j] : pr[TD_PR_VB * cnt + j];
    du[2 * i + 1] = last ? S_ZERO : pr[TD_PR_DB * cnt + j];
    f[2 * i + 1] = pr[TD_PR_YB * cnt + j];
  }
}

/* The local solution of a block (column order of td_gs_build) into xt, xb. */
DEVICE void td_gs_scatter(GLOBAL scalar *pr, long cnt, long j0, long m, const LOCAL_P scalar *x) {
  pr[TD_PR_XT * cnt + j0] = x[0];
  for (long k = 1; k < m; k++) {
    pr[TD_PR_XT * cnt + j0 + k] = x[2 * k - 1];
    pr[TD_PR_XB * cnt + j0 + k - 1] = x[2 * k];
  }
  pr[TD_PR_XB * cnt + j0 + m - 1] = x[2 * m - 1];
}

#define TD_GS_SLOT(rows)                                                                           \
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), R = (rows) + 1, S = W * R, o = t * R;            \
  LOCAL_P scalar *sa = sm, *sd = sm + S, *sc = sm + 2 * S, *sx = sm + 3 * S;                       \
  LOCAL_P scalar *sw = sm + 4 * S, *sv = sm + 5 * S

/* A reduced level: np pairs per system in blocks of GP (G = ceil(np / GP)
 * blocks per system); one work-item per block. Y, W, V of the block rows go
 * to yb (field f of row r at yb[f * 2 cnt + r]) for td_gs_recover. */
KERNEL void td_gs_level(long np, long GP, long G, long blocks, const GLOBAL scalar *pr,
                        long cnt, GLOBAL scalar *nx, long ncnt, GLOBAL scalar *yb,
                        GLOBAL int *flags) {
  LOCAL_ARRAY(scalar, sm, 6 * TD_GS_LW * (2 * TD_GP + 1));
  TD_GS_SLOT(2 * GP);
  long gi = GROUP_ID() * W + t;
  if (gi >= blocks) return;
  long sys = gi / G, g = gi - sys * G, a = g * GP, m = np - a < GP ? np - a : GP, M = 2 * m;
  long base = sys * np;
  td_gs_build(pr, cnt, base, a, m, sa + o, sd + o, sc + o, sx + o);
  int left = g > 0, right = g + 1 < G;
  scalar cl0 = S_ZERO, cl1 = S_ZERO, cr0 = S_ZERO, cr1 = S_ZERO, zeta, db;
  if (left) {
    cl0 = S_ADD(pr[TD_PR_WT * cnt + base + a], pr[TD_PR_ZETA * cnt + base + a - 1]);
    cl1 = pr[TD_PR_WB * cnt + base + a];
  }
  if (right) {
    cr0 = pr[TD_PR_VT * cnt + base + a + m - 1];
    cr1 = pr[TD_PR_VB * cnt + base + a + m - 1];
  }
  int st = td_qr_local(sa + o, sd + o, sc + o, sx + o, sw + o, sv + o, M, cl0, cl1, cr0, cr1,
                       left, right, 0, &zeta, &db);
  if (st == TD_QR_FAILED) flags[TD_FLAG_FALLBACK] = 1;
  if (st == TD_QR_WEAK) flags[TD_FLAG_REFINE] = 1;
  long r = 2 * (base + a), c2 = 2 * cnt;
  for (long k = 0; k < M; k++) {
    yb[r + k] = sx[o + k];
    yb[c2 + r + k] = left ? sw[o + k] : S_ZERO;
    yb[2 * c2 + r + k] = (right || st == TD_QR_SPECIAL) ? sv[o + k] : S_ZERO;
  }
  td_gs_tips(nx, ncnt, sys * G + g, sx + o, sw + o, sv + o, M, left, right, st, zeta, db);
}

/* Level k from level k + 1's solution (spike_tmpl.c level_recover). */
KERNEL void td_gs_recover(long np, long GP, long G, long blocks, GLOBAL scalar *pr, long cnt,
                          const GLOBAL scalar *nx, long ncnt, const GLOBAL scalar *yb) {
  LOCAL_ARRAY(scalar, sm, 3 * TD_GS_RW * (2 * TD_GP + 1));
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), R = 2 * (int)GP + 1, S = W * R, o = t * R;
  LOCAL_P scalar *sx = sm, *sw = sm + S, *sv = sm + 2 * S;
  long gi = GROUP_ID() * W + t;
  if (gi >= blocks) return;
  long sys = gi / G, g = gi - sys * G, a = g * GP, m = np - a < GP ? np - a : GP, M = 2 * m;
  long base = sys * np, r = 2 * (base + a), c2 = 2 * cnt, i = sys * G + g;
  int special = S_ABS1(nx[TD_PR_SPEC * ncnt + i]) > 0.5;
  int has_w = g > 0, has_v = special || g + 1 < G;
  scalar tn = special ? nx[TD_PR_XB * ncnt + i] : (g + 1 < G ? nx[TD_PR_XT * ncnt + i + 1] : S_ZERO);
  scalar bp = has_w ? nx[TD_PR_XB * ncnt + i - 1] : S_ZERO;
  for (long k = 0; k < M; k++) {
    sx[o + k] = yb[r + k];
    sw[o + k] = yb[c2 + r + k];
    sv[o + k] = yb[2 * c2 + r + k];
  }
  td_gs_combine(sx + o, sw + o, sv + o, M, has_w, has_v, special, bp, tn);
  td_gs_scatter(pr, cnt, base + a, m, sx + o);
}

/* The last level (np <= TD_GS_DIRECT pairs per system): one work-item per system. */
KERNEL void td_gs_direct(long np, long batch, GLOBAL scalar *pr, long cnt, GLOBAL int *flags) {
  LOCAL_ARRAY(scalar, sm, 6 * TD_GS_DW * (2 * TD_GS_DIRECT + 1));
  TD_GS_SLOT(2 * TD_GS_DIRECT);
  long sys = GROUP_ID() * W + t;
  if (sys >= batch) return;
  scalar zeta, db;
  td_gs_build(pr, cnt, sys * np, 0, np, sa + o, sd + o, sc + o, sx + o);
  int st = td_qr_local(sa + o, sd + o, sc + o, sx + o, sw + o, sv + o, 2 * np, S_ZERO, S_ZERO,
                       S_ZERO, S_ZERO, 0, 0, 2, &zeta, &db);
  if (st != TD_QR_OK) flags[TD_FLAG_FALLBACK] = 1;
  td_gs_scatter(pr, cnt, sys * np, np, sx + o);
}

/* Fallback: every system as one partition (gspike_tmpl.c with p = 1), one
 * work-item per system, R and the spikes in global scratch: six arrays of
 * batch n (compact) at scr + k ld. x is left in the fourth (f), for td_put. */
KERNEL void td_gs_whole(TD_SRC_PARAMS, long n, long batch, long ld, GLOBAL scalar *scr,
                        const GLOBAL scalar *b, GLOBAL int *flags) {
  long sys = TD_GID();
  if (sys >= batch) return;
  long o = sys * n;
  GLOBAL scalar *dl = scr + o, *d = scr + ld + o, *du = scr + 2 * ld + o, *f = scr + 3 * ld + o;
  GLOBAL scalar *w = scr + 4 * ld + o, *v = scr + 5 * ld + o;
  for (long r = 0; r < n; r++) {
    scalar ra, rd, rc;
    td_row(TD_SRC_ARGS, sys, r, n, &ra, &rd, &rc, flags);
    dl[r] = ra;
    d[r] = rd;
    du[r] = rc;
    f[r] = b[td_rhs_index(TD_SRC_ARGS, sys, r)];
  }
  scalar zeta, db;
  int st = td_qr_global(dl, d, du, f, w, v, n, S_ZERO, S_ZERO, S_ZERO, S_ZERO, 0, 0, 1, &zeta, &db);
  if (st != TD_QR_OK) flags[TD_FLAG_SINGULAR] = 1;
}

#endif
