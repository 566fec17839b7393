/* The innermost PSCR stages fused, one system per work-item ("lane").
 *
 * Why lanes: all the eigenpairs of a block share the block's right-hand-side
 * rows D (26)/(28), the matrices A_last, M_last and the output rows (24)/(27);
 * they differ only in the shift sg = c + lambda and the weights w. A
 * work-group of PSCR_LANE_W lanes takes PSCR_LANE_W consecutive eigenpairs of
 * a step (of one or several blocks), every lane runs the elimination of its
 * own system down all n rows, and every load of a row is a broadcast shared
 * by the lanes of a block.
 *
 * The recurrence is the CPU backend's Thomas sweep in excess form
 * (cpu_pscr_inner_tmpl.c): with o_i = ao_i + sg mo_i, k_i = sign(ao_i) and
 * the row excess s_i = exa_i + sg exm_i,
 *   l_i = o_i-1 / p_i-1,  t_i = s_i + l_i k_i-1 t_i-1,  p_i = t_i + k_i o_i,
 *   z_i = f_i - l_i z_i-1,  x_i = (z_i - o_i x_i+1) / p_i,
 * carried as continuants so that no division lies on the chain from row to
 * row (2D problems have few systems a step, and their time is that chain):
 * with P_i = p_0 ... p_i and T_i = t_i P_i-1,
 *   T_i = s_i P_i-1 + k_i-1 o_i-1 T_i-1,  P_i = T_i + k_i o_i P_i-1,
 *   1 / p_i = P_i-1 / P_i  (off the chain),
 * the same two same-signed terms as t_i and p_i (no new cancellation), P and
 * T rescaled together by a power of 2 every PSCR_LANE_S rows (exact), the
 * rows taken times a power of 2 near 1 / |row 0| (pscr_lane_start): only
 * pivots more than 1e75 times larger or smaller than row 0 overflow P
 * within those rows (the test then sends the system to the pivoting, or
 * SINGULAR is raised).
 * AUTO without the plan's proof of definiteness (complex Helmholtz,
 * indefinite real) tests every system and solves those that fail with
 * diagonal pivoting in their lane (pscr_lane_task's check).
 *
 * Nothing of a system is stored per row: the forward sweep keeps its state at
 * every PSCR_LANE_R-th row (checkpoints, 4 scalars), and the backward sweep
 * recomputes each chunk of PSCR_LANE_R rows from its checkpoint in registers
 * before substituting back through it. The sums (24)/(27) of a chunk are
 * reduced over the lanes of each block in local memory and stored at once:
 * to the block's destination (pscr_dst) when the block lies in one
 * work-group, else to its partial-sum slot for stage_y2b.
 * Work-group size: exactly PSCR_LANE_W.
 *
 * Real data proven definite takes the plain kernel at the end of this file
 * (pscr_lane_plain: Thomas alone). Measured (H100, bench/RESULTS.md "The lane
 * engine", "The plain lane kernel", "Leaner plain lanes"): pscr_lane_task ~390
 * warp instructions a row, slower than the tiles but on complex 3D;
 * pscr_lane_plain ~123 (22 a sweep row), 2.0-2.5x faster than the tiles on 3D
 * Poisson from 255^3 up (gpu_pscr_plan.c chooses). */
#ifndef PSCR_PSCR_LANE_H
#define PSCR_PSCR_LANE_H

#include "common/pscr_stages.h"
#include "common/td_thomas.h" /* td_thomas_row */
#include "common/td_tile.h"   /* td_max, TD_KAPPA */

#define PSCR_LANE_W 32 /* lanes of a work-group (eigenpairs of one launch group) */
#ifndef PSCR_LANE_R
#define PSCR_LANE_R 8 /* rows between checkpoints (registers against checkpoint traffic) */
#endif
#if PSCR_LANE_R < 2
#error "PSCR_LANE_R >= 2: a 2x2 pivot finishing a chunk reads the row after it"
#endif
#ifndef PSCR_LANE_RD
#define PSCR_LANE_RD 3 /* rows of D whose weights sit in registers: radix 4's q - 1 */
#endif
#define PSCR_LANE_QO 4 /* outputs reduced together */
#define PSCR_LANE_QC 8 /* outputs whose destinations a work-group keeps (more: looked up) */
#define PSCR_LANE_LD (PSCR_LANE_W + 1)

#define PSCR_LANE_S 4 /* rows between rescalings of the continuants */

/* The Thomas state after row i: P_i, T_i (both times the same power of 2,
 * and formed from the rows times sc), z_i, 1 / p_i, o_i and k_i o_i; sc, a
 * power of 2 near 1 / |row 0|, keeps the pivots in P near 1 whatever the
 * scale of the data (entries of 1e100 would overflow P within PSCR_LANE_S
 * rows). */
typedef struct {
  scalar pp, tp, zp, rp, op, kop;
  double sc;
} pscr_lane_state;

/* The state before row 0 of A_last + sg M_last (sc from row 0). */
DEVICE void pscr_lane_start(pscr_lane_state *s, const GLOBAL scalar *ad, const GLOBAL scalar *ao,
                            const GLOBAL scalar *md, const GLOBAL scalar *mo, scalar sg, long n) {
  double m = S_ABS1(S_FMA(ad[0], sg, md[0])) + (n > 1 ? S_ABS1(S_FMA(ao[0], sg, mo[0])) : 0.0);
  s->sc = m > 0 && isfinite(m) ? ldexp(1.0, -ilogb(m)) : 1.0;
  s->pp = S_ONE;
  s->tp = s->zp = s->rp = s->op = s->kop = S_ZERO;
}

/* k_i = -1 (A_last's off-diagonal i has a negative real part); 0 past the last row. */
DEVICE int pscr_lane_neg(long i, long n, const GLOBAL scalar *ao) {
  return i + 1 < n && S_REAL_PART(ao[i]) < 0;
}

/* o_i = ao_i + sg mo_i (0 past the last row), and k_i o_i = |o_i| for real data. */
DEVICE scalar pscr_lane_off(long i, long n, const GLOBAL scalar *ao, const GLOBAL scalar *mo,
                            scalar sg, scalar *ko) {
  if (i + 1 >= n) {
    *ko = S_ZERO;
    return S_ZERO;
  }
  scalar o = S_FMA(ao[i], sg, mo[i]);
  *ko = pscr_lane_neg(i, n, ao) ? S_NEG(o) : o;
  return o;
}

/* The row excess s_i = exa_i + sg exm_i (exc = exa (n), exm (n)). */
DEVICE scalar pscr_lane_exc(const GLOBAL scalar *exc, long n, scalar sg, long i) {
  return S_FMA(exc[i], sg, exc[n + i]);
}

/* One row of the forward sweep (the recurrence above) from its fetched values
 * (pscr_lane_fetch): o = o_i, ko = k_i o_i, x = exa_i + sg exm_i, f = f_i. */
DEVICE void pscr_lane_step(long i, scalar o, scalar ko, scalar x, scalar f, pscr_lane_state *s) {
  if (i % PSCR_LANE_S == 0) { /* P and T times 2^-e, |P| in [1, 2) */
    double m = S_ABS1(s->pp);
    if (m > 0 && isfinite(m)) {
      double r = ldexp(1.0, -ilogb(m));
      s->pp = S_SCALE(r, s->pp), s->tp = S_SCALE(r, s->tp);
    }
  }
  scalar l = S_MUL(s->op, s->rp);
  scalar si = S_SCALE(s->sc, x);
  scalar t = S_FMA(S_MUL(si, s->pp), S_SCALE(s->sc, s->kop), s->tp);
  scalar p = S_FMA(t, S_SCALE(s->sc, ko), s->pp);
  s->rp = S_SCALE(s->sc, S_DIV(s->pp, p)); /* P_i-1 / P_i = sc / p_i */
  s->zp = S_FMS(f, l, s->zp);
  s->pp = p, s->tp = t, s->op = o, s->kop = ko;
}

/* Checkpoint ch of system sys (nsys systems): P, T, z, 1/p before row ch R. */
DEVICE void pscr_lane_save(GLOBAL scalar *ckp, long ch, long nsys, long sys,
                           const pscr_lane_state *s) {
  GLOBAL scalar *cp = ckp + 4 * ch * nsys + sys;
  cp[0] = s->pp, cp[nsys] = s->tp, cp[2 * nsys] = s->zp, cp[3 * nsys] = s->rp;
}

DEVICE void pscr_lane_load(const GLOBAL scalar *ckp, long ch, long nsys, long sys, long n,
                           const GLOBAL scalar *ao, const GLOBAL scalar *mo, scalar sg,
                           pscr_lane_state *s) {
  const GLOBAL scalar *cp = ckp + 4 * ch * nsys + sys;
  s->pp = cp[0], s->tp = cp[nsys], s->zp = cp[2 * nsys], s->rp = cp[3 * nsys];
  s->op = s->kop = S_ZERO;
  if (ch > 0) s->op = pscr_lane_off(ch * PSCR_LANE_R - 1, n, ao, mo, sg, &s->kop);
}

/* A lane's right-hand-side sources (26) / (28): rows D of its block (weights
 * wi, beyond PSCR_LANE_RD read from w), and in back substitution the
 * boundary terms K̂ u, Ǩ u (weights ws, we) where the block has them. */
typedef struct {
  const GLOBAL scalar *xp, *gs, *w;
  long dk[PSCR_LANE_RD];
  const GLOBAL long *dp;
  long nrd;
  scalar wi[PSCR_LANE_RD], ws, we;
  int has_s, has_e;
} pscr_lane_src;

DEVICE scalar pscr_lane_rhs(const pscr_lane_src *c, long n, long i) {
  scalar f = S_ZERO;
  for (int k = 0; k < PSCR_LANE_RD; k++)
    if (k < c->nrd) f = S_FMA(f, c->wi[k], c->xp[c->dk[k] + i]);
  for (long k = PSCR_LANE_RD; k < c->nrd; k++) f = S_FMA(f, c->w[2 + k], c->xp[c->dp[k] * n + i]);
  if (c->has_s) f = S_FMS(f, c->ws, c->gs[i]);
  if (c->has_e) f = S_FMS(f, c->we, c->gs[n + i]);
  return f;
}

/* The rows ib .. ib + R - 1 of a chunk as pscr_lane_step takes them (zeros
 * past n or off a lane), every load issued before the chain uses any: a
 * chunk then waits for memory once, not once a row (a 2D step has a few
 * warps an SM, whose rows would each wait a full memory latency). ks: bit r
 * set where k_i = -1 (K = -O there). */
DEVICE void pscr_lane_fetch(long ib, long n, int on, const GLOBAL scalar *ao, const GLOBAL scalar *mo,
                            const GLOBAL scalar *exc, scalar sg, const pscr_lane_src *c,
                            scalar *O, int *ks, scalar *X, scalar *F) {
  int k = 0;
#pragma unroll
  for (int r = 0; r < PSCR_LANE_R; r++) {
    long i = ib + r;
    int ok = on && i < n;
    scalar ko, o = ok ? pscr_lane_off(i, n, ao, mo, sg, &ko) : S_ZERO;
    O[r] = o;
    k |= ok && pscr_lane_neg(i, n, ao) ? 1 << r : 0;
    X[r] = ok ? pscr_lane_exc(exc, n, sg, i) : S_ZERO;
    F[r] = ok ? pscr_lane_rhs(c, n, i) : S_ZERO;
  }
  *ks = k;
}

/* Weight of output k: w[k] of v_first / v_last (reduce) or w[2 + k] of row D_k (back). */
DEVICE scalar pscr_lane_wout(const pscr_lane_src *c, int back, long k) {
  if (!back) return k == 0 ? c->ws : c->we;
  if (k >= PSCR_LANE_RD) return c->w[2 + k];
  scalar v = S_ZERO; /* c->wi[k] by selects: a dynamic index would put wi in local memory */
#pragma unroll
  for (int j = 0; j < PSCR_LANE_RD; j++) v = j == k ? c->wi[j] : v;
  return v;
}

#define PSCR_LANE_GROWTH 4.0 /* GROWTH of cpu_pscr_inner_tmpl.c */

/* Row i of the matrix: its diagonal d_i = ad_i + sg md_i. */
DEVICE scalar pscr_lane_diag(const GLOBAL scalar *ad, const GLOBAL scalar *md, scalar sg, long i) {
  return S_FMA(ad[i], sg, md[i]);
}

/* Symmetric diagonal pivoting (1x1 / 2x2, the asymmetric Bunch-Kaufman test
 * of seed 001 as the tiles' pscr_factor_ex, without spikes) for a lane whose
 * system fails the Thomas test. In excess form: the current row i has
 * modified diagonal p = t + E_i (E_i = k_i o_i, t its excess) and modified
 * right-hand side fm.
 *   1x1: u_i = o_i / p, y_i = fm / p, then t' = s_i+1 + E_i t / p,
 *        fm' = f_i+1 - o_i y_i;
 *   2x2 (rows i, i+1; d_i+1 = s_i+1 + E_i + E_i+1):
 *        delta = p (s_i+1 + E_i+1) + E_i t   (= p d_i+1 - o_i^2, no cancellation),
 *        y_i = (d_i+1 fm - o_i f_i+1) / delta, y_i+1 = (p f_i+1 - o_i fm) / delta,
 *        u_i = -o_i o_i+1 / delta (row i couples to x_i+2), u_i+1 = p o_i+1 / delta,
 *        then t'' = s_i+2 + E_i+1 (p s_i+1 + E_i t) / delta, fm'' = f_i+2 - o_i+1 y_i+1;
 * back substitution x_i = y_i - u_i x_i+1 (x_i+2 for the first row of a 2x2).
 * Row interchanges (LAPACK gtsv's partial pivoting) break the symmetry that
 * keeps s apart from E: on 2D Helmholtz 64 x 2047 at omega = 20 pi they
 * measured a residual 170x this one's. */
/* 2 where rows i, i+1 take a 2x2 pivot, else 1. */
DEVICE int pscr_lane_two(long i, long n, const GLOBAL scalar *ao, const GLOBAL scalar *mo,
                         const GLOBAL scalar *exc, scalar sg, scalar t) {
  if (i + 1 >= n) return 1;
  scalar e0, o0 = pscr_lane_off(i, n, ao, mo, sg, &e0);
  scalar e1, o1 = pscr_lane_off(i + 1, n, ao, mo, sg, &e1);
  scalar d1 = S_ADD(S_ADD(pscr_lane_exc(exc, n, sg, i + 1), e0), e1);
  double a = S_ABS1(o0), sigma = td_max(td_max(a, S_ABS1(d1)), S_ABS1(o1));
  return S_ABS1(S_ADD(t, e0)) * sigma < TD_KAPPA * a * a ? 2 : 1;
}

/* A 1x1 pivot at row i (f1: the right-hand side of row i+1). */
DEVICE void pscr_lane_d1(long i, long n, const GLOBAL scalar *ao, const GLOBAL scalar *mo,
                         const GLOBAL scalar *exc, scalar sg, scalar f1, scalar *t, scalar *fm,
                         scalar *u, scalar *y, int *bad) {
  scalar e0, o0 = pscr_lane_off(i, n, ao, mo, sg, &e0), p = S_ADD(*t, e0);
  *bad |= S_ISZERO(p);
  scalar r = S_RCP(p);
  *u = S_MUL(o0, r), *y = S_MUL(*fm, r);
  if (i + 1 < n) {
    *t = S_FMA(pscr_lane_exc(exc, n, sg, i + 1), e0, S_MUL(*t, r));
    *fm = S_FMS(f1, o0, *y);
  }
}

/* A 2x2 pivot at rows i, i+1 (f1, f2: right-hand sides of rows i+1, i+2);
 * next = 0 leaves t, fm (the caller stops at row i+1). */
DEVICE void pscr_lane_d2(long i, long n, const GLOBAL scalar *ao, const GLOBAL scalar *mo,
                         const GLOBAL scalar *exc, scalar sg, scalar f1, scalar f2, int next,
                         scalar *t, scalar *fm, scalar *u0, scalar *y0, scalar *u1, scalar *y1,
                         int *bad) {
  scalar e0, o0 = pscr_lane_off(i, n, ao, mo, sg, &e0);
  scalar e1, o1 = pscr_lane_off(i + 1, n, ao, mo, sg, &e1);
  scalar s1 = pscr_lane_exc(exc, n, sg, i + 1), p = S_ADD(*t, e0);
  scalar q = S_FMA(S_MUL(p, s1), e0, *t); /* p s_i+1 + E_i t */
  scalar delta = S_FMA(q, p, e1);         /* p (s_i+1 + E_i+1) + E_i t */
  *bad |= S_ISZERO(delta);
  scalar r = S_RCP(delta), d1 = S_ADD(S_ADD(s1, e0), e1);
  *y0 = S_MUL(S_FMS(S_MUL(d1, *fm), o0, f1), r);
  *y1 = S_MUL(S_FMS(S_MUL(p, f1), o0, *fm), r);
  *u0 = S_NEG(S_MUL(S_MUL(o0, o1), r));
  *u1 = S_MUL(S_MUL(p, o1), r);
  if (next && i + 2 < n) {
    *t = S_FMA(pscr_lane_exc(exc, n, sg, i + 2), e1, S_MUL(q, r));
    *fm = S_FMS(f2, o1, *y1);
  }
}

/* Where output k of block bj (this work-group's window win of vector p)
 * goes: an offset into x / bnd (pscr_dst_off: a block within one
 * work-group) or into acc (its partial-sum slot for stage_y2b). */
DEVICE long pscr_lane_dst(const GLOBAL long *gd, const GLOBAL long *bj, int back, long k, long p,
                          long xs, long bps, long n, long win, long nacc, long accq) {
  if (bj[PB_NT] == 1) return pscr_dst_off(gd, bj, back, k, p, xs, bps, n);
  return ((p * nacc + bj[PB_ACC0] + win - bj[PB_E0] / PSCR_LANE_W) * accq + k) * n;
}

/* A work-group's view of its step: group g takes vector p = g / nwin and the
 * step's eigenpairs e = win W + lane (win = g % nwin, e < ne); the lane's
 * system is sys = p ne + e. */
typedef struct {
  long p, win, e, sys;
  long xo; /* lines mode: the lane's output row in x */
  int t, on, nseg;
} pscr_lane_ctx;

/* The local tables of the sums (24)/(27): a chunk's products (QO outputs x R
 * rows x W lanes), each lane's block, its outputs, and per segment (the
 * lanes of one block) its destinations. */
#define PSCR_LANE_TABLES                                                                           \
  LOCAL_P scalar *sred, LOCAL_P long *sblk, LOCAL_P long *snout, LOCAL_P long *soff,               \
      LOCAL_P int *sseg, LOCAL_P int *sone
#define PSCR_LANE_TABLE_ARGS sred, sblk, snout, soff, sseg, sone
#define PSCR_LANE_LOCALS                                                                           \
  LOCAL scalar sred[PSCR_LANE_QO * PSCR_LANE_R * PSCR_LANE_LD];                                    \
  LOCAL long sblk[PSCR_LANE_W];                                                                    \
  LOCAL long snout[PSCR_LANE_W];                                                                   \
  LOCAL long soff[PSCR_LANE_W * PSCR_LANE_QC];                                                     \
  LOCAL int sseg[PSCR_LANE_W + 2]; /* segment starts, then their count */                          \
  LOCAL int sone[PSCR_LANE_W]      /* the segment's block lies in one work-group */

/* Both lane kernels' parameters (pscr_lane_task, pscr_lane_plain). */
#define PSCR_LANE_PARAMS                                                                           \
  long n, const GLOBAL scalar *ad, const GLOBAL scalar *ao, const GLOBAL scalar *md,               \
      const GLOBAL scalar *mo, int check, const GLOBAL scalar *exc, GLOBAL scalar *x, long xs,     \
      long lev_n, const GLOBAL long *gd, long blk, long eblk, long ne, long nwin,                  \
      const GLOBAL scalar *comp, const GLOBAL scalar *lambda, const GLOBAL scalar *shift,          \
      int back, GLOBAL scalar *bnd, long bps, long qmax, GLOBAL scalar *ckp, long ckn, long nsys,  \
      GLOBAL scalar *acc, long nacc, long accq, GLOBAL int *flags, int lines
/* PSCR_LANE_PARAMS as a kernel takes them (GPTR), and their offsets applied */
#define PSCR_LANE_KPARAMS                                                                          \
  long n, GPTR(const scalar, ad), GPTR(const scalar, ao), GPTR(const scalar, md),                  \
      GPTR(const scalar, mo), int check, GPTR(const scalar, exc), GPTR(scalar, x), long xs,        \
      long lev_n, GPTR(const long, gd), long blk, long eblk, long ne, long nwin,                   \
      GPTR(const scalar, comp), GPTR(const scalar, lambda), GPTR(const scalar, shift),             \
      int back, GPTR(scalar, bnd), long bps, long qmax, GPTR(scalar, ckp), long ckn, long nsys,    \
      GPTR(scalar, acc), long nacc, long accq, GPTR(int, flags), int lines
#define PSCR_LANE_KAT()                                                                            \
  GPTR_AT(const scalar, ad); GPTR_AT(const scalar, ao); GPTR_AT(const scalar, md);                 \
      GPTR_AT(const scalar, mo); GPTR_AT(const scalar, exc); GPTR_AT(scalar, x);                   \
      GPTR_AT(const long, gd); GPTR_AT(const scalar, comp); GPTR_AT(const scalar, lambda);         \
      GPTR_AT(const scalar, shift); GPTR_AT(scalar, bnd); GPTR_AT(scalar, ckp);                    \
      GPTR_AT(scalar, acc); GPTR_AT(int, flags)

/* The lane's sources and shift, and the work-group's segments with, once for
 * the whole sweep, where each writes its outputs: the lookups through gd are
 * a chain of dependent loads, which per chunk and segment cost more than the
 * elimination itself where blocks are small. */
DEVICE void pscr_lane_setup(long n, GLOBAL scalar *x, long xs, long lev_n, const GLOBAL long *gd,
                            long blk, long eblk, long ne, long nwin, const GLOBAL scalar *comp,
                            const GLOBAL scalar *lambda, const GLOBAL scalar *shift, int back,
                            GLOBAL scalar *bnd, long bps, long qmax, long nacc, long accq,
                            pscr_lane_ctx *q, pscr_lane_src *c, scalar *sg, PSCR_LANE_TABLES) {
  const int W = PSCR_LANE_W;
  long g = GROUP_ID();
  q->p = g / nwin, q->win = g - q->p * nwin, q->e = q->win * W + LOCAL_ID();
  q->t = (int)LOCAL_ID(), q->on = q->e < ne;
  int t = q->t;
  const GLOBAL long *b = gd + blk + PB_N * gd[eblk + (q->on ? q->e : q->win * W)];
  long l = q->on ? q->e - b[PB_E0] : 0, nrd = b[PB_ND], s0 = b[PB_S];
  q->sys = q->p * ne + q->e;
  c->w = comp + b[PB_COMP] + l * (2 + nrd);
  c->xp = x + q->p * xs + s0 * n;
  c->gs = bnd + q->p * bps + b[PB_BS] * n;
  c->dp = gd + b[PB_D];
  c->nrd = nrd;
  for (int k = 0; k < PSCR_LANE_RD; k++) {
    c->dk[k] = k < nrd ? c->dp[k] * n : 0;
    c->wi[k] = k < nrd ? c->w[2 + k] : S_ZERO;
  }
  c->ws = c->w[0], c->we = c->w[1];
  c->has_s = back && s0 > 0, c->has_e = back && s0 + b[PB_M] < lev_n;
  *sg = S_ADD(shift[q->p], lambda[b[PB_EIG] + l]);
  sblk[t] = q->on ? gd[eblk + q->e] : -1;
  snout[t] = back ? nrd : 2;
  BARRIER();
  if (t == 0) {
    int m = 0;
    for (int j = 0; j < W; j++)
      if (j == 0 || sblk[j] != sblk[j - 1]) sseg[m++] = j;
    sseg[m] = W, sseg[W + 1] = m;
  }
  BARRIER();
  q->nseg = sseg[W + 1];
  if (t < q->nseg && sblk[sseg[t]] >= 0) {
    const GLOBAL long *bj = gd + blk + PB_N * sblk[sseg[t]];
    sone[t] = bj[PB_NT] == 1;
    for (long k = 0; k < qmax && k < PSCR_LANE_QC && k < snout[sseg[t]]; k++)
      soff[t * PSCR_LANE_QC + k] =
          pscr_lane_dst(gd, bj, back, k, q->p, xs, bps, n, q->win, nacc, accq);
  }
  BARRIER();
}

/* Lines mode (pscr_lane_task's `lines`: a lines plan, pscr_plan_lines): the
 * step is one block of one row and one eigenpair, and lane t of group g
 * solves vector p = g W + t (p < nsys) instead of an eigenpair: its own
 * right-hand side (row D of its vector), its own shift, its own output (the
 * same row, weight w(D)). No segments, no reduction. */
DEVICE void pscr_lane_setup_lines(long n, GLOBAL scalar *x, long xs, const GLOBAL long *gd,
                                  long blk, long eblk, long nsys, const GLOBAL scalar *comp,
                                  const GLOBAL scalar *lambda, const GLOBAL scalar *shift,
                                  pscr_lane_ctx *q, pscr_lane_src *c, scalar *sg) {
  q->t = (int)LOCAL_ID(), q->p = GROUP_ID() * PSCR_LANE_W + q->t, q->win = 0, q->e = 0;
  q->on = q->p < nsys, q->nseg = 0;
  long p = q->on ? q->p : 0;
  const GLOBAL long *b = gd + blk + PB_N * gd[eblk];
  q->sys = p;
  c->w = comp + b[PB_COMP];
  c->xp = x + p * xs + b[PB_S] * n;
  c->gs = x; /* no boundary terms: has_s = has_e = 0 */
  c->dp = gd + b[PB_D];
  c->nrd = 1;
  q->xo = p * xs + (b[PB_S] + c->dp[0]) * n;
  for (int k = 0; k < PSCR_LANE_RD; k++) {
    c->dk[k] = k == 0 ? c->dp[0] * n : 0;
    c->wi[k] = k == 0 ? c->w[2] : S_ZERO;
  }
  c->ws = c->we = S_ZERO, c->has_s = c->has_e = 0;
  *sg = S_ADD(shift[p], lambda[b[PB_EIG]]);
}

/* The sums (24)/(27) of one chunk: the solution rows Z[r] = x_ib+r (0 off a
 * lane) times each output's weight, reduced over each segment's lanes in
 * local memory and stored once per segment, output and row. */
DEVICE void pscr_lane_sums(const scalar *Z, long ib, long n, const pscr_lane_src *c, int back,
                           long qmax, const pscr_lane_ctx *q, const GLOBAL long *gd, long blk,
                           GLOBAL scalar *x, long xs, GLOBAL scalar *bnd, long bps,
                           GLOBAL scalar *acc, long nacc, long accq, PSCR_LANE_TABLES) {
  const int W = PSCR_LANE_W, R = PSCR_LANE_R;
  int t = q->t;
  for (long k0 = 0; k0 < qmax; k0 += PSCR_LANE_QO) {
#pragma unroll
    for (int kk = 0; kk < PSCR_LANE_QO; kk++) {
      long k = k0 + kk;
      if (k >= qmax) break; /* uniform: the reduction reads no such rows */
      scalar wk = q->on && k < snout[t] ? pscr_lane_wout(c, back, k) : S_ZERO;
#pragma unroll
      for (int r = 0; r < PSCR_LANE_R; r++)
        sred[(kk * PSCR_LANE_R + r) * PSCR_LANE_LD + t] = S_MUL(wk, Z[r]);
    }
    BARRIER();
    /* work-item (output k0 + kk, row ib + r) sums each segment's lanes in turn:
     * every work-item reads the same segment tables (broadcasts) and runs
     * down its own row of sred, so many small blocks cost no per-item decoding */
    for (int it = t; it < PSCR_LANE_QO * R; it += W) {
      long k = k0 + it / R, i = ib + it % R;
      if (k >= qmax || i >= n) continue;
      const LOCAL_P scalar *v = sred + it * PSCR_LANE_LD;
      for (int sgm = 0; sgm < q->nseg; sgm++) {
        int j0 = sseg[sgm], j1 = sseg[sgm + 1], j = j0;
        if (sblk[j0] < 0 || k >= snout[j0]) continue;
        scalar a0 = S_ZERO, a1 = S_ZERO, a2 = S_ZERO, a3 = S_ZERO; /* four chains: latency */
        for (; j + 4 <= j1; j += 4) {
          a0 = S_ADD(a0, v[j]), a1 = S_ADD(a1, v[j + 1]);
          a2 = S_ADD(a2, v[j + 2]), a3 = S_ADD(a3, v[j + 3]);
        }
        for (; j < j1; j++) a0 = S_ADD(a0, v[j]);
        long off = k < PSCR_LANE_QC ? soff[sgm * PSCR_LANE_QC + k]
                                    : pscr_lane_dst(gd, gd + blk + PB_N * sblk[j0], back, k, q->p,
                                                    xs, bps, n, q->win, nacc, accq);
        GLOBAL scalar *base = sone[sgm] ? (back ? x : bnd) : acc;
        base[off + i] = S_ADD(S_ADD(a0, a1), S_ADD(a2, a3));
      }
    }
    BARRIER();
  }
}

/* Group g: vector p = g / nwin, the step's eigenpairs e = (g % nwin) W + lane
 * (< ne). ckp: 4 ckn >= 4 nch scalars per system (system p ne + e, nsys in all);
 * qmax: the most outputs of a block in this step. check = 1 (AUTO without
 * the plan's proof of definiteness): the forward sweep also tests the CPU's
 * AUTO criterion for Thomas without pivoting, min_i GROWTH |d_i| -
 * |l_i| |o_i-1| > 0 (|L||U| <= (1 + 2 GROWTH) |A|, so a backward error of a
 * few eps |A|: Higham, Thm 9.3); a lane whose system fails it solves it
 * again with diagonal pivoting (pscr_lane_d1 / d2), checkpoints and all;
 * check = 2 (tests): every system takes the pivoting. */
KERNEL void pscr_lane_task(PSCR_LANE_KPARAMS) {
  PSCR_LANE_KAT();
  PSCR_LANE_LOCALS;
  const int R = PSCR_LANE_R;
  pscr_lane_ctx q;
  pscr_lane_src c;
  scalar sg;
  long nch = (n + R - 1) / R;
  if (nch > ckn) { /* the host sized ckp for another PSCR_LANE_R */
    if (LOCAL_ID() == 0) flags[TD_FLAG_CONFIG] = 1;
    return;
  }
  if (lines)
    pscr_lane_setup_lines(n, x, xs, gd, blk, eblk, nsys, comp, lambda, shift, &q, &c, &sg);
  else
    pscr_lane_setup(n, x, xs, lev_n, gd, blk, eblk, ne, nwin, comp, lambda, shift, back, bnd, bps,
                    qmax, nacc, accq, &q, &c, &sg, PSCR_LANE_TABLE_ARGS);
  int on = q.on, piv = 0, bad = 0;
  long sys = q.sys;
  /* forward sweep (Thomas), checkpoints at the chunk starts */
  pscr_lane_state s;
  pscr_lane_start(&s, ad, ao, md, mo, sg, n);
  double mg = 1.0;
  for (long ch = 0; ch < nch && on; ch++) {
    long ib = ch * R;
    scalar O[PSCR_LANE_R], X[PSCR_LANE_R], F[PSCR_LANE_R];
    int ks;
    pscr_lane_save(ckp, ch, nsys, sys, &s);
    pscr_lane_fetch(ib, n, on, ao, mo, exc, sg, &c, O, &ks, X, F);
    if (check) { /* the growth test: the chunk's diagonals fetched with the rest */
      scalar D[PSCR_LANE_R];
#pragma unroll
      for (int r = 0; r < PSCR_LANE_R; r++) D[r] = ib + r < n ? pscr_lane_diag(ad, md, sg, ib + r) : S_ZERO;
#pragma unroll
      for (int r = 0; r < PSCR_LANE_R; r++) {
        if (ib + r >= n) break;
        double dd = PSCR_LANE_GROWTH * S_ABS1(D[r]) - S_ABS1(S_MUL(s.op, s.rp)) * S_ABS1(s.op);
        mg = dd < mg ? dd : mg;
        pscr_lane_step(ib + r, O[r], (ks >> r) & 1 ? S_NEG(O[r]) : O[r], X[r], F[r], &s);
      }
    } else {
#pragma unroll
      for (int r = 0; r < PSCR_LANE_R; r++)
        if (ib + r < n) pscr_lane_step(ib + r, O[r], (ks >> r) & 1 ? S_NEG(O[r]) : O[r], X[r], F[r], &s);
    }
  }
  /* diagonal pivoting (pscr_lane_d1 / d2): checkpoint slots t, fm, a flag (1:
   * the chunk starts on the second row of a 2x2 begun on its row before,
   * t and fm then being that row's), and the right-hand side of the chunk's
   * first row, which the backward sweep cannot read again: the sums may have
   * overwritten the rows D of the next chunk (back substitution) */
  scalar pt = S_ZERO, pf = S_ZERO;
  if (on && check && (check == 2 || !(mg > 0 && S_ISFINITE(s.rp)))) { /* again, pivoting */
    scalar u0, y0, u1, y1;
    piv = 1;
    pt = pscr_lane_exc(exc, n, sg, 0), pf = pscr_lane_rhs(&c, n, 0);
    for (long i = 0; i < n;) {
      GLOBAL scalar *cp = ckp + 4 * (i / R) * nsys + sys;
      if (i % R == 0) cp[0] = pt, cp[nsys] = pf, cp[2 * nsys] = S_ZERO;
      int two = pscr_lane_two(i, n, ao, mo, exc, sg, pt);
      scalar f1 = i + 1 < n ? pscr_lane_rhs(&c, n, i + 1) : S_ZERO, f2 = S_ZERO;
      if ((i + 1) % R == 0 && i + 1 < n) ckp[(4 * ((i + 1) / R) + 3) * nsys + sys] = f1;
      if (two == 1) {
        pscr_lane_d1(i, n, ao, mo, exc, sg, f1, &pt, &pf, &u0, &y0, &bad);
        i += 1;
        continue;
      }
      if (i + 2 < n) f2 = pscr_lane_rhs(&c, n, i + 2);
      if ((i + 2) % R == 0 && i + 2 < n) ckp[(4 * ((i + 2) / R) + 3) * nsys + sys] = f2;
      if ((i + 1) % R == 0) { /* the next chunk starts inside this 2x2 */
        GLOBAL scalar *cn = ckp + 4 * ((i + 1) / R) * nsys + sys;
        cn[0] = pt, cn[nsys] = pf, cn[2 * nsys] = S_ONE;
      }
      pscr_lane_d2(i, n, ao, mo, exc, sg, f1, f2, 1, &pt, &pf, &u0, &y0, &u1, &y1, &bad);
      i += 2;
    }
    if (bad) flags[TD_FLAG_SINGULAR] = 1;
  } else if (on && (!S_ISFINITE(s.rp) || !S_ISFINITE(s.zp))) {
    flags[TD_FLAG_SINGULAR] = 1;
  }

  /* backward sweep chunk by chunk, the sums of each chunk reduced per block */
  scalar xn = S_ZERO, xn2 = S_ZERO; /* x_i+1, x_i+2 */
  for (long ch = nch - 1; ch >= 0; ch--) {
    long ib = ch * R;
    scalar P[PSCR_LANE_R], Z[PSCR_LANE_R], O[PSCR_LANE_R];
    if (on && piv) { /* u, y of the chunk's rows (O unused), then x */
      const GLOBAL scalar *cp = ckp + 4 * ch * nsys + sys;
      scalar fnext = ch + 1 < nch ? cp[7 * nsys] : S_ZERO; /* row ib + R */
      scalar du, dy;
      int mid = S_REAL_PART(cp[2 * nsys]) != 0.0, skip = 0;
      long nxt = ib;
      pt = cp[0], pf = cp[nsys];
#pragma unroll
      for (int r = 0; r < PSCR_LANE_R; r++) P[r] = Z[r] = O[r] = S_ZERO;
      if (mid) { /* finish the 2x2 begun on row ib - 1: row ib, then the state of ib + 1 */
        scalar f2 = ib + 1 < n ? pscr_lane_rhs(&c, n, ib + 1) : S_ZERO;
        pscr_lane_d2(ib - 1, n, ao, mo, exc, sg, pscr_lane_rhs(&c, n, ib), f2, 1, &pt, &pf, &du,
                     &dy, &P[0], &Z[0], &bad);
        nxt = ib + 1;
      }
#pragma unroll
      for (int r = 0; r < PSCR_LANE_R; r++) {
        long i = ib + r;
        if (i >= n || i != nxt) continue;
        int two = pscr_lane_two(i, n, ao, mo, exc, sg, pt);
        scalar f1 = i + 1 >= n ? S_ZERO : r + 1 == PSCR_LANE_R ? fnext : pscr_lane_rhs(&c, n, i + 1);
        if (two == 1) {
          pscr_lane_d1(i, n, ao, mo, exc, sg, f1, &pt, &pf, &P[r], &Z[r], &bad);
          nxt = i + 1;
        } else if (r + 1 < PSCR_LANE_R) {
          scalar f2 = i + 2 >= n ? S_ZERO : r + 2 == PSCR_LANE_R ? fnext : pscr_lane_rhs(&c, n, i + 2);
          pscr_lane_d2(i, n, ao, mo, exc, sg, f1, f2, 1, &pt, &pf, &P[r], &Z[r], &P[r + 1], &Z[r + 1],
                       &bad);
          skip |= 1 << r;
          nxt = i + 2;
        } else { /* the 2x2 runs into the next chunk: its first row only */
          pscr_lane_d2(i, n, ao, mo, exc, sg, f1, S_ZERO, 0, &pt, &pf, &P[r], &Z[r], &du, &dy, &bad);
          skip |= 1 << r;
          nxt = i + 2;
        }
      }
#pragma unroll
      for (int r = PSCR_LANE_R - 1; r >= 0; r--) {
        long i = ib + r;
        if (i < n) {
          scalar xv = S_FMS(Z[r], P[r], (skip >> r) & 1 ? xn2 : xn);
          xn2 = xn, xn = xv;
        }
        Z[r] = i < n ? xn : S_ZERO;
      }
    } else { /* O: o_i for the back substitution */
      int ks;
      if (on) pscr_lane_load(ckp, ch, nsys, sys, n, ao, mo, sg, &s);
      pscr_lane_fetch(ib, n, on, ao, mo, exc, sg, &c, O, &ks, P, Z);
#pragma unroll
      for (int r = 0; r < PSCR_LANE_R; r++) { /* P, Z: x, f in, 1 / p, z out */
        long i = ib + r;
        if (on && i < n) {
          pscr_lane_step(i, O[r], (ks >> r) & 1 ? S_NEG(O[r]) : O[r], P[r], Z[r], &s);
          P[r] = s.rp, Z[r] = s.zp;
        }
      }
#pragma unroll
      for (int r = PSCR_LANE_R - 1; r >= 0; r--) {
        long i = ib + r;
        if (on && i < n) xn = S_MUL(S_FMS(Z[r], O[r], xn), P[r]);
        Z[r] = on && i < n ? xn : S_ZERO;
      }
    }
    if (lines) { /* the lane's own output row (the backward sweep reads rows below ib only) */
#pragma unroll
      for (int r = 0; r < PSCR_LANE_R; r++)
        if (on && ib + r < n) x[q.xo + ib + r] = S_MUL(c.wi[0], Z[r]);
    } else {
      pscr_lane_sums(Z, ib, n, &c, back, qmax, &q, gd, blk, x, xs, bnd, bps, acc, nacc, accq,
                     PSCR_LANE_TABLE_ARGS);
    }
  }
}

/* The plain kernel's right-hand-side sources (26)/(28): the rows D, and in
 * back substitution the boundary terms (weights -ws, -we), as pointers with
 * weights. Absent ones point at the block's first row with weight 0, so that
 * every lane loads and multiplies the same PSCR_LANE_NS terms a row, without
 * branches or index arithmetic (rows D beyond PSCR_LANE_RD: a loop). */
#define PSCR_LANE_NS (PSCR_LANE_RD + 2)
typedef struct {
  const GLOBAL scalar *r[PSCR_LANE_NS];
  scalar w[PSCR_LANE_NS];
} pscr_plain_src;

DEVICE void pscr_plain_init(const pscr_lane_src *c, long n, pscr_plain_src *s) {
  for (int k = 0; k < PSCR_LANE_RD; k++) {
    s->r[k] = c->xp + (k < c->nrd ? c->dk[k] : 0);
    s->w[k] = c->wi[k]; /* 0 beyond nrd (pscr_lane_setup) */
  }
  s->r[PSCR_LANE_RD] = c->has_s ? c->gs : c->xp;
  s->r[PSCR_LANE_RD + 1] = c->has_e ? c->gs + n : c->xp;
  s->w[PSCR_LANE_RD] = c->has_s ? S_NEG(c->ws) : S_ZERO;
  s->w[PSCR_LANE_RD + 1] = c->has_e ? S_NEG(c->we) : S_ZERO;
}

/* Row ib + r of a chunk (ad .. mo and the sources' pointers already offset
 * by ib, so that a row's loads take constant offsets): d = ad + sg md,
 * o = ao + sg mo (0 for the last row) and f, the right-hand side from the
 * first ns sources, and with extra from the rows D beyond PSCR_LANE_RD.
 * m < R (the last chunk): rows past n read as d = 1, o = f = 0 (x stays 0
 * there); m = R and extra = 0 (constants once inlined): no tests at all. */
DEVICE void pscr_plain_row(int ib, int r, int m, int last, int extra, const GLOBAL scalar *ad,
                           const GLOBAL scalar *ao, const GLOBAL scalar *md,
                           const GLOBAL scalar *mo, scalar sg, const pscr_plain_src *s, int ns,
                           const pscr_lane_src *c, long n, scalar *d, scalar *o, scalar *f) {
  *d = r < m ? S_FMA(ad[r], sg, md[r]) : S_ONE;
  *o = r < m && (r + 1 < m || !last) ? S_FMA(ao[r], sg, mo[r]) : S_ZERO;
  scalar v = S_ZERO;
#pragma unroll
  for (int k = 0; k < PSCR_LANE_NS; k++)
    if (k < ns && r < m) v = S_FMA(v, s->w[k], s->r[k][r]);
  if (extra && c->nrd > PSCR_LANE_RD && r < m)
    for (long k = PSCR_LANE_RD; k < c->nrd; k++)
      v = S_FMA(v, c->w[2 + k], c->xp[c->dp[k] * n + ib + r]);
  *f = v;
}

/* The rows of a chunk eliminated (td_thomas_row) from the state u, z, op (o
 * of the row before); U, Z: the u, z after each row, where keep. Row by row:
 * loading a chunk's rows before its eliminations measured slower (H100:
 * registers, bench/RESULTS.md "The plain lane kernel"). */
DEVICE void pscr_plain_rows(int ib, int m, int last, int extra, const GLOBAL scalar *ad,
                            const GLOBAL scalar *ao, const GLOBAL scalar *md,
                            const GLOBAL scalar *mo, scalar sg, const pscr_plain_src *s, int ns,
                            const pscr_lane_src *c, long n, scalar *u, scalar *z, scalar *op,
                            scalar *U, scalar *Z, int keep) {
  pscr_plain_src sc = *s;
#pragma unroll
  for (int k = 0; k < PSCR_LANE_NS; k++) sc.r[k] += ib;
  ad += ib, ao += ib, md += ib, mo += ib, s = &sc;
#pragma unroll
  for (int r = 0; r < PSCR_LANE_R; r++) {
    scalar d, o, f;
    pscr_plain_row(ib, r, m, last, extra, ad, ao, md, mo, sg, s, ns, c, n, &d, &o, &f);
    td_thomas_row(*op, d, o, f, u, z);
    *op = o;
    if (keep) U[r] = *u, Z[r] = *z;
  }
}

/* A chunk: unchecked where the chunk and the row after it lie in the system
 * and the lane's rows D all have their weights in registers (radix 4: always);
 * the loop over further rows D is then not even compiled into the rows. (One
 * instance for the last chunk and radix > 4 would halve the code but puts
 * 13 more SASS instructions into the fast chunk: sm_90, nvcc 13.) */
DEVICE void pscr_plain_chunk(int ib, int nn, const GLOBAL scalar *ad, const GLOBAL scalar *ao,
                             const GLOBAL scalar *md, const GLOBAL scalar *mo, scalar sg,
                             const pscr_plain_src *s, int ns, const pscr_lane_src *c, long n,
                             scalar *u, scalar *z, scalar *op, scalar *U, scalar *Z, int keep) {
  if (ib + PSCR_LANE_R < nn && c->nrd <= PSCR_LANE_RD)
    pscr_plain_rows(ib, PSCR_LANE_R, 0, 0, ad, ao, md, mo, sg, s, ns, c, n, u, z, op, U, Z, keep);
  else if (ib + PSCR_LANE_R < nn)
    pscr_plain_rows(ib, PSCR_LANE_R, 0, 1, ad, ao, md, mo, sg, s, ns, c, n, u, z, op, U, Z, keep);
  else
    pscr_plain_rows(ib, nn - ib, 1, 1, ad, ao, md, mo, sg, s, ns, c, n, u, z, op, U, Z, keep);
}

/* The plain lane kernel: Thomas without the excess form, the continuants or
 * the pivoting, for real data whose every innermost matrix the plan proved
 * positive definite (lane_engine in gpu_pscr_plan.c), or CR_PCR_THOMAS: as
 * the tiles' real Thomas, td_thomas_row. A row costs two eliminations (the
 * sweep and its recomputation from the checkpoint) and one substitution;
 * the checkpoints are (u, z) before each chunk, 2 of the 4 slots. The
 * arguments are pscr_lane_task's (check and exc unused); ns = the sources a
 * row reads (PSCR_LANE_RD, + 2 in back substitution), a constant in each of
 * the two kernels. */
DEVICE void pscr_plain_sweep(PSCR_LANE_PARAMS, int ns, PSCR_LANE_TABLES) {
  (void)lines; /* lines plans take pscr_lane_task */
  const int R = PSCR_LANE_R;
  pscr_lane_ctx q;
  pscr_lane_src c;
  pscr_plain_src sr;
  scalar sg;
  int nn = (int)n, nch = (nn + R - 1) / R;
  if (nch > ckn) {
    if (LOCAL_ID() == 0) flags[TD_FLAG_CONFIG] = 1;
    return;
  }
  pscr_lane_setup(n, x, xs, lev_n, gd, blk, eblk, ne, nwin, comp, lambda, shift, back, bnd, bps,
                  qmax, nacc, accq, &q, &c, &sg, PSCR_LANE_TABLE_ARGS);
  pscr_plain_init(&c, n, &sr);
  GLOBAL scalar *cp = ckp + q.sys;
  scalar u = S_ZERO, z = S_ZERO, op = S_ZERO; /* u_i-1, z_i-1, o_i-1 */
  for (int ch = 0; ch < nch && q.on; ch++) {
    int ib = ch * R;
    cp[2 * ch * nsys] = u, cp[(2 * ch + 1) * nsys] = z;
    pscr_plain_chunk(ib, nn, ad, ao, md, mo, sg, &sr, ns, &c, n, &u, &z, &op, NULL, NULL, 0);
  }
  if (q.on && !(S_ISFINITE(u) && S_ISFINITE(z))) flags[TD_FLAG_SINGULAR] = 1;
  scalar xn = S_ZERO; /* x_i+1 */
  for (int ch = nch - 1; ch >= 0; ch--) {
    int ib = ch * R;
    scalar U[PSCR_LANE_R], Z[PSCR_LANE_R];
    if (q.on) {
      u = cp[2 * ch * nsys], z = cp[(2 * ch + 1) * nsys];
      op = ib > 0 ? S_FMA(ao[ib - 1], sg, mo[ib - 1]) : S_ZERO;
      pscr_plain_chunk(ib, nn, ad, ao, md, mo, sg, &sr, ns, &c, n, &u, &z, &op, U, Z, 1);
#pragma unroll
      for (int r = PSCR_LANE_R - 1; r >= 0; r--) { /* rows past n: z = 0, so x = 0 */
        xn = S_FMS(Z[r], U[r], xn);
        Z[r] = xn;
      }
    } else {
#pragma unroll
      for (int r = 0; r < PSCR_LANE_R; r++) Z[r] = S_ZERO;
    }
    pscr_lane_sums(Z, ib, n, &c, back, qmax, &q, gd, blk, x, xs, bnd, bps, acc, nacc, accq,
                   PSCR_LANE_TABLE_ARGS);
  }
}

#ifndef PSCR_LANE_PLAIN_GROUPS
#define PSCR_LANE_PLAIN_GROUPS 12 /* work-groups an SM (registers): H100 best of 8, 12, 16 */
#endif
/* The two instances: reduction (26) and back substitution (28), as kernels of
 * their own rather than one kernel's branches, so that no barrier lies under
 * a condition. */
KERNEL_BOUNDED(PSCR_LANE_W, PSCR_LANE_PLAIN_GROUPS) void pscr_lane_plain(PSCR_LANE_KPARAMS) {
  PSCR_LANE_KAT();
  PSCR_LANE_LOCALS;
  pscr_plain_sweep(n, ad, ao, md, mo, check, exc, x, xs, lev_n, gd, blk, eblk, ne, nwin, comp,
                   lambda, shift, 0, bnd, bps, qmax, ckp, ckn, nsys, acc, nacc, accq, flags, 0,
                   PSCR_LANE_RD, PSCR_LANE_TABLE_ARGS);
}

KERNEL_BOUNDED(PSCR_LANE_W, PSCR_LANE_PLAIN_GROUPS) void pscr_lane_plain_back(PSCR_LANE_KPARAMS) {
  PSCR_LANE_KAT();
  PSCR_LANE_LOCALS;
  pscr_plain_sweep(n, ad, ao, md, mo, check, exc, x, xs, lev_n, gd, blk, eblk, ne, nwin, comp,
                   lambda, shift, 1, bnd, bps, qmax, ckp, ckn, nsys, acc, nacc, accq, flags, 0,
                   PSCR_LANE_NS, PSCR_LANE_TABLE_ARGS);
}

#endif
