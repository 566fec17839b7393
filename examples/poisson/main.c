/* libpscr demo: -Lap u = f on [0,1]^d (d = 2, 3), u = 0 on the boundary, piecewise linear
 * FEM on a uniform or graded orthogonal mesh (seed 003 eq. (31)), solved by radix-q PSCR.
 * The exact solution is u = sin(pi x) sin(2 pi y) [sin(pi z)] exp(x y [z]); the program
 * prints the max nodal error, the relative residual and the plan and solve times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/example_util.h"

typedef ex_args args;

static const char usage[] =
    "usage: poisson [options]\n"
    "  --dim 2|3              dimension (default 2)\n"
    "  --n N                  unknowns per direction (default 1023 in 2D, 127 in 3D)\n"
    "  --n1 N --n2 N --n3 N   unknowns per direction, one at a time\n"
    "  --mesh uniform|graded|geometric   (graded: x = (1 - cos(pi s))/2)\n"
    "  --backend cpu|cuda|opencl         (default cpu)\n"
    "  --threads T            CPU threads, 0 = all (default 0)\n"
    "  --radix q              PSCR reduction factor (default 4)\n"
    "  --help\n";

int main(int argc, char **argv) {
  args a;
  int ex = ex_parse_args("poisson", usage, argc, argv, 1, 1023, 127, &a, NULL, NULL);
  if (ex >= 0)
    return ex;
  int rc = 1;
  pscr_status st = PSCR_OK;
  pscr_context *ctx = NULL;
  pscr_plan *plan = NULL;
  double *x[3] = {NULL}, *h[3] = {NULL}, *fac[3] = {NULL};
  double *u = NULL, *b = NULL, *y = NULL, *w1 = NULL, *w2 = NULL;
  pscr_problem prob = {.ndim = a.ndim, .dtype = PSCR_F64};
  size_t total = 1;
  for (int d = 0; d < a.ndim; d++) {
    size_t n = a.n[d];
    total *= n;
    x[d] = malloc((n + 2) * sizeof(double));
    h[d] = malloc((n + 1) * sizeof(double));
    fac[d] = malloc(3 * n * sizeof(double)); /* a_diag | a_off | m_diag */
    if (!x[d] || !h[d] || !fac[d])
      goto oom;
    ex_mesh_nodes(a.mesh, n + 1, x[d]);
    ex_mesh_steps(n + 1, x[d], h[d]);
    st = pscr_factor_poisson_fem(n, h[d], fac[d], fac[d] + n, fac[d] + 2 * n); /* (31) */
    if (st != PSCR_OK)
      goto cleanup;
    prob.dim[d] = (pscr_factor){n, fac[d], fac[d] + n, fac[d] + 2 * n, NULL};
  }
  u = malloc(total * sizeof *u), b = malloc(total * sizeof *b), y = malloc(total * sizeof *y);
  w1 = malloc(total * sizeof *w1), w2 = malloc(total * sizeof *w2);
  if (!u || !b || !y || !w1 || !w2)
    goto oom;

  /* Exact nodal values and the lumped load b = (M1 (x) M2 (x) M3) f. */
  ex_mms mms = {.ndim = a.ndim, .k = {1, 2, 1}, .a = 1.0};
  double umax = 0;
  for (size_t i = 0; i < total; i++) {
    size_t rest = i, idx[3];
    for (int d = a.ndim - 1; d >= 0; d--)
      idx[d] = rest % a.n[d], rest /= a.n[d];
    double p[3], w = 1, f;
    for (int d = 0; d < a.ndim; d++)
      p[d] = x[d][idx[d] + 1], w *= fac[d][2 * a.n[d] + idx[d]];
    ex_mms_eval(&mms, p, &u[i], &f);
    b[i] = w * f;
    umax = fmax(umax, fabs(u[i]));
  }
  memcpy(y, b, total * sizeof *y);

  double t_plan, t_solve; /* y: f in, solution out */
  if ((st = ex_plan_solve(&a, &prob, y, &ctx, &plan, &t_plan, &t_solve)) != PSCR_OK)
    goto cleanup;

  double err = 0;
  for (size_t i = 0; i < total; i++)
    err = fmax(err, fabs(y[i] - u[i]));
  ex_kron_apply(&prob, y, u, w1, w2); /* u <- A y */
  double res = ex_rel_diff(PSCR_F64, total, b, u), bwd = ex_backward_error(&prob, y, b, u);

  printf("libpscr Poisson %dD: ", a.ndim);
  for (int d = 0; d < a.ndim; d++)
    printf("%s%zu", d ? " x " : "", a.n[d]);
  printf(" unknowns, %s mesh, backend %s, radix %d, threads %d\n", ex_mesh_names[a.mesh],
         ex_backend_name(a.backend), a.radix, a.threads);
  ex_print_run(t_plan, t_solve, plan, res, bwd);
  printf("  max nodal error         %.3e (relative %.3e)\n", err, err / umax);
  rc = 0;
  goto cleanup;
oom:
  st = PSCR_ERR_OUT_OF_MEMORY;
cleanup:
  rc = ex_finish("poisson", st, rc, plan, ctx);
  for (int d = 0; d < 3; d++)
    free(x[d]), free(h[d]), free(fac[d]);
  free(u), free(b), free(y), free(w1), free(w2);
  return rc;
}
