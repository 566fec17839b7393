/* Internal: the PSCR plan (partition sets, eigenpairs, schedule, workspace)
 * and the stage table the ONE driver calls (DESIGN.md "One driver, three
 * backends"). Seed 003 sections 3.2-3.4 and 4.3.
 *
 * Levels: a 2D problem has one PSCR level (dimension 0) whose innermost
 * systems are tridiagonal in dimension 1; a 3D problem has two: level 0
 * (dimension 0) solves 2D subproblems (9) with level 1 (dimension 1), whose
 * innermost systems are tridiagonal in dimension 2.
 *
 * Row j of a level is the contiguous segment [j*len, (j+1)*len) of a vector,
 * len = product of the later dimensions. Rows are 0-based here (the seed
 * counts from 1). Everything is solved in place: after reduction step i the
 * rows of J_i hold f^(i+1) (14); back substitution step i overwrites the rows
 * of J_{i-1} \ J_i with u (15)-(16). */
#ifndef PSCR_PSCR_INTERNAL_H
#define PSCR_PSCR_INTERNAL_H

#include <stddef.h>

#include "core/context.h"

/* ---- partition sets J_0 ⊃ J_1 ⊃ ... ⊃ J_k = ∅ (section 3.2) ---- */

/* lev[j] = the largest i with row j in J_i (J_0 = all rows): J_i = {j : lev[j] >= i}.
 * J_i takes every q-th element of J_{i-1}, which meets the three conditions of
 * section 3.2 with the fewest steps k = ceil(log_q(n+1)) and is (22) when
 * n = q^k - 1. @return k (>= 1), or 0 when lev cannot be filled (n == 0, q < 2). */
int pscr_partition_levels(size_t n, int q, int *lev);

/* ---- the schedule of one step ---- */

/* A block of step i: the rows between consecutive elements of Ĵ_i (10) that
 * contain at least one row of J_{i-1} (the others carry no data). */
typedef struct {
  size_t s, m;   /* first row and order of its eigenproblem (23) */
  size_t nd, d;  /* #D and the offset of D's block-local rows in step->dpos */
  size_t eig;    /* first eigenpair in the level's lambda (level-global) */
  size_t comp;   /* its components in level's comp: (2 + nd) per eigenpair:
                  * w[0], w[m-1], w[dpos[0]], ..., w[dpos[nd-1]] */
  size_t e0;     /* first eigenpair in the step's list (outer grouping) */
  size_t t0, nt; /* innermost level: its tasks */
  size_t slot;   /* outer level: first accumulator vector within its group */
} pscr_block;

/* Innermost level: eigenpairs l0..l1-1 of block b0 (nb == 1), or all the
 * eigenpairs of the small blocks b0..b0+nb-1 packed into one chunk of lanes. */
typedef struct {
  size_t b0, nb, l0, l1;
} pscr_task;

/* (24): row j of J_i gets -T̂ v_last(left) - Ť v_first(right); -1 = no such block. */
typedef struct {
  size_t row;
  long left, right;
} pscr_row_update;

/* Work done between two synchronizations: blocks b0..b1-1, step-local
 * eigenpairs e0..e1-1 (outer) or tasks t0..t1-1 (innermost), and the row
 * updates r0..r1-1 of (24) for the blocks that close in the group. */
typedef struct {
  size_t b0, b1, e0, e1, t0, t1, r0, r1;
} pscr_group;

typedef struct {
  size_t nblocks, ntasks, ngroups, nupd, neig;
  pscr_block *blocks;
  pscr_task *tasks;
  pscr_group *groups;
  pscr_row_update *upd;
  size_t *dpos;
  size_t max_nd; /* max #D */
} pscr_step;

/* Systems one innermost chunk solves interleaved (the CPU's lane count). */
#define PSCR_INNER_LANES 8

typedef struct {
  size_t n, len;       /* order of this dimension, length of one row */
  int radix;           /* q of this level (the plan's, or n + 1: one step) */
  int nsteps;          /* k */
  pscr_step *steps;    /* steps[i-1] is step i */
  void *lambda, *comp; /* device arrays (dtype) */
  size_t neig, ncomp;
  int innermost;    /* 1: the inner systems are tridiagonal */
  size_t batch_max; /* vectors solved together at this level */
  double lambda_min; /* the smallest real part of its eigenvalues (plan-time proofs) */
} pscr_level;

/* ---- the stage table ---- */

/* The dimensions below a level, as operators: Mb = (x) M_d, Ab = sum of the
 * A_d (x) other M's ((25), (29) with the 3D factors of (8)). */
typedef struct {
  int ndims; /* 1 or 2 */
  size_t n[2];
  const void *ad[2], *ao[2], *md[2], *mo[2]; /* mo zero-filled when M is diagonal */
} pscr_kron;

enum { PSCR_REDUCE = 0, PSCR_BACK = 1 };

struct pscr_plan;

/* Plain-C arguments of every stage; a stage reads the fields it needs. */
typedef struct {
  int phase; /* PSCR_REDUCE (13)-(14) or PSCR_BACK (15)-(16) */
  const pscr_step *step;
  const pscr_group *group;
  const void *lambda, *comp;   /* the level's eigenpairs (23) */
  const void *lev_ao, *lev_mo; /* off-diagonals of A_L, M_L: coupling blocks (25), (29) */
  size_t lev_n;                /* order of A_L */
  int outer;                   /* 1: subproblems are 2D (3D level 0), 0: tridiagonal */
  pscr_kron kron;              /* dimensions below the level */
  size_t len;                  /* row length */
  void *x;                     /* the vectors of this level, x + p*x_stride, p < batch */
  size_t x_stride, batch;
  const void *shift; /* c of each vector of the batch (dtype[batch]) */
  /* innermost */
  void *acc;       /* partial sums of (24)/(27): per (vector, task) acc_item scalars, */
  size_t acc_item; /* acc_blk per block of the task */
  size_t acc_blk;  /* max(2, max #D) * len */
  void *vbuf;      /* (24) v_first, v_last per (vector, block of the group): 2*len each */
  pscr_td_algorithm alg;
  /* outer */
  void *y;       /* right-hand sides / solutions of the group's subproblems (len each) */
  void *y_shift; /* their c + lambda */
  void *slots;   /* block accumulators (len each), block->slot onwards */
  /* every stage */
  void *scratch; /* per thread: scratch_len scalars */
  size_t scratch_len;
  int threads;
  /* devices: the plan (context, backend state) and the level (0 or 1) */
  struct pscr_plan *plan;
  int level;
} pscr_stage_args;

typedef pscr_status (*pscr_stage_fn)(const pscr_stage_args *a);

typedef struct {
  const char *name;
  /* 1: the driver solves the independent 2D subproblems of a 3D group on host
   * threads, one per thread with single-threaded stages (CPU); 0: as one
   * batch through the stages (devices). */
  int host_batch;
  /* scalars of per-thread scratch for rows of length n_last (innermost),
   * kron rows of length n_kron (outer T applications) and blocks of max_nd rows of D */
  size_t (*scratch_len)(size_t n_last, size_t n_kron, size_t max_nd);
  /* innermost, fused: (26) right-hand sides + tridiagonal solves + partial (24) sums */
  pscr_stage_fn stage_11_td_12a;
  /* innermost, fused: (28) right-hand sides + tridiagonal solves + partial (27) sums */
  pscr_stage_fn stage_21_td_22a;
  /* innermost: task partial sums -> v of (24) (reduce) or the rows u of (27) (back) */
  pscr_stage_fn stage_y2b;
  /* f(i+1) of (24) on the rows of J_i next to the group's closing blocks */
  pscr_stage_fn stage_12c;
  /* outer: right-hand sides of (26) / (28) and their shifts c + lambda */
  pscr_stage_fn stage_11, stage_21;
  /* outer: block sums of (24) / (27) from the solved subproblems */
  pscr_stage_fn stage_12a, stage_22a;
  /* outer: u of (27) into the rows of the closing blocks */
  pscr_stage_fn stage_22c;
  /* Devices (NULL on the CPU). A NULL stage above is fused into the one
   * before it (the driver skips it). outer_batch: the 2D subproblems of a 3D
   * group (memory bound); plan_init / plan_fini: the backend's part of a plan
   * (guiding data, workspace), after the eigenpairs; begin / finish: the
   * start of a solve, and the wait for its end (with its status). */
  size_t (*outer_batch)(const struct pscr_plan *p);
  /* The radix of level L (NULL: the plan's everywhere). Devices solve 3D's
   * level 0 in one step (radix n0 + 1) where its products are dense GEMMs. */
  int (*level_radix)(const struct pscr_plan *p, int L);
  pscr_status (*plan_init)(struct pscr_plan *p, const pscr_problem *pb);
  void (*plan_fini)(struct pscr_plan *p);
  pscr_status (*begin)(struct pscr_plan *p);
  pscr_status (*finish)(struct pscr_plan *p);
} pscr_stage_ops;

/* The stage table of a backend and dtype; NULL when the backend has none yet. */
const pscr_stage_ops *pscr_stage_lookup(pscr_backend backend, pscr_dtype dtype);
extern const pscr_stage_ops pscr_cpu_stages_d, pscr_cpu_stages_z;
#if PSCR_HAVE_CUDA || PSCR_HAVE_OPENCL
extern const pscr_stage_ops pscr_gpu_stages_d, pscr_gpu_stages_z;
#endif

/* ---- the plan ---- */

#define PSCR_MAX_LEVELS 2

struct pscr_plan {
  pscr_context *ctx;
  const pscr_stage_ops *ops;
  pscr_dtype dtype;
  int ndim, radix, threads;
  pscr_td_algorithm innermost;
  size_t n[3], total;
  void *fac[3][4]; /* device copies: a_diag, a_off, m_diag, m_off (zeros when diagonal) */
  void *c;         /* device: c (one scalar) */
  pscr_level lev[PSCR_MAX_LEVELS];
  /* workspace; acc and vbuf: one area of acc_area / vbuf_area scalars per
   * thread when the 2D subproblems of 3D run on host threads */
  void *acc, *vbuf, *scratch, *y, *y_shift, *slots;
  size_t acc_item, acc_blk, scratch_len, acc_area, vbuf_area;
  double plan_seconds, last_solve_seconds, last_transfer_seconds;
  size_t bytes;
  void *fdev; /* devices: f of pscr_solve (host data) on the device */
  void *impl; /* devices: the backend's plan state (plan_init) */
  size_t workspace; /* pscr_options.workspace_bytes */
  size_t lines;     /* a lines plan (pscr_plan_lines): its level 0's batch; else 0 */
};

/* Schedules (tasks, groups, row updates) of every step of a level (schedule.c);
 * threads <= 0: one group per step at the innermost level (devices). */
pscr_status pscr_level_schedule(pscr_level *lev, const int *levels, int radix, int threads,
                                size_t *max_tasks, size_t *max_blocks, size_t *max_slots,
                                size_t *max_task_blocks);
void pscr_level_free_schedule(pscr_level *lev);

/* The driver (driver.c). */
pscr_status pscr_run(pscr_plan *plan, void *f);

/* A lines plan for the dense innermost step of a device plan (gpu_pscr.c):
 * the 2D plan of a level of one row (A = 0, M = 1: lambda = 0, w = 1) over
 * pb's last factor, so that its one step solves (A_last + c_p M_last) v_p =
 * f_p with the innermost engine of a plan (the fused kernels: excess form,
 * AUTO's pivoting) for up to `batch` vectors p, each with its own shift c_p
 * (pscr_run_lines: x + p x_stride, shift[p]; no begin / finish: the caller's
 * solve has them). */
pscr_status pscr_plan_lines(pscr_context *ctx, const pscr_problem *pb, pscr_td_algorithm alg,
                            int threads, size_t batch, pscr_plan **out);
pscr_status pscr_run_lines(const pscr_plan *lines, void *x, size_t x_stride, size_t batch,
                           const void *shift);

#endif
