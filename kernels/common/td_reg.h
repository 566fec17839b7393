/* CR_PCR_THOMAS tiles with their rows in registers: a system of one tile
 * (td_reg_solve), the two tile passes of a longer one (td_reg_fwd,
 * td_reg_bwd), or where the dialect has clusters of groups, a system of 2 .. 8
 * tiles in one pass (td_reg_clu).
 *
 * The same SPIKE scheme as td_tile.h's kernels with pivot = 0 (Thomas
 * partitions of q rows with their spikes, seed 001 eqs. (3)-(7), merged by
 * td_merge_up / td_merge_down), but each work-item keeps its q = TD_RQ rows
 * and their factors in registers: local memory only transposes the
 * coalesced loads and stores and holds the merge tree's records. ncu on the
 * H100 (shifted 16384 x 512) found td_tile_solve issue-bound at 365
 * instructions a row, most of them local-memory traffic and the runtime
 * pivot and row-count branches of the factor loop; here the factor is
 * straight-line code over a compile-time q.
 *
 * Rows past n are identity rows (x = 0), so every partition has q rows.
 * Errors: a NaN/Inf entry makes the running sum of v * 0 over the inputs
 * non-finite (NONFINITE); a zero pivot or junction gives a NaN reciprocal
 * (S_RCP), which reaches x (SINGULAR). A failed system stores nothing.
 * Shifted rows (the _s kernels) read A and M from td_reg_perm's copies in
 * the tile's own order: each work-item loads its rows' coefficients
 * coalesced, straight into registers, and only f goes through the tile.
 * Local memory: max(m (q / TD_REG_PH + 1), q + 1, 16) W scalars, m = 4
 * arrays (1 shifted): the tile, x staged for the store, the merge tree
 * (TD_REG_SLIM: max(q / TD_REG_PH + 1, 7) W, below). The
 * tile is staged in TD_REG_PH parts: part h holds rows h q / TD_REG_PH ..
 * (h + 1) q / TD_REG_PH - 1 of every partition, with its arrays, and every
 * work-item's sweep goes on through it. Two parts fit a real tile of 2048
 * rows in 48 KB (NVIDIA's OpenCL; CUDA opts in to more).
 * Parts by rows, not arrays through registers: PoCL (pthread device)
 * corrupted private arrays kept live across barriers when work-groups ran
 * concurrently; by partitions, half the work-items would sweep at a time
 * (H100, OpenCL, 2D Poisson 2047^2: 349 us in td_reg_solve, by rows 227,
 * CUDA's one part 198). */
#ifndef PSCR_TD_REG_H
#define PSCR_TD_REG_H

#include "common/td_tile.h"

#ifndef TD_RQ
#define TD_RQ (PSCR_COMPLEX ? 4 : 8)
#endif
/* Rows a work-item loads before it stores any. H100 A/B, 4 against all 8
 * (real; 8 spill 24-32 bytes at the 96-register cap, 4 spill 8-12): batch
 * 1024 x 16384 2.25x against 2.57x floor, one system 2^26 2.00x against
 * 2.38x, shifted 1024 x 16384 4.99x against 5.33x. Complex, 2 against all 4:
 * 16384 systems of 1024 rows 1.67x against 2.79x, 4096 x 4096 2.69x against
 * 2.82x, shifted 4096 x 4096 6.19x against 6.40x; PSCR 2D Helmholtz alike. */
#ifndef TD_REG_LOAD_U
#define TD_REG_LOAD_U (PSCR_COMPLEX ? 2 : 4)
#endif
#define TD_RLQ (TD_RQ == 16 ? 4 : TD_RQ == 8 ? 3 : TD_RQ == 4 ? 2 : 1)
/* Parts the tile is staged in (the host's choice where local memory is short;
 * TD_RQ / TD_REG_PH a multiple of TD_REG_LOAD_U) */
#ifndef TD_REG_PH
#define TD_REG_PH 1
#endif
#define TD_REG_PQ (TD_RQ / TD_REG_PH) /* rows of a partition in a part */
#if TD_REG_PQ % TD_REG_LOAD_U != 0 /* a larger load would read past the part */
#error "TD_REG_LOAD_U must divide TD_RQ / TD_REG_PH"
#endif
#define TD_REG_PLQ (TD_RLQ - (TD_REG_PH == 2 ? 1 : TD_REG_PH == 4 ? 2 : 0))
/* The row of entry i of part h of the tile at r0 (below) */
#if TD_REG_PH == 1
#define TD_REG_ROW(h, i) (r0 + (i))
#else
#define TD_REG_ROW(h, i)                                                                           \
  (r0 + (long)((i) >> TD_REG_PLQ) * TD_RQ + (h) * TD_REG_PQ + ((i) & (TD_REG_PQ - 1)))
#endif

/* A scalar of the group of rank `rank` in the cluster (td_reg_clu) */
#ifdef TD_CLUSTER_SYNC
#if PSCR_COMPLEX
#define TD_CLUSTER_LD(p, rank)                                                                     \
  MAKE_Z(TD_CLUSTER_LD_D(&(p)->x, rank), TD_CLUSTER_LD_D(&(p)->y, rank))
#else
#define TD_CLUSTER_LD(p, rank) TD_CLUSTER_LD_D(p, rank)
#endif
#endif

/* A partition of q rows in registers (seed 001 eqs. (3)-(7), Thomas with
 * both spikes), row by row in an unrolled loop, shared with pscr_reg.h.
 * Row k (a, d, c, f): the Schur complement of row k - 1 onto it, then u, y
 * and the left spike w (started by a of row 0, the coupling to the left);
 * on the last row c is the right spike's: vlast = c / pivot. A zero pivot
 * gives a NaN reciprocal (S_RCP). */
DEVICE void td_spike_row(int k, int q, scalar a, scalar d, scalar c, scalar f, scalar *u,
                         scalar *y, scalar *w, scalar *vlast) {
  scalar g = k == 0 ? a : S_NEG(S_MUL(a, w[k - 1]));
  if (k > 0) {
    d = S_FMS(d, a, u[k - 1]);
    f = S_FMS(f, a, y[k - 1]);
  }
  scalar r = S_RCP(d);
  u[k] = k + 1 < q ? S_MUL(c, r) : S_ZERO;
  y[k] = S_MUL(f, r);
  w[k] = S_MUL(g, r);
  if (k + 1 == q) *vlast = S_MUL(c, r);
}

/* The partition's node record (fields TD_NODE_*: tops of y, w, v by the
 * backward sweep, bottoms of the last row). */
DEVICE void td_spike_record(int q, const scalar *u, const scalar *y, const scalar *w,
                            scalar vlast, scalar *rec) {
  scalar yt = y[q - 1], wt = w[q - 1], vt = vlast;
#pragma unroll
  for (int k = q - 2; k >= 0; k--) {
    yt = S_FMS(y[k], u[k], yt);
    wt = S_FMS(w[k], u[k], wt);
    vt = S_NEG(S_MUL(u[k], vt));
  }
  rec[TD_NODE_YT] = yt;
  rec[TD_NODE_YB] = y[q - 1];
  rec[TD_NODE_WT] = wt;
  rec[TD_NODE_WB] = w[q - 1];
  rec[TD_NODE_VT] = vt;
  rec[TD_NODE_VB] = vlast;
}

/* The record's tops row by row, for kernels whose y leaves the registers as
 * it is made (TD_REG_YSM): td_spike_record's sums in row order, yt = sum_k
 * p_k y_k and wt likewise, vt = p_(q-1) vlast, p_k = prod_(j<k) (-u_j) (*p
 * carries p_(k+1) on). */
DEVICE void td_spike_top(int k, int q, const scalar *u, const scalar *y, const scalar *w,
                         scalar vlast, scalar *p, scalar *rec) {
  if (k == 0) {
    rec[TD_NODE_YT] = y[0];
    rec[TD_NODE_WT] = w[0];
    *p = S_ONE;
  } else {
    rec[TD_NODE_YT] = S_FMA(rec[TD_NODE_YT], *p, y[k]);
    rec[TD_NODE_WT] = S_FMA(rec[TD_NODE_WT], *p, w[k]);
  }
  if (k + 1 < q) *p = S_NEG(S_MUL(*p, u[k]));
  if (k + 1 == q) {
    rec[TD_NODE_YB] = y[k];
    rec[TD_NODE_WB] = w[k];
    rec[TD_NODE_VT] = S_MUL(*p, vlast);
    rec[TD_NODE_VB] = vlast;
  }
}

/* x of row k from its outside values xl, xr and xn = x of row k + 1:
 * y - w xl - u xn (- v xr, the right spike, on the last row); yk = y[k]. */
DEVICE scalar td_spike_x(int k, int q, const scalar *u, scalar yk, const scalar *w,
                         scalar vlast, scalar xl, scalar xr, scalar xn) {
  scalar x = S_FMS(yk, w[k], xl);
  return k + 1 == q ? S_FMS(x, vlast, xr) : S_FMS(x, u[k], xn);
}

/* Row i of td_reg_perm's arrays as the ns systems of shifts s[e] see it:
 * A + s[e] M (ka[e], kd[e], kc[e]), A and M read once for all of them, *z
 * their NaN/Inf check. */
DEVICE void td_reg_coef_row(TD_SRC_PARAMS, long i, int ns, const scalar *s, scalar *ka,
                            scalar *kd, scalar *kc, scalar *z) {
#pragma unroll
  for (int e = 0; e < ns; e++) { /* (the loads of e > 0 are e = 0's: the compiler merges them) */
    ka[e] = cdl[i];
    kd[e] = cd[i];
    kc[e] = cdu[i];
    if (mdl != 0) ka[e] = S_FMA(ka[e], s[e], mdl[i]);
    if (md != 0) kd[e] = S_FMA(kd[e], s[e], md[i]);
    if (mdu != 0) kc[e] = S_FMA(kc[e], s[e], mdu[i]);
    *z = S_NF(S_NF(S_NF(*z, ka[e]), kd[e]), kc[e]);
  }
}

/* Shifted rows: the coefficients of A + s M of a part's rows of one
 * work-item straight into registers from td_reg_perm's arrays (one
 * coalesced row of the tile's order a load, from index i0 by W), *z their
 * NaN/Inf check. Loaded before the part's barrier, so that their latency
 * overlaps the wait (H100, shifted 8192 x 8192 in 16-row tiles: 2.40x floor
 * against 2.66 after it). */
DEVICE void td_reg_coefs(TD_SRC_PARAMS, scalar s, long i0, int W, scalar *ka, scalar *kd,
                         scalar *kc, scalar *z) {
#pragma unroll
  for (int k = 0; k < TD_REG_PQ; k++)
    td_reg_coef_row(TD_SRC_ARGS, i0 + (long)k * W, 1, &s, &ka[k], &kd[k], &kc[k], z);
}

/* f of row r of system sys, zero past n (the identity rows), read no further
 * than the system's last row. */
DEVICE scalar td_reg_f(TD_SRC_PARAMS, const GLOBAL scalar *b, long sys, long r, long n) {
  scalar f = b[td_rhs_index(TD_SRC_ARGS, sys, r < n ? r : n - 1)];
  if (r >= n) f = S_ZERO;
  return f;
}

/* One-tile shifted solves (td_reg_solve_s) keep y in local memory where the
 * host asks (TD_REG_YSM: where local memory is sized by the launch, CUDA):
 * row k's y goes to the tile slot its f came from, the record's tops are
 * summed as the rows go (td_spike_top), x later takes the same slot for its
 * store, and the merge tree moves past the tile (gpu_tile.c's reg_scalars:
 * (q + 1 + 16) W scalars). y leaves the registers row by row: at 16 real
 * rows and the 128-register cap, 0 bytes of spills instead of 68. Real ones
 * copy f by TD_CP_ASYNC where the dialect has it (sm_80+, CUDA and NVIDIA's
 * OpenCL: the part's rows all in flight, no registers held; else
 * TD_REG_LOAD_U rows a work-item at a time through registers). H100, floor
 * ratio against neither in the same call: shifted 512 x 16384 2.49-2.58
 * against 2.77-2.90, 8192 x 8192 2.31 against 2.43, C128 (y alone; cp.async
 * lost) 4096 x 4096 2.95-2.99 against 3.13-3.16; 2D Poisson 4095^2 1.367 ms
 * against 1.462. The cluster kernels lost with either (shifted 1024 x 16384
 * 3.26-3.45 against 3.12-3.26). */
#ifndef TD_REG_YSM
#define TD_REG_YSM 0
#endif
/* Which kernels keep y there: td_reg_solve_s, and td_reg_bwd_s* where the
 * host asks (TD_REG_YSM 2: tune pass_ysm, for trials; H200, NVIDIA's OpenCL,
 * shifted 8192 x 8192 in the generic passes: 1.11 ms with it, 1.10-1.16
 * without). */
#define TD_REG_YL(sh, mode)                                                                        \
  (TD_REG_YSM && (sh) && ((mode) == TD_REG_SOLVE || (TD_REG_YSM == 2 && (mode) == TD_REG_BWD)) &&   \
   TD_REG_PH == 1)
/* Which sum the record's tops in row order (td_spike_top): where y leaves
 * the registers, and in the first pass, which then keeps no rows: u, y and w
 * of row k die with row k + 1 (TD_REG_FWD_TOP 0: td_spike_record, for A/B;
 * H200, NVIDIA's OpenCL, shifted 8192 x 8192 passes: the same time). */
#ifndef TD_REG_FWD_TOP
#define TD_REG_FWD_TOP 1
#endif
#define TD_REG_TOP(sh, mode) (TD_REG_YL(sh, mode) || (TD_REG_FWD_TOP && (mode) == TD_REG_FWD))
/* Which copy f by cp.async (TD_CP_ASYNC): real one-tile solves with y kept,
 * and the slim tile (below), complex too. H200, NVIDIA's OpenCL, shifted
 * C128 4096 x 4096 (the slim tile), two calls of three processes: 0.58-0.63
 * ms waiting against 0.62-0.66, 0.58-0.61 queued against 0.60-0.65 (CUDA's
 * own tile 0.47-0.52). */
#if defined(TD_CP_ASYNC) && !defined(TD_REG_NO_CPF)
#define TD_REG_CPF(sh, mode)                                                                       \
  ((TD_REG_YL(sh, mode) && !PSCR_COMPLEX) || (TD_REG_SLIM && (sh) && (mode) == TD_REG_SOLVE))
#else
#define TD_REG_CPF(sh, mode) 0
#endif

/* The slim one-tile form (the host's choice where local memory is short and
 * the dialect has shuffles: shifted complex lines of 2049-4096 rows in 16-row
 * partitions, NVIDIA's OpenCL's 48 KB). Records merge by shuffles whatever
 * the dtype, and x goes out part by part as the tile came in, so
 * max(q / TD_REG_PH + 1, 7) W scalars do: 4096 complex rows in 36 KB, where
 * x staged whole takes 68 KB and the merge tree 64 KB. Elsewhere such lines
 * take the two passes, which read f twice. */
#ifndef TD_REG_SLIM
#define TD_REG_SLIM 0
#endif
#if TD_REG_SLIM && !defined(TD_SHFL_DOWN_D)
#error "TD_REG_SLIM merges by warp shuffles (TD_SHFL_DOWN_D)"
#endif

/* Which kernels merge by shuffles (below). H100 A/B against the tree alone:
 * real one-tile systems and shifted passes gain (shifted 16384 x 512 3.09 ->
 * 2.49x floor, 8192 x 8192 4.24 -> 3.97x, CR_PCR_THOMAS 1024 x 1024 3.57 ->
 * 3.32x); real plain multi-tile passes (1024 systems of 16384 rows 2.01 ->
 * 2.06x) and complex rows (shifted 4096 x 4096 5.52 -> 6.32x: four shuffles
 * a value) lose, except complex shifted one-tile systems of TD_REG_ZWARP_W
 * work-items or more, where the tree's barriers cost more than the shuffles
 * (shifted C128, queued: 4096 x 4096, 256 work-items, 2.56-2.58x against
 * 2.58-2.61; 8192 x 2048, 128, 2.13 against 2.19; at 32, 16384 x 512, 2.48
 * against 2.06). */
#ifndef TD_REG_ZWARP_W
#define TD_REG_ZWARP_W 128
#endif
#ifdef TD_SHFL_DOWN_D
#define TD_REG_WARP(sh, mode, W)                                                                   \
  ((!PSCR_COMPLEX && ((mode) == TD_REG_SOLVE || (mode) == TD_REG_CLU || (sh))) ||                  \
   ((TD_REG_SLIM || ((sh) && (W) >= TD_REG_ZWARP_W)) && (mode) == TD_REG_SOLVE))
#else
#define TD_REG_WARP(sh, mode, W) 0
#endif

/* One-tile shifted solves, where the dialect has an L2 prefetch
 * (TD_PREFETCH_L2: sm_90, CUDA and NVIDIA's OpenCL): once its tile is in,
 * each group asks L2 for the rows of the system TD_REG_PF times the SMs on
 * (TD_NSM), which some group starts about a wave later, so that one's loads
 * find them in L2 (one request a warp: the instruction takes uniform
 * operands, so one a work-item loops over the lanes). H100, shifted floor
 * ratio queued against none, same call: C128 4096 x 4096 2.37-2.38 against
 * 2.58 (255 registers, one group an SM: nothing else hid its loads), 8192 x
 * 2048 1.96 against 2.13, 16384 x 512 1.92 against 1.98; F64 4096 x 4096
 * 1.69 against 1.77, 8192 x 8192 1.99 against 2.19; 2D Poisson 4095^2 1.299
 * ms against 1.322. Asked for at the group's start it competed with the
 * group's own loads (C128 4096 x 4096 2.69-2.70); two waves on, C128 4096 x
 * 4096 2.45-2.47, 8192 x 8192 2.13. */
#ifndef TD_REG_PF
#define TD_REG_PF 1
#endif

#ifdef TD_PREFETCH_L2
/* td_reg_body's prefetch (above): the rows of this work-item's warp */
DEVICE void td_reg_prefetch(TD_SRC_PARAMS, long n, long sys, int t, const GLOBAL scalar *b) {
  long nx = sys + TD_REG_PF * TD_NSM(), lo = (long)t * TD_RQ;
  long hi = lo + 32 * TD_RQ < n ? lo + 32 * TD_RQ : n;
  if ((t & 31) == 0 && nx < TD_NUM_GROUPS() && lo < hi) {
    size_t a0 = (size_t)(b + td_rhs_index(TD_SRC_ARGS, nx, lo)) & ~(size_t)15;
    size_t a1 = (size_t)(b + td_rhs_index(TD_SRC_ARGS, nx, hi - 1) + 1) & ~(size_t)15;
    if (a1 > a0) TD_PREFETCH_L2(a0, a1 - a0);
  }
}
#endif

/* The tile of rows r0 .. r0 + W q - 1 of system sys (rows past n are
 * identity rows; only a system's last tile has them, and its last row has no
 * super-diagonal, so they stay decoupled). mode TD_REG_SOLVE: the whole system
 * (r0 = 0), x stored; TD_REG_FWD: the tile's record stored (field f at
 * rec[f * cnt + gi]); TD_REG_BWD: with the outside values xl = io[gi],
 * xr = io[cnt + gi], x stored unless an earlier pass raised a flag;
 * TD_REG_CLU: tile gi % cnt of a system of cnt tiles, one a group of a
 * cluster (td_reg_clu below, cx its exchange area), x stored. W: the
 * group's work-items (LOCAL_SIZE(), or a constant equal to it:
 * td_reg_solve_s64). bad_nf: a non-finite input, bad_sg: a zero pivot or
 * junction or a non-finite x. */
#define TD_REG_SOLVE 0
#define TD_REG_FWD 1
#define TD_REG_BWD 2
#define TD_REG_CLU 3
#define TD_REG_FWD2 4 /* td_reg_fwd2_body's pass, not td_reg_body's */
DEVICE void td_reg_body(TD_SRC_PARAMS, int W, int sh, int mode, long n, long sys, long r0,
                        long gi, long cnt, GLOBAL scalar *b, GLOBAL scalar *save,
                        GLOBAL scalar *io, GLOBAL int *flags, LOCAL_P scalar *sm,
                        LOCAL_P int *bad_nf, LOCAL_P int *bad_sg, LOCAL_P scalar *cx) {
  int t = (int)LOCAL_ID();
  scalar z = S_ZERO;
  /* 1. the tile through local memory (padded as td_tile.h's TD_BPAD) part by
   * part, each work-item's own rows into registers. Entry i of a part is row
   * TD_REG_PQ h + i % TD_REG_PQ of partition i / TD_REG_PQ: coalesced runs of
   * TD_REG_PQ rows. */
  int S = W * (TD_REG_PQ + 1), ysm = TD_REG_YL(sh, mode), cpf = TD_REG_CPF(sh, mode);
  int top = TD_REG_TOP(sh, mode);
  scalar u[TD_RQ], y[TD_RQ], w[TD_RQ], vlast = S_ZERO, rec[6], p = S_ONE;
  scalar s = sh ? shift[sys] : S_ZERO;
#pragma unroll
  for (int h = 0; h < TD_REG_PH; h++) {
    scalar ka[TD_REG_PQ], kd[TD_REG_PQ], kc[TD_REG_PQ];
#if defined(TD_CP_ASYNC) && !defined(TD_REG_NO_CPF)
    if (cpf) { /* f straight to local memory, the part's rows all in flight; b's copy below */
      const GLOBAL scalar *gf = b + td_rhs_index(TD_SRC_ARGS, sys, r0);
#pragma unroll
      for (int u = 0; u < TD_REG_PQ; u++) {
        int i = t + u * W;
        long r = TD_REG_ROW(h, i);
        if (r < n)
          TD_CP_ASYNC(&sm[TD_BPAD(i, TD_REG_PLQ)], gf + (int)(r - r0));
        else
          sm[TD_BPAD(i, TD_REG_PLQ)] = S_ZERO;
      }
    }
#endif
    if (sh) td_reg_coefs(TD_SRC_ARGS, s, r0 + (long)h * TD_REG_PQ * W + t, W, ka, kd, kc, &z);
#pragma unroll
    for (int u0 = 0; u0 < (cpf ? 0 : TD_REG_PQ); u0 += TD_REG_LOAD_U) { /* LOAD_U rows in flight */
      scalar va[TD_REG_LOAD_U], vd[TD_REG_LOAD_U], vc[TD_REG_LOAD_U], vf[TD_REG_LOAD_U];
#pragma unroll
      for (int u = 0; u < TD_REG_LOAD_U; u++) {
        long r = TD_REG_ROW(h, t + (u0 + u) * W);
        if (sh) { /* f alone */
          vf[u] = td_reg_f(TD_SRC_ARGS, b, sys, r, n);
        } else {
          td_row_fetch_k(TD_SRC_ARGS, sh, sys, r, n, b, &va[u], &vd[u], &vc[u], &vf[u]);
        }
      }
#pragma unroll
      for (int u = 0; u < TD_REG_LOAD_U; u++) { /* the stores after the loads: they may alias */
        long r = TD_REG_ROW(h, t + (u0 + u) * W);
        int p = TD_BPAD(t + (u0 + u) * W, TD_REG_PLQ);
        if (save != 0 && r < n) save[sys * n + r] = vf[u];
        /* v * 0 is NaN exactly for NaN/Inf v: one check for the whole row */
        if (sh) {
          z = S_NF(z, vf[u]);
          sm[p] = vf[u];
        } else {
          z = S_NF(S_NF(S_NF(S_NF(z, va[u]), vd[u]), vc[u]), vf[u]);
          sm[p] = va[u];
          sm[S + p] = vd[u];
          sm[2 * S + p] = vc[u];
          sm[3 * S + p] = vf[u];
        }
      }
    }
#if defined(TD_CP_ASYNC) && !defined(TD_REG_NO_CPF)
    if (cpf) {
      TD_CP_WAIT(); /* this work-item's copies */
      if (save != 0)
        for (int u = 0; u < TD_REG_PQ; u++) {
          long r = TD_REG_ROW(h, t + u * W);
          if (r < n) save[sys * n + r] = sm[TD_BPAD(t + u * W, TD_REG_PLQ)];
        }
    }
#endif
    BARRIER();
#if defined(TD_PREFETCH_L2) && TD_REG_PF > 0 /* (not in the condition: clang warns there) */
    if (mode == TD_REG_SOLVE && sh && h == 0) /* the tile is in */
      td_reg_prefetch(TD_SRC_ARGS, n, sys, t, b);
#endif
    /* 2. Thomas with both spikes (td_tile_factor, pivot = 0), reading a, d,
     * c, f of the work-item's rows as it goes; u and w stay in registers, y
     * too unless ysm. The partition's own last super-diagonal is the right
     * spike's. */
    LOCAL_P scalar *ra = sm + TD_BPAD(t * TD_REG_PQ, TD_REG_PLQ), *rd = ra + S, *rc = ra + 2 * S,
                   *rf = sh ? ra : ra + 3 * S;
#pragma unroll
    for (int k = 0; k < TD_REG_PQ; k++) {
      if (cpf) z = S_NF(z, rf[k]); /* f's NaN/Inf check, as at the load */
      td_spike_row(h * TD_REG_PQ + k, TD_RQ, sh ? ka[k] : ra[k], sh ? kd[k] : rd[k],
                   sh ? kc[k] : rc[k], rf[k], u, y, w, &vlast);
      if (ysm) rf[k] = y[h * TD_REG_PQ + k]; /* (y by the tile's row; ysm: one part) */
      if (top) td_spike_top(h * TD_REG_PQ + k, TD_RQ, u, y, w, vlast, &p, rec);
    }
    if (TD_REG_PH > 1) BARRIER(); /* the part is read: the next one may come */
  }
  if (!top) td_spike_record(TD_RQ, u, y, w, vlast, rec);
  if (t == 0) *bad_nf = *bad_sg = 0;
  if (t == 0 && mode == TD_REG_CLU) bad_nf[2] = bad_nf[3] = 0;
  if (TD_REG_PH == 1) BARRIER(); /* the tile is read: its memory takes the records */
  /* 3. the records' reduced system, outside values down the tree: nd
   * holds the P records of td_merge_up (field f at nd[f * M + k]), in mb
   * (past the tile where it keeps y) */
  int P, M, lane = t & 31, warp = TD_REG_WARP(sh, mode, W);
  LOCAL_P scalar *nd, *mb = ysm ? sm + S : sm;
#ifdef TD_SHFL_DOWN_D
  if (warp) {
    /* every partition, those past n too (identity rows: a zero record); the
     * warps' records to the tree */
    P = W / 32;
    M = 2 * P;
    nd = mb + 6 * W;
    td_warp_up(rec, lane, mb + (t - lane), W, bad_sg);
    if (lane == 0)
      for (int f = 0; f < 6; f++) nd[f * M + t / 32] = rec[f];
  } else
#endif
  {
    long rows = n - r0 < (long)W * TD_RQ ? n - r0 : (long)W * TD_RQ;
    P = (int)((rows + TD_RQ - 1) / TD_RQ);
    M = 2 * W;
    nd = mb;
    if (t < P)
      for (int f = 0; f < 6; f++) nd[f * M + t] = rec[f];
  }
  BARRIER();
  int root = td_merge_up(nd, M, P, bad_sg, 0);
  if (mode == TD_REG_FWD) { /* pass 1 of a longer system: the tile's record */
    if (t < 6) {
      scalar v = nd[t * M + root];
      io[t * cnt + gi] = v;
      if (!S_ISFINITE(v)) *bad_sg = 1; /* a zero pivot's NaN */
    }
    if (!S_ISFINITE(z)) *bad_nf = 1;
    BARRIER();
    if (t == 0 && (*bad_nf || *bad_sg)) flags[*bad_nf ? TD_FLAG_NONFINITE : TD_FLAG_SINGULAR] = 1;
    return;
  }
#ifdef TD_CLUSTER_SYNC
  if (mode == TD_REG_CLU) {
    /* the system's tile records, one a group of the cluster: every group
     * reads them all from the groups' local memory (cx: the record, then the
     * error words, own ones at bad_nf[0..1], the others' at bad_nf[2..3])
     * and merges them (td_merge_closed, as td_merge_self does); its own
     * words and record stay as they are until every group has read them
     * (TD_CLUSTER_WAIT) */
    int nt = (int)cnt, k = (int)(gi % cnt), NC = 16; /* the levels of 8 nodes: 8 + 4 + 2 + 1 */
    LOCAL_P int *cb = bad_nf + 2;
    LOCAL_P scalar *nc = cx + 8; /* field f of tile i at nc[f NC + i] */
    if (t < 6) cx[t] = nd[t * M + root];
    if (!S_ISFINITE(z)) *bad_nf = 1;
    TD_CLUSTER_SYNC();
    for (int i = t; i < 6 * nt; i += W) {
      scalar v = TD_CLUSTER_LD(cx + i % 6, i / 6);
      if (!S_ISFINITE(v)) cb[1] = 1; /* a zero pivot's NaN */
      nc[(i % 6) * NC + i / 6] = v;
    }
    if (t < nt && TD_CLUSTER_LD_I(bad_nf, t)) cb[0] = 1;
    if (t < nt && TD_CLUSTER_LD_I(bad_sg, t)) cb[1] = 1;
    TD_CLUSTER_ARRIVE();
    BARRIER();
    td_merge_closed(nc, NC, nt, cb + 1);
    TD_CLUSTER_WAIT();
    if (t == 0) {
      nd[6 * M + root] = nc[6 * NC + k];
      nd[7 * M + root] = nc[7 * NC + k];
      if (cb[0]) *bad_nf = 1;
      if (cb[1]) *bad_sg = 1;
    }
  } else
#endif
      if (t == 0) {
    nd[6 * M + root] = mode == TD_REG_BWD ? io[gi] : S_ZERO;
    nd[7 * M + root] = mode == TD_REG_BWD ? io[cnt + gi] : S_ZERO;
  }
  BARRIER();
  td_merge_down(nd, M, P, 0);
  scalar xl = S_ZERO, xr = S_ZERO;
#ifdef TD_SHFL_DOWN_D
  if (warp) {
    xl = nd[6 * M + t / 32];
    xr = nd[7 * M + t / 32];
    td_warp_down(lane, mb + (t - lane), W, &xl, &xr);
  } else
#endif
      if (t < P) {
    xl = nd[6 * M + t];
    xr = nd[7 * M + t];
  }
  BARRIER();
  /* 4. x = y - w xl - u x_next (- v xr on the last row), stored coalesced
   * (slim: x in y's registers, then part by part) */
  scalar x = S_ZERO, zx = S_ZERO;
  LOCAL_P scalar *xs = sm + TD_BPAD(t * TD_RQ, TD_RLQ); /* y's slots where ysm */
#pragma unroll
  for (int k = TD_RQ - 1; k >= 0; k--) {
    x = td_spike_x(k, TD_RQ, u, ysm ? xs[k] : y[k], w, vlast, xl, xr, x);
    if (TD_REG_SLIM)
      y[k] = x;
    else
      xs[k] = x;
    zx = S_NF(zx, x);
  }
  if (!S_ISFINITE(z)) *bad_nf = 1;
  if (!S_ISFINITE(zx)) *bad_sg = 1;
  BARRIER();
  if (*bad_nf || *bad_sg) {
    if (t == 0) flags[*bad_nf ? TD_FLAG_NONFINITE : TD_FLAG_SINGULAR] = 1;
    return;
  }
  if (mode == TD_REG_BWD && (flags[TD_FLAG_NONFINITE] || flags[TD_FLAG_SINGULAR])) return;
  if (TD_REG_SLIM) { /* part h: entry i is row TD_REG_ROW(h, i), as step 1 loaded it */
#pragma unroll
    for (int h = 0; h < TD_REG_PH; h++) {
      LOCAL_P scalar *xp = sm + TD_BPAD(t * TD_REG_PQ, TD_REG_PLQ);
#pragma unroll
      for (int k = 0; k < TD_REG_PQ; k++) xp[k] = y[h * TD_REG_PQ + k];
      BARRIER();
#pragma unroll
      for (int u = 0; u < TD_REG_PQ; u++) {
        long r = TD_REG_ROW(h, t + u * W);
        if (r < n) b[td_rhs_index(TD_SRC_ARGS, sys, r)] = sm[TD_BPAD(t + u * W, TD_REG_PLQ)];
      }
      if (h + 1 < TD_REG_PH) BARRIER(); /* the part is stored: the next one may come */
    }
  } else {
#pragma unroll
    for (int u = 0; u < TD_RQ; u++) {
      long r = r0 + t + u * W;
      if (r < n)
        b[td_rhs_index(TD_SRC_ARGS, sys, r)] = sm[TD_BPAD(t + u * W, TD_RLQ)];
    }
  }
}

/* The shifted kernels' A and M (TD_SRC_PARAMS' six diagonals; M's may be
 * null) in td_reg_body's order for tiles of T = W TD_RQ rows: row
 * r = tile T + t TD_RQ + k at index tile T + k W + t of out's arrays
 * (len = tiles T each, A's three then M's; a null M diagonal stays
 * unwritten). The couplings outside the system are zero and rows past n
 * identity rows (A: d = 1; M: 0), so the kernels read without bounds. */
KERNEL void td_reg_perm(TD_SRC_KPARAMS, long n, long len, int W, GPTR(scalar, out)) {
  TD_SRC_KAT();
  GPTR_AT(scalar, out);
  long i = TD_GID();
  if (i >= len) return;
  /* int division (len < 2^31, the host's check): 64-bit took most of the kernel */
  int T = W * TD_RQ, ii = (int)i, e = ii % T, k = e / W;
  long r = (long)(ii - e) + (long)(e - k * W) * TD_RQ + k, rr = r < n ? r : n - 1;
  int in = r < n, lo = in && r > 0, hi = in && r + 1 < n;
  out[i] = lo ? cdl[rr] : S_ZERO;
  out[len + i] = in ? cd[rr] : S_ONE;
  out[2 * len + i] = hi ? cdu[rr] : S_ZERO;
  if (mdl != 0) out[3 * len + i] = lo ? mdl[rr] : S_ZERO;
  if (md != 0) out[4 * len + i] = in ? md[rr] : S_ZERO;
  if (mdu != 0) out[5 * len + i] = hi ? mdu[rr] : S_ZERO;
}

/* Real: at most 640 work-items caps the registers at 102 (nvcc's choice, 128,
 * halves the groups an SM at W = 64 and does not fit W = 512). Complex keeps
 * its ~150 (a 128 cap spills), so W <= 384: the host asks the kernel's limit.
 * More rows a work-item get fewer work-items (gpu_td_reg_maxw). */
#ifndef TD_REG_MAXW
#define TD_REG_MAXW (PSCR_COMPLEX ? 384 : 640)
#endif
#define TD_REG_KERNEL KERNEL_MAXW(TD_REG_MAXW)

/* Every kernel twice: plain rows (td_reg_solve, ...) and shifted (..._s),
 * the source fixed at compile time (TD_SRC_FIX), rows of stride 1. */
/* One group of W work-items per system of n <= W TD_RQ rows: every input read
 * once, x written once (b's rows first to bsave unless it is null); w: W as
 * the body sees it. */
#define TD_REG_SOLVE_KERNEL(name, sh, w)                                                           \
  TD_REG_KERNEL void name(TD_SRC_KPARAMS, long n, GPTR(scalar, b), GPTR(scalar, bsave),            \
                          GPTR(int, flags)) {                                                      \
    TD_SRC_KAT();                                                                                  \
    GPTR_AT(scalar, b);                                                                            \
    GPTR_AT(scalar, bsave);                                                                        \
    GPTR_AT(int, flags);                                                                           \
    LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);                                                        \
    LOCAL int bad_nf, bad_sg;                                                                      \
    TD_SRC_FIX(sh);                                                                                \
    TD_SRC_AT_SYS0(b);                                                                             \
    td_reg_body(TD_SRC_ARGS, w, sh, TD_REG_SOLVE, n, GROUP_ID(), 0, 0, 0, b, bsave, 0, flags, sm,  \
                &bad_nf, &bad_sg, 0);                                                              \
  }
TD_REG_SOLVE_KERNEL(td_reg_solve, 0, (int)LOCAL_SIZE())
TD_REG_SOLVE_KERNEL(td_reg_solve_s, 1, (int)LOCAL_SIZE())

/* td_reg_solve_s once more for each power-of-2 group size W of 32 .. 256,
 * a constant there (the host's choice for such a W: gpu_tile.c; tune
 * reg_wspec 0 takes the generic kernel): the row, coefficient and tile
 * offsets become immediates instead of 64-bit address arithmetic, which
 * took 370 of the 688 instructions before the first barrier. Instructions a
 * work-item (SASS, sm_90, real): 8 rows W = 64 1288 against 1760, 16 rows W = 256 2192
 * against 2848 (56 bytes of spills gone). H100, shifted floor ratio against
 * the generic kernel, same call: 16384 x 512 2.28 against 2.33 (queued 2.03
 * against 2.10), 4096 x 4096 2.11 against 2.45 (1.93 against 2.35), C128
 * 16384 x 512 2.32 against 2.50; W = 512 lost (8192 x 8192 2.47 against
 * 2.33), so it has none. One kernel each: the bodies inlined into one
 * kernel behind a switch on W spilled up to 784 bytes at 16 rows. */
TD_REG_SOLVE_KERNEL(td_reg_solve_s32, 1, 32)
TD_REG_SOLVE_KERNEL(td_reg_solve_s64, 1, 64)
TD_REG_SOLVE_KERNEL(td_reg_solve_s128, 1, 128)
TD_REG_SOLVE_KERNEL(td_reg_solve_s256, 1, 256)

/* Pass 1 of shifted systems two at a time (td_reg_fwd2_s64): systems sys
 * and sys + 1 (two = 0: sys alone, the odd one of a batch), the same tile,
 * A and M read once a row for both shifts. td_reg_fwd_s* reads them for
 * every system: 48 bytes a row from L2 against f's 8 from DRAM (H200,
 * NVIDIA's OpenCL, shifted 8192 x 8192: td_reg_fwd_s64 350 us, 209 in a
 * trial that read one row's coefficients for all 16; this kernel 314).
 * The arithmetic of td_reg_body's TD_REG_FWD, one part, system by system
 * (the records agree with it, to the sign of a zero where the tree below
 * takes identity partitions that td_reg_body's leaves out): f of both
 * systems through local memory, Thomas with both spikes row by row with the
 * record's tops summed as it goes, each system's records by the warps'
 * shuffles (real rows where the dialect has them; else one a partition, W
 * of them) and the two trees side by side (td_merge_up_n). Records at
 * io[f cnt + sys nt + tile]; local memory: TD_REG_FWD2_LOCAL(W) scalars
 * (the tiles, or the trees of W records each: 6 fields of 4 W nodes). */
#define TD_REG_FWD2_LOCAL(W) (2 * (TD_RQ + 1) > 24 ? 2 * (W) * (TD_RQ + 1) : 24 * (W))
DEVICE void td_reg_fwd2_body(TD_SRC_PARAMS, int W, long n, long sys, int two, long r0, long nt,
                             long tile, long cnt, GLOBAL scalar *b, GLOBAL scalar *io,
                             GLOBAL int *flags, LOCAL_P scalar *sm, LOCAL_P int *bad_nf,
                             LOCAL_P int *bad_sg) {
  int t = (int)LOCAL_ID(), S = W * (TD_RQ + 1);
  long sy[2] = {sys, two ? sys + 1 : sys};
  scalar z = S_ZERO, sv[2] = {shift[sy[0]], shift[sy[1]]};
  /* 1. f of both tiles, as td_reg_body loads one (identity rows past n) */
#pragma unroll
  for (int e = 0; e < 2; e++) {
#pragma unroll
    for (int u0 = 0; u0 < TD_RQ; u0 += TD_REG_LOAD_U) {
      scalar vf[TD_REG_LOAD_U];
#pragma unroll
      for (int u = 0; u < TD_REG_LOAD_U; u++) {
        vf[u] = td_reg_f(TD_SRC_ARGS, b, sy[e], r0 + t + (u0 + u) * W, n);
      }
#pragma unroll
      for (int u = 0; u < TD_REG_LOAD_U; u++) {
        z = S_NF(z, vf[u]);
        sm[e * S + TD_BPAD(t + (u0 + u) * W, TD_RLQ)] = vf[u];
      }
    }
  }
  BARRIER();
  /* 2. both sweeps, row by row */
  LOCAL_P scalar *rf = sm + TD_BPAD(t * TD_RQ, TD_RLQ);
  scalar u[2][TD_RQ], y[2][TD_RQ], w[2][TD_RQ], vl[2] = {S_ZERO, S_ZERO}, rec[2][6];
  scalar p[2] = {S_ONE, S_ONE};
#pragma unroll
  for (int k = 0; k < TD_RQ; k++) {
    scalar ka[2], kd[2], kc[2];
    td_reg_coef_row(TD_SRC_ARGS, r0 + t + (long)k * W, 2, sv, ka, kd, kc, &z);
#pragma unroll
    for (int e = 0; e < 2; e++) {
      td_spike_row(k, TD_RQ, ka[e], kd[e], kc[e], rf[e * S + k], u[e], y[e], w[e], &vl[e]);
      td_spike_top(k, TD_RQ, u[e], y[e], w[e], vl[e], &p[e], rec[e]);
    }
  }
  if (t == 0) *bad_nf = *bad_sg = 0;
  BARRIER(); /* the tiles are read: their memory takes the records */
  /* 3. system e's records at nd[f M + e P + k], its tree's root at root + e */
  int P, M;
  LOCAL_P scalar *nd;
#ifdef TD_SHFL_DOWN_D
  if (!PSCR_COMPLEX) {
    int lane = t & 31;
    P = W / 32;
    M = 4 * P;
    nd = sm + 6 * W; /* past the warps' junctions (td_warp_up's J; not read in this pass) */
#pragma unroll
    for (int e = 0; e < 2; e++) {
      td_warp_up(rec[e], lane, sm + (t - lane), W, bad_sg);
      if (lane == 0)
        for (int f = 0; f < 6; f++) nd[f * M + e * P + t / 32] = rec[e][f];
    }
  } else
#endif
  {
    P = W;
    M = 4 * W;
    nd = sm;
    for (int e = 0; e < 2; e++)
      for (int f = 0; f < 6; f++) nd[f * M + e * P + t] = rec[e][f];
  }
  BARRIER();
  int root = td_merge_up_n(nd, M, 2 * P, bad_sg, 0, 2);
  if (t < 12) {
    int e = t / 6, f = t - 6 * e;
    scalar v = nd[f * M + root + e];
    if (e == 0 || two) io[f * cnt + sy[e] * nt + tile] = v;
    if (!S_ISFINITE(v)) *bad_sg = 1; /* a zero pivot's NaN */
  }
  if (!S_ISFINITE(z)) *bad_nf = 1;
  BARRIER();
  if (t == 0 && (*bad_nf || *bad_sg)) flags[*bad_nf ? TD_FLAG_NONFINITE : TD_FLAG_SINGULAR] = 1;
}

/* Passes 1 and 3 of a system of nt tiles of W TD_RQ rows (td_tile.h's
 * td_tile_fwd / td_tile_bwd, the reduced system between them by
 * td_tile_gup / td_tile_gdown): group g is tile g % nt of system g / nt.
 * io: the records stored (TD_REG_FWD, TD_REG_FWD2) or the outside values
 * read (TD_REG_BWD). w: W as the body sees it; local: the local array's
 * scalars. TD_REG_FWD2 (shifted, w a constant: td_reg_fwd2_body above):
 * group g is tile g % nt of systems 2 (g / nt) and the next, of a batch of
 * cnt / nt (the host launches ceil(batch / 2) nt groups). */
#define TD_REG_PASS_KERNEL(name, sh, mode, w, local)                                               \
  TD_REG_KERNEL void name(TD_SRC_KPARAMS, long n, long nt, long cnt, GPTR(scalar, b),              \
                          GPTR(scalar, io), GPTR(int, flags)) {                                    \
    TD_SRC_KAT();                                                                                  \
    GPTR_AT(scalar, b);                                                                            \
    GPTR_AT(scalar, io);                                                                           \
    GPTR_AT(int, flags);                                                                           \
    LOCAL_ARRAY(scalar, sm, local);                                                                \
    LOCAL int bad_nf, bad_sg;                                                                      \
    TD_SRC_FIX(sh);                                                                                \
    TD_SRC_AT_SYS0(b);                                                                             \
    if ((mode) == TD_REG_FWD2) {                                                                   \
      long g = GROUP_ID(), pr = g / nt, tile = g - pr * nt;                                        \
      td_reg_fwd2_body(TD_SRC_ARGS, w, n, 2 * pr, 2 * pr + 1 < cnt / nt,                           \
                       tile * (long)(w) * TD_RQ, nt, tile, cnt, b, io, flags, sm, &bad_nf,         \
                       &bad_sg);                                                                   \
    } else {                                                                                       \
      long g = (mode) == TD_REG_BWD ? TD_BWD_GROUP(cnt) : GROUP_ID(), sys = g / nt;                \
      long r0 = (g - sys * nt) * (long)(w) * TD_RQ;                                                \
      td_reg_body(TD_SRC_ARGS, w, sh, mode, n, sys, r0, g, cnt, b, 0, io, flags, sm, &bad_nf,      \
                  &bad_sg, 0);                                                                     \
    }                                                                                              \
  }
TD_REG_PASS_KERNEL(td_reg_fwd, 0, TD_REG_FWD, (int)LOCAL_SIZE(), TD_TILE_LOCAL)
TD_REG_PASS_KERNEL(td_reg_fwd_s, 1, TD_REG_FWD, (int)LOCAL_SIZE(), TD_TILE_LOCAL)
TD_REG_PASS_KERNEL(td_reg_bwd, 0, TD_REG_BWD, (int)LOCAL_SIZE(), TD_TILE_LOCAL)
TD_REG_PASS_KERNEL(td_reg_bwd_s, 1, TD_REG_BWD, (int)LOCAL_SIZE(), TD_TILE_LOCAL)
/* The passes once more for W = 64, a constant there (the host's choice for
 * that W, as td_reg_solve_s64's: tune reg_wspec 0 takes the generic ones):
 * the passes' W where local memory is 48 KB (NVIDIA's OpenCL: the
 * local-memory tile's shape sets it, gpu_tile.c). */
TD_REG_PASS_KERNEL(td_reg_fwd64, 0, TD_REG_FWD, 64, TD_TILE_LOCAL)
TD_REG_PASS_KERNEL(td_reg_fwd_s64, 1, TD_REG_FWD, 64, TD_TILE_LOCAL)
TD_REG_PASS_KERNEL(td_reg_bwd64, 0, TD_REG_BWD, 64, TD_TILE_LOCAL)
TD_REG_PASS_KERNEL(td_reg_bwd_s64, 1, TD_REG_BWD, 64, TD_TILE_LOCAL)
/* The shifted first pass two systems a group, for those W = 64 passes */
TD_REG_PASS_KERNEL(td_reg_fwd2_s64, 1, TD_REG_FWD2, 64, TD_REG_FWD2_LOCAL(64))

/* A system of nt tiles in one pass where the dialect has clusters of work
 * groups that read each other's local memory (TD_CLUSTER_*: CUDA's
 * thread-block clusters, sm_90; elsewhere the two passes above): group g is
 * tile g % nt of system g / nt, a cluster a system (nt <= 8 groups, the
 * portable cluster size). Each tile's record goes to every group of its
 * cluster, which merges them all and goes on with its own outside values:
 * b is read once (saved first to bsave unless null) and x written once,
 * where td_reg_fwd and td_reg_bwd read b twice. The exchange area (8 + 128
 * scalars) starts at sm + xoff, past the tile's. */
#ifdef TD_CLUSTER_SYNC
#define TD_REG_CLU_KERNEL(name, sh, w)                                                             \
  TD_REG_KERNEL void name(TD_SRC_KPARAMS, long n, long nt, long xoff, GPTR(scalar, b),             \
                          GPTR(scalar, bsave), GPTR(int, flags)) {                                 \
    TD_SRC_KAT();                                                                                  \
    GPTR_AT(scalar, b);                                                                            \
    GPTR_AT(scalar, bsave);                                                                        \
    GPTR_AT(int, flags);                                                                           \
    LOCAL_ARRAY(scalar, sm, TD_TILE_LOCAL);                                                        \
    LOCAL_P scalar *cx = sm + xoff;                                                                \
    LOCAL_P int *bad = (LOCAL_P int *)(cx + 6); /* four words in two scalars */                    \
    TD_SRC_FIX(sh);                                                                                \
    TD_SRC_AT_SYS0(b);                                                                             \
    long g = GROUP_ID(), sys = g / nt, r0 = (g - sys * nt) * (long)(w) * TD_RQ;                  \
    td_reg_body(TD_SRC_ARGS, w, sh, TD_REG_CLU, n, sys, r0, g, nt, b, bsave, 0, flags, sm, bad,    \
                bad + 1, cx);                                                                      \
  }
TD_REG_CLU_KERNEL(td_reg_clu, 0, (int)LOCAL_SIZE())
TD_REG_CLU_KERNEL(td_reg_clu_s, 1, (int)LOCAL_SIZE())
/* shifted tiles of the default 128 work-items (clu_w), W a constant */
TD_REG_CLU_KERNEL(td_reg_clu_s128, 1, 128)
#endif

#endif
