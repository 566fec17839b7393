/* The whole of pscr_eigen_block for one dtype: split the pencil into
 * unreduced blocks, eigenvalues per block (eigen_values_*), then eigenvectors
 * block by block in ascending order (invit_tmpl.c), keeping only the wanted
 * components of each (seed 003 (24)-(28)) and a short window of previous
 * vectors for reorthogonalization: O(m) memory per vector, never m x m.
 * A large block's spectrum is cut into chunks at wide gaps, run as tasks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eigen/invit_tmpl.h"

typedef struct {
  T lam;
  size_t idx;
} FN(key);

static int FN(key_cmp)(const void *pa, const void *pb) {
  const FN(key) *a = pa, *b = pb;
  double ar = S_REAL(a->lam), br = S_REAL(b->lam), ai = S_IMAG(a->lam), bi = S_IMAG(b->lam);
  if (ar != br) return ar < br ? -1 : 1;
  if (ai != bi) return ai < bi ? -1 : 1;
  return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* End of the unreduced block starting at p: A and M both have an exact zero
 * off-diagonal there (then the eigenvectors have disjoint supports). */
static size_t FN(block_end)(size_t m, size_t p, const T *ao, const T *mo) {
  size_t q = p + 1;
  while (q < m && !(ao[q - 1] == 0 && (mo == NULL || mo[q - 1] == 0))) q++;
  return q;
}

static double FN(norm_inf)(size_t n, const T *d, const T *o) {
  double r = 0;
  for (size_t i = 0; i < n; i++) {
    double s = S_ABS(d[i]);
    if (o && i > 0) s += S_ABS(o[i - 1]);
    if (o && i + 1 < n) s += S_ABS(o[i]);
    r = r > s ? r : s;
  }
  return r;
}

/* 1 if no window vector lies within delta of x. */
static int FN(isolated)(const FN(eigen_blk) * B, const FN(eigen_ws) * w, T x) {
  for (size_t j = 0; j < w->nw; j++)
    if (S_ABS(w->slam[j] - x) <= B->delta) return 0;
  return 1;
}

/* Drops the oldest window vector (its slot moves to index nw - 1). */
static void FN(drop_oldest)(FN(eigen_ws) * w) {
  T *f = w->slot[0];
  memmove(w->slot, w->slot + 1, (w->nw - 1) * sizeof *w->slot);
  memmove(w->slam, w->slam + 1, (w->nw - 1) * sizeof *w->slam);
  w->slot[--w->nw] = f;
}

/* Block [p, p + B->n): vectors for lam[0..nk) (ascending real part), written
 * to the output positions rank[0..nk). */
static pscr_status FN(block_vectors)(const FN(eigen_blk) * B, size_t p, const T *lam,
                                     const size_t *rank, size_t nk, size_t nrows,
                                     const size_t *rows, T *lambda, T *comp, FN(eigen_ws) * w) {
  size_t n = B->n;
  w->nw = 0;
  for (size_t k = 0; k < nk;) {
    /* Vectors left of the window can never be needed again (ascending order). */
    while (w->nw > 0 && S_REAL(w->slam[0]) < S_REAL(lam[k]) - B->delta) FN(drop_oldest)(w);
    /* A batch: lam[k] alone if it needs reorthogonalization, else with the
     * following eigenvalues that are isolated from the window and each other. */
    size_t nb = 1;
    if (FN(isolated)(B, w, lam[k]))
      while (nb < EIGEN_BATCH && k + nb < nk && FN(isolated)(B, w, lam[k + nb])) {
        size_t j = 0;
        while (j < nb && S_ABS(lam[k + j] - lam[k + nb]) > B->delta) j++;
        if (j < nb) break;
        nb++;
      }
    while (w->nw + nb > EIGEN_WINDOW) FN(drop_oldest)(w);
    T s[EIGEN_BATCH], *out[EIGEN_BATCH];
    for (size_t j = 0; j < nb; j++) {
      if (w->slot[w->nw + j] == NULL) {
        w->slot[w->nw + j] = malloc(2 * w->m * sizeof(T));
        if (w->slot[w->nw + j] == NULL) return PSCR_ERR_OUT_OF_MEMORY;
      }
      out[j] = w->slot[w->nw + j], s[j] = lam[k + j];
    }
    pscr_status st = FN(eigen_vectors)(B, s, nb, w, out);
    if (st != PSCR_OK) return st;
    for (size_t j = 0; j < nb; j++) {
      size_t pos = rank[k + j];
      lambda[pos] = s[j];
      for (size_t r = 0; r < nrows; r++)
        comp[pos * nrows + r] = rows[r] >= p && rows[r] - p < n ? out[j][rows[r] - p] : 0;
      w->slam[w->nw++] = s[j];
    }
    k += nb;
  }
  return PSCR_OK;
}

/* Workspace of one chunk of vectors of a block of order n. */
static pscr_status FN(ws_alloc)(FN(eigen_ws) * w, size_t n, const T *start) {
  size_t nbn = EIGEN_BATCH * n;
  memset(w, 0, sizeof *w);
  w->m = n, w->start = start;
  w->t = malloc((n + 5 * nbn) * sizeof *w->t);
  w->piv = malloc(nbn);
  w->ldw = malloc(4 * n * sizeof *w->ldw);
  if (w->t == NULL || w->piv == NULL || w->ldw == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  w->b = w->t + n, w->l = w->b + nbn, w->ui = w->l + nbn, w->u1 = w->ui + nbn;
  w->u2 = w->u1 + nbn;
  return PSCR_OK;
}

static void FN(ws_free)(FN(eigen_ws) * w) {
  for (size_t j = 0; j < EIGEN_WINDOW; j++) free(w->slot[j]);
  free(w->t), free(w->piv), free(w->ldw);
}

/* What the chunks of one unreduced block share (read-only but the outputs,
 * which each chunk writes at its own positions). */
typedef struct {
  const FN(eigen_blk) * B;
  size_t p, nrows;
  const T *lam, *start;
  const size_t *rank, *rows;
  T *lambda, *comp;
} FN(vec_job);

static pscr_status FN(chunk_vectors)(const FN(vec_job) * J, size_t k0, size_t k1) {
  FN(eigen_ws) w;
  pscr_status st = FN(ws_alloc)(&w, J->B->n, J->start);
  if (st == PSCR_OK)
    st = FN(block_vectors)(J->B, J->p, J->lam + k0, J->rank + k0, k1 - k0, J->nrows, J->rows,
                           J->lambda, J->comp, &w);
  FN(ws_free)(&w);
  return st;
}

/* The vectors of one unreduced block: its chunks as OpenMP tasks, which the
 * idle threads of an enclosing parallel region (the plan's loop over blocks)
 * pick up; outside one they run in turn. */
static pscr_status FN(unreduced_vectors)(const FN(vec_job) * J) {
  size_t n = J->B->n, *cut = malloc((n / EIGEN_CHUNK + 2) * sizeof *cut);
  if (cut == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  size_t nc = eigen_chunk_cuts(n, (const double *)J->lam, PSCR_Z ? 2 : 1, J->B->delta, cut);
  pscr_status st = PSCR_OK;
  if (nc == 1) {
    st = FN(chunk_vectors)(J, 0, n);
  } else {
    long long nch = (long long)nc;
#pragma omp taskloop grainsize(1) shared(st)
    for (long long c = 0; c < nch; c++) {
      pscr_status s = FN(chunk_vectors)(J, cut[c], cut[c + 1]);
      if (s != PSCR_OK) {
#pragma omp critical(pscr_eigen_chunk_status)
        if (st == PSCR_OK) st = s;
      }
    }
  }
  free(cut);
  return st;
}

/* Sorts (lambda, comp rows) by ascending real part if a refinement moved an
 * eigenvalue past its neighbour. */
static pscr_status FN(final_sort)(size_t m, size_t nrows, T *lambda, T *comp) {
  size_t i = 1;
  while (i < m && S_REAL(lambda[i - 1]) <= S_REAL(lambda[i])) i++;
  if (i >= m) return PSCR_OK;
  FN(key) *key = malloc(m * sizeof *key);
  T *cp = malloc((m * nrows + 1) * sizeof *cp);
  if (key == NULL || cp == NULL) {
    free(key), free(cp);
    return PSCR_ERR_OUT_OF_MEMORY;
  }
  for (size_t j = 0; j < m; j++) key[j].lam = lambda[j], key[j].idx = j;
  qsort(key, m, sizeof *key, FN(key_cmp));
  memcpy(cp, comp, m * nrows * sizeof *cp);
  for (size_t j = 0; j < m; j++) {
    lambda[j] = key[j].lam;
    memcpy(comp + j * nrows, cp + key[j].idx * nrows, nrows * sizeof *cp);
  }
  free(key), free(cp);
  return PSCR_OK;
}

pscr_status FN(eigen_pencil)(size_t m, const T *ad, const T *ao, const T *md, const T *mo,
                             size_t nrows, const size_t *rows, T *lambda, T *comp) {
  pscr_status st = PSCR_OK;
  T *lam = malloc(13 * m * sizeof *lam); /* lam, 10 m of work for eigen_values, start, ex */
  size_t *rank = malloc(m * sizeof *rank);
  FN(key) *key = malloc(m * sizeof *key);
  if (lam == NULL || rank == NULL || key == NULL) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
  T *work = lam + m, *start = work + 10 * m, *ex = start + m;
  uint64_t seed = 0x9E3779B97F4A7C15ULL; /* xorshift64*: reproducible, thread-safe */
  for (size_t i = 0; i < m; i++) {
    seed ^= seed >> 12, seed ^= seed << 25, seed ^= seed >> 27;
    start[i] = (double)((seed * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-52 - 1.0;
  }
  /* Pass 1: eigenvalues of each unreduced block, ascending within it. */
  size_t nblk = 0;
  for (size_t p = 0, q; p < m; p = q, nblk++) {
    q = FN(block_end)(m, p, ao, mo);
    st = FN(eigen_values)(q - p, ad + p, ao + p, md + p, mo ? mo + p : NULL, lam + p, work);
    if (st != PSCR_OK) goto cleanup;
    for (size_t i = p; i < q; i++) {
      if (!S_ISFINITE(lam[i])) {
        st = PSCR_ERR_NOT_CONVERGED;
        goto cleanup;
      }
      key[i].lam = lam[i], key[i].idx = i;
    }
    qsort(key + p, q - p, sizeof *key, FN(key_cmp));
    for (size_t i = p; i < q; i++) lam[i] = key[i].lam, key[i].idx = i;
  }
  /* Output position of each eigenvalue: ascending real part over all blocks. */
  if (nblk > 1) qsort(key, m, sizeof *key, FN(key_cmp));
  for (size_t i = 0; i < m; i++) rank[key[i].idx] = i;
  /* Pass 2: vectors, block by block. */
  for (size_t p = 0, q; p < m; p = q) {
    q = FN(block_end)(m, p, ao, mo);
    FN(eigen_blk) B = {.n = q - p, .ad = ad + p, .ao = ao + p, .md = md + p, .ex = ex};
    B.mo = mo ? mo + p : NULL;
    FN(eigen_row_excess)(B.n, B.ad, B.ao, B.ao, ex);
    B.anorm = FN(norm_inf)(B.n, B.ad, q - p > 1 ? B.ao : NULL);
    B.mnorm = FN(norm_inf)(B.n, B.md, q - p > 1 ? B.mo : NULL);
    double lmax = 0;
    for (size_t i = p; i < q; i++) lmax = lmax > S_ABS(lam[i]) ? lmax : S_ABS(lam[i]);
    /* small blocks: every pair reorthogonalized (O(m^3), a few ms in all) */
    B.delta = eigen_cluster_delta(B.n, lmax), B.lmax = lmax;
    FN(vec_job) J = {&B, p, nrows, lam + p, start, rank + p, rows, lambda, comp};
    st = FN(unreduced_vectors)(&J);
    if (st != PSCR_OK) goto cleanup;
  }
  st = FN(final_sort)(m, nrows, lambda, comp);
cleanup:
  free(lam), free(rank), free(key);
  return st;
}
