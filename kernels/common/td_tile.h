/* The tiled SPIKE engine behind CR_PCR_THOMAS (pivot = 0) and
 * SPIKE_DIAG_PIVOT (pivot = 1) on the GPU.
 *
 * A work-group of W work-items owns a tile of W * q rows of one system
 * (q = 1 << lq rows per work-item). It loads the tile with coalesced accesses
 * into local memory (the tiled-transpose marshaling of seed 001 section
 * III-B: row i at i + i / q, one pad per partition, so that work-item t walks
 * its partition t*(q+1) .. with stride q+1 free of bank conflicts), then
 *   1. every work-item factors its partition of q rows in place: Thomas
 *      (stage D of seed 003 section 4.4, pivot = 0) or the Erway-Marcia
 *      1x1/2x2 diagonal pivoting of seed 001 eqs. (11)-(12) (pivot = 1), with
 *      the left and right spikes (seed 001 eqs. (3)-(7));
 *   2. the partitions' node records (tops and bottoms of y, w, v) are merged
 *      pairwise in local memory, log2(W) levels (recursive SPIKE "on the
 *      fly", seed 001 section II: see td_merge_up), up to one record for the
 *      tile;
 *   3. the outside values come down the same levels, each work-item
 *      back-substitutes its partition and the tile is stored coalesced.
 * A system of at most W * q rows is one tile and one pass (td_tile_solve:
 * each input read once, x written once). Larger systems take three passes:
 * td_tile_fwd (tile records), td_tile_gup / td_tile_gdown (the tiles'
 * reduced system, 2 * W records per group and level) and td_tile_bwd (the
 * tile again, now with its outside values). td_tile_solve stores x over b as
 * soon as its system is solved; with bsave set it first keeps b's rows there
 * (compact), so that the host can put b back (td_restore of td_cr.h) when
 * another system of the batch raised a flag.
 *
 * Local memory (one buffer): A, D, C, X of W*(q+1) scalars each, then the
 * node area of 8 fields x 2W (6 record fields, then xl and xr), so
 * TD_TILE_LOCAL >= (4 (q + 1) + 16) W; the group-merge kernels use the node
 * area only (8 fields x 4W). In place after step 1: C = u, X = y, A = w, D = pivot size. */
#ifndef PSCR_TD_TILE_H
#define PSCR_TD_TILE_H

#include "common/td_rows.h"

/* A node record (a partition, or a merged run of partitions): the tops and
 * bottoms of y = A_p^{-1} f, w = A_p^{-1} (wl e_1), v = A_p^{-1} (wr e_m),
 * field f of node k at nd[f * NS + k]. */
#define TD_NODE_YT 0
#define TD_NODE_YB 1
#define TD_NODE_WT 2
#define TD_NODE_WB 3
#define TD_NODE_VT 4
#define TD_NODE_VB 5
/* After td_merge_up_n, a junction's 1 / D in its left node's YT field (the
 * way down reads only that node's bottoms): td_merge_down_n reads it instead
 * of forming the reciprocal again, the longest chain of its level. */
#define TD_NODE_RD TD_NODE_YT

/* (sqrt(5) - 1) / 2: the Bunch-Kaufman constant of seed 001. */
#define TD_KAPPA 0.61803398874989484820

DEVICE double td_max(double a, double b) { return a > b ? a : b; }

/* Defaults for a bare compile only (the host always passes TD_TILE_LOCAL and
 * TD_TW): small enough that C128 fits every GPU's static local memory. */
#ifndef TD_TQ
#define TD_TQ 8
#endif
#ifndef TD_TW
#define TD_TW 64
#endif
/* OpenCL sizes the local buffer at compile time (CUDA: by the launch). */
#ifndef TD_TILE_LOCAL
#define TD_TILE_LOCAL ((4 * (TD_TQ + 1) + 16) * TD_TW)
#endif

#define TD_PAD(i, lq) ((i) + ((i) >> (lq)))
/* One pad a partition of 2^lq rows, or a wavefront's worth of rows (2^TD_LB
 * scalars, 128 bytes) where partitions are shorter: then both the coalesced
 * copy (a wavefront's consecutive entries) and the partitions' reads (row k of
 * a wavefront's consecutive partitions) meet every bank once. TD_PAD's pad a
 * partition of 8 real rows split every half-warp's copy over 17 slots: two
 * wavefronts, not one (ncu, td_reg_bwd_s: 4 local-memory wavefronts a store
 * where 2 would do). Partition t starts at TD_BPAD(t << lq, lq). */
#define TD_LB (PSCR_COMPLEX ? 3 : 4)
#define TD_BPAD(i, lq) TD_PAD(i, (lq) > TD_LB ? (lq) : TD_LB)

/* Pass 3 of a multi-tile solve (td_tile_bwd, td_reg_bwd) takes the groups of
 * pass 1 in reverse, so its first groups read the rows pass 1 read last,
 * while they are still in L2 (50 MB on the H100). */
#ifndef TD_BWD_REV
#define TD_BWD_REV 1
#endif
#define TD_BWD_GROUP(cnt) (TD_BWD_REV ? (cnt) - 1 - GROUP_ID() : GROUP_ID())

/* Rows a work-item loads before it stores any (td_row_fetch's loads are
 * unconditional, so they overlap). H100, SPIKE_DIAG_PIVOT: 2 rows beat 1 and
 * 4 by 9-11 % (one system 2^26 3.24x against 3.49x floor at 4, batch 8192 x
 * 8192 3.64x against 3.94x); 8 took td_tile_solve from 94 to 152 registers. */
#ifndef TD_LOAD_U
#define TD_LOAD_U 2
#endif

/* Coalesced load of rows r0 .. r0 + rows - 1 of system sys into A, D, C, X;
 * with save set, b's rows are also copied to save[sys * n + row]. With check
 * set, returns 0 if an entry of A is NaN/Inf (a pass over rows an earlier pass
 * checked passes 0). Where the dialect has TD_CP_ASYNC (sm_80+) plain
 * rows go straight to local memory, all at once, the addresses 32-bit
 * offsets from the tile's first row (ncu, td_gs_down at 2^24: 64-bit index
 * math made the load 90 instructions a warp's row, 37 % of the kernel); else
 * through registers, TD_LOAD_U rows a work-item at a time. */
DEVICE int td_tile_load(TD_SRC_PARAMS, long sys, long r0, int rows, long n, int lq,
                        LOCAL_P scalar *sa, LOCAL_P scalar *sd, LOCAL_P scalar *sc,
                        LOCAL_P scalar *sx, const GLOBAL scalar *b, GLOBAL scalar *save,
                        int check) {
  int W = (int)LOCAL_SIZE(), ok = 1;
#ifdef TD_CP_ASYNC
  if (shift == 0 && rstep == 1) { /* plain rows: copied straight to local memory */
    /* tile rows lo .. hi - 1 are the system's (from ga[0]), the others identity rows */
    int lo = r0 < 0 ? (int)-r0 : 0, hi = n - r0 < (long)rows ? (int)(n - r0) : rows;
    long base = (sys0 + sys) * sstride + r0 + lo;
    const GLOBAL scalar *ga = cdl + base, *gd = cd + base, *gc = cdu + base, *gx = b + base;
    int t = (int)LOCAL_ID();
    for (int i = t; i < rows; i += W) {
      int p = TD_PAD(i, lq);
      if (i >= lo && i < hi) {
        TD_CP_ASYNC(&sa[p], &ga[i - lo]);
        TD_CP_ASYNC(&sd[p], &gd[i - lo]);
        TD_CP_ASYNC(&sc[p], &gc[i - lo]);
        TD_CP_ASYNC(&sx[p], &gx[i - lo]);
      } else {
        sa[p] = S_ZERO;
        sd[p] = S_ONE;
        sc[p] = S_ZERO;
        sx[p] = S_ZERO;
      }
    }
    TD_CP_WAIT(); /* this work-item's copies; its rows are its to finish */
    /* the couplings outside the system, by the work-items that copied them */
    if (lo == -r0 && lo < hi && lo % W == t) sa[TD_PAD(lo, lq)] = S_ZERO;
    if (hi == n - r0 && lo < hi && (hi - 1) % W == t) sc[TD_PAD(hi - 1, lq)] = S_ZERO;
    if (check || save != 0)
      for (int i = t; i < rows; i += W) {
        int p = TD_PAD(i, lq);
        if (check) ok &= S_ISFINITE(sa[p]) && S_ISFINITE(sd[p]) && S_ISFINITE(sc[p]);
        if (save != 0 && i >= lo && i < hi) save[sys * n + r0 + i] = sx[p];
      }
    return ok;
  }
#endif
  /* TD_LOAD_U rows per work-item in flight before the first store; rows
   * before the system (r0 + i < 0: the shifted partition grid of td_gspike.h)
   * are identity rows */
  for (int i0 = (int)LOCAL_ID(); i0 < rows; i0 += TD_LOAD_U * W) {
    scalar a[TD_LOAD_U], d[TD_LOAD_U], c[TD_LOAD_U], f[TD_LOAD_U];
#pragma unroll
    for (int u = 0; u < TD_LOAD_U; u++) {
      int i = i0 + u * W, oku = td_row_fetch(TD_SRC_ARGS, sys, r0 + i, n, b, &a[u], &d[u], &c[u], &f[u]);
      ok &= i < rows && check ? oku : 1;
    }
#pragma unroll
    for (int u = 0; u < TD_LOAD_U; u++) {
      int i = i0 + u * W;
      if (i < rows) {
        int p = TD_PAD(i, lq);
        sa[p] = a[u];
        sd[p] = d[u];
        sc[p] = c[u];
        sx[p] = f[u];
        if (save != 0 && r0 + i >= 0) save[sys * n + r0 + i] = f[u];
      }
    }
  }
  return ok;
}

DEVICE void td_tile_store(TD_SRC_PARAMS, long sys, long r0, int rows, int lq,
                          const LOCAL_P scalar *sx, GLOBAL scalar *b) {
  int W = (int)LOCAL_SIZE(), lo = r0 < 0 ? (int)-r0 : 0; /* rows before lo: identity rows */
  GLOBAL scalar *bx = b + td_rhs_index(TD_SRC_ARGS, sys, r0 + lo); /* row r0 + lo + i */
  if (rstep == 1)
    for (int i = (int)LOCAL_ID(); i + lo < rows; i += W) bx[i] = sx[TD_PAD(i + lo, lq)];
  else
    for (int i = (int)LOCAL_ID(); i + lo < rows; i += W) bx[i * rstep] = sx[TD_PAD(i + lo, lq)];
}

/* Step 1 on rows o .. o + mm - 1 (mm >= 1), in local memory: the partition
 * is solved for f, wl e_1 and wr e_mm at once (seed 001 eqs. (3)-(7)); every
 * pivot step leaves x_i = y_i - u_i x_next(i) (next = i + 1, or i + 2 after
 * the first row of a 2x2 pivot), so u, y, w overwrite C, X, A and D keeps the
 * pivot size. Then the node record rec[0..5] (TD_NODE_* order) and the right
 * spike's last two values (*vlast, *v2). Returns 0 on a zero pivot. */
DEVICE int td_tile_factor(LOCAL_P scalar *sa, LOCAL_P scalar *sd, LOCAL_P scalar *sc,
                          LOCAL_P scalar *sx, int o, int mm, int pivot, scalar *rec,
                          scalar *vlast_out, scalar *v2_out) {
  scalar wl = sa[o], wr = sc[o + mm - 1];
  scalar bk = sd[o], ck = mm == 1 ? S_ZERO : sc[o], fk = sx[o], gk = wl;
  scalar vlast = S_ZERO, v2 = S_ZERO;
  int k = 0;
  while (k < mm) {
    int two = 0;
    scalar a1 = S_ZERO, d1 = S_ZERO, c1 = S_ZERO, f1 = S_ZERO;
    if (k + 1 < mm) {
      a1 = sa[o + k + 1];
      d1 = sd[o + k + 1];
      c1 = k + 2 == mm ? S_ZERO : sc[o + k + 1];
      f1 = sx[o + k + 1];
      if (pivot) { /* 1x1 if |b1| sigma1 >= kappa |a2 c1| (seed 001, after eq. (12)) */
        double sigma = td_max(td_max(S_ABS1(a1), S_ABS1(d1)), td_max(S_ABS1(ck), S_ABS1(c1)));
        if (k + 2 < mm) sigma = td_max(sigma, S_ABS1(sa[o + k + 2]));
        two = S_ABS1(bk) * sigma < TD_KAPPA * S_ABS1(a1) * S_ABS1(ck);
      }
    }
    if (!two) {
      if (S_ISZERO(bk)) return 0;
      scalar r = S_RCP(bk);
      scalar u = S_MUL(ck, r), y = S_MUL(fk, r), yw = S_MUL(gk, r);
      sc[o + k] = u;
      sx[o + k] = y;
      sa[o + k] = yw;
      if (pivot) sd[o + k] = S_REAL(1.0);
      if (k + 1 == mm) {
        vlast = S_MUL(wr, r);
      } else { /* Schur complement, eq. (12) with d = 1 */
        bk = S_FMS(d1, a1, u);
        fk = S_FMS(f1, a1, y);
        gk = S_NEG(S_MUL(a1, yw));
        ck = c1;
      }
      k += 1;
    } else {
      scalar delta = S_FMS(S_MUL(bk, d1), a1, ck); /* b1 b2 - a2 c1 */
      if (S_ISZERO(delta)) return 0;
      scalar r = S_RCP(delta);
      scalar y0 = S_MUL(S_FMS(S_MUL(d1, fk), ck, f1), r);
      scalar y1 = S_MUL(S_FMS(S_MUL(bk, f1), a1, fk), r);
      scalar w0 = S_MUL(S_MUL(d1, gk), r);
      scalar w1 = S_NEG(S_MUL(S_MUL(a1, gk), r));
      scalar u0 = S_NEG(S_MUL(S_MUL(ck, c1), r));
      scalar u1 = S_MUL(S_MUL(bk, c1), r);
      sc[o + k] = u0;
      sx[o + k] = y0;
      sa[o + k] = w0;
      sd[o + k] = S_REAL(2.0);
      sc[o + k + 1] = u1;
      sx[o + k + 1] = y1;
      sa[o + k + 1] = w1;
      sd[o + k + 1] = S_REAL(1.0);
      if (k + 2 == mm) {
        v2 = S_NEG(S_MUL(S_MUL(ck, wr), r));
        vlast = S_MUL(S_MUL(bk, wr), r);
      } else { /* Schur complement, eq. (12) with d = 2 */
        scalar a2 = sa[o + k + 2], d2 = sd[o + k + 2];
        scalar c2 = k + 3 == mm ? S_ZERO : sc[o + k + 2];
        bk = S_FMS(d2, a2, u1);
        fk = S_FMS(sx[o + k + 2], a2, y1);
        gk = S_NEG(S_MUL(a2, w1));
        ck = c2;
      }
      k += 2;
    }
  }
  /* tops of y, w, v by the backward sweep; the bottoms are the last row's */
  scalar xf1 = S_ZERO, xf2 = S_ZERO, xw1 = S_ZERO, xw2 = S_ZERO, xv1 = S_ZERO, xv2 = S_ZERO;
  scalar fb = S_ZERO, wb = S_ZERO;
  for (int i = mm - 1; i >= 0; i--) {
    scalar u = sc[o + i];
    int skip = pivot && S_ABS1(sd[o + i]) > 1.5;
    scalar yv = i == mm - 1 ? vlast : (i == mm - 2 ? v2 : S_ZERO);
    scalar xf = S_FMS(sx[o + i], u, skip ? xf2 : xf1);
    scalar xw = S_FMS(sa[o + i], u, skip ? xw2 : xw1);
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
  rec[TD_NODE_YT] = xf1;
  rec[TD_NODE_YB] = fb;
  rec[TD_NODE_WT] = xw1;
  rec[TD_NODE_WB] = wb;
  rec[TD_NODE_VT] = xv1;
  rec[TD_NODE_VB] = vlast;
  *vlast_out = vlast;
  *v2_out = v2;
  return 1;
}

/* Step 3: x = y - w xl - v xr through the factors, into X. */
DEVICE void td_tile_backsub(const LOCAL_P scalar *sa, const LOCAL_P scalar *sd,
                            const LOCAL_P scalar *sc, LOCAL_P scalar *sx, int o, int mm,
                            int pivot, scalar xl, scalar xr, scalar vlast, scalar v2) {
  scalar x1 = S_ZERO, x2 = S_ZERO;
  for (int i = mm - 1; i >= 0; i--) {
    scalar y = S_FMS(sx[o + i], sa[o + i], xl);
    if (i == mm - 1) y = S_FMS(y, vlast, xr);
    if (i == mm - 2) y = S_FMS(y, v2, xr);
    int skip = pivot && S_ABS1(sd[o + i]) > 1.5;
    scalar x = S_FMS(y, sc[o + i], skip ? x2 : x1);
    sx[o + i] = x;
    x2 = x1;
    x1 = x;
  }
}

/* Excess form (the PSCR kernels, pscr_tile.h): every edge e of the system
 * has off-diagonal -A_e and row i the diagonal s_i + A_i-1 + A_i (s: the row
 * excess), so a node N with its outer edges A_L, A_R satisfies
 * A_N 1 = s + A_L e_first + A_R e_last, i.e. 1 = z - w - v with z = A_N^-1 s
 * (record fields 8, 9 of the node area: top, bottom). The junction
 * D = 1 - vLb wRt is then (1 + vLb) + (1 + wRt) - (1 + vLb)(1 + wRt) with
 * 1 + vLb = zLb - wLb and 1 + wRt = zRt - vRt: no cancellation where the rows
 * are nearly balanced (D small: the long nodes of nearly singular shifted
 * systems), whereas 1 - vLb wRt loses |log10 D| digits. */
DEVICE scalar td_junction_ex(const LOCAL_P scalar *nd, int NS, int l, int r) {
  scalar al = S_SUB(nd[9 * NS + l], nd[3 * NS + l]), be = S_SUB(nd[8 * NS + r], nd[4 * NS + r]);
  return S_FMS(S_ADD(al, be), al, be);
}

/* One junction of the merge: the adjacent records L and R (fields TD_NODE_*)
 * and rD = 1 / D (D = 1 - vLb wRt, or the excess form's) give the merged
 * record m and the coefficients c of the way down: x at R's top is
 * tR = c0 + c1 xl + c2 xr, x at L's bottom bL = c3 + c4 xl + c5 xr, for the
 * merged node's outside values xl, xr. */
DEVICE void td_junction(const scalar *L, const scalar *R, scalar rD, scalar *m, scalar *c) {
  c[0] = S_MUL(S_FMS(R[TD_NODE_YT], R[TD_NODE_WT], L[TD_NODE_YB]), rD);
  c[1] = S_MUL(S_MUL(R[TD_NODE_WT], L[TD_NODE_WB]), rD);
  c[2] = S_NEG(S_MUL(R[TD_NODE_VT], rD));
  c[3] = S_MUL(S_FMS(L[TD_NODE_YB], L[TD_NODE_VB], R[TD_NODE_YT]), rD);
  c[4] = S_NEG(S_MUL(L[TD_NODE_WB], rD));
  c[5] = S_MUL(S_MUL(L[TD_NODE_VB], R[TD_NODE_VT]), rD);
  m[TD_NODE_YT] = S_FMS(L[TD_NODE_YT], L[TD_NODE_VT], c[0]);
  m[TD_NODE_WT] = S_FMA(L[TD_NODE_WT], L[TD_NODE_VT], c[1]);
  m[TD_NODE_VT] = S_MUL(L[TD_NODE_VT], c[2]);
  m[TD_NODE_YB] = S_FMS(R[TD_NODE_YB], R[TD_NODE_WB], c[3]);
  m[TD_NODE_WB] = S_MUL(R[TD_NODE_WB], c[4]);
  m[TD_NODE_VB] = S_FMA(R[TD_NODE_VB], R[TD_NODE_WB], c[5]);
}

/* Step 2, up: node records of cnt0 nodes at nd[f * NS + k] (level 0) are
 * merged level by level (level l + 1 right after level l); returns the index
 * of the root. *bad is raised on a singular junction. A merged node S of
 * neighbours L, R keeps x_S = y_S - w_S xl - v_S xr (xl / xr: the solution
 * just outside S); at the junction the last unknown bL of L and the first tR
 * of R satisfy [1 vLb; wRt 1] [bL; tR] = [yLb - wLb xl; yRt - vRt xr],
 * D = 1 - vLb wRt (seed 001 section II). With roots > 1 the level holds
 * the trees of roots systems side by side (system j's nodes of a level after
 * system j - 1's), cnt0 = roots 2^k: the merge stops at their roots
 * off + j, and a pair never spans two systems. */
DEVICE int td_merge_up_n(LOCAL_P scalar *nd, int NS, int cnt0, LOCAL_P int *bad, int ex,
                         int roots) {
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), off = 0, cnt = cnt0;
  while (cnt > roots) {
    int cp = (cnt + 1) / 2, op = off + cnt;
    for (int k = t; k < cp; k += W) {
      int l = off + 2 * k, r = l + 1, g = op + k;
      if (2 * k + 1 >= cnt) { /* unpaired: passes up unchanged */
        for (int f = 0; f < 6; f++) nd[f * NS + g] = nd[f * NS + l];
        if (ex) {
          nd[8 * NS + g] = nd[8 * NS + l];
          nd[9 * NS + g] = nd[9 * NS + l];
        }
        continue;
      }
      scalar L[6], R[6], m[6], c[6];
      for (int f = 0; f < 6; f++) {
        L[f] = nd[f * NS + l];
        R[f] = nd[f * NS + r];
      }
      scalar D = ex ? td_junction_ex(nd, NS, l, r) : S_FMS(S_ONE, L[TD_NODE_VB], R[TD_NODE_WT]);
      if (S_ISZERO(D)) *bad = 1;
      scalar rD = S_RCP(D);
      td_junction(L, R, rD, m, c);
      for (int f = 0; f < 6; f++) nd[f * NS + g] = m[f];
      nd[TD_NODE_RD * NS + l] = rD; /* for td_merge_down_n */
      if (ex) { /* z = A^-1 s merges as y does */
        scalar zLt = nd[8 * NS + l], zLb = nd[9 * NS + l], zRt = nd[8 * NS + r];
        scalar zRb = nd[9 * NS + r];
        nd[8 * NS + g] = S_FMS(zLt, L[TD_NODE_VT], S_MUL(S_FMS(zRt, R[TD_NODE_WT], zLb), rD));
        nd[9 * NS + g] = S_FMS(zRb, R[TD_NODE_WB], S_MUL(S_FMS(zLb, L[TD_NODE_VB], zRt), rD));
      }
    }
    BARRIER();
    off = op;
    cnt = cp;
  }
  return off;
}

/* One tree (the _n forms: roots trees side by side). */
DEVICE int td_merge_up(LOCAL_P scalar *nd, int NS, int cnt0, LOCAL_P int *bad, int ex) {
  return td_merge_up_n(nd, NS, cnt0, bad, ex, 1);
}

/* Step 2, down: with the root's outside values at nd[6NS + root], nd[7NS + root],
 * every node's outside values (xl at nd[6 NS + k], xr at nd[7 NS + k]). */
DEVICE void td_merge_down_n(LOCAL_P scalar *nd, int NS, int cnt0, int ex, int roots) {
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), levels = 0, offp = 0; /* offp: the root's index, the sum of the level sizes below it */
  for (int cnt = cnt0; cnt > roots; cnt = (cnt + 1) / 2) {
    offp += cnt;
    levels++;
  }
  for (int lev = levels - 1; lev >= 0; lev--) {
    /* level lev has ceil(cnt0 / 2^lev) nodes and ends where its parents start */
    int cntc = (cnt0 + (1 << lev) - 1) >> lev, offc = offp - cntc, cntp = (cntc + 1) / 2;
    for (int k = t; k < cntp; k += W) {
      scalar xl = nd[6 * NS + offp + k], xr = nd[7 * NS + offp + k];
      int l = offc + 2 * k, r = l + 1;
      if (2 * k + 1 >= cntc) {
        nd[6 * NS + l] = xl;
        nd[7 * NS + l] = xr;
        continue;
      }
      scalar yLb = nd[NS + l], wLb = nd[3 * NS + l], vLb = nd[5 * NS + l];
      scalar yRt = nd[r], wRt = nd[2 * NS + r], vRt = nd[4 * NS + r], rD = nd[TD_NODE_RD * NS + l];
      scalar el = S_FMS(yLb, wLb, xl), er = S_FMS(yRt, vRt, xr);
      nd[6 * NS + l] = xl;
      nd[7 * NS + l] = S_MUL(S_FMS(er, wRt, el), rD); /* tR */
      nd[6 * NS + r] = S_MUL(S_FMS(el, vLb, er), rD); /* bL */
      nd[7 * NS + r] = xr;
    }
    BARRIER();
    offp = offc;
  }
}

DEVICE void td_merge_down(LOCAL_P scalar *nd, int NS, int cnt0, int ex) {
  td_merge_down_n(nd, NS, cnt0, ex, 1);
}

#ifdef TD_SHFL_DOWN_D
/* The records' merges inside a warp by shuffles, where the dialect has them
 * (TD_SHFL_DOWN_D / TD_SHFL_UP_D of a double over the warp's 32 lanes: CUDA,
 * NVIDIA's OpenCL): td_merge_up / td_merge_down's algebra with no barrier, no
 * loop bounds and no node arrays; only the warps' records go through
 * td_merge_up (td_reg.h, the tile macros below). Level lv = 0..4 pairs lane l
 * (l % 2^(lv+1) == 0, the left node) with lane l + 2^lv; the left lane keeps
 * its junction's coefficients (tR = tR0 + tRl xl + tRr xr, bL = bL0 + bLl xl
 * + bLr xr) in the warp's slot 16 / 2^lv + l / 2^(lv+1) of J (6 fields,
 * field f at J[f W]). The group's work-items: whole warps. */
#if PSCR_COMPLEX
#define TD_SHFL(op, v_, s) MAKE_Z(op((v_).x, s), op((v_).y, s))
#else
#define TD_SHFL(op, v_, s) op(v_, s)
#endif
DEVICE void td_warp_up(scalar *rec, int lane, LOCAL_P scalar *J, int W, LOCAL_P int *bad) {
#pragma unroll
  for (int lv = 0; lv < 5; lv++) {
    int s = 1 << lv;
    scalar R[6], m[6], c[6];
    for (int f = 0; f < 6; f++) R[f] = TD_SHFL(TD_SHFL_DOWN_D, rec[f], s);
    if ((lane & (2 * s - 1)) == 0) {
      scalar D = S_FMS(S_ONE, rec[TD_NODE_VB], R[TD_NODE_WT]);
      if (S_ISZERO(D)) *bad = 1;
      td_junction(rec, R, S_RCP(D), m, c);
      int k = (16 >> lv) + (lane >> (lv + 1));
      for (int f = 0; f < 6; f++) {
        J[f * W + k] = c[f];
        rec[f] = m[f];
      }
    }
  }
}

/* From the warp's outside values (*xl, *xr, every lane) to each lane's. */
DEVICE void td_warp_down(int lane, const LOCAL_P scalar *J, int W, scalar *xl, scalar *xr) {
  scalar l = *xl, r = *xr;
#pragma unroll
  for (int lv = 4; lv >= 0; lv--) {
    int s = 1 << lv, left = (lane & (2 * s - 1)) == 0;
    int k = (16 >> lv) + (lane >> (lv + 1));
    scalar tR = S_ZERO, bL = S_ZERO;
    if (left) {
      tR = S_FMA(S_FMA(J[k], J[W + k], l), J[2 * W + k], r);
      bL = S_FMA(S_FMA(J[3 * W + k], J[4 * W + k], l), J[5 * W + k], r);
    }
    scalar gl = TD_SHFL(TD_SHFL_UP_D, bL, s), gr = TD_SHFL(TD_SHFL_UP_D, r, s);
    if (left) {
      r = tR;
    } else if ((lane & (2 * s - 1)) == s) {
      l = gl;
      r = gr;
    }
  }
  *xl = l;
  *xr = r;
}
#endif

/* The top merge level inside the backward tile pass (td_tile_bwd) where a
 * system has nt <= W tiles: the group merges its system's tile
 * records (field f of tile i at recs[f * cnt + first + i], the forward
 * pass's) as td_tile_gdown would, zero outside the root, and keeps tile k's
 * outside values in xo[0], xo[1]. Every group of the system merges the same
 * records the same way, so all of them raise *bad on a singular junction.
 * It saves td_tile_gdown's launch and the outside values' round trip. */
/* A whole system's nt node records at nd[f * NS + i] (in local memory for
 * every work-item) merged up and down with nothing outside the root: each
 * node's outside values at nd[6 NS + i], nd[7 NS + i]. */
DEVICE void td_merge_closed(LOCAL_P scalar *nd, int NS, int nt, LOCAL_P int *bad) {
  int root = td_merge_up(nd, NS, nt, bad, 0);
  if (LOCAL_ID() == 0) {
    nd[6 * NS + root] = S_ZERO;
    nd[7 * NS + root] = S_ZERO;
  }
  BARRIER();
  td_merge_down(nd, NS, nt, 0);
}

DEVICE void td_merge_self(const GLOBAL scalar *recs, long cnt, long first, int nt, int k,
                          LOCAL_P scalar *nd, int NS, LOCAL_P int *bad, LOCAL_P scalar *xo) {
  int t = (int)LOCAL_ID();
  for (int i = t; i < nt; i += (int)LOCAL_SIZE())
    for (int f = 0; f < 6; f++) nd[f * NS + i] = recs[f * cnt + first + i];
  BARRIER();
  td_merge_closed(nd, NS, nt, bad);
  if (t == 0) {
    xo[0] = nd[6 * NS + k];
    xo[1] = nd[7 * NS + k];
  }
  BARRIER(); /* nd is the caller's again */
}

/* The steps shared by the one-pass, forward and backward tile kernels: the
 * local memory and the flag (bad0: raised already), then load, factor, merge
 * up. Leaves the root index; the caller's registers keep what step 3 needs. */
#define TD_TILE_DECL(bad0)                                                                         \
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);                                                          \
  LOCAL int bad;                                                                                   \
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), q = 1 << lq, S = W * (q + 1), NS = 2 * W;        \
  int plq = lq > TD_LB ? lq : TD_LB; /* the tile padded as TD_BPAD(i, lq) = TD_PAD(i, plq) */      \
  LOCAL_P scalar *sa = sm, *sd = sm + S, *sc = sm + 2 * S, *sx = sm + 3 * S, *nd = sm + 4 * S;     \
  if (t == 0) bad = (bad0)

/* Where the dialect has shuffles (TD_SHFL_DOWN_D), real tiles merge
 * their records inside each warp by them (td_warp_up, its junctions in the
 * node area J), every partition's, those past the tile's rows too (a zero
 * record); then nd, NS and P are the warps' records for td_merge_up. H100
 * against the tree alone, same call: SPIKE_DIAG_PIVOT one 2^26 random 3.16
 * -> 2.97x floor, dominant 2.76 -> 2.59x, 8192^2 2.76 -> 2.58x, 1024 x 1024
 * 4.40 -> 3.99x (one tile). Complex rows keep the tree (td_reg.h's lost). */
#ifdef TD_SHFL_DOWN_D
#define TD_TILE_WARP (!PSCR_COMPLEX)
#define TD_TILE_WARP_UP(warp)                                                                      \
  if (warp) {                                                                                      \
    td_warp_up(rec, lane, J + (t - lane), W, &bad);                                                \
    P = W / 32;                                                                                    \
    NS = 2 * P;                                                                                    \
    nd = J + 6 * W;                                                                                \
    if (lane == 0)                                                                                 \
      for (int f = 0; f < 6; f++) nd[f * NS + t / 32] = rec[f];                                    \
  } else
#define TD_TILE_WARP_DOWN(warp)                                                                    \
  if (warp) {                                                                                      \
    xl_ = nd[6 * NS + t / 32];                                                                     \
    xr_ = nd[7 * NS + t / 32];                                                                     \
    td_warp_down(lane, J + (t - lane), W, &xl_, &xr_);                                             \
  } else
#else
#define TD_TILE_WARP 0
#define TD_TILE_WARP_UP(warp)
#define TD_TILE_WARP_DOWN(warp)
#endif

#define TD_TILE_BEGIN(save, check)                                                                 \
  BARRIER();                                                                                       \
  if (!td_tile_load(TD_SRC_ARGS, sys, r0, rows, n, plq, sa, sd, sc, sx, b, save, check)) {         \
    flags[TD_FLAG_NONFINITE] = 1;                                                                  \
    bad = 1;                                                                                       \
  }                                                                                                \
  BARRIER();                                                                                       \
  int o = TD_BPAD(t << lq, lq), mm = rows - t * q, P = (rows + q - 1) / q, lane = t & 31;          \
  if (mm > q) mm = q;                                                                              \
  scalar vlast = S_ZERO, v2 = S_ZERO, rec[6];                                                      \
  for (int f = 0; f < 6; f++) rec[f] = S_ZERO;                                                     \
  if (mm > 0 && !td_tile_factor(sa, sd, sc, sx, o, mm, pivot, rec, &vlast, &v2)) {                 \
    bad = 1;                                                                                       \
    for (int f = 0; f < 6; f++) rec[f] = S_ZERO;                                                   \
  }                                                                                                \
  LOCAL_P scalar *J = nd;                                                                          \
  (void)J;                                                                                         \
  (void)lane;                                                                                      \
  TD_TILE_WARP_UP(TD_TILE_WARP) {                                                                  \
    if (mm > 0)                                                                                    \
      for (int f = 0; f < 6; f++) nd[f * NS + t] = rec[f];                                         \
  }                                                                                                \
  BARRIER();                                                                                       \
  int root = td_merge_up(nd, NS, P, &bad, 0)

#define TD_TILE_END                                                                                \
  td_merge_down(nd, NS, P, 0);                                                                     \
  scalar xl_ = S_ZERO, xr_ = S_ZERO;                                                               \
  TD_TILE_WARP_DOWN(TD_TILE_WARP) if (mm > 0) {                                                    \
    xl_ = nd[6 * NS + t];                                                                          \
    xr_ = nd[7 * NS + t];                                                                          \
  }                                                                                                \
  if (mm > 0) td_tile_backsub(sa, sd, sc, sx, o, mm, pivot, xl_, xr_, vlast, v2);                  \
  BARRIER();                                                                                       \
  if (bad) {                                                                                       \
    if (t == 0) flags[TD_FLAG_SINGULAR] = 1;                                                       \
    return;                                                                                        \
  }                                                                                                \
  td_tile_store(TD_SRC_ARGS, sys, r0, rows, plq, sx, b)

/* One group per system of n <= W q rows: every input read once, x written
 * once (and b's rows to bsave unless it is null). */
KERNEL void td_tile_solve(XBASE TD_SRC_KPARAMS_(XPTR), long n, int lq, int pivot,
                          XPTR(scalar, b), XPTR(scalar, bsave), XPTR(int, flags)) {
  TD_SRC_KAT_(XPTR);
  XPTR_AT(scalar, b);
  XPTR_AT(scalar, bsave);
  XPTR_AT(int, flags);
  long sys = GROUP_ID(), r0 = 0;
  int rows = (int)n;
  TD_TILE_DECL(0);
  TD_TILE_BEGIN(bsave, 1);
  if (t == 0) {
    nd[6 * NS + root] = S_ZERO;
    nd[7 * NS + root] = S_ZERO;
  }
  BARRIER();
  TD_TILE_END;
}

/* Pass 1 of a system of nt tiles of T rows: group g = tile g % nt of system
 * g / nt writes its tile's record (field f at rec[f * cnt + g], cnt = groups). */
KERNEL void td_tile_fwd(TD_SRC_KPARAMS, long n, int lq, int pivot, long T, long nt, long cnt,
                        GPTR(const scalar, b), GPTR(scalar, recs), GPTR(int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(const scalar, b);
  GPTR_AT(scalar, recs);
  GPTR_AT(int, flags);
  long g = GROUP_ID(), sys = g / nt, r0 = (g - sys * nt) * T;
  int rows = (int)(n - r0 < T ? n - r0 : T);
  TD_TILE_DECL(0);
  TD_TILE_BEGIN(0, 1);
  (void)vlast;
  (void)v2;
  if (bad && t == 0) flags[TD_FLAG_SINGULAR] = 1;
  if (t < 6) recs[t * cnt + g] = nd[t * NS + root];
}

/* Pass 3: the tile again, with its outside values (xl at io[g], xr at
 * io[cnt + g]; self = 1: io holds td_tile_fwd's records, merged here by
 * td_merge_self, nt <= W). */
KERNEL void td_tile_bwd(TD_SRC_KPARAMS, long n, int lq, int pivot, long T, long nt, long cnt,
                        GPTR(const scalar, io), int self, GPTR(scalar, b), GPTR(int, flags)) {
  TD_SRC_KAT();
  GPTR_AT(const scalar, io);
  GPTR_AT(scalar, b);
  GPTR_AT(int, flags);
  long g = TD_BWD_GROUP(cnt), sys = g / nt, r0 = (g - sys * nt) * T;
  int rows = (int)(n - r0 < T ? n - r0 : T);
  /* an earlier pass failed: compute (barriers stay uniform), store nothing */
  TD_TILE_DECL(flags[TD_FLAG_NONFINITE] || flags[TD_FLAG_SINGULAR]);
  LOCAL scalar xo[2];
  if (self)
    td_merge_self(io, cnt, sys * nt, (int)nt, (int)(g - sys * nt), nd, NS, &bad, xo);
  TD_TILE_BEGIN(0, 0); /* td_tile_fwd checked the rows */
  if (t == 0) {
    nd[6 * NS + root] = self ? xo[0] : io[g];
    nd[7 * NS + root] = self ? xo[1] : io[cnt + g];
  }
  BARRIER();
  TD_TILE_END;
}

/* Pass 2 on the tiles' records: group g merges children k*C .. of system
 * g / Pp (C = 2 W, Pc children and Pp = ceil(Pc / C) parents per system) into
 * parent g. Record fields at v[f * count + index] (TD_NODE_* order; ex: 8
 * fields, z top and bottom last, merged in excess form as pscr_tile.h's
 * records, node fields 8 and 9 of 10: W at most 0.8 TD_TW), outside values xl
 * at o[index], xr at o[count + index]; the node area has NS = 2 C slots per
 * field (all levels of C children). */
DEVICE int td_gmerge_load(long Pc, long cc, const GLOBAL scalar *vc, long Pp, int spg,
                          LOCAL_P scalar *nd, int NS, long *first, int ex) {
  long g = GROUP_ID(), sys = g / Pp, k = g - sys * Pp, C = NS / 2;
  long c0 = sys * Pc + k * C, m = Pc - k * C < C ? Pc - k * C : C;
  if (spg > 1) c0 = g * spg * Pc, m = cc - c0 < spg * Pc ? cc - c0 : spg * Pc;
  for (int i = (int)LOCAL_ID(); i < m; i += (int)LOCAL_SIZE())
    for (int f = 0; f < (ex ? 8 : 6); f++) nd[(f < 6 ? f : f + 2) * NS + i] = vc[f * cc + c0 + i];
  *first = c0;
  return (int)m;
}

/* A group merges 2 W records of one system (spg = 1: the records of group
 * g = sys Pp + k), or the records of spg whole systems g spg .. at once (one
 * level, Pp = 1, Pc a power of 2: their trees side by side, td_merge_up_n). */
KERNEL void td_tile_gup(long Pc, long cc, GPTR(const scalar, vc), long Pp, long cp,
                        GPTR(scalar, vp), GPTR(int, flags), int ex, int spg) {
  GPTR_AT(const scalar, vc);
  GPTR_AT(scalar, vp);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, nd, 32 * TD_TW);
  LOCAL int bad;
  int NS = 4 * (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), nf;
  long first, g0 = GROUP_ID() * spg;
  ex = PSCR_COMPLEX && ex; /* excess form: complex modules only (pscr_tile.h) */
  nf = ex ? 8 : 6;
  if (t == 0) bad = 0;
  int m = td_gmerge_load(Pc, cc, vc, Pp, spg, nd, NS, &first, ex);
  int roots = spg > 1 ? (int)(m / Pc) : 1;
  BARRIER();
  int root = td_merge_up_n(nd, NS, m, &bad, ex, roots);
  if (bad && t == 0) flags[TD_FLAG_SINGULAR] = 1;
  for (int o = t; o < roots * nf; o += (int)LOCAL_SIZE()) {
    int j = o / nf, f = o % nf;
    vp[f * cp + g0 + j] = nd[(f < 6 ? f : f + 2) * NS + root + j];
  }
}

/* The merge again, then the outside values down the tree: the parents' from
 * op, or (op null, the top level) zero. It raises SINGULAR as td_tile_gup
 * does, so the top level needs no td_tile_gup: its records were never read. */
KERNEL void td_tile_gdown(long Pc, long cc, GPTR(const scalar, vc), GPTR(scalar, oc), long Pp,
                          long cp, GPTR(const scalar, op), GPTR(int, flags), int ex, int spg) {
  GPTR_AT(const scalar, vc);
  GPTR_AT(scalar, oc);
  GPTR_AT(const scalar, op);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, nd, 32 * TD_TW);
  LOCAL int bad;
  int NS = 4 * (int)LOCAL_SIZE(), t = (int)LOCAL_ID();
  long first, g0 = GROUP_ID() * spg;
  ex = PSCR_COMPLEX && ex;
  if (t == 0) bad = 0;
  int m = td_gmerge_load(Pc, cc, vc, Pp, spg, nd, NS, &first, ex);
  int roots = spg > 1 ? (int)(m / Pc) : 1;
  BARRIER();
  int root = td_merge_up_n(nd, NS, m, &bad, ex, roots);
  if (bad && t == 0) flags[TD_FLAG_SINGULAR] = 1;
  for (int j = t; j < roots; j += (int)LOCAL_SIZE()) {
    nd[6 * NS + root + j] = op != 0 ? op[g0 + j] : S_ZERO;
    nd[7 * NS + root + j] = op != 0 ? op[cp + g0 + j] : S_ZERO;
  }
  BARRIER();
  td_merge_down_n(nd, NS, m, ex, roots);
  for (int i = t; i < m; i += (int)LOCAL_SIZE()) {
    oc[first + i] = nd[6 * NS + i];
    oc[cc + first + i] = nd[7 * NS + i];
  }
}

#endif
