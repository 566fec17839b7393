/* Stability of every tridiagonal algorithm on the collections of seed 000
 * (Table A.1, laid out like its Table 2) and seed 001 (Table III / IV), and
 * the singular-block experiments of seed 000 (Tables 3 and 4).
 *
 * For each matrix: x random (normal), b = A x computed accurately, then
 *   cond  LAPACK gtcon 1-norm estimate (the paper's number beside it),
 *   fwd   ||x^ - x||_2 / ||x||_2 (seed 000's forward relative error),
 *   nbe   ||b - A x^||_inf / (||A||_inf ||x^||_inf + ||b||_inf),
 *   vs    ||x^ - x_lapack||_2 / ||x_lapack||_2.
 * An algorithm that returns an error prints its status in the cell.
 *
 * usage: bench_stability [--n N] [--dtype f64|c128] [--seed S] [--block M]
 *                        [--partitions P] [--json] [--no-singular]
 * --partitions: SPIKE_DP and GSPIKE run with P partitions (default 64, as seed
 * 001 Table IV: 8 rows each at n = 512) through the internal algorithm table;
 * 0 lets them choose through the public API (one partition per 4096 rows and thread).
 * --json prints one JSON line per (matrix, algorithm) instead of the tables. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collections.h"
#include "testing.h"

static const struct {
  pscr_td_algorithm alg;
  const char *label;
} algs[] = {{PSCR_TD_LAPACK, "LAPACK"},        {PSCR_TD_THOMAS, "THOMAS"},
            {PSCR_TD_CR, "CR"},                {PSCR_TD_PCR, "PCR"},
            {PSCR_TD_PCR_THOMAS, "PCR_THOMAS"}, {PSCR_TD_SPIKE_DIAG_PIVOT, "SPIKE_DP"},
            {PSCR_TD_GSPIKE, "GSPIKE"},        {PSCR_TD_AUTO, "AUTO"}};
#define NALG (sizeof algs / sizeof algs[0])

typedef struct {
  pscr_status st;
  double fwd, nbe, vs;
  int modified, partitions;
  pscr_td_algorithm used;
} cell;

typedef struct {
  size_t n, block;
  int partitions; /* SPIKE partitions in the collection tables; 0: the solver's choice */
  pscr_dtype t;
  uint64_t seed;
  int json, singular;
} options;

/* The work vectors of one experiment. */
typedef struct {
  void *dl, *d, *du, *x, *b, *y, *xl;
} vectors;

static const char *dname(pscr_dtype t) { return t == PSCR_C128 ? "c128" : "f64"; }

static void fill_x(pt_rng *r, pscr_dtype t, size_t n, void *x) {
  for (size_t i = 0; i < n; i++)
    pt_set(t, x, i, CMPLX(pt_normal(r), t == PSCR_C128 ? pt_normal(r) : 0));
}

/* Measures one solution y of A y = b (x exact, xl LAPACK's or NULL). */
static cell measure(const options *o, const vectors *v, pscr_status st, const void *xl) {
  cell c = {.st = st, .fwd = NAN, .nbe = NAN, .vs = NAN};
  if (st != PSCR_OK) return c;
  c.fwd = pt_rel_error_2(o->t, o->n, v->y, v->x);
  c.nbe = pt_backward_error(o->t, o->n, v->dl, v->d, v->du, v->y, v->b);
  if (xl) c.vs = pt_rel_error_2(o->t, o->n, v->y, xl);
  return c;
}

/* Runs every algorithm through the public API on the matrix in v. */
static void run_all(pscr_context *ctx, const options *o, const vectors *v, cell *out) {
  size_t bytes = o->n * pt_size(o->t);
  int lapack_ok = 0;
  for (size_t a = 0; a < NALG; a++) {
    pscr_td_report rep = {.used = algs[a].alg};
    memcpy(v->y, v->b, bytes);
    int spike = algs[a].alg == PSCR_TD_SPIKE_DIAG_PIVOT || algs[a].alg == PSCR_TD_GSPIKE;
    pscr_status st =
        spike && o->partitions > 0
            ? pt_solve_partitioned(algs[a].alg, o->t, o->n, v->dl, v->d, v->du, v->y,
                                   o->partitions, &rep.partitions, &rep.modified_blocks)
            : pscr_tridiag_solve(ctx, algs[a].alg, o->t, o->n, 1, o->n, v->dl, v->d, v->du, v->y,
                                 &rep);
    if (algs[a].alg == PSCR_TD_LAPACK && st == PSCR_OK) {
      memcpy(v->xl, v->y, bytes);
      lapack_ok = 1;
    }
    out[a] = measure(o, v, st, lapack_ok ? v->xl : NULL);
    out[a].used = rep.used;
    out[a].modified = rep.modified_blocks;
    out[a].partitions = rep.partitions;
  }
}

static void print_cell(double value, pscr_status st) {
  if (st != PSCR_OK)
    printf(" %s |", pt_status_name(st));
  else if (!isfinite(value))
    printf(" %s |", isnan(value) ? "NaN" : "Inf");
  else
    printf(" %.2e |", value);
}

/* A JSON number; NaN as null and +-Inf as a string (neither is JSON). */
static void json_num(const char *key, double v) {
  if (isfinite(v))
    printf(",\"%s\":%.3e", key, v);
  else if (isnan(v))
    printf(",\"%s\":null", key);
  else
    printf(",\"%s\":\"%s\"", key, v > 0 ? "inf" : "-inf");
}

static void json_line(const char *what, const char *coll, int id, const char *name,
                      const options *o, double cond, double table_cond, const char *alg,
                      const cell *c) {
  printf("{\"bench\":\"%s\",\"collection\":\"%s\",\"id\":%d,\"matrix\":\"%s\",\"n\":%zu,"
         "\"dtype\":\"%s\"",
         what, coll, id, name, o->n, dname(o->t));
  json_num("cond_est", cond);
  json_num("cond_paper", table_cond);
  printf(",\"algorithm\":\"%s\",\"status\":\"%s\",\"used\":\"%s\"", alg,
         pt_status_name(c->st), pscr_td_algorithm_name(c->used));
  if (c->st == PSCR_OK) {
    json_num("fwd", c->fwd);
    json_num("nbe", c->nbe);
    json_num("vs_lapack", c->vs);
  }
  printf(",\"partitions\":%d,\"modified_blocks\":%d}\n", c->partitions, c->modified);
}

static int run_collection(pscr_context *ctx, const options *o, pt_collection coll, vectors *v) {
  int count = pt_collection_count(coll);
  cell *res = malloc((size_t)count * NALG * sizeof *res);
  double *cond = malloc((size_t)count * sizeof *cond);
  if (res == NULL || cond == NULL) {
    free(res);
    free(cond);
    return 1;
  }
  pt_rng r;
  pt_rng_seed(&r, o->seed ^ (uint64_t)coll);
  for (int id = 1; id <= count; id++) {
    pscr_status st = pt_collection_matrix(coll, id, o->t, o->n, o->seed + (uint64_t)id, v->dl,
                                          v->d, v->du);
    if (st != PSCR_OK) {
      fprintf(stderr, "generator %d/%d: %s\n", coll, id, pscr_status_string(st));
      free(res);
      free(cond);
      return 1;
    }
    fill_x(&r, o->t, o->n, v->x);
    pt_matvec_accurate(o->t, o->n, v->dl, v->d, v->du, v->x, v->b);
    cond[id - 1] = pt_condition(o->t, o->n, v->dl, v->d, v->du);
    run_all(ctx, o, v, res + (size_t)(id - 1) * NALG);
  }
  const char *cname = pt_collection_name(coll);
  for (int id = 1; id <= count && o->json; id++) {
    pt_matrix_info info;
    pt_collection_info(coll, id, &info);
    for (size_t a = 0; a < NALG; a++)
      json_line("stability", cname, id, info.name, o, cond[id - 1], info.table_cond,
                algs[a].label, &res[(size_t)(id - 1) * NALG + a]);
  }
  const char *titles[3] = {"forward relative error ||x^-x||_2/||x||_2",
                           "normwise backward error (max norm)",
                           "difference from LAPACK's solution ||x^-x_lapack||_2/||x_lapack||_2"};
  for (int k = 0; k < 3 && !o->json; k++) {
    pt_matrix_info info0;
    pt_collection_info(coll, 1, &info0);
    printf("\n#### %s, n = %zu, %s: %s\n\n", cname, o->n, dname(o->t), titles[k]);
    printf("(cond est = LAPACK gtcon 1-norm estimate of this matrix; paper = the table's "
           "condition number at n = %zu; SPIKE_DP and GSPIKE with %d partitions%s)\n\n",
           info0.table_n, o->partitions, o->partitions ? "" : " = their own choice");
    printf("| # | matrix | cond est | paper |");
    for (size_t a = 0; a < NALG; a++) printf(" %s |", algs[a].label);
    printf("\n|---|---|---|---|");
    for (size_t a = 0; a < NALG; a++) printf("---|");
    printf("\n");
    for (int id = 1; id <= count; id++) {
      pt_matrix_info info;
      pt_collection_info(coll, id, &info);
      printf("| %d%s | %s | %.2e | %.2e |", id, info.reducible ? "*" : "", info.name,
             cond[id - 1], info.table_cond);
      for (size_t a = 0; a < NALG; a++) {
        const cell *c = &res[(size_t)(id - 1) * NALG + a];
        print_cell(k == 0 ? c->fwd : k == 1 ? c->nbe : c->vs, c->st);
      }
      printf("\n");
    }
  }
  free(res);
  free(cond);
  return 0;
}

/* Seed 000 Tables 3 / 4: 0, 1, 2, 4, ... all blocks of o->block rows singular,
 * solved by LAPACK and by the SPIKE solvers with one partition per block. */
static int run_singular(const options *o, pt_singular_kind kind, vectors *v) {
  static const pscr_td_algorithm salg[] = {PSCR_TD_LAPACK, PSCR_TD_SPIKE_DIAG_PIVOT,
                                           PSCR_TD_GSPIKE};
  static const char *slab[] = {"LAPACK", "SPIKE_DP", "GSPIKE"};
  const char *kname = kind == PT_SINGULAR_TOEPLITZ ? "toeplitz-#18" : "random-#1";
  size_t nb = o->n / o->block, bytes = o->n * pt_size(o->t);
  if (o->n % o->block != 0 || nb < 1 || nb > 1u << 30) {
    fprintf(stderr, "singular blocks: n must be a multiple of --block\n");
    return 1;
  }
  if (!o->json) {
    printf("\n#### singular blocks (%s), n = %zu, %s, %zu blocks of %zu rows "
           "(SPIKE solvers asked for %zu partitions)\n\n",
           kname, o->n, dname(o->t), nb, o->block, nb);
    printf("| singular blocks | cond est | LAPACK fwd | SPIKE_DP fwd | GSPIKE fwd | LAPACK nbe | "
           "SPIKE_DP nbe | GSPIKE nbe | GSPIKE modified | partitions used SPIKE_DP / GSPIKE |\n"
           "|---|---|---|---|---|---|---|---|---|---|\n");
  }
  pt_rng r;
  pt_rng_seed(&r, o->seed ^ 0x5151u ^ (uint64_t)kind);
  for (size_t s = 0;; s = s ? 2 * s : 1) {
    if (s > nb) s = nb;
    pscr_status st =
        pt_singular_blocks(kind, o->t, o->n, o->block, s, o->seed + s, v->dl, v->d, v->du);
    if (st != PSCR_OK) return 1;
    fill_x(&r, o->t, o->n, v->x);
    pt_matvec_accurate(o->t, o->n, v->dl, v->d, v->du, v->x, v->b);
    double cond = pt_condition(o->t, o->n, v->dl, v->d, v->du);
    cell c[3];
    int used[3];
    for (int a = 0; a < 3; a++) {
      memcpy(v->y, v->b, bytes);
      int modified = 0;
      st = pt_solve_partitioned(salg[a], o->t, o->n, v->dl, v->d, v->du, v->y,
                                salg[a] == PSCR_TD_LAPACK ? 0 : (int)nb, &used[a], &modified);
      c[a] = measure(o, v, st, NULL);
      c[a].used = salg[a];
      c[a].modified = modified;
      c[a].partitions = used[a];
      if (o->json) {
        char name[48];
        snprintf(name, sizeof name, "%s/%zu-singular", kname, s);
        json_line("stability_singular", kname, (int)s, name, o, cond, NAN, slab[a], &c[a]);
      }
    }
    if (!o->json) {
      printf("| %zu | %.2e |", s, cond);
      for (int a = 0; a < 3; a++) print_cell(c[a].fwd, c[a].st);
      for (int a = 0; a < 3; a++) print_cell(c[a].nbe, c[a].st);
      printf(" %d | %d / %d |\n", c[2].modified, used[1], used[2]);
    }
    if (s == nb) break;
  }
  return 0;
}

static int parse(int argc, char **argv, options *o) {
  *o = (options){.n = 512, .block = 32, .partitions = 64, .t = PSCR_F64, .seed = 20150322,
                 .singular = 1};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--json")) {
      o->json = 1;
    } else if (!strcmp(a, "--no-singular")) {
      o->singular = 0;
    } else if (val && !strcmp(a, "--n")) {
      o->n = strtoull(val, NULL, 0), i++;
    } else if (val && !strcmp(a, "--block")) {
      o->block = strtoull(val, NULL, 0), i++;
    } else if (val && !strcmp(a, "--partitions")) {
      o->partitions = atoi(val), i++;
    } else if (val && !strcmp(a, "--seed")) {
      o->seed = strtoull(val, NULL, 0), i++;
    } else if (val && !strcmp(a, "--dtype")) {
      o->t = !strcmp(val, "c128") ? PSCR_C128 : PSCR_F64, i++;
    } else {
      fprintf(stderr, "usage: %s [--n N] [--dtype f64|c128] [--seed S] [--block M] "
                      "[--partitions P] [--json] [--no-singular]\n", argv[0]);
      return 1;
    }
  }
  return o->n < 2 || o->block < 2 || o->partitions < 0;
}

int main(int argc, char **argv) {
  options o;
  if (parse(argc, argv, &o)) return 1;
  pscr_context *ctx = NULL;
  if (pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx) != PSCR_OK) return 1;
  vectors v;
  void **all[7] = {&v.dl, &v.d, &v.du, &v.x, &v.b, &v.y, &v.xl};
  for (int i = 0; i < 7; i++) *all[i] = pt_alloc(o.t, o.n);
  if (!o.json)
    printf("seed %llu; '*' = reducible (seed 000); cells with a status name: the solver "
           "refused\n",
           (unsigned long long)o.seed);
  int rc = 0;
  for (int c = 0; c < PT_COLLECTION_COUNT && rc == 0; c++)
    rc = run_collection(ctx, &o, (pt_collection)c, &v);
  if (o.singular && rc == 0) rc = run_singular(&o, PT_SINGULAR_TOEPLITZ, &v);
  if (o.singular && rc == 0) rc = run_singular(&o, PT_SINGULAR_RANDOM, &v);
  for (int i = 0; i < 7; i++) free(*all[i]);
  pscr_context_destroy(ctx);
  return rc;
}
