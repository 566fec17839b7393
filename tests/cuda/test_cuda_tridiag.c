/* The CUDA tridiagonal engine against the CPU backend (LAPACK gtsv, partial
 * pivoting) on fresh random data: every GPU algorithm x {F64, C128} x
 * {one system, strided batch, shifted systems} x n in {1, 2, 3, 31, 32, 33,
 * 1000, 4097, 2^20 + 1}. Dominant matrices for every algorithm (forward
 * error); random U(-1, 1) matrices for the pivoting ones (backward error).
 * Skipped (77) without a usable CUDA device. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"
#include "../cpu/wspec_check.h"

/* the backend's developer hooks (exported, not in the public headers) */
pscr_status pscr_cuda_tune(pscr_context *ctx, const char *name, int value) __attribute__((weak));
pscr_status pscr_cuda_kernel_stat(const pscr_context *ctx, size_t i, const char **name,
                                  unsigned long *count, double *seconds) __attribute__((weak));

/* the sizes, and 16384: a power-of-2 count of tiles (the record merge takes several
 * systems of a batch a group) */
static const size_t sizes[] = {1, 2, 3, 31, 32, 33, 1000, 4097, 16384, (1u << 20) + 1};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static const pscr_td_algorithm algs[] = {PSCR_TD_THOMAS,        PSCR_TD_CR,
                                         PSCR_TD_PCR,           PSCR_TD_CR_PCR_THOMAS,
                                         PSCR_TD_SPIKE_DIAG_PIVOT, PSCR_TD_GSPIKE,
                                         PSCR_TD_AUTO};
#define NALGS (sizeof algs / sizeof algs[0])

static int pivoting(pscr_td_algorithm a) {
  return a == PSCR_TD_SPIKE_DIAG_PIVOT || a == PSCR_TD_GSPIKE || a == PSCR_TD_AUTO;
}

/* Worst forward error over a batch, x and xref with the given stride. */
static double batch_error(pscr_dtype t, size_t n, size_t batch, size_t stride, const void *x,
                          const void *xref) {
  double worst = 0;
  size_t es = pt_size(t);
  for (size_t s = 0; s < batch; s++) {
    double e = pt_rel_error(t, n, (const char *)x + s * stride * es,
                            (const char *)xref + s * stride * es);
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

static double batch_backward(pscr_dtype t, size_t n, size_t batch, size_t stride, const void *dl,
                             const void *d, const void *du, const void *x, const void *b) {
  double worst = 0;
  size_t es = pt_size(t), o;
  for (size_t s = 0; s < batch; s++) {
    o = s * stride * es;
    double e = pt_backward_error(t, n, (const char *)dl + o, (const char *)d + o,
                                 (const char *)du + o, (const char *)x + o, (const char *)b + o);
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

/* One plain request (batch systems, stride >= n) on GPU and CPU. */
static void check_plain(pscr_context *gpu, pscr_context *cpu, pt_rng *rng, pscr_td_algorithm alg,
                        pscr_dtype t, size_t n, size_t batch, size_t stride, int dominant) {
  size_t count = (batch - 1) * stride + n;
  void *dl = pt_alloc(t, count), *d = pt_alloc(t, count), *du = pt_alloc(t, count);
  void *b = pt_alloc(t, count), *x = pt_alloc(t, count), *xref = pt_alloc(t, count);
  if (dominant)
    pt_fill_dominant(rng, t, n, batch, stride, dl, d, du, 0.5);
  else {
    pt_fill_uniform(rng, t, dl, count, -1, 1);
    pt_fill_uniform(rng, t, d, count, -1, 1);
    pt_fill_uniform(rng, t, du, count, -1, 1);
  }
  pt_fill_uniform(rng, t, b, count, -1, 1);
  memcpy(x, b, count * pt_size(t));
  memcpy(xref, b, count * pt_size(t));
  pscr_td_report rep;
  PT_CHECK_STATUS(pscr_tridiag_solve(cpu, PSCR_TD_LAPACK, t, n, batch, stride, dl, d, du, xref, NULL),
                  PSCR_OK);
  pscr_status st = pscr_tridiag_solve(gpu, alg, t, n, batch, stride, dl, d, du, x, &rep);
  PT_CHECK(st == PSCR_OK, "%s dtype=%d n=%zu batch=%zu dominant=%d: %s",
           pscr_td_algorithm_name(alg), t, n, batch, dominant, pscr_status_string(st));
  if (st == PSCR_OK) {
    if (dominant) {
      PT_CHECK_LE(batch_error(t, n, batch, stride, x, xref), 1e-11, "%s dtype=%d n=%zu batch=%zu",
                  pscr_td_algorithm_name(alg), t, n, batch);
    }
    PT_CHECK_LE(batch_backward(t, n, batch, stride, dl, d, du, x, b), dominant ? 1e-14 : 1e-12,
                "%s dtype=%d n=%zu batch=%zu dominant=%d", pscr_td_algorithm_name(alg), t, n,
                batch, dominant);
    PT_CHECK(alg != PSCR_TD_AUTO || rep.used != PSCR_TD_AUTO, "AUTO not resolved");
    PT_CHECK(rep.seconds > 0, "%s: report time %g", pscr_td_algorithm_name(alg), rep.seconds);
  }
  free(dl), free(d), free(du), free(b), free(x), free(xref);
}

/* (A + shift_s M) x_s = b_s on GPU and CPU; A dominant, M with positive
 * diagonal and small off-diagonals, shifts with positive real part. */
static void check_shifted(pscr_context *gpu, pscr_context *cpu, pt_rng *rng,
                          pscr_td_algorithm alg, pscr_dtype t, size_t n, size_t nshift,
                          int m_tridiagonal) {
  void *adl = pt_alloc(t, n), *ad = pt_alloc(t, n), *adu = pt_alloc(t, n);
  void *mdl = pt_alloc(t, n), *md = pt_alloc(t, n), *mdu = pt_alloc(t, n);
  void *sh = pt_alloc(t, nshift), *b = pt_alloc(t, n * nshift);
  void *x = pt_alloc(t, n * nshift), *xref = pt_alloc(t, n * nshift);
  pt_fill_dominant(rng, t, n, 1, n, adl, ad, adu, 0.5);
  for (size_t i = 0; i < n; i++) {
    double complex a = pt_get(t, ad, i);
    pt_set(t, ad, i, a * (creal(a) < 0 ? -1 : 1)); /* Re(diag) > 0: A + sM stays dominant */
    pt_set(t, md, i, pt_uniform(rng, 2, 3));
    pt_set(t, mdl, i, pt_uniform(rng, -0.5, 0.5));
    pt_set(t, mdu, i, pt_uniform(rng, -0.5, 0.5));
  }
  /* ignored corners hold garbage (the GPU reads them and must drop them) */
  pt_set(t, adl, 0, NAN), pt_set(t, mdl, 0, 1e300);
  pt_set(t, adu, n - 1, -1e300), pt_set(t, mdu, n - 1, INFINITY);
  for (size_t s = 0; s < nshift; s++)
    pt_set(t, sh, s, pt_uniform(rng, 0, 4) + (t == PSCR_C128 ? I * pt_uniform(rng, -0.1, 0.1) : 0));
  pt_fill_uniform(rng, t, b, n * nshift, -1, 1);
  memcpy(x, b, n * nshift * pt_size(t));
  memcpy(xref, b, n * nshift * pt_size(t));
  const void *ml = m_tridiagonal ? mdl : NULL, *mu = m_tridiagonal ? mdu : NULL;
  PT_CHECK_STATUS(pscr_tridiag_solve_shifted(cpu, PSCR_TD_LAPACK, t, n, nshift, adl, ad, adu, ml,
                                             md, mu, sh, xref, NULL),
                  PSCR_OK);
  pscr_status st =
      pscr_tridiag_solve_shifted(gpu, alg, t, n, nshift, adl, ad, adu, ml, md, mu, sh, x, NULL);
  PT_CHECK(st == PSCR_OK, "shifted %s dtype=%d n=%zu: %s", pscr_td_algorithm_name(alg), t, n,
           pscr_status_string(st));
  if (st == PSCR_OK)
    PT_CHECK_LE(batch_error(t, n, nshift, n, x, xref), 1e-11, "shifted %s dtype=%d n=%zu m_tri=%d",
                pscr_td_algorithm_name(alg), t, n, m_tridiagonal);
  /* the same solve on device arrays: the same kernels, so the same bits */
  memcpy(xref, b, n * nshift * pt_size(t));
  PT_CHECK_STATUS(pt_solve_shifted_arrays(gpu, alg, t, n, nshift, adl, ad, adu, ml, md, mu, sh, xref),
                  PSCR_OK);
  PT_CHECK(pt_equal_bytes(x, xref, n * nshift * pt_size(t)), "shifted arrays %s dtype=%d n=%zu",
           pscr_td_algorithm_name(alg), t, n);
  free(adl), free(ad), free(adu), free(mdl), free(md), free(mdu);
  free(sh), free(b), free(x), free(xref);
}

/* Launches of kernel kname alone in the context's statistics (tuning
 * `profile`). */
static unsigned long launches_exact(const pscr_context *gpu, const char *kname) {
  const char *name;
  unsigned long count, sum = 0;
  double sec;
  for (size_t i = 0; pscr_cuda_kernel_stat(gpu, i, &name, &count, &sec) == PSCR_OK; i++)
    if (strcmp(name, kname) == 0) sum += count;
  return sum;
}
/* td_reg.h's kernels with their constant-W forms, every other kernel alone */
static unsigned long launches(const pscr_context *gpu, const char *kname) {
  static const char *const fams[] = {"td_reg_solve_s", "td_reg_clu_s", "td_reg_fwd",
                                     "td_reg_fwd_s",   "td_reg_bwd",   "td_reg_bwd_s"};
  int family = 0;
  for (size_t i = 0; i < sizeof fams / sizeof *fams; i++) family |= strcmp(kname, fams[i]) == 0;
  return family ? ws_family(gpu, launches_exact, kname) : launches_exact(gpu, kname);
}

/* Systems of 2 .. 8 tiles of td_reg.h in one pass, a cluster of groups a
 * system (td_reg_clu, sm_90+), and with tuning tile_clu 0 in the two passes
 * (td_reg_fwd / bwd): shifted tiles of 16 rows (at most 8192 rows a tile
 * real, 4096 complex; complex ones of 8 in the two passes), plain real of
 * 8 (4096), so these sizes give 2 to 8 tiles, or more (the two passes
 * either way). Each multi-tile
 * solve takes exactly one of the two ways; profile on (launch counts). */
static void check_clusters(pscr_context *gpu, pscr_context *cpu, pt_rng *rng) {
  static const size_t ns[] = {4097, 8193, 20000, 36000, 65536};
  unsigned long clu[2] = {0, 0};
  for (int on = 1; on >= 0; on--) {
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "tile_clu", on ? 8 : 0), PSCR_OK);
    for (int z = 0; z < 2; z++)
      for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
        pscr_dtype t = z ? PSCR_C128 : PSCR_F64;
        const char *ways[] = {"td_reg_clu_s", "td_reg_fwd_s", "td_reg_clu", "td_reg_fwd",
                              "td_tile_fwd", "td_reg_solve_s", "td_reg_solve", "td_tile_solve"};
        unsigned long before[8], after[8];
        for (int w = 0; w < 8; w++) before[w] = launches(gpu, ways[w]);
        check_shifted(gpu, cpu, rng, PSCR_TD_CR_PCR_THOMAS, t, ns[k], 3, (int)k % 2);
        check_plain(gpu, cpu, rng, PSCR_TD_CR_PCR_THOMAS, t, ns[k], 3, ns[k] + 1, 1);
        unsigned long sum = 0;
        for (int w = 0; w < 8; w++) sum += (after[w] = launches(gpu, ways[w])) - before[w];
        /* three solves: the shifted one on host data and on arrays, the plain one */
        PT_CHECK(sum == 3, "dtype=%d n=%zu: %lu solves' launches, 3 solves", t, ns[k], sum);
        clu[on] += after[0] - before[0] + after[2] - before[2];
      }
  }
  PT_CHECK(clu[0] == 0, "tile_clu 0: %lu td_reg_clu launches", clu[0]);
  /* (a GPU before sm_90 has no clusters: the two passes then) */
  fprintf(stderr, "  td_reg_clu / td_reg_clu_s: %lu solves\n", clu[1]);
  PT_CHECK_STATUS(pscr_cuda_tune(gpu, "tile_clu", 8), PSCR_OK);
}

/* The slim one-tile form (TD_REG_SLIM: merges by shuffles, x stored in two
 * parts), NVIDIA's OpenCL's for shifted complex lines of 2049-4096 rows; tune
 * reg_slim 2 puts CUDA's lines of 16-row partitions on it too. One
 * td_reg_solve_s a solve (check_shifted solves twice), against LAPACK;
 * profile on (launch counts). */
static void check_slim(pscr_context *gpu, pscr_context *cpu, pt_rng *rng) {
  /* complex, and real (16-row partitions from 1025 rows: W = 128, 512, 512) */
  static const size_t ns[] = {2000, 2049, 3000, 4096, 2000, 5000, 8192};
  PT_CHECK_STATUS(pscr_cuda_tune(gpu, "reg_slim", 3), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_cuda_tune(gpu, "reg_slim", 2), PSCR_OK);
  for (size_t k = 0; k < sizeof ns / sizeof *ns; k++) {
    pscr_dtype t = k < 4 ? PSCR_C128 : PSCR_F64;
    unsigned long before = launches(gpu, "td_reg_solve_s");
    check_shifted(gpu, cpu, rng, PSCR_TD_CR_PCR_THOMAS, t, ns[k], 3, (int)k % 2);
    unsigned long two = launches(gpu, "td_reg_solve_s") - before; /* host data, arrays */
    PT_CHECK(two == 2, "reg_slim 2, dtype %d n=%zu: %lu td_reg_solve_s launches", t, ns[k], two);
  }
  PT_CHECK_STATUS(pscr_cuda_tune(gpu, "reg_slim", 1), PSCR_OK);
}

/* GSPIKE's residual check (kernels/common/td_gspike.h) on random rows: the
 * windows leave a backward error of at most 2^-53 a row plus rounding
 * (bound 3e-16); with gs_fix_tau 64 (terms above 2^-64 ||A|| ||x||) and
 * gs_fix_k 0 (windows of the terms' rows alone) windows fail and the full
 * solve of their residual (td_gs_unfixed) runs once. Profile on (launch
 * counts).
 * The last 32 rows are dominant, so the last partition is never special
 * (that one keeps the old refinement step instead). */
static void check_gspike_fix(pscr_context *gpu, pt_rng *rng, pscr_dtype t) {
  const size_t n = (size_t)1 << 16;
  void *dl = pt_alloc(t, n), *d = pt_alloc(t, n), *du = pt_alloc(t, n);
  void *b = pt_alloc(t, n), *x = pt_alloc(t, n);
  pt_fill_uniform(rng, t, dl, n, -1, 1);
  pt_fill_uniform(rng, t, d, n, -1, 1);
  pt_fill_uniform(rng, t, du, n, -1, 1);
  pt_fill_uniform(rng, t, b, n, -1, 1);
  for (size_t i = n - 32; i < n; i++) { /* d_i = 4 */
    double *di = (double *)d + (t == PSCR_F64 ? i : 2 * i);
    di[0] = 4;
    if (t != PSCR_F64) di[1] = 0;
  }
  for (int forced = 0; forced < 2; forced++) {
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "gs_fix_k", forced ? 0 : 24), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "gs_fix_tau", forced ? 64 : 53), PSCR_OK);
    unsigned long fix0 = launches(gpu, "td_gs_fix"), unfixed0 = launches(gpu, "td_gs_unfixed");
    memcpy(x, b, n * pt_size(t));
    pscr_td_report rep;
    pscr_status st = pscr_tridiag_solve(gpu, PSCR_TD_GSPIKE, t, n, 1, n, dl, d, du, x, &rep);
    PT_CHECK_STATUS(st, PSCR_OK);
    if (st == PSCR_OK)
      PT_CHECK_LE(batch_backward(t, n, 1, n, dl, d, du, x, b), 3e-16,
                  "gspike random dtype=%d n=%zu, windows%s", t, n, forced ? " forced to fail" : "");
    if (st != PSCR_OK || rep.partitions != (int)(n / 16)) continue; /* the shifted grid */
    PT_CHECK(launches(gpu, "td_gs_fix") == fix0 + 2, "gspike: two td_gs_fix launches a solve");
    if (forced) /* (unforced, a window may fail too: rare, and right) */
      PT_CHECK(launches(gpu, "td_gs_unfixed") == unfixed0 + 1,
               "gspike random dtype=%d: %lu full solves of failed windows", t,
               launches(gpu, "td_gs_unfixed") - unfixed0);
  }
  PT_CHECK_STATUS(pscr_cuda_tune(gpu, "gs_fix_k", 24), PSCR_OK);
  PT_CHECK_STATUS(pscr_cuda_tune(gpu, "gs_fix_tau", 53), PSCR_OK);
  free(dl), free(d), free(du), free(b), free(x);
}

int main(void) {
  if (!pscr_backend_available(PSCR_BACKEND_CUDA)) return PT_SKIP;
  uint64_t seed = pt_fresh_seed();
  pt_rng rng;
  pt_rng_seed(&rng, seed);
  pscr_context *gpu = NULL, *cpu = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CUDA, 0, &gpu), PSCR_OK);
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &cpu), PSCR_OK);
  if (gpu == NULL || cpu == NULL) return pt_exit("cuda_tridiag");
  for (int z = 0; z < 2; z++) {
    pscr_dtype t = z ? PSCR_C128 : PSCR_F64;
    for (size_t a = 0; a < NALGS; a++)
      for (size_t k = 0; k < NSIZES; k++) {
        size_t n = sizes[k], big = n > 100000;
        check_plain(gpu, cpu, &rng, algs[a], t, n, 1, n, 1);
        check_plain(gpu, cpu, &rng, algs[a], t, n, big ? 2 : 37, n + 3, 1);
        check_shifted(gpu, cpu, &rng, algs[a], t, n, big ? 2 : 29, k % 2);
        if (pivoting(algs[a])) {
          check_plain(gpu, cpu, &rng, algs[a], t, n, 1, n, 0);
          check_plain(gpu, cpu, &rng, algs[a], t, n, big ? 2 : 37, n, 0);
        }
      }
    /* shifted tiles of 16 rows a work-item (gpu_tile.c: real above 1024
     * rows, one tile up to 8192; complex up to 4096, several tiles of 8 rows
     * above) */
    static const size_t q16[] = {2000, 3000, 4096, 5000, 7000, 8192};
    for (size_t k = 0; k < sizeof q16 / sizeof *q16; k++)
      check_shifted(gpu, cpu, &rng, PSCR_TD_CR_PCR_THOMAS, t, q16[k], 5, (int)k % 2);
  }
  /* tuning `profile`: every launch timed alone into per-kernel statistics;
   * `local_mem` caps a group's shared memory (OpenCL's 48 KB: a real line of
   * 2047 rows then takes several tiles), results unchanged */
  PT_CHECK(pscr_cuda_tune != NULL && pscr_cuda_kernel_stat != NULL, "the CUDA developer hooks");
  if (pscr_cuda_tune && pscr_cuda_kernel_stat) {
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "profile", 2), PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "local_mem", 100), PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "local_mem", 1 << 30), PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "profile_clear", 1), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "profile", 1), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "local_mem", 49152), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "tile_clu", 0), PSCR_OK); /* the two passes */
    check_plain(gpu, cpu, &rng, PSCR_TD_CR_PCR_THOMAS, PSCR_F64, 2047, 5, 2047, 1);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "tile_clu", 8), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "local_mem", 0), PSCR_OK);
    check_plain(gpu, cpu, &rng, PSCR_TD_CR_PCR_THOMAS, PSCR_F64, 2047, 5, 2047, 1);
    const char *name;
    unsigned long count;
    double sec;
    for (size_t i = 0; pscr_cuda_kernel_stat(gpu, i, &name, &count, &sec) == PSCR_OK; i++)
      PT_CHECK(count > 0 && sec > 0, "profile: %s %lu launches %.3g s", name, count, sec);
    unsigned long one = launches(gpu, "td_reg_solve"), fwd = launches(gpu, "td_reg_fwd");
    PT_CHECK(one == 1 && fwd == 1, "2047 rows: %lu td_reg_fwd at 48 KB, %lu td_reg_solve", fwd,
             one);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "local_mem", 49152), PSCR_OK);
    check_wspec_pass(gpu, &rng, pscr_cuda_tune, launches_exact);
    check_pass_two(gpu, &rng, pscr_cuda_tune, launches_exact);
    /* the shifted second pass with y in shared memory (tune pass_ysm): the
     * passes there at 48 KB without clusters */
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "pass_ysm", 1), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "tile_clu", 0), PSCR_OK);
    unsigned long bwd0 = launches(gpu, "td_reg_bwd_s");
    check_shifted(gpu, cpu, &rng, PSCR_TD_CR_PCR_THOMAS, PSCR_F64, 5000, 3, 0);
    PT_CHECK(launches(gpu, "td_reg_bwd_s") == bwd0 + 2, "pass_ysm 1: %lu shifted second passes",
             launches(gpu, "td_reg_bwd_s") - bwd0);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "tile_clu", 8), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "pass_ysm", 0), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "local_mem", 0), PSCR_OK);
    /* 48 KB and local-memory tiles: one SPIKE system of 3000 rows is 6 (F64)
     * or 12 (C128) tiles, merged by td_tile_bwd itself (merge_self) or by
     * td_tile_gdown (merge_self = 0) */
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "local_mem", 49152), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "tile_reg", 0), PSCR_OK);
    for (int self = 1; self >= 0; self--) {
      PT_CHECK_STATUS(pscr_cuda_tune(gpu, "merge_self", self), PSCR_OK);
      unsigned long down0 = launches(gpu, "td_tile_gdown"), bwd0 = launches(gpu, "td_tile_bwd");
      for (int z = 0; z < 2; z++)
        check_plain(gpu, cpu, &rng, PSCR_TD_SPIKE_DIAG_PIVOT, z ? PSCR_C128 : PSCR_F64, 3000, 1,
                    3000, 1);
      unsigned long downs = launches(gpu, "td_tile_gdown") - down0;
      unsigned long bwds = launches(gpu, "td_tile_bwd") - bwd0;
      PT_CHECK(bwds == 2 && downs == (self ? 0u : 2u),
               "merge_self %d: %lu td_tile_bwd, %lu td_tile_gdown", self, bwds, downs);
    }
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "merge_self", 1), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "tile_reg", 1), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "local_mem", 0), PSCR_OK);
    check_clusters(gpu, cpu, &rng);
    check_slim(gpu, cpu, &rng);
    check_wspec(gpu, &rng, PSCR_F64, pscr_cuda_tune, launches_exact);
    check_wspec(gpu, &rng, PSCR_C128, pscr_cuda_tune, launches_exact);
    check_gspike_fix(gpu, &rng, PSCR_F64);
    check_gspike_fix(gpu, &rng, PSCR_C128);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "profile", 0), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_tune(gpu, "profile_clear", 1), PSCR_OK);
    PT_CHECK_STATUS(pscr_cuda_kernel_stat(gpu, 0, &name, &count, &sec),
                    PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(pscr_cuda_kernel_stat(cpu, 0, &name, &count, &sec),
                    PSCR_ERR_INVALID_ARGUMENT);
  }
  pscr_context_destroy(gpu);
  pscr_context_destroy(cpu);
  return pt_exit("cuda_tridiag");
}
