/* The dense levels' edge shapes on a GPU backend against the CPU (a developer's
 * check for the device: tools/device_slab128.sh), through gc_case of
 * tests/cpu/pscr_gpu_check.h, the innermost level dense: 2D Poisson and random
 * A of each n0 x n1 given (the slab kernels), 3D Helmholtz and random complex
 * and real A of each n0 x n1 x n2 (pscr_kron where no slab takes level 1).
 * Usage: slab_shapes cuda|opencl n0xn1 n0xn1xn2 ... */
#include <string.h>

#include "cpu/pscr_gpu_check.h"

int main(int argc, char **argv) {
  gc_env E;
  pscr_backend bk = argc > 1 && strcmp(argv[1], "cuda") == 0 ? PSCR_BACKEND_CUDA : PSCR_BACKEND_OPENCL;
  if (!gc_open(&E, bk)) return PT_SKIP;
  gpu_td_tuning dft;
  gpu_td_tuning_default(&dft);
  PT_CHECK_STATUS(gc_tune(&E, "pscr_dense_in", dft.pscr_dense_in), PSCR_OK);
  PT_CHECK_STATUS(gc_tune(&E, "pscr_dense_in3", dft.pscr_dense_in3), PSCR_OK);
  for (int a = 2; a < argc; a++) {
    size_t n[3];
    int d = sscanf(argv[a], "%zux%zux%zu", &n[0], &n[1], &n[2]);
    if (d == 3) {
      gc_case(&E, PSCR_C128, 3, n, PT_HELMHOLTZ, 4, PSCR_TD_AUTO, 0);
      gc_case(&E, PSCR_C128, 3, n, PT_RANDOM, 4, PSCR_TD_AUTO, 0);
      gc_case(&E, PSCR_F64, 3, n, PT_RANDOM, 4, PSCR_TD_AUTO, 0);
      continue;
    }
    if (d != 2) continue;
    gc_case(&E, PSCR_F64, 2, n, PT_POISSON, 4, PSCR_TD_AUTO, 0);
    gc_case(&E, PSCR_F64, 2, n, PT_RANDOM, 4, PSCR_TD_AUTO, 0);
    gc_nonfinite_f(&E, n);
  }
  gc_close(&E);
  return pt_exit("slab_shapes");
}
