/* 2D PSCR, complex symmetric (transpose, never conjugate): every n1, n2 in
 * the size list x every radix 2..5 x random (tridiagonal and diagonal M),
 * Poisson with imaginary c, and Helmholtz-like factors (absorbing complex
 * corners, c = -omega^2), against LAPACK band LU: relative error <= 1e-10. */
#include "pscr_test_util.h"

int main(void) {
  pt_rng r;
  pscr_context *ctx = pt_start(&r);
  double worst[PT_NKINDS] = {0};
  pt_sweep_2d(ctx, &r, PSCR_C128, PT_RANDOM, PT_NKINDS - 1, worst);
  pt_print_worst(PT_RANDOM, PT_NKINDS - 1, worst);
  pscr_context_destroy(ctx);
  return pt_exit("test_pscr_2d_complex");
}
