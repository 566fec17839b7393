/* 2D PSCR, real: every n1, n2 in the size list x every radix 2..5 x random
 * (tridiagonal and diagonal M) and Poisson factors, plus radices 7, 16, 1000,
 * against LAPACK band LU of the assembled Kronecker matrix: relative error
 * <= 1e-10. */
#include "pscr_test_util.h"

int main(void) {
  pt_rng r;
  pscr_context *ctx = pt_start(&r);
  double worst[PT_NKINDS] = {0};
  pt_sweep_2d(ctx, &r, PSCR_F64, PT_RANDOM, PT_POISSON, worst);
  /* unusual radices: 7, 16 and one larger than n (a single step: plain diagonalization) */
  static const int odd[] = {7, 16, 1000};
  static const size_t more[][2] = {{65, 48}, {100, 9}, {17, 1}, {1, 30}};
  for (size_t k = 0; k < sizeof more / sizeof *more; k++)
    pt_check_case(ctx, &r, PSCR_F64, 2, more[k], PT_RANDOM, odd, 3, PSCR_TD_AUTO);
  pt_print_worst(PT_RANDOM, PT_POISSON, worst);
  pscr_context_destroy(ctx);
  return pt_exit("test_pscr_2d_real");
}
