/* The innermost PSCR stages fused (stage_11_td_12a / stage_21_td_22a of
 * src/backend/gpu/gpu_pscr.c) on the tile engine of td_tile.h: one work-group
 * per (vector p, task: block b, eigenpairs l0 .. l1-1[, tile]), and per
 * eigenpair
 *   - the rows of A_last + (c_p + lambda) M_last and the right-hand side
 *     (26) / (28) formed in the load (no right-hand-side array),
 *   - the system solved in local memory (factor, merge, back substitution),
 *   - the w-weighted sums (24) / (27) accumulated in local memory (no
 *     solution array);
 * then the task's sums go to their destination (a block of one task) or its
 * partial-sum slot (stage_y2b adds them). A system of n <= W q rows is one
 * tile (pscr_tile_task); longer ones take tiles of T = W q rows in two passes
 * around td_tile_gup / td_tile_gdown on the tiles' records (pscr_tile_fwd,
 * pscr_tile_bwd), as td_tile_fwd / td_tile_bwd do. pivot: 0 = Thomas
 * partitions, 1 = diagonal pivoting, -1 = AUTO per system and tile (Thomas
 * where every row is strictly dominant, the proof td_scan uses). Local
 * memory: the tile's (4 (q+1) + 16) W scalars (+ 4 W in excess form, below),
 * then nout x rows accumulators. */
#ifndef PSCR_PSCR_TILE_H
#define PSCR_PSCR_TILE_H

#include "common/pscr_stages.h"
#include "common/td_tile.h"

#define PSCR_TILE_RD 4 /* right-hand-side rows (26)/(28) whose weights sit in registers */
#define PSCR_TILE_U 4  /* rows per work-item loaded before they are stored */
#ifndef PSCR_TILE_UNROLL
#define PSCR_TILE_UNROLL 1
#endif

/* TD_TILE_LOCAL and TD_TW of this module (static local arrays: the host
 * sizes tiles and record merges by them). */
KERNEL void pscr_probe(GPTR(scalar, out)) {
  GPTR_AT(scalar, out);
  if (TD_GID() == 0) {
    out[0] = S_REAL((double)TD_TILE_LOCAL);
    out[1] = S_REAL((double)TD_TW);
  }
}

/* Excess form (lqx = lq + 16: the host's choice for complex problems, i.e.
 * Helmholtz, whose shifts make the systems indefinite): exs = asub + n holds the row excess
 * of A_last and M_last and a sign g_i per row (3 n scalars after the
 * sub-diagonal; td_junction_ex of td_tile.h). The tile then keeps
 * G (A_last + sg M_last) G, G = diag(g): off the diagonal -A_e (edge
 * weights), s_i = exa_i + sg exm_i in D, g_i f_i in X,
 * and the pivots p = t + A_k are formed as the CPU backend's Thomas sweep in
 * excess form does (cpu_pscr_inner_tmpl.c), never as d_i - o^2 / p: forming
 * d_i = ad_i + sg md_i rounds away the small part of the row that sets the
 * smallest eigenvalues, the same rounding in every row of a uniform mesh, a
 * shift error of eps |A| (2D Helmholtz 1023^2: residual 1e-10 instead of
 * 1e-12). Two more node fields (z top and bottom); D keeps the forward values
 * of z, the rows that open a 2x2 pivot are bits of a mask in registers. */
#define PSCR_EX_FIELDS(ex) (8 + 2 * (ex)) /* node-area fields of NS = 2 W scalars */

/* lq and the excess arrays (null: plain rows) from lqx; complex modules
 * only: the real kernels stay the plain ones (no registers spent on it). */
#define PSCR_TILE_LQ                                                                               \
  int lq = lqx & 15;                                                                               \
  const GLOBAL scalar *exs = PSCR_COMPLEX && (lqx >> 4) ? asub + n : 0

/* The arguments every fused kernel starts with. */
#define PSCR_TILE_PARAMS                                                                           \
  long n, int lqx, int pivot, const GLOBAL scalar *asub, const GLOBAL scalar *ad,                  \
      const GLOBAL scalar *ao, const GLOBAL scalar *msub, const GLOBAL scalar *md,                 \
      const GLOBAL scalar *mo, GLOBAL scalar *x, long xs, long lev_n, const GLOBAL long *gd,       \
      long blk, long task, long t0, long nt, const GLOBAL scalar *comp,                            \
      const GLOBAL scalar *lambda, const GLOBAL scalar *shift, int back, GLOBAL scalar *bnd,       \
      long bps
/* PSCR_TILE_PARAMS as a kernel takes them (P: GPTR, or XPTR after XBASE),
 * and their offsets applied */
#define PSCR_TILE_KPARAMS_(P)                                                                      \
  long n, int lqx, int pivot, P(const scalar, asub), P(const scalar, ad), P(const scalar, ao),     \
      P(const scalar, msub), P(const scalar, md), P(const scalar, mo), P(scalar, x), long xs,      \
      long lev_n, P(const long, gd), long blk, long task, long t0, long nt,                        \
      P(const scalar, comp), P(const scalar, lambda), P(const scalar, shift), int back,            \
      P(scalar, bnd), long bps
#define PSCR_TILE_KAT_(P)                                                                          \
  P##_AT(const scalar, asub); P##_AT(const scalar, ad); P##_AT(const scalar, ao);                  \
      P##_AT(const scalar, msub); P##_AT(const scalar, md); P##_AT(const scalar, mo);              \
      P##_AT(scalar, x); P##_AT(const long, gd); P##_AT(const scalar, comp);                       \
      P##_AT(const scalar, lambda); P##_AT(const scalar, shift); P##_AT(scalar, bnd)
#define PSCR_TILE_KPARAMS PSCR_TILE_KPARAMS_(GPTR)
#define PSCR_TILE_KAT() PSCR_TILE_KAT_(GPTR)

#define PSCR_TILE_ARGS                                                                             \
  n, lqx, pivot, asub, ad, ao, msub, md, mo, x, xs, lev_n, gd, blk, task, t0, nt, comp, lambda,    \
      shift, back, bnd, bps

/* A work-group's task (tn of vector p): its block, rows D and shift; with
 * PSCR_TILE_TASK also where its data lie. */
#define PSCR_TILE_BLOCK(tn, p)                                                                     \
  const GLOBAL long *tk = gd + task + 4 * (tn);                                                    \
  const GLOBAL long *b = gd + blk + PB_N * tk[0];                                                  \
  long nrd = b[PB_ND], nr = 2 + nrd, s0 = b[PB_S];                                                 \
  int has_s = back && s0 > 0, has_e = back && s0 + b[PB_M] < lev_n;                                \
  scalar c0 = shift[p]
#define PSCR_TILE_TASK(tn, p)                                                                      \
  PSCR_TILE_BLOCK(tn, p);                                                                          \
  const GLOBAL scalar *xp = x + (p)*xs + s0 * n;                                                   \
  const GLOBAL long *dp = gd + b[PB_D];                                                            \
  const GLOBAL scalar *gs = bnd + (p)*bps + b[PB_BS] * n

/* td_tile_factor in excess form (the rows as pscr_tile_up stores them: sa,
 * sc = -A of the edges, sd = s); the pivot p = t + A_k with
 *   1x1:  t_k+1 = s_k+1 - u_k t_k,
 *   2x2:  delta = p (s_k+1 + A_k+1) + A_k t_k,
 *         t_k+2 = s_k+2 + A_k+1 (p s_k+1 + A_k t_k) / delta,
 * starting from t = s + A_L (the partition's left edge); the forward values
 * of z = A_p^-1 s replace s in sd (no pivot sizes there: bit k of *mask
 * is set where a 2x2 pivot opens at row k), its top and bottom go to rec[6],
 * rec[7]. */
DEVICE int pscr_factor_ex(LOCAL_P scalar *sa, LOCAL_P scalar *sd, LOCAL_P scalar *sc,
                          LOCAL_P scalar *sx, int o, int mm, int pivot, scalar *rec,
                          scalar *vlast_out, scalar *v2_out, unsigned long *mask) {
  unsigned long pm = 0;
  scalar wl = sa[o], wr = sc[o + mm - 1];
  scalar tk = S_SUB(sd[o], wl), hk = sd[o];
  scalar bk = S_SUB(tk, sc[o]);
  scalar ck = mm == 1 ? S_ZERO : sc[o], fk = sx[o], gk = wl;
  scalar vlast = S_ZERO, v2 = S_ZERO;
  int k = 0;
  while (k < mm) {
    int two = 0;
    scalar a1 = S_ZERO, s1 = S_ZERO, c1r = S_ZERO, c1 = S_ZERO, d1 = S_ZERO, f1 = S_ZERO;
    if (k + 1 < mm) {
      a1 = sa[o + k + 1];
      s1 = sd[o + k + 1];
      c1r = sc[o + k + 1];
      c1 = k + 2 == mm ? S_ZERO : c1r;
      d1 = S_SUB(S_SUB(s1, a1), c1r); /* the pivot choice and the 2x2 numerators */
      f1 = sx[o + k + 1];
      if (pivot) {
        double sigma = td_max(td_max(S_ABS1(a1), S_ABS1(d1)), td_max(S_ABS1(ck), S_ABS1(c1)));
        if (k + 2 < mm) sigma = td_max(sigma, S_ABS1(sa[o + k + 2]));
        two = S_ABS1(bk) * sigma < TD_KAPPA * S_ABS1(a1) * S_ABS1(ck);
      }
    }
    if (!two) {
      if (S_ISZERO(bk)) return 0;
      scalar r = S_RCP(bk);
      scalar u = S_MUL(ck, r), y = S_MUL(fk, r), yw = S_MUL(gk, r), yz = S_MUL(hk, r);
      sc[o + k] = u;
      sx[o + k] = y;
      sa[o + k] = yw;
      sd[o + k] = yz;
      if (k + 1 == mm) {
        vlast = S_MUL(wr, r);
      } else {
        tk = S_FMS(s1, u, tk);
        bk = S_SUB(tk, c1r);
        fk = S_FMS(f1, a1, y);
        gk = S_NEG(S_MUL(a1, yw));
        hk = S_FMS(s1, a1, yz);
        ck = c1;
      }
      k += 1;
    } else {
      scalar delta = S_FMS(S_MUL(bk, S_SUB(s1, c1r)), a1, tk);
      if (S_ISZERO(delta)) return 0;
      scalar r = S_RCP(delta);
      scalar y0 = S_MUL(S_FMS(S_MUL(d1, fk), ck, f1), r);
      scalar y1 = S_MUL(S_FMS(S_MUL(bk, f1), a1, fk), r);
      scalar z0 = S_MUL(S_FMS(S_MUL(d1, hk), ck, s1), r);
      scalar z1 = S_MUL(S_FMS(S_MUL(bk, s1), a1, hk), r);
      scalar w0 = S_MUL(S_MUL(d1, gk), r);
      scalar w1 = S_NEG(S_MUL(S_MUL(a1, gk), r));
      scalar u0 = S_NEG(S_MUL(S_MUL(ck, c1), r));
      scalar u1 = S_MUL(S_MUL(bk, c1), r);
      sc[o + k] = u0;
      sx[o + k] = y0;
      sa[o + k] = w0;
      sd[o + k] = z0;
      pm |= 1UL << k;
      sc[o + k + 1] = u1;
      sx[o + k + 1] = y1;
      sa[o + k + 1] = w1;
      sd[o + k + 1] = z1;
      if (k + 2 == mm) {
        v2 = S_NEG(S_MUL(S_MUL(ck, wr), r));
        vlast = S_MUL(S_MUL(bk, wr), r);
      } else {
        scalar a2 = sa[o + k + 2], s2 = sd[o + k + 2], c2r = sc[o + k + 2];
        tk = S_FMS(s2, a2, S_MUL(S_FMS(S_MUL(bk, s1), a1, tk), r));
        bk = S_SUB(tk, c2r);
        fk = S_FMS(sx[o + k + 2], a2, y1);
        gk = S_NEG(S_MUL(a2, w1));
        hk = S_FMS(s2, a2, z1);
        ck = k + 3 == mm ? S_ZERO : c2r;
      }
      k += 2;
    }
  }
  scalar xf1 = S_ZERO, xf2 = S_ZERO, xw1 = S_ZERO, xw2 = S_ZERO, xv1 = S_ZERO, xv2 = S_ZERO;
  scalar xz1 = S_ZERO, xz2 = S_ZERO, fb = S_ZERO, wb = S_ZERO, zb = S_ZERO;
  for (int i = mm - 1; i >= 0; i--) {
    scalar u = sc[o + i];
    int skip = (int)((pm >> i) & 1UL);
    scalar yv = i == mm - 1 ? vlast : (i == mm - 2 ? v2 : S_ZERO);
    scalar xf = S_FMS(sx[o + i], u, skip ? xf2 : xf1);
    scalar xw = S_FMS(sa[o + i], u, skip ? xw2 : xw1);
    scalar xv = S_FMS(yv, u, skip ? xv2 : xv1);
    scalar xz = S_FMS(sd[o + i], u, skip ? xz2 : xz1);
    if (i == mm - 1) {
      fb = xf;
      wb = xw;
      zb = xz;
    }
    xf2 = xf1;
    xf1 = xf;
    xw2 = xw1;
    xw1 = xw;
    xv2 = xv1;
    xv1 = xv;
    xz2 = xz1;
    xz1 = xz;
  }
  rec[TD_NODE_YT] = xf1;
  rec[TD_NODE_YB] = fb;
  rec[TD_NODE_WT] = xw1;
  rec[TD_NODE_WB] = wb;
  rec[TD_NODE_VT] = xv1;
  rec[TD_NODE_VB] = vlast;
  rec[6] = xz1;
  rec[7] = zb;
  *vlast_out = vlast;
  *v2_out = v2;
  *mask = pm;
  return 1;
}

/* td_tile_backsub after pscr_factor_ex: the 2x2 pivots from its mask. */
DEVICE void pscr_backsub_ex(const LOCAL_P scalar *sa, const LOCAL_P scalar *sc, LOCAL_P scalar *sx,
                            int o, int mm, unsigned long pm, scalar xl, scalar xr, scalar vlast,
                            scalar v2) {
  scalar x1 = S_ZERO, x2 = S_ZERO;
  for (int i = mm - 1; i >= 0; i--) {
    scalar y = S_FMS(sx[o + i], sa[o + i], xl);
    if (i == mm - 1) y = S_FMS(y, vlast, xr);
    if (i == mm - 2) y = S_FMS(y, v2, xr);
    scalar x = S_FMS(y, sc[o + i], ((pm >> i) & 1UL) ? x2 : x1);
    sx[o + i] = x;
    x2 = x1;
    x1 = x;
  }
}

/* Rows r0 .. r0+rows-1 of one system (shift sg, weights w) into the tile
 * (sa, sd, sc, sx of S scalars each, then the node area), factored, and
 * merged up: returns the root; *piv the pivoting used, *vlast, *v2 for the
 * back substitution; *bad raised on a zero pivot. Ends after a barrier. */
DEVICE int pscr_tile_up(long n, int lq, int pivot, const GLOBAL scalar *asub,
                        const GLOBAL scalar *ad, const GLOBAL scalar *ao, const GLOBAL scalar *msub,
                        const GLOBAL scalar *md, const GLOBAL scalar *mo, const GLOBAL scalar *xp,
                        const GLOBAL long *dp, long nrd, const GLOBAL scalar *w, scalar sg,
                        const GLOBAL scalar *gs, int has_s, int has_e, long r0, int rows,
                        const GLOBAL scalar *exs, LOCAL_P scalar *sm, LOCAL_P int *bad,
                        LOCAL_P int *nodom, int *piv, scalar *vlast, scalar *v2,
                        unsigned long *pm) {
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), q = 1 << lq, S = W * (q + 1), NS = 2 * W;
  int ex = exs != 0;
  LOCAL_P scalar *sa = sm, *sd = sm + S, *sc = sm + 2 * S, *sx = sm + 3 * S, *nd = sm + 4 * S;
  if (t == 0) *nodom = 0;
  BARRIER();
  /* The eigenpair's weights and the block's right-hand-side rows in registers
   * (CUDA's generic pointers would reload them after every local store), and
   * PSCR_TILE_U rows per work-item loaded before any is stored: the loads of
   * a row are independent of the others', so they overlap. */
  long dk[PSCR_TILE_RD];
  scalar wk[PSCR_TILE_RD], ws = w[0], we = w[1];
  for (int k = 0; k < PSCR_TILE_RD; k++) {
    dk[k] = k < nrd ? dp[k] * n : 0;
    wk[k] = k < nrd ? w[2 + k] : S_ZERO;
  }
  int nodom_t = 0;
  for (int i0 = t; i0 < rows; i0 += PSCR_TILE_U * W) {
    scalar aa[PSCR_TILE_U], dd[PSCR_TILE_U], cc[PSCR_TILE_U], ff[PSCR_TILE_U];
    /* unrolled: complex rows were left on the stack (local memory);
     * -DPSCR_TILE_UNROLL=0 for A/B runs */
#if PSCR_TILE_UNROLL
#pragma unroll
#endif
    for (int u = 0; u < PSCR_TILE_U; u++) { /* (26) / (28) in the load */
      int i = i0 + u * W;
      long r = r0 + (i < rows ? i : rows - 1); /* clamped, so that no branch orders the loads */
      scalar f = S_ZERO;
      /* row r of A_last + sg M_last */
      td_coef_row(asub, ad, ao, msub, md, mo, sg, r, r, n, &aa[u], &dd[u], &cc[u]);
      for (int k = 0; k < PSCR_TILE_RD; k++)
        if (k < nrd) f = S_FMA(f, wk[k], xp[dk[k] + r]);
      for (long k = PSCR_TILE_RD; k < nrd; k++) f = S_FMA(f, w[2 + k], xp[dp[k] * n + r]);
      if (has_s) f = S_FMS(f, ws, gs[r]);
      if (has_e) f = S_FMS(f, we, gs[n + r]);
      if (pivot < 0 && !(S_ABS(dd[u]) > S_ABS1(aa[u]) + S_ABS1(cc[u]))) nodom_t = 1;
      if (ex) { /* G (A + sg M) G, G f, the excess s in place of d (after the check) */
        double g0 = S_REAL_PART(exs[2 * n + r]);
        double gm = r > 0 ? g0 * S_REAL_PART(exs[2 * n + r - 1]) : 0.0;
        double gp = r + 1 < n ? g0 * S_REAL_PART(exs[2 * n + r + 1]) : 0.0;
        aa[u] = S_SCALE(gm, aa[u]);
        cc[u] = S_SCALE(gp, cc[u]);
        dd[u] = S_FMA(exs[r], sg, exs[n + r]);
        f = S_SCALE(g0, f);
      }
      ff[u] = f;
    }
#if PSCR_TILE_UNROLL
#pragma unroll
#endif
    for (int u = 0; u < PSCR_TILE_U; u++) {
      int i = i0 + u * W;
      if (i >= rows) break;
      int pi = (int)TD_BPAD(i, lq);
      sa[pi] = aa[u];
      sd[pi] = dd[u];
      sc[pi] = cc[u];
      sx[pi] = ff[u];
    }
  }
  if (nodom_t) *nodom = 1;
  BARRIER();
  *piv = pivot >= 0 ? pivot : *nodom;
  int o = TD_BPAD(t << lq, lq), mm = rows - t * q, P = (rows + q - 1) / q;
  if (mm > q) mm = q;
  *vlast = S_ZERO, *v2 = S_ZERO;
  if (mm > 0) {
    scalar rec[8];
    int ok = ex ? pscr_factor_ex(sa, sd, sc, sx, o, mm, *piv, rec, vlast, v2, pm)
                : td_tile_factor(sa, sd, sc, sx, o, mm, *piv, rec, vlast, v2);
    if (!ok) {
      *bad = 1;
      for (int f = 0; f < 8; f++) rec[f] = S_ZERO;
    }
    for (int f = 0; f < 6; f++) nd[f * NS + t] = rec[f];
    if (ex) {
      nd[8 * NS + t] = rec[6];
      nd[9 * NS + t] = rec[7];
    }
  }
  BARRIER();
  return td_merge_up(nd, NS, P, bad, ex);
}

/* With the root's outside values set: down the merge tree, the back
 * substitution, and sacc[k * ld + i] += wo[k] x_i for the tile's rows. */
DEVICE void pscr_tile_down(int lq, int rows, int piv, unsigned long pm, scalar vlast, scalar v2,
                           const GLOBAL scalar *wo, long nout, LOCAL_P scalar *sm,
                           LOCAL_P scalar *sacc, long ld, const GLOBAL scalar *gsign) {
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), q = 1 << lq, S = W * (q + 1), NS = 2 * W;
  int ex = gsign != 0;
  LOCAL_P scalar *sa = sm, *sd = sm + S, *sc = sm + 2 * S, *sx = sm + 3 * S, *nd = sm + 4 * S;
  int o = TD_BPAD(t << lq, lq), mm = rows - t * q, P = (rows + q - 1) / q;
  if (mm > q) mm = q;
  BARRIER();
  td_merge_down(nd, NS, P, ex);
  if (mm > 0 && ex)
    pscr_backsub_ex(sa, sc, sx, o, mm, pm, nd[6 * NS + t], nd[7 * NS + t], vlast, v2);
  else if (mm > 0)
    td_tile_backsub(sa, sd, sc, sx, o, mm, piv, nd[6 * NS + t], nd[7 * NS + t], vlast, v2);
  BARRIER();
  scalar wr[PSCR_TILE_RD]; /* the weights in registers, as in pscr_tile_up */
  for (int k = 0; k < PSCR_TILE_RD; k++) wr[k] = k < nout ? wo[k] : S_ZERO;
  for (int i = t; i < rows; i += W) { /* (24) / (27) on the store */
    scalar xv = sx[TD_BPAD(i, lq)];
    if (ex) xv = S_SCALE(S_REAL_PART(gsign[i]), xv); /* x = G x' */
    for (int k = 0; k < PSCR_TILE_RD; k++)
      if (k < nout) sacc[k * ld + i] = S_FMA(sacc[k * ld + i], wr[k], xv);
    for (long k = PSCR_TILE_RD; k < nout; k++) sacc[k * ld + i] = S_FMA(sacc[k * ld + i], wo[k], xv);
  }
}

/* The task's sums of rows r0 .. r0+rows-1 to their destination or partial-sum
 * slot; sum k of row i at sacc[k * ld + TD_PAD(i, plq)] (PSCR_NOPAD: at i). */
#define PSCR_NOPAD 30
DEVICE void pscr_tile_put(const GLOBAL long *gd, const GLOBAL long *b, const GLOBAL long *tk,
                          int back, long nout, long p, GLOBAL scalar *x, long xs, GLOBAL scalar *vs,
                          long vps, GLOBAL scalar *acc, long nacc, long accq, long n, long r0,
                          int rows, const LOCAL_P scalar *sacc, long ld, int plq) {
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID();
  for (long k = 0; k < nout; k++) {
    GLOBAL scalar *dst = tk[3] < 0 ? pscr_dst(gd, b, back, k, p, x, xs, vs, vps, n)
                                   : acc + ((p * nacc + tk[3]) * accq + k) * n;
    for (int i = t; i < rows; i += W) dst[r0 + i] = sacc[k * ld + TD_PAD(i, plq)];
  }
}

/* The multi-tile kernels: at most 512 work-items a group caps their
 * registers at 128, as before the loads of PSCR_TILE_U rows overlapped (162
 * uncapped: 12 groups of 32 an SM instead of 16). The host asks each
 * kernel's limit. */
#define PSCR_TILE_KERNEL KERNEL_MAXW(PSCR_COMPLEX ? 256 : 512) /* complex: a 128 cap spills */

#define PSCR_TILE_UP(r0, rows)                                                                     \
  pscr_tile_up(n, lq, pivot, asub, ad, ao, msub, md, mo, xp, dp, nrd, w, sg, gs, has_s, has_e, r0, \
               rows, exs, sm, &bad, &nodom, &piv, &vlast, &v2, &pm)

/* A system of one tile: group g = task t0 + g % nt of vector g / nt. */
KERNEL void pscr_tile_task(XBASE PSCR_TILE_KPARAMS_(XPTR), XPTR(scalar, acc), long nacc,
                           long accq, XPTR(int, flags)) {
  PSCR_TILE_KAT_(XPTR);
  XPTR_AT(scalar, acc);
  XPTR_AT(int, flags);
  PSCR_TILE_LQ;
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  LOCAL int bad;
  LOCAL int nodom;
  long g = GROUP_ID(), p = g / nt;
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), rows = (int)n, NS = 2 * W, ex = exs != 0;
  LOCAL_P scalar *nd = sm + 4 * W * ((1 << lq) + 1);
  LOCAL_P scalar *sacc = nd + PSCR_EX_FIELDS(ex) * NS;
  PSCR_TILE_TASK(t0 + g % nt, p);
  long nout = back ? nrd : 2;
  for (int i = t; i < rows; i += W)
    for (long k = 0; k < nout; k++) sacc[k * n + i] = S_ZERO;
  if (t == 0) bad = 0;
  for (long l = tk[1]; l < tk[2]; l++) {
    const GLOBAL scalar *w = comp + b[PB_COMP] + l * nr;
    scalar sg = S_ADD(c0, lambda[b[PB_EIG] + l]), vlast, v2;
    int piv;
    unsigned long pm = 0;
    int root = PSCR_TILE_UP(0, rows);
    if (t == 0) {
      nd[6 * NS + root] = S_ZERO;
      nd[7 * NS + root] = S_ZERO;
    }
    pscr_tile_down(lq, rows, piv, pm, vlast, v2, w + (back ? 2 : 0), nout, sm, sacc, n,
                   ex ? exs + 2 * n : 0);
  }
  BARRIER();
  if (bad) {
    if (t == 0) flags[TD_FLAG_SINGULAR] = 1;
    return;
  }
  pscr_tile_put(gd, b, tk, back, nout, p, x, xs, bnd, bps, acc, nacc, accq, n, 0, rows, sacc, n, PSCR_NOPAD);
}

/* Pass 1 of systems of ntile tiles of T rows: group g = tile g % ntile of
 * task t0 + (g / ntile) % nt of vector g / ntile / nt writes, per eigenpair,
 * its tile's record (field f at recs[f * cnt + sys * ntile + tile], system
 * sys = p * ne + eigenpair - e0, the group's order). */
PSCR_TILE_KERNEL void pscr_tile_fwd(PSCR_TILE_KPARAMS, long e0, long ne, long ntile, long cnt,
                          GPTR(scalar, recs), GPTR(int, flags)) {
  PSCR_TILE_KAT();
  GPTR_AT(scalar, recs);
  GPTR_AT(int, flags);
  PSCR_TILE_LQ;
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  LOCAL int bad;
  LOCAL int nodom;
  long g = GROUP_ID(), kt = g % ntile, p = g / ntile / nt, T = LOCAL_SIZE() << lq, r0 = kt * T;
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), rows = (int)(n - r0 < T ? n - r0 : T);
  int ex = exs != 0, nf = ex ? 8 : 6;
  LOCAL_P scalar *nd = sm + 4 * W * ((1 << lq) + 1);
  PSCR_TILE_TASK(t0 + (g / ntile) % nt, p);
  if (t == 0) bad = 0;
  for (long l = tk[1]; l < tk[2]; l++) {
    const GLOBAL scalar *w = comp + b[PB_COMP] + l * nr;
    scalar sg = S_ADD(c0, lambda[b[PB_EIG] + l]), vlast, v2;
    int piv;
    unsigned long pm = 0;
    int root = PSCR_TILE_UP(r0, rows);
    long gi = (p * ne + b[PB_E0] + l - e0) * ntile + kt;
    if (t < nf) recs[t * cnt + gi] = nd[(t < 6 ? t : t + 2) * 2 * W + root]; /* z: fields 8, 9 */
  }
  BARRIER();
  if (bad && t == 0) flags[TD_FLAG_SINGULAR] = 1;
}

/* Pass 3: every tile again with its outside values (xl at outs[gi], xr at
 * outs[cnt + gi]), the sums of its rows accumulated and stored. */
PSCR_TILE_KERNEL void pscr_tile_bwd(PSCR_TILE_KPARAMS, long e0, long ne, long ntile, long cnt,
                          GPTR(const scalar, outs), GPTR(scalar, acc), long nacc, long accq,
                          GPTR(int, flags)) {
  PSCR_TILE_KAT();
  GPTR_AT(const scalar, outs);
  GPTR_AT(scalar, acc);
  GPTR_AT(int, flags);
  PSCR_TILE_LQ;
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  LOCAL int bad;
  LOCAL int nodom;
  long g = GROUP_ID(), kt = g % ntile, p = g / ntile / nt, T = LOCAL_SIZE() << lq, r0 = kt * T;
  int W = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), rows = (int)(n - r0 < T ? n - r0 : T);
  int NS = 2 * W, ex = exs != 0;
  LOCAL_P scalar *nd = sm + 4 * W * ((1 << lq) + 1);
  LOCAL_P scalar *sacc = nd + PSCR_EX_FIELDS(ex) * NS;
  PSCR_TILE_TASK(t0 + (g / ntile) % nt, p);
  long nout = back ? nrd : 2;
  for (int i = t; i < rows; i += W)
    for (long k = 0; k < nout; k++) sacc[k * T + i] = S_ZERO;
  if (t == 0) bad = 0;
  for (long l = tk[1]; l < tk[2]; l++) {
    const GLOBAL scalar *w = comp + b[PB_COMP] + l * nr;
    scalar sg = S_ADD(c0, lambda[b[PB_EIG] + l]), vlast, v2;
    int piv;
    unsigned long pm = 0;
    int root = PSCR_TILE_UP(r0, rows);
    long gi = (p * ne + b[PB_E0] + l - e0) * ntile + kt;
    if (t == 0) {
      nd[6 * NS + root] = outs[gi];
      nd[7 * NS + root] = outs[cnt + gi];
    }
    pscr_tile_down(lq, rows, piv, pm, vlast, v2, w + (back ? 2 : 0), nout, sm, sacc, T,
                   ex ? exs + 2 * n + r0 : 0);
  }
  BARRIER();
  if (bad) {
    if (t == 0) flags[TD_FLAG_SINGULAR] = 1;
    return;
  }
  pscr_tile_put(gd, b, tk, back, nout, p, x, xs, bnd, bps, acc, nacc, accq, n, r0, rows, sacc, T, PSCR_NOPAD);
}

#endif
