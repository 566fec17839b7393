/* 2D PSCR, real: every n1, n2 in the size list x every radix 2..5 x random
 * (tridiagonal and diagonal M) and Poisson factors, plus radices 7, 16, 1000,
 * against LAPACK band LU of the assembled Kronecker matrix: relative error
 * <= 1e-10. */
#include "pscr_test_util.h"

static const size_t sizes[] = {1, 2, 3, 4, 5, 15, 16, 17, 63, 64, 65};
static const int radices[] = {2, 3, 4, 5};

int main(void) {
  uint64_t seed = pt_fresh_seed();
  pt_rng r;
  pt_rng_seed(&r, seed);
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx), PSCR_OK);
  size_t ns = sizeof sizes / sizeof *sizes;
  double worst[PT_NKINDS] = {0};
  for (int kind = PT_RANDOM; kind <= PT_POISSON; kind++)
    for (size_t i = 0; i < ns; i++)
      for (size_t j = 0; j < ns; j++) {
        size_t n[2] = {sizes[i], sizes[j]};
        double e = pt_check_case(ctx, &r, PSCR_F64, 2, n, kind, radices, 4, PSCR_TD_AUTO);
        if (!(e <= worst[kind])) worst[kind] = e;
      }
  /* unusual radices: 7, 16 and one larger than n (a single step: plain diagonalization) */
  static const int odd[] = {7, 16, 1000};
  static const size_t more[][2] = {{65, 48}, {100, 9}, {17, 1}, {1, 30}};
  for (size_t k = 0; k < sizeof more / sizeof *more; k++)
    pt_check_case(ctx, &r, PSCR_F64, 2, more[k], PT_RANDOM, odd, 3, PSCR_TD_AUTO);
  for (int kind = PT_RANDOM; kind <= PT_POISSON; kind++)
    printf("worst relative error %-13s %.2e\n", pt_kind_names[kind], worst[kind]);
  pscr_context_destroy(ctx);
  return pt_exit("test_pscr_2d_real");
}
