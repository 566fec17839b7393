/* An outside program: solves a 4x4 tridiagonal system through the installed library. */
#include <math.h>
#include <pscr/pscr.h>
#include <stdio.h>

int main(void) {
  double dl[4] = {0, -1, -1, -1}, d[4] = {4, 4, 4, 4}, du[4] = {-1, -1, -1, 0};
  double x[4] = {1, 2, 3, 4}, b[4];
  for (int i = 0; i < 4; i++) /* b = A x */
    b[i] = d[i] * x[i] + (i > 0 ? dl[i] * x[i - 1] : 0) + (i < 3 ? du[i] * x[i + 1] : 0);
  pscr_context *ctx = NULL;
  pscr_status st = pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx);
  if (st == PSCR_OK) st = pscr_tridiag_solve(ctx, PSCR_TD_AUTO, PSCR_F64, 4, 1, 4, dl, d, du, b, NULL);
  pscr_context_destroy(ctx);
  double err = 0;
  for (int i = 0; i < 4; i++) err = fmax(err, fabs(b[i] - x[i]));
  printf("consumer: %s, error %.1e\n", pscr_status_string(st), err);
  return st == PSCR_OK && err < 1e-14 ? 0 : 1;
}
