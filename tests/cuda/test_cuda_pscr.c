/* PSCR on CUDA against the CPU backend on the same data (exit 77 without a
 * GPU): the small suite of tests/cpu/pscr_gpu_check.h (also what the CPU
 * driver emulator of tools/cuda_emu runs quickly), then larger problems: 2D
 * Poisson / Helmholtz / random up to 1023^2, 3D Poisson and Helmholtz up to
 * 63^3 and odd 3D shapes with several groups per step, inner systems of 4500
 * rows (several tiles on the H100; shifted by c + 1e5: unshifted, 1D Poisson /
 * Helmholtz systems that long have condition numbers ~1e7 that no solver keeps
 * within the bar). Relative difference <= 1e-11 (real), 1e-10 (complex).
 * PSCR_TEST_SMALL=1 runs the small suite only (emulator); PSCR_TEST_SMALL=2
 * the engine suite only (compute-sanitizer racecheck within a few minutes),
 * PSCR_TEST_SMALL=3 the dense suite only (the same for the products and pscr_slab). */
#include <stdlib.h>

#include "../cpu/pscr_gpu_check.h"

int main(void) {
  gc_env E;
  if (!gc_open(&E, PSCR_BACKEND_CUDA)) {
    gc_close(&E);
    return pt_checks ? pt_exit("cuda_pscr") : PT_SKIP;
  }
  const char *small = getenv("PSCR_TEST_SMALL");
  if (small != NULL && strcmp(small, "2") == 0) {
    gc_engine_suite(&E);
    gc_fwdm_suite(&E);
    gc_close(&E);
    return pt_exit("cuda_pscr");
  }
  if (small != NULL && strcmp(small, "3") == 0) {
    gc_dense_suite(&E, 0);
    gc_close(&E);
    return pt_exit("cuda_pscr");
  }
  gc_small_suite(&E);
  gc_engine_suite(&E);
  gc_fwdm_suite(&E);
  /* the small suite on the lane engine wherever it applies (the default took
   * the tiles for most of it) */
  PT_CHECK_STATUS(gc_tune(&E, "pscr_lane", 1), PSCR_OK);
  gc_small_suite(&E);
  /* and on pscr_tile.h's kernels where the default takes pscr_reg.h's (real
   * systems proven definite) */
  PT_CHECK_STATUS(gc_tune(&E, "pscr_lane", 0), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(&E, "pscr_reg", 0), PSCR_OK);
  gc_small_suite(&E);
  PT_CHECK_STATUS(gc_tune(&E, "pscr_reg", 1), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(&E, "pscr_lane", 3), PSCR_OK);
  gc_helmholtz_residual(&E, 3);
  gc_dense_suite(&E, small == NULL);
  if (small == NULL || strcmp(small, "1") != 0) {
    static const size_t b2[][2] = {{1023, 1023}, {511, 513}, {255, 300}, {7, 4500}};
    static const int k2[][2] = {{PT_POISSON, PT_HELMHOLTZ},
                                {PT_POISSON, PT_HELMHOLTZ},
                                {PT_RANDOM, PT_RANDOM},
                                {PT_POISSON, PT_HELMHOLTZ}};
    static const int r2[] = {4, 5, 3, 2};
    for (size_t i = 0; i < sizeof b2 / sizeof *b2; i++) {
      E.c_add = b2[i][1] > 2000 ? 1e5 : 0; /* long 1D directions: condition ~n^2 unshifted */
      for (int t = 0; t < 2; t++)
        gc_case(&E, t ? PSCR_C128 : PSCR_F64, 2, b2[i], k2[i][t], r2[i], PSCR_TD_AUTO, 0);
    }
    E.c_add = 0;
    static const size_t b3[][3] = {{63, 63, 63}, {45, 40, 47}, {100, 33, 65}};
    static const int r3[] = {4, 5, 3};
    for (size_t i = 0; i < sizeof b3 / sizeof *b3; i++)
      for (int t = 0; t < 2; t++)
        gc_case(&E, t ? PSCR_C128 : PSCR_F64, 3, b3[i], t ? PT_HELMHOLTZ : PT_POISSON, r3[i],
                PSCR_TD_AUTO, 0);
    /* 3D groups of 7 subproblems (a 1 MB workspace) */
    static const size_t g3[3] = {100, 33, 65};
    gc_case(&E, PSCR_F64, 3, g3, PT_POISSON, 4, PSCR_TD_AUTO, (size_t)1 << 20);
    gc_case(&E, PSCR_C128, 3, g3, PT_RANDOM, 4, PSCR_TD_AUTO, (size_t)1 << 20);
  }
  gc_close(&E);
  return pt_exit("cuda_pscr");
}
