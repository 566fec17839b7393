/* One large tridiagonal system on the CPU: THOMAS, LAPACK, PCR_THOMAS (its
 * variants P+TO, SP+T and P+PT at 1, 2, 4, ..., all threads, then the
 * default), SPIKE_DIAG_PIVOT and GSPIKE through the public
 * pscr_tridiag_solve, for n = 2^20 .. 2^26, F64 and C128.
 *
 * First the machine's copy bandwidth is measured (all threads, a parallel
 * copy of a large buffer, median; bytes read + written). The floor of a solve
 * is the bytes it must move - dl, d, du, b read and x written once: 40 n (F64)
 * or 80 n (C128) - over that bandwidth; floor_ratio = median / floor time and
 * gbps = floor bytes / median. Each measurement is the median of --runs timed
 * solves (fewer above 2^24, see --big-runs) after one warm-up, on fresh random
 * strictly dominant data, b restored from a copy outside the timed region.
 * One JSON line per measurement; also the error of each solution against the
 * THOMAS one. PCR_THOMAS variants and forced switch points are selected through
 * the environment overrides of tridiag/pcr_thomas.h. Options: --help. Run with
 * OPENBLAS_NUM_THREADS=1 (the LAPACK row is serial; idle OpenBLAS threads spin). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/timer.h"
#include "testing.h"
#include "tridiag/pcr_thomas.h"
#include "tridiag/td.h"

typedef struct {
  int min_log, max_log, runs, big_runs, threads;
  int f64, c128;
  const char *levels; /* optional comma list of forced PCR_THOMAS levels */
} args;

static int max_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: bench_tridiag_cpu [options]\n"
          "  --min-log K    smallest n = 2^K (default 20)\n"
          "  --max-log K    largest n = 2^K (default 26)\n"
          "  --quick        n = 2^16 .. 2^18, 5 runs (a smoke test)\n"
          "  --runs R       timed runs per measurement (default 20)\n"
          "  --big-runs R   timed runs above n = 2^24 (default 10)\n"
          "  --threads T    the 'all threads' count (default: all)\n"
          "  --dtype D      f64, c128 or all (default all)\n"
          "  --levels LIST  also PCR_THOMAS with these forced switch points, e.g. 2,3,4,5,6\n");
}

static int parse(int argc, char **argv, args *a) {
  *a = (args){20, 26, 20, 10, 0, 1, 1, NULL};
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--help")) return 1;
    if (!strcmp(o, "--quick")) {
      a->min_log = 16, a->max_log = 18, a->runs = 5, a->big_runs = 5;
      continue;
    }
    if (v == NULL) return -1;
    i++;
    if (!strcmp(o, "--min-log"))
      a->min_log = atoi(v);
    else if (!strcmp(o, "--max-log"))
      a->max_log = atoi(v);
    else if (!strcmp(o, "--runs"))
      a->runs = atoi(v);
    else if (!strcmp(o, "--big-runs"))
      a->big_runs = atoi(v);
    else if (!strcmp(o, "--threads"))
      a->threads = atoi(v);
    else if (!strcmp(o, "--levels"))
      a->levels = v;
    else if (!strcmp(o, "--dtype")) {
      a->f64 = !strcmp(v, "f64") || !strcmp(v, "all");
      a->c128 = !strcmp(v, "c128") || !strcmp(v, "all");
      if (!a->f64 && !a->c128) return -1;
    } else
      return -1;
  }
  if (a->min_log < 1 || a->max_log < a->min_log || a->max_log > 31 || a->runs < 1 ||
      a->big_runs < 1 || a->threads < 0)
    return -1;
  return 0;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}
static double median(double *v, int k) {
  qsort(v, (size_t)k, sizeof *v, cmp_double);
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* Pages first touched by all threads (as the solvers will use them). */
static void *alloc_touched(size_t bytes, int threads) {
  char *p = malloc(bytes);
  if (p == NULL) return NULL;
  long long nb = (long long)((bytes + 4095) / 4096);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long long q = 0; q < nb; q++) p[q * 4096] = 1;
  return p;
}

/* Copy bandwidth, bytes read + written per second, all threads, median of 21. */
static double copy_bandwidth(size_t bytes, int threads) {
  char *src = alloc_touched(bytes, threads), *dst = alloc_touched(bytes, threads);
  if (src == NULL || dst == NULL) {
    free(src), free(dst);
    return 0;
  }
  memset(src, 7, bytes);
  double t[21];
  long long nblk = threads * 16LL;
  size_t blk = (bytes / (size_t)nblk + 63) / 64 * 64;
  for (int r = -2; r < 21; r++) {
    double t0 = pscr_wtime();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long long q = 0; q < nblk; q++) {
      size_t lo = (size_t)q * blk, hi = lo + blk < bytes ? lo + blk : bytes;
      if (lo < hi) memcpy(dst + lo, src + lo, hi - lo);
    }
    if (r >= 0) t[r] = pscr_wtime() - t0;
  }
  double bw = 2.0 * (double)bytes / median(t, 21);
  printf("{\"bench\":\"tridiag_cpu\",\"what\":\"copy_bandwidth\",\"threads\":%d,\"bytes\":%zu,"
         "\"gbps\":%.2f,\"check\":%d}\n",
         threads, bytes, bw * 1e-9, dst[bytes / 2] == 7);
  free(src), free(dst);
  return bw;
}

typedef struct {
  pscr_context *ctx;
  pscr_dtype t;
  size_t n;
  void *dl, *d, *du, *b0, *b, *xref;
  double bw;
  int runs, have_ref;
} bench;

/* One measurement: prints its JSON line. variant 0 = library default. */
static void measure(bench *B, pscr_td_algorithm alg, int threads, int variant, int levels) {
  size_t bytes = B->n * pt_size(B->t);
  char lv[16] = "", vs[32] = "";
  if (alg == PSCR_TD_PCR_THOMAS) {
    if (variant) snprintf(vs, sizeof vs, "%d", variant);
    setenv("PSCR_PCR_THOMAS_VARIANT", vs, 1);
    if (levels >= 0) snprintf(lv, sizeof lv, "%d", levels);
    setenv("PSCR_PCR_THOMAS_LEVELS", lv, 1);
    int v = variant ? variant : td_pcr_thomas_default_variant();
    if (levels < 0)
      levels = v == 3 ? td_pcr_thomas_lanes(B->n) : td_pcr_thomas_levels(B->n, threads);
  }
  pscr_context_set_threads(B->ctx, threads);
  double *t = malloc((size_t)B->runs * sizeof *t);
  pscr_status st = PSCR_OK;
  for (int r = -1; r < B->runs && st == PSCR_OK && t; r++) {
    memcpy(B->b, B->b0, bytes);
    double t0 = pscr_wtime();
    st = pscr_tridiag_solve(B->ctx, alg, B->t, B->n, 1, B->n, B->dl, B->d, B->du, B->b, NULL);
    if (r >= 0) t[r] = pscr_wtime() - t0;
  }
  const char *dt = B->t == PSCR_F64 ? "f64" : "c128";
  const char *var = alg != PSCR_TD_PCR_THOMAS ? ""
                    : variant == 1            ? "P+TO"
                    : variant == 2            ? "SP+T"
                    : variant == 3            ? "P+PT"
                                              : "default";
  printf("{\"bench\":\"tridiag_cpu\",\"n\":%zu,\"dtype\":\"%s\",\"backend\":\"cpu\",\"alg\":\"%s\","
         "\"variant\":\"%s\",\"threads\":%d",
         B->n, dt, pscr_td_algorithm_name(alg), var, threads);
  if (alg == PSCR_TD_PCR_THOMAS) printf(",\"levels\":%d", levels);
  if (st != PSCR_OK || t == NULL) {
    printf(",\"status\":\"%s\"}\n",
           st == PSCR_ERR_UNSUPPORTED ? "unsupported" : pscr_status_string(st));
  } else {
    double med = median(t, B->runs), floor_bytes = (B->t == PSCR_F64 ? 40.0 : 80.0) * (double)B->n;
    if (alg == PSCR_TD_THOMAS && !B->have_ref) memcpy(B->xref, B->b, bytes), B->have_ref = 1;
    double err = pt_rel_error(B->t, B->n, B->b, B->xref);
    printf(",\"median_ms\":%.4f,\"gbps\":%.2f,\"floor_ratio\":%.3f,\"runs\":%d,"
           "\"rel_err_vs_thomas\":%.1e}\n",
           med * 1e3, floor_bytes / med * 1e-9, med / (floor_bytes / B->bw), B->runs, err);
  }
  fflush(stdout);
  free(t);
}

static int run_size(bench *B, const args *a, int maxt, pt_rng *rng) {
  size_t bytes = B->n * pt_size(B->t);
  B->dl = alloc_touched(bytes, maxt), B->d = alloc_touched(bytes, maxt);
  B->du = alloc_touched(bytes, maxt), B->b0 = alloc_touched(bytes, maxt);
  B->b = alloc_touched(bytes, maxt), B->xref = calloc(1, bytes);
  int ok = B->dl && B->d && B->du && B->b0 && B->b && B->xref;
  if (ok) {
    pt_fill_dominant(rng, B->t, B->n, 1, B->n, B->dl, B->d, B->du, 0.5);
    pt_fill_uniform(rng, B->t, B->b0, B->n, -1, 1);
    measure(B, PSCR_TD_THOMAS, 1, 0, -1);
    measure(B, PSCR_TD_LAPACK, 1, 0, -1);
    for (int th = 1;; th = th * 2 < maxt ? th * 2 : maxt) {
      measure(B, PSCR_TD_PCR_THOMAS, th, 1, -1);
      measure(B, PSCR_TD_PCR_THOMAS, th, 2, -1);
      measure(B, PSCR_TD_PCR_THOMAS, th, 3, -1);
      if (th == maxt) break;
    }
    measure(B, PSCR_TD_PCR_THOMAS, maxt, 0, -1);
    for (const char *l = a->levels; l && *l;) { /* a switch point sweep at all threads */
      int lev = atoi(l);
      measure(B, PSCR_TD_PCR_THOMAS, maxt, 1, lev);
      measure(B, PSCR_TD_PCR_THOMAS, maxt, 2, lev);
      measure(B, PSCR_TD_PCR_THOMAS, maxt, 3, lev);
      l = strchr(l, ',');
      l = l ? l + 1 : NULL;
    }
    measure(B, PSCR_TD_SPIKE_DIAG_PIVOT, maxt, 0, -1);
    measure(B, PSCR_TD_GSPIKE, maxt, 0, -1);
  } else {
    fprintf(stderr, "bench_tridiag_cpu: out of memory at n = %zu\n", B->n);
  }
  free(B->dl), free(B->d), free(B->du), free(B->b0), free(B->b), free(B->xref);
  return ok;
}

int main(int argc, char **argv) {
  args a;
  int pr = parse(argc, argv, &a);
  if (pr) {
    usage(pr > 0 ? stdout : stderr);
    return pr > 0 ? 0 : 2;
  }
  int maxt = a.threads > 0 ? a.threads : max_threads();
  size_t copy_bytes = a.max_log >= 22 ? (size_t)1 << 29 : (size_t)1 << 26;
  double bw = copy_bandwidth(copy_bytes, maxt);
  if (bw <= 0) return 1;
  pscr_context *ctx = NULL;
  if (pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx) != PSCR_OK) return 1;
  pt_rng rng;
  pt_rng_seed(&rng, pt_fresh_seed());
  int ok = 1;
  for (int k = a.min_log; k <= a.max_log && ok; k++)
    for (int t = 0; t < 2 && ok; t++) {
      if ((t == 0 && !a.f64) || (t == 1 && !a.c128)) continue;
      bench B = {.ctx = ctx,
                 .t = (pscr_dtype)t,
                 .n = (size_t)1 << k,
                 .bw = bw,
                 .runs = k > 24 ? a.big_runs : a.runs};
      ok = run_size(&B, &a, maxt, &rng);
    }
  pscr_context_destroy(ctx);
  return ok ? 0 : 1;
}
