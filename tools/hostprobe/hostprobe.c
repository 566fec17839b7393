/* Host probe: is a streaming tridiagonal solve on this machine bound by the
 * core (division latency) or by memory? Bare Thomas on n = 2^16 (in cache,
 * repeated) and 2^25 (streaming), 1 thread and all threads (each its own
 * system), plus 1-thread and all-thread read bandwidth. Build:
 * gcc -O2 -fopenmp hostprobe.c -o hostprobe */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "probe.h"

typedef struct { double *dl, *d, *du, *b, *c, *y; } sys;

static sys make(size_t n) {
  sys s;
  double **p[6] = {&s.dl, &s.d, &s.du, &s.b, &s.c, &s.y};
  for (int k = 0; k < 6; k++) *p[k] = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; i++)
    s.dl[i] = -1, s.du[i] = -1.2, s.d[i] = 4 + (i % 7) * 0.1, s.b[i] = (double)(i % 13) - 6,
    s.c[i] = s.y[i] = 0;
  return s;
}

int main(void) {
  int nt = omp_get_max_threads();
  size_t big = (size_t)1 << 25, small = (size_t)1 << 16;
  double sum = 0;
  for (int threads = 1; threads <= nt; threads = threads == 1 ? nt : nt + 1) {
    double ns_small = 0, ns_big = 0, rbw = 0;
#pragma omp parallel num_threads(threads) reduction(max : ns_small, ns_big, rbw) reduction(+ : sum)
    {
      size_t nb = big / (size_t)threads;
      sys s = make(small), t = make(nb);
      double t0 = now();
      for (int r = 0; r < 64; r++) bare_thomas(small, s.dl, s.d, s.du, s.b, s.c, s.y);
      ns_small = (now() - t0) / (64.0 * small) * 1e9;
#pragma omp barrier
      t0 = now();
      for (int r = 0; r < 3; r++) bare_thomas(nb, t.dl, t.d, t.du, t.b, t.c, t.y);
      ns_big = (now() - t0) / (3.0 * nb) * 1e9;
#pragma omp barrier
      t0 = now();
      double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      for (int r = 0; r < 3; r++)
        for (size_t i = 0; i + 4 <= nb; i += 4) a0 += t.d[i], a1 += t.d[i + 1], a2 += t.d[i + 2], a3 += t.d[i + 3];
      rbw = 3.0 * nb * 8 / (now() - t0) * 1e-9;
      sum += a0 + a1 + a2 + a3 + t.b[5] + s.b[5];
    }
    printf("threads %2d: thomas in cache %.2f ns/row, streaming (2^25 rows split) %.2f ns/row per thread"
           " = %.1f ms total; read %.1f GB/s per thread\n",
           threads, ns_small, ns_big, ns_big * (double)big / threads * 1e-6, rbw);
  }
  printf("(checksum %g)\n", sum);
  return 0;
}
