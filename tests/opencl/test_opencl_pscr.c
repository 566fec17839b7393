/* PSCR on OpenCL (PoCL in CI: small sizes) against the CPU backend on the
 * same data: the small suite of tests/cpu/pscr_gpu_check.h (2D and 3D, real
 * Poisson and random symmetric A with SPD M, complex Helmholtz and random,
 * radices 2 .. 7 and 1000, odd sizes, the innermost algorithms, 3D groups
 * split by a small workspace, bad input, out of memory); then every PSCR
 * kernel (kernels/common/pscr_*.h) must have run. */
#include <ctype.h>

#include "opencl_lsan.h"

#if PSCR_HAVE_OPENCL
#include "../cpu/pscr_gpu_check.h"
#include "backend/opencl/opencl.h"
#include "../cpu/wspec_check.h"

/* Every KERNEL of kernels/common/pscr_*.h was launched on this context. */
static void check_coverage(pscr_context *ctx) {
  int found = 0;
  for (const ocl_source_file *f = pscr_opencl_sources(); f->path; f++) {
    if (strncmp(f->path, "common/pscr_", 12) != 0) continue;
    /* "KERNEL void name" or "KERNEL_BOUNDED(W, B) void name" */
    for (const char *p = strstr(f->text, "KERNEL"); p; p = strstr(p + 1, "KERNEL")) {
      const char *q = p + 6;
      if (*q == '_' && strncmp(q, "_BOUNDED(", 9) == 0) q = strchr(q, ')') + 1;
      while (isspace((unsigned char)*q)) q++;
      if (strncmp(q, "void ", 5) != 0) continue;
      q += 5;
      const char *e = q;
      while (isalnum((unsigned char)*e) || *e == '_') e++;
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)(e - q), q);
      unsigned long launches = pscr_opencl_launch_count(ctx, name);
      PT_CHECK(launches > 0, "PSCR kernel %s never launched", name);
      printf("  %-12s %lu launches\n", name, launches);
      found++;
    }
  }
  PT_CHECK(found >= 6, "%d PSCR kernels found in kernels/common/pscr_*.h", found);
}

/* gc_case of a problem (radix 4, AUTO: a solve of host data and one of device
 * data), and the launches of each kernel names[0 .. k-1] it made */
static void counted_as(gc_env *E, pscr_dtype t, int kind, int ndim, const size_t *n, int k,
                       const char *const *names, unsigned long *counts) {
  for (int i = 0; i < k; i++) counts[i] = pscr_opencl_launch_count(E->gpu, names[i]);
  gc_case(E, t, ndim, n, kind, 4, PSCR_TD_AUTO, 0);
  for (int i = 0; i < k; i++) counts[i] = pscr_opencl_launch_count(E->gpu, names[i]) - counts[i];
}

/* ... of a real Poisson problem */
static void counted_case(gc_env *E, int ndim, const size_t *n, int k, const char *const *names,
                         unsigned long *counts) {
  counted_as(E, PSCR_F64, PT_POISSON, ndim, n, k, names, counts);
}

int main(void) {
  gc_env E;
  if (!gc_open(&E, PSCR_BACKEND_OPENCL)) {
    gc_close(&E);
    return pt_checks ? pt_exit("opencl_pscr") : PT_SKIP;
  }
  /* the kernel counts below are those of td_reg.h's one-pass solves, which
   * OpenCL GPUs take only for large batches (reg_min, test_opencl_basics):
   * the same choices on every platform */
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "reg_min", 0), PSCR_OK);
  gc_small_suite(&E);
  gc_helmholtz_residual(&E, 3);
  gc_dense_suite(&E, 0);
  { /* 2D takes the dense innermost step by default, whole in pscr_slab where it fits a
     * group (40 x 33 does), as products with pscr_slab = 0, and PSCR's steps with
     * pscr_dense_in = 0; a solve is pscr_solve and pscr_solve_array */
    static const size_t n2[2] = {40, 33};
    gpu_td_tuning t;
    gpu_td_tuning_default(&t);
    static const struct {
      int dense, slab;
      unsigned long gemm, slab_launches;
    } ways[] = {{1, 1, 0, 2}, {1, 0, 4, 0}, {0, 1, 0, 0}};
    for (int k = 0; k < 3; k++) {
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_dense_in", ways[k].dense ? t.pscr_dense_in : 0),
                      PSCR_OK);
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab", ways[k].slab ? t.pscr_slab : 0), PSCR_OK);
      static const char *const names[] = {"pscr_gemm", "pscr_slab", "td_reg_perm"};
      unsigned long c[3];
      counted_case(&E, 2, n2, 3, names, c);
      unsigned long g1 = c[0], s1 = c[1], p1 = c[2];
      PT_CHECK(g1 == ways[k].gemm && s1 == ways[k].slab_launches,
               "2D 40 x 33, dense %d, slab %d: %lu pscr_gemm, %lu pscr_slab launches",
               ways[k].dense, ways[k].slab, g1, s1);
      /* the products' solves reorder A and M once a plan (gpu_td_perm), not once a solve */
      PT_CHECK(ways[k].gemm == 0 || p1 == 1, "2D 40 x 33, two solves: %lu td_reg_perm launches",
               p1);
    }
    /* 3D 9 x 12 x 7, both levels dense: level 0's (28) formed in the slab kernel, its (27)
     * a product (pscr_gemm); with pscr_slab = 0 both levels' products (28) and (27) in
     * one pscr_kron each, and 4 products a solve with pscr_kron = 0 too */
    static const size_t n3[3] = {9, 12, 7};
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_dense_in3", t.pscr_dense_in3), PSCR_OK);
    static const struct {
      int slab, kron;
      unsigned long gemm, slab_launches, kron_launches;
    } ways3[] = {{1, 1, 2, 2, 0}, {0, 1, 0, 0, 4}, {0, 0, 8, 0, 0}};
    for (int k = 0; k < 3; k++) {
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab", ways3[k].slab ? t.pscr_slab : 0),
                      PSCR_OK);
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_kron", ways3[k].kron ? t.pscr_kron : 0),
                      PSCR_OK);
      static const char *const names[] = {"pscr_gemm", "pscr_slab", "pscr_kron"};
      unsigned long c[3];
      counted_case(&E, 3, n3, 3, names, c);
      PT_CHECK(c[0] == ways3[k].gemm && c[1] == ways3[k].slab_launches &&
                   c[2] == ways3[k].kron_launches,
               "3D 9 x 12 x 7, slab %d, kron %d: %lu pscr_gemm, %lu pscr_slab, %lu pscr_kron "
               "launches",
               ways3[k].slab, ways3[k].kron, c[0], c[1], c[2]);
    }
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_kron", t.pscr_kron), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab", t.pscr_slab), PSCR_OK);
    { /* complex 3D (the pivoting lines plan, no slab): pscr_kron where its n0 n1 fits
       * (40 x 40 in shares of 2 groups a column with pscr_ksplit = 1; the tuning's
       * bound lifted), pscr_gemm past it */
      static const size_t z3[][3] = {{40, 40, 3}, {46, 46, 2}};
      static const char *const names[] = {"pscr_gemm", "pscr_kron"};
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_ksplit", 1), PSCR_OK);
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_kron", 1 << 20), PSCR_OK);
      for (int k = 0; k < 2; k++) {
        unsigned long c[2];
        counted_as(&E, PSCR_C128, PT_HELMHOLTZ, 3, z3[k], 2, names, c);
        PT_CHECK(c[0] == (k ? 8u : 0u) && c[1] == (k ? 0u : 4u),
                 "3D Helmholtz %zu^2 x %zu: %lu pscr_gemm, %lu pscr_kron launches", z3[k][0],
                 z3[k][2], c[0], c[1]);
      }
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_ksplit", t.pscr_ksplit), PSCR_OK);
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_kron", t.pscr_kron), PSCR_OK);
    }
    /* past pscr_slab's bound, up to 64 x 64: whole in pscr_slab64 (2D 64 x 50; 3D
     * 9 x 63 x 40's level 1), as products with pscr_slab64 = 0 */
    static const size_t m2[2] = {64, 50}, m3[3] = {9, 63, 40};
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_dense_in", t.pscr_dense_in), PSCR_OK);
    for (int s64 = 1; s64 >= 0; s64--) {
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab64", s64 ? t.pscr_slab64 : 0), PSCR_OK);
      for (int d = 2; d <= 3; d++) {
        static const char *const names[] = {"pscr_gemm", "pscr_slab64", "pscr_kron"};
        unsigned long c[3];
        counted_case(&E, d, d == 2 ? m2 : m3, 3, names, c);
        /* 3D: level 0's two products around the slab, else pscr_kron's two */
        unsigned long gw = d == 2 ? (s64 ? 0u : 4u) : s64 ? 4u : 0u;
        unsigned long kw = d == 3 && !s64 ? 4u : 0u;
        PT_CHECK(c[0] == gw && c[1] == (s64 ? 2u : 0u) && c[2] == kw,
                 "%dD, pscr_slab64 %d: %lu pscr_gemm, %lu pscr_slab64, %lu pscr_kron launches", d,
                 s64, c[0], c[1], c[2]);
      }
    }
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab64", t.pscr_slab64), PSCR_OK);
    /* 2D past that, up to 128 x 128: whole in pscr_slab128 (100 x 65: 7 groups of
     * eigenpairs, their tree), as products with pscr_slab128 = 0 */
    static const size_t l2[2] = {100, 65};
    for (int s128 = 1; s128 >= 0; s128--) {
      PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab128", s128 ? t.pscr_slab128 : 0),
                      PSCR_OK);
      static const char *const names[] = {"pscr_gemm", "pscr_slab128"};
      unsigned long c[2];
      counted_case(&E, 2, l2, 2, names, c);
      unsigned long g1 = c[0], s1 = c[1];
      PT_CHECK(g1 == (s128 ? 0u : 4u) && s1 == (s128 ? 2u : 0u),
               "2D 100 x 65, pscr_slab128 %d: %lu pscr_gemm, %lu pscr_slab128 launches", s128, g1,
               s1);
    }
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab128", t.pscr_slab128), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_dense_in", 0), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab", t.pscr_slab), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_dense_in3", 0), PSCR_OK);
    /* a plan's solves keep td_reg.h's kernels under a GPU's reg_min: its A and M are
     * reordered once a plan (gpu_td_perm), so td_reg.h's solve is one launch there too */
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "reg_min", 1 << 20), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab", 0), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_dense_in", t.pscr_dense_in), PSCR_OK);
    static const char *const names[] = {"td_tile_solve", "td_reg_perm"};
    unsigned long c[2];
    counted_case(&E, 2, n2, 2, names, c);
    unsigned long t1 = c[0], p1 = c[1];
    PT_CHECK(t1 == 0 && p1 == 1, "2D 40 x 33, reg_min 2^20: %lu td_tile_solve, %lu td_reg_perm",
             t1, p1);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_slab", t.pscr_slab), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "reg_min", 0), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_dense_in", 0), PSCR_OK);
  }
  { /* plans' arrays in chunks of 4 KB (opencl_backend.c): the XPTR kernels'
     * pointers in several buffers, those outside the base passed as buffers,
     * larger arrays buffers of their own; against the CPU as everywhere */
    static const size_t p2[2] = {40, 33}, p3[3] = {9, 12, 7};
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "chunk_bytes", 100), PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "chunk_bytes", 4096), PSCR_OK);
    gc_case(&E, PSCR_F64, 2, p2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
    gc_case(&E, PSCR_C128, 2, p2, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
    gc_case(&E, PSCR_C128, 3, p3, PT_RANDOM, 3, PSCR_TD_AUTO, 0);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "chunk_bytes", 0), PSCR_OK); /* the default */
  }
  { /* 2D 40 x 33 in two steps of radix 7: blocks 0-5, ..., 28-33 and 35-39, two runs;
     * products: 2 reducing (their sums (24) one pscr_osums), 2 at step 2, 4 back at
     * step 1; pscr_bsub once; a solve, pscr_solve and pscr_solve_array */
    static const size_t n2[2] = {40, 33};
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_dense_in", 0), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_steps2", 40), PSCR_OK);
    unsigned long g0 = pscr_opencl_launch_count(E.gpu, "pscr_gemm");
    unsigned long b0 = pscr_opencl_launch_count(E.gpu, "pscr_bsub");
    unsigned long o0 = pscr_opencl_launch_count(E.gpu, "pscr_osums");
    gc_case(&E, PSCR_F64, 2, n2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
    unsigned long g1 = pscr_opencl_launch_count(E.gpu, "pscr_gemm");
    unsigned long b1 = pscr_opencl_launch_count(E.gpu, "pscr_bsub");
    unsigned long o1 = pscr_opencl_launch_count(E.gpu, "pscr_osums");
    PT_CHECK(g1 - g0 == 16u && b1 - b0 == 2u && o1 - o0 == 2u,
             "2D 40 x 33 in two steps: %lu pscr_gemm, %lu pscr_bsub, %lu pscr_osums launches",
             g1 - g0, b1 - b0, o1 - o0);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_steps2", 0), PSCR_OK);
    /* complex AUTO: the engine's test made at plan time, one per-system scan a step,
     * none a solve */
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_dense_inz", 0), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_steps2z", 1000), PSCR_OK);
    unsigned long s0 = pscr_opencl_launch_count(E.gpu, "td_scan");
    unsigned long y0 = pscr_opencl_launch_count(E.gpu, "pscr_scan_sys");
    gc_case(&E, PSCR_C128, 2, n2, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
    unsigned long s1 = pscr_opencl_launch_count(E.gpu, "td_scan");
    unsigned long y1 = pscr_opencl_launch_count(E.gpu, "pscr_scan_sys");
    PT_CHECK(s1 == s0 && y1 - y0 == 2u,
             "2D Helmholtz 40 x 33 in two steps: %lu td_scan, %lu pscr_scan_sys launches", s1 - s0,
             y1 - y0);
    /* 600 x 5: the top step's one system that is not dominant on SPIKE_DIAG_PIVOT's tile,
     * its other 599 and the blocks' systems on CR_PCR_THOMAS's (td_reg_solve_s): both
     * kernels in every solve (2 solves, after the plan's warm-up of each) */
    static const size_t r2[2] = {600, 5};
    unsigned long t0 = pscr_opencl_launch_count(E.gpu, "td_tile_solve");
    /* the inner systems are shifted rows (td_reg_solve_s or its constant-W form) */
    unsigned long q0 = ws_launches(E.gpu, pscr_opencl_launch_count);
    gc_case(&E, PSCR_C128, 2, r2, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
    unsigned long t1 = pscr_opencl_launch_count(E.gpu, "td_tile_solve");
    unsigned long q1 = ws_launches(E.gpu, pscr_opencl_launch_count);
    PT_CHECK(t1 - t0 >= 3u && q1 - q0 >= 7u,
             "2D Helmholtz 600 x 5 in two steps: %lu td_tile_solve, %lu td_reg_solve_s", t1 - t0,
             q1 - q0);
    PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_steps2z", 0), PSCR_OK);
  }
  gc_engine_suite(&E);
  gc_fwdm_suite(&E);
  /* the default engine (pscr_lane = 3): the tiles for real 2D (pscr_reg.h's
   * where proven definite), the lanes for complex 3D, the plain lanes for real
   * 3D proven definite longer than pscr_reg.h's one tile (256 rows), unless
   * two tiles are nearly full (480 rows) */
  static const size_t d2[2] = {33, 40}, d3[3] = {9, 9, 9}, d3r[3] = {5, 7, 300};
  static const size_t d3t[3] = {5, 7, 480};
  unsigned long lanes0 = pscr_opencl_launch_count(E.gpu, "pscr_lane_task");
  unsigned long pl0 = pscr_opencl_launch_count(E.gpu, "pscr_lane_plain");
  gc_case(&E, PSCR_F64, 2, d2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  unsigned long lanes1 = pscr_opencl_launch_count(E.gpu, "pscr_lane_task");
  unsigned long pl1 = pscr_opencl_launch_count(E.gpu, "pscr_lane_plain");
  gc_case(&E, PSCR_C128, 3, d3, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
  unsigned long lanes2 = pscr_opencl_launch_count(E.gpu, "pscr_lane_task");
  gc_case(&E, PSCR_F64, 3, d3, PT_POISSON, 4, PSCR_TD_AUTO, 0); /* n < PSCR_GPU_LANE_MIN_N: tiles */
  unsigned long pl2a = pscr_opencl_launch_count(E.gpu, "pscr_lane_plain");
  gc_case(&E, PSCR_F64, 3, d3r, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  unsigned long pl2 = pscr_opencl_launch_count(E.gpu, "pscr_lane_plain");
  unsigned long rb0 = pscr_opencl_launch_count(E.gpu, "pscr_reg_bwd") +
                      pscr_opencl_launch_count(E.gpu, "pscr_reg_bwdl");
  gc_case(&E, PSCR_F64, 3, d3t, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  unsigned long pl3 = pscr_opencl_launch_count(E.gpu, "pscr_lane_plain");
  unsigned long rb = pscr_opencl_launch_count(E.gpu, "pscr_reg_bwd") +
                     pscr_opencl_launch_count(E.gpu, "pscr_reg_bwdl") - rb0;
  PT_CHECK(lanes1 == lanes0 && pl1 == pl0 && lanes2 > lanes1 && pl2a == pl1 && pl2 > pl2a &&
               pl3 == pl2 && rb > 0,
           "default engine: %lu + %lu lane launches for real 2D (0 expected), %lu for complex 3D, "
           "%lu plain for real 3D 9^3 (0 expected), %lu for 5 x 7 x 300, %lu plain (0 expected) "
           "and %lu pscr_reg.h pass 3 for 5 x 7 x 480",
           lanes1 - lanes0, pl1 - pl0, lanes2 - lanes1, pl2a - pl1, pl2 - pl2a, pl3 - pl2, rb);
  /* real systems proven definite, and CR_PCR_THOMAS: pscr_reg.h's kernels,
   * one tile (40 rows) and 9 tiles (2100 rows), not pscr_tile.h's */
  static const size_t r2[2] = {5, 2100};
  unsigned long rt0 = pscr_opencl_launch_count(E.gpu, "pscr_reg_task");
  unsigned long rf0 = pscr_opencl_launch_count(E.gpu, "pscr_reg_bwd");
  unsigned long tt0 = pscr_opencl_launch_count(E.gpu, "pscr_tile_task") +
                      pscr_opencl_launch_count(E.gpu, "pscr_tile_bwd");
  /* pscr_reg_fwdm / bwdm however few their groups (then, below, the sub-groups) */
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rmmin", 1), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rbwdm", 1), PSCR_OK);
  unsigned long fm0 = pscr_opencl_launch_count(E.gpu, "pscr_reg_fwdm");
  unsigned long bm0 = pscr_opencl_launch_count(E.gpu, "pscr_reg_bwdm");
  unsigned long fs0 = pscr_opencl_launch_count(E.gpu, "pscr_reg_fwd");
  E.c_add = 1e5; /* 1D Poisson of 2100 rows: condition ~n^2 without a shift */
  gc_case(&E, PSCR_F64, 2, d2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(&E, PSCR_F64, 2, r2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(&E, PSCR_F64, 2, r2, PT_POISSON, 3, PSCR_TD_CR_PCR_THOMAS, 0);
  unsigned long fm = pscr_opencl_launch_count(E.gpu, "pscr_reg_fwdm") - fm0;
  unsigned long bm = pscr_opencl_launch_count(E.gpu, "pscr_reg_bwdm") - bm0;
  /* passes 1 and 3 of small tasks on the sub-groups instead */
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rfwdm", 0), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rbwdm", 0), PSCR_OK);
  rf0 = pscr_opencl_launch_count(E.gpu, "pscr_reg_bwd");
  gc_case(&E, PSCR_F64, 2, r2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  E.c_add = 0;
  unsigned long rt = pscr_opencl_launch_count(E.gpu, "pscr_reg_task") - rt0;
  unsigned long rf = pscr_opencl_launch_count(E.gpu, "pscr_reg_bwd") - rf0;
  unsigned long fs = pscr_opencl_launch_count(E.gpu, "pscr_reg_fwd") - fs0;
  unsigned long tt = pscr_opencl_launch_count(E.gpu, "pscr_tile_task") +
                     pscr_opencl_launch_count(E.gpu, "pscr_tile_bwd") - tt0;
  PT_CHECK(rt > 0 && tt == 0 && fm > 0 && bm > 0 && fs > 0 && rf > 0,
           "real definite systems: %lu one-tile pscr_reg launches, %lu tile ones; pass 1 and 3: "
           "%lu pscr_reg_fwdm and %lu bwdm, then %lu and %lu on the sub-groups",
           rt, tt, fm, bm, fs, rf);
  /* the lane passes (pscr_reg_fwdl / pscr_reg_bwdl; pscr_rfwdm, rbwdm stay 0) in every step, with tasks
   * of up to 128 eigenpairs over lane groups of 32 (up to four rounds a group;
   * groups this small also fit NVIDIA's 48 KiB) */
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rfwdl", 1), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rbwdl", 1), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rgroups", 1), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rlwg", 32), PSCR_OK);
  unsigned long lf0 = pscr_opencl_launch_count(E.gpu, "pscr_reg_fwdl");
  unsigned long lb0 = pscr_opencl_launch_count(E.gpu, "pscr_reg_bwdl");
  static const size_t r3[2] = {90, 600};
  E.c_add = 1e5;
  gc_case(&E, PSCR_F64, 2, r2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(&E, PSCR_F64, 2, r3, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(&E, PSCR_F64, 2, r3, PT_POISSON, 3, PSCR_TD_CR_PCR_THOMAS, 0);
  E.c_add = 0;
  gc_singular(&E, PSCR_F64, 5, 600, PSCR_TD_CR_PCR_THOMAS); /* a zero pivot on the lanes */
  unsigned long lf = pscr_opencl_launch_count(E.gpu, "pscr_reg_fwdl") - lf0;
  unsigned long lb = pscr_opencl_launch_count(E.gpu, "pscr_reg_bwdl") - lb0;
  PT_CHECK(lf > 0 && lf == lb, "lane passes: %lu pscr_reg_fwdl, %lu pscr_reg_bwdl launches", lf,
           lb);
  /* a GPU's local memory (NVIDIA's 48 KiB, local arrays sized per module):
   * multi-tile plans build a module of their own, with room for groups of
   * several sub-groups and pass 3 on the lanes */
  pscr_context *keep = E.gpu, *g48 = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &g48), PSCR_OK);
  if (g48) {
    PT_CHECK_STATUS(pscr_opencl_tune(g48, "local_mem", 48 * 1024), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(g48, "shrink_local", 1), PSCR_OK);
    PT_CHECK_STATUS(pscr_opencl_tune(g48, "pscr_rbwdl", 1), PSCR_OK);
    E.gpu = g48;
    E.c_add = 1e5;
    gc_case(&E, PSCR_F64, 2, r2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
    gc_case(&E, PSCR_F64, 2, r3, PT_POISSON, 3, PSCR_TD_CR_PCR_THOMAS, 0);
    E.c_add = 0;
    unsigned long b48 = pscr_opencl_launch_count(g48, "pscr_reg_bwdl");
    PT_CHECK(b48 > 0, "48 KiB: %lu pscr_reg_bwdl launches", b48);
    E.gpu = keep;
    pscr_context_destroy(g48);
  }
  gpu_td_tuning dft; /* back to the defaults */
  gpu_td_tuning_default(&dft);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rfwdl", dft.pscr_rfwdl), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rbwdl", dft.pscr_rbwdl), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rgroups", dft.pscr_rgroups), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rlwg", dft.pscr_rlwg), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rfwdm", dft.pscr_rfwdm), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rbwdm", dft.pscr_rbwdm), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_rmmin", dft.pscr_rmmin), PSCR_OK);
  /* the small suite again on the lane engine (the default took the tiles for
   * most of it above), then the tiles (pscr_tile.h's, also for real data) for
   * the rest */
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_lane", 1), PSCR_OK);
  unsigned long plain0 = pscr_opencl_launch_count(E.gpu, "pscr_lane_plain");
  gc_small_suite(&E);
  /* real data proven definite takes the plain kernel (Thomas alone) */
  PT_CHECK(pscr_opencl_launch_count(E.gpu, "pscr_lane_plain") > plain0,
           "pscr_lane_plain launched on the lane engine's real problems");
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_lane", 0), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_reg", 0), PSCR_OK);
  /* tiles of 32 work-items: the fused solves over several tiles (and merge levels) */
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_tw", 32), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_w", 32), PSCR_OK);
  E.c_add = 1e5; /* 1D Poisson of 2100 rows and more: condition ~n^2 without a shift */
  static const size_t m2[][2] = {{40, 600}, {3, 2100}}, m3[3] = {4, 3, 700};
  for (int t = 0; t < 2; t++) {
    pscr_dtype dt = t ? PSCR_C128 : PSCR_F64;
    for (size_t i = 0; i < 2; i++)
      gc_case(&E, dt, 2, m2[i], PT_POISSON, 3 + (int)i, PSCR_TD_AUTO, 0);
    gc_case(&E, dt, 3, m3, t ? PT_HELMHOLTZ : PT_POISSON, 4, PSCR_TD_AUTO, 0);
  }
  gc_case(&E, PSCR_F64, 2, m2[1], PT_POISSON, 4, PSCR_TD_CR_PCR_THOMAS, 0);
  /* tiles of 64 rows merged 64 at a time: two merge levels */
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "tile_q", 2), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_tq", 2), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "merge_w", 32), PSCR_OK);
  static const size_t l2[2] = {3, 4200}; /* 66 tiles: 2 merge levels in each of 3 steps */
  unsigned long up0 = pscr_opencl_launch_count(E.gpu, "td_tile_gup");
  unsigned long down0 = pscr_opencl_launch_count(E.gpu, "td_tile_gdown");
  gc_case(&E, PSCR_F64, 2, l2, PT_POISSON, 2, PSCR_TD_AUTO, 0);
  unsigned long ups = pscr_opencl_launch_count(E.gpu, "td_tile_gup") - up0;
  unsigned long downs = pscr_opencl_launch_count(E.gpu, "td_tile_gdown") - down0;
  /* a solve of each step: td_tile_gup below the top level only, td_tile_gdown on both */
  PT_CHECK(ups >= 3 && downs == 2 * ups, "record merges of the fused tiles: %lu up, %lu down",
           ups, downs);
  gc_case(&E, PSCR_C128, 2, l2, PT_POISSON, 3, PSCR_TD_AUTO, 0);
  /* local arrays sized per module (as on GPUs): a one-tile shape beyond the
   * default module's arrays takes a module of its own, not the multi-tile
   * path. 48 KiB of local memory (NVIDIA's), on every device: the default
   * module then holds 3328 F64 / 1664 C128 scalars, the device 6112 / 3056,
   * and these shapes need 5508 (2D F64, q = 4, W = 128), 4411 (3D F64, q = 8,
   * W = 64) and 2980 (2D C128, q = 4, W = 64) with 3 accumulator rows. */
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "shrink_local", 1), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "local_mem", 49152), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_tw", 128), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_w", 1024), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "tile_q", 8), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "pscr_tq", 8), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "merge_w", 256), PSCR_OK);
  static const size_t o2[2] = {7, 300}, o3[3] = {4, 3, 361}, z2[2] = {7, 140};
  unsigned long one0 = pscr_opencl_launch_count(E.gpu, "pscr_tile_task");
  unsigned long fwd0 = pscr_opencl_launch_count(E.gpu, "pscr_tile_fwd");
  E.c_add = 0;
  gc_case(&E, PSCR_F64, 2, o2, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(&E, PSCR_F64, 3, o3, PT_POISSON, 4, PSCR_TD_AUTO, 0);
  gc_case(&E, PSCR_C128, 2, z2, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
  unsigned long one = pscr_opencl_launch_count(E.gpu, "pscr_tile_task") - one0;
  unsigned long fwd = pscr_opencl_launch_count(E.gpu, "pscr_tile_fwd") - fwd0;
  PT_CHECK(one > 0 && fwd == 0, "one-tile shapes in modules of their own: %lu one-tile, %lu "
           "multi-tile launches", one, fwd);
  /* a line the fused kernels would take in several tiles (2D C128, 600 rows
   * at 48 KiB): by default the step's systems go to the tridiagonal engine */
  static const size_t z6[2] = {9, 600}; /* level 0 of 9 rows: one dense step */
  unsigned long tf0 = pscr_opencl_launch_count(E.gpu, "pscr_tile_fwd");
  unsigned long e0 = ws_family(E.gpu, pscr_opencl_launch_count, "td_reg_fwd") +
                     ws_family(E.gpu, pscr_opencl_launch_count, "td_reg_fwd_s") +
                     pscr_opencl_launch_count(E.gpu, "td_tile_fwd");
  gc_case(&E, PSCR_C128, 2, z6, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
  unsigned long tf = pscr_opencl_launch_count(E.gpu, "pscr_tile_fwd") - tf0;
  unsigned long en = ws_family(E.gpu, pscr_opencl_launch_count, "td_reg_fwd") +
                     ws_family(E.gpu, pscr_opencl_launch_count, "td_reg_fwd_s") +
                     pscr_opencl_launch_count(E.gpu, "td_tile_fwd") - e0;
  PT_CHECK(tf == 0 && en > 0, "2D C128 600 rows at 48 KiB: %lu pscr_tile_fwd, %lu engine "
           "tile passes", tf, en);
  PT_CHECK_STATUS(pscr_opencl_tune(E.gpu, "shrink_local", 0), PSCR_OK);
  check_coverage(E.gpu);
  gc_close(&E);
  return pt_exit("opencl_pscr");
}
#else
#include "testing.h"
int main(void) { return PT_SKIP; }
#endif
