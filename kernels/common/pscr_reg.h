/* The fused innermost PSCR stages of pscr_tile.h for systems that need no
 * pivoting (real data where the plan proves every A_last + s M_last
 * positive definite, or CR_PCR_THOMAS asked for), built as td_reg.h:
 *   - a work-group holds E sub-groups of SW work-items; sub-group j solves
 *     eigenpairs l0 + j, l0 + j + E, ... of its task, so E systems of the
 *     same tile are in flight side by side;
 *   - the tile's rows of A_last, M_last and of the right-hand-side vectors of
 *     (26) / (28) are loaded into local memory once per work-group and
 *     shared by all its eigenpairs (pscr_tile.h loads them once per
 *     eigenpair, from L2 at the sizes that matter);
 *   - each work-item keeps its partition of PR_Q rows and their factors in
 *     registers (Thomas with both spikes, seed 001 eqs. (3)-(7)), and the
 *     sums (24) / (27) of the eigenpairs stay in registers until the task
 *     ends;
 *   - the E sub-groups' merge trees lie side by side and the whole group
 *     merges them level by level (td_merge_up_n / td_merge_down_n, roots =
 *     E): a level's merges fill whole warps and idle warps skip it (H100,
 *     3D Poisson 255^3 on these kernels 19.0 -> 13.1 ms against a tree a
 *     warp; bench/RESULTS.md).
 * A_last and M_last are symmetric (the plan's factors), so a row's
 * sub-diagonal is the previous row's super-diagonal. Rows past n are
 * identity rows, decoupled (row n - 1 has no super-diagonal), so every tile
 * merges SW partitions. A zero pivot gives a NaN reciprocal
 * (S_RCP) that reaches the records or x: SINGULAR. The host takes
 * pscr_tile.h's kernels where a block has more than PR_RD rows D (radix > 4).
 * Steps whose tasks hold many eigenpairs take the lane passes at the end of
 * this file instead (one eigenpair a work-item).
 * Local memory: PR_F fields of SW (PR_Q + 1) scalars (a slot for the row
 * above each partition, then its rows), then the node area of 8 x 2 E SW. */
#ifndef PSCR_PSCR_REG_H
#define PSCR_PSCR_REG_H

#include "common/pscr_tile.h"
#include "common/td_reg.h"

#define PR_LQ 3
#define PR_Q (1 << PR_LQ)
#define PR_RD 3          /* rows D of a block (radix - 1 at radix 4) */
#define PR_F (6 + PR_RD) /* fields: ad, ao, md, mo, X_0 .. X_RD-1, K̂ u, Ǩ u of (28) */
#define PR_ONE 0         /* the whole system in one tile */
#define PR_FWD 1         /* pass 1: the tiles' records to io */
#define PR_BWD 2         /* pass 3: outside values from io */

/* 1. The tile's rows r0 .. r0 + T - 1, once: field f of tile row e at
 * f S2 + pos(e), pos(e) = (e / PR_Q) (PR_Q + 1) + 1 + e % PR_Q; the slot
 * before each partition's rows holds the super-diagonals of the row above.
 * Rows past n are identity rows (decoupled: row n - 1 has no super-diagonal). */
DEVICE void pscr_reg_load(long n, const GLOBAL scalar *ad, const GLOBAL scalar *ao,
                          const GLOBAL scalar *md, const GLOBAL scalar *mo,
                          const GLOBAL scalar *xp, const GLOBAL long *dp, const GLOBAL scalar *gs,
                          int has_s, int has_e, long nrd, long r0, long T, int S2, int WG, int t,
                          LOCAL_P scalar *sm) {
  long dk[PR_RD]; /* the block's rows D in xp */
  for (int k = 0; k < PR_RD; k++) dk[k] = k < nrd ? dp[k] * n : 0;
  if (t == 0) {
    sm[S2] = r0 > 0 ? ao[r0 - 1] : S_ZERO;
    sm[3 * S2] = r0 > 0 && mo ? mo[r0 - 1] : S_ZERO;
  }
  for (int e = t; e < (int)T; e += WG) {
    long r = r0 + e;
    int in = r < n, ps = (e >> PR_LQ) * (PR_Q + 1) + 1 + (e & (PR_Q - 1));
    scalar vo = r + 1 < n ? ao[r] : S_ZERO, vmo = r + 1 < n && mo ? mo[r] : S_ZERO;
    sm[ps] = in ? ad[r] : S_ONE;
    sm[S2 + ps] = vo;
    sm[2 * S2 + ps] = in ? md[r] : S_ZERO;
    sm[3 * S2 + ps] = vmo;
    for (int k = 0; k < PR_RD; k++) sm[(4 + k) * S2 + ps] = in && k < nrd ? xp[dk[k] + r] : S_ZERO;
    sm[(4 + PR_RD) * S2 + ps] = in && has_s ? gs[r] : S_ZERO;
    sm[(5 + PR_RD) * S2 + ps] = in && has_e ? gs[n + r] : S_ZERO;
    if ((e & (PR_Q - 1)) == PR_Q - 1 && ps + 1 < S2) { /* the next partition's row above */
      sm[S2 + ps + 1] = vo;
      sm[3 * S2 + ps + 1] = vmo;
    }
  }
}

/* Row ps of A_last + sg M_last (diagonal d, super-diagonal c) and its
 * right-hand side f of (26) / (28): the weights wk of the rows D, minus ws,
 * we times the boundary terms K̂ u, Ǩ u. Fields S2 apart: ad, ao, md, mo
 * from rm, X_0 .. X_RD-1, K̂ u, Ǩ u from rx. */
DEVICE void pscr_reg_row2(const LOCAL_P scalar *rm, const LOCAL_P scalar *rx, int S2, int ps,
                          scalar sg, const scalar *wk, scalar ws, scalar we, scalar *d, scalar *c,
                          scalar *f) {
  *d = S_FMA(rm[ps], sg, rm[2 * S2 + ps]);
  *c = S_FMA(rm[S2 + ps], sg, rm[3 * S2 + ps]);
  scalar v = S_ZERO;
#pragma unroll
  for (int m = 0; m < PR_RD; m++) v = S_FMA(v, wk[m], rx[m * S2 + ps]);
  *f = S_FMS(S_FMS(v, ws, rx[PR_RD * S2 + ps]), we, rx[(PR_RD + 1) * S2 + ps]);
}

/* The same from pscr_reg_load's tile (all PR_F fields S2 apart). */
DEVICE void pscr_reg_row(const LOCAL_P scalar *rp, int S2, int ps, scalar sg, const scalar *wk,
                         scalar ws, scalar we, scalar *d, scalar *c, scalar *f) {
  pscr_reg_row2(rp, rp + 4 * S2, S2, ps, sg, wk, ws, we, d, c, f);
}

/* Eigenpair l's slot in the multi-tile records / outside values (tile kt). */
#define PR_GI(l) ((p * ne + b[PB_E0] + (l)-e0) * ntile + kt)

/* The task's eigenpair l: shift sg, weights wk of the rows D and ws, we of
 * the boundary terms (the kernels' own, per work-item or sub-group). */
#define PR_PAIR(l)                                                                                 \
  const GLOBAL scalar *w = comp + b[PB_COMP] + (l)*nr;                                             \
  scalar sg = S_ADD(c0, lambda[b[PB_EIG] + (l)]), wk[PR_RD];                                       \
  scalar ws = has_s ? w[0] : S_ZERO, we = has_e ? w[1] : S_ZERO;                                   \
  for (int m = 0; m < PR_RD; m++) wk[m] = m < nrd ? w[2 + m] : S_ZERO

DEVICE void pscr_reg_body(PSCR_TILE_PARAMS, int lsw, int mode, long ntile, long e0, long ne,
                          long cnt, GLOBAL scalar *io, GLOBAL scalar *acc, long nacc, long accq,
                          GLOBAL int *flags, LOCAL_P scalar *sm, LOCAL_P int *bad) {
  long g = GROUP_ID(), kt = g % ntile, p = g / ntile / nt;
  int WG = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), SW = 1 << lsw, E = WG >> lsw;
  int j = t >> lsw, i = t & (SW - 1), S2 = SW * (PR_Q + 1), NN = 2 * WG;
  long T = (long)SW << PR_LQ, r0 = kt * T;
  int rows = (int)(n - r0 < T ? n - r0 : T);
  PSCR_TILE_TASK(t0 + (g / ntile) % nt, p);
  long nout = back ? nrd : 2;
  LOCAL_P scalar *nd = sm + PR_F * S2; /* the E trees, sub-group j's leaves at j SW + i = t */
  if (t == 0) *bad = 0;
  pscr_reg_load(n, ad, ao, md, mo, xp, dp, gs, has_s, has_e, nrd, r0, T, S2, WG, t, sm);
  scalar xa[PR_RD][PR_Q]; /* the task's sums (24) / (27) of the work-item's rows */
#pragma unroll
  for (int m = 0; m < PR_RD; m++)
#pragma unroll
    for (int k = 0; k < PR_Q; k++) xa[m][k] = S_ZERO;
  BARRIER();
  const LOCAL_P scalar *rp = sm + i * (PR_Q + 1);
  for (long l0 = tk[1]; l0 < tk[2]; l0 += E) {
    long l = l0 + j;
    int act = l < tk[2];
    if (!act) l = tk[1]; /* a spare sub-group solves a copy and keeps nothing */
    PR_PAIR(l);
    /* 2. rows of A_last + sg M_last and (26) / (28) from local memory;
     * Thomas with both spikes (td_reg.h's td_spike_row); a row's
     * sub-diagonal is the super-diagonal of the row above */
    scalar u[PR_Q], y[PR_Q], v[PR_Q], vlast = S_ZERO, rec[6];
    scalar a = S_FMA(rp[S2], sg, rp[3 * S2]);
#pragma unroll
    for (int k = 0; k < PR_Q; k++) {
      scalar d, c, f;
      pscr_reg_row(rp, S2, 1 + k, sg, wk, ws, we, &d, &c, &f);
      td_spike_row(k, PR_Q, a, d, c, f, u, y, v, &vlast);
      a = c;
    }
    td_spike_record(PR_Q, u, y, v, vlast, rec);
    BARRIER(); /* the previous eigenpair's nodes are read */
    for (int f = 0; f < 6; f++) nd[f * NN + t] = rec[f];
    BARRIER();
    /* 3. the partitions' reduced system: records up, outside values down */
    int root = td_merge_up_n(nd, NN, WG, bad, 0, E) + j;
    long gi = PR_GI(l);
    if (mode == PR_FWD) {
      if (act && i < 6) {
        scalar rv = nd[i * NN + root];
        io[i * cnt + gi] = rv;
        if (!S_ISFINITE(rv)) *bad = 1;
      }
      continue;
    }
    if (i == 0) {
      nd[6 * NN + root] = mode == PR_BWD ? io[gi] : S_ZERO;
      nd[7 * NN + root] = mode == PR_BWD ? io[cnt + gi] : S_ZERO;
    }
    BARRIER();
    td_merge_down_n(nd, NN, WG, 0, E);
    scalar xl = nd[6 * NN + t], xr = nd[7 * NN + t], zx = S_ZERO, wo[PR_RD];
#pragma unroll
    for (int m = 0; m < PR_RD; m++) wo[m] = act && m < nout ? w[(back ? 2 : 0) + m] : S_ZERO;
    /* 4. x = y - w xl - u x_next (- v xr on the last row), summed on the fly */
    scalar xv = S_ZERO;
#pragma unroll
    for (int k = PR_Q - 1; k >= 0; k--) {
      xv = td_spike_x(k, PR_Q, u, y[k], v, vlast, xl, xr, xv);
      zx = S_NF(zx, xv);
#pragma unroll
      for (int m = 0; m < PR_RD; m++) xa[m][k] = S_FMA(xa[m][k], wo[m], xv);
    }
    if (!S_ISFINITE(zx)) *bad = 1; /* a zero pivot's NaN */
  }
  BARRIER();
  if (*bad) {
    if (t == 0) flags[TD_FLAG_SINGULAR] = 1;
    return;
  }
  if (mode == PR_FWD) return;
  /* 5. the sub-groups' sums added in local memory (the rows are done with), then out */
  for (int jj = 0; jj < E; jj++) {
    if (j == jj)
#pragma unroll
      for (int m = 0; m < PR_RD; m++)
#pragma unroll
        for (int k = 0; k < PR_Q; k++) {
          int ps = m * S2 + i * (PR_Q + 1) + k; /* TD_PAD of row i PR_Q + k */
          if (m < nout) sm[ps] = jj ? S_ADD(sm[ps], xa[m][k]) : xa[m][k];
        }
    BARRIER();
  }
  pscr_tile_put(gd, b, tk, back, nout, p, x, xs, bnd, bps, acc, nacc, accq, n, r0, rows, sm, S2,
                PR_LQ);
}

/* 128 registers (at most 512 work-items a group; -DPSCR_REG_MAXW=256 for A/B) */
#ifndef PSCR_REG_MAXW
#define PSCR_REG_MAXW 512
#endif
#define PSCR_REG_KERNEL KERNEL_MAXW(PSCR_REG_MAXW)

/* A system of one tile (n <= SW PR_Q): group g = task t0 + g % nt of vector g / nt. */
PSCR_REG_KERNEL void pscr_reg_task(PSCR_TILE_KPARAMS, int lsw, GPTR(scalar, acc), long nacc,
                                   long accq, GPTR(int, flags)) {
  PSCR_TILE_KAT();
  GPTR_AT(scalar, acc);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  LOCAL int bad;
  pscr_reg_body(PSCR_TILE_ARGS, lsw, PR_ONE, 1, 0, 0, 0, 0, acc, nacc, accq, flags, sm, &bad);
}

/* Passes 1 and 3 of systems of ntile tiles of 8 x 32 rows (pscr_tile_fwd
 * / pscr_tile_bwd's groups, records and outside values). */
#define PR_TLSW 5 /* 32 work-items: one warp a system (H100: 64 was 12 % slower) */
PSCR_REG_KERNEL void pscr_reg_fwd(PSCR_TILE_KPARAMS, long e0, long ne, long ntile, long cnt,
                                  GPTR(scalar, recs), GPTR(int, flags)) {
  PSCR_TILE_KAT();
  GPTR_AT(scalar, recs);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  LOCAL int bad;
  pscr_reg_body(PSCR_TILE_ARGS, PR_TLSW, PR_FWD, ntile, e0, ne, cnt, recs, 0, 0, 0, flags, sm,
                &bad);
}

PSCR_REG_KERNEL void pscr_reg_bwd(PSCR_TILE_KPARAMS, long e0, long ne, long ntile, long cnt,
                                  GPTR(scalar, outs), GPTR(scalar, acc), long nacc, long accq,
                                  GPTR(int, flags)) {
  PSCR_TILE_KAT();
  GPTR_AT(scalar, outs);
  GPTR_AT(scalar, acc);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  LOCAL int bad;
  pscr_reg_body(PSCR_TILE_ARGS, PR_TLSW, PR_BWD, ntile, e0, ne, cnt, outs, acc, nacc, accq, flags,
                sm, &bad);
}

/* Passes 1 and 3 with one eigenpair a work-item ("lanes", as pscr_lane.h),
 * for the steps whose tasks hold many eigenpairs (the host's pscr_rfwdl,
 * pscr_rbwdl):
 * a work-group of WG lanes takes WG eigenpairs of its task at a time over
 * the tile's rows, loaded into local memory once as above and read as
 * broadcasts. No partitions and no merge tree: a lane sweeps all T rows.
 * H100, 2D Poisson 8191^2, tasks of 128 eigenpairs: pass 1 in 166 against
 * 416 us a launch; tasks of 3 eigenpairs leave lanes idle (1749 against
 * 764 us), so the host keeps the warps there. */
#define PR_T ((1 << PR_TLSW) * PR_Q) /* rows of a tile */
#define PR_POS(e) (((e) >> PR_LQ) * (PR_Q + 1) + 1 + ((e) & (PR_Q - 1))) /* pscr_reg_load's */
#define PR_BR 16 /* rows of pscr_reg_bwdl's chunks (pscr_reg_chunk) */

/* A lane's Thomas row (d, c, f; a: its sub-diagonal, the super-diagonal of
 * the row above): u and y of the row above become the row's; returns
 * 1 / pivot. */
DEVICE scalar pscr_reg_thomas(scalar a, scalar d, scalar c, scalar f, scalar *u, scalar *y) {
  scalar r = S_RCP(S_FMS(d, a, *u));
  *y = S_MUL(S_FMS(f, a, *y), r);
  *u = S_MUL(c, r);
  return r;
}

/* Thomas over rows of a chunk (pscr_reg_load's positions PR_POS(p0 + k), or
 * p0 + k with plain set), from (a, u, y) on; with uu, yy set the rows' u and
 * y are kept for the back substitution. */
DEVICE void pscr_reg_chunk(const LOCAL_P scalar *rm, const LOCAL_P scalar *rx, int S2, int p0,
                           int plain, scalar sg, const scalar *wk, scalar ws, scalar we, scalar *a,
                           scalar *u, scalar *y, scalar *uu, scalar *yy) {
#pragma unroll
  for (int k = 0; k < PR_BR; k++) {
    scalar d, c, f;
    pscr_reg_row2(rm, rx, S2, plain ? p0 + k : PR_POS(p0 + k), sg, wk, ws, we, &d, &c, &f);
    pscr_reg_thomas(*a, d, c, f, u, y);
    if (uu) uu[k] = *u, yy[k] = *y;
    *a = c;
  }
}

/* Pass 1: the record needs no x, so one forward sweep yields it. Thomas with
 * the left spike as td_spike_row (x_k = y_k - w_k xl - u_k x_k+1), and the
 * top row carried forward as x_0 = al - be xl - ga x_k+1 (al -= ga y_k,
 * be -= ga w_k, ga = -ga u_k) from al = be = 0, ga = -1 and a row -1 with
 * u = y = 0, w = -1 (row 0 then gets w = a / d); the last row's u is the
 * right spike. The record td_spike_record gives for the whole tile. */
typedef struct {
  scalar u, y, wl, al, be, ga;
} pscr_reg_sweep;

DEVICE pscr_reg_sweep pscr_reg_sweep_start(void) {
  pscr_reg_sweep z = {S_ZERO, S_ZERO, S_NEG(S_ONE), S_ZERO, S_ZERO, S_NEG(S_ONE)};
  return z;
}

DEVICE void pscr_reg_sweep_row(pscr_reg_sweep *z, scalar a, scalar d, scalar c, scalar f) {
  scalar r = pscr_reg_thomas(a, d, c, f, &z->u, &z->y);
  z->wl = S_NEG(S_MUL(S_MUL(a, z->wl), r));
  z->al = S_FMS(z->al, z->ga, z->y);
  z->be = S_FMS(z->be, z->ga, z->wl);
  z->ga = S_NEG(S_MUL(z->ga, z->u));
}

/* The tile's record of slot gi; a zero pivot's NaN raises SINGULAR. */
DEVICE void pscr_reg_sweep_put(const pscr_reg_sweep *z, GLOBAL scalar *recs, long cnt, long gi,
                               GLOBAL int *flags) {
  scalar rec[6], v = S_ZERO;
  rec[TD_NODE_YT] = z->al, rec[TD_NODE_YB] = z->y, rec[TD_NODE_WT] = z->be;
  rec[TD_NODE_WB] = z->wl, rec[TD_NODE_VT] = z->ga, rec[TD_NODE_VB] = z->u;
  for (int f = 0; f < 6; f++) {
    recs[f * cnt + gi] = rec[f];
    v = S_NF(v, rec[f]);
  }
  if (!S_ISFINITE(v)) flags[TD_FLAG_SINGULAR] = 1;
}

PSCR_REG_KERNEL void pscr_reg_fwdl(PSCR_TILE_KPARAMS, long e0, long ne, long ntile, long cnt,
                                   GPTR(scalar, recs), GPTR(int, flags)) {
  PSCR_TILE_KAT();
  GPTR_AT(scalar, recs);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  long g = GROUP_ID(), kt = g % ntile, p = g / ntile / nt, r0 = kt * PR_T;
  int WG = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), S2 = PR_T + (PR_T >> PR_LQ);
  PSCR_TILE_TASK(t0 + (g / ntile) % nt, p);
  pscr_reg_load(n, ad, ao, md, mo, xp, dp, gs, has_s, has_e, nrd, r0, PR_T, S2, WG, t, sm);
  BARRIER();
  for (long l = tk[1] + t; l < tk[2]; l += WG) {
    PR_PAIR(l);
    scalar a = S_FMA(sm[S2], sg, sm[3 * S2]);
    pscr_reg_sweep z = pscr_reg_sweep_start();
    for (int q = 0; q < PR_T; q += PR_Q) {
#pragma unroll
      for (int k = 0; k < PR_Q; k++) {
        scalar d, c, f;
        pscr_reg_row(sm, S2, PR_POS(q + k), sg, wk, ws, we, &d, &c, &f);
        pscr_reg_sweep_row(&z, a, d, c, f);
        a = c;
      }
    }
    pscr_reg_sweep_put(&z, recs, cnt, PR_GI(l), flags);
  }
}

/* Pass 3: with the tile's outside values xl, xr of its eigenpair a lane
 * solves the tile as a plain system (Thomas, x_-1 = xl taken as y_-1 with
 * u_-1 = 0, and x_T = xr: x_k = y_k - u_k x_k+1 down to the last row). The
 * forward sweep keeps (u, y) before every chunk of PR_BR rows
 * (checkpoints in global memory, ckp: in local memory they held the group
 * to 8 warps an SM); the backward sweep recomputes each chunk in
 * registers and substitutes back through it. A chunk's x go through local
 * memory to the sums (24) / (27): work-item (k, part) adds the weighted x of
 * row k over the PR_BR lanes of its part, then the parts are added. WG is a
 * multiple of PR_BR (the host's: 64 or 128 by default).
 * Local memory (the host's gpu_pscr_reg_local): the tile (PR_F S2), the sums
 * (PR_RD S2), the chunk's x (PR_BR (WG + 1)), the weights and the parts
 * (2 PR_RD WG). */
#define PR_NCH (PR_T / PR_BR)    /* chunks of a tile */
PSCR_REG_KERNEL void pscr_reg_bwdl(PSCR_TILE_KPARAMS, long e0, long ne, long ntile, long cnt,
                                   GPTR(scalar, outs), GPTR(scalar, acc), long nacc, long accq,
                                   GPTR(scalar, ckp), GPTR(int, flags)) {
  PSCR_TILE_KAT();
  GPTR_AT(scalar, outs);
  GPTR_AT(scalar, acc);
  GPTR_AT(scalar, ckp);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  LOCAL int bad;
  long g = GROUP_ID(), kt = g % ntile, p = g / ntile / nt, r0 = kt * PR_T;
  int WG = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), S2 = PR_T + (PR_T >> PR_LQ);
  int rows = (int)(n - r0 < PR_T ? n - r0 : PR_T), LX = WG + 1;
  PSCR_TILE_TASK(t0 + (g / ntile) % nt, p);
  long nout = back ? nrd : 2;
  LOCAL_P scalar *sums = sm + PR_F * S2, *xb = sums + PR_RD * S2;
  GLOBAL scalar *ck = ckp + g * 2 * PR_NCH * WG; /* the group's checkpoints */
  LOCAL_P scalar *wo = xb + PR_BR * LX, *part = wo + PR_RD * WG;
  if (t == 0) bad = 0;
  pscr_reg_load(n, ad, ao, md, mo, xp, dp, gs, has_s, has_e, nrd, r0, PR_T, S2, WG, t, sm);
  for (int e = t; e < PR_RD * S2; e += WG) sums[e] = S_ZERO;
  int kr = t % PR_BR, pt = t / PR_BR, np = WG / PR_BR; /* the work-item's part of the sums */
  scalar zx = S_ZERO;
  for (long l0 = tk[1]; l0 < tk[2]; l0 += WG) {
    long l = l0 + t;
    int act = l < tk[2];
    if (!act) l = tk[1]; /* a spare lane solves a copy and weighs it by 0 */
    PR_PAIR(l);
    for (int m = 0; m < PR_RD; m++) wo[m * WG + t] = act && m < nout ? w[(back ? 2 : 0) + m] : S_ZERO;
    long gi = PR_GI(l);
    scalar xn = outs[cnt + gi], u = S_ZERO, y = outs[gi];
    BARRIER(); /* the tile is loaded (first pass), the last pass's parts are added */
    scalar a = S_FMA(sm[S2], sg, sm[3 * S2]);
    for (int ch = 0; ch < PR_NCH; ch++) { /* forward, checkpoints */
      ck[2 * ch * WG + t] = u;
      ck[(2 * ch + 1) * WG + t] = y;
      pscr_reg_chunk(sm, sm + 4 * S2, S2, ch * PR_BR, 0, sg, wk, ws, we, &a, &u, &y, 0, 0);
    }
    for (int ch = PR_NCH - 1; ch >= 0; ch--) { /* backward, a chunk at a time */
      int p0 = PR_POS(ch * PR_BR) - 1; /* its first row's slot of the row above */
      scalar uu[PR_BR], yy[PR_BR];
      u = ck[2 * ch * WG + t];
      y = ck[(2 * ch + 1) * WG + t];
      a = S_FMA(sm[S2 + p0], sg, sm[3 * S2 + p0]);
      pscr_reg_chunk(sm, sm + 4 * S2, S2, ch * PR_BR, 0, sg, wk, ws, we, &a, &u, &y, uu, yy);
#pragma unroll
      for (int k = PR_BR - 1; k >= 0; k--) {
        xn = S_FMS(yy[k], uu[k], xn);
        xb[k * LX + t] = xn;
        zx = S_NF(zx, xn);
      }
      BARRIER();
      scalar sp[PR_RD];
      for (int m = 0; m < PR_RD; m++) sp[m] = S_ZERO;
      for (int e = pt * PR_BR; e < pt * PR_BR + PR_BR; e++) {
        scalar xv = xb[kr * LX + e];
#pragma unroll
        for (int m = 0; m < PR_RD; m++) sp[m] = S_FMA(sp[m], wo[m * WG + e], xv);
      }
      for (int m = 0; m < PR_RD; m++) part[(m * np + pt) * PR_BR + kr] = sp[m];
      BARRIER();
      for (int o = t; o < nout * PR_BR; o += WG) {
        int m = o / PR_BR, k = o % PR_BR, ps = m * S2 + TD_PAD(ch * PR_BR + k, PR_LQ);
        scalar v = sums[ps];
        for (int q = 0; q < np; q++) v = S_ADD(v, part[(m * np + q) * PR_BR + k]);
        sums[ps] = v;
      }
    }
  }
  if (!S_ISFINITE(zx)) bad = 1; /* a zero pivot's NaN */
  BARRIER();
  if (bad) {
    if (t == 0) flags[TD_FLAG_SINGULAR] = 1;
    return;
  }
  pscr_tile_put(gd, b, tk, back, nout, p, x, xs, bnd, bps, acc, nacc, accq, n, r0, rows, sums, S2,
                PR_LQ);
}

/* Passes 1 and 3 for steps of small tasks (the host's pscr_rfwdm,
 * pscr_rbwdm), where a task cannot fill a group: a group of WG lanes takes
 * G = WG / tm tasks (tm: the step's largest task; lane j tm + e solves
 * eigenpair e of task j), and the tile streams through local memory PR_MR
 * rows at a time (pscr_reg_mload). Local memory (the host's
 * gpu_pscr_reg_mlocal): A_last and M_last (4 fields of PR_MR + 1 rows: the
 * row above, then the chunk's), each task's right-hand-side rows (PR_RD + 2
 * fields as those, PR_MX apart: odd, so that the tasks' lanes read distinct
 * banks), where each task's fields start (G (PR_RD + 2) longs, a scalar
 * each); pass 3 then adds its checkpoints, the chunk's x and the weights. */
#define PR_MR 16                              /* rows a chunk */
#define PR_MS (PR_MR + 1)                     /* field stride */
#define PR_MX ((PR_RD + 2) * PR_MS)           /* local scalars a task */
#define PR_MCH (PR_T / PR_MR)                 /* chunks of a tile */
#define PR_MU 8                               /* a work-item's loads in flight */
#if PR_MR != PR_BR
#error "pscr_reg_chunk sweeps PR_BR rows: pscr_reg_bwdm's chunks must match"
#endif

/* The group's task j and its fields: fo[j (PR_RD + 2) + f] = where field f
 * (X_0 .. X_RD-1 in x, K̂ u, Ǩ u in bnd) starts, -1 where it is 0; with dof
 * set (pass 3) also dof[j PR_RD + m] = 4 offset + buffer (0: x, 1: bnd, 2:
 * acc) of its output m (pscr_tile_put's), -1 where it has none. */
DEVICE void pscr_reg_mtasks(long n, long lev_n, long xs, long bps, const GLOBAL long *gd, long blk,
                            long task, long t0, long nt, int back, long p, long tj0, int G,
                            long nacc, long accq, LOCAL_P long *fo, LOCAL_P long *dof) {
  int WG = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), NF = PR_RD + 2;
  for (int c = t; c < G * NF; c += WG) {
    long tj = tj0 + c / NF, o = -1;
    int f = c % NF;
    if (tj < nt) {
      const GLOBAL long *bj = gd + blk + PB_N * gd[task + 4 * (t0 + tj)];
      long sj = bj[PB_S];
      if (f < PR_RD && f < bj[PB_ND]) o = p * xs + (sj + gd[bj[PB_D] + f]) * n;
      if (f == PR_RD && back && sj > 0) o = p * bps + bj[PB_BS] * n;
      if (f == PR_RD + 1 && back && sj + bj[PB_M] < lev_n) o = p * bps + (bj[PB_BS] + 1) * n;
    }
    fo[c] = o;
  }
  for (int c = t; dof && c < G * PR_RD; c += WG) {
    long tj = tj0 + c / PR_RD, o = -1, m = c % PR_RD;
    if (tj < nt) {
      const GLOBAL long *tk = gd + task + 4 * (t0 + tj), *bj = gd + blk + PB_N * tk[0];
      if (m < (back ? bj[PB_ND] : 2))
        o = tk[3] >= 0 ? 4 * (((p * nacc + tk[3]) * accq + m) * n) + 2
                       : 4 * pscr_dst_off(gd, bj, back, m, p, xs, bps, n) + (back ? 0 : 1);
    }
    dof[c] = o;
  }
}

/* Chunk rows r0 + q .. r0 + q + PR_MR - 1 (and the row above) into local
 * memory: field f, row k of the chunk at f PR_MS + 1 + k (A_last, M_last in
 * sm; task j's in rx + j PR_MX). Rows past n are identity rows. */
DEVICE void pscr_reg_mload(long n, const GLOBAL scalar *ad, const GLOBAL scalar *ao,
                           const GLOBAL scalar *md, const GLOBAL scalar *mo,
                           const GLOBAL scalar *x, const GLOBAL scalar *bnd, long r0, int q, int G,
                           const LOCAL_P long *fo, LOCAL_P scalar *sm, LOCAL_P scalar *rx) {
  int WG = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), NF = PR_RD + 2, NE = G * NF * PR_MR;
  for (int e = t; e < 4 * PR_MS; e += WG) {
    long r = r0 + q - 1 + e % PR_MS;
    int f = e / PR_MS, in = r >= 0 && r < n, up = r >= 0 && r + 1 < n;
    sm[e] = f == 0   ? (in ? ad[r] : S_ONE)
            : f == 1 ? (up ? ao[r] : S_ZERO)
            : f == 2 ? (in ? md[r] : S_ZERO)
                     : (up && mo ? mo[r] : S_ZERO);
  }
  for (int e0 = t; e0 < NE; e0 += PR_MU * WG) {
    scalar v[PR_MU]; /* PR_MU loads in flight, then their stores */
#pragma unroll
    for (int u = 0; u < PR_MU; u++) {
      int e = e0 + u * WG, c = e / PR_MR;
      long r = r0 + q + e % PR_MR, o = e < NE ? fo[c] : -1;
      v[u] = o >= 0 && r < n ? (c % NF < PR_RD ? x : bnd)[o + r] : S_ZERO;
    }
#pragma unroll
    for (int u = 0; u < PR_MU; u++) {
      int e = e0 + u * WG, c = e / PR_MR;
      if (e < NE) rx[(c / NF) * PR_MX + (c % NF) * PR_MS + 1 + e % PR_MR] = v[u];
    }
  }
}

/* The lane's task and eigenpair (PSCR_TILE_BLOCK, PR_PAIR; spare lanes take
 * a copy of the group's first and keep nothing: act = 0), the local layout. */
#define PR_MTASK                                                                                   \
  int WG = (int)LOCAL_SIZE(), t = (int)LOCAL_ID(), G = WG / tm;                                    \
  long ng = (nt + G - 1) / G, g = GROUP_ID(), kt = g % ntile, tg = (g / ntile) % ng;               \
  long p = g / ntile / ng, r0 = kt * PR_T;                                                         \
  LOCAL_P scalar *rx = sm + 4 * PR_MS;                                                             \
  LOCAL_P long *fo = (LOCAL_P long *)(rx + G * PR_MX);                                             \
  int jt = t / tm, act = jt < G && tg * G + jt < nt;                                               \
  if (!act) jt = 0;                                                                                \
  PSCR_TILE_BLOCK(t0 + tg * G + jt, p); /* the chunks come through fo */                           \
  long l = tk[1] + t % tm;                                                                         \
  if (l >= tk[2]) act = 0, l = tk[1];                                                              \
  PR_PAIR(l);                                                                                      \
  const LOCAL_P scalar *rj = rx + jt * PR_MX

PSCR_REG_KERNEL void pscr_reg_fwdm(PSCR_TILE_KPARAMS, long e0, long ne, long ntile, long cnt,
                                   int tm, GPTR(scalar, recs), GPTR(int, flags)) {
  PSCR_TILE_KAT();
  GPTR_AT(scalar, recs);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  PR_MTASK;
  pscr_reg_mtasks(n, lev_n, xs, bps, gd, blk, task, t0, nt, back, p, tg * G, G, 0, 0, fo, 0);
  scalar a = S_ZERO;
  pscr_reg_sweep z = pscr_reg_sweep_start();
  for (int q = 0; q < PR_T; q += PR_MR) {
    BARRIER(); /* fo is written, the last chunk is read */
    pscr_reg_mload(n, ad, ao, md, mo, x, bnd, r0, q, G, fo, sm, rx);
    BARRIER();
    if (q == 0) a = S_FMA(sm[PR_MS], sg, sm[3 * PR_MS]); /* the row above the tile */
#pragma unroll
    for (int k = 0; k < PR_MR; k++) {
      scalar d, c, f;
      pscr_reg_row2(sm, rj, PR_MS, 1 + k, sg, wk, ws, we, &d, &c, &f);
      pscr_reg_sweep_row(&z, a, d, c, f);
      a = c;
    }
  }
  if (act) pscr_reg_sweep_put(&z, recs, cnt, PR_GI(l), flags);
}

/* Pass 3 as pscr_reg_bwdl (plain Thomas between the outside values, (u, y)
 * kept before every chunk, each chunk recomputed and substituted back), the
 * chunks streamed twice; a chunk's x go through local memory to the task's
 * sums (24) / (27), added over its lanes and stored (pscr_tile_put's
 * destinations) chunk by chunk. */
PSCR_REG_KERNEL void pscr_reg_bwdm(PSCR_TILE_KPARAMS, long e0, long ne, long ntile, long cnt,
                                   int tm, GPTR(scalar, outs), GPTR(scalar, acc), long nacc,
                                   long accq, GPTR(int, flags)) {
  PSCR_TILE_KAT();
  GPTR_AT(scalar, outs);
  GPTR_AT(scalar, acc);
  GPTR_AT(int, flags);
  LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);
  LOCAL int bad;
  PR_MTASK;
  LOCAL_P long *dof = fo + G * (PR_RD + 2);
  LOCAL_P scalar *ck = (LOCAL_P scalar *)(dof + G * PR_RD), *xb = ck + 2 * PR_MCH * WG;
  LOCAL_P scalar *wo = xb + PR_MR * (WG + 1);
  if (t == 0) bad = 0;
  pscr_reg_mtasks(n, lev_n, xs, bps, gd, blk, task, t0, nt, back, p, tg * G, G, nacc, accq, fo,
                  dof);
  long nout = back ? nrd : 2; /* the eigenpair's weights: w[0..2) or w[2..2 + nrd) */
  for (int m = 0; m < PR_RD; m++)
    wo[m * WG + t] = act && m < nout ? w[(back ? 2 : 0) + m] : S_ZERO;
  long gi = PR_GI(l);
  scalar xn = outs[cnt + gi], u = S_ZERO, y = outs[gi], a = S_ZERO, zx = S_ZERO;
  for (int ch = 0; ch < PR_MCH; ch++) { /* forward, checkpoints */
    BARRIER();
    pscr_reg_mload(n, ad, ao, md, mo, x, bnd, r0, ch * PR_MR, G, fo, sm, rx);
    BARRIER();
    ck[2 * ch * WG + t] = u;
    ck[(2 * ch + 1) * WG + t] = y;
    a = S_FMA(sm[PR_MS], sg, sm[3 * PR_MS]);
    pscr_reg_chunk(sm, rj, PR_MS, 1, 1, sg, wk, ws, we, &a, &u, &y, 0, 0);
  }
  for (int ch = PR_MCH - 1; ch >= 0; ch--) { /* backward, a chunk at a time */
    BARRIER();
    if (ch < PR_MCH - 1) pscr_reg_mload(n, ad, ao, md, mo, x, bnd, r0, ch * PR_MR, G, fo, sm, rx);
    BARRIER();
    scalar uu[PR_MR], yy[PR_MR];
    u = ck[2 * ch * WG + t];
    y = ck[(2 * ch + 1) * WG + t];
    a = S_FMA(sm[PR_MS], sg, sm[3 * PR_MS]);
    pscr_reg_chunk(sm, rj, PR_MS, 1, 1, sg, wk, ws, we, &a, &u, &y, uu, yy);
#pragma unroll
    for (int k = PR_MR - 1; k >= 0; k--) {
      xn = S_FMS(yy[k], uu[k], xn);
      xb[k * (WG + 1) + t] = xn;
      zx = S_NF(zx, xn);
    }
    BARRIER();
    for (int o = t; o < G * PR_RD * PR_MR; o += WG) { /* task j's output m at chunk row k */
      int k = o % PR_MR, jm = o / PR_MR, j = jm / PR_RD, m = jm % PR_RD;
      long d = dof[jm], r = r0 + ch * PR_MR + k;
      if (d < 0 || r >= n) continue;
      scalar v = S_ZERO;
      for (int e = j * tm; e < j * tm + tm; e++)
        v = S_FMA(v, wo[m * WG + e], xb[k * (WG + 1) + e]);
      GLOBAL scalar *dst = (d & 3) == 0 ? x : (d & 3) == 1 ? bnd : acc;
      dst[(d >> 2) + r] = v;
    }
  }
  if (act && !S_ISFINITE(zx)) bad = 1; /* a zero pivot's NaN */
  BARRIER();
  if (bad && t == 0) flags[TD_FLAG_SINGULAR] = 1;
}

#endif
