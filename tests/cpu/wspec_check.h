/* Shifted one-tile systems on td_reg_solve_s of their group size W
 * (td_reg_solve_s32 .. s256, on CUDA and OpenCL alike; tune reg_wspec
 * 1, the default) and on the generic kernel (0, and W = 512: real 8192
 * rows), shared by the cuda and opencl tridiagonal tests: the same body, W a
 * constant or not, so the same bits; each solve launches exactly one of the
 * two. The backend's tune and launch count (of one kernel name) come as
 * functions; the count must be on. */
#ifndef PSCR_TESTS_WSPEC_CHECK_H
#define PSCR_TESTS_WSPEC_CHECK_H

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"

typedef pscr_status (*ws_tune_fn)(pscr_context *ctx, const char *name, int value);
typedef unsigned long (*ws_count_fn)(const pscr_context *ctx, const char *name);

/* Launches of kernel `base` and of its constant-W forms (base32 .. base256:
 * td_reg_solve_s32 .. s256, td_reg_clu_s128). */
static inline unsigned long ws_family(const pscr_context *gpu, ws_count_fn count,
                                      const char *base) {
  unsigned long sum = count(gpu, base);
  char name[64];
  for (int w = 32; w <= 256; w *= 2) {
    snprintf(name, sizeof name, "%s%d", base, w);
    sum += count(gpu, name);
  }
  return sum;
}
static inline unsigned long ws_launches(const pscr_context *gpu, ws_count_fn count) {
  return ws_family(gpu, count, "td_reg_solve_s");
}

/* A shifted problem of m shifts for dtype t, n rows (A + s M dominant for
 * every s), that also serves as sys plain systems: h[0 .. 2] A's diagonals
 * (sys systems, A the first), h[3 .. 5] M's, h[6] the shifts, *b the m
 * right-hand sides (n m >= n sys). */
static inline void ws_fill(pt_rng *rng, pscr_dtype t, size_t n, size_t m, size_t sys, void *h[7],
                           void **b) {
  for (int i = 0; i < 6; i++) h[i] = pt_alloc(t, i < 3 ? n * sys : n);
  h[6] = pt_alloc(t, m);
  *b = pt_alloc(t, n * m);
  pt_fill_dominant(rng, t, n, sys, n, h[0], h[1], h[2], 0.5);
  for (size_t i = 0; i < n; i++) {
    double complex a = pt_get(t, h[1], i);
    pt_set(t, h[1], i, a * (creal(a) < 0 ? -1 : 1));
    pt_set(t, h[3], i, pt_uniform(rng, -0.5, 0.5));
    pt_set(t, h[4], i, pt_uniform(rng, 2, 3));
    pt_set(t, h[5], i, pt_uniform(rng, -0.5, 0.5));
  }
  for (size_t i = 0; i < m; i++) pt_set(t, h[6], i, pt_uniform(rng, 0, 4));
  pt_fill_uniform(rng, t, *b, n * m, -1, 1);
}

/* dtype t, n rows: W = n / 8 (at most 1024 rows) or n / 16, 32 at least;
 * complex systems of more than 4096 rows take several tiles. */
static inline void check_wspec(pscr_context *gpu, pt_rng *rng, pscr_dtype t, ws_tune_fn tune,
                               ws_count_fn count) {
  static const size_t ns[] = {33, 512, 1000, 2000, 4096, 8192};
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    size_t n = ns[k], m = 6, es = pt_size(t);
    if (t == PSCR_C128 && n > 4096) continue;
    void *h[7], *b, *x[2];
    ws_fill(rng, t, n, m, 1, h, &b);
    for (int v = 0; v < 2; v++) {
      PT_CHECK_STATUS(tune(gpu, "reg_wspec", v), PSCR_OK);
      unsigned long all0 = ws_launches(gpu, count), gen0 = count(gpu, "td_reg_solve_s");
      x[v] = pt_alloc(t, n * m);
      memcpy(x[v], b, n * m * es);
      PT_CHECK_STATUS(pscr_tridiag_solve_shifted(gpu, PSCR_TD_CR_PCR_THOMAS, t, n, m, h[0], h[1],
                                                 h[2], h[3], h[4], h[5], h[6], x[v], NULL),
                      PSCR_OK);
      unsigned long all = ws_launches(gpu, count) - all0;
      unsigned long gen = count(gpu, "td_reg_solve_s") - gen0;
      int spec = v && !(t == PSCR_F64 && n > 4096); /* W <= 256 */
      PT_CHECK(all == 1 && gen == (spec ? 0u : 1u),
               "reg_wspec %d, dtype=%d n=%zu: %lu td_reg_solve_s* launches, %lu generic", v, t, n,
               all, gen);
    }
    PT_CHECK(pt_equal_bytes(x[0], x[1], n * m * es), "reg_wspec 1 against 0: dtype=%d n=%zu", t,
             n);
    for (int i = 0; i < 7; i++) free(h[i]);
    free(x[0]), free(x[1]), free(b);
  }
  PT_CHECK_STATUS(tune(gpu, "reg_wspec", 2), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(tune(gpu, "reg_wspec", 1), PSCR_OK);
}

/* The two passes on their copies of W = 64 (td_reg_fwd64, td_reg_bwd64 and
 * the shifted _s64 ones; tune reg_wspec 1) and on the generic ones (0): the
 * same bits, each pass launched once a solve. The caller has capped local
 * memory at 48 KiB (tune local_mem), where the passes take W = 64; clusters
 * are tuned off here (CUDA's tile_clu). */
static inline void check_wspec_pass(pscr_context *gpu, pt_rng *rng, ws_tune_fn tune,
                                    ws_count_fn count) {
  const size_t n = 5000, m = 3;
  const pscr_dtype t = PSCR_F64;
  void *h[7], *b;
  double *x[2][2];
  ws_fill(rng, t, n, m, m, h, &b);
  PT_CHECK_STATUS(tune(gpu, "tile_clu", 0), PSCR_OK);
  static const char *const passes[2][2] = {{"td_reg_fwd", "td_reg_bwd"},
                                           {"td_reg_fwd_s", "td_reg_bwd_s"}};
  for (int v = 0; v < 2; v++) {
    PT_CHECK_STATUS(tune(gpu, "reg_wspec", v), PSCR_OK);
    for (int sh = 0; sh < 2; sh++) {
      unsigned long gen0[2], own0[2];
      char own[2][32];
      for (int p = 0; p < 2; p++) {
        /* shifted: the first pass two systems a group (tune pass_two, the default) */
        snprintf(own[p], sizeof own[p], "%s64", sh && p == 0 ? "td_reg_fwd2_s" : passes[sh][p]);
        gen0[p] = count(gpu, passes[sh][p]);
        own0[p] = count(gpu, own[p]);
      }
      x[v][sh] = pt_alloc(t, n * m);
      memcpy(x[v][sh], b, n * m * sizeof(double));
      pscr_status st =
          sh ? pscr_tridiag_solve_shifted(gpu, PSCR_TD_CR_PCR_THOMAS, t, n, m, h[0], h[1], h[2],
                                          h[3], h[4], h[5], h[6], x[v][sh], NULL)
             : pscr_tridiag_solve(gpu, PSCR_TD_CR_PCR_THOMAS, t, n, m, n, h[0], h[1], h[2],
                                  x[v][sh], NULL);
      PT_CHECK_STATUS(st, PSCR_OK);
      for (int p = 0; p < 2; p++) {
        unsigned long gen = count(gpu, passes[sh][p]) - gen0[p], o = count(gpu, own[p]) - own0[p];
        PT_CHECK(gen == (v ? 0u : 1u) && o == (v ? 1u : 0u),
                 "reg_wspec %d: %lu %s, %lu %s launches", v, gen, passes[sh][p], o, own[p]);
      }
    }
  }
  for (int sh = 0; sh < 2; sh++) {
    /* (shifted: the same values; td_reg_fwd2_s64's tree without shuffles also
     * merges the last tile's identity partitions, which may flip a zero's sign) */
    if (sh)
      PT_CHECK(pt_rel_error(t, n * m, x[1][sh], x[0][sh]) == 0,
               "the passes, reg_wspec 1 against 0: shifted");
    else
      PT_CHECK(pt_equal_bytes(x[0][sh], x[1][sh], n * m * sizeof(double)),
               "the passes, reg_wspec 1 against 0: plain");
    /* and a solution: the plain system's backward error */
    const double *a[3] = {h[0], h[1], h[2]}, *f = b;
    for (size_t s = 0; s < m && !sh; s++)
      PT_CHECK_LE(pt_backward_error(t, n, a[0] + s * n, a[1] + s * n, a[2] + s * n,
                                    x[1][0] + s * n, f + s * n),
                  1e-15, "the passes, plain system %zu", s);
    free(x[0][sh]), free(x[1][sh]);
  }
  PT_CHECK_STATUS(tune(gpu, "reg_wspec", 1), PSCR_OK);
  PT_CHECK_STATUS(tune(gpu, "tile_clu", 8), PSCR_OK);
  for (int i = 0; i < 7; i++) free(h[i]);
  free(b);
}

/* The shifted first pass of 64 work-items two systems a group (td_reg_fwd2_s64,
 * tune pass_two 1, the default) against one (td_reg_fwd_s64, 0): each launched
 * once a solve, the same x; batches of 2, 3 (the odd system alone) and 1 (one
 * a group: td_reg_fwd_s64). A NaN in the f of either system of a pair or in
 * the odd one, or in M: PSCR_ERR_NONFINITE, b as it was. The caller has capped
 * local memory at 48 KiB; clusters are tuned off here. */
static inline void check_pass_two(pscr_context *gpu, pt_rng *rng, ws_tune_fn tune,
                                  ws_count_fn count) {
  const size_t n = 5000; /* the passes at 48 KiB, as check_wspec_pass */
  const pscr_dtype t = PSCR_F64;
  PT_CHECK_STATUS(tune(gpu, "tile_clu", 0), PSCR_OK);
  static const size_t ms[] = {2, 3, 1};
  for (size_t c = 0; c < sizeof ms / sizeof *ms; c++) {
    size_t m = ms[c];
    void *h[7], *b;
    double *x[2];
    ws_fill(rng, t, n, m, 1, h, &b);
    for (int v = 0; v < 2; v++) {
      PT_CHECK_STATUS(tune(gpu, "pass_two", v), PSCR_OK);
      unsigned long two0 = count(gpu, "td_reg_fwd2_s64"), one0 = count(gpu, "td_reg_fwd_s64");
      x[v] = pt_alloc(t, n * m);
      memcpy(x[v], b, n * m * sizeof(double));
      PT_CHECK_STATUS(pscr_tridiag_solve_shifted(gpu, PSCR_TD_CR_PCR_THOMAS, t, n, m, h[0], h[1],
                                                 h[2], h[3], h[4], h[5], h[6], x[v], NULL),
                      PSCR_OK);
      unsigned long two = count(gpu, "td_reg_fwd2_s64") - two0;
      unsigned long one = count(gpu, "td_reg_fwd_s64") - one0;
      int paired = v && m > 1;
      PT_CHECK(two == (paired ? 1u : 0u) && one == (paired ? 0u : 1u),
               "pass_two %d, %zu systems: %lu td_reg_fwd2_s64, %lu td_reg_fwd_s64", v, m, two, one);
    }
    PT_CHECK(pt_rel_error(t, n * m, x[1], x[0]) == 0, "pass_two 1 against 0, %zu systems", m);
    /* NaN/Inf: in f of each system, then in M */
    double *y = pt_alloc(t, n * m);
    for (size_t k = 0; k <= m; k++) {
      memcpy(y, b, n * m * sizeof(double));
      double *md = h[4], keep = md[n / 2];
      if (k < m)
        y[k * n + n - 1 - k] = k % 2 ? INFINITY : NAN;
      else
        md[n / 2] = NAN;
      double *y0 = pt_alloc(t, n * m);
      memcpy(y0, y, n * m * sizeof(double));
      PT_CHECK_STATUS(pscr_tridiag_solve_shifted(gpu, PSCR_TD_CR_PCR_THOMAS, t, n, m, h[0], h[1],
                                                 h[2], h[3], h[4], h[5], h[6], y, NULL),
                      PSCR_ERR_NONFINITE);
      PT_CHECK(memcmp(y, y0, n * m * sizeof(double)) == 0,
               "pass_two, %zu systems, NaN/Inf at %zu: b changed", m, k);
      md[n / 2] = keep;
      free(y0);
    }
    free(y);
    for (int i = 0; i < 7; i++) free(h[i]);
    free(x[0]), free(x[1]), free(b);
  }
  PT_CHECK_STATUS(tune(gpu, "pass_two", 2), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(tune(gpu, "pass_two", 1), PSCR_OK);
  PT_CHECK_STATUS(tune(gpu, "tile_clu", 8), PSCR_OK);
}

/* Tune wg_cap: a driver's largest groups (kernel_wg) as NVIDIA's OpenCL reports
 * them, 256 for every kernel, on any device. Real shifted rows of 8192 take one
 * td_reg.h tile of 512 work-items where the report allows it; capped at 256
 * another form (the local-memory tile where the device has the memory, else the
 * two passes; clusters tuned off: CUDA's tile_clu) and the same x to rounding;
 * 0 (no report asked) and 1 (the default) alike, bit for bit. */
static inline unsigned long ws_other(const pscr_context *gpu, ws_count_fn count) {
  return count(gpu, "td_tile_solve") + count(gpu, "td_tile_fwd") + count(gpu, "td_reg_fwd_s") +
         count(gpu, "td_reg_fwd_s64");
}
static inline void check_wg_cap(pscr_context *gpu, pt_rng *rng, ws_tune_fn tune,
                                ws_count_fn count) {
  const size_t n = 8192, m = 2;
  const pscr_dtype t = PSCR_F64;
  void *h[7], *b;
  double *x[3];
  static const int caps[3] = {1, 0, 256};
  ws_fill(rng, t, n, m, 1, h, &b);
  PT_CHECK_STATUS(tune(gpu, "tile_clu", 0), PSCR_OK);
  for (int k = 0; k < 3; k++) {
    PT_CHECK_STATUS(tune(gpu, "wg_cap", caps[k]), PSCR_OK);
    unsigned long one0 = ws_launches(gpu, count);
    unsigned long other0 = ws_other(gpu, count);
    x[k] = pt_alloc(t, n * m);
    memcpy(x[k], b, n * m * sizeof(double));
    PT_CHECK_STATUS(pscr_tridiag_solve_shifted(gpu, PSCR_TD_CR_PCR_THOMAS, t, n, m, h[0], h[1],
                                               h[2], h[3], h[4], h[5], h[6], x[k], NULL),
                    PSCR_OK);
    unsigned long one = ws_launches(gpu, count) - one0;
    unsigned long other = ws_other(gpu, count) - other0;
    int capped = caps[k] > 1;
    PT_CHECK(one == (capped ? 0u : 1u) && other == (capped ? 1u : 0u),
             "wg_cap %d: %lu td_reg_solve_s*, %lu other solves", caps[k], one, other);
  }
  PT_CHECK(pt_equal_bytes(x[0], x[1], n * m * sizeof(double)), "wg_cap 0 against 1");
  PT_CHECK_LE(pt_rel_error(t, n * m, x[2], x[0]), 1e-13, "wg_cap 256 against 1");
  static const int bad[] = {2, 31, 48, 1056, -1};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
    PT_CHECK_STATUS(tune(gpu, "wg_cap", bad[k]), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(tune(gpu, "wg_cap", 1), PSCR_OK);
  PT_CHECK_STATUS(tune(gpu, "tile_clu", 8), PSCR_OK);
  for (int i = 0; i < 7; i++) free(h[i]);
  for (int k = 0; k < 3; k++) free(x[k]);
  free(b);
}

#endif
