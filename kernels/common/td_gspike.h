/* GSPIKE on the GPU (seed 000): SPIKE with Givens-QR partitions (td_qr.h),
 * the singular-block modification, and the reduced system solved by g-Spike
 * again, level by level (seed 000 sec. 3.3 and Appendix C), as the CPU
 * version src/tridiag/spike_tmpl.c + gspike_tmpl.c does.
 *
 * Level 0: td_gs_up / td_gs_down (td_gs_tile), one work-item per partition
 * of q = 1 << lq rows, a group's W partitions loaded as one tile (coalesced,
 * padded as in td_tile.h); the grid of partitions may start sh rows before
 * the system (identity rows), which moves every partition boundary. phase 0
 * (td_gs_up) factors and writes each partition's pair
 *   t_j + wt_j b_{j-1} + vt_j t_{j+1} + ut_j b_j = yt_j
 *   db_j b_j + wb_j b_{j-1} + vb_j t_{j+1}       = yb_j
 * (t_j, b_j: first and last unknown of partition j); phase 1 factors again
 * and solves for x = Y - V t_{j+1} - W b_{j-1} (spike_tmpl.c top_recover)
 * as one column (td_gs_part).
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
#define TD_GW 64 /* work-items of td_gs_up / td_gs_down (OpenCL local sizes) */
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

/* spike.h's thresholds, but for TD_SPIKE_MODIFY: the GPU's partitions of
 * 16 rows and reduced blocks of 8 pairs met random matrices whose unmodified
 * blocks with |R_mm| in [1e-4, 1e-3) scale cost digits (PoCL, 2^22 rows
 * U(-1,1), 25 draws: normwise backward error up to 8.7e-15 after the
 * refinement step at 1e-4, 6.7e-17 at 1e-3; C128, 10 draws, none modified
 * so none refined: up to 2.0e-15 at 1e-4, 7.5e-17 at 1e-3). Modifying a
 * merely ill-conditioned block is exact (the welcome fill-in) and keeps its
 * spikes small; the CPU's partitions of thousands of rows do not need it. */
#define TD_SPIKE_DELTA 1.0e-8
#define TD_SPIKE_MODIFY 1.0e-3
#define TD_SPIKE_MENDED 1.0e-6
#define TD_SPIKE_BIG 1.0e150
#define TD_SINGULAR_TOL (4 * 2.220446049250313e-16)
#define TD_DBL_MAX 1.7976931348623157e308

#define TD_QR_OK 0
#define TD_QR_FAILED 1
#define TD_QR_SPECIAL 2

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
/* 0 for a finite value, NaN for NaN or Inf: v - v (no fast-math flags) */
DEVICE double td_nf(scalar v) {
#if PSCR_COMPLEX
  return (v.x - v.x) + (v.y - v.y);
#else
  return v - v;
#endif
}
/* max that keeps NaN */
DEVICE double td_acc(double amax, double v) {
  return v <= amax ? amax : (v > amax ? v : v + amax);
}

/* G = [c s; -conj(s) c], G [a; beta] = [r; 0], c real (seed 000 App. B); *ar = |r|,
 * *ri = 1 / r (one reciprocal of |r| gives c, s and 1 / R_kk). */
DEVICE void td_givens(scalar a, scalar beta, double *c, scalar *s, double *ar, scalar *ri) {
  if (S_ISZERO(beta)) {
    *c = 1;
    *s = S_ZERO;
    *ar = S_ABS(a);
    *ri = S_RCP(a);
    return;
  }
#if PSCR_COMPLEX
  double nb = S_ABS(beta);
  if (S_ISZERO(a)) {
    double ib = D_RCP(nb);
    *c = 0;
    *s = S_SCALE(ib, S_CONJ(beta));
    *ar = nb;
    *ri = S_REAL(ib);
    return;
  }
  double na = S_ABS(a), nrm = hypot(na, nb), inv = D_RCP(nrm);
  scalar ph = S_SCALE(D_RCP(na), a);
  *c = na * inv;
  *s = S_SCALE(inv, S_MUL(ph, S_CONJ(beta)));
  *ar = nrm;
  *ri = S_SCALE(inv, S_CONJ(ph));
#else
  double t2 = a * a + beta * beta, inv, nrm;
  if (t2 > 1e-290 && t2 < 1e290) { /* no overflow or underflow in a^2 + beta^2 */
    inv = D_RSQRT(t2);
    nrm = t2 * inv;
  } else {
    nrm = hypot(a, beta);
    inv = D_RCP(nrm);
  }
  *c = a * inv;
  *s = beta * inv;
  *ar = nrm;
  *ri = inv;
#endif
}

/* One step of the sweep: the rotation of rows k, k + 1 that zeroes beta,
 * row k + 1's sub-diagonal, under *a, row k's running diagonal (*bs: its
 * running entry in column k + 1; dn, un: row k + 1's diagonal and
 * super-diagonal). Gives row k of R as 1 / R_kk (*ri), R_{k,k+1} (*r1) and
 * R_{k,k+2} (*r2), row k + 1's running *a and *bs, the rotation (c, s) for
 * the columns (td_qr_rot); *scale and *rmin take row k + 1's entries and
 * |R_kk|. */
DEVICE void td_qr_step(scalar *a, scalar *bs, scalar beta, scalar dn, scalar un, double *scale,
                       double *rmin, double *c, scalar *s, scalar *ri, scalar *r1, scalar *r2) {
  double ar;
  *scale = td_max(*scale, td_max(S_ABS1(beta), td_max(S_ABS1(dn), S_ABS1(un))));
  td_givens(*a, beta, c, s, &ar, ri);
  if (!(ar >= *rmin)) *rmin = ar;
  scalar sc = S_CONJ(*s);
  *r1 = S_ADD(S_SCALE(*c, *bs), S_MUL(*s, dn));
  *r2 = S_MUL(*s, un);
  *a = S_SUB(S_SCALE(*c, dn), S_MUL(sc, *bs));
  *bs = S_SCALE(*c, un);
}

/* A column under that rotation: *carry (row k so far) and next (row k + 1)
 * give row k's value, returned, and row k + 1's, left in *carry. */
DEVICE scalar td_qr_rot(double c, scalar s, scalar *carry, scalar next) {
  scalar top = S_ADD(S_SCALE(c, *carry), S_MUL(s, next));
  *carry = S_SUB(S_SCALE(c, next), S_MUL(S_CONJ(s), *carry));
  return top;
}

DEVICE scalar td_phase(scalar z) {
#if PSCR_COMPLEX
  double a = S_ABS(z);
  return a > 0 ? S_SCALE(1.0 / a, z) : S_ONE;
#else
  return z < 0 ? -1.0 : 1.0;
#endif
}

/* Singularity detection and modification of sec. 2.2 once the sweep has
 * left R_mm = *a (rmin: the smallest |R_kk| above it; scale: the block's
 * largest entry, 1 for the zero block; qv = (Q^T c_R)_m, the right coupling
 * column's last entry after the sweep). Returns TD_QR_FAILED, TD_QR_SPECIAL
 * (the last block: R~ = diag(R_lead, 1)) or TD_QR_OK; a mended
 * block gets *a = R~_mm and *zeta != 0, and the caller adds zeta (Q^T c_R)
 * to R's last column above the diagonal. */
DEVICE int td_qr_mend(scalar *a, scalar qv, double rmin, double scale, long m, int right,
                      int mode, scalar *zeta) {
  double rmm = S_ABS(*a);
  *zeta = S_ZERO;
  if (m > 1 && !(rmin > (mode ? 0 : TD_SPIKE_DELTA * scale))) return TD_QR_FAILED;
  if (mode && !(rmm > TD_SINGULAR_TOL * scale)) return TD_QR_FAILED;
  if (mode || rmm >= TD_SPIKE_MODIFY * scale) return TD_QR_OK;
  if (!right && m >= 2) return TD_QR_SPECIAL;
  if (right && m >= 2) { /* R~(:, m) = R(:, m) + zeta Q^T c_R */
    scalar z = S_MUL(td_phase(*a), S_CONJ(td_phase(qv))); /* zeta q points like R_mm */
    scalar rn = S_FMA(*a, z, qv);
    if (S_ABS(qv) > 0 && S_ABS(rn) >= TD_SPIKE_MENDED * scale) {
      *a = rn;
      *zeta = z;
      return TD_QR_OK;
    }
  }
  /* A modification that cannot mend (|R~_mm| < SPIKE_MENDED scale): where
   * the CPU solves the level directly, the GPU keeps the block unmodified
   * if R_mm is still above SPIKE_DELTA scale, and the residual check after
   * level 0 mends the digits that costs; many small blocks make this
   * frequent on random matrices. */
  return rmm > TD_SPIKE_DELTA * scale ? TD_QR_OK : TD_QR_FAILED;
}

#define TD_QR_NAME td_qr_local
#define TD_QR_SP LOCAL_P
#define TD_QR_I int
#include "common/td_qr.h"
#undef TD_QR_NAME
#undef TD_QR_SP
#undef TD_QR_I
#define TD_QR_NAME td_qr_global
#define TD_QR_SP GLOBAL
#define TD_QR_I long
#include "common/td_qr.h"
#undef TD_QR_NAME
#undef TD_QR_SP
#undef TD_QR_I

/* Pair i of a solved block from the tips of its Y, W, V (spike_tmpl.c
 * take_tips); a special block gives U's top ut and db = R_mm instead of V. */
DEVICE void td_gs_pair(GLOBAL scalar *pr, long cnt, long i, scalar yt, scalar yb, scalar wt,
                       scalar wb, scalar vt, scalar vb, int special, scalar zeta, scalar db) {
  pr[TD_PR_YT * cnt + i] = yt;
  pr[TD_PR_YB * cnt + i] = yb;
  pr[TD_PR_WT * cnt + i] = wt;
  pr[TD_PR_WB * cnt + i] = wb;
  pr[TD_PR_VT * cnt + i] = special ? S_ZERO : vt;
  pr[TD_PR_VB * cnt + i] = special ? S_ZERO : vb;
  pr[TD_PR_UT * cnt + i] = special ? vt : S_ZERO;
  pr[TD_PR_DB * cnt + i] = special ? db : S_ONE;
  pr[TD_PR_ZETA * cnt + i] = zeta;
  pr[TD_PR_SPEC * cnt + i] = S_REAL(special ? 1.0 : 0.0);
}

/* The pair of a block that td_qr solved in local memory. */
DEVICE void td_gs_tips(GLOBAL scalar *pr, long cnt, long i, const LOCAL_P scalar *y,
                       const LOCAL_P scalar *w, const LOCAL_P scalar *v, long m, int left,
                       int right, int st, scalar zeta, scalar db) {
  int special = st == TD_QR_SPECIAL, hv = special || right;
  td_gs_pair(pr, cnt, i, y[0], y[m - 1], left ? w[0] : S_ZERO, left ? w[m - 1] : S_ZERO,
             hv ? v[0] : S_ZERO, hv ? v[m - 1] : S_ZERO, special, zeta, db);
}

/* Level 0 on one partition of m rows in the tile (td_tile_load's layout:
 * dl, d, du, f): td_qr's solve with one coupling entry a side, cl0 = dl[0]
 * and cr1 = du[m - 1], without storing the spikes.
 * phase 0 streams: it stores nothing. The pair needs only the tips of
 * y, w, v = R~^{-1} g for g = Q^T f, Q^T (cl0 e_1), Q^T (cr1 e_m). The
 * bottoms are g_m / R~_mm; the tops are z . g for z = R~^{-T} e_1, whose
 * forward substitution (z_k = (delta_k1 - R_{k-1,k} z_{k-1} - R_{k-2,k}
 * z_{k-2}) / R_kk) runs beside the sweep as R's rows come; only R~'s last
 * column waits for the modification. Q^T (cr1 e_m) has two nonzero entries.
 * phase 1: with bp and tn (the reduced system's b_{j-1}, and t_{j+1}, or
 * b_j for a special block) known, x = Y - W bp - V tn = R~^{-1} Q^T f' for
 * f' = f - cl0 bp e_1 - cr1 tn e_m: one column, left in f. Both phases
 * factor alike, so they take the same decisions. Returns td_qr's status;
 * *zout: zeta (0 if unmodified); *nrm, for the residual check: phase 0 the
 * largest row sum of |a_ij| within the block (NaN if an entry of the block
 * is NaN/Inf), phase 1 max |x_k| (lower bounds: S_ABS1 / sqrt 2 <= |z| in
 * complex). */
#define TD_GS_ABS_LO (PSCR_COMPLEX ? 0.7071067811865475 : 1.0)
DEVICE int td_gs_part(LOCAL_P scalar *dl, LOCAL_P scalar *d, LOCAL_P scalar *du,
                      LOCAL_P scalar *f, int m, int left, int right, int phase, scalar bp,
                      scalar tn, GLOBAL scalar *pr, long cnt, long i, scalar *zout,
                      double *nrm) {
  scalar cl0 = dl[0], cr1 = du[m - 1];
  if (phase) {
    if (left) f[0] = S_FMS(f[0], cl0, bp);
    if (right) f[m - 1] = S_FMS(f[m - 1], cr1, tn);
  }
  int hw = !phase && left;
  scalar a = d[0], bs = m > 1 ? du[0] : S_ZERO, cy = f[0], cw = hw ? cl0 : S_ZERO;
  scalar cv = right && m == 1 ? cr1 : S_ZERO, v2 = S_ZERO; /* (Q^T c_R)_m, _{m-1} */
  /* phase 0: z1, z2 = z_{k-1}, z_{k-2}; rA = R_{k-1,k}, rB = R_{k-2,k},
   * rC = R_{k-1,k+1}; ty, tw: z . g so far. z_0 = 1 / R_11 comes from
   * z_{-1} = -1, R_{-1,0} = 1, which stand for delta_k1. */
  scalar z1 = S_NEG(S_ONE), z2 = S_ZERO, rA = S_ONE, rB = S_ZERO, rC = S_ZERO;
  scalar ty = S_ZERO, tw = S_ZERO;
  double zmax = 0, fsq = S_ABS1(cy) * S_ABS1(cy); /* max |z_k|; sum |f_k|^2 >= |g_k|^2 */
  double scale = td_max(S_ABS1(a), S_ABS1(bs)), rmin = TD_DBL_MAX;
  double rs = S_ABS1(a) + S_ABS1(bs); /* row sums, the couplings left out */
  /* phase 0: 0, or NaN once an entry of A is NaN/Inf (the tile's load does
   * not check: this sweep reads every entry, couplings included) */
  double nf = phase ? 0.0 : td_nf(cl0) + td_nf(a) + td_nf(bs) + td_nf(cr1);
  for (int k = 0; k + 1 < m; k++) {
    double c;
    scalar s, ri, r1, r2, un = k + 2 < m ? du[k + 1] : S_ZERO, bk = dl[k + 1], dk = d[k + 1];
    if (!phase) {
      rs = td_max(rs, S_ABS1(bk) + S_ABS1(dk) + S_ABS1(un));
      nf += td_nf(bk) + td_nf(dk) + td_nf(un);
    }
    td_qr_step(&a, &bs, bk, dk, un, &scale, &rmin, &c, &s, &ri, &r1, &r2);
    scalar fk = f[k + 1], g = td_qr_rot(c, s, &cy, fk);
    if (phase) {
      d[k] = ri;
      du[k] = r1;
      dl[k] = r2;
      f[k] = g;
    } else {
      scalar z = S_MUL(S_FMS(S_FMS(S_ZERO, rA, z1), rB, z2), ri);
      ty = S_FMA(ty, z, g);
      zmax = td_max(zmax, S_ABS1(z)); /* a NaN z reaches ty instead */
      fsq = fma(S_ABS1(fk), S_ABS1(fk), fsq);
      if (hw) { /* Q^T (cl0 e_1): nothing enters below row 0 */
        scalar gw = S_SCALE(c, cw);
        cw = S_NEG(S_MUL(S_CONJ(s), cw));
        tw = S_FMA(tw, z, gw);
      }
      z2 = z1;
      z1 = z;
      rB = rC;
      rC = r2;
      rA = r1;
    }
    if (right && k + 2 == m) v2 = td_qr_rot(c, s, &cv, cr1); /* Q^T (cr1 e_m): cv was 0 */
  }
  if (scale == 0) scale = 1;
  scalar zeta, db = S_ONE;
  int st = td_qr_mend(&a, cv, rmin, scale, m, right, 0, &zeta);
  *zout = zeta;
  *nrm = nf == 0 ? TD_GS_ABS_LO * rs : nf;
  if (st == TD_QR_FAILED) return st;
  int special = st == TD_QR_SPECIAL;
  if (phase) {
    f[m - 1] = cy;
    if (!S_ISZERO(zeta)) du[m - 2] = S_FMA(du[m - 2], zeta, v2); /* (Q^T c_R)_{m-2} = 0 */
    /* a special block's x_m is b_j = tn: U's column joins the rows above */
    int mb = special ? m - 1 : m;
    if (special)
      f[m - 1] = tn;
    else
      d[m - 1] = S_RCP(a);
    scalar x1 = special ? tn : S_ZERO, x2 = S_ZERO;
    double xm = S_ABS1(x1);
    for (int k = mb - 1; k >= 0; k--) {
      scalar xk = f[k];
      if (k + 1 < m) xk = S_FMS(xk, du[k], x1);
      if (k + 2 < m) xk = S_FMS(xk, dl[k], x2);
      xk = S_MUL(xk, d[k]);
      f[k] = xk;
      xm = td_max(xm, S_ABS1(xk));
      x2 = x1;
      x1 = xk;
    }
    *nrm = TD_GS_ABS_LO * xm;
    return st;
  }
  /* R~'s last column: R~_{m-1,m} = R_{m-1,m} + zeta (Q^T c_R)_{m-1} */
  rA = S_FMA(rA, zeta, v2);
  scalar yt, yb, wt, wb, vt, vb;
  if (special) { /* R~ = diag(R_lead, 1); U = R_lead^{-1} R(1:m-1, m) in V's place */
    db = a;
    yt = ty;
    wt = tw;
    vt = S_FMA(S_MUL(rA, z1), rB, z2);
    yb = cy;
    wb = cw;
    vb = S_ZERO;
  } else {
    scalar ia = S_RCP(a), z = S_MUL(S_FMS(S_FMS(S_ZERO, rA, z1), rB, z2), ia);
    zmax = td_max(zmax, S_ABS1(z));
    yt = S_FMA(ty, z, cy);
    wt = S_FMA(tw, z, cw);
    vt = S_FMA(S_MUL(z, cv), z1, v2); /* z1 v2 = 0 for m = 1 (v2 = 0) */
    yb = S_MUL(cy, ia);
    wb = S_MUL(cw, ia);
    vb = S_MUL(cv, ia);
  }
  /* every term z_k g_k of the tops is at most zmax gmax: Q is orthogonal, so
   * |g_k| <= ||f||_2 and |(Q^T cl0 e_1)_k| <= |cl0| (x sqrt 2 for S_ABS1 of a
   * complex g); NaN fails too */
  double gmax = 1.5 * td_max(sqrt(fsq), hw ? S_ABS1(cl0) : 0.0);
  double amax = td_acc(zmax * gmax, td_max(S_ABS1(yt), S_ABS1(yb)));
  amax = td_acc(amax, td_max(td_max(S_ABS1(wt), S_ABS1(wb)), td_max(S_ABS1(vt), S_ABS1(vb))));
  if (!(amax <= TD_SPIKE_BIG)) return TD_QR_FAILED;
  td_gs_pair(pr, cnt, i, yt, yb, hw ? wt : S_ZERO, hw ? wb : S_ZERO, vt, vb, special, zeta,
             db);
  return st;
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

/* The residual check after level 0 (first pass, fx != 0). Partition j's
 * solve in phase 1 is backward stable for its rows with its neighbours'
 * unknowns taken as bp (row 0) and tn + zeta x_m (row m - 1): so b - A x is
 * at rounding level inside every partition and, at its ends, is
 *   a_0 (bp - x_prev)  and  c_m (tn + zeta x_m - x_next),
 * the reduced system's error seen through the couplings. That is where the
 * digits of a random matrix go (PoCL, 2^22 rows U(-1,1): junction rows up to
 * 1.4e-15 x ||A|| ||x||, every other row below 1e-16; a dominant matrix:
 * 1.3e-16 and 1.6e-16). A term above tau ||A|| ||x|| (tau = 2^-te) is mended
 * where it is: A^{-1} of a residual that lives on a few rows decays within
 * tens of rows on such matrices (1e-20 relative 32 rows away), so a window
 * of the term's rows +- K (a cluster of terms: one window) solved by Givens
 * QR (zero outside it) and added to x leaves residuals of its edge couplings
 * times the window's end values, which td_gs_fix checks.
 * That replaces the second full pass the old refinement step took. Where a
 * window fails, the host solves A d = (the failed tiles' residuals) in full
 * and adds d (td_gs_unfixed, td_gs_add).
 * fx: counts of lists 0 and 1 (tiles by parity, so that windows of one
 * launch never overlap), 2 unused words, the tiles' masks (MW = W / 16
 * words a tile; bit t % 16 of word t / 16: partition t wrote its slots, for
 * a term above the tile's own threshold, which takes the tile's max |x|),
 * list 0, list 1 (a failed window's tile T turns into -T - 1), and 2 words a
 * system: ||A||_inf (its rows' sums of |a_ij|) and max |x_i| as td_gs_lg
 * codes (atomic max keeps the largest). The host zeroes fx.
 * slot: 2 W + 6 scalars a tile: 2 t and 2 t + 1 the ends of partition t
 * (its first row's term, its last row's), 2 W, 2 W + 1 the seam terms of the
 * tile's last row and of the next tile's first row (td_gs_seam), then
 * a_0, bp of the tile's first row and c_m, tn + zeta x_m of its last. */
/* te = 53 by default (the tuning gs_fix_tau): tau ||A||_inf ||x||_inf with
 * tau = 2^-53 (PoCL, 2^20 random rows, 31 draws: worst backward error
 * 1.05e-16 after the windows, 2.2e-16 at 2^-52; a dominant matrix's
 * rounding reaches 2^-53 at 2 junction rows in 2^22) */
#define TD_GS_SW(W) (2 * (W) + 6)
#define TD_GS_MW(W) (((W) + 15) / 16)
#define TD_GS_CL 8 /* windows a round of td_gs_fix */
#define TD_GS_FB 8 /* rows td_gs_fix reads at once (one work-item's serial window) */

/* v >= 0 as an int that atomic max orders (0: none): v = m 2^e, m in [0.5,
 * 1), as (e + 1100) 2^16 + the top 16 bits of m - 0.5; td_gs_ex(code) <= v */
DEVICE int td_gs_lg(double v) {
  if (!(v > 1e-300 && v <= TD_DBL_MAX)) return 0;
  int e;
  double m = frexp(v, &e);
  return ((e + 1100) << 16) + (int)((m - 0.5) * 131072.0);
}
DEVICE double td_gs_ex(int c) {
  return c ? ldexp(0.5 + (double)(c & 0xffff) / 131072.0, (c >> 16) - 1100) : 0.0;
}
DEVICE GLOBAL int *td_gs_mask(GLOBAL int *fx, long T, long W) { return fx + 4 + T * TD_GS_MW(W); }
DEVICE GLOBAL int *td_gs_list(GLOBAL int *fx, long tiles, long W, int c) {
  return fx + 4 + tiles * (TD_GS_MW(W) + c);
}
DEVICE GLOBAL int *td_gs_sysmax(GLOBAL int *fx, long tiles, long W) {
  return td_gs_list(fx, tiles, W, 2);
}
/* 2^-te ||A|| ||x|| from their codes */
DEVICE double td_gs_thr(int ca, int cx, int te) { return ldexp(td_gs_ex(ca) * td_gs_ex(cx), -te); }
/* *w = max(*w, v); seen: *w as read earlier (most groups find it raised) */
DEVICE void td_gs_raise(GLOBAL int *w, int v, int seen) {
  if (v > seen) ATOMIC_MAX(w, v);
}
DEVICE int td_gs_bad(const GLOBAL int *flags) {
  return flags[TD_FLAG_NONFINITE] || flags[TD_FLAG_SINGULAR] || flags[TD_FLAG_FALLBACK] ||
         flags[TD_FLAG_SPECIAL0];
}

/* Level 0. Group g: tile g % nt of system g / nt; P partitions per system;
 * pr (cnt = batch P pairs). xout (first pass): where x goes if a special
 * partition makes the old refinement step necessary; xin: that step.
 * Inlined into td_gs_up (phase 0) and td_gs_down (phase 1), so each
 * compiles one phase (registers: 90 as one kernel, 78 and 62 apart). sm: the
 * tile; lw: the group's words (TD_GS_SKIP ..). */
#define TD_GS_SKIP 0 /* nothing to store: a status word was raised */
#define TD_GS_KEEP 1 /* x to xout: a special partition, refined next */
#define TD_GS_LMAX 2 /* code of the tile's ||A|| (phase 0), max |x| (1) */
DEVICE void td_gs_tile(TD_SRC_PARAMS, long n, long sh, int lq, long P, long nt, int phase,
                       GLOBAL scalar *pr, long cnt, GLOBAL scalar *b, GLOBAL scalar *xout,
                       const GLOBAL scalar *xin, GLOBAL int *fx, GLOBAL scalar *slot, int te,
                       GLOBAL int *flags, LOCAL_P scalar *sm, LOCAL_P int *lw) {
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), q = 1 << lq, S = W * (q + 1);
  LOCAL_P scalar *sa = sm, *sd = sm + S, *sc = sm + 2 * S, *sx = sm + 3 * S;
  /* the partition grid starts sh rows before the system (identity rows) */
  long g = GROUP_ID(), sys = g / nt, v0 = (g - sys * nt) * W * q, r0 = v0 - sh;
  long p = (g - sys * nt) * W + t, nv = n + sh, tiles = cnt / P * nt;
  int rows = (int)(nv - v0 < (long)W * q ? nv - v0 : (long)W * q);
  /* the system's codes, read before the tile's loads, whose latency hides
   * theirs (ncu 2^24 dominant: td_gs_down 346-352 us, as when read late) */
  GLOBAL int *sysm = fx != 0 ? td_gs_sysmax(fx, tiles, W) + 2 * sys : 0;
  int seen_a = fx != 0 ? sysm[0] : 0, seen_x = fx != 0 && phase == 1 ? sysm[1] : 0;
  int o = t * (q + 1), mm = rows - t * q, tl = (rows - 1) >> lq, left = p > 0, right = p + 1 < P;
  if (mm > q) mm = q;
  /* phase 1: the reduced system's unknowns next to this partition, also read
   * before the tile (tn: t_{j+1}, or b_j if the block is special; H100, C128
   * 2^24 dominant: 4.39-4.42x floor against 4.47-4.48x when read after it) */
  scalar bp = S_ZERO, tn = S_ZERO;
  if (phase == 1 && mm > 0) {
    if (left) bp = pr[TD_PR_XB * cnt + sys * P + p - 1];
    tn = right ? pr[TD_PR_XT * cnt + sys * P + p + 1] : pr[TD_PR_XB * cnt + sys * P + p];
  }
  if (t == 0) {
    lw[TD_GS_SKIP] = phase == 1 && (flags[TD_FLAG_NONFINITE] || flags[TD_FLAG_SINGULAR] ||
                          flags[TD_FLAG_FALLBACK]);
    lw[TD_GS_KEEP] = phase == 1 && xout != 0 && flags[TD_FLAG_SPECIAL0];
    lw[TD_GS_LMAX] = 0;
  }
  BARRIER(); /* before any work-item may raise skip (racecheck) */
  int check = fx != 0 && !lw[TD_GS_KEEP];
  /* no NaN/Inf pass: phase 0's sweep checks every entry (td_gs_part) */
  td_tile_load(TD_SRC_ARGS, sys, r0, rows, n, lq, sa, sd, sc, sx, b, 0, 0);
  if (xin != 0) /* the refinement step: the right-hand side is b - A x */
    for (int i = t; i < rows; i += W) {
      long r = r0 + i, k = sys * n + r;
      int pi = TD_PAD(i, lq);
      if (r < 0) continue;
      scalar ax = S_MUL(sd[pi], xin[k]);
      if (r > 0) ax = S_FMA(ax, sa[pi], xin[k - 1]);
      if (r + 1 < n) ax = S_FMA(ax, sc[pi], xin[k + 1]);
      sx[pi] = S_SUB(sx[pi], ax);
    }
  BARRIER();
  scalar a0 = S_ZERO, cm = S_ZERO, tnu = S_ZERO; /* the residual check's terms */
  if (mm > 0) {
    long i = sys * P + p;
    scalar zeta;
    double nrm;
    if (phase == 1) {
      a0 = sa[o];
      cm = sc[o + mm - 1];
    }
    int st = td_gs_part(sa + o, sd + o, sc + o, sx + o, mm, left, right, phase, bp, tn,
                        pr, cnt, i, &zeta, &nrm);
    if (phase == 0) {
      if (nrm != nrm) flags[TD_FLAG_NONFINITE] = 1;
      if (st == TD_QR_FAILED) flags[TD_FLAG_FALLBACK] = 1;
      if (st == TD_QR_SPECIAL) flags[TD_FLAG_SPECIAL0] = 1;
      if (st == TD_QR_SPECIAL || (st != TD_QR_FAILED && !S_ISZERO(zeta)))
        ATOMIC_ADD(&flags[TD_FLAG_MODIFIED], 1);
      if (fx != 0 && r0 + t * q >= 0) /* ||A||_inf, not from identity rows */
        ATOMIC_MAX(&lw[TD_GS_LMAX], td_gs_lg(nrm));
    } else if (check) {
      if (right) tnu = S_FMA(tn, zeta, sx[o + mm - 1]);
      ATOMIC_MAX(&lw[TD_GS_LMAX], td_gs_lg(nrm)); /* max |x| */
    }
  }
  BARRIER();
  if (phase == 0 && fx != 0 && t == 0) td_gs_raise(sysm, lw[TD_GS_LMAX], seen_a);
  if (phase == 1 && !lw[TD_GS_SKIP]) {
    if (lw[TD_GS_KEEP]) { /* a special partition: refined next, so keep b, x compact */
      for (int i = t; i < rows; i += W)
        if (r0 + i >= 0) xout[sys * n + r0 + i] = sx[TD_PAD(i, lq)];
    } else {
      if (check) {
        GLOBAL scalar *sl = slot + g * TD_GS_SW(W);
        if (mm > 0) { /* the terms of this partition's ends */
          scalar e0 = S_ZERO, e1 = S_ZERO;
          double thr = td_gs_thr(seen_a, lw[TD_GS_LMAX], te); /* the tile's max |x| */
          if (left && t > 0) e0 = S_MUL(a0, S_SUB(bp, sx[o - 2])); /* x_prev: row t q - 1 */
          if (right && t < tl) e1 = S_MUL(cm, S_SUB(tnu, sx[o + q + 1])); /* x_next: (t + 1) q */
          if (mm == 1) { /* one row: both terms are its */
            e0 = S_ADD(e0, e1);
            e1 = S_ZERO;
          }
          if (td_max(S_ABS(e0), S_ABS(e1)) > thr) {
            sl[2 * t] = e0;
            sl[2 * t + 1] = e1;
            ATOMIC_ADD(td_gs_mask(fx, g, W) + (t >> 4), 1 << (t & 15));
          }
        }
        if (t == 0) {
          sl[2 * W + 2] = a0;
          sl[2 * W + 3] = bp;
          td_gs_raise(sysm + 1, lw[TD_GS_LMAX], seen_x);
        }
        if (t == tl) {
          sl[2 * W + 4] = cm;
          sl[2 * W + 5] = tnu;
        }
      }
      if (xin != 0) /* x + the correction */
        for (int i = t; i < rows; i += W)
          if (r0 + i >= 0) sx[TD_PAD(i, lq)] = S_ADD(xin[sys * n + r0 + i], sx[TD_PAD(i, lq)]);
      td_tile_store(TD_SRC_ARGS, sys, r0, rows, lq, sx, b);
    }
  }
}

KERNEL void td_gs_up(TD_SRC_KPARAMS, long n, long sh, int lq, long P, long nt, GPTR(scalar, pr),
                     long cnt, GPTR(scalar, b), GPTR(const scalar, xin), GPTR(int, fx),
                     GPTR(int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(scalar, pr);
  GPTR_AT(scalar, b);
  GPTR_AT(const scalar, xin);
  GPTR_AT(int, fx);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, 4 * TD_GW * (TD_GQ + 1));
  LOCAL int lw[4];
  td_gs_tile(TD_SRC_ARGS, n, sh, lq, P, nt, 0, pr, cnt, b, 0, xin, fx, 0, 0, flags, sm, lw);
}

KERNEL void td_gs_down(TD_SRC_KPARAMS, long n, long sh, int lq, long P, long nt,
                       GPTR(scalar, pr), long cnt, GPTR(scalar, b), GPTR(scalar, xout),
                       GPTR(const scalar, xin), GPTR(int, fx), GPTR(scalar, slot), int te,
                       GPTR(int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(scalar, pr);
  GPTR_AT(scalar, b);
  GPTR_AT(scalar, xout);
  GPTR_AT(const scalar, xin);
  GPTR_AT(int, fx);
  GPTR_AT(scalar, slot);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, 4 * TD_GW * (TD_GQ + 1));
  LOCAL int lw[4];
  td_gs_tile(TD_SRC_ARGS, n, sh, lq, P, nt, 1, pr, cnt, b, xout, xin, fx, slot, te, flags, sm, lw);
}

/* The rows and the terms of tile T's valid slots (td_gs_down's layout): its
 * partitions' ends where its mask says they were written, and its two seam
 * rows where a next tile exists, in row order. Calls TD_GS_EACH(row, term)
 * for each. A mask word is read once for its 16 partitions (a global load
 * a partition, each waited for by its branch, made one window of
 * td_gs_fix take 50 us). */
#define TD_GS_SLOTS(T, TD_GS_EACH)                                                                 \
  {                                                                                                \
    GLOBAL scalar *sl_ = slot + (T) * TD_GS_SW(W);                                                 \
    const GLOBAL int *mk_ = td_gs_mask(fx, T, W);                                                  \
    for (long w_ = 0; w_ * 16 * q < rows; w_++) {                                                  \
      int m_ = mk_[w_];                                                                            \
      for (long t_ = w_ * 16; m_ != 0 && t_ * q < rows; t_++, m_ >>= 1)                            \
        if (m_ & 1) {                                                                              \
          TD_GS_EACH(r0 + t_ * q, sl_[2 * t_]);                                                    \
          TD_GS_EACH(r0 + (t_ * q + q < rows ? t_ * q + q : rows) - 1, sl_[2 * t_ + 1]);           \
        }                                                                                          \
    }                                                                                              \
    if (tt + 1 < nt) {                                                                             \
      TD_GS_EACH(r0 + rows - 1, sl_[2 * W]);                                                       \
      TD_GS_EACH(r0 + rows, sl_[2 * W + 1]);                                                       \
    }                                                                                              \
  }

/* Tile T's place: its system, index in it, first row and rows. */
#define TD_GS_TILE_AT(T)                                                                           \
  long sys = (T) / nt, tt = (T) - sys * nt, q = 1L << lq, r0 = tt * W * q - sh;                    \
  long rows = n + sh - tt * W * q < W * q ? n + sh - tt * W * q : W * q

/* After td_gs_down's first pass, one work-item per tile T: the terms of the
 * seam between T and T + 1 (x of both tiles is in b now), then T joins list
 * T % 2 if a term of T's slots is above tau ||A|| ||x|| of its system. */
KERNEL void td_gs_seam(TD_SRC_KPARAMS, long n, long sh, int lq, long nt, long tiles, long W,
                       GPTR(const scalar, b), GPTR(int, fx), GPTR(scalar, slot), int te,
                       GPTR(const int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(const scalar, b);
  GPTR_AT(int, fx);
  GPTR_AT(scalar, slot);
  GPTR_AT(const int, flags);
  long T = TD_GID();
  if (T >= tiles || td_gs_bad(flags)) return;
  TD_GS_TILE_AT(T);
  const GLOBAL int *sysm = td_gs_sysmax(fx, tiles, W) + 2 * sys;
  double thr = td_gs_thr(sysm[0], sysm[1], te);
  if (tt + 1 < nt) {
    GLOBAL scalar *sl = slot + T * TD_GS_SW(W), *sn = sl + TD_GS_SW(W);
    long e = r0 + rows - 1;
    scalar xe = b[td_rhs_index(TD_SRC_ARGS, sys, e)], xn = b[td_rhs_index(TD_SRC_ARGS, sys, e + 1)];
    sl[2 * W] = S_MUL(sl[2 * W + 4], S_SUB(sl[2 * W + 5], xn));
    sl[2 * W + 1] = S_MUL(sn[2 * W + 2], S_SUB(sn[2 * W + 3], xe));
  }
  int any = 0;
#define TD_GS_ABOVE(row, term) any |= S_ABS(term) > thr;
  TD_GS_SLOTS(T, TD_GS_ABOVE)
#undef TD_GS_ABOVE
  if (any) {
    int k = ATOMIC_ADD(&fx[T & 1], 1);
    td_gs_list(fx, tiles, W, (int)(T & 1))[k] = (int)T;
  }
}

/* The windows of list `color`, G work-items in groups, each work-item with
 * 4 WL scalars of scr (WL >= span + 2 K + 1): a group takes tile T; its
 * terms above tau ||A|| ||x|| form clusters (rows at most 2 K + 1 apart, a
 * cluster's rows fewer than span apart), up to TD_GS_CL a round; a
 * cluster's terms (every term of T's slots on its rows lo_c .. hi_c, no
 * other cluster's) are the right-hand side on rows lo_c - K .. hi_c + K
 * (within the system), Givens QR (td_qr_global) gives d, and x += d if d's
 * end values times the couplings out of the window stay below the
 * threshold. A round's windows are solved at once, one a work-item (one
 * work-item's serial QR of ~50 rows took 50 us: a tile's windows one after
 * another were a random solve's longest launch); the group adds them to x
 * one window after another, rows spread over its work-items, so windows
 * that overlap (a cluster cut at span) add up. */
KERNEL void td_gs_fix(TD_SRC_KPARAMS, long n, long sh, int lq, long nt, long tiles, long W,
                      int color, long K, long span, long WL, long G, GPTR(scalar, scr),
                      GPTR(scalar, b), GPTR(int, fx), GPTR(scalar, slot), int te,
                      GPTR(int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(scalar, scr);
  GPTR_AT(scalar, b);
  GPTR_AT(int, fx);
  GPTR_AT(scalar, slot);
  GPTR_AT(int, flags);
  LOCAL long clo[TD_GS_CL], chi[TD_GS_CL], wlo[TD_GS_CL], wlen[TD_GS_CL];
  LOCAL int okc[TD_GS_CL], lv[2]; /* lv: clusters this round, 1 if more follow */
  int t = (int)LOCAL_ID(), NW = (int)LOCAL_SIZE(); /* a round: one window a work-item */
  long ng = G / NW;
  if (t == 0) lv[0] = td_gs_bad(flags); /* one reading for the group's barriers */
  BARRIER();
  if (lv[0]) return;
  GLOBAL scalar *dl = scr + TD_GID() * 4 * WL, *d = dl + WL, *du = d + WL, *f = du + WL;
  long count = fx[color];
  GLOBAL int *list = td_gs_list(fx, tiles, W, color);
  for (long k = GROUP_ID(); k < count; k += ng) {
    long T = list[k];
    TD_GS_TILE_AT(T);
    const GLOBAL int *sysm = td_gs_sysmax(fx, tiles, W) + 2 * sys;
    double thr = td_gs_thr(sysm[0], sysm[1], te);
    long from = -1; /* rows <= from: mended */
    int failed = 0;
    for (;;) {
      BARRIER(); /* the last round's LOCAL words are read */
      if (t == 0) { /* the round's clusters; the slots come in row order */
        int nc = 0, more = 0;
#define TD_GS_CLUSTER(row, term)                                                                   \
  if (S_ABS(term) > thr && (row) > from && !more) {                                                \
    if (nc > 0 && (row) - chi[nc - 1] <= 2 * K + 1 && (row) - clo[nc - 1] < span)                  \
      chi[nc - 1] = (row);                                                                         \
    else if (nc < TD_GS_CL && nc < NW) {                                                           \
      clo[nc] = chi[nc] = (row);                                                                   \
      nc++;                                                                                        \
    } else                                                                                         \
      more = 1; /* the next round's */                                                             \
  }
        TD_GS_SLOTS(T, TD_GS_CLUSTER)
#undef TD_GS_CLUSTER
        lv[0] = nc;
        lv[1] = more;
      }
      BARRIER();
      int nc = lv[0];
      if (t < nc) { /* window t on work-item t's scratch */
        int c = t;
        long l0 = clo[c], h0 = chi[c];
        long lo = l0 - K > 0 ? l0 - K : 0, hi = h0 + K < n - 1 ? h0 + K : n - 1;
        long len = hi - lo + 1;
        for (long r = lo; r <= hi; r += TD_GS_FB) { /* TD_GS_FB rows' loads in flight */
          scalar ra[TD_GS_FB], rd[TD_GS_FB], rc[TD_GS_FB];
          int fin = 1;
#pragma unroll
          for (int u = 0; u < TD_GS_FB; u++)
            if (r + u <= hi) fin &= td_row_ok(TD_SRC_ARGS, sys, r + u, n, &ra[u], &rd[u], &rc[u]);
#pragma unroll
          for (int u = 0; u < TD_GS_FB; u++)
            if (r + u <= hi) {
              dl[r + u - lo] = ra[u];
              d[r + u - lo] = rd[u];
              du[r + u - lo] = rc[u];
              f[r + u - lo] = S_ZERO;
            }
          if (!fin) flags[TD_FLAG_NONFINITE] = 1;
        }
#define TD_GS_RHS(row, term)                                                                       \
  if ((row) >= l0 && (row) <= h0) f[(row) - lo] = S_ADD(f[(row) - lo], term);
        TD_GS_SLOTS(T, TD_GS_RHS)
#undef TD_GS_RHS
        scalar zeta, db, ra, rd, rc;
        int ok = td_qr_global(dl, d, du, f, f, f, len, S_ZERO, S_ZERO, S_ZERO, S_ZERO, 0, 0, 1,
                              &zeta, &db) == TD_QR_OK;
        if (ok && lo > 0) { /* row lo - 1 now misses c d_lo */
          td_row(TD_SRC_ARGS, sys, lo - 1, n, &ra, &rd, &rc, flags);
          ok = S_ABS(S_MUL(rc, f[0])) <= thr;
        }
        if (ok && hi + 1 < n) { /* row hi + 1 misses a d_hi */
          td_row(TD_SRC_ARGS, sys, hi + 1, n, &ra, &rd, &rc, flags);
          ok = S_ABS(S_MUL(ra, f[len - 1])) <= thr;
        }
        okc[c] = ok;
        wlo[c] = lo;
        wlen[c] = len;
      }
      BARRIER(); /* the windows' d (global scratch) and LOCAL words are in */
      for (int c = 0; c < nc; c++) {
        if (okc[c]) { /* x += d, the window's rows over the group */
          const GLOBAL scalar *fc = scr + (GROUP_ID() * NW + c) * 4 * WL + 3 * WL;
          for (long r = t; r < wlen[c]; r += NW) {
            long ix = td_rhs_index(TD_SRC_ARGS, sys, wlo[c] + r);
            b[ix] = S_ADD(b[ix], fc[r]);
          }
        }
        BARRIER(); /* windows that overlap add one after another */
      }
      if (t == 0) {
        for (int c = 0; c < nc; c++) {
          long l0 = clo[c], h0 = chi[c];
          if (!okc[c]) { /* the tile's terms left go to the full solve */
            failed = 1;
            continue;
          }
#define TD_GS_DONE(row, term)                                                                      \
  if ((row) >= l0 && (row) <= h0) term = S_ZERO; /* mended: not td_gs_unfixed's */
          TD_GS_SLOTS(T, TD_GS_DONE)
#undef TD_GS_DONE
        }
        if (failed) {
          list[k] = (int)(-T - 1);
          flags[TD_FLAG_REFINE] = 1;
        }
        lv[1] = lv[1] && !failed;
      }
      if (nc > 0) from = chi[nc - 1];
      BARRIER();
      if (!lv[1]) break;
    }
  }
}

/* A window failed: the terms of every failed tile that no window mended
 * into z (zero, b's layout) for a full solve of A d = z; G work-items over
 * both lists. */
KERNEL void td_gs_unfixed(TD_SRC_KPARAMS, long n, long sh, int lq, long nt, long tiles, long W,
                          long G, GPTR(scalar, z), GPTR(int, fx), GPTR(scalar, slot)) {
  TD_SRC_KAT();
  GPTR_AT(scalar, z);
  GPTR_AT(int, fx);
  GPTR_AT(scalar, slot);
  long count = fx[0] + fx[1];
  for (long k = TD_GID(); k < count && TD_GID() < G; k += G) {
    long e = k < fx[0] ? td_gs_list(fx, tiles, W, 0)[k] : td_gs_list(fx, tiles, W, 1)[k - fx[0]];
    if (e >= 0) continue; /* mended */
    long T = -e - 1;
    TD_GS_TILE_AT(T);
#define TD_GS_PUT(row, term)                                                                       \
  if ((row) >= 0) {                                                                                \
    long ix_ = td_rhs_index(TD_SRC_ARGS, sys, row);                                                \
    z[ix_] = S_ADD(z[ix_], term);                                                                  \
  }
    TD_GS_SLOTS(T, TD_GS_PUT)
#undef TD_GS_PUT
  }
}

/* b += z, one work-item per row. */
KERNEL void td_gs_add(TD_SRC_KPARAMS, long n, long total, GPTR(const scalar, z), GPTR(scalar, b)) {
  TD_SRC_KAT();
  GPTR_AT(const scalar, z);
  GPTR_AT(scalar, b);
  long k = TD_GID();
  if (k >= total) return;
  long sys = k / n, ix = td_rhs_index(TD_SRC_ARGS, sys, k - sys * n);
  b[ix] = S_ADD(b[ix], z[ix]);
}

/* Rows 2i, 2i+1 of a reduced block from pair j, its i-th (spike_tmpl.c
 * build_block); first: j is the first pair of its system (no zeta before it). */
DEVICE void td_gs_rows(const GLOBAL scalar *pr, long cnt, long j, long i, int last, int first,
                       LOCAL_P scalar *dl, LOCAL_P scalar *d, LOCAL_P scalar *du,
                       LOCAL_P scalar *f) {
  /* every load before the first store: the stores to local memory could
   * alias them (generic pointers), so loads after a store wait for it */
  scalar wt = pr[TD_PR_WT * cnt + j], z = first ? S_ZERO : pr[TD_PR_ZETA * cnt + j - 1];
  scalar u = last ? pr[TD_PR_UT * cnt + j] : pr[TD_PR_VT * cnt + j], yt = pr[TD_PR_YT * cnt + j];
  scalar wb = pr[TD_PR_WB * cnt + j], vb = pr[TD_PR_VB * cnt + j], db = pr[TD_PR_DB * cnt + j];
  scalar yb = pr[TD_PR_YB * cnt + j];
  dl[2 * i] = i ? S_ONE : S_ZERO;
  d[2 * i] = i ? S_ADD(wt, z) : S_ONE; /* W~ = W + zeta e_1 */
  du[2 * i] = u;
  f[2 * i] = yt;
  dl[2 * i + 1] = i ? wb : S_ZERO;
  d[2 * i + 1] = last ? db : vb;
  du[2 * i + 1] = last ? S_ZERO : db;
  f[2 * i + 1] = yb;
}

/* The block of pairs a .. a+m-1 of the system whose pairs start at base. */
DEVICE void td_gs_build(const GLOBAL scalar *pr, long cnt, long base, long a, long m,
                        LOCAL_P scalar *dl, LOCAL_P scalar *d, LOCAL_P scalar *du,
                        LOCAL_P scalar *f) {
  for (long i = 0; i < m; i++)
    td_gs_rows(pr, cnt, base + a + i, i, i + 1 == m, a + i == 0, dl, d, du, f);
}

/* log2 GP where every block of a level is full (GP a power of 2 dividing
 * np), else -1: td_gs_where's shift path */
DEVICE int td_gs_full(long np, long GP) {
  int l = 0;
  while ((1L << l) < GP) l++;
  return (1L << l) == GP && np % GP == 0 ? l : -1;
}

/* Where pair j of a reduced level sits (np pairs a system, blocks of GP
 * pairs, G blocks a system; lgp: td_gs_full): block *gi, index *i in it,
 * the block's *m pairs; returns 1 if j is its system's first pair. Full
 * blocks take shifts (ncu, td_gs_level at 2^24: the two divisions a pair
 * were 18 % of its instructions). */
DEVICE int td_gs_where(long j, long np, long GP, long G, int lgp, long *gi, long *i, long *m) {
  long sys, jj, g;
  if (lgp >= 0) {
    *gi = j >> lgp;
    *i = j & (GP - 1);
    *m = GP;
    return *i == 0 && (*gi <= 0x7fffffffL && G <= 0x7fffffffL ? (unsigned)*gi % (unsigned)G
                                                                : *gi % G) == 0;
  }
  if (j <= 0x7fffffffL && np <= 0x7fffffffL) { /* 32 bits: a 64-bit division is a subroutine */
    unsigned uj = (unsigned)j, un = (unsigned)np, us = uj / un;
    sys = us;
    jj = uj - us * un;
    g = (unsigned)jj / (unsigned)GP;
  } else {
    sys = j / np;
    jj = j - sys * np;
    g = jj / GP;
  }
  long a = g * GP;
  *gi = sys * G + g;
  *i = jj - a;
  *m = np - a < GP ? np - a : GP;
  return jj == 0;
}

/* The pairs [*p0, *p1) of the blocks of this group (W blocks from gi0; the
 * blocks of a level are consecutive in the pair arrays). */
DEVICE void td_gs_span(long gi0, long W, long blocks, long np, long GP, long G, long *p0,
                       long *p1) {
  long gi1 = gi0 + W < blocks ? gi0 + W : blocks, s0 = gi0 / G, s1 = (gi1 - 1) / G;
  long g1 = gi1 - 1 - s1 * G, e1 = g1 * GP + GP;
  *p0 = s0 * np + (gi0 - s0 * G) * GP;
  *p1 = s1 * np + (e1 < np ? e1 : np);
}

/* Row equilibration of a reduced block (rows of td_gs_build; the couplings
 * cl0, cl1 sit in rows 0, 1 and cr0, cr1 in rows M-2, M-1): each row times a
 * power of 2 that brings its largest entry to [1, 2). The solution and the
 * spikes stay as they are (exactly: no rounding); the block tests of
 * td_qr_mend, relative to the block's largest entry, then see the block's
 * own conditioning. Without it, the pair of a nearly singular partition
 * below (tips of 1e13 at 2^24 random rows) made every test of its block
 * fail (R_kk of 1e-6 against 1e-8 x 1e13), each grid fell back, and the
 * solve went to td_gs_whole. Zero, tiny and non-finite rows stay. */
DEVICE void td_gs_equil(LOCAL_P scalar *dl, LOCAL_P scalar *d, LOCAL_P scalar *du,
                        LOCAL_P scalar *f, int M, scalar *cl0, scalar *cl1, scalar *cr0,
                        scalar *cr1) {
  for (int r = 0; r < M; r++) {
    scalar ce = r == 0 ? *cl0 : (r == 1 ? *cl1 : S_ZERO);
    scalar cf = r + 1 == M ? *cr1 : (r + 2 == M ? *cr0 : S_ZERO);
    double mx = td_max(td_max(S_ABS1(dl[r]), S_ABS1(d[r])),
                       td_max(S_ABS1(du[r]), td_max(S_ABS1(ce), S_ABS1(cf))));
    if (!(mx > 1e-300 && mx < TD_DBL_MAX)) continue;
    /* 2^-ilogb(mx) from the exponent's bits (biased e: 2^(1023 - (e - 1023))),
     * ldexp above 2^1022, where that would leave the normal range */
    long e = (D_AS_LONG(mx) >> 52) & 0x7ff;
    double sc = e < 2045 ? D_OF_LONG((2046 - e) << 52) : ldexp(1.0, -ilogb(mx));
    dl[r] = S_SCALE(sc, dl[r]);
    d[r] = S_SCALE(sc, d[r]);
    du[r] = S_SCALE(sc, du[r]);
    f[r] = S_SCALE(sc, f[r]);
    if (r == 0) *cl0 = S_SCALE(sc, *cl0);
    if (r == 1) *cl1 = S_SCALE(sc, *cl1);
    if (r + 2 == M) *cr0 = S_SCALE(sc, *cr0);
    if (r + 1 == M) *cr1 = S_SCALE(sc, *cr1);
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
 * blocks per system); one work-item per block. The group's blocks take
 * consecutive pairs, so their rows come in and Y, W, V of the block rows go
 * out (yb, field f of row r at yb[f * 2 cnt + r], for td_gs_recover) with
 * coalesced accesses through local memory, as td_tile_load does. */
KERNEL void td_gs_level(long np, long GP, long G, long blocks, GPTR(const scalar, pr),
                        long cnt, GPTR(scalar, nx), long ncnt, GPTR(scalar, yb),
                        GPTR(int, flags)) {
  GPTR_AT(const scalar, pr);
  GPTR_AT(scalar, nx);
  GPTR_AT(scalar, yb);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, 6 * TD_GS_LW * (2 * TD_GP + 1));
  TD_GS_SLOT(2 * GP);
  long gi0 = GROUP_ID() * (long)W, gi = gi0 + t, p0, p1, c2 = 2 * cnt;
  td_gs_span(gi0, W, blocks, np, GP, G, &p0, &p1);
  int lgp = td_gs_full(np, GP);
  for (long j = p0 + t; j < p1; j += W) {
    long bj, i, mj;
    int first = td_gs_where(j, np, GP, G, lgp, &bj, &i, &mj);
    long oj = (bj - gi0) * R;
    td_gs_rows(pr, cnt, j, i, i + 1 == mj, first, sa + oj, sd + oj, sc + oj, sx + oj);
  }
  BARRIER();
  if (gi < blocks) {
    long sys = gi / G, g = gi - sys * G, a = g * GP, m = np - a < GP ? np - a : GP, M = 2 * m;
    long base = sys * np;
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
    td_gs_equil(sa + o, sd + o, sc + o, sx + o, M, &cl0, &cl1, &cr0, &cr1);
    int st = td_qr_local(sa + o, sd + o, sc + o, sx + o, sw + o, sv + o, M, cl0, cl1, cr0, cr1,
                         left, right, 0, &zeta, &db);
    if (st == TD_QR_FAILED) flags[TD_FLAG_FALLBACK] = 1;
    /* the slot's pad entry: which of W (1) and V or U (2) the block has */
    sx[o + R - 1] = S_REAL((double)(left | ((right || st == TD_QR_SPECIAL) ? 2 : 0)));
    td_gs_tips(nx, ncnt, gi, sx + o, sw + o, sv + o, M, left, right, st, zeta, db);
  }
  BARRIER();
  for (long r = 2 * p0 + t; r < 2 * p1; r += W) {
    long bj, i, mj;
    td_gs_where(r >> 1, np, GP, G, lgp, &bj, &i, &mj);
    long k = (bj - gi0) * R + 2 * i + (r & 1);
    int h = (int)S_REAL_PART(sx[(bj - gi0) * R + R - 1]);
    yb[r] = sx[k];
    yb[c2 + r] = (h & 1) ? sw[k] : S_ZERO;
    yb[2 * c2 + r] = (h & 2) ? sv[k] : S_ZERO;
  }
}

/* Level k from level k + 1's solution (spike_tmpl.c level_recover); rows in
 * and pairs out coalesced, as in td_gs_level. */
KERNEL void td_gs_recover(long np, long GP, long G, long blocks, GPTR(scalar, pr), long cnt,
                          GPTR(const scalar, nx), long ncnt, GPTR(const scalar, yb)) {
  GPTR_AT(scalar, pr);
  GPTR_AT(const scalar, nx);
  GPTR_AT(const scalar, yb);
  LOCAL_ARRAY(scalar, sm, 3 * TD_GS_RW * (2 * TD_GP + 1));
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), R = 2 * (int)GP + 1, S = W * R, o = t * R;
  LOCAL_P scalar *sx = sm, *sw = sm + S, *sv = sm + 2 * S;
  long gi0 = GROUP_ID() * (long)W, gi = gi0 + t, p0, p1, c2 = 2 * cnt;
  int lgp = td_gs_full(np, GP);
  td_gs_span(gi0, W, blocks, np, GP, G, &p0, &p1);
  for (long r = 2 * p0 + t; r < 2 * p1; r += W) {
    long bj, i, mj;
    td_gs_where(r >> 1, np, GP, G, lgp, &bj, &i, &mj);
    long k = (bj - gi0) * R + 2 * i + (r & 1);
#ifdef TD_CP_ASYNC /* every row in flight */
    TD_CP_ASYNC(&sx[k], &yb[r]);
    TD_CP_ASYNC(&sw[k], &yb[c2 + r]);
    TD_CP_ASYNC(&sv[k], &yb[2 * c2 + r]);
#else
    scalar y = yb[r], w = yb[c2 + r], v = yb[2 * c2 + r]; /* loads before stores */
    sx[k] = y;
    sw[k] = w;
    sv[k] = v;
#endif
  }
#ifdef TD_CP_ASYNC
  TD_CP_WAIT();
#endif
  BARRIER();
  if (gi < blocks) {
    long sys = gi / G, g = gi - sys * G, a = g * GP, m = np - a < GP ? np - a : GP, M = 2 * m;
    int special = S_ABS1(nx[TD_PR_SPEC * ncnt + gi]) > 0.5;
    int has_w = g > 0, has_v = special || g + 1 < G;
    scalar tn = special ? nx[TD_PR_XB * ncnt + gi] : (g + 1 < G ? nx[TD_PR_XT * ncnt + gi + 1] : S_ZERO);
    scalar bp = has_w ? nx[TD_PR_XB * ncnt + gi - 1] : S_ZERO;
    td_gs_combine(sx + o, sw + o, sv + o, M, has_w, has_v, special, bp, tn);
  }
  BARRIER();
  for (long j = p0 + t; j < p1; j += W) { /* td_gs_scatter's order */
    long bj, i, mj;
    td_gs_where(j, np, GP, G, lgp, &bj, &i, &mj);
    long k = (bj - gi0) * R;
    pr[TD_PR_XT * cnt + j] = sx[k + (i ? 2 * i - 1 : 0)];
    pr[TD_PR_XB * cnt + j] = sx[k + (i + 1 == mj ? 2 * mj - 1 : 2 * i + 2)];
  }
}

/* The last level (np <= TD_GS_DIRECT pairs per system): one work-item per system. */
KERNEL void td_gs_direct(long np, long batch, GPTR(scalar, pr), long cnt, GPTR(int, flags)) {
  GPTR_AT(scalar, pr);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, 6 * TD_GS_DW * (2 * TD_GS_DIRECT + 1));
  TD_GS_SLOT(2 * TD_GS_DIRECT);
  long sys = GROUP_ID() * W + t;
  if (sys >= batch) return;
  scalar zeta, db;
  td_gs_build(pr, cnt, sys * np, 0, np, sa + o, sd + o, sc + o, sx + o);
  scalar c0 = S_ZERO, c1 = S_ZERO, c2 = S_ZERO, c3 = S_ZERO;
  td_gs_equil(sa + o, sd + o, sc + o, sx + o, 2 * np, &c0, &c1, &c2, &c3);
  int st = td_qr_local(sa + o, sd + o, sc + o, sx + o, sw + o, sv + o, 2 * np, S_ZERO, S_ZERO,
                       S_ZERO, S_ZERO, 0, 0, 2, &zeta, &db);
  if (st != TD_QR_OK) flags[TD_FLAG_FALLBACK] = 1;
  td_gs_scatter(pr, cnt, sys * np, np, sx + o);
}

/* Fallback: every system as one partition (gspike_tmpl.c with p = 1), one
 * work-item per system, R and the spikes in global scratch: six arrays of
 * batch n (compact) at scr + k ld. x is left in the fourth (f), for td_put. */
KERNEL void td_gs_whole(TD_SRC_KPARAMS, long n, long batch, long ld, GPTR(scalar, scr),
                        GPTR(const scalar, b), GPTR(int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(scalar, scr);
  GPTR_AT(const scalar, b);
  GPTR_AT(int, flags);
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
