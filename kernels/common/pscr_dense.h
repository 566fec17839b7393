/* The dense levels on devices: 3D's level 0 and the innermost level (2D's
 * level 0, 3D's level 1). With radix n + 1 a level has
 * one step and one block of all its n rows (seed 003 section 3.2 with
 * k = 1): the PSCR step is then the matrix decomposition method, and its
 * sums over the rows D and over the eigenpairs are matrix products (so are
 * those of 2D's two steps, a batch of like blocks at a time, each its own W),
 *   (28) y_e = sum_r w_e(r) x_r          Y = W^T X  (E x n times n x len)
 *   (27) u_r = sum_e w_e(r) v_e          U = W V    (n x E times E x len)
 * with W the block's eigenvector components (comp: eigenpair e's row at
 * e (n + 2) + 2) and len the product of the sizes below the level.
 * pscr_rhs / pscr_osums do these sums one output a work-item and read X or
 * V once per output row (n times over); pscr_gemm tiles them: a group
 * computes PD_BM x PD_BN outputs from tiles of A and B in local memory,
 * PD_TM x PD_TN a work-item. */
#ifndef PSCR_PSCR_DENSE_H
#define PSCR_PSCR_DENSE_H

#include "common/td_thomas.h"

#define PD_WG 256                      /* work-items a group */
#define PD_BM 64                       /* rows of C a group */
#define PD_BN (PSCR_COMPLEX ? 64 : 128) /* columns of C a group (B's rows: coalesced) */
#define PD_BK 16                       /* the inner dimension a tile */
/* local rows padded by 32 bytes: the 4 k rows of a fragment load fall on distinct banks */
#define PD_LA (PD_BM + (PSCR_COMPLEX ? 2 : 4))
#define PD_LB (PD_BN + (PSCR_COMPLEX ? 2 : 4))
#define PD_TM 4             /* without TD_DMMA: rows a work-item, 16 apart */
#define PD_TN (PD_BN / 16)  /* and columns, 16 apart (conflict-free local reads) */

/* The FP64 tensor cores' c += a b on TD_DMMA_M x 8 x 4 fragments where the
 * dialect compiles inline PTX (TD_ASM) for sm_80 on (TD_PTX_CC: CUDA's shim,
 * NVIDIA's OpenCL): sm_90's m16n8k4 (twice the m8n8k4's work an instruction
 * on the H100), else m8n8k4. -DPSCR_NO_DMMA (the portable products) and
 * -DPSCR_DMMA8 are for A/B runs. */
#if defined(TD_PTX_CC) && TD_PTX_CC >= 80 && !defined(PSCR_NO_DMMA)
#if TD_PTX_CC >= 90 && !defined(PSCR_DMMA8)
#define TD_DMMA_M 16
#define TD_DMMA(c, a, b)                                                                           \
  TD_ASM("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "     \
         "{%0, %1, %2, %3};"                                                                       \
         : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])                                          \
         : "d"(a[0]), "d"(a[1]), "d"(b))
#else
#define TD_DMMA_M 8
#define TD_DMMA(c, a, b)                                                                           \
  TD_ASM("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"         \
         : "+d"(c[0]), "+d"(c[1])                                                                  \
         : "d"(a[0]), "d"(b))
#endif
#endif

#define PD_RA (PD_BK * PD_BM / PD_WG) /* A's tile: scalars a work-item moves */
#define PD_RB (PD_BK * PD_BN / PD_WG) /* B's */

/* The next tiles of A and B into registers (zeros outside the matrices),
 * issued before the current tile's products, so that the loads overlap
 * them. pa, pb: the work-item's first loads of the tile (set up by pscr_gemm);
 * its loads are sa, sb scalars apart; bit r of am: A's load r is in a row
 * of A; okj: B's loads are in a column of B; ka, kb: their first inner
 * index within the tile (dk, PD_WG / PD_BN on), kl: the inner indices
 * left. Pointers advance load by load: a multiple of the stride kept per
 * load cost the loop its registers (NVRTC spilled 52 bytes at 128). */
DEVICE void pd_fetch(const GLOBAL scalar *pa, long sa, int am, int ka, int dk,
                     const GLOBAL scalar *pb, long sb, int okj, int kb, long kl, scalar *ra,
                     scalar *rb) {
#pragma unroll
  for (int r = 0; r < PD_RA; r++, pa += sa)
    ra[r] = (am >> r & 1) && ka + r * dk < kl ? *pa : S_ZERO;
#pragma unroll
  for (int r = 0; r < PD_RB; r++, pb += sb)
    rb[r] = okj && kb + r * (PD_WG / PD_BN) < kl ? *pb : S_ZERO;
}

/* ... and from registers into local memory (rows of PD_LA / PD_LB). */
DEVICE void pd_store(long acs, int t, const scalar *ra, const scalar *rb, LOCAL_P scalar *sa,
                     LOCAL_P scalar *sb) {
  int unit = acs == 1, ia = unit ? t / PD_BK : t % PD_BM, ka = unit ? t % PD_BK : t / PD_BM;
  int di = unit ? PD_WG / PD_BK : 0, dk = unit ? 0 : PD_WG / PD_BM;
#pragma unroll
  for (int r = 0; r < PD_RA; r++) sa[(ka + r * dk) * PD_LA + ia + r * di] = ra[r];
  int jb = t % PD_BN, kb = t / PD_BN;
#pragma unroll
  for (int r = 0; r < PD_RB; r++) sb[(kb + r * (PD_WG / PD_BN)) * PD_LB + jb] = rb[r];
}

/* Output (gi, gj) inside C: r (+ Cin's entry). */
DEVICE void pd_put(long M, long N, long gi, long gj, scalar r, const GLOBAL scalar *cin, long cio,
                   GLOBAL scalar *c, long co, long ldc) {
  long o = gi * ldc + gj;
  if (gi < M && gj < N) c[co + o] = cin ? S_ADD(cin[cio + o], r) : r;
}

/* A product split along its inner index (pscr_gemm with ktot > 0, chunk z
 * of K into t + z M N): C = the sum of the S chunks, taken in the order of
 * the product's inner index (with rev, from the largest lambda down). */
KERNEL void pscr_ksum(long M, long N, long S, GPTR(const scalar, t), GPTR(scalar, c), long co,
                      long ldc) {
  GPTR_AT(const scalar, t);
  GPTR_AT(scalar, c);
  long gid = TD_GID();
  if (gid >= M * N) return;
  long i = gid / N, j = gid - i * N;
  scalar s = S_ZERO;
  for (long z = 0; z < S; z++) s = S_ADD(s, t[(z * M + i) * N + j]);
  c[co + i * ldc + j] = s;
}

/* C = A B (+ Cin): A is M x K with entry (i, k) at a[ao + i ars + k acs]
 * (W^T or W: the components are read in place), B is K x N and C, Cin are
 * M x N from b[bo], c[co], cin[cio], rows ldb / ldc apart (offsets as
 * arguments: OpenCL buffers take none; strides may be negative); a batch
 * of such products, the z-th A, B and C (Cin) abs, bbs and cbs scalars on
 * (vectors of one block: abs = 0; blocks of one vector: each its own W;
 * ktot > 0: chunks of one product's inner index, K each, the last one short,
 * for pscr_ksum to add up). Row blocks vary fastest over the groups, so the groups that share a
 * tile of B run together and read it from L2.
 * Where the dialect has TD_DMMA (CUDA and NVIDIA's OpenCL from sm_80 on:
 * the FP64 tensor cores' product), each warp computes 32 x 32 of the
 * group's 64 x 128 outputs with it (complex: 32 x 16 of 64 x 64);
 * elsewhere a work-item computes PD_TM x PD_TN. */
#ifndef PD_MINB /* groups an SM holds (real: 128 registers a work-item); -DPD_MINB=1 for A/B */
#define PD_MINB (PSCR_COMPLEX ? 1 : 2)
#endif
KERNEL_BOUNDED(PD_WG, PD_MINB)
void pscr_gemm(XBASE long M, long N, long K, XPTR(const scalar, a), long ao, long ars, long acs,
               long abs, XPTR(const scalar, b), long bo, long ldb, XPTR(const scalar, cin),
               long cio, XPTR(scalar, c), long co, long ldc, long bbs, long cbs,
               XPTR(const scalar, lambda), long l0, long ls, XPTR(const scalar, shift), long ss,
               XPTR(scalar, sout), long so, long ktot) {
  XPTR_AT(const scalar, a);
  XPTR_AT(const scalar, b);
  XPTR_AT(const scalar, cin);
  XPTR_AT(scalar, c);
  XPTR_AT(const scalar, lambda);
  XPTR_AT(const scalar, shift);
  XPTR_AT(scalar, sout);
  LOCAL scalar sa[PD_BK * PD_LA];
  LOCAL scalar sb[PD_BK * PD_LB];
  long nmb = (M + PD_BM - 1) / PD_BM, nt = nmb * ((N + PD_BN - 1) / PD_BN), g = GROUP_ID();
  long z = g / nt, m0 = (g % nmb) * PD_BM, n0 = (g % nt / nmb) * PD_BN;
  ao += z * abs, b += bo + z * bbs, cio += z * cbs, co += z * cbs;
  if (ktot > 0 && ktot - z * K < K) K = ktot - z * K; /* split: chunk z of ktot, K each */
  int t = (int)LOCAL_ID();
  /* (26)/(28)'s products also give their systems' shifts (sout non-null):
   * sout[so + z M + i] = shift[z ss] + lambda[l0 + z ls + i], one group of each z */
  if (sout != 0 && g % nt == 0)
    for (long i = t; i < M; i += PD_WG)
      sout[so + z * M + i] = S_ADD(shift[z * ss], lambda[l0 + z * ls + i]);
#if defined(TD_DMMA)
  /* TD_DMMA(c, a, b): c += a b on fragments (PTX ISA, mma .f64): A row
   * 8 h + l / 4 (h < TD_DMMA_M / 8), column l % 4; B row l % 4, column l / 4;
   * C row 8 (j / 2) + l / 4, column 2 (l % 4) + j % 2 (j < TD_DMMA_M / 4). A
   * warp computes 32 x 32 outputs (complex: 32 x 16, four real products a
   * fragment pair: re = ar br - ai bi, im = ar bi + ai br). */
#define PD_FU (32 / TD_DMMA_M)       /* fragments down a warp's 32 rows */
#define PD_FV (PSCR_COMPLEX ? 2 : 4) /* fragments across its columns (8 each) */
#define PD_FA (TD_DMMA_M / 8)        /* A's scalars a fragment */
#define PD_FC (TD_DMMA_M / 4)        /* C's scalars a fragment */
  int l = t % 32, wm = (t / 32) % 2 * 32, wn = (t / 32) / 2 * (8 * PD_FV);
  double cr[PD_FU][PD_FV][PD_FC];
#if PSCR_COMPLEX
  double ci[PD_FU][PD_FV][PD_FC];
#endif
#pragma unroll
  for (int u = 0; u < PD_FU; u++)
#pragma unroll
    for (int v = 0; v < PD_FV; v++)
#pragma unroll
      for (int j = 0; j < PD_FC; j++) {
        cr[u][v][j] = 0.0;
#if PSCR_COMPLEX
        ci[u][v][j] = 0.0;
#endif
      }
#else
  int tx = t % 16, ty = t / 16;
  scalar acc[PD_TM][PD_TN];
#pragma unroll
  for (int u = 0; u < PD_TM; u++)
#pragma unroll
    for (int v = 0; v < PD_TN; v++) acc[u][v] = S_ZERO;
#endif
  /* the work-item's loads (A along its unit stride where it has one) */
  int unit = acs == 1, ia = unit ? t / PD_BK : t % PD_BM, ka = unit ? t % PD_BK : t / PD_BM;
  int di = unit ? PD_WG / PD_BK : 0, dk = unit ? 0 : PD_WG / PD_BM, am = 0;
  int jb = t % PD_BN, kb = t / PD_BN, okj = n0 + jb < N;
#pragma unroll
  for (int r = 0; r < PD_RA; r++) am |= (m0 + ia + r * di < M) << r;
  const GLOBAL scalar *pa = a + ao + (m0 + ia) * ars + ka * acs, *pb = b + n0 + jb + kb * ldb;
  long sta = di * ars + dk * acs, stb = (PD_WG / PD_BN) * ldb;
  scalar ra[PD_RA], rb[PD_RB];
  pd_fetch(pa, sta, am, ka, dk, pb, stb, okj, kb, K, ra, rb);
  for (long k0 = 0; k0 < K; k0 += PD_BK) {
    pd_store(acs, t, ra, rb, sa, sb);
    BARRIER();
    pa += PD_BK * acs, pb += PD_BK * ldb;
    if (k0 + PD_BK < K) pd_fetch(pa, sta, am, ka, dk, pb, stb, okj, kb, K - k0 - PD_BK, ra, rb);
#if defined(TD_DMMA)
#pragma unroll
    for (int kk = 0; kk < PD_BK; kk += 4) {
      const LOCAL_P scalar *ka = sa + (kk + l % 4) * PD_LA + wm + l / 4;
      const LOCAL_P scalar *kb = sb + (kk + l % 4) * PD_LB + wn + l / 4;
      scalar af[PD_FU][PD_FA], bf[PD_FV];
#pragma unroll
      for (int u = 0; u < PD_FU; u++)
#pragma unroll
        for (int h = 0; h < PD_FA; h++) af[u][h] = ka[TD_DMMA_M * u + 8 * h];
#pragma unroll
      for (int v = 0; v < PD_FV; v++) bf[v] = kb[8 * v];
#pragma unroll
      for (int u = 0; u < PD_FU; u++)
#pragma unroll
        for (int v = 0; v < PD_FV; v++) {
#if PSCR_COMPLEX
          double xr[PD_FA], xi[PD_FA], xn[PD_FA];
#pragma unroll
          for (int h = 0; h < PD_FA; h++)
            xr[h] = af[u][h].x, xi[h] = af[u][h].y, xn[h] = -af[u][h].y;
          TD_DMMA(cr[u][v], xr, bf[v].x);
          TD_DMMA(cr[u][v], xn, bf[v].y);
          TD_DMMA(ci[u][v], xr, bf[v].y);
          TD_DMMA(ci[u][v], xi, bf[v].x);
#else
          TD_DMMA(cr[u][v], af[u], bf[v]);
#endif
        }
    }
#else
#pragma unroll
    for (int k = 0; k < PD_BK; k++) {
      scalar av[PD_TM], bv[PD_TN];
#pragma unroll
      for (int u = 0; u < PD_TM; u++) av[u] = sa[k * PD_LA + ty + 16 * u];
#pragma unroll
      for (int v = 0; v < PD_TN; v++) bv[v] = sb[k * PD_LB + tx + 16 * v];
#pragma unroll
      for (int u = 0; u < PD_TM; u++)
#pragma unroll
        for (int v = 0; v < PD_TN; v++) acc[u][v] = S_FMA(acc[u][v], av[u], bv[v]);
    }
#endif
    BARRIER();
  }
#if defined(TD_DMMA)
#pragma unroll
  for (int u = 0; u < PD_FU; u++)
#pragma unroll
    for (int v = 0; v < PD_FV; v++)
#pragma unroll
      for (int j = 0; j < PD_FC; j++) {
#if PSCR_COMPLEX
        scalar r = MAKE_Z(cr[u][v][j], ci[u][v][j]);
#else
        scalar r = cr[u][v][j];
#endif
        pd_put(M, N, m0 + wm + TD_DMMA_M * u + 8 * (j / 2) + l / 4,
               n0 + wn + 8 * v + 2 * (l % 4) + j % 2, r, cin, cio, c, co, ldc);
      }
#else
#pragma unroll
  for (int u = 0; u < PD_TM; u++)
#pragma unroll
    for (int v = 0; v < PD_TN; v++)
      pd_put(M, N, m0 + ty + 16 * u, n0 + tx + 16 * v, acc[u][v], cin, cio, c, co, ldc);
#endif
}

/* A small innermost dense level whole, one group a vector (3D: a vector of
 * level 0's eigenpairs; 2D: the problem): the slab X (n x len) at x + v xs
 * in local memory, (28) Y = W^T X, the n shifted systems
 * (A_last + (s_v + lambda_e) M_last) v_e = y_e by Thomas
 * without pivoting from both ends (pd_slab_solve; the host takes this kernel
 * for systems proven definite only), then (27) U = W V into x, summed from
 * the largest lambda down as pscr_gemm's rev. One launch does what pscr_gemm,
 * the tridiagonal engine and pscr_gemm do in three: slabs this small are
 * launch-bound. W's entry (e, r) at w[wo + e wr + r], lambda_e at
 * lambda[l0 + e], the coefficients as TD_SRC_PARAMS' (M's off-diagonals may
 * be null); the plan's constants as PKPTRs (OpenCL: one buffer argument,
 * gpu_pscr.slab_pk). The group's shift s_v is shift[v ss], or with shift
 * null c[0] (2D), or c[0] + lambda0[l00 + v] (3D, both levels dense). There
 * the group forms its slab itself, level 0's (28) for its eigenpair v:
 * X_v = sum_r0 W0(v, r0) f_r0 (f's rows of n len, W0's entry (v, r0) at
 * w0[w0o + v w0r + r0], K = n0), so that 3D takes one launch less. A
 * NaN/Inf input raises NONFINITE, a zero pivot's NaN SINGULAR; the group's
 * slab is then left as it was. */
#define PD_SLAB (PSCR_COMPLEX ? 1000 : 2000) /* n len, at most (local memory: 32000 B) */
#define PD_SWG 512                           /* work-items a group */
#define PD_SK ((PD_SLAB + PD_SWG - 1) / PD_SWG) /* outputs of a product a work-item */

/* One product on the slab: out(row, col) = sum_k w[row rs + k ks] in(k, col)
 * over k < K (rev: from K - 1 down), for the work-item's outputs
 * i0 + t + m PD_SWG (row = i / len, col = i % len) as independent chains. Outputs
 * past N compute row 0's and are dropped: the loads stay unconditional and
 * the unrolled loop keeps them in flight (guarded, ncu found one load at a
 * time, a long-scoreboard stall on every FMA: 3D 44^3, 65 us a launch).
 * W stays in global memory, read through L1: staged in local memory, PoCL
 * (pthread device, CI) read NaN from it here. */
DEVICE void pd_slab_product(int N, int len, int K, const GLOBAL scalar *w, long rs, long ks,
                            int rev, const LOCAL_P scalar *in, int i0, scalar *acc) {
  int t = (int)LOCAL_ID(), col[PD_SK];
  long base[PD_SK];
#pragma unroll
  for (int m = 0; m < PD_SK; m++) {
    int i = i0 + t + m * PD_SWG, row = i < N ? i / len : 0;
    col[m] = i < N ? i - row * len : 0;
    base[m] = row * rs;
    acc[m] = S_ZERO;
  }
#pragma unroll 4
  for (int q = 0; q < K; q++) {
    int k = rev ? K - 1 - q : q;
#pragma unroll
    for (int m = 0; m < PD_SK; m++) acc[m] = S_FMA(acc[m], w[base[m] + k * ks], in[k * len + col[m]]);
  }
}

/* Row h of a twisted factorization (pd_slab_solve): x_h = (f_h - a_h y_{h-1}
 * - c_h z_{h+1}) / (d_h - a_h u_{h-1} - c_h l_{h+1}) from the two sweeps'
 * values in y (rows h - 1, h + 1) and their factors uhm = u_{h-1}, uhp =
 * l_{h+1} (terms past the ends dropped); bad as pd_slab_solve's. */
DEVICE scalar pd_twist_mid(const GLOBAL scalar *cdl, const GLOBAL scalar *cd,
                           const GLOBAL scalar *cdu, const GLOBAL scalar *mdl,
                           const GLOBAL scalar *md, const GLOBAL scalar *mdu, scalar s, int h,
                           int len, const LOCAL_P scalar *y, scalar uhm, scalar uhp,
                           LOCAL_P int *bad) {
  scalar a, d, c;
  if (!td_coef_row(cdl, cd, cdu, mdl, md, mdu, s, h, h, len, &a, &d, &c)) bad[0] = 1;
  scalar den = d, f = y[h];
  if (h > 0) den = S_FMS(den, a, uhm), f = S_FMS(f, a, y[h - 1]);
  if (h + 1 < len) den = S_FMS(den, c, uhp), f = S_FMS(f, c, y[h + 1]);
  scalar x = S_MUL(f, S_RCP(den));
  if (!S_ISFINITE(x)) bad[1] = 1; /* a zero pivot's NaN */
  return x;
}

/* The systems (A + s_e M) v_e = y_e of the slab (row e of y, rows len apart),
 * two work-items each: Thomas from the top (td_thomas_row) over rows
 * 0 .. h-1, and from the bottom over rows len-1 .. h+1 (the same row with a
 * and c exchanged: l_r = a_r / den, z_r = (f_r - c_r z_{r+1}) / den), h =
 * len / 2, their factors in u; row h then takes x_h = (f_h - a_h y_{h-1} -
 * c_h z_{h+1}) / (d_h - a_h u_{h-1} - c_h l_{h+1}), and each end
 * substitutes back to its end (a twisted factorization: half the latency of
 * one sweep; every pivot positive for definite systems). bad[0]: NaN/Inf
 * coefficients, bad[1]: a non-finite x. One pass: the work-item's system
 * e0 + t % (PD_SWG / 2) where below n. */
DEVICE void pd_slab_pass(int e0, int n, int len, const GLOBAL scalar *cdl, const GLOBAL scalar *cd,
                         const GLOBAL scalar *cdu, const GLOBAL scalar *mdl,
                         const GLOBAL scalar *md, const GLOBAL scalar *mdu, scalar s0,
                         const GLOBAL scalar *lambda, LOCAL_P scalar *y, LOCAL_P scalar *u,
                         LOCAL_P int *bad) {
  int t = (int)LOCAL_ID(), P = PD_SWG / 2, bot = t >= P, h = len / 2;
  int e = e0 + t % P, live = e < n;
  scalar s = live ? S_ADD(s0, lambda[e]) : S_ZERO, a, d, c, v = S_ZERO, w = S_ZERO, xh;
  LOCAL_P scalar *ry = y + e * len, *ru = u + e * len;
  if (live && !bot) {
#pragma unroll 4
    for (int r = 0; r < h; r++) {
      if (!td_coef_row(cdl, cd, cdu, mdl, md, mdu, s, r, r, len, &a, &d, &c)) bad[0] = 1;
      td_thomas_row(a, d, c, ry[r], &v, &w);
      ru[r] = v;
      ry[r] = w;
    }
  } else if (live) {
#pragma unroll 4
    for (int r = len - 1; r > h; r--) {
      if (!td_coef_row(cdl, cd, cdu, mdl, md, mdu, s, r, r, len, &a, &d, &c)) bad[0] = 1;
      td_thomas_row(c, d, a, ry[r], &v, &w);
      ru[r] = v;
      ry[r] = w;
    }
  }
  BARRIER();
  if (live)
    xh = pd_twist_mid(cdl, cd, cdu, mdl, md, mdu, s, h, len, ry, h > 0 ? ru[h - 1] : S_ZERO,
                      h + 1 < len ? ru[h + 1] : S_ZERO, bad);
  BARRIER(); /* row h's neighbours read: the ends may overwrite them */
  if (live && !bot) {
    ry[h] = xh;
#pragma unroll 4
    for (int r = h - 1; r >= 0; r--) ry[r] = xh = S_FMS(ry[r], ru[r], xh);
  } else if (live) {
#pragma unroll 4
    for (int r = h + 1; r < len; r++) ry[r] = xh = S_FMS(ry[r], ru[r], xh);
  }
  if (live && !S_ISFINITE(xh)) bad[1] = 1;
}

/* pd_slab_pass over all n systems (the same count for every work-item: barriers) */
DEVICE void pd_slab_solve(int n, int len, const GLOBAL scalar *cdl, const GLOBAL scalar *cd,
                          const GLOBAL scalar *cdu, const GLOBAL scalar *mdl,
                          const GLOBAL scalar *md, const GLOBAL scalar *mdu, scalar s0,
                          const GLOBAL scalar *lambda, LOCAL_P scalar *y, LOCAL_P scalar *u,
                          LOCAL_P int *bad) {
  for (int e0 = 0; e0 < n; e0 += PD_SWG / 2)
    pd_slab_pass(e0, n, len, cdl, cd, cdu, mdl, md, mdu, s0, lambda, y, u, bad);
}

/* The arguments of pscr_slab and pscr_slab64 (gpu_pscr.c's slab), and their
 * pointers set up. */
#define PD_SLAB_PARAMS                                                                             \
  long n, long len, PKBASE(const scalar, pk) PKPTR(const scalar, w), long wo, long wr,             \
      PKPTR(const scalar, lambda), long l0, GPTR(const scalar, shift), long ss,                    \
      PKPTR(const scalar, cdl), PKPTR(const scalar, cd), PKPTR(const scalar, cdu),                 \
      PKPTR(const scalar, mdl), PKPTR(const scalar, md), PKPTR(const scalar, mdu),                 \
      GPTR(scalar, x), long xs, GPTR(const scalar, f), GPTR(const scalar, w0), long w0o,           \
      long w0r, long n0, PKPTR(const scalar, lambda0), long l00, PKPTR(const scalar, c),           \
      GPTR(int, flags)
#define PD_SLAB_AT()                                                                               \
  PKBASE_AT(const scalar, pk);                                                                     \
  PKPTR_AT(const scalar, w, pk);                                                                   \
  PKPTR_AT(const scalar, lambda, pk);                                                              \
  PKPTR_AT(const scalar, cdl, pk);                                                                 \
  PKPTR_AT(const scalar, cd, pk);                                                                  \
  PKPTR_AT(const scalar, cdu, pk);                                                                 \
  PKPTR_AT(const scalar, mdl, pk);                                                                 \
  PKPTR_AT(const scalar, md, pk);                                                                  \
  PKPTR_AT(const scalar, mdu, pk);                                                                 \
  PKPTR_AT(const scalar, lambda0, pk);                                                             \
  PKPTR_AT(const scalar, c, pk);                                                                   \
  GPTR_AT(const scalar, shift);                                                                    \
  GPTR_AT(scalar, x);                                                                              \
  GPTR_AT(const scalar, f);                                                                        \
  GPTR_AT(const scalar, w0);                                                                       \
  GPTR_AT(int, flags)
/* The group's shift s_v (pscr_slab's comment) */
#define PD_SLAB_SHIFT()                                                                            \
  (shift != 0     ? shift[GROUP_ID() * ss]                                                         \
   : lambda0 != 0 ? S_ADD(c[0], lambda0[l00 + GROUP_ID()])                                         \
                  : c[0])

/* 1 where the group stops, its status word raised: the host's bounds broken
 * (config: CONFIG), or after the solve (bad non-null) NONFINITE (bad[0]) or
 * SINGULAR (bad[1]). */
DEVICE int pd_slab_failed(int config, const LOCAL_P int *bad, GLOBAL int *flags) {
  int word = config         ? TD_FLAG_CONFIG
             : bad && bad[0] ? TD_FLAG_NONFINITE
             : bad && bad[1] ? TD_FLAG_SINGULAR
                             : -1;
  if (word >= 0 && LOCAL_ID() == 0) flags[word] = 1;
  return word >= 0;
}

KERNEL_BOUNDED(PD_SWG, 1)
void pscr_slab(PD_SLAB_PARAMS) {
  PD_SLAB_AT();
  LOCAL scalar sy[PD_SLAB], su[PD_SLAB];
  LOCAL int bad[2];
  int t = (int)LOCAL_ID(), N = (int)(n * len), L = (int)len, K = (int)n;
  if (pd_slab_failed(n * len > PD_SLAB, 0, flags)) return; /* the host's bound */
  GLOBAL scalar *xv = x + GROUP_ID() * xs;
  w += wo;
  if (t == 0) bad[0] = bad[1] = 0;
  scalar z = S_ZERO; /* v * 0 is NaN exactly for NaN/Inf v */
  if (f != 0) { /* level 0's (28) for eigenpair v, r0 ascending as pscr_gemm's */
    const GLOBAL scalar *wv = w0 + w0o + GROUP_ID() * w0r;
    for (int i = t; i < N; i += PD_SWG) {
      scalar v = S_ZERO;
      for (long r0 = 0; r0 < n0; r0++) v = S_FMA(v, wv[r0], f[r0 * N + i]);
      su[i] = v;
      z = S_NF(z, v);
    }
  } else {
    for (int i = t; i < N; i += PD_SWG) {
      su[i] = xv[i];
      z = S_NF(z, su[i]);
    }
  }
  BARRIER();
  /* the products' outputs are private arrays in a block between barriers:
   * PoCL (pthread device) returned NaN where one lived across them */
  { /* (28): y_e = sum_r w_e(r) x_r */
    scalar acc[PD_SK];
    pd_slab_product(N, L, K, w, wr, 1, 0, su, 0, acc);
#pragma unroll
    for (int m = 0; m < PD_SK; m++)
      if (t + m * PD_SWG < N) sy[t + m * PD_SWG] = acc[m];
  }
  if (!S_ISFINITE(z)) bad[0] = 1;
  BARRIER();
  pd_slab_solve(K, L, cdl, cd, cdu, mdl, md, mdu, PD_SLAB_SHIFT(), lambda + l0, sy, su, bad);
  BARRIER();
  if (pd_slab_failed(0, bad, flags)) return;
  { /* (27): u_r = sum_e w_e(r) v_e */
    scalar acc[PD_SK];
    pd_slab_product(N, L, K, w, 1, wr, 1, sy, 0, acc);
#pragma unroll
    for (int m = 0; m < PD_SK; m++)
      if (t + m * PD_SWG < N) xv[t + m * PD_SWG] = acc[m];
  }
}

/* 3D's two dense levels, each pair of products in one launch: (28) over
 * level 0 then level 1, and (27) over level 1 then level 0 (the Kronecker
 * forms (W0 (x) W1)^T X and (W0 (x) W1) V of the four pscr_gemm launches
 * they replace), every sum in the order of the product it replaces:
 *   back = 0: Y[o0][o1] = sum_i1 A1(o1, i1) sum_i0 A0(o0, i0) X[i0][i1]
 *   back = 1: U[o0][o1] = sum_i0 A0(o0, i0) sum_i1 A1(o1, i1) V[i0][i1],
 *             both inner indices from the last down (pscr_gemm's rev)
 * for each of the L columns k of the innermost size: entry [i0][i1] of the
 * input at in[(i0 n1 + i1) L + k], of the output at out[(o0 n1 + o1) L + k];
 * A_d is n_d x n_d with entry (o, i) at a_d[a_d_o + o a_d_r + i a_d_c]. A
 * group takes column k = GROUP_ID() / P and share p = GROUP_ID() % P of the
 * first product's outputs (o_f = p, p + P, ..., of the level summed first),
 * so no product is done twice: the column's slice in local memory (rows:
 * the index summed first), the first product into a second array
 * (transposed: the second product's rows), the second into out. sout
 * non-null (back = 0): the systems' shifts, sout[o0 n1 + o1] = (c[0] +
 * lambda0[l0 + o0]) + lambda1[l1 + o1], associated as stage_21's and
 * gemm_step's products did. */
#define PD_KT (PD_SK * PD_SWG) /* one pd_slab_product's outputs */
#define PD_KCAP (2 * PD_KT)    /* n0 n1, at most */
/* the first product's outputs a group, at most: local memory 1 KB (complex 2 KB)
 * short of 48 KB with PD_KCAP's, since NVIDIA's OpenCL adds bytes of its own
 * to a kernel's (pscr_slab128: 32784 for 32768) and refuses past 48 KB */
#define PD_KS (PD_KT - 128)
KERNEL_BOUNDED(PD_SWG, 1)
void pscr_kron(XBASE long n0, long n1, long L, long P, int back, XPTR(const scalar, a0), long a0o,
               long a0r, long a0c, XPTR(const scalar, a1), long a1o, long a1r, long a1c,
               XPTR(const scalar, in), XPTR(scalar, out), XPTR(const scalar, c),
               XPTR(const scalar, lambda0), long l0, XPTR(const scalar, lambda1), long l1,
               XPTR(scalar, sout), XPTR(int, flags)) {
  XPTR_AT(const scalar, a0);
  XPTR_AT(const scalar, a1);
  XPTR_AT(const scalar, in);
  XPTR_AT(scalar, out);
  XPTR_AT(const scalar, c);
  XPTR_AT(const scalar, lambda0);
  XPTR_AT(const scalar, lambda1);
  XPTR_AT(scalar, sout);
  XPTR_AT(int, flags);
  LOCAL scalar sx[PD_KCAP], st[PD_KS];
  int t = (int)LOCAL_ID(), N = (int)(n0 * n1);
  /* f: the level summed first, s: the other */
  int nf = (int)(back ? n1 : n0), ns = (int)(back ? n0 : n1);
  if (pd_slab_failed(N > PD_KCAP || P < 1 || (nf + P - 1) / P * ns > PD_KS, 0, flags))
    return; /* the host's bounds */
  long k = GROUP_ID() / P, p = GROUP_ID() % P;
  int nq = (int)((nf - p + P - 1) / P); /* o_f = p + q P for q < nq */
  if (sout != 0 && GROUP_ID() == 0)
    for (int i = t; i < N; i += PD_SWG)
      sout[i] = S_ADD(S_ADD(c[0], lambda0[l0 + i / n1]), lambda1[l1 + i % n1]);
  const GLOBAL scalar *af = back ? a1 + a1o + p * a1r : a0 + a0o + p * a0r;
  const GLOBAL scalar *as = back ? a0 + a0o : a1 + a1o;
  long afr = (back ? a1r : a0r) * P, afc = back ? a1c : a0c;
  long asr = back ? a0r : a1r, asc = back ? a0c : a1c;
  int m1 = (int)n1, m0 = (int)n0;
  for (int i = t; i < N; i += PD_SWG) { /* [i0][i1] to row i_f, column i_s */
    int i0 = i / m1, i1 = i - i0 * m1;
    sx[back ? i1 * m0 + i0 : i] = in[i * L + k];
  }
  BARRIER();
  /* a share is a fraction of a group's PD_SK PD_SWG outputs: warps past it
   * skip the products (all their outputs are dropped) rather than compute
   * row 0's (3D Helmholtz 31^3 on the H200: 43 us a launch with them) */
  int warp = t - t % 32;
  { /* first: T(q, i_s) = sum_{i_f} A_f(o_f, i_f) X(i_f, i_s), stored as T^T */
    scalar acc[PD_SK];
    if (warp < nq * ns) pd_slab_product(nq * ns, ns, nf, af, afr, afc, back, sx, 0, acc);
#pragma unroll
    for (int m = 0; m < PD_SK; m++) {
      int i = t + m * PD_SWG;
      if (i < nq * ns) st[(i % ns) * nq + i / ns] = acc[m];
    }
  }
  BARRIER();
  { /* second: out(o_s, q) = sum_{i_s} A_s(o_s, i_s) T^T(i_s, q) */
    scalar acc[PD_SK];
    if (warp < ns * nq) pd_slab_product(ns * nq, nq, ns, as, asr, asc, back, st, 0, acc);
#pragma unroll
    for (int m = 0; m < PD_SK; m++) {
      int i = t + m * PD_SWG;
      if (i < ns * nq) {
        long os = i / nq, of = p + (i % nq) * P;
        out[(back ? os * n1 + of : of * n1 + os) * L + k] = acc[m];
      }
    }
  }
}

/* pscr_slab for slabs of up to 64 x 64 (real; 2D 63^2, 3D's level 1 at
 * 63^3), too large for two local arrays: the slab Y alone in local memory
 * (64 rows of PD_L64), both products (28) and (27) on the FP64 tensor cores
 * where the dialect has them (pd_s64_product), and the Thomas factors of
 * the twisted solve in registers (pd_s64_solve). The same arguments and
 * status words as pscr_slab; the slab comes from x (f null: no level 0's
 * (28) here). */
#define PD_S64 64                  /* n, len at most */
#define PD_L64 (PD_S64 + 4)        /* local rows padded by 32 bytes, as pscr_gemm's */
#define PD_S64O (PD_S64 * PD_S64 / PD_SWG) /* outputs of a product a work-item */
#if defined(TD_DMMA) && !PSCR_COMPLEX
#define PD_S64_MMA 1
#else
#define PD_S64_MMA 0
#endif

/* Where a work-item's output m of pd_s64_product lies (row i, column j).
 * TD_DMMA: warp w computes rows 16 (w % 4) .., columns 16 (w / 4) .. in
 * fragments as pscr_gemm's (PD_S64_MMA); else outputs t + m PD_SWG, rows of 64. */
DEVICE void pd_s64_at(int m, int *i, int *j) {
  int t = (int)LOCAL_ID();
#if PD_S64_MMA
  int l = t % 32, w = t / 32, fc = TD_DMMA_M / 4, j0 = m % fc, v = m / fc % 2, u = m / fc / 2;
  *i = 16 * (w % 4) + TD_DMMA_M * u + 8 * (j0 / 2) + l / 4;
  *j = 16 * (w / 4) + 8 * v + 2 * (l % 4) + j0 % 2;
#else
  *i = (t + m * PD_SWG) / PD_S64;
  *j = (t + m * PD_SWG) % PD_S64;
#endif
}

/* out(i, j) = sum_k A(i, k) B(k, j) for i, j < 64 into the work-item's
 * outputs (pd_s64_at): A(i, k) = a[i ars + k acs] for i < M, k < K (zero
 * elsewhere: a is read in place, through L1), B(k, j) = b[k PD_L64 + j]
 * (64 x 64 in local memory, finite everywhere); k ascending, with rev from
 * K - 1 down (pscr_gemm's rev). */
DEVICE void pd_s64_product(int M, int K, const GLOBAL scalar *a, long ars, long acs, int rev,
                           const LOCAL_P scalar *bl, scalar *acc) {
#if PD_S64_MMA
#define PD_GU (16 / TD_DMMA_M) /* fragments down a warp's 16 rows */
  int t = (int)LOCAL_ID(), l = t % 32, w = t / 32, wm = 16 * (w % 4), wn = 16 * (w / 4);
  double c[PD_GU][2][TD_DMMA_M / 4];
#pragma unroll
  for (int u = 0; u < PD_GU; u++)
#pragma unroll
    for (int v = 0; v < 2; v++)
#pragma unroll
      for (int j = 0; j < TD_DMMA_M / 4; j++) c[u][v][j] = 0.0;
#pragma unroll 4
  for (int k0 = 0; k0 < K; k0 += 4) {
    int kq = k0 + l % 4, ok = kq < K, k = !ok ? 0 : rev ? K - 1 - kq : kq;
    double af[PD_GU][TD_DMMA_M / 8], bf[2];
#pragma unroll
    for (int u = 0; u < PD_GU; u++)
#pragma unroll
      for (int h = 0; h < TD_DMMA_M / 8; h++) {
        int i = wm + TD_DMMA_M * u + 8 * h + l / 4;
        af[u][h] = ok && i < M ? a[i * ars + k * acs] : 0.0;
      }
#pragma unroll
    for (int v = 0; v < 2; v++) bf[v] = ok ? bl[k * PD_L64 + wn + 8 * v + l / 4] : 0.0;
#pragma unroll
    for (int u = 0; u < PD_GU; u++)
#pragma unroll
      for (int v = 0; v < 2; v++) TD_DMMA(c[u][v], af[u], bf[v]);
  }
#pragma unroll
  for (int m = 0; m < PD_S64O; m++)
    acc[m] = c[m / (TD_DMMA_M / 4) / 2][m / (TD_DMMA_M / 4) % 2][m % (TD_DMMA_M / 4)];
#undef PD_GU
#else
  /* one output's sum at a time: unrolled chains over index arrays, as
   * pd_slab_product's, read the local slab as zeros on PoCL (pthread) */
  int t = (int)LOCAL_ID();
  for (int m = 0; m < PD_S64O; m++) {
    int o = t + m * PD_SWG, i = o / PD_S64, j = o % PD_S64;
    scalar v = S_ZERO;
    for (int q = 0; i < M && q < K; q++) {
      int k = rev ? K - 1 - q : q;
      v = S_FMA(v, a[i * ars + k * acs], bl[k * PD_L64 + j]);
    }
    acc[m] = v;
  }
#endif
}

/* pd_slab_solve on a slab of rows PD_L64 apart, its factors in registers:
 * work-items 0 .. 63 sweep rows 0 .. h-1 of system e = t, 64 .. 127 rows
 * len-1 .. h+1 of system t - 64 (q-th row of a sweep: its factor u[q]),
 * row h by pd_twist_mid from the factors next to it (through um). */
DEVICE void pd_s64_solve(int n, int len, const GLOBAL scalar *cdl, const GLOBAL scalar *cd,
                         const GLOBAL scalar *cdu, const GLOBAL scalar *mdl,
                         const GLOBAL scalar *md, const GLOBAL scalar *mdu, scalar s0,
                         const GLOBAL scalar *lambda, LOCAL_P scalar *y, LOCAL_P scalar *um,
                         LOCAL_P int *bad) {
  int t = (int)LOCAL_ID(), e = t % PD_S64, bot = t / PD_S64, live = t < 2 * PD_S64 && e < n;
  int h = len / 2, cnt = bot ? len - 1 - h : h;
  scalar s = live ? S_ADD(s0, lambda[e]) : S_ZERO, u[PD_S64 / 2], v = S_ZERO, w = S_ZERO;
  scalar a, d, c, xh = S_ZERO;
  LOCAL_P scalar *ry = y + e * PD_L64;
#pragma unroll
  for (int q = 0; q < PD_S64 / 2; q++) {
    u[q] = S_ZERO;
    int r = bot ? len - 1 - q : q;
    /* the row's coefficients read unconditionally (a row of the system: rc), so that
     * their loads run ahead of the pivots' chain */
    int rc = r < 0 ? 0 : r >= len ? len - 1 : r;
    int ok = td_coef_row(cdl, cd, cdu, mdl, md, mdu, s, rc, rc, len, &a, &d, &c);
    if (live && q < cnt) {
      if (!ok) bad[0] = 1;
      if (bot)
        td_thomas_row(c, d, a, ry[r], &v, &w);
      else
        td_thomas_row(a, d, c, ry[r], &v, &w);
      u[q] = v;
      ry[r] = w;
    }
  }
  if (live) um[2 * e + bot] = v; /* u_{h-1} from the top, l_{h+1} from the bottom */
  BARRIER();
  if (live)
    xh = pd_twist_mid(cdl, cd, cdu, mdl, md, mdu, s, h, len, ry, um[2 * e], um[2 * e + 1], bad);
  BARRIER(); /* row h's neighbours read: the ends may overwrite them */
  if (live && !bot) ry[h] = xh;
#pragma unroll
  for (int q = PD_S64 / 2 - 1; q >= 0; q--) {
    int r = bot ? len - 1 - q : q;
    if (live && q < cnt) ry[r] = xh = S_FMS(ry[r], u[q], xh);
  }
  if (live && !S_ISFINITE(xh)) bad[1] = 1;
}

KERNEL_BOUNDED(PD_SWG, 1)
void pscr_slab64(PD_SLAB_PARAMS) {
  PD_SLAB_AT();
  LOCAL scalar sl[PSCR_COMPLEX ? 1 : PD_S64 * PD_L64], sm[PSCR_COMPLEX ? 1 : 2 * PD_S64];
  LOCAL int bad[2];
  int t = (int)LOCAL_ID(), K = (int)n, L = (int)len;
  (void)w0, (void)w0o, (void)w0r, (void)n0;
  if (pd_slab_failed(PSCR_COMPLEX || n > PD_S64 || len > PD_S64 || f != 0, 0, flags))
    return; /* the host's bounds */
  GLOBAL scalar *xv = x + GROUP_ID() * xs;
  w += wo;
  if (t == 0) bad[0] = bad[1] = 0;
  scalar z = S_ZERO; /* v * 0 is NaN exactly for NaN/Inf v */
  /* zeros past the slab: finite products; unrolled, the loads in flight together */
#pragma unroll
  for (int m = 0; m < (PD_S64 * PD_L64 + PD_SWG - 1) / PD_SWG; m++) {
    int i = t + m * PD_SWG, r = i / PD_L64, col = i - r * PD_L64;
    scalar v = r < K && col < L ? xv[r * L + col] : S_ZERO;
    if (i < PD_S64 * PD_L64) sl[i] = v;
    z = S_NF(z, v);
  }
  BARRIER();
  { /* (28): y_e = sum_r w_e(r) x_r, in place once every product is formed */
    scalar acc[PD_S64O];
    pd_s64_product(K, K, w, wr, 1, 0, sl, acc);
    BARRIER();
#pragma unroll
    for (int m = 0; m < PD_S64O; m++) {
      int i, j;
      pd_s64_at(m, &i, &j);
      sl[i * PD_L64 + j] = acc[m];
    }
  }
  if (!S_ISFINITE(z)) bad[0] = 1;
  BARRIER();
  pd_s64_solve(K, L, cdl, cd, cdu, mdl, md, mdu, PD_SLAB_SHIFT(), lambda + l0, sl, sm, bad);
  BARRIER();
  if (pd_slab_failed(0, bad, flags)) return;
  { /* (27): u_r = sum_e w_e(r) v_e */
    scalar acc[PD_S64O];
    pd_s64_product(K, K, w, 1, wr, 1, sl, acc);
#pragma unroll
    for (int m = 0; m < PD_S64O; m++) {
      int i, j;
      pd_s64_at(m, &i, &j);
      if (i < K && j < L) xv[i * L + j] = acc[m];
    }
  }
}

/* 2D's dense level whole in one launch past pscr_slab64's 64 x 64, up to
 * 128 x 128 (real; 2D Poisson 127^2, where the three launches of products
 * and solves cost NVIDIA's OpenCL an enqueue each). A slab that large does
 * not fit a group's local memory, so the eigenpairs are split: group g of
 * G = ceil(n / PD_SE) takes PD_SE of them, e = k0 .. k0 + ne - 1, and
 *   (28) Y_g = W_g^T X (PD_SE x len, X read from global memory by every
 *        group) on the tensor cores (pd_s128_y),
 *   the systems (A + (s + lambda_e) M) v_e = y_e in local memory
 *        (pd_slab_solve's twisted Thomas),
 *   (27)'s share P_g = W_g V_g (n x len, held in registers: pd_s128_u),
 * and U = sum_g P_g is summed up a binary tree over the groups, the later of
 * two siblings adding (seed 003's sums (27) split by eigenpairs), each
 * work-item for its own outputs: at node r (the right subtree's first group,
 * 1 <= r < G) the first to take the node's ticket publishes its sums into
 * region r - 1 of scr and stops; the second waits for that publication (its
 * partner took the ticket, so it is running and never waits before it
 * publishes: the wait ends on any device, whatever order the groups run
 * in), adds it and goes on up. The root writes its outputs of U over x. The
 * tree fixes each sum's association (left + right is commutative), so the
 * result does not depend on the order the groups ran in. scr: a ticket word
 * a node and work-item (PD_TICKETS scalars; zero between launches: the
 * second arrival resets it), then G - 1 regions of PD_S128^2 scalars. A
 * failed group (the status words as pscr_slab's) still takes its place in
 * the tree and passes its failure up; x is then left as it was. The launch
 * must be G groups (else CONFIG, before any ticket). */
#define PD_S128 128                             /* n, len at most */
#define PD_SE 16                                /* eigenpairs a group */
#define PD_S128O (PD_S128 * PD_S128 / PD_SWG)   /* outputs of P_g a work-item */
#define PD_S128Y (PD_SE * PD_S128 / PD_SWG)     /* of Y_g (without tensor cores) */
#define PD_TICKETS ((PD_S128 / PD_SE - 1) * PD_SWG * 4 / (int)sizeof(scalar)) /* scr's tickets, in scalars */

/* y(k, j) = sum_i W(k0 + k, i) X(i, j) for k < PD_SE, j < len (rows of y len
 * apart; k0 + k >= n gives zeros): W(e, r) = w[e wr + r], X(i, j) = x[i len
 * + j]. z takes every X entry the work-item read (S_NF), so that each group
 * sees a NaN/Inf of X. With TD_DMMA warp q takes columns 8 q .. 8 q + 7. */
DEVICE void pd_s128_y(int n, int len, int k0, const GLOBAL scalar *w, long wr,
                      const GLOBAL scalar *x, LOCAL_P scalar *y, scalar *z) {
  int t = (int)LOCAL_ID();
#if PD_S64_MMA
#define PD_YU (PD_SE / TD_DMMA_M) /* fragments down the group's PD_SE rows */
  int l = t % 32, q = t / 32, j = 8 * q + l / 4;
  double c[PD_YU][TD_DMMA_M / 4];
#pragma unroll
  for (int u = 0; u < PD_YU; u++)
#pragma unroll
    for (int h = 0; h < TD_DMMA_M / 4; h++) c[u][h] = 0.0;
#pragma unroll 8
  for (int i0 = 0; i0 < n; i0 += 4) {
    int i = i0 + l % 4, ok = i < n;
    double af[PD_YU][TD_DMMA_M / 8], bf = ok && j < len ? x[i * len + j] : 0.0;
    *z = S_NF(*z, bf);
#pragma unroll
    for (int u = 0; u < PD_YU; u++)
#pragma unroll
      for (int h = 0; h < TD_DMMA_M / 8; h++) {
        int k = k0 + TD_DMMA_M * u + 8 * h + l / 4;
        af[u][h] = ok && k < n ? w[k * wr + i] : 0.0;
      }
#pragma unroll
    for (int u = 0; u < PD_YU; u++) TD_DMMA(c[u], af[u], bf);
  }
#pragma unroll
  for (int u = 0; u < PD_YU; u++)
#pragma unroll
    for (int h = 0; h < TD_DMMA_M / 4; h++) {
      int k = TD_DMMA_M * u + 8 * (h / 2) + l / 4, jj = 8 * q + 2 * (l % 4) + h % 2;
      if (jj < len) y[k * len + jj] = c[u][h];
    }
#undef PD_YU
#else
  for (int m = 0; m < PD_S128Y; m++) {
    int o = t + m * PD_SWG, k = o / PD_S128, j = o % PD_S128, live = k0 + k < n && j < len;
    scalar v = S_ZERO;
    for (int i = 0; j < len && i < n; i++) {
      scalar xi = x[i * len + j];
      *z = S_NF(*z, xi);
      if (live) v = S_FMA(v, w[(k0 + k) * wr + i], xi);
    }
    if (j < len) y[k * len + j] = v;
  }
#endif
}

/* Where a work-item's output m of pd_s128_u lies (row i, column j).
 * TD_DMMA: warp q computes rows 16 (q % 8) .., columns 64 (q / 8) .., in
 * fragments as pscr_gemm's; else outputs t + m PD_SWG, rows of PD_S128. */
DEVICE void pd_s128_at(int m, int *i, int *j) {
  int t = (int)LOCAL_ID();
#if PD_S64_MMA
  int l = t % 32, q = t / 32, fc = TD_DMMA_M / 4, h = m % fc, v = m / fc % 8, u = m / fc / 8;
  *i = 16 * (q % 8) + TD_DMMA_M * u + 8 * (h / 2) + l / 4;
  *j = 64 * (q / 8) + 8 * v + 2 * (l % 4) + h % 2;
#else
  *i = (t + m * PD_SWG) / PD_S128;
  *j = (t + m * PD_SWG) % PD_S128;
#endif
}

/* acc (pd_s128_at's outputs) = sum_k W(k0 + k, i) V(k, j) over k < ne, from
 * ne - 1 down (pscr_gemm's rev): V(k, j) = v[k len + j] in local memory
 * (finite for k < PD_SE, j < len), zero past n and len. */
DEVICE void pd_s128_u(int n, int len, int k0, int ne, const GLOBAL scalar *w, long wr,
                      const LOCAL_P scalar *v, scalar *acc) {
#if PD_S64_MMA
#define PD_UU (16 / TD_DMMA_M) /* fragments down a warp's 16 rows */
  int t = (int)LOCAL_ID(), l = t % 32, q = t / 32, wm = 16 * (q % 8), wn = 64 * (q / 8);
  double c[PD_UU][8][TD_DMMA_M / 4];
#pragma unroll
  for (int u = 0; u < PD_UU; u++)
#pragma unroll
    for (int b = 0; b < 8; b++)
#pragma unroll
      for (int h = 0; h < TD_DMMA_M / 4; h++) c[u][b][h] = 0.0;
#pragma unroll
  for (int kk = 0; kk < PD_SE; kk += 4) {
    int kq = kk + l % 4, ok = kq < ne, k = ok ? ne - 1 - kq : 0;
    double af[PD_UU][TD_DMMA_M / 8], bf[8];
#pragma unroll
    for (int u = 0; u < PD_UU; u++)
#pragma unroll
      for (int h = 0; h < TD_DMMA_M / 8; h++) {
        int i = wm + TD_DMMA_M * u + 8 * h + l / 4;
        af[u][h] = ok && i < n ? w[(k0 + k) * wr + i] : 0.0;
      }
#pragma unroll
    for (int b = 0; b < 8; b++) {
      int j = wn + 8 * b + l / 4;
      bf[b] = ok && j < len ? v[k * len + j] : 0.0;
    }
#pragma unroll
    for (int u = 0; u < PD_UU; u++)
#pragma unroll
      for (int b = 0; b < 8; b++) TD_DMMA(c[u][b], af[u], bf[b]);
  }
#pragma unroll
  for (int m = 0; m < PD_S128O; m++)
    acc[m] = c[m / (TD_DMMA_M / 4) / 8][m / (TD_DMMA_M / 4) % 8][m % (TD_DMMA_M / 4)];
#undef PD_UU
#else
  for (int m = 0; m < PD_S128O; m++) {
    int i, j;
    pd_s128_at(m, &i, &j);
    scalar s = S_ZERO;
    for (int q = 0; i < n && j < len && q < ne; q++) {
      int k = ne - 1 - q;
      s = S_FMA(s, w[(k0 + k) * wr + i], v[k * len + j]);
    }
    acc[m] = s;
  }
#endif
}

KERNEL_BOUNDED(PD_SWG, 1)
void pscr_slab128(PD_SLAB_PARAMS, GPTR(scalar, scr)) {
  PD_SLAB_AT();
  GPTR_AT(scalar, scr);
  (void)w0, (void)w0o, (void)w0r, (void)n0;
#if PSCR_COMPLEX
  (void)pd_slab_failed(1, 0, flags); /* real only: the host never launches it here */
#else
  LOCAL scalar sy[PD_SE * PD_S128], su[PD_SE * PD_S128];
  LOCAL int bad[2];
  int t = (int)LOCAL_ID(), N = (int)n, L = (int)len, G = (N + PD_SE - 1) / PD_SE;
  int g = (int)GROUP_ID(), k0 = g * PD_SE, ne = N - k0 < PD_SE ? N - k0 : PD_SE;
  if (pd_slab_failed(n > PD_S128 || len > PD_S128 || f != 0 || lambda0 != 0 || ss != 0 ||
                         TD_NUM_GROUPS() != G,
                     0, flags))
    return; /* the host's bounds (one slab of 2D), the same in every group: no ticket taken */
  w += wo;
  if (t == 0) bad[0] = bad[1] = 0;
  scalar z = S_ZERO;
  BARRIER();
  pd_s128_y(N, L, k0, w, wr, x, sy, &z); /* (28) */
  if (!S_ISFINITE(z)) bad[0] = 1;
  BARRIER();
  /* one pass (ne <= PD_SE < PD_SWG / 2), not pd_slab_solve's loop: PoCL
   * mis-runs a loop of barriers whose count comes from GROUP_ID (its
   * results changed run to run); ss = 0 and no lambda0 make PD_SLAB_SHIFT
   * slab 0's in every group */
  pd_slab_pass(0, ne, L, cdl, cd, cdu, mdl, md, mdu, PD_SLAB_SHIFT(), lambda + l0 + k0, sy, su,
               bad);
  BARRIER();
  int fail = pd_slab_failed(0, bad, flags);
  scalar acc[PD_S128O]; /* after the last barrier (PoCL: the comment below) */
  pd_s128_u(N, L, k0, ne, w, wr, sy, acc); /* (27)'s share */
  /* the tree, work-item by work-item: no barriers, so that each output's
   * sum stays in registers (PoCL loses private arrays kept across
   * barriers: pscr_slab's comment) */
  GLOBAL int *tickets = (GLOBAL int *)scr;
  int up = 1; /* this work-item's sums still go up (a flag, not an early return: one exit) */
  for (int s = 0; up && (1 << s) < G; s++) {
    int r = ((g >> s) | 1) << s; /* the node joining this group's subtree to its sibling */
    if (r >= G) continue;        /* no sibling: the sum goes up as it is */
    GLOBAL int *word = tickets + (r - 1) * PD_SWG + t;
    GLOBAL scalar *reg = scr + PD_TICKETS + (long)(r - 1) * PD_S128 * PD_S128 + t;
    /* the ticket: 0 first, else 1 (arrivals in bits 0-1; + 4 published, + 8 failed) */
    int seen = ATOMIC_ADD(word, 1);
    if (seen == 0) {                /* first: publish, then say so (and any failure) */
#pragma unroll
      for (int m = 0; m < PD_S128O; m++) reg[m * PD_SWG] = acc[m];
      GLOBAL_FENCE();
      ATOMIC_ADD(word, 4 + 8 * fail);
      up = 0;
    } else {
      while (!(seen & 4)) seen = ATOMIC_ADD(word, 0);
      GLOBAL_FENCE();
      *word = 0; /* both arrivals done: the next launch's ticket */
      fail |= seen >> 3;
      const volatile GLOBAL scalar *pub = reg; /* another group's writes: not from L1 */
#pragma unroll
      for (int m = 0; m < PD_S128O; m++) acc[m] = S_ADD(acc[m], pub[m * PD_SWG]);
    }
  }
#pragma unroll
  for (int m = 0; m < PD_S128O; m++) {
    int i, j;
    pd_s128_at(m, &i, &j);
    if (up && !fail && i < N && j < L) x[i * L + j] = acc[m];
  }
#endif
}

#endif
