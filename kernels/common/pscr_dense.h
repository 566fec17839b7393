/* The dense outer level of 3D plans on devices. With radix n0 + 1, level 0
 * has one step and one block of all n0 rows (seed 003 section 3.2 with
 * k = 1): the PSCR step is then the matrix decomposition method, and its
 * sums over the rows D and over the eigenpairs are matrix products,
 *   (28) y_e = sum_r w_e(r) x_r          Y = W^T X  (E x n0 times n0 x len)
 *   (27) u_r = sum_e w_e(r) v_e          U = W V    (n0 x E times E x len)
 * with W the block's eigenvector components (comp: eigenpair e's row at
 * e (n0 + 2) + 2) and len = n1 n2. pscr_rhs / pscr_osums do these sums one
 * output a work-item and read X or V once per output row (n0 times over);
 * pscr_gemm tiles them: a group computes PD_BM x PD_BN outputs from tiles
 * of A and B in local memory, PD_TM x PD_TN a work-item. */
#ifndef PSCR_PSCR_DENSE_H
#define PSCR_PSCR_DENSE_H

#include "common/td_scalar.h"

#define PD_BM 64 /* rows of C a group */
#define PD_BN 64 /* columns of C a group (B's rows: coalesced) */
#define PD_BK 16 /* the inner dimension a tile */
#define PD_TM 4  /* rows a work-item, PD_BM / PD_TM apart */
#define PD_TN 4  /* columns a work-item, PD_BN / PD_TN apart (conflict-free local reads) */
#define PD_WG ((PD_BM / PD_TM) * (PD_BN / PD_TN))

/* C = A B (+ Cin): A is M x K with entry (i, k) at a[ao + i ars + k acs]
 * (W^T or W: the components are read in place), B is K x N and C, Cin are
 * M x N from c[co], cin[cio], rows ldb / ldc apart (offsets as arguments:
 * OpenCL buffers take none). Row blocks vary fastest over the groups, so
 * the groups that share a tile of B run together and read it from L2. */
KERNEL_BOUNDED(PD_WG, PSCR_COMPLEX ? 1 : 2)
void pscr_gemm(long M, long N, long K, const GLOBAL scalar *a, long ao, long ars, long acs,
               const GLOBAL scalar *b, long ldb, const GLOBAL scalar *cin, long cio,
               GLOBAL scalar *c, long co, long ldc) {
  LOCAL scalar sa[PD_BK * PD_BM];
  LOCAL scalar sb[PD_BK * PD_BN];
  long nmb = (M + PD_BM - 1) / PD_BM, g = GROUP_ID();
  long m0 = (g % nmb) * PD_BM, n0 = (g / nmb) * PD_BN;
  int t = (int)LOCAL_ID(), tx = t % (PD_BN / PD_TN), ty = t / (PD_BN / PD_TN);
  scalar acc[PD_TM][PD_TN];
#pragma unroll
  for (int u = 0; u < PD_TM; u++)
#pragma unroll
    for (int v = 0; v < PD_TN; v++) acc[u][v] = S_ZERO;
  for (long k0 = 0; k0 < K; k0 += PD_BK) {
#pragma unroll
    for (int e = t; e < PD_BK * PD_BM; e += PD_WG) { /* A's tile, along its unit stride */
      int i = acs == 1 ? e / PD_BK : e % PD_BM, k = acs == 1 ? e % PD_BK : e / PD_BM;
      long gi = m0 + i, gk = k0 + k;
      sa[k * PD_BM + i] = gi < M && gk < K ? a[ao + gi * ars + gk * acs] : S_ZERO;
    }
#pragma unroll
    for (int e = t; e < PD_BK * PD_BN; e += PD_WG) {
      long gk = k0 + e / PD_BN, gj = n0 + e % PD_BN;
      sb[e] = gk < K && gj < N ? b[gk * ldb + gj] : S_ZERO;
    }
    BARRIER();
#pragma unroll
    for (int k = 0; k < PD_BK; k++) {
      scalar av[PD_TM], bv[PD_TN];
#pragma unroll
      for (int u = 0; u < PD_TM; u++) av[u] = sa[k * PD_BM + ty + u * (PD_BM / PD_TM)];
#pragma unroll
      for (int v = 0; v < PD_TN; v++) bv[v] = sb[k * PD_BN + tx + v * (PD_BN / PD_TN)];
#pragma unroll
      for (int u = 0; u < PD_TM; u++)
#pragma unroll
        for (int v = 0; v < PD_TN; v++) acc[u][v] = S_FMA(acc[u][v], av[u], bv[v]);
    }
    BARRIER();
  }
#pragma unroll
  for (int u = 0; u < PD_TM; u++) {
    long gi = m0 + ty + u * (PD_BM / PD_TM);
#pragma unroll
    for (int v = 0; v < PD_TN; v++) {
      long gj = n0 + tx + v * (PD_BN / PD_TN);
      long o = gi * ldc + gj;
      if (gi < M && gj < N) c[co + o] = cin ? S_ADD(cin[cio + o], acc[u][v]) : acc[u][v];
    }
  }
}

/* The subproblems' shifts c + lambda_{l0 + e} of (9), e < ne. */
KERNEL void pscr_dshift(const GLOBAL scalar *lambda, long l0, long ne, const GLOBAL scalar *shift,
                        GLOBAL scalar *out) {
  long e = TD_GID();
  if (e < ne) out[e] = S_ADD(shift[0], lambda[l0 + e]);
}

#endif
