/* Stability against the collections of seed 000 (Table A.1) and seed 001
 * (Table III), and the singular-block matrices of seed 000 section 4.
 *  1. The generators reproduce the tables' condition numbers (at the tables'
 *     orders) within an order of magnitude: see cond_matches().
 *  2. The pivoting solvers (LAPACK, SPIKE_DIAG_PIVOT, GSPIKE) keep the normwise
 *     backward error <= 1e-14 on the well-conditioned matrices at n = 512 through
 *     the public API, and <= 1e-10 with 64 SPIKE partitions of 8 rows (seed 001
 *     Table IV, note a): partitioned SPIKE is not backward stable in the GEPP
 *     sense (near-singular 8-row blocks give large spikes); 300 random draws
 *     gave up to 3.5e-11 (SPIKE_DIAG_PIVOT) and 1.6e-12 (GSPIKE).
 *     Well-conditioned: the paper's condition number < 1e8, which is
 *       seed 000: #1-7 and #16-21,  seed 001: #1-7.
 *  3. GSPIKE (and LAPACK) keep the forward error <= 1e-12 on the Toeplitz and
 *     <= 1e-9 on the random singular-block matrices, 0 .. all of 16 blocks singular.
 * Both dtypes. Fresh random data each run (PSCR_TEST_SEED replays one). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collections.h"
#include "testing.h"

enum { N = 512, BLOCK = 32, SEED001_PARTITIONS = 64 };
#define WELL_CONDITIONED 1e8
#define NBE_BOUND 1e-14
#define NBE_BOUND_PARTITIONED 1e-10
/* Beyond ~1/eps the tables' numbers are where MATLAB's SVD-based cond saturates
 * (seed 000 #13-15 are 1e16-1e17 while our estimates are 1e18-1e60): there
 * "numerically singular in double" is what is reproduced. */
#define SATURATED 1e16

static int cond_matches(double ours, double paper) {
  if (paper >= SATURATED)
    return ours >= 1e15;
  return ours >= paper / 10 && ours <= paper * 10;
}

/* 1. Deterministic matrices: the one instance matches. Random ones: the
 * paper's value was one draw of a (often heavy-tailed) distribution, so it must
 * lie within a decade of the range spanned by our draws. */
static void conditions(uint64_t seed) {
  for (int c = 0; c < PT_COLLECTION_COUNT; c++)
    for (int id = 1; id <= pt_collection_count((pt_collection)c); id++) {
      pt_matrix_info info;
      PT_CHECK_STATUS(pt_collection_info((pt_collection)c, id, &info), PSCR_OK);
      size_t n = info.table_n;
      double *dl = pt_alloc(PSCR_F64, n), *d = pt_alloc(PSCR_F64, n), *du = pt_alloc(PSCR_F64, n);
      int draws = !info.random ? 1 : strncmp(info.name, "randsvd", 7) == 0 ? 2 : 24;
      double lo = INFINITY, hi = 0;
      for (int k = 0; k < draws; k++) {
        PT_CHECK_STATUS(
            pt_collection_matrix((pt_collection)c, id, PSCR_F64, n, seed + (uint64_t)k, dl, d, du),
            PSCR_OK);
        double kappa = pt_condition(PSCR_F64, n, dl, d, du);
        lo = fmin(lo, kappa);
        hi = fmax(hi, kappa);
      }
      int ok = !info.random ? cond_matches(lo, info.table_cond)
               : info.table_cond >= SATURATED
                   ? hi >= 1e15
                   : info.table_cond >= lo / 10 && info.table_cond <= hi * 10;
      PT_CHECK(ok, "%s #%d %s n=%zu: paper %.2e, ours %.2e .. %.2e (%d draws)",
               pt_collection_name((pt_collection)c), id, info.name, n, info.table_cond, lo, hi,
               draws);
      fprintf(stderr, "  cond %s #%-2d %-15s paper %.2e  ours %.2e .. %.2e\n",
              pt_collection_name((pt_collection)c), id, info.name, info.table_cond, lo, hi);
      free(dl), free(d), free(du);
    }
}

typedef struct {
  pscr_dtype t;
  void *dl, *d, *du, *x, *b, *y;
} sys;

static sys make(pscr_dtype t, size_t n) {
  return (sys){t,
               pt_alloc(t, n),
               pt_alloc(t, n),
               pt_alloc(t, n),
               pt_alloc(t, n),
               pt_alloc(t, n),
               pt_alloc(t, n)};
}
static void drop(sys *s) {
  free(s->dl), free(s->d), free(s->du), free(s->x), free(s->b), free(s->y);
}

/* x random, b = A x accurately. */
static void rhs(pt_rng *r, sys *s, size_t n) {
  pt_fill_uniform(r, s->t, s->x, n, -1, 1);
  pt_matvec_accurate(s->t, n, s->dl, s->d, s->du, s->x, s->b);
}

static const pscr_td_algorithm pivoting[] = {PSCR_TD_LAPACK, PSCR_TD_SPIKE_DIAG_PIVOT,
                                             PSCR_TD_GSPIKE};

/* 2. Backward error of the pivoting solvers on the well-conditioned matrices. */
static void backward_errors(pscr_context *ctx, pt_rng *r, uint64_t seed, pscr_dtype t) {
  sys s = make(t, N);
  size_t bytes = N * pt_size(t);
  for (int c = 0; c < PT_COLLECTION_COUNT; c++)
    for (int id = 1; id <= pt_collection_count((pt_collection)c); id++) {
      pt_matrix_info info;
      pt_collection_info((pt_collection)c, id, &info);
      if (info.table_cond >= WELL_CONDITIONED)
        continue;
      PT_CHECK_STATUS(
          pt_collection_matrix((pt_collection)c, id, t, N, seed + (uint64_t)id, s.dl, s.d, s.du),
          PSCR_OK);
      rhs(r, &s, N);
      for (size_t a = 0; a < sizeof pivoting / sizeof pivoting[0]; a++)
        for (int forced = 0; forced < 2; forced++) {
          if (forced && pivoting[a] == PSCR_TD_LAPACK)
            continue;
          memcpy(s.y, s.b, bytes);
          pscr_status st =
              forced ? pt_solve_partitioned(pivoting[a], t, N, s.dl, s.d, s.du, s.y,
                                            SEED001_PARTITIONS, NULL, NULL)
                     : pscr_tridiag_solve(ctx, pivoting[a], t, N, 1, N, s.dl, s.d, s.du, s.y, NULL);
          const char *name = pscr_td_algorithm_name(pivoting[a]);
          PT_CHECK(st == PSCR_OK, "%s #%d %s %s%s: %s", pt_collection_name((pt_collection)c), id,
                   info.name, name, forced ? " (64 partitions)" : "", pt_status_name(st));
          if (st != PSCR_OK)
            continue;
          double nbe = pt_backward_error(t, N, s.dl, s.d, s.du, s.y, s.b);
          PT_CHECK_LE(nbe, forced ? NBE_BOUND_PARTITIONED : NBE_BOUND, "%s #%d %s, %s%s, %s",
                      pt_collection_name((pt_collection)c), id, info.name, name,
                      forced ? " (64 partitions)" : "", t == PSCR_C128 ? "c128" : "f64");
        }
    }
  drop(&s);
}

/* 3. Singular blocks: one SPIKE partition per block of BLOCK rows. Random
 * matrices are redrawn until cond <= 1e6, so that 1e-9 measures the solver,
 * not an unlucky draw (cond * eps stays below 1e-10). */
static void singular_blocks(pt_rng *r, uint64_t seed, pscr_dtype t) {
  const size_t nb = N / BLOCK;
  const pscr_td_algorithm algs[] = {PSCR_TD_LAPACK, PSCR_TD_GSPIKE};
  sys s = make(t, N);
  size_t bytes = N * pt_size(t);
  for (int kind = PT_SINGULAR_TOEPLITZ; kind <= PT_SINGULAR_RANDOM; kind++)
    for (size_t ns = 0;; ns = ns ? 2 * ns : 1) {
      uint64_t draw = seed + 1000 * ns;
      double kappa;
      int tries = 0;
      do {
        PT_CHECK_STATUS(
            pt_singular_blocks((pt_singular_kind)kind, t, N, BLOCK, ns, draw++, s.dl, s.d, s.du),
            PSCR_OK);
        kappa = pt_condition(t, N, s.dl, s.d, s.du);
      } while (kind == PT_SINGULAR_RANDOM && kappa > 1e6 && ++tries < 50);
      PT_CHECK(kappa <= 1e6, "kind %d, %zu singular: no draw with cond <= 1e6", kind, ns);
      /* The generator: chosen blocks numerically singular, the others not. */
      for (size_t k = 0; k < nb; k++) {
        size_t off = k * BLOCK * pt_size(t);
        double kb =
            pt_condition(t, BLOCK, (char *)s.dl + off, (char *)s.d + off, (char *)s.du + off);
        if (pt_singular_block_chosen(k, nb, ns))
          PT_CHECK(kb >= 1e14, "kind %d block %zu should be singular: cond %.2e", kind, k, kb);
        else
          PT_CHECK(kb < 1e12, "kind %d block %zu should be regular: cond %.2e", kind, k, kb);
      }
      rhs(r, &s, N);
      double bound = kind == PT_SINGULAR_TOEPLITZ ? 1e-12 : 1e-9;
      for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        memcpy(s.y, s.b, bytes);
        int used = 0, modified = 0;
        pscr_status st =
            pt_solve_partitioned(algs[a], t, N, s.dl, s.d, s.du, s.y,
                                 algs[a] == PSCR_TD_LAPACK ? 0 : (int)nb, &used, &modified);
        const char *name = pscr_td_algorithm_name(algs[a]);
        PT_CHECK(st == PSCR_OK, "%s, kind %d, %zu of %zu blocks singular: %s", name, kind, ns, nb,
                 pt_status_name(st));
        if (st != PSCR_OK)
          continue;
        /* Toeplitz blocks must go through the singular-block modification; on
         * random blocks a weak modification (|alpha c| tiny) is refused and the
         * system solved as one partition, which keeps the forward error bar. */
        if (algs[a] == PSCR_TD_GSPIKE)
          PT_CHECK(used == (int)nb || (kind == PT_SINGULAR_RANDOM && used == 1),
                   "gspike used %d partitions, asked for %zu (%s, %zu singular, %s)", used, nb,
                   kind == PT_SINGULAR_TOEPLITZ ? "toeplitz" : "random", ns,
                   t == PSCR_C128 ? "c128" : "f64");
        double fwd = pt_rel_error_2(t, N, s.y, s.x);
        PT_CHECK_LE(fwd, bound, "%s, %s, %zu of %zu blocks singular (%d modified), cond %.2e, %s",
                    name, kind == PT_SINGULAR_TOEPLITZ ? "toeplitz" : "random", ns, nb, modified,
                    kappa, t == PSCR_C128 ? "c128" : "f64");
      }
      if (ns == nb)
        break;
    }
  drop(&s);
}

/* The generators' contract: layout, determinism, dtypes, bad arguments. */
static void generators(uint64_t seed) {
  const size_t n = 100;
  sys a = make(PSCR_F64, n), b = make(PSCR_F64, n), z = make(PSCR_C128, n);
  for (int c = 0; c < PT_COLLECTION_COUNT; c++)
    for (int id = 1; id <= pt_collection_count((pt_collection)c); id++) {
      pt_collection_matrix((pt_collection)c, id, PSCR_F64, n, seed, a.dl, a.d, a.du);
      pt_collection_matrix((pt_collection)c, id, PSCR_F64, n, seed, b.dl, b.d, b.du);
      pt_collection_matrix((pt_collection)c, id, PSCR_C128, n, seed, z.dl, z.d, z.du);
      PT_CHECK(pt_equal_bytes(a.d, b.d, n * 8) && pt_equal_bytes(a.dl, b.dl, n * 8) &&
                   pt_equal_bytes(a.du, b.du, n * 8),
               "collection %d #%d: same seed, same matrix", c, id);
      PT_CHECK(((double *)a.dl)[0] == 0 && ((double *)a.du)[n - 1] == 0, "gtsv2 layout");
      double dev = 0, big = 0;
      for (size_t i = 0; i < n; i++) {
        void *re[3] = {a.dl, a.d, a.du}, *im[3] = {z.dl, z.d, z.du};
        for (int k = 0; k < 3; k++) {
          double m = fabs(((double *)re[k])[i]);
          dev = fmax(dev, fabs(cabs(pt_get(PSCR_C128, im[k], i)) - m));
          big = fmax(big, m);
        }
      }
      PT_CHECK(dev <= 1e-14 * big, "collection %d #%d: |complex| = |real| (dev %.1e)", c, id, dev);
    }
  PT_CHECK(pt_collection_count((pt_collection)7) == 0, "unknown collection");
  PT_CHECK_STATUS(pt_collection_matrix(PT_COLL_GSPIKE, 0, PSCR_F64, n, 1, a.dl, a.d, a.du),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pt_collection_matrix(PT_COLL_SPIKE_DP, 17, PSCR_F64, n, 1, a.dl, a.d, a.du),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pt_collection_matrix(PT_COLL_GSPIKE, 1, PSCR_F64, 0, 1, a.dl, a.d, a.du),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pt_collection_matrix(PT_COLL_GSPIKE, 1, PSCR_F64, n, 1, NULL, a.d, a.du),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pt_singular_blocks(PT_SINGULAR_RANDOM, PSCR_F64, n, 10, 11, 1, a.dl, a.d, a.du),
                  PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pt_singular_blocks(PT_SINGULAR_RANDOM, PSCR_F64, n, 1, 0, 1, a.dl, a.d, a.du),
                  PSCR_ERR_INVALID_ARGUMENT);
  size_t chosen = 0;
  for (size_t k = 0; k < 16; k++)
    chosen += (size_t)pt_singular_block_chosen(k, 16, 5);
  PT_CHECK(chosen == 5, "5 of 16 blocks chosen, got %zu", chosen);
  drop(&a), drop(&b), drop(&z);
}

int main(void) {
  uint64_t seed = pt_fresh_seed();
  pt_rng r;
  pt_rng_seed(&r, seed);
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx), PSCR_OK);
  if (ctx == NULL)
    return pt_exit("test_stability");
  generators(seed);
  conditions(seed);
  for (int t = PSCR_F64; t <= PSCR_C128; t++) {
    backward_errors(ctx, &r, seed, (pscr_dtype)t);
    singular_blocks(&r, seed, (pscr_dtype)t);
  }
  pscr_context_destroy(ctx);
  return pt_exit("test_stability");
}
