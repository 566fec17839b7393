/* Support for tests and benchmarks (not installed): random data, dense
 * references through LAPACK, error norms, and a tiny assertion harness.
 * Data are passed as void * of a pscr_dtype; complex arithmetic is used
 * internally for both dtypes (a real value is a complex with zero imaginary part). */
#ifndef PSCR_TESTING_H
#define PSCR_TESTING_H

#include <complex.h>
#include <stdint.h>
#include <stdio.h>

#include <pscr/pscr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- benchmarks: a tuning list "name=value,..." given pair by pair to tune (a backend's
 * pscr_*_tune); INVALID_ARGUMENT for a malformed list, else the first refusal ---- */
pscr_status pt_apply_tuning(pscr_context *ctx,
                            pscr_status (*tune)(pscr_context *, const char *, int),
                            const char *list);

/* ---- random numbers: xoshiro256**; seed from PSCR_TEST_SEED or the clock ---- */
typedef struct { uint64_t s[4]; } pt_rng;
void pt_rng_seed(pt_rng *r, uint64_t seed);
/* A fresh seed per run (printed by the harness so a failure can be replayed). */
uint64_t pt_fresh_seed(void);
double pt_uniform(pt_rng *r, double lo, double hi);
double pt_normal(pt_rng *r);

/* ---- element access for either dtype ---- */
double complex pt_get(pscr_dtype t, const void *p, size_t i);
void pt_set(pscr_dtype t, void *p, size_t i, double complex v);
void *pt_alloc(pscr_dtype t, size_t count); /* zeroed; aborts the test on failure */
size_t pt_size(pscr_dtype t);

/* Fills count entries with U(lo, hi) (real and imaginary parts independently for C128). */
void pt_fill_uniform(pt_rng *r, pscr_dtype t, void *p, size_t count, double lo, double hi);
/* A random strictly diagonally dominant batch: off-diagonals U(-1,1),
 * d = (|dl| + |du|) * (1 + margin) * random sign/phase (+ tiny). */
void pt_fill_dominant(pt_rng *r, pscr_dtype t, size_t n, size_t batch, size_t stride, void *dl,
                      void *d, void *du, double margin);

/* ---- references and norms for one tridiagonal system (stride 1) ---- */
/* y = A x */
void pt_tridiag_matvec(pscr_dtype t, size_t n, const void *dl, const void *d, const void *du,
                       const void *x, void *y);
/* x = A^{-1} b by LAPACK gtsv on copies. @return LAPACK info. */
int pt_lapack_solve(pscr_dtype t, size_t n, const void *dl, const void *d, const void *du,
                    const void *b, void *x);
/* ||x - xref||_inf / ||xref||_inf */
double pt_rel_error(pscr_dtype t, size_t n, const void *x, const void *xref);
/* Normwise backward error ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf) */
double pt_backward_error(pscr_dtype t, size_t n, const void *dl, const void *d, const void *du,
                         const void *x, const void *b);
/* 1-norm condition estimate via LAPACK gttrf + gtcon (inf if singular). */
double pt_condition(pscr_dtype t, size_t n, const void *dl, const void *d, const void *du);
/* max |a_i - b_i| over count entries; memcmp-style equality for "untouched" checks. */
int pt_equal_bytes(const void *a, const void *b, size_t bytes);

/* pscr_tridiag_solve_shifted_arrays on host data: every argument copied to
 * an array of ctx (m_dl, m_du may be NULL), the solve, b read back (only
 * where it returned PSCR_OK). @return its status, or an array's failure. */
pscr_status pt_solve_shifted_arrays(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype t,
                                    size_t n, size_t nshift, const void *a_dl, const void *a_d,
                                    const void *a_du, const void *m_dl, const void *m_d,
                                    const void *m_du, const void *shift, void *b);

/* ---- the harness: counts failures, main returns pt_exit() ---- */
extern int pt_failures, pt_checks;
#define PT_CHECK(cond, ...)                                                                       \
  do {                                                                                             \
    pt_checks++;                                                                                   \
    if (!(cond)) {                                                                                 \
      pt_failures++;                                                                               \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                         \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fprintf(stderr, "\n");                                                                       \
    }                                                                                              \
  } while (0)
/* Asserts value <= bound (NaN fails) and says what was measured. */
#define PT_CHECK_LE(value, bound, ...)                                                            \
  do {                                                                                             \
    double pt_v_ = (value), pt_b_ = (bound);                                                       \
    PT_CHECK(pt_v_ <= pt_b_, "%s = %.3e > %.3e: " "%s", #value, pt_v_, pt_b_, "");                  \
    if (!(pt_v_ <= pt_b_)) { fprintf(stderr, "  context: "); fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } \
  } while (0)
#define PT_CHECK_STATUS(expr, expected)                                                           \
  do {                                                                                             \
    pscr_status pt_s_ = (expr), pt_e_ = (expected);                                                \
    PT_CHECK(pt_s_ == pt_e_, "%s returned '%s', expected '%s'", #expr, pscr_status_string(pt_s_), \
             pscr_status_string(pt_e_));                                                           \
  } while (0)
/* The on-disk program cache of backend bk (PSCR_CACHE_DIR, files pscr-*.ext in
 * a fresh directory): a solve stores its programs there, a new context loads
 * them and solves bit for bit alike, damaged files are built again and
 * replaced, and a directory that cannot be written leaves solves working.
 * The backend must be available. */
void pt_check_disk_cache(pscr_backend bk, const char *ext);
/* Prints the summary; returns the process exit code (0 only if checks > 0 and none failed). */
int pt_exit(const char *name);
/* Exit code ctest reads as "skipped". */
#define PT_SKIP 77

#ifdef __cplusplus
}
#endif
#endif
