/* Internal to the GPU PSCR stages (gpu_pscr.c) and their plan part
 * (gpu_pscr_plan.c): the guiding data a plan uploads and the device
 * workspace it holds. The kernels are kernels/common/pscr_stages.h.
 *
 * Innermost level, one group per step: the right-hand sides (26)/(28) of all
 * the step's systems (every vector p of the batch, every eigenpair) go into R
 * with their shifts c_p + lambda in rshift, one shifted tridiagonal solve
 * (gpu_td_solve_scratch) overwrites R with the solutions, and the sums of
 * (24)/(27) are formed per task of at most PSCR_GPU_CHUNK eigenpairs: a block
 * of one task writes v_first / v_last (vbuf) or u (x) at once, larger blocks
 * go through partial sums (acc) and stage_y2b.
 * Fused (AUTO or CR_PCR_THOMAS, when a tile and its sums fit local memory):
 * one kernel per group does all of that per task, or two around the tiles'
 * record merge for systems longer than a tile; R never exists
 * (kernels/common/pscr_tile.h); AUTO picks diagonal pivoting per system (and
 * tile) where a row is not dominant. The lane engine (fused = 3,
 * kernels/common/pscr_lane.h): one work-item per system, work-groups of
 * PSCR_GPU_LANE_W consecutive eigenpairs of a step, Thomas with a per-system
 * test and diagonal pivoting where it fails, or plain Thomas for real data
 * proven definite (pscr_lane_plain); the default in 3D (real: from innermost
 * n = PSCR_GPU_LANE_MIN_N on), where it measured faster than the tiles
 * (tuning pscr_lane: 0 tiles, 1 lanes wherever they apply). The other algorithms
 * (SPIKE_DIAG_PIVOT, PCR_THOMAS, ...) take the unfused stages through gpu_td_solve. */
#ifndef PSCR_BACKEND_GPU_PSCR_H
#define PSCR_BACKEND_GPU_PSCR_H

#include "backend/gpu/gpu_tridiag.h"
#include "pscr/pscr_internal.h"

#define PSCR_GPU_CHUNK 32    /* eigenpairs per partial sum of (24)/(27), at most */
#define PSCR_GPU_CHUNK_MIN 4 /* ... and at least, where a step has few tasks */
#define PSCR_GPU_TASKS 8192  /* tasks a step should have (work-groups of the fused kernels) */
/* Mirrors of kernel constants, held to the kernels' #defines by
 * tests/cpu/test_kernel_consts.c */
#define PSCR_GPU_REG_Q 8      /* PR_Q of pscr_reg.h: rows a work-item of its sub-group tiles */
#define PSCR_GPU_REG_RD 3     /* PR_RD of pscr_reg.h: rows D a block may have there */
#define PSCR_GPU_REG_TSW 32   /* 2^PR_TLSW of pscr_reg.h: work-items per tile of its passes */
#define PSCR_GPU_REG_BR 16    /* PR_BR of pscr_reg.h: rows of pscr_reg_bwdl's chunks */
#define PSCR_GPU_REG_MR 16    /* PR_MR of pscr_reg.h: rows of pscr_reg_fwdm's / bwdm's chunks */
#define PSCR_GPU_PD_BM 64  /* PD_BM of pscr_dense.h: rows of C a pscr_gemm group */
#define PSCR_GPU_PD_BN(complex) ((complex) ? 64 : 128) /* PD_BN: its columns */
#define PSCR_GPU_PD_WG 256 /* PD_WG: its work-items */
#define PSCR_GPU_PD_SLAB 2000 /* PD_SLAB (real): pscr_slab's n len, at most */
#define PSCR_GPU_PD_SWG 512 /* PD_SWG: its work-items (and pscr_slab64's) */
#define PSCR_GPU_PD_S64 64  /* PD_S64 (real): pscr_slab64's n and len, at most */
/* A slab of n x len that pscr_slab64 takes and pscr_slab cannot (real only) */
#define PSCR_GPU_SLAB64_SHAPE(complex, n, len)                                                     \
  (!(complex) && (n) * (len) > PSCR_GPU_PD_SLAB && (n) <= PSCR_GPU_PD_S64 &&                       \
   (len) <= PSCR_GPU_PD_S64)
#define PSCR_GPU_PD_S128 128 /* PD_S128 (real): pscr_slab128's n and len, at most */
#define PSCR_GPU_PD_SE 16    /* PD_SE: its eigenpairs a group */
/* ... and 2D's (ndim) slab of n x len that pscr_slab128 takes and neither of those */
#define PSCR_GPU_SLAB128_SHAPE(complex, ndim, n, len)                                              \
  (!(complex) && (ndim) == 2 && (n) * (len) > PSCR_GPU_PD_SLAB &&                                  \
   !PSCR_GPU_SLAB64_SHAPE(complex, n, len) && (n) <= PSCR_GPU_PD_S128 && (len) <= PSCR_GPU_PD_S128)
/* pscr_slab128's scr: PD_TICKETS (an int a work-item and node of the largest
 * tree), then a region of PD_S128^2 scalars for each of the tree's G - 1 nodes
 * (G groups of PSCR_GPU_PD_SE eigenpairs) */
#define PSCR_GPU_SLAB128_BYTES(n)                                                                  \
  ((PSCR_GPU_PD_S128 / PSCR_GPU_PD_SE - 1) * PSCR_GPU_PD_SWG * 4 +                                 \
   (((n) + PSCR_GPU_PD_SE - 1) / PSCR_GPU_PD_SE - 1) * PSCR_GPU_PD_S128 * PSCR_GPU_PD_S128 * 8)
/* pscr_kron's bounds: n0 n1 at most PD_KCAP (twice PD_KT, PD_SK PD_SWG: one
 * pd_slab_product's outputs), a group's share of the first product at most
 * PD_KS = PD_KT - 128 outputs */
#define PSCR_GPU_PD_KT(complex) ((complex) ? 1024 : 2048)
#define PSCR_GPU_PD_KCAP(complex) (2 * PSCR_GPU_PD_KT(complex))
#define PSCR_GPU_PD_KS(complex) (PSCR_GPU_PD_KT(complex) - 128)
#define PSCR_GPU_DENSE_MIN 8 /* dense steps (pscr_dense.h) from a level's n = this on */
#define PSCR_GPU_KSPLIT_MINK 256 /* split products: inner indices a chunk, at least */
#define PSCR_GPU_QG 4      /* PSCR_QG of the kernels: outputs per work-item */
#define PSCR_GPU_EPW 4     /* PSCR_EPW of the kernels: elements per work-item of pscr_bnd */
#define PSCR_GPU_WG 256    /* work-group of the stage kernels */
#define PSCR_GPU_LEVELS 16 /* record-merge levels of the fused multi-tile solves */
#define PSCR_GPU_LANE_W 32 /* PSCR_LANE_W of kernels/common/pscr_lane.h */
#define PSCR_GPU_LANE_MIN_N 100 /* real 3D: the plain lanes from this innermost n on */
#define PSCR_GPU_LANE_LINES 32768 /* lines plans: the lanes from this many lines on */
/* PSCR_LANE_R of the lane kernels (rows between checkpoints): the kernels' default, or
 * the -DPSCR_LANE_R=r of PSCR_KERNEL_DEFINES (gpu_td_params_defines) */
size_t gpu_pscr_lane_rows(void);

/* Fields of a block in the guiding data (PB_* of kernels/common/pscr_stages.h). */
enum { GB_S, GB_M, GB_ND, GB_D, GB_EIG, GB_COMP, GB_E0, GB_VS, GB_BS, GB_NT, GB_ACC0, GB_N };

/* Where a step's guiding data lie in the guide buffer (indices of longs). */
typedef struct {
  size_t blk, eblk, upd; /* block table, eigenpair -> block, row updates */
  size_t task, ntask;    /* innermost: tasks {block, l0, l1, acc slot or -1} */
  size_t mblk, nmb;      /* innermost: the blocks of several tasks */
  size_t *mb;            /* the same on the host (a group's range) */
  size_t *tofs;          /* innermost: first task of each block, nblocks + 1 */
  size_t nacc;           /* innermost: partial-sum slots */
  size_t tmax;           /* innermost: eigenpairs of the largest task */
  size_t nrun;           /* steps run as products (gemm_step): runs of like blocks */
  struct gpu_pscr_run *runs;
  /* and where AUTO's choice for the step's systems was made at plan time (2D,
   * whose shifts c + lambda the plan knows): nroute runs of its systems, each
   * enqueued with its algorithm, without the solve's scan and wait */
  size_t nroute;
  struct gpu_pscr_route *routes;
} gpu_pscr_step;

/* Systems s0 .. s0+n-1 of a step and AUTO's algorithm for them: CR_PCR_THOMAS
 * where every row is strictly dominant (td_scan's proof), else SPIKE_DIAG_PIVOT. */
typedef struct gpu_pscr_route {
  size_t s0, n;
  pscr_td_algorithm alg;
} gpu_pscr_route;
#define PSCR_GPU_ROUTE_MIN 64 /* dominant runs shorter than this go with their neighbours */
#define PSCR_GPU_ROUTE_MAX 8  /* routes a step, at most (else one SPIKE_DIAG_PIVOT solve) */

/* Consecutive blocks b0 .. b0+nb-1 of a step run as products, alike: the
 * same order m and rows D (nd of them, from block row d0 on, dd apart),
 * bstep rows from one block's first row to the next, components, eigenvalues
 * and step eigenpairs consecutive: one batched pscr_gemm takes them all. */
typedef struct gpu_pscr_run {
  size_t b0, nb, m, nd, d0, dd, bstep;
} gpu_pscr_run;

typedef struct {
  void *guide;                           /* longs, every level and step */
  gpu_pscr_step *steps[PSCR_MAX_LEVELS]; /* per level, steps[i-1] = step i */
  /* innermost level */
  void *r, *rshift; /* right-hand sides / solutions and shifts of a step's systems */
  void *acc;        /* partial sums: per vector nacc_max slots of accq rows */
  void *vbuf;   /* v_first, v_last (reduce) or K̂ u, Ǩ u (back): per vector 2 rows per block */
  void *sub[2]; /* A_last(i, i-1), M_last(i, i-1) at i (gpu_td_src's sub-diagonals) */
  gpu_td_perm *perm; /* the unfused solves' A_last and M_last in tile order (NULL: none) */
  void *probe;  /* pscr_probe's answer */
  void *exc, *ckp;
  size_t nch; /* lane engine: checkpoints per system (ckp's capacity) */
  size_t mod_local; /* static local arrays sized per module: this plan's one tile (0: default) */
  int lane_check; /* lane engine: test every system, pivot where it fails */
  /* dense = 1: the innermost level's steps run as products (gemm_step of
   * gpu_pscr.c: its one dense step, or 2D's two steps; products, then all
   * of a step's systems in one solve); queued = 1: that solve is
   * CR_PCR_THOMAS enqueued without a wait (gpu_td_solve_queued), where the
   * plan proves real systems definite */
  int dense, queued;
  /* dense, complex or not proven definite (AUTO or CR_PCR_THOMAS): the
   * lines plan (pscr_plan_lines) solves the step's systems on the fused
   * kernels, excess form and AUTO's pivoting included */
  struct pscr_plan *lines;
  /* the chunks of split products (gpu_pscr_ksplit): ksum_len scalars */
  void *ksum;
  size_t ksum_len;
  int m_diag;   /* M_last diagonal: no M sub-/super-diagonal in the solves */
  size_t nacc_max, accq, vrows; /* vbuf: vrows rows per vector */
  /* fused innermost: tile of tile_w work-items x 2^tile_lq rows, local bytes
   * of a group (0: static local array), pivot (0: none, -1: AUTO per system);
   * fused = 0: unfused stages; fused = 3: the lane engine (pscr_lane.h), with
   * the row excess exc (exa, exm: 2 n) and the checkpoints ckp */
  int fused, tile_w, tile_lq, pivot;
  /* reg = 1: the fused kernels are pscr_reg.h's (tiles of 2^reg_lsw work-items
   * x 8 rows, reg_wg / 2^reg_lsw systems side by side in a group of reg_wg) */
  int reg, reg_lsw, reg_wg;
  size_t tile_local;
  /* multi-tile: pass 1 with one eigenpair a work-item (pscr_reg_fwdl) in the
   * steps whose largest task (gpu_pscr_step.tmax) holds at least reg_fwdl
   * eigenpairs, in groups of at most reg_lwg; pass 3 (pscr_reg_bwdl) from
   * reg_bwdl on, in groups of at most reg_blwg (0: never) */
  int reg_fwdl, reg_bwdl, reg_lwg, reg_blwg;
  /* pass 1 / pass 3 with several tasks a group (pscr_reg_fwdm / bwdm) in
   * the steps whose largest task holds at most reg_fwdm / reg_bwdm
   * eigenpairs (0: never), in groups of at most reg_mwg work-items and
   * reg_cap local scalars */
  int reg_fwdm, reg_bwdm, reg_mwg;
  size_t reg_cap;
  /* excess form of the fused kernels (pscr_tile.h): sub[0] then holds the
   * row excess of A_last, M_last and the row signs after the sub-diagonal
   * (4 n scalars); ex = 1 for C128 (Helmholtz) where fused, else 0 */
  int ex;
  /* fused over ntile tiles of tile_t rows (fused == 2): the tiles' records
   * merged by td_tile_gup / td_tile_gdown in groups of 2 merge_w, levels
   * 0 .. levels with pc[l] records per system; recs / outs for the largest group */
  long tile_t, ntile, pc[PSCR_GPU_LEVELS];
  int merge_w, merge_spg, levels; /* merge_spg: systems a merge group (gpu_merge_shape) */
  size_t merge_local;
  void *recs[PSCR_GPU_LEVELS], *outs[PSCR_GPU_LEVELS];
  /* pscr_slab's plan constants in one buffer where the device takes packs
   * (gpu_device.pack_args: OpenCL, which charges an enqueue per buffer
   * argument), scalar offsets: the innermost level's W and lambda, its six
   * diagonals as gpu_pscr_last_diags (-1: M's absent off-diagonals), c,
   * level 0's lambda (3D). NULL where no slab can fit, and on CUDA. */
  void *slab_pk;
  void *slab_scr; /* pscr_slab128's tickets and tree (zeroed; PSCR_GPU_SLAB128_BYTES) */
  long long pk_w, pk_lambda, pk_diag[6], pk_c, pk_lambda0;
  /* 3D with both levels dense where level 1 runs in pscr_slab: stage_21
   * leaves its product (28) to the slab kernel (each group forms its
   * vector's slab from f), and says so here for the solve of its group */
  struct gpu_pscr_defer {
    int on;
    const void *f, *w0;    /* f, level 0's components */
    size_t wo, wr, n0, l0; /* vector v's row of W0^T at wo + v wr, K = n0 */
  } defer;
  /* 3D with both levels dense where level 1's one step runs as products
   * (no slab): stage_21 leaves level 0's products to pscr_kron, which
   * gemm_step launches for both levels, (28) before the solve and (27)
   * after it into level 0's x; stage_22a then finds them done */
  struct gpu_pscr_kron {
    int on, done;
    void *x;                          /* level 0's x: f, then u */
    const void *w0, *lambda0, *shift; /* its components, lambda, c */
    size_t wo, wr, l0;                /* W0's entry (i0, e0) at wo + e0 wr + i0, lambda0 from l0 */
  } kron;
} gpu_pscr;

/* The device interface of the plan's context, with the module of the plan's dtype current. */
pscr_status gpu_pscr_device(const pscr_plan *p, gpu_device *g);

/* Plan part (gpu_pscr_plan.c). */
size_t gpu_pscr_reg_need(int sw, int E);
size_t gpu_pscr_reg_local(int wg, int bwd);
/* pscr_reg.h's lane groups for tasks of at most tmax eigenpairs: a power of 2
 * from lo up to hi. */
int gpu_pscr_lane_wg(size_t tmax, int lo, int hi);
/* The local scalars of pscr_reg_fwdm's (bwd = 0) or bwdm's groups of G tasks
 * and wg work-items. */
size_t gpu_pscr_reg_mlocal(int G, int wg, int bwd);
size_t gpu_pscr_outer_batch(const pscr_plan *p);
int gpu_pscr_level_radix(const pscr_plan *p, int L);
pscr_status gpu_pscr_plan_init(pscr_plan *p, const pscr_problem *pb);
void gpu_pscr_plan_fini(pscr_plan *p);

/* The shifted systems of the innermost level: (A_last + rshift[s] M_last) x_s = R_s,
 * for s = sys0 .. sys0 + batch - 1 (gpu_pscr.c); queued: only enqueued
 * (gpu_td_solve_queued). */
pscr_status gpu_pscr_solve_inner(const pscr_plan *p, gpu_device *g, size_t sys0, size_t batch,
                                 pscr_td_algorithm alg, int queued);
/* The dominance of the first batch of those systems (gpu_td_scan_systems) into
 * out (device, batch ints). */
/* A_last's and M_last's three diagonals as TD_SRC_PARAMS takes them (a, d, c
 * of A then of M; the sub-diagonals from sub[], M's off-diagonals none where
 * M_last is diagonal). */
void gpu_pscr_last_diags(const pscr_plan *p, gpu_ptr c[6]);
pscr_status gpu_pscr_scan_systems(const pscr_plan *p, gpu_device *g, size_t batch, void *out);
/* Chunks of the inner index (K) for a product of M x N outputs, nb of them
 * (pscr_gemm, gpu_pscr.c): 1 unless it has fewer groups than the tuning
 * pscr_ksplit asks for, each chunk PSCR_GPU_KSPLIT_MINK long at least. */
size_t gpu_pscr_ksplit(const gpu_device *g, pscr_dtype t, size_t M, size_t N, size_t K,
                       size_t nb);

#endif
