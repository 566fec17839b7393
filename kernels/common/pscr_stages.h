/* PSCR stage kernels (seed 003 section 4.3) for both levels of the GPU
 * driver (src/backend/gpu/gpu_pscr.c): right-hand sides (26)/(28), the
 * boundary terms K̂ u, Ǩ u of (28)-(29), partial and block sums of (24)/(27),
 * the row updates f(i+1) of (24)-(25) and the tridiagonal solves' shifts
 * c + lambda. One work-item per element of a row (i fastest: coalesced), a
 * loop over eigenpairs or rows of D inside. Reference semantics:
 * src/backend/cpu/cpu_pscr_tmpl.c and cpu_pscr_inner_tmpl.c.
 *
 * Guiding data (plan time, `gd`, longs): a block table of PB_N fields per
 * block, the rows D, eigenpair -> block maps, tasks and row updates; every
 * offset below is an index into gd. The field numbers must match
 * src/backend/gpu/gpu_pscr.h (tests/cpu/test_kernel_consts.c checks). */
#ifndef PSCR_PSCR_STAGES_H
#define PSCR_PSCR_STAGES_H

#include "common/td_scalar.h"

#define PB_S 0     /* first row */
#define PB_M 1     /* order m = its eigenpairs */
#define PB_ND 2    /* #D */
#define PB_D 3     /* gd index of its rows D (block-local) */
#define PB_EIG 4   /* first eigenvalue in lambda */
#define PB_COMP 5  /* first component in comp: (2 + #D) per eigenpair */
#define PB_E0 6    /* first step-local eigenpair */
#define PB_VS 7    /* rows of v_first, v_last (24) in the sums buffer */
#define PB_BS 8    /* rows of K̂ u_{s-1}, Ǩ u_{s+m} (28) in the boundary buffer */
#define PB_NT 9    /* innermost: tasks (partial sums) of the block */
#define PB_ACC0 10 /* innermost: first partial-sum slot (blocks of > 1 task) */
#define PB_N 11
#define PSCR_QG 4 /* outputs of (24)/(27) per work-item of the sums kernels */
/* Elements of a row per work-item of pscr_bnd, PSCR_EPW_LEN(len) apart
 * (coalesced), every load issued before a store (H100 2D 8191^2, level 1:
 * 425 -> 296 us; pscr_upd went from 440 to 497 us so, at 88 registers, and
 * keeps one element). */
#define PSCR_EPW 4
#define PSCR_EPW_LEN(len) (((len) + PSCR_EPW - 1) / PSCR_EPW)

/* Entry (i, i + t), t = -1, 0, 1, of the symmetric tridiagonal (d, o) of order n; 0 outside. */
DEVICE scalar pscr_tri(const GLOBAL scalar *d, const GLOBAL scalar *o, long n, long i, int t) {
  if (t == 0) return d[i];
  long j = i + t;
  if (j < 0 || j >= n) return S_ZERO;
  return o[t < 0 ? j : i];
}

/* The dimensions below a level: kd = 1 (n0) or 2 (n0 x n1), A_d and M_d. */
#define PSCR_KRON_PARAMS                                                                           \
  int kd, long k0, long k1, const GLOBAL scalar *ad0, const GLOBAL scalar *ao0,                    \
      const GLOBAL scalar *md0, const GLOBAL scalar *mo0, const GLOBAL scalar *ad1,                \
      const GLOBAL scalar *ao1, const GLOBAL scalar *md1, const GLOBAL scalar *mo1
#define PSCR_KRON_ARGS kd, k0, k1, ad0, ao0, md0, mo0, ad1, ao1, md1, mo1
/* PSCR_KRON_PARAMS as a kernel takes them (GPTR), and their offsets applied */
#define PSCR_KRON_KPARAMS                                                                          \
  int kd, long k0, long k1, GPTR(const scalar, ad0), GPTR(const scalar, ao0),                      \
      GPTR(const scalar, md0), GPTR(const scalar, mo0), GPTR(const scalar, ad1),                   \
      GPTR(const scalar, ao1), GPTR(const scalar, md1), GPTR(const scalar, mo1)
#define PSCR_KRON_KAT()                                                                            \
  GPTR_AT(const scalar, ad0); GPTR_AT(const scalar, ao0); GPTR_AT(const scalar, md0);              \
      GPTR_AT(const scalar, mo0); GPTR_AT(const scalar, ad1); GPTR_AT(const scalar, ao1);          \
      GPTR_AT(const scalar, md1); GPTR_AT(const scalar, mo1)

/* Element i of (alpha Mb + beta Ab) v, Mb = (x) M_d, Ab = sum A_d (x) other M's:
 * one dimension (alpha M0 + beta A0) v; two (alpha M0 + beta A0) (x) M1 + beta M0 (x) A1. */
DEVICE scalar pscr_kron_at(PSCR_KRON_PARAMS, scalar alpha, scalar beta, const GLOBAL scalar *v,
                           long i) {
  scalar s = S_ZERO;
  if (kd == 1) {
    for (int t = -1; t <= 1; t++) {
      long j = i + t;
      if (j < 0 || j >= k0) continue;
      scalar c = S_ADD(S_MUL(alpha, pscr_tri(md0, mo0, k0, i, t)),
                       S_MUL(beta, pscr_tri(ad0, ao0, k0, i, t)));
      s = S_FMA(s, c, v[j]);
    }
    return s;
  }
  long i0 = i / k1, i1 = i - i0 * k1;
  for (int t0 = -1; t0 <= 1; t0++) {
    long j0 = i0 + t0;
    if (j0 < 0 || j0 >= k0) continue;
    scalar mv = S_ZERO, av = S_ZERO;
    for (int t1 = -1; t1 <= 1; t1++) {
      long j1 = i1 + t1;
      if (j1 < 0 || j1 >= k1) continue;
      scalar vv = v[j0 * k1 + j1];
      mv = S_FMA(mv, pscr_tri(md1, mo1, k1, i1, t1), vv);
      av = S_FMA(av, pscr_tri(ad1, ao1, k1, i1, t1), vv);
    }
    scalar m0 = pscr_tri(md0, mo0, k0, i0, t0), a0 = pscr_tri(ad0, ao0, k0, i0, t0);
    scalar ca = S_ADD(S_MUL(alpha, m0), S_MUL(beta, a0));
    s = S_ADD(s, S_ADD(S_MUL(ca, mv), S_MUL(S_MUL(beta, m0), av)));
  }
  return s;
}

/* (26) / (28): right-hand side of eigenpair e = e0 + k % ne of vector p = k / ne
 *   out_k = sum_r w[2+r] x_p(s + D_r) [- w[0] K̂ u_{s-1} - w[1] Ǩ u_{s+m} when back]
 * and its shift oshift_k = shift_p + lambda (the inner systems' A + (c + lambda) M).
 * bnd: the boundary terms at rows PB_BS, PB_BS + 1 (+ p * bps). */
KERNEL void pscr_rhs(GPTR(const scalar, x), long xs, long len, long lev_n, GPTR(const long, gd),
                     long blk, long eblk, long e0, long ne, long nvec, GPTR(const scalar, comp),
                     GPTR(const scalar, lambda), GPTR(const scalar, shift), int back,
                     GPTR(const scalar, bnd), long bps, GPTR(scalar, out),
                     GPTR(scalar, oshift)) {
  GPTR_AT(const scalar, x);
  GPTR_AT(const long, gd);
  GPTR_AT(const scalar, comp);
  GPTR_AT(const scalar, lambda);
  GPTR_AT(const scalar, shift);
  GPTR_AT(const scalar, bnd);
  GPTR_AT(scalar, out);
  GPTR_AT(scalar, oshift);
  long gid = TD_GID();
  if (gid >= nvec * ne * len) return;
  long k = gid / len, i = gid - k * len, p = k / ne, e = e0 + k - p * ne;
  const GLOBAL long *b = gd + blk + PB_N * gd[eblk + e];
  long l = e - b[PB_E0], nd = b[PB_ND], s0 = b[PB_S];
  const GLOBAL scalar *w = comp + b[PB_COMP] + l * (2 + nd);
  const GLOBAL scalar *xp = x + p * xs + s0 * len + i;
  const GLOBAL long *dp = gd + b[PB_D];
  scalar s = S_ZERO;
  for (long r = 0; r < nd; r++) s = S_FMA(s, w[2 + r], xp[dp[r] * len]);
  if (back) {
    const GLOBAL scalar *g = bnd + p * bps + b[PB_BS] * len + i;
    if (s0 > 0) s = S_FMS(s, w[0], g[0]);
    if (s0 + b[PB_M] < lev_n) s = S_FMS(s, w[1], g[len]);
  }
  out[gid] = s;
  if (i == 0) oshift[k] = S_ADD(shift[p], lambda[b[PB_EIG] + l]);
}

/* (28)-(29): K̂ u_{s-1} (side 0) and Ǩ u_{s+m} (side 1) of blocks b0 .. b0+nb-1
 * that open in the group (first eigenpair >= ebeg), into bnd rows PB_BS + side. */
KERNEL void pscr_bnd(PSCR_KRON_KPARAMS, GPTR(const scalar, lao), GPTR(const scalar, lmo),
                     long lev_n, GPTR(const scalar, x), long xs, long len, GPTR(const long, gd),
                     long blk, long b0, long nb, long ebeg, long nvec, GPTR(const scalar, shift),
                     GPTR(scalar, bnd), long bps) {
  PSCR_KRON_KAT();
  GPTR_AT(const scalar, lao);
  GPTR_AT(const scalar, lmo);
  GPTR_AT(const scalar, x);
  GPTR_AT(const long, gd);
  GPTR_AT(const scalar, shift);
  GPTR_AT(scalar, bnd);
  long gid = TD_GID(), lb = PSCR_EPW_LEN(len);
  if (gid >= nvec * nb * 2 * lb) return;
  long k = gid / lb, i0 = gid - k * lb, side = k % 2, bi = (k / 2) % nb, p = k / 2 / nb;
  const GLOBAL long *b = gd + blk + PB_N * (b0 + bi);
  long s0 = b[PB_S], m = b[PB_M];
  if (b[PB_E0] < ebeg) return; /* opened by an earlier group */
  if (side == 0 ? s0 == 0 : s0 + m >= lev_n) return;
  long j = side == 0 ? s0 - 1 : s0 + m - 1, src = side == 0 ? j : j + 1;
  scalar alpha = S_FMA(lao[j], shift[p], lmo[j]), v[PSCR_EPW];
  const GLOBAL scalar *xr = x + p * xs + src * len;
#pragma unroll
  for (int e = 0; e < PSCR_EPW; e++) /* every load before the stores */
    v[e] = i0 + e * lb < len ? pscr_kron_at(PSCR_KRON_ARGS, alpha, lmo[j], xr, i0 + e * lb) : S_ZERO;
  GLOBAL scalar *out = bnd + p * bps + (b[PB_BS] + side) * len;
#pragma unroll
  for (int e = 0; e < PSCR_EPW; e++)
    if (i0 + e * lb < len) out[i0 + e * lb] = v[e];
}

/* (28) for steps run as products (gpu_pscr.c, gemm_step): the boundary
 * terms of blocks b0 .. b0+nb-1 (pscr_bnd's rows PB_BS, PB_BS + 1) taken off
 * the block's first and last rows of x, which are rows of D there, so that
 * W^T x alone is (28): sum_r w[2+r] x(D_r) - w[0] K̂ u_{s-1} - w[1] Ǩ u_{s+m}.
 * Those rows are overwritten by u (27) in the same step. */
KERNEL void pscr_bsub(long len, long lev_n, GPTR(const long, gd), long blk, long b0, long nb,
                      long nvec, GPTR(scalar, x), long xs, GPTR(const scalar, bnd), long bps) {
  GPTR_AT(const long, gd);
  GPTR_AT(scalar, x);
  GPTR_AT(const scalar, bnd);
  long gid = TD_GID();
  if (gid >= nvec * nb * len) return;
  long k = gid / len, i = gid - k * len, p = k / nb;
  const GLOBAL long *b = gd + blk + PB_N * (b0 + k % nb);
  long s0 = b[PB_S], m = b[PB_M];
  const GLOBAL scalar *g = bnd + p * bps + b[PB_BS] * len + i;
  GLOBAL scalar *xp = x + p * xs + s0 * len + i;
  if (s0 > 0) xp[0] = S_SUB(xp[0], g[0]); /* one work-item both sides: m may be 1 */
  if (s0 + m < lev_n) xp[(m - 1) * len] = S_SUB(xp[(m - 1) * len], g[len]);
}

/* Output q of block b for vector p: the rows D of x (back, (27)) or v_first /
 * v_last (reduce, (24)) in vs. */
DEVICE long pscr_dst_off(const GLOBAL long *gd, const GLOBAL long *b, int back, long q, long p,
                         long xs, long vps, long len) {
  if (back) return p * xs + (b[PB_S] + gd[b[PB_D] + q]) * len;
  return p * vps + (b[PB_VS] + q) * len;
}
DEVICE GLOBAL scalar *pscr_dst(const GLOBAL long *gd, const GLOBAL long *b, int back, long q,
                               long p, GLOBAL scalar *x, long xs, GLOBAL scalar *vs, long vps,
                               long len) {
  return (back ? x : vs) + pscr_dst_off(gd, b, back, q, p, xs, vps, len);
}

/* Innermost (24) / (27): partial sums of tasks t0 .. t0+nt-1 (task: block,
 * l0, l1, partial-sum slot or -1) over the solutions y of the group's systems
 * (p * ne + e - e0); outputs PSCR_QG at a time. A block of one task writes its
 * destination, the others their slot of acc (nacc slots of accq rows per vector). */
KERNEL void pscr_sums(GPTR(const scalar, y), long len, GPTR(const long, gd), long blk, long task,
                      long t0, long nt, long e0, long ne, long nvec, long nqg,
                      GPTR(const scalar, comp), int back, GPTR(scalar, x), long xs,
                      GPTR(scalar, vs), long vps, GPTR(scalar, acc), long nacc, long accq) {
  GPTR_AT(const scalar, y);
  GPTR_AT(const long, gd);
  GPTR_AT(const scalar, comp);
  GPTR_AT(scalar, x);
  GPTR_AT(scalar, vs);
  GPTR_AT(scalar, acc);
  long gid = TD_GID();
  if (gid >= nvec * nt * nqg * len) return;
  long k = gid / len, i = gid - k * len, qg = k % nqg, t = t0 + (k / nqg) % nt, p = k / nqg / nt;
  const GLOBAL long *tk = gd + task + 4 * t;
  const GLOBAL long *b = gd + blk + PB_N * tk[0];
  long nd = b[PB_ND], nout = back ? nd : 2, q0 = qg * PSCR_QG, nr = 2 + nd;
  if (q0 >= nout) return;
  long nq = nout - q0 < PSCR_QG ? nout - q0 : PSCR_QG;
  scalar s[PSCR_QG];
  for (int u = 0; u < PSCR_QG; u++) s[u] = S_ZERO;
  const GLOBAL scalar *w = comp + b[PB_COMP] + (back ? 2 : 0) + q0;
  const GLOBAL scalar *yp = y + (p * ne + b[PB_E0] - e0) * len + i;
  for (long l = tk[1]; l < tk[2]; l++) {
    scalar yv = yp[l * len];
    for (int u = 0; u < PSCR_QG; u++)
      if (u < nq) s[u] = S_FMA(s[u], w[l * nr + u], yv);
  }
  for (int u = 0; u < PSCR_QG; u++) {
    if (u >= nq) break;
    long q = q0 + u;
    if (tk[3] < 0)
      pscr_dst(gd, b, back, q, p, x, xs, vs, vps, len)[i] = s[u];
    else
      acc[((p * nacc + tk[3]) * accq + q) * len + i] = s[u];
  }
}

/* Innermost: the partial sums of the blocks of several tasks (gd[mblk ..
 * mblk+nmb-1]) added into their destinations (pscr_dst). */
KERNEL void pscr_y2b(long len, GPTR(const long, gd), long blk, long mblk, long nmb, long nvec,
                     long qmax, int back, GPTR(const scalar, acc), long nacc, long accq,
                     GPTR(scalar, x), long xs, GPTR(scalar, vs), long vps) {
  GPTR_AT(const long, gd);
  GPTR_AT(const scalar, acc);
  GPTR_AT(scalar, x);
  GPTR_AT(scalar, vs);
  long gid = TD_GID();
  if (gid >= nvec * nmb * qmax * len) return;
  long k = gid / len, i = gid - k * len, q = k % qmax, mb = (k / qmax) % nmb, p = k / qmax / nmb;
  const GLOBAL long *b = gd + blk + PB_N * gd[mblk + mb];
  if (q >= (back ? b[PB_ND] : 2)) return;
  const GLOBAL scalar *a = acc + ((p * nacc + b[PB_ACC0]) * accq + q) * len + i;
  scalar s = S_ZERO;
  for (long t = 0; t < b[PB_NT]; t++) s = S_ADD(s, a[t * accq * len]);
  pscr_dst(gd, b, back, q, p, x, xs, vs, vps, len)[i] = s;
}

/* (24)-(25): f(i+1)_j = f(i)_j - T̂_j v_last(left) - Ť_j v_first(right) for the
 * row updates r0 .. r0+nu-1 (row, left block, right block; -1: none). */
KERNEL void pscr_upd(PSCR_KRON_KPARAMS, GPTR(const scalar, lao), GPTR(const scalar, lmo),
                     GPTR(scalar, x), long xs, long len, GPTR(const long, gd), long blk, long upd,
                     long r0, long nu, long nvec, GPTR(const scalar, shift),
                     GPTR(const scalar, vs), long vps) {
  PSCR_KRON_KAT();
  GPTR_AT(const scalar, lao);
  GPTR_AT(const scalar, lmo);
  GPTR_AT(scalar, x);
  GPTR_AT(const long, gd);
  GPTR_AT(const scalar, shift);
  GPTR_AT(const scalar, vs);
  long gid = TD_GID();
  if (gid >= nvec * nu * len) return;
  long k = gid / len, i = gid - k * len, u = k % nu, p = k / nu;
  const GLOBAL long *up = gd + upd + 3 * (r0 + u);
  long j = up[0];
  scalar c = shift[p], s = S_ZERO;
  const GLOBAL scalar *vp = vs + p * vps;
  if (up[1] >= 0) {
    const GLOBAL long *b = gd + blk + PB_N * up[1];
    s = pscr_kron_at(PSCR_KRON_ARGS, S_FMA(lao[j - 1], c, lmo[j - 1]), lmo[j - 1],
                     vp + (b[PB_VS] + 1) * len, i);
  }
  if (up[2] >= 0) {
    const GLOBAL long *b = gd + blk + PB_N * up[2];
    s = S_ADD(
        s, pscr_kron_at(PSCR_KRON_ARGS, S_FMA(lao[j], c, lmo[j]), lmo[j], vp + b[PB_VS] * len, i));
  }
  GLOBAL scalar *xr = x + p * xs + j * len + i;
  *xr = S_SUB(*xr, s);
}

/* Outer level (24) / (27): block sums over the group's subproblems y (eigenpairs
 * e0 .. e1-1) into the slots (rows PB_VS + q), continuing a block opened by an
 * earlier group; back: a block that closes here writes u into its rows D of x
 * (stage 22c fused). */
KERNEL void pscr_osums(GPTR(const scalar, y), long len, GPTR(const long, gd), long blk, long b0,
                       long nb, long e0, long e1, long nqg, GPTR(const scalar, comp), int back,
                       GPTR(scalar, slots), GPTR(scalar, x)) {
  GPTR_AT(const scalar, y);
  GPTR_AT(const long, gd);
  GPTR_AT(const scalar, comp);
  GPTR_AT(scalar, slots);
  GPTR_AT(scalar, x);
  long gid = TD_GID();
  if (gid >= nb * nqg * len) return;
  long k = gid / len, i = gid - k * len, qg = k % nqg, bi = k / nqg;
  const GLOBAL long *b = gd + blk + PB_N * (b0 + bi);
  long nd = b[PB_ND], m = b[PB_M], be = b[PB_E0], nout = back ? nd : 2, q0 = qg * PSCR_QG;
  if (q0 >= nout) return;
  long nq = nout - q0 < PSCR_QG ? nout - q0 : PSCR_QG, nr = 2 + nd;
  long ea = be > e0 ? be : e0, eb = be + m < e1 ? be + m : e1;
  GLOBAL scalar *sl = slots + (b[PB_VS] + q0) * len + i;
  scalar s[PSCR_QG];
  for (int u = 0; u < PSCR_QG; u++) s[u] = be >= e0 || u >= nq ? S_ZERO : sl[u * len];
  const GLOBAL scalar *w = comp + b[PB_COMP] + (back ? 2 : 0) + q0;
  for (long e = ea; e < eb; e++) {
    scalar yv = y[(e - e0) * len + i];
    for (int u = 0; u < PSCR_QG; u++)
      if (u < nq) s[u] = S_FMA(s[u], w[(e - be) * nr + u], yv);
  }
  int closes = back && be + m <= e1;
  for (int u = 0; u < PSCR_QG; u++) {
    if (u >= nq) break;
    if (closes)
      x[(b[PB_S] + gd[b[PB_D] + q0 + u]) * len + i] = s[u];
    else
      sl[u * len] = s[u];
  }
}

#endif
