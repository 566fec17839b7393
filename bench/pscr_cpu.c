/* PSCR on the CPU at seed 003's sizes (Tables 1-4): 2D/3D Poisson (31) and Helmholtz
 * (33)-(35), plan and solve seconds (median over fresh random right-hand sides) at one
 * thread and at all threads, the relative residual, one JSON line per measurement and a
 * markdown table with the seed's i5-6600 column and the Rossi-Toivanen Fortran figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../examples/common/example_util.h"
#include "testing.h"

typedef struct {
  const char *name;
  int ndim, helmholtz;
  size_t n[9];
  double seed_s[9]; /* seed 003, Intel i5-6600, one core; 0 = not in the table */
  double rt_s[9];   /* Rossi-Toivanen Fortran (dc2d / dcq3d), this machine kind, one thread */
} problem_set;

/* Table 1 lists n = 32, 64, ..., 8192; its times are shown against n = 2^k - 1 here. */
static const problem_set sets[] = {
    {"poisson2d",
     2,
     0,
     {31, 63, 127, 255, 511, 1023, 2047, 4095, 8191},
     {0.0001, 0.0002, 0.0011, 0.0039, 0.0200, 0.0829, 0.4005, 1.6845, 8.0182},
     {0, 0, 0, 0, 0, 0.089, 0, 1.65, 7.8}},
    {"helmholtz2d",
     2,
     1,
     {31, 63, 127, 255, 511, 1023, 2047, 4095},
     {0.0001, 0.0005, 0.0027, 0.0115, 0.0593, 0.2292, 1.2619, 5.7642},
     {0}},
    {"poisson3d",
     3,
     0,
     {31, 44, 63, 90, 127, 180, 255},
     {0.0058, 0.0160, 0.0478, 0.2422, 0.7523, 2.2483, 6.5014},
     {0, 0, 0, 0, 0.82, 0, 7.0}},
    {"helmholtz3d", 3, 1, {31, 44, 63, 90, 127}, {0.0150, 0.0432, 0.1327, 0.7330, 2.1733}, {0}},
};
#define NSETS (sizeof sets / sizeof sets[0])

typedef struct {
  const char *problems;
  size_t max_n, max_n3;
  int reps, radix, threads;
  double budget, omega;
  int residual;
} args;

typedef struct {
  const char *problem;
  size_t n;
  int threads;
  double plan_s, solve_s, residual, seed_s, rt_s, backward;
} row;

static void usage(FILE *out) {
  fprintf(out,
          "usage: bench_pscr_cpu [options]\n"
          "  --problems LIST  comma list of poisson2d,helmholtz2d,poisson3d,helmholtz3d (all)\n"
          "  --max-n N        largest n in 2D (default 4095; 8191 adds the Poisson 8191^2)\n"
          "  --max-n3 N       largest n in 3D (default 255)\n"
          "  --quick          --max-n 255 --max-n3 63 --reps 5\n"
          "  --reps R         most timed solves per measurement (default 20, at least 3)\n"
          "  --budget S       seconds of timed solves per measurement (default 5)\n"
          "  --threads T      the 'all threads' count (default: all)\n"
          "  --radix q        (default 4)   --omega W  Helmholtz wave number (default 20 pi)\n"
          "  --no-residual    skip the residual (saves three vectors)\n");
}

static int parse(int argc, char **argv, args *a) {
  *a =
      (args){"poisson2d,helmholtz2d,poisson3d,helmholtz3d", 4095, 255, 20, 4, 0, 5.0, 20 * M_PI, 1};
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--help"))
      return 1;
    if (!strcmp(o, "--quick")) {
      a->max_n = 255, a->max_n3 = 63, a->reps = 5;
      continue;
    }
    if (!strcmp(o, "--no-residual")) {
      a->residual = 0;
      continue;
    }
    if (!v)
      return -1;
    i++;
    if (!strcmp(o, "--problems"))
      a->problems = v;
    else if (!strcmp(o, "--max-n"))
      a->max_n = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--max-n3"))
      a->max_n3 = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--reps") && atoi(v) >= 3)
      a->reps = atoi(v);
    else if (!strcmp(o, "--budget") && strtod(v, NULL) > 0)
      a->budget = strtod(v, NULL);
    else if (!strcmp(o, "--threads") && atoi(v) >= 0)
      a->threads = atoi(v);
    else if (!strcmp(o, "--radix") && atoi(v) >= 2)
      a->radix = atoi(v);
    else if (!strcmp(o, "--omega") && strtod(v, NULL) > 0)
      a->omega = strtod(v, NULL);
    else
      return -1;
  }
  return 0;
}

static int wanted(const char *list, const char *name) {
  size_t len = strlen(name);
  for (const char *p = list; (p = strstr(p, name)) != NULL; p += len)
    if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == 0))
      return 1;
  return 0;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* Copy bandwidth in bytes/s (read + write) of a 256 MiB memcpy, `threads` threads. */
static double copy_bandwidth(int threads) {
  size_t bytes = (size_t)256 << 20;
  char *src = malloc(bytes), *dst = malloc(bytes);
  double best = 0;
  if (src && dst) {
    memset(src, 1, bytes), memset(dst, 0, bytes);
    for (int rep = 0; rep < 3; rep++) {
      double t0 = ex_wtime();
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads)
#endif
      for (int c = 0; c < 64; c++)
        memcpy(dst + c * (bytes / 64), src + c * (bytes / 64), bytes / 64);
      double t = ex_wtime() - t0;
      if (2.0 * (double)bytes / t > best)
        best = 2.0 * (double)bytes / t;
    }
  }
  (void)threads;
  free(src), free(dst);
  return best;
}

/* Factors of one problem: all directions equal, uniform mesh. buf: 8 n doubles. */
static pscr_status build(const problem_set *s, size_t n, double omega, double *buf,
                         pscr_problem *p) {
  *p = (pscr_problem){.ndim = s->ndim, .dtype = s->helmholtz ? PSCR_C128 : PSCR_F64};
  double *h = malloc((n + 1) * sizeof *h);
  if (!h)
    return PSCR_ERR_OUT_OF_MEMORY;
  pscr_status st;
  if (s->helmholtz) {
    for (size_t i = 0; i + 1 < n; i++)
      h[i] = 1.0 / (double)(n - 1);
    st = pscr_factor_helmholtz_abc(n, h, omega, buf, buf + 2 * n, buf + 4 * n, buf + 6 * n);
    p->c_re = -omega * omega;
    for (int d = 0; d < s->ndim; d++)
      p->dim[d] = (pscr_factor){n, buf, buf + 2 * n, buf + 4 * n, buf + 6 * n};
  } else {
    for (size_t i = 0; i <= n; i++)
      h[i] = 1.0 / (double)(n + 1);
    st = pscr_factor_poisson_fem(n, h, buf, buf + n, buf + 2 * n);
    for (int d = 0; d < s->ndim; d++)
      p->dim[d] = (pscr_factor){n, buf, buf + n, buf + 2 * n, NULL};
  }
  free(h);
  return st;
}

/* Plan + timed solves at one thread count; fills r. */
static pscr_status measure(const args *a, const problem_set *s, size_t n, int threads, double bw,
                           pt_rng *rng, row *r) {
  pscr_status st;
  pscr_problem prob;
  pscr_context *ctx = NULL;
  pscr_plan *plan = NULL;
  size_t total = n * n * (s->ndim == 3 ? n : 1), esz = s->helmholtz ? 16 : 8;
  size_t scalars = total * (s->helmholtz ? 2 : 1);
  double *fac = malloc(8 * n * sizeof(double)), *times = malloc((size_t)a->reps * sizeof(double));
  double *f = malloc(total * esz), *b = malloc(total * esz), *w[3] = {NULL, NULL, NULL};
  if (!fac || !times || !f || !b) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
  if ((st = build(s, n, a->omega, fac, &prob)) != PSCR_OK)
    goto cleanup;
  if ((st = pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx)) != PSCR_OK)
    goto cleanup;
  if ((st = pscr_context_set_threads(ctx, threads)) != PSCR_OK)
    goto cleanup;
  pscr_options opt;
  pscr_options_default(&opt);
  opt.radix = a->radix, opt.threads = threads;
  double t0 = ex_wtime();
  if ((st = pscr_plan_create(ctx, &prob, &opt, &plan)) != PSCR_OK)
    goto cleanup;
  r->plan_s = ex_wtime() - t0;
  int reps = 0;
  double spent = 0;
  for (int k = -1; k < a->reps && (k < 3 || spent < a->budget); k++) { /* k = -1: warm-up */
    for (size_t i = 0; i < scalars; i++)
      b[i] = pt_uniform(rng, -1, 1);
    memcpy(f, b, total * esz);
    t0 = ex_wtime();
    if ((st = pscr_solve(plan, f)) != PSCR_OK)
      goto cleanup;
    double t = ex_wtime() - t0;
    if (k >= 0)
      times[reps++] = t, spent += t;
  }
  qsort(times, (size_t)reps, sizeof *times, cmp_double);
  r->solve_s = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
  r->residual = r->backward = -1;
  if (a->residual) {
    for (int k = 0; k < 3; k++)
      if (!(w[k] = malloc(total * esz))) {
        st = PSCR_ERR_OUT_OF_MEMORY;
        goto cleanup;
      }
    ex_kron_apply(&prob, f, w[0], w[1], w[2]);
    r->residual = ex_rel_diff(prob.dtype, total, b, w[0]);
    r->backward = ex_backward_error(&prob, f, b, w[0]);
  }
  double floor_s = 2.0 * (double)(total * esz) / bw; /* read f once, write u once */
  printf("{\"bench\":\"pscr_cpu\",\"problem\":\"%s\",\"n\":%zu,\"dim\":%d,\"dof\":%zu,"
         "\"dtype\":\"%s\",\"backend\":\"cpu\",\"radix\":%d,\"threads\":%d,\"plan_s\":%.6g,"
         "\"solve_s_median\":%.6g,\"solve_s_min\":%.6g,\"reps\":%d,\"rel_residual\":%.3e,"
         "\"backward_error\":%.3e,"
         "\"gb_per_s\":%.3f,\"floor_ratio\":%.2f,\"omega\":%.6g,\"seed_i5_6600_s\":%.6g,"
         "\"rt_fortran_1t_s\":%.6g}\n",
         s->name, n, s->ndim, total, s->helmholtz ? "c128" : "f64", a->radix, threads, r->plan_s,
         r->solve_s, times[0], reps, r->residual, r->backward,
         2.0 * (double)(total * esz) / r->solve_s / 1e9, r->solve_s / floor_s,
         s->helmholtz ? a->omega : 0.0, r->seed_s, r->rt_s);
  fflush(stdout);
cleanup:
  pscr_plan_destroy(plan);
  pscr_context_destroy(ctx);
  for (int k = 0; k < 3; k++)
    free(w[k]);
  free(fac), free(times), free(f), free(b);
  return st;
}

static void cell(double v, const char *fmt) {
  if (v > 0)
    printf(fmt, v);
  else
    printf(" - |");
}

int main(int argc, char **argv) {
  args a;
  int pr = parse(argc, argv, &a);
  if (pr) {
    usage(pr > 0 ? stdout : stderr);
    return pr > 0 ? 0 : 2;
  }
  int all = a.threads > 0 ? a.threads : 1;
#ifdef _OPENMP
  if (a.threads == 0)
    all = omp_get_max_threads();
#endif
  pt_rng rng;
  pt_rng_seed(&rng, pt_fresh_seed());
  double bw1 = copy_bandwidth(1), bwall = all > 1 ? copy_bandwidth(all) : bw1;
  fprintf(stderr, "copy bandwidth: %.1f GB/s (1 thread), %.1f GB/s (%d threads)\n", bw1 / 1e9,
          bwall / 1e9, all);
  row *rows = calloc(2 * NSETS * 9, sizeof *rows);
  size_t nrows = 0;
  int rc = 0;
  if (!rows)
    return 1;
  for (size_t si = 0; si < NSETS; si++) {
    const problem_set *s = &sets[si];
    if (!wanted(a.problems, s->name))
      continue;
    for (int k = 0; k < 9 && s->n[k]; k++) {
      if (s->n[k] > (s->ndim == 2 ? a.max_n : a.max_n3))
        break;
      for (int pass = 0; pass < (all > 1 ? 2 : 1); pass++) {
        row *r = &rows[nrows];
        *r = (row){s->name, s->n[k], pass ? all : 1, 0, 0, 0, s->seed_s[k], s->rt_s[k], 0};
        pscr_status st = measure(&a, s, s->n[k], r->threads, pass ? bwall : bw1, &rng, r);
        if (st != PSCR_OK) {
          fprintf(stderr, "bench_pscr_cpu: %s n %zu threads %d: %s\n", s->name, s->n[k], r->threads,
                  pscr_status_string(st));
          rc = 1;
          continue;
        }
        nrows++;
      }
    }
  }
  printf("\n| problem | n | plan 1T (s) | solve 1T (s) | plan %dT (s) | solve %dT (s) | speedup "
         "| rel. residual | backward error | seed 003 i5-6600 1 core (s) | Rossi-Toivanen Fortran "
         "1T (s) |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|\n",
         all, all);
  for (size_t i = 0; i < nrows; i++) {
    const row *r = &rows[i], *m = NULL; /* m: the same size at all threads */
    if (i + 1 < nrows && rows[i + 1].n == r->n && rows[i + 1].problem == r->problem &&
        rows[i + 1].threads != r->threads)
      m = &rows[++i];
    if (r->threads != 1)
      m = r, r = NULL;
    printf("| %s | %zu |", (m ? m : r)->problem, (m ? m : r)->n);
    cell(r ? r->plan_s : 0, " %.4f |");
    cell(r ? r->solve_s : 0, " %.4f |");
    cell(m ? m->plan_s : 0, " %.4f |");
    cell(m ? m->solve_s : 0, " %.4f |");
    cell(r && m ? r->solve_s / m->solve_s : 0, " %.2f |");
    cell(fmax(r ? r->residual : 0, m ? m->residual : 0), " %.1e |");
    cell(fmax(r ? r->backward : 0, m ? m->backward : 0), " %.1e |");
    cell((m ? m : r)->seed_s, " %.4f |");
    cell((m ? m : r)->rt_s, " %.3f |");
    printf("\n");
  }
  printf("\nSeed 003 Table 1 lists 2D Poisson at n = 32, 64, ..., 8192; its times are shown at "
         "n = 2^k - 1. Solve times are medians of up to %d solves (at least 3, about %.0f s "
         "each measurement) after one warm-up, fresh random right-hand sides; residual ||f - A "
         "u||_2 / ||f||_2, backward error ||f - A u|| / (||A|| ||u|| + ||f||) in inf-norms.\n",
         a.reps, a.budget);
  free(rows);
  return rc;
}
