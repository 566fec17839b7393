/* libpscr demo: -Lap u = f on [0,1]^d (d = 2, 3), u = 0 on the boundary, piecewise linear
 * FEM on a uniform or graded orthogonal mesh (seed 003 eq. (31)), solved by radix-q PSCR.
 * The exact solution is u = sin(pi x) sin(2 pi y) [sin(pi z)] exp(x y [z]); the program
 * prints the max nodal error, the relative residual and the plan and solve times. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/example_util.h"

typedef struct {
  int ndim;
  size_t n[3];
  ex_mesh mesh;
  pscr_backend backend;
  int threads, radix;
} args;

static void usage(FILE *out) {
  fprintf(out, "usage: poisson [options]\n"
               "  --dim 2|3              dimension (default 2)\n"
               "  --n N                  unknowns per direction (default 1023 in 2D, 127 in 3D)\n"
               "  --n1 N --n2 N --n3 N   unknowns per direction, one at a time\n"
               "  --mesh uniform|graded|geometric   (graded: x = (1 - cos(pi s))/2)\n"
               "  --backend cpu|cuda|opencl         (default cpu)\n"
               "  --threads T            CPU threads, 0 = all (default 0)\n"
               "  --radix q              PSCR reduction factor (default 4)\n"
               "  --help\n");
}

/* 0 = run, 1 = --help, -1 = bad usage */
static int parse(int argc, char **argv, args *a) {
  *a = (args){.ndim = 2, .mesh = EX_MESH_UNIFORM, .backend = PSCR_BACKEND_CPU, .radix = 4};
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0)
      return 1;
    if (v == NULL)
      return fprintf(stderr, "poisson: %s needs a value\n", o), -1;
    i++;
    long k = strtol(v, NULL, 10);
    if (strcmp(o, "--dim") == 0 && (k == 2 || k == 3))
      a->ndim = (int)k;
    else if (strcmp(o, "--n") == 0 && k > 0)
      a->n[0] = a->n[1] = a->n[2] = (size_t)k;
    else if (strncmp(o, "--n", 3) == 0 && o[3] >= '1' && o[3] <= '3' && !o[4] && k > 0)
      a->n[o[3] - '1'] = (size_t)k;
    else if (strcmp(o, "--mesh") == 0 && ex_mesh_parse(v, &a->mesh))
      ;
    else if (strcmp(o, "--backend") == 0 && ex_backend_parse(v, &a->backend))
      ;
    else if (strcmp(o, "--threads") == 0 && k >= 0)
      a->threads = (int)k;
    else if (strcmp(o, "--radix") == 0 && k >= 2)
      a->radix = (int)k;
    else
      return fprintf(stderr, "poisson: bad option %s %s\n", o, v), -1;
  }
  for (int d = 0; d < 3; d++)
    if (a->n[d] == 0)
      a->n[d] = a->ndim == 2 ? 1023 : 127;
  return 0;
}

int main(int argc, char **argv) {
  args a;
  int pr = parse(argc, argv, &a);
  if (pr != 0) {
    usage(pr > 0 ? stdout : stderr);
    return pr > 0 ? 0 : 2;
  }
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
      goto fail;
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

  if ((st = pscr_context_create(a.backend, 0, &ctx)) != PSCR_OK)
    goto fail;
  if (a.backend == PSCR_BACKEND_CPU && (st = pscr_context_set_threads(ctx, a.threads)) != PSCR_OK)
    goto fail;
  pscr_options opt;
  pscr_options_default(&opt);
  opt.radix = a.radix, opt.threads = a.threads;
  double t0 = ex_wtime();
  if ((st = pscr_plan_create(ctx, &prob, &opt, &plan)) != PSCR_OK)
    goto fail;
  double t_plan = ex_wtime() - t0;
  t0 = ex_wtime();
  if ((st = pscr_solve(plan, y)) != PSCR_OK)
    goto fail; /* y: f in, solution out */
  double t_solve = ex_wtime() - t0;
  pscr_plan_info info;
  if ((st = pscr_plan_get_info(plan, &info)) != PSCR_OK)
    goto fail;

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
  printf("  plan time               %.4f s\n", t_plan);
  printf("  solve time              %.4f s (library: %.4f s)\n", t_solve, info.last_solve_seconds);
  printf("  max nodal error         %.3e (relative %.3e)\n", err, err / umax);
  printf("  relative residual       %.3e  (||f - A u||_2 / ||f||_2)\n", res);
  printf("  backward error          %.3e  (||f - A u|| / (||A|| ||u|| + ||f||), inf-norms)\n", bwd);
  rc = 0;
  goto cleanup;
oom:
  st = PSCR_ERR_OUT_OF_MEMORY;
fail:
  fprintf(stderr, "poisson: %s\n", pscr_status_string(st));
cleanup:
  pscr_plan_destroy(plan);
  pscr_context_destroy(ctx);
  for (int d = 0; d < 3; d++)
    free(x[d]), free(h[d]), free(fac[d]);
  free(u), free(b), free(y), free(w1), free(w2);
  return rc;
}
