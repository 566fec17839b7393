/* P+PT phase profile (diagnostic): one 2^LOG system, F64, random dominant
 * rows; for each (threads, levels, tile) of the lists, the best and the median
 * of REPS solves and the per-phase seconds (best solve) of thread 0 and the
 * slowest thread. Link against
 * a static libpscr built with -DPSCR_PT_PROFILE=1 (tools/host_pt.sh). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pscr/pscr.h>

extern double td_pt_phase[64][4];

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  int lg = argc > 1 ? atoi(argv[1]) : 25, reps = argc > 2 ? atoi(argv[2]) : 5;
  const char *th = argc > 3 ? argv[3] : "16", *lv = argc > 4 ? argv[4] : "2,3,4";
  const char *tl = argc > 5 ? argv[5] : "8192";
  size_t n = (size_t)1 << lg;
  double *dl = malloc(n * 8), *d = malloc(n * 8), *du = malloc(n * 8), *b = malloc(n * 8),
         *b0 = malloc(n * 8);
  srand(1);
#pragma omp parallel for
  for (long long i = 0; i < (long long)n; i++) {
    unsigned s = (unsigned)i * 2654435761u;
    dl[i] = (s % 1000) / 1000.0 - .5, du[i] = ((s >> 10) % 1000) / 1000.0 - .5;
    d[i] = ((s >> 20) & 1 ? 1 : -1) * (fabs(dl[i]) + fabs(du[i]) + 0.5);
    b0[i] = ((s >> 5) % 997) / 997.0 - .5;
  }
  pscr_context *ctx;
  pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx);
  setenv("PSCR_PCR_THOMAS_VARIANT", "3", 1);
  for (const char *t = th; t && *t; t = strchr(t, ',') ? strchr(t, ',') + 1 : NULL)
    for (const char *l = lv; l && *l; l = strchr(l, ',') ? strchr(l, ',') + 1 : NULL)
      for (const char *s = tl; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) {
        int nt = atoi(t);
        char lb[16], sb[16];
        snprintf(lb, sizeof lb, "%d", atoi(l)), snprintf(sb, sizeof sb, "%d", atoi(s));
        setenv("PSCR_PCR_THOMAS_LEVELS", lb, 1), setenv("PSCR_PT_TILE", sb, 1);
        pscr_context_set_threads(ctx, nt);
        double best = 1e9, ph[64][4], ts[64];
        for (int r = 0; r <= reps; r++) {
          memcpy(b, b0, n * 8);
          double t0 = now();
          int st = pscr_tridiag_solve(ctx, PSCR_TD_PCR_THOMAS, PSCR_F64, n, 1, n, dl, d, du, b, NULL);
          double dt = now() - t0;
          if (st) { printf("status %d\n", st); return 1; }
          if (r > 0 && r <= 64) ts[r - 1] = dt;
          if (r > 0 && dt < best) best = dt, memcpy(ph, td_pt_phase, sizeof ph);
        }
        double mx[4] = {0};
        for (int q = 0; q < nt && q < 64; q++)
          for (int k = 0; k < 4; k++) mx[k] = ph[q][k] > mx[k] ? ph[q][k] : mx[k];
        double rm = 0, bm = 0;
        for (size_t i = 0; i < n; i += 997) {
          double r = d[i] * b[i] - b0[i] + (i ? dl[i] * b[i - 1] : 0) + (i + 1 < n ? du[i] * b[i + 1] : 0);
          rm = fabs(r) > rm ? fabs(r) : rm, bm = fabs(b0[i]) > bm ? fabs(b0[i]) : bm;
        }
        int m = reps < 64 ? reps : 64;
        for (int i = 1; i < m; i++) /* insertion sort: the median */
          for (int k = i; k > 0 && ts[k] < ts[k - 1]; k--) {
            double x = ts[k];
            ts[k] = ts[k - 1], ts[k - 1] = x;
          }
        printf("T=%2d L=%s S=%5s  %7.1f ms (median %.1f)  [tile %.1f fwd %.1f wait %.1f back %.1f] max, "
               "t0 [%.1f %.1f %.1f %.1f]  resid %.0e\n",
               nt, lb, sb, best * 1e3, m > 0 ? ts[m / 2] * 1e3 : 0, mx[0] * 1e3, mx[1] * 1e3, mx[2] * 1e3, mx[3] * 1e3,
               ph[0][0] * 1e3, ph[0][1] * 1e3, ph[0][2] * 1e3, ph[0][3] * 1e3, rm / bm);
        fflush(stdout);
      }
  pscr_context_destroy(ctx);
  return 0;
}
