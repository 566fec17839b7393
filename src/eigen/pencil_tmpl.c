/* The whole of pscr_eigen_block for one dtype: split the pencil into
 * unreduced blocks, eigenvalues per block (eigen_values_*), then eigenvectors
 * block by block in ascending order (invit_tmpl.c), keeping only the wanted
 * components of each (seed 003 (24)-(28)) and a short window of previous
 * vectors for reorthogonalization: O(m) memory per vector, never m x m. */
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

/* Block [p, p+n): vectors for lam[0..n) (ascending real part), written to the
 * output positions rank[0..n). */
static pscr_status FN(block_vectors)(const FN(eigen_blk) * B, size_t p, const T *lam,
                                     const size_t *rank, size_t nrows, const size_t *rows,
                                     T *lambda, T *comp, FN(eigen_ws) * w) {
  size_t n = B->n;
  w->nw = 0;
  for (size_t k = 0; k < n;) {
    /* Vectors left of the window can never be needed again (ascending order). */
    while (w->nw > 0 && S_REAL(w->slam[0]) < S_REAL(lam[k]) - B->delta) FN(drop_oldest)(w);
    /* A batch: lam[k] alone if it needs reorthogonalization, else with the
     * following eigenvalues that are isolated from the window and each other. */
    size_t nb = 1;
    if (FN(isolated)(B, w, lam[k]))
      while (nb < EIGEN_BATCH && k + nb < n && FN(isolated)(B, w, lam[k + nb])) {
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
  FN(eigen_ws) w;
  memset(&w, 0, sizeof w);
  w.m = m;
  const size_t nbm = EIGEN_BATCH * m;
  T *lam = malloc((3 * m + 5 * nbm) * sizeof *lam); /* >= 11m: eigen_values needs 10m */
  size_t *rank = malloc(m * sizeof *rank);
  FN(key) *key = malloc(m * sizeof *key);
  w.piv = malloc(nbm);
  if (lam == NULL || rank == NULL || key == NULL || w.piv == NULL) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
  T *work = lam + m;
  _Static_assert(5 * EIGEN_BATCH + 2 >= 10, "eigen_values needs 10 m of work");
  w.t = work, w.b = work + m, w.l = w.b + nbm, w.ui = w.l + nbm, w.u1 = w.ui + nbm;
  w.u2 = w.u1 + nbm, w.start = w.u2 + nbm;
  uint64_t seed = 0x9E3779B97F4A7C15ULL; /* xorshift64*: reproducible, thread-safe */
  for (size_t i = 0; i < m; i++) {
    seed ^= seed >> 12, seed ^= seed << 25, seed ^= seed >> 27;
    w.start[i] = (double)((seed * 0x2545F4914F6CDD1DULL) >> 11) * 0x1.0p-52 - 1.0;
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
    FN(eigen_blk) B = {q - p, ad + p, ao + p, md + p, mo ? mo + p : NULL, 0, 0, 0};
    B.anorm = FN(norm_inf)(B.n, B.ad, q - p > 1 ? B.ao : NULL);
    B.mnorm = FN(norm_inf)(B.n, B.md, q - p > 1 ? B.mo : NULL);
    double lmax = 0;
    for (size_t i = p; i < q; i++) lmax = lmax > S_ABS(lam[i]) ? lmax : S_ABS(lam[i]);
    B.delta = EIGEN_CLUSTER * lmax;
    st = FN(block_vectors)(&B, p, lam + p, rank + p, nrows, rows, lambda, comp, &w);
    if (st != PSCR_OK) goto cleanup;
  }
  st = FN(final_sort)(m, nrows, lambda, comp);
cleanup:
  for (size_t j = 0; j < EIGEN_WINDOW; j++) free(w.slot[j]);
  free(lam), free(rank), free(key), free(w.piv);
  return st;
}
