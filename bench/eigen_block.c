/* pscr_eigen_block timings (one thread): 2D Poisson factor pairs (lumped
 * diagonal M and consistent tridiagonal M) and the Helmholtz pair of seed 003
 * (33)-(35), for single blocks of order m and for the whole set of blocks a
 * radix-4 PSCR plan of n = 4^k - 1 needs (q^(k-i) blocks of order 4^i - 1,
 * seed 003 (22)-(23)), with q + 1 = 5 wanted components per eigenvector.
 * One JSON line per measurement: median wall and thread-CPU seconds over the runs.
 * usage: bench_eigen_block [max_m (default 4095)] [runs (default 3)] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/timer.h"
#include "eigen/eigen.h"
#include "testing.h"

typedef double complex C;

/* Poisson (kind 0 lumped, 1 consistent) or Helmholtz (kind 2) with h = 1/(m+1). */
static void pair(int kind, size_t m, C *ad, C *ao, C *md, C *mo) {
  double h = 1.0 / (double)(m + 1), om = 20;
  for (size_t i = 0; i < m; i++) {
    ad[i] = 2 / h, ao[i] = -1 / h, md[i] = kind == 0 ? h : 2 * h / 3, mo[i] = h / 6;
  }
  if (kind == 2) {
    ad[0] += -1 / h - I * om / 2, md[0] += -h / 3 + I / (2 * om);
    ad[m - 1] += -1 / h - I * om / 2, md[m - 1] += -h / 3 + I / (2 * om);
  }
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* CPU seconds of this thread: robust on a shared machine (one thread here). */
static double cpu_time(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wall and CPU seconds for all blocks sizes[0..nb) with counts[], medians over runs. */
static double timed(int kind, const size_t *sizes, const size_t *counts, size_t nb, int runs,
                    pscr_status *st, double *cpu) {
  pscr_dtype t = kind == 2 ? PSCR_C128 : PSCR_F64;
  double *tm = malloc(2 * (size_t)runs * sizeof *tm), *tc = tm + runs;
  *st = PSCR_OK;
  for (int r = 0; r < runs; r++) {
    tm[r] = tc[r] = 0;
    for (size_t b = 0; b < nb; b++) {
      size_t m = sizes[b], rows[5];
      C *z = pt_alloc(PSCR_C128, 4 * m);
      pair(kind, m, z, z + m, z + 2 * m, z + 3 * m);
      void *ad = pt_alloc(t, m), *ao = pt_alloc(t, m), *md = pt_alloc(t, m), *mo = pt_alloc(t, m);
      for (size_t i = 0; i < m; i++) {
        pt_set(t, ad, i, z[i]), pt_set(t, ao, i, z[m + i]);
        pt_set(t, md, i, z[2 * m + i]), pt_set(t, mo, i, z[3 * m + i]);
      }
      for (size_t k = 0; k < 5; k++) rows[k] = k * (m - 1) / 4;
      void *lam = pt_alloc(t, m), *comp = pt_alloc(t, 5 * m);
      double t0 = pscr_wtime(), c0 = cpu_time();
      for (size_t c = 0; c < counts[b]; c++) {
        pscr_status s = pscr_eigen_block(t, m, ad, ao, md, kind == 0 ? NULL : mo, 5, rows, lam, comp);
        if (s != PSCR_OK) *st = s;
      }
      tm[r] += pscr_wtime() - t0, tc[r] += cpu_time() - c0;
      free(z), free(ad), free(ao), free(md), free(mo), free(lam), free(comp);
    }
  }
  qsort(tm, (size_t)runs, sizeof *tm, cmp);
  qsort(tc, (size_t)runs, sizeof *tc, cmp);
  double med = tm[runs / 2];
  *cpu = tc[runs / 2];
  free(tm);
  return med;
}

int main(int argc, char **argv) {
  size_t max_m = argc > 1 ? strtoull(argv[1], NULL, 10) : 4095;
  int runs = argc > 2 ? atoi(argv[2]) : 3;
  if (runs < 1) runs = 1;
  const char *names[3] = {"poisson-lumped", "poisson-fem", "helmholtz"};
  for (int kind = 0; kind < 3; kind++) {
    for (size_t k = 5, n = 1023; n <= max_m; k++, n = 4 * n + 3) {
      pscr_status st;
      double cpu, one = timed(kind, &n, (size_t[]){1}, 1, runs, &st, &cpu);
      printf("{\"what\":\"eigen_block\",\"pair\":\"%s\",\"dtype\":\"%s\",\"m\":%zu,\"nrows\":5,"
             "\"median_s\":%.4f,\"median_cpu_s\":%.4f,\"status\":\"%s\"}\n",
             names[kind], kind == 2 ? "c128" : "f64", n, one, cpu, pscr_status_string(st));
      size_t sizes[16], counts[16], nb = 0;
      for (size_t i = 1, q = 4; i <= k; i++, q *= 4) sizes[nb] = q - 1, counts[nb++] = (n + 1) / q;
      double all = timed(kind, sizes, counts, nb, runs, &st, &cpu);
      printf("{\"what\":\"eigen_plan_blocks\",\"pair\":\"%s\",\"dtype\":\"%s\",\"n\":%zu,\"radix\":4,"
             "\"median_s\":%.4f,\"median_cpu_s\":%.4f,\"status\":\"%s\"}\n",
             names[kind], kind == 2 ? "c128" : "f64", n, all, cpu, pscr_status_string(st));
      fflush(stdout);
    }
  }
  return 0;
}
