/* What the host probes share: a monotonic clock and the bare Thomas loop
 * (no checks, no scratch reuse) that the library's solvers are held against. */
#ifndef PSCR_TOOLS_PROBE_H
#define PSCR_TOOLS_PROBE_H

#include <stddef.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void bare_thomas(size_t n, const double *dl, const double *d, const double *du, double *b,
                        double *c, double *y) {
  double piv = d[0];
  c[0] = du[0] / piv, y[0] = b[0] / piv;
  for (size_t i = 1; i < n; i++) {
    piv = d[i] - dl[i] * c[i - 1];
    c[i] = du[i] / piv;
    y[i] = (b[i] - dl[i] * y[i - 1]) / piv;
  }
  b[n - 1] = y[n - 1];
  for (size_t i = n - 1; i-- > 0;) b[i] = y[i] - c[i] * b[i + 1];
}

#endif
