/* pscr_eigen_block timings: 2D Poisson factor pairs (lumped diagonal M and
 * consistent tridiagonal M), the Helmholtz pair of seed 003 (33)-(35) and a
 * graded-mesh FEM pair (sinh-graded mesh, h_max / h_min ~ 27: not Toeplitz,
 * so every block takes the general path). For each n = 1023, 2047, 4095,
 * 8191 up to max_m:
 *  - eigen_values (graded pair only): the eigenvalues of the block of order
 *    n alone (eigen_values_d: in chunks as tasks from EIGEN_STURM_MIN on) at
 *    one thread and at T threads ("same": bitwise), against the old path,
 *    reduction (dpbstf + dsbgst) and LAPACK dsterf, at one thread;
 *  - eigen_block: the single block of order n (the last step of a plan),
 *    q + 1 = 5 wanted components per eigenvector, at one thread and at T
 *    threads (its chunks as OpenMP tasks), with "same": the result is
 *    bitwise the one-thread result;
 *  - eigen_plan_blocks: every block a radix-4 2D plan of order n solves (seed
 *    003 (22)-(23)), at one thread and at T threads with the plan's schedule
 *    (largest block first, dynamic; a block's chunks as tasks);
 *  - eigen_plan_extrapolated: that T-thread time predicted for 16 threads
 *    from the measured one-thread costs of each block's eigenvalues
 *    (chunks of EIGEN_STURM_CHUNK for a real block of order >=
 *    EIGEN_STURM_MIN, else sequential) and vectors (chunks of about
 *    EIGEN_CHUNK, cut only at gaps wider than EIGEN_CLUSTER max|lambda| by
 *    the library's eigen_chunk_cuts: few or none where the spectrum is dense
 *    against its largest eigenvalue, as on graded meshes), by replaying the
 *    schedule: on a small machine the 16-thread figure cannot be measured. A real Toeplitz block (every Poisson block: uniform
 *    mesh) takes the closed form, one sequential piece: its whole cost counts
 *    as eigenvalues.
 * One JSON line per measurement: median wall (and thread-CPU at one thread)
 * seconds over the runs.
 * usage: bench_eigen_block [max_m (default 4095)] [runs (default 3)] [T (default all)]
 *                          [pair (default all): poisson-lumped, poisson-fem, helmholtz, graded-fem] */
#include <float.h>
#include <lapacke.h>
#include <math.h>
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


#define NKINDS 4
#define GRADED 3 /* the graded-mesh kind */

/* Poisson (kind 0 lumped, 1 consistent) or Helmholtz (kind 2) with h = 1/(m+1);
 * kind 3: linear FEM on the sinh-graded mesh x_j = (1 + sinh(s (2 t_j - 1)) /
 * sinh(s)) / 2, t_j = j / (m + 1), s = 4, with h_j = x_{j+1} - x_j:
 * A_ii = 1/h_{i-1} + 1/h_i, A_i,i+1 = -1/h_i, M_ii = (h_{i-1} + h_i)/3,
 * M_i,i+1 = h_i/6 (here 0-based: row i between h_i and h_{i+1}). */
static void pair(int kind, size_t m, C *ad, C *ao, C *md, C *mo) {
  double h = 1.0 / (double)(m + 1), om = 20;
  if (kind == GRADED) {
    double s = 4, hp = 0;
    for (size_t j = 0; j <= m; j++) {
      double t0 = (double)j / (double)(m + 1), t1 = (double)(j + 1) / (double)(m + 1);
      double hj = 0.5 * (sinh(s * (2 * t1 - 1)) - sinh(s * (2 * t0 - 1))) / sinh(s);
      if (j > 0) ad[j - 1] = 1 / hp + 1 / hj, ao[j - 1] = -1 / hj, md[j - 1] = (hp + hj) / 3, mo[j - 1] = hj / 6;
      hp = hj;
    }
    return;
  }
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
  size_t ne, nv;       /* chunks (tasks) of the eigenvalues, of the vectors */
  double *vfrac;       /* each vector chunk's share of vec_s (nv; owned where vown) */
  int vown;
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

static int cmp_re(const void *a, const void *b) {
  double x = creal(*(const C *)a), y = creal(*(const C *)b);
  return x < y ? -1 : x > y;
}

/* The vector chunks of a block with eigenvalues lam (m of dtype t; sorted
 * here), cut by the library's eigen_chunk_cuts. Each chunk's share of the
 * vectors' cost is taken as its share of the eigenvalues. @return the
 * number of chunks; *frac: their shares (malloc). */
static size_t vector_chunks(pscr_dtype t, size_t m, const void *lam, double **frac) {
  C *z = malloc(m * sizeof *z);
  size_t *cut = malloc((m / EIGEN_CHUNK + 2) * sizeof *cut);
  if (z == NULL || cut == NULL) abort();
  double lmax = 0;
  for (size_t i = 0; i < m; i++) z[i] = pt_get(t, lam, i), lmax = fmax(lmax, cabs(z[i]));
  qsort(z, m, sizeof *z, cmp_re);
  size_t nc = eigen_chunk_cuts(m, (const double *)z, 2, eigen_cluster_delta(m, lmax), cut);
  *frac = malloc(nc * sizeof **frac);
  if (*frac == NULL) abort();
  for (size_t c = 0; c < nc; c++) (*frac)[c] = (double)(cut[c + 1] - cut[c]) / (double)m;
  free(z), free(cut);
  return nc;
}

/* One-thread costs per job (blocks of one order cost alike: measured once per order). */
static void job_costs(const fac *F, job *J, size_t nj) {
  size_t e = pt_size(F->t), mmax = J[0].m;
  void *lam = malloc(mmax * e), *work = malloc(11 * mmax * e), *comp = malloc(8 * mmax * e);
  for (size_t k = 0; k < nj; k++) {
    if (k > 0 && J[k].m == J[k - 1].m) {
      J[k].eig_s = J[k - 1].eig_s, J[k].vec_s = J[k - 1].vec_s, J[k].closed = J[k - 1].closed;
      J[k].ne = J[k - 1].ne, J[k].nv = J[k - 1].nv, J[k].vfrac = J[k - 1].vfrac, J[k].vown = 0;
      continue;
    }
    const char *f[4];
    for (int q = 0; q < 4; q++) f[q] = F->f[q] ? (const char *)F->f[q] + J[k].s * e : NULL;
    J[k].closed = F->t == PSCR_F64 &&
                  eigen_is_toeplitz_d(J[k].m, (const double *)f[0], (const double *)f[1],
                                      (const double *)f[2], J[k].m > 1 ? (const double *)f[3] : NULL);
    /* as sturm.c and pencil_tmpl.c cut them */
    J[k].ne = !J[k].closed && F->t == PSCR_F64 && J[k].m >= EIGEN_STURM_MIN
                  ? (J[k].m + EIGEN_STURM_CHUNK - 1) / EIGEN_STURM_CHUNK
                  : 1;
    J[k].nv = 1, J[k].vfrac = NULL, J[k].vown = 0;
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
    J[k].nv = vector_chunks(F->t, J[k].m, lam, &J[k].vfrac), J[k].vown = 1;
  }
  free(lam), free(work), free(comp);
}

/* The plan's schedule replayed on P threads, event by event: the next thread
 * to be free takes, in this order, a task of the block it owns (it waits in
 * that block's taskloop), the next block (largest first, as the plan's
 * dynamic loop), or once no block is left a task of any block (earliest
 * released first). A block's eigenvalues run as its ne tasks, released when
 * it starts (or in turn by its owner when ne = 1); its vectors as nv tasks
 * released when the last eigenvalue task is done (or by the owner when
 * nv = 1); the owner is free when its last task is done. Eigenvalue tasks
 * cost alike, vector tasks their share (vector_chunks). */
typedef struct {
  int phase;         /* 0: eigenvalue tasks, 1: vector tasks, 2: done */
  size_t left;       /* tasks of the phase not yet started */
  double rel, end;   /* the phase's release time, latest end of its tasks */
} blk_state;

/* The next task of the block's phase: eigenvalue chunks cost alike, vector
 * chunks their share. */
static double task_cost(const job *j, const blk_state *s) {
  if (s->phase == 0) return j->eig_s / (double)j->ne;
  return j->vec_s * j->vfrac[j->nv - s->left];
}

static double replay(const job *J, size_t nj, int P) {
  double tf[64] = {0};
  int own[64];
  blk_state *B = calloc(nj, sizeof *B);
  if (B == NULL) abort();
  for (int q = 0; q < P; q++) own[q] = -1;
  size_t nextb = 0, done = 0;
  while (done < nj) {
    int th = -1; /* the earliest free thread, owners first on ties */
    for (int q = 0; q < P; q++)
      if (th < 0 || tf[q] < tf[th] || (tf[q] == tf[th] && own[q] >= 0 && own[th] < 0)) th = q;
    int b = own[th];
    if (b >= 0) {
      blk_state *s = &B[b];
      const job *j = &J[b];
      if (s->left > 0) { /* a task of its own block */
        double st = tf[th] > s->rel ? tf[th] : s->rel;
        tf[th] = st + task_cost(j, s);
        s->end = s->end > tf[th] ? s->end : tf[th];
        s->left--;
        continue;
      }
      tf[th] = tf[th] > s->end ? tf[th] : s->end; /* the phase's last task is done */
      if (s->phase == 0 && j->nv > 1) {
        s->phase = 1, s->left = j->nv, s->rel = s->end = tf[th];
      } else {
        if (s->phase == 0) tf[th] += j->vec_s; /* vectors in one piece */
        s->phase = 2, own[th] = -1, done++;
      }
      continue;
    }
    if (nextb < nj) { /* the next block */
      b = (int)nextb++;
      const job *j = &J[b];
      blk_state *s = &B[b];
      own[th] = b;
      if (j->ne > 1) {
        s->phase = 0, s->left = j->ne, s->rel = s->end = tf[th];
      } else {
        tf[th] += j->eig_s;
        s->phase = 0, s->left = 0, s->rel = s->end = tf[th];
      }
      continue;
    }
    int best = -1; /* idle: the earliest released task of any block */
    for (size_t k = 0; k < nj; k++)
      if (B[k].phase < 2 && B[k].left > 0 && (best < 0 || B[k].rel < B[best].rel)) best = (int)k;
    if (best >= 0) {
      blk_state *s = &B[best];
      const job *j = &J[best];
      double st = tf[th] > s->rel ? tf[th] : s->rel;
      tf[th] = st + task_cost(j, s);
      s->end = s->end > tf[th] ? s->end : tf[th];
      s->left--;
      continue;
    }
    /* Nothing now: every owner is waiting for its phase's running tasks and
     * is later than this thread (owners win ties): wait for the first. */
    double wake = INFINITY;
    for (int q = 0; q < P; q++)
      if (own[q] >= 0 && tf[q] < wake) wake = tf[q];
    if (wake == INFINITY) abort(); /* cannot happen while blocks are left */
    tf[th] = wake;
  }
  double end = 0;
  for (int q = 0; q < P; q++) end = end > tf[q] ? end : tf[q];
  free(B);
  return end;
}

/* The old path of a real block's eigenvalues (values_real.c below
 * EIGEN_STURM_MIN): reduction to a standard tridiagonal, then LAPACK dsterf.
 * work: 6 n. @return LAPACK's info. */
static int dsterf_path(size_t n, const double *ad, const double *ao, const double *md,
                       const double *mo, double *lam, double *work) {
  lapack_int ln = (lapack_int)n, info;
  double *ab = work, *bb = work + 2 * n, *w = work + 4 * n, x = 0;
  for (size_t j = 0; j < n; j++) {
    ab[2 * j + 1] = ad[j], ab[2 * j] = j ? ao[j - 1] : 0;
    bb[2 * j + 1] = md[j], bb[2 * j] = j ? mo[j - 1] : 0;
  }
  info = LAPACKE_dpbstf_work(LAPACK_COL_MAJOR, 'U', ln, 1, bb, 2);
  if (info == 0) info = LAPACKE_dsbgst_work(LAPACK_COL_MAJOR, 'N', 'U', ln, 1, 1, ab, 2, bb, 2, &x, 1, w);
  for (size_t j = 0; j < n; j++) lam[j] = ab[2 * j + 1];
  for (size_t j = 1; j < n; j++) w[j - 1] = ab[2 * j];
  return info ? (int)info : (int)LAPACKE_dsterf_work(ln, lam, w);
}

/* The eigen_values lines: eigen_values_d on the block of order F->n at one
 * thread (and CPU seconds) and at T threads in a parallel region, against
 * dsterf_path at one thread. */
static void eigen_values(const fac *F, int runs, int T, const char *name, double *tw, double *tc,
                         double *tt) {
  size_t n = F->n;
  const double *ad = F->f[0], *ao = F->f[1], *md = F->f[2], *mo = F->f[3];
  double *l1 = malloc(n * sizeof *l1), *l2 = malloc(n * sizeof *l2), *work = malloc(10 * n * sizeof *work);
  double *l3 = malloc(n * sizeof *l3), *t3 = malloc((size_t)runs * sizeof *t3);
  pscr_status st = PSCR_OK, s2 = PSCR_OK;
  int info = 0;
  if (!l1 || !l2 || !work || !l3 || !t3) abort();
  for (int r = 0; r < runs; r++) {
    double t0 = pscr_wtime(), c0 = cpu_time();
    pscr_status s = eigen_values_d(n, ad, ao, md, mo, l1, work);
    tw[r] = pscr_wtime() - t0, tc[r] = cpu_time() - c0;
    if (s != PSCR_OK) st = s;
    t0 = pscr_wtime();
#pragma omp parallel num_threads(T)
#pragma omp single
    s2 = eigen_values_d(n, ad, ao, md, mo, l2, work);
    tt[r] = pscr_wtime() - t0;
    t0 = pscr_wtime();
    info |= dsterf_path(n, ad, ao, md, mo, l3, work);
    t3[r] = pscr_wtime() - t0;
  }
  /* both ascending here; the largest difference in units of eps max|lambda| */
  double dmax = 0, lmax = 0;
  for (size_t k = 0; k < n; k++) {
    dmax = fmax(dmax, fabs(l1[k] - l3[k]));
    lmax = fmax(lmax, fabs(l3[k]));
  }
  int same = pt_equal_bytes(l1, l2, n * sizeof *l1);
  printf("{\"what\":\"eigen_values\",\"pair\":\"%s\",\"dtype\":\"f64\",\"m\":%zu,"
         "\"sturm\":%s,\"threads\":1,\"median_s\":%.4f,\"median_cpu_s\":%.4f,\"status\":\"%s\"}\n",
         name, n, n >= EIGEN_STURM_MIN ? "true" : "false", median(tw, runs), median(tc, runs),
         pscr_status_string(st));
  printf("{\"what\":\"eigen_values\",\"pair\":\"%s\",\"dtype\":\"f64\",\"m\":%zu,"
         "\"sturm\":%s,\"threads\":%d,\"median_s\":%.4f,\"same\":%s,\"status\":\"%s\"}\n",
         name, n, n >= EIGEN_STURM_MIN ? "true" : "false", T, median(tt, runs),
         same ? "true" : "false", pscr_status_string(s2));
  printf("{\"what\":\"eigen_values_dsterf\",\"pair\":\"%s\",\"dtype\":\"f64\",\"m\":%zu,"
         "\"threads\":1,\"median_s\":%.4f,\"max_diff_eps_lmax\":%.2f,\"info\":%d}\n",
         name, n, median(t3, runs), dmax / (DBL_EPSILON * lmax), info);
  fflush(stdout);
  free(l1), free(l2), free(l3), free(work), free(t3);
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
  const char *names[NKINDS] = {"poisson-lumped", "poisson-fem", "helmholtz", "graded-fem"};
  double *tw = malloc(3 * (size_t)runs * sizeof *tw), *tc = tw + runs, *tt = tc + runs;
  for (int kind = 0; kind < NKINDS; kind++)
    for (size_t n = 1023; n <= max_m && (argc <= 4 || strcmp(argv[4], names[kind]) == 0); n = 2 * n + 1) {
      fac F = make(kind, n);
      if (kind == GRADED) eigen_values(&F, runs, T, names[kind], tw, tc, tt);
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
             "\"largest_vectors_s\":%.4f,\"largest_eigenvalue_chunks\":%zu,"
             "\"largest_vector_chunks\":%zu,\"one_thread_s\":%.4f}\n",
             names[kind], dt, n, replay(J, nj, 16), J[0].eig_s, J[0].vec_s, J[0].ne, J[0].nv,
             replay(J, nj, 1));
      fflush(stdout);
      for (size_t k = 0; k < nj; k++)
        if (J[k].vown) free(J[k].vfrac);
      free(J);
      for (int k = 0; k < 4; k++) free(F.f[k]);
    }
  free(tw);
  return 0;
}
