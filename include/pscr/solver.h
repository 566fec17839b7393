/* libpscr separable solver: radix-q PSCR for 2D and 3D Kronecker-separable systems. */
#ifndef PSCR_SOLVER_H
#define PSCR_SOLVER_H

#include "tridiag.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One coordinate direction: symmetric tridiagonal A_k and M_k of order n. */
typedef struct {
  size_t n;
  const void *a_diag; /* n entries */
  const void *a_off;  /* n-1 entries: A(i,i+1) = A(i+1,i) */
  const void *m_diag; /* n entries */
  const void *m_off;  /* n-1 entries, or NULL when M_k is diagonal */
} pscr_factor;

/** 2D:  A = A1 (x) M2 + M1 (x) A2 + c M1 (x) M2
 *  3D:  A = A1(x)M2(x)M3 + M1(x)A2(x)M3 + M1(x)M2(x)A3 + c M1(x)M2(x)M3
 *  dim[0] is the slowest index: u[i1*n2 + i2] (2D), u[(i1*n2 + i2)*n3 + i3] (3D).
 *  M1 (and M2 in 3D) must be positive definite in the real case; in the
 *  complex-symmetric case the generalized eigenproblems must be diagonalizable. */
typedef struct {
  int ndim;         /* 2 or 3 */
  pscr_dtype dtype; /* all factors share it */
  pscr_factor dim[3];
  double c_re, c_im;
} pscr_problem;

typedef struct {
  /* reduction factor q >= 2; default 4. CUDA / OpenCL solve 3D's level 0 in
   * one step (radix n0 + 1, where its sums are matrix products; tuning
   * pscr_dense, 0 = off), the innermost level too up to n = 1024 (2D), 768
   * (3D; tuning pscr_dense_in, _inz, _in3), 2D's level 0 above that, up to
   * n0 = 16384, in two steps of radix ceil(sqrt(n0 + 1)) whose sums are
   * products as well (tuning pscr_steps2, _steps2z), and use q for the other
   * levels */
  int radix;
  pscr_td_algorithm innermost; /* solver for the innermost tridiagonal systems; AUTO by default */
  int threads;                 /* CPU threads for plan building and the CPU backend; 0 = all */
  const char *tuning_file;     /* kernel parameters from the autotuner; NULL = built-in defaults */
  /* CUDA / OpenCL, 3D: device memory for the 2D subproblems solved together
   * (bytes; at least one is); 0 = automatic, max(4 |f|, 1 GiB) */
  size_t workspace_bytes;
} pscr_options;

/** Fills @p opt with the defaults (radix 4, AUTO, all threads, no tuning
 * file, automatic workspace). */
void pscr_options_default(pscr_options *opt);

typedef struct pscr_plan pscr_plan;

/** Builds everything that depends only on the matrix: partition sets, the
 * generalized eigenpairs (CPU), and uploads them to the device. The plan keeps
 * copies: the caller may free the factor arrays afterwards. On CUDA / OpenCL
 * it also allocates all device workspace (a copy of f for pscr_solve
 * included); a problem that does not fit gives PSCR_ERR_OUT_OF_MEMORY. There
 * the innermost AUTO solves each shifted system (each step's batch of them
 * where the fused kernels do not fit local memory) without pivoting when
 * every row is strictly dominant, else with diagonal pivoting (LAPACK:
 * PSCR_ERR_UNSUPPORTED).
 * @param opt NULL = defaults.
 * @return PSCR_ERR_INVALID_ARGUMENT (NULL, ndim not 2 or 3, n == 0, NULL factor
 *         array, unknown dtype or option, radix < 2, c_im != 0 for PSCR_F64,
 *         a real M1 (M2 in 3D) not positive definite),
 *         PSCR_ERR_NONFINITE (NaN/Inf in the factors or c),
 *         PSCR_ERR_UNSUPPORTED (a backend without PSCR stages yet),
 *         PSCR_ERR_NOT_CONVERGED, PSCR_ERR_OUT_OF_MEMORY. */
pscr_status pscr_plan_create(pscr_context *ctx, const pscr_problem *problem,
                             const pscr_options *opt, pscr_plan **plan);
/** f holds the right-hand side on entry and the solution on return (host).
 * One solve at a time per plan (the plan holds the workspace); no allocation
 * with the innermost algorithms AUTO and THOMAS. NaN/Inf in f propagate.
 * @return PSCR_ERR_SINGULAR when a shifted inner system is singular (f is then
 *         unspecified), PSCR_ERR_INVALID_ARGUMENT for NULL. */
pscr_status pscr_solve(pscr_plan *plan, void *f);
/** Same with the vector already on the plan's device.
 * @return PSCR_ERR_INVALID_ARGUMENT for NULL, an array of another dtype or
 *         backend (GPU backends: of another context) or of fewer elements than
 *         the problem; otherwise as pscr_solve. */
pscr_status pscr_solve_array(pscr_plan *plan, pscr_array *f);

typedef struct {
  double plan_seconds;       /* time of pscr_plan_create */
  /* device/CPU time of the last solve, transfers excluded. CUDA: the device's
   * clock between events around its launches; OpenCL: the host's, from just
   * before its first launch to its status read (an event costs NVIDIA's
   * driver 7-20 us an enqueue), so it counts the launch latency and the
   * status read that CUDA's leaves out (on the H200 the host's clock around a
   * CUDA pscr_solve_array reads 1.9-3.7 us more than its events) */
  double last_solve_seconds;
  size_t device_bytes;       /* memory the plan holds on its device */
  /* host <-> device copies of the last pscr_solve (host data): seconds, not in
   * last_solve_seconds; 0 on the CPU and after pscr_solve_array */
  double last_transfer_seconds;
} pscr_plan_info;

pscr_status pscr_plan_get_info(const pscr_plan *plan, pscr_plan_info *info);
/** NULL is a no-op. */
void pscr_plan_destroy(pscr_plan *plan);

#ifdef __cplusplus
}
#endif
#endif
