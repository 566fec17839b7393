/* The tridiagonal stability collections of the seed papers, for tests and
 * benchmarks (not installed):
 *   PT_COLL_GSPIKE   seed 000 Table A.1 (21 matrices, condition numbers of its Table 2),
 *   PT_COLL_SPIKE_DP seed 001 Table III (16 matrices),
 * and the singular-block matrices of seed 000 section 4 (Tables 3 and 4).
 * Every generator works for any n >= 1 (a few need n >= 2) and both dtypes, and writes
 * the gtsv2 layout of pscr_tridiag_solve: dl[0] = du[n-1] = 0.
 *
 * PSCR_C128: the complex matrix is e^{i psi} D A D^H, A the real one and
 * D = diag(e^{i phi_k}) with random phases. Entries get arbitrary phases while
 * |A|, |A^{-1}|, the singular values and every condition number stay those
 * of A, so the tables' numbers hold for both dtypes; diagonal blocks keep
 * their (non)singularity. */
#ifndef PSCR_TESTING_COLLECTIONS_H
#define PSCR_TESTING_COLLECTIONS_H

#include <stddef.h>
#include <stdint.h>

#include <pscr/pscr.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  PT_COLL_GSPIKE = 0,  /* seed 000, Table A.1 / Table 2 */
  PT_COLL_SPIKE_DP = 1 /* seed 001, Table III / Table IV */
} pt_collection;
#define PT_COLLECTION_COUNT 2

typedef struct {
  const char *name;        /* short label, e.g. "lesp", "randsvd-m2" */
  const char *description; /* the table's wording */
  double table_cond;       /* the condition number the paper reports ... */
  size_t table_n;          /* ... for this order */
  int random;              /* entries depend on the seed */
  int reducible;           /* marked reducible in seed 000 (a zero or 1e-50 off-diagonal) */
  const char *substitute;  /* NULL if MATLAB is reproduced; else what we do instead */
} pt_matrix_info;

/** @return the number of matrices of @p c (21, 16), 0 for an unknown collection. */
int pt_collection_count(pt_collection c);
/** @return "seed000-A.1" / "seed001-III", or "unknown". */
const char *pt_collection_name(pt_collection c);

/** Describes matrix @p id (1-based, as in the tables) of collection @p c.
 * @return PSCR_ERR_INVALID_ARGUMENT for an unknown collection or id. */
pscr_status pt_collection_info(pt_collection c, int id, pt_matrix_info *info);

/** Writes matrix @p id of @p c, order @p n, dtype @p t into dl, d, du (n entries
 * each). Random entries come from @p seed (same seed, same matrix).
 * @return PSCR_ERR_INVALID_ARGUMENT for bad ids / NULL / n == 0,
 *         PSCR_ERR_OUT_OF_MEMORY if scratch could not be allocated. */
pscr_status pt_collection_matrix(pt_collection c, int id, pscr_dtype t, size_t n, uint64_t seed,
                                 void *dl, void *d, void *du);

/* ---- singular diagonal blocks (seed 000 section 4) ---- */
typedef enum {
  /* #18 = trid(-1, 4, -1) with chosen blocks A_j replaced by A_j - omega I,
   * omega = 4 - 2 cos(pi/(m+1)) the eigenvalue of A_j nearest zero (Table 3). */
  PT_SINGULAR_TOEPLITZ = 0,
  /* #1 (U(-1,1)) with chosen blocks replaced by the tridiagonal (Householder)
   * form of G G^T, G a random m x (m-1) matrix: symmetric, rank m-1 (Table 4). */
  PT_SINGULAR_RANDOM = 1
} pt_singular_kind;

/** 1 if block @p k of @p nblocks is one of the @p nsingular singular ones
 * (spread evenly: block k is chosen when floor(k*s/nb) != floor((k+1)*s/nb)). */
int pt_singular_block_chosen(size_t k, size_t nblocks, size_t nsingular);

/** Writes an order-@p n matrix partitioned into blocks of @p block rows
 * (the last one may be shorter), @p nsingular (0 .. number of blocks) of
 * whose diagonal blocks are exactly (Toeplitz) or numerically (random) singular.
 * The blocks must match the SPIKE partitions of the solver under test.
 * @return PSCR_ERR_INVALID_ARGUMENT for block < 2, nsingular > blocks, NULL, bad kind. */
pscr_status pt_singular_blocks(pt_singular_kind kind, pscr_dtype t, size_t n, size_t block,
                               size_t nsingular, uint64_t seed, void *dl, void *d, void *du);

/* ---- helpers for the experiments ---- */
/** b = A x with the three products and sums in extended precision (long
 * double), so that b is A x rounded once: "b = A x computed accurately". */
void pt_matvec_accurate(pscr_dtype t, size_t n, const void *dl, const void *d, const void *du,
                        const void *x, void *b);
/** ||x - xref||_2 / ||xref||_2 (seed 000's forward relative error). */
double pt_rel_error_2(pscr_dtype t, size_t n, const void *x, const void *xref);

/** Short status name for tables: "OK", "SINGULAR", "UNSUPPORTED", ... */
const char *pt_status_name(pscr_status st);

/** Solves one system (b overwritten by x) with the internal CPU algorithm
 * @p alg, asking a SPIKE solver for exactly @p partitions partitions (0: its
 * own choice), so that singular test blocks line up with its partitions.
 * @p partitions_used and @p modified_blocks (may be NULL) report what the
 * solver did. AUTO is not accepted (it is resolved only by the public API). */
pscr_status pt_solve_partitioned(pscr_td_algorithm alg, pscr_dtype t, size_t n, const void *dl,
                                 const void *d, const void *du, void *b, int partitions,
                                 int *partitions_used, int *modified_blocks);

#ifdef __cplusplus
}
#endif
#endif
