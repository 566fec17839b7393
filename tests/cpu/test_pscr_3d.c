/* 3D PSCR (level 0 solves 2D subproblems (9) with level 1), real and
 * complex, a subset of sizes up to 17, radix 2..5, every problem kind,
 * against LAPACK band LU of the assembled Kronecker matrix: error <= 1e-10. */
#include "pscr_test_util.h"

static const size_t shapes[][3] = {{1, 1, 1},  {1, 2, 3},   {3, 1, 2},   {2, 3, 1},  {4, 5, 3},
                                   {5, 4, 16}, {15, 2, 17}, {16, 17, 1}, {17, 3, 5}, {17, 16, 15}};

int main(void) {
  pt_rng r;
  pscr_context *ctx = pt_start(&r);
  size_t ns = sizeof shapes / sizeof *shapes;
  for (int t = 0; t < 2; t++) {
    pscr_dtype dt = t ? PSCR_C128 : PSCR_F64;
    double worst = 0;
    for (int kind = PT_RANDOM; kind < (t ? PT_NKINDS : PT_HELMHOLTZ); kind++)
      for (size_t i = 0; i < ns; i++) {
        /* the largest shape once per kind and dtype, with radices 2 and 4 */
        int nr = i + 1 == ns ? 2 : 4;
        static const int big[] = {2, 4};
        const int *rad = i + 1 == ns ? big : pt_sweep_radices;
        double e = pt_check_case(ctx, &r, dt, 3, shapes[i], kind, rad, nr, PSCR_TD_AUTO);
        if (!(e <= worst)) worst = e;
      }
    static const int odd[] = {7, 1000};
    static const size_t shp[3] = {16, 9, 8};
    double e = pt_check_case(ctx, &r, dt, 3, shp, PT_RANDOM, odd, 2, PSCR_TD_AUTO);
    if (!(e <= worst)) worst = e;
    printf("3D dtype %d worst relative error %.2e\n", t, worst);
  }
  pscr_context_destroy(ctx);
  return pt_exit("test_pscr_3d");
}
