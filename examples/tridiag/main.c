/* Solves one large random tridiagonal system with PSCR_TD_AUTO and reports the
 * residual, the algorithm the library chose and the time.
 *   tridiag [--n N] [--alg NAME] [--dominant] [--threads T] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pscr/pscr.h>

#include "testing.h"

int main(int argc, char **argv) {
  size_t n = (size_t)1 << 24;
  int threads = 0, dominant = 0;
  pscr_td_algorithm alg = PSCR_TD_AUTO;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--n") && i + 1 < argc) {
      n = strtoull(argv[++i], NULL, 0);
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--dominant")) {
      dominant = 1;
    } else if (!strcmp(argv[i], "--alg") && i + 1 < argc) {
      const char *name = argv[++i];
      int a = 0;
      while (a < PSCR_TD_ALGORITHM_COUNT && strcmp(name, pscr_td_algorithm_name((pscr_td_algorithm)a)))
        a++;
      if (a == PSCR_TD_ALGORITHM_COUNT) {
        fprintf(stderr, "unknown algorithm '%s'\n", name);
        return 2;
      }
      alg = (pscr_td_algorithm)a;
    } else {
      printf("usage: %s [--n N] [--alg auto|thomas|cr|pcr|pcr_thomas|spike_diag_pivot|gspike|lapack]"
             " [--dominant] [--threads T]\n"
             "Solves a random tridiagonal system (U(-1,1) entries, or strictly diagonally\n"
             "dominant with --dominant) and prints the relative residual and the time.\n",
             argv[0]);
      return !strcmp(argv[i], "--help") ? 0 : 2;
    }
  }
  pt_rng r;
  pt_rng_seed(&r, 20261122);
  double *dl = malloc(n * sizeof *dl), *d = malloc(n * sizeof *d), *du = malloc(n * sizeof *du);
  double *b = malloc(n * sizeof *b), *x = malloc(n * sizeof *x);
  if (!dl || !d || !du || !b || !x) {
    fprintf(stderr, "out of memory for n = %zu\n", n);
    return 1;
  }
  if (dominant)
    pt_fill_dominant(&r, PSCR_F64, n, 1, n, dl, d, du, 0.1);
  else
    for (size_t i = 0; i < n; i++)
      dl[i] = pt_uniform(&r, -1, 1), d[i] = pt_uniform(&r, -1, 1), du[i] = pt_uniform(&r, -1, 1);
  for (size_t i = 0; i < n; i++) b[i] = x[i] = pt_uniform(&r, -1, 1);

  pscr_context *ctx = NULL;
  pscr_td_report rep;
  pscr_status st = pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx);
  if (st == PSCR_OK) st = pscr_context_set_threads(ctx, threads);
  if (st == PSCR_OK) st = pscr_tridiag_solve(ctx, alg, PSCR_F64, n, 1, n, dl, d, du, x, &rep);
  pscr_context_destroy(ctx);
  if (st != PSCR_OK) {
    fprintf(stderr, "pscr_tridiag_solve: %s\n", pscr_status_string(st));
    return 1;
  }
  double berr = pt_backward_error(PSCR_F64, n, dl, d, du, x, b);
  printf("n = %zu (%s), algorithm %s (%d partitions)\n", n, dominant ? "dominant" : "U(-1,1)",
         pscr_td_algorithm_name(rep.used), rep.partitions);
  printf("normwise backward error %.2e, solve time %.3f s\n", berr, rep.seconds);
  free(dl), free(d), free(du), free(b), free(x);
  return berr < 1e-12 ? 0 : 1;
}
