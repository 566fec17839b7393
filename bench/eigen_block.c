/* pscr_eigen_block timings: 2D Poisson factor pairs (lumped diagonal M and
 * consistent tridiagonal M) and the Helmholtz pair of seed 003 (33)-(35).
 * For each n = 1023, 2047, 4095, 8191 up to max_m:
 *  - eigen_block: the single block of order n (the last step of a plan),
 *    q + 1 = 5 wanted components per eigenvector, at one thread and at T
 *    threads (its chunks as OpenMP tasks), with "same": the result is
 *    bitwise the one-thread result;
 *  - eigen_plan_blocks: every block a radix-4 2D plan of order n solves (seed
 *    003 (22)-(23)), at one thread and at T threads with the plan's schedule
 *    (largest block first, dynamic; a block's chunks as tasks);
 *  - eigen_plan_extrapolated: that T-thread time predicted for 16 threads
 *    from the measured one-thread costs of each block's eigenvalues
 *    (sequential) and vectors (chunks of EIGEN_CHUNK), by replaying the
 *    schedule: on a small machine the 16-thread figure cannot be measured.
 *    A real Toeplitz block (every Poisson block: uniform mesh) takes the
 *    closed form, one sequential piece: its whole cost counts as eigenvalues.
 * One JSON line per measurement: median wall (and thread-CPU at one thread)
 * seconds over the runs.
 * usage: bench_eigen_block [max_m (default 4095)] [runs (default 3)] [T (default all)] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/timer.h"
#include "eigen/eigen.h"
#include "eigen/eigen_impl.h"
#include "pscr/pscr_internal.h"
#include "testing.h"

typedef double complex C;

#define CHUNK 256 /* EIGEN_CHUNK of src/eigen/invit_tmpl.h */

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

static double cpu_time(void) { /* CPU seconds of this thread */
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double median(double *x, int n) {
  qsort(x, (size_t)n, sizeof *x, cmp);
  return x[n / 2];
}

/* The pair of order n in dtype t: ad, ao, md, mo (mo NULL for the lumped pair). */
typedef struct {
  pscr_dtype t;
  size_t n;
  void *f[4];
} fac;

static fac make(int kind, size_t n) {
  fac F = {kind == 2 ? PSCR_C128 : PSCR_F64, n, {NULL}};
  C *z = pt_alloc(PSCR_C128, 4 * n);
  pair(kind, n, z, z + n, z + 2 * n, z + 3 * n);
  for (int k = 0; k < 4; k++) {
    F.f[k] = pt_alloc(F.t, n);
    for (size_t i = 0; i < n; i++) pt_set(F.t, F.f[k], i, z[(size_t)k * n + i]);
  }
  if (kind == 0) free(F.f[3]), F.f[3] = NULL;
  free(z);
  return F;
}

/* One block [s, s + m) of F with the components rows[0..nr). */
static pscr_status block(const fac *F, size_t s, size_t m, size_t nr, const size_t *rows,
                         void *lam, void *comp) {
  size_t e = pt_size(F->t);
  const char *f[4];
  for (int k = 0; k < 4; k++) f[k] = F->f[k] ? (const char *)F->f[k] + s * e : NULL;
  return pscr_eigen_block(F->t, m, f[0], m > 1 ? f[1] : NULL, f[2], m > 1 ? f[3] : NULL, nr, rows,
                          lam, comp);
}

/* The blocks of a radix-4 2D plan of order n, largest first (plan.c's order). */
typedef struct {
  size_t s, m, nr, rows[8];
  double eig_s, vec_s; /* one-thread costs: eigenvalues, vectors */
  int closed;          /* Toeplitz: closed form, no chunks */
} job;

static int job_cmp(const void *x, const void *y) {
  size_t a = ((const job *)x)->m, b = ((const job *)y)->m;
  return a < b ? 1 : a > b ? -1 : 0;
}

static job *plan_jobs(size_t n, size_t *njobs) {
  pscr_level L = {.n = n, .len = 1, .innermost = 1, .batch_max = 1};
  int *lev = malloc(n * sizeof *lev);
  size_t a, b, c, d, nj = 0;
  pscr_partition_levels(n, 4, lev);
  job *J = NULL;
  if (pscr_level_schedule(&L, lev, 4, 1, &a, &b, &c, &d) == PSCR_OK) {
    for (int i = 0; i < L.nsteps; i++) nj += L.steps[i].nblocks;
    J = calloc(nj, sizeof *J);
    nj = 0;
    for (int i = 0; i < L.nsteps && J; i++)
      for (size_t k = 0; k < L.steps[i].nblocks; k++) {
        const pscr_block *bl = &L.steps[i].blocks[k];
        job *j = &J[nj++];
        j->s = bl->s, j->m = bl->m, j->nr = 2 + (bl->nd < 6 ? bl->nd : 6);
        j->rows[0] = 0, j->rows[1] = bl->m - 1;
        for (size_t r = 2; r < j->nr; r++) j->rows[r] = L.steps[i].dpos[bl->d + r - 2];
      }
    if (J) qsort(J, nj, sizeof *J, job_cmp);
  }
  pscr_level_free_schedule(&L);
  free(lev);
  *njobs = nj;
  return J;
}

/* All jobs with `threads` threads as pscr_plan_create runs them. */
static double run_jobs(const fac *F, job *J, size_t nj, int threads, pscr_status *st) {
  size_t e = pt_size(F->t);
  double t0 = pscr_wtime();
  long long n = (long long)nj;
#pragma omp parallel for num_threads(threads) if (threads > 1) schedule(dynamic, 1)
  for (long long k = 0; k < n; k++) {
    void *lam = malloc(J[k].m * e), *comp = malloc(J[k].m * J[k].nr * e);
    pscr_status s = lam && comp ? block(F, J[k].s, J[k].m, J[k].nr, J[k].rows, lam, comp)
                                : PSCR_ERR_OUT_OF_MEMORY;
    if (s != PSCR_OK) {
#pragma omp critical(bench_eigen_status)
      *st = s;
    }
    free(lam), free(comp);
  }
  return pscr_wtime() - t0;
}

/* One-thread costs per job (blocks of one order cost alike: measured once per order). */
static void job_costs(const fac *F, job *J, size_t nj) {
  size_t e = pt_size(F->t), mmax = J[0].m;
  void *lam = malloc(mmax * e), *work = malloc(11 * mmax * e), *comp = malloc(8 * mmax * e);
  for (size_t k = 0; k < nj; k++) {
    if (k > 0 && J[k].m == J[k - 1].m) {
      J[k].eig_s = J[k - 1].eig_s, J[k].vec_s = J[k - 1].vec_s, J[k].closed = J[k - 1].closed;
      continue;
    }
    const char *f[4];
    for (int q = 0; q < 4; q++) f[q] = F->f[q] ? (const char *)F->f[q] + J[k].s * e : NULL;
    J[k].closed = F->t == PSCR_F64 &&
                  eigen_is_toeplitz_d(J[k].m, (const double *)f[0], (const double *)f[1],
                                      (const double *)f[2], J[k].m > 1 ? (const double *)f[3] : NULL);
    double c0 = cpu_time();
    if (J[k].closed) {
      block(F, J[k].s, J[k].m, J[k].nr, J[k].rows, lam, comp);
      J[k].eig_s = cpu_time() - c0, J[k].vec_s = 0;
      continue;
    }
    if (F->t == PSCR_F64)
      eigen_values_d(J[k].m, (const double *)f[0], (const double *)f[1], (const double *)f[2],
                     J[k].m > 1 ? (const double *)f[3] : NULL, lam, work);
    else
      eigen_values_z(J[k].m, (const C *)f[0], (const C *)f[1], (const C *)f[2],
                     J[k].m > 1 ? (const C *)f[3] : NULL, lam, work);
    double c1 = cpu_time();
    block(F, J[k].s, J[k].m, J[k].nr, J[k].rows, lam, comp);
    double c2 = cpu_time();
    J[k].eig_s = c1 - c0, J[k].vec_s = c2 - c1 > c1 - c0 ? (c2 - c1) - (c1 - c0) : 0;
  }
  free(lam), free(work), free(comp);
}

/* The plan's schedule replayed on P threads: blocks largest first to the first
 * free thread; a block of more than one chunk releases its chunks when its
 * eigenvalues are done, and idle threads take them once no block is left. */
static double replay(const job *J, size_t nj, int P) {
  double tf[64] = {0}, *ready = NULL, *dur = NULL;
  size_t nt = 0, cap = 0;
  for (size_t k = 0; k < nj; k++) {
    int th = 0;
    for (int q = 1; q < P; q++)
      if (tf[q] < tf[th]) th = q;
    double r = tf[th] + J[k].eig_s;
    size_t nc = !J[k].closed && J[k].m >= CHUNK + CHUNK / 2 ? J[k].m / CHUNK : 1;
    if (nc == 1) {
      tf[th] = r + J[k].vec_s;
      continue;
    }
    if (nt + nc > cap) {
      cap = 2 * (nt + nc);
      ready = realloc(ready, cap * sizeof *ready), dur = realloc(dur, cap * sizeof *dur);
      if (!ready || !dur) abort();
    }
    for (size_t c = 0; c < nc; c++) ready[nt] = r, dur[nt++] = J[k].vec_s / (double)nc;
    tf[th] = r;
  }
  for (size_t k = 0; k < nt; k++) { /* tasks in release order */
    int th = 0;
    for (int q = 1; q < P; q++)
      if (tf[q] < tf[th]) th = q;
    tf[th] = (tf[th] > ready[k] ? tf[th] : ready[k]) + dur[k];
  }
  double end = 0;
  for (int q = 0; q < P; q++) end = end > tf[q] ? end : tf[q];
  free(ready), free(dur);
  return end;
}

int main(int argc, char **argv) {
  size_t max_m = argc > 1 ? strtoull(argv[1], NULL, 10) : 4095;
  int runs = argc > 2 ? atoi(argv[2]) : 3, T = argc > 3 ? atoi(argv[3]) : 0;
  if (runs < 1) runs = 1;
#ifdef _OPENMP
  if (T < 1) T = omp_get_max_threads();
#else
  T = 1;
#endif
  const char *names[3] = {"poisson-lumped", "poisson-fem", "helmholtz"};
  double *tw = malloc(3 * (size_t)runs * sizeof *tw), *tc = tw + runs, *tt = tc + runs;
  for (int kind = 0; kind < 3; kind++)
    for (size_t n = 1023; n <= max_m; n = 2 * n + 1) {
      fac F = make(kind, n);
      const char *dt = F.t == PSCR_C128 ? "c128" : "f64";
      size_t e = pt_size(F.t), rows[5];
      for (size_t k = 0; k < 5; k++) rows[k] = k * (n - 1) / 4;
      void *l1 = pt_alloc(F.t, n), *c1 = pt_alloc(F.t, 5 * n);
      void *l2 = pt_alloc(F.t, n), *c2 = pt_alloc(F.t, 5 * n);
      pscr_status st = PSCR_OK, s2 = PSCR_OK;
      for (int r = 0; r < runs; r++) {
        double t0 = pscr_wtime(), c0 = cpu_time();
        pscr_status s = block(&F, 0, n, 5, rows, l1, c1);
        tw[r] = pscr_wtime() - t0, tc[r] = cpu_time() - c0;
        if (s != PSCR_OK) st = s;
        t0 = pscr_wtime();
#pragma omp parallel num_threads(T)
#pragma omp single
        s2 = block(&F, 0, n, 5, rows, l2, c2);
        tt[r] = pscr_wtime() - t0;
      }
      int same = pt_equal_bytes(l1, l2, n * e) && pt_equal_bytes(c1, c2, 5 * n * e);
      printf("{\"what\":\"eigen_block\",\"pair\":\"%s\",\"dtype\":\"%s\",\"m\":%zu,\"nrows\":5,"
             "\"threads\":1,\"median_s\":%.4f,\"median_cpu_s\":%.4f,\"status\":\"%s\"}\n",
             names[kind], dt, n, median(tw, runs), median(tc, runs), pscr_status_string(st));
      printf("{\"what\":\"eigen_block\",\"pair\":\"%s\",\"dtype\":\"%s\",\"m\":%zu,\"nrows\":5,"
             "\"threads\":%d,\"median_s\":%.4f,\"same\":%s,\"status\":\"%s\"}\n",
             names[kind], dt, n, T, median(tt, runs), same ? "true" : "false",
             pscr_status_string(s2));
      free(l1), free(c1), free(l2), free(c2);

      size_t nj;
      job *J = plan_jobs(n, &nj);
      if (J == NULL) {
        fprintf(stderr, "bench_eigen_block: no schedule for n = %zu\n", n);
        return 1;
      }
      st = s2 = PSCR_OK;
      for (int r = 0; r < runs; r++) {
        double c0 = cpu_time();
        tw[r] = run_jobs(&F, J, nj, 1, &st), tc[r] = cpu_time() - c0;
        tt[r] = run_jobs(&F, J, nj, T, &s2);
      }
      job_costs(&F, J, nj);
      printf("{\"what\":\"eigen_plan_blocks\",\"pair\":\"%s\",\"dtype\":\"%s\",\"n\":%zu,"
             "\"radix\":4,\"blocks\":%zu,\"threads\":1,\"median_s\":%.4f,\"median_cpu_s\":%.4f,"
             "\"status\":\"%s\"}\n",
             names[kind], dt, n, nj, median(tw, runs), median(tc, runs), pscr_status_string(st));
      printf("{\"what\":\"eigen_plan_blocks\",\"pair\":\"%s\",\"dtype\":\"%s\",\"n\":%zu,"
             "\"radix\":4,\"blocks\":%zu,\"threads\":%d,\"median_s\":%.4f,\"status\":\"%s\"}\n",
             names[kind], dt, n, nj, T, median(tt, runs), pscr_status_string(s2));
      printf("{\"what\":\"eigen_plan_extrapolated\",\"pair\":\"%s\",\"dtype\":\"%s\",\"n\":%zu,"
             "\"radix\":4,\"threads\":16,\"median_s\":%.4f,\"largest_eigenvalues_s\":%.4f,"
             "\"largest_vectors_s\":%.4f,\"one_thread_s\":%.4f}\n",
             names[kind], dt, n, replay(J, nj, 16), J[0].eig_s, J[0].vec_s, replay(J, nj, 1));
      fflush(stdout);
      free(J);
      for (int k = 0; k < 4; k++) free(F.f[k]);
    }
  free(tw);
  return 0;
}
