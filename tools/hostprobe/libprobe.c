/* Library vs bare loop on the same data (constant-coefficient and random
 * dominant with random signs, as bench_tridiag_cpu), n = 2^25: THOMAS at one
 * thread, PCR_THOMAS and SPIKE_DIAG_PIVOT at all threads. Build against a
 * build tree: gcc -O2 -fopenmp -I include libprobe.c -L build -lpscr */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <pscr/pscr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe.h"

static double med3(double a, double b, double c) {
  return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
}

int main(void) {
  size_t n = (size_t)1 << 25;
  int nt = omp_get_max_threads();
  double *dl = malloc(n * 8), *d = malloc(n * 8), *du = malloc(n * 8), *b0 = malloc(n * 8),
         *b = malloc(n * 8), *c = malloc(n * 8), *y = malloc(n * 8);
  pscr_context *ctx;
  if (pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx) != PSCR_OK) return 1;
  uint64_t s = 88172645463325252ull;
  for (int dd = 0; dd < 2; dd++) {
    int data = getenv("SWAP") ? 1 - dd : dd;
    if (getenv("DATA") && atoi(getenv("DATA")) != data) continue;
    for (size_t i = 0; i < n; i++) {
      if (data == 0) {
        dl[i] = -1, du[i] = -1.2, d[i] = 4 + (i % 7) * 0.1;
      } else {
        double u[3];
        for (int k = 0; k < 3; k++) s ^= s << 13, s ^= s >> 7, s ^= s << 17, u[k] = (s >> 11) * 0x1p-53;
        dl[i] = 2 * u[0] - 1, du[i] = 2 * u[1] - 1;
        double mag = (dl[i] < 0 ? -dl[i] : dl[i]) + (du[i] < 0 ? -du[i] : du[i]) + 0.1;
        d[i] = 1.5 * mag * (u[2] < 0.5 ? -1 : 1);
      }
      b0[i] = (double)(i % 13) - 6, c[i] = y[i] = 0;
    }
    const char *name[4] = {"bare thomas 1T", "THOMAS 1T", "PCR_THOMAS all", "SPIKE_DP all"};
    if (getenv("DATA") && atoi(getenv("DATA")) != data) continue;
    for (int v = 0; v < 4; v++) {
      if (getenv("ONLY") && atoi(getenv("ONLY")) != v) continue; /* 0 bare .. 3 SPIKE_DP */
      double t[3];
      for (int r = -1; r < 3; r++) {
        memcpy(b, b0, n * 8);
        double t0 = now();
        if (v == 0) bare_thomas(n, dl, d, du, b, c, y);
        else {
          pscr_context_set_threads(ctx, v == 1 ? 1 : nt);
          pscr_td_algorithm a = v == 1 ? PSCR_TD_THOMAS : v == 2 ? PSCR_TD_PCR_THOMAS : PSCR_TD_SPIKE_DIAG_PIVOT;
          if (pscr_tridiag_solve(ctx, a, PSCR_F64, n, 1, n, dl, d, du, b, NULL) != PSCR_OK) return 2;
        }
        if (r >= 0) t[r] = now() - t0;
      }
      printf("%s data, %-16s %8.1f ms  (%.1f ns/row)\n", data ? "random  " : "constant", name[v],
             med3(t[0], t[1], t[2]) * 1e3, med3(t[0], t[1], t[2]) / n * 1e9);
    }
  }
  pscr_context_destroy(ctx);
  return 0;
}
