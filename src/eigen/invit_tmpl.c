/* Eigenvectors of the pencil (A~, M~) of seed 003 (23) by inverse iteration on
 * the pencil itself, (A - s M) y = M x, with s from eigen_values_*: O(m) work
 * and memory per eigenvector, only the wanted components ((24)-(28)) kept.
 * Vectors are M-normalized with the transpose, w^T M w = 1 ((19); no
 * conjugation for complex symmetric data). Close eigenvalues: each new
 * vector is M-orthogonalized (twice, classical Gram-Schmidt) against the
 * previous vectors of its block whose eigenvalues lie within
 * EIGEN_CLUSTER * max |lambda|; vectors farther apart are orthogonal to
 * O(eps / EIGEN_CLUSTER) already (inverse iteration's error along v_j is
 * eps ||A - s M|| / |lambda_j - s|). */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/scalar.h"
#include "eigen/eigen_impl.h"

#define EIGEN_CLUSTER 1e-5 /* relative window of reorthogonalization */
#define EIGEN_WINDOW 256   /* at most this many vectors kept for it */
#define EIGEN_MAX_ITER 8   /* solves per eigenvector */

#if PSCR_Z
#define S_IMAG(x) cimag(x)
#define S_INV(x) eigen_zinv(x)
#define S_SQRT(x) csqrt(x)
#else
#define S_IMAG(x) 0.0
#define S_INV(x) (1.0 / (x))
#define S_SQRT(x) sqrt(x)
#endif

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

/* Workspace of one call, for blocks of order <= m. */
typedef struct {
  T *y, *b, *t, *l, *ui, *u1, *u2; /* iterate, rhs, temporary; LU of A - s M */
  unsigned char *piv;
  T *slot[EIGEN_WINDOW]; /* window: w_j (n) and M w_j (n) per slot, oldest first */
  T slam[EIGEN_WINDOW];
  size_t nw, m;
} FN(ws);

/* One block of the pencil: order n, M diagonal when mo == NULL. */
typedef struct {
  size_t n;
  const T *ad, *ao, *md, *mo;
  double anorm, mnorm, delta;
} FN(blk);

static void FN(matvec)(size_t n, const T *d, const T *o, const T *x, T *y) {
  if (o == NULL || n == 1) {
    for (size_t i = 0; i < n; i++) y[i] = d[i] * x[i];
    return;
  }
  y[0] = d[0] * x[0] + o[0] * x[1];
  for (size_t i = 1; i + 1 < n; i++) y[i] = o[i - 1] * x[i - 1] + d[i] * x[i] + o[i] * x[i + 1];
  y[n - 1] = o[n - 2] * x[n - 2] + d[n - 1] * x[n - 1];
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

static double FN(vmax)(size_t n, const T *x) {
  double r = 0;
  for (size_t i = 0; i < n; i++) r = r > S_ABS1(x[i]) ? r : S_ABS1(x[i]);
  return r;
}

static T FN(dot)(size_t n, const T *x, const T *y) { /* x^T y, no conjugation */
  T s = 0;
  for (size_t i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

/* P (A - s M) = L U with row interchanges (as LAPACK gttrf); pivots smaller
 * than eps ||A - s M|| are replaced by that size (as dlagts), which keeps the
 * solve finite at an exact eigenvalue. */
static void FN(factor)(const FN(blk) * B, T s, FN(ws) * w) {
  double scale = B->anorm + S_ABS(s) * B->mnorm; /* ||A|| + |s| ||M|| (||M|| if A = 0) */
  if (scale == 0) scale = B->mnorm;
  size_t n = B->n;
  const T *ad = B->ad, *ao = B->ao, *md = B->md, *mo = B->mo;
  double knorm = 0;
  for (size_t i = 0; i < n; i++) {
    double r = S_ABS1(ad[i] - s * md[i]);
    if (i > 0) r += S_ABS1(ao[i - 1] - (mo ? s * mo[i - 1] : 0));
    if (i + 1 < n) r += S_ABS1(ao[i] - (mo ? s * mo[i] : 0));
    knorm = knorm > r ? knorm : r;
  }
  double pert = DBL_EPSILON * (knorm > scale ? knorm : scale);
  T d = ad[0] - s * md[0], du = n > 1 ? ao[0] - (mo ? s * mo[0] : 0) : 0;
  for (size_t i = 0; i + 1 < n; i++) {
    T sub = ao[i] - (mo ? s * mo[i] : 0), kn = ad[i + 1] - s * md[i + 1];
    T on = i + 2 < n ? ao[i + 1] - (mo ? s * mo[i + 1] : 0) : 0;
    int swap = S_ABS1(sub) > S_ABS1(d);
    T p = swap ? sub : d;
    double ap = S_ABS1(p);
    if (ap < pert) p = ap > 0 ? p * (pert / ap) : pert;
    T r = S_INV(p), l = (swap ? d : sub) * r;
    w->piv[i] = (unsigned char)swap, w->l[i] = l, w->ui[i] = r;
    if (swap) {
      w->u1[i] = kn, w->u2[i] = on;
      d = du - l * kn, du = -l * on;
    } else {
      w->u1[i] = du, w->u2[i] = 0;
      d = kn - l * du, du = on;
    }
  }
  double ad1 = S_ABS1(d);
  if (ad1 < pert) d = ad1 > 0 ? d * (pert / ad1) : pert;
  w->ui[n - 1] = S_INV(d);
}

static void FN(solve)(size_t n, const FN(ws) * w, T *y) {
  for (size_t i = 0; i + 1 < n; i++) {
    if (w->piv[i]) {
      T t = y[i];
      y[i] = y[i + 1], y[i + 1] = t - w->l[i] * y[i + 1];
    } else {
      y[i + 1] -= w->l[i] * y[i];
    }
  }
  y[n - 1] *= w->ui[n - 1];
  if (n > 1) y[n - 2] = (y[n - 2] - w->u1[n - 2] * y[n - 1]) * w->ui[n - 2];
  for (size_t i = n > 2 ? n - 2 : 0; i-- > 0;)
    y[i] = (y[i] - w->u1[i] * y[i + 1] - w->u2[i] * y[i + 2]) * w->ui[i];
}

/* y -= sum_j (w_j^T M y) w_j over the window vectors within delta of s. */
static void FN(orthogonalize)(const FN(blk) * B, T s, FN(ws) * w, T *y) {
  size_t n = B->n;
  for (int pass = 0; pass < 2; pass++) {
    T c[EIGEN_WINDOW];
    for (size_t j = 0; j < w->nw; j++)
      c[j] = S_ABS(w->slam[j] - s) <= B->delta ? FN(dot)(n, w->slot[j] + n, y) : 0;
    for (size_t j = 0; j < w->nw; j++)
      if (c[j] != 0)
        for (size_t i = 0; i < n; i++) y[i] -= c[j] * w->slot[j][i];
  }
}

static uint64_t FN(rng)(uint64_t *s) { /* xorshift64*: reproducible start vectors */
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1DULL;
}

/* The eigenvector for the estimate *s (refined on return for complex data):
 * w^T M w = 1, written with M w into out (2n). */
static pscr_status FN(vector)(const FN(blk) * B, T *s, size_t k, FN(ws) * w, T *out) {
  size_t n = B->n;
  T *y = out, *b = w->b;
  uint64_t seed = 0x9E3779B97F4A7C15ULL * (k + 1) | 1;
  for (size_t i = 0; i < n; i++) b[i] = (double)(FN(rng)(&seed) >> 11) * 0x1.0p-52 - 1.0;
  double thr = 32 * DBL_EPSILON * sqrt((double)n);
  int conv = 0;
  FN(factor)(B, *s, w);
  for (int it = 0;; it++) {
    memcpy(y, b, n * sizeof *y);
    FN(solve)(n, w, y);
    if (w->nw > 0) FN(orthogonalize)(B, *s, w, y);
    double yn = FN(vmax)(n, y), bn = FN(vmax)(n, b);
    if (!(yn > 0) || !isfinite(yn)) return PSCR_ERR_NOT_CONVERGED;
    double ratio = bn / ((B->anorm + S_ABS(*s) * B->mnorm) * yn); /* ||(A - sM) y|| / (..) ||y|| */
    if (B->anorm + S_ABS(*s) * B->mnorm == 0) ratio = bn / (B->mnorm * yn); /* A = 0 */
    for (size_t i = 0; i < n; i++) y[i] *= 1 / yn;
    if (conv) break; /* this was the extra solve */
    if (ratio <= thr) {
      conv = 1;
    } else if (it + 1 >= EIGEN_MAX_ITER) {
      if (ratio > 1e3 * thr) return PSCR_ERR_NOT_CONVERGED;
      break;
    } else if (it >= 1) { /* s is poor: Rayleigh quotient y^T A y / y^T M y, refactor */
      FN(matvec)(n, B->md, B->mo, y, w->t);
      T ym = FN(dot)(n, y, w->t);
      FN(matvec)(n, B->ad, B->ao, y, w->t);
      T ya = FN(dot)(n, y, w->t);
      if (S_ABS(ym) > 0) {
        *s = ya / ym;
        FN(factor)(B, *s, w);
      }
    }
    FN(matvec)(n, B->md, B->mo, y, b); /* next right-hand side M y */
  }
  T *my = out + n;
  FN(matvec)(n, B->md, B->mo, y, my);
  T ym = FN(dot)(n, y, my);
  double yy = 0;
  for (size_t i = 0; i < n; i++) yy += S_REAL(y[i]) * S_REAL(y[i]) + S_IMAG(y[i]) * S_IMAG(y[i]);
#if PSCR_Z /* w^T M w ~ 0: an (almost) isotropic eigenvector, ill-posed */
  if (!(S_ABS(ym) > 1e3 * DBL_EPSILON * B->mnorm * yy)) return PSCR_ERR_NOT_CONVERGED;
#else
  (void)yy;
  if (!(ym > 0)) return PSCR_ERR_NOT_CONVERGED;
#endif
  T sc = S_INV(S_SQRT(ym));
  for (size_t i = 0; i < n; i++) y[i] *= sc, my[i] *= sc;
#if PSCR_Z
  FN(matvec)(n, B->ad, B->ao, y, w->t);
  *s = FN(dot)(n, y, w->t); /* Rayleigh quotient refines the LR estimate */
#endif
  return PSCR_OK;
}

/* Block [p, p+n): vectors for lam[0..n) (ascending real part), written to the
 * output positions rank[0..n). */
static pscr_status FN(block_vectors)(const FN(blk) * B, size_t p, T *lam, const size_t *rank,
                                     size_t nrows, const size_t *rows, T *lambda, T *comp,
                                     FN(ws) * w) {
  size_t n = B->n;
  w->nw = 0;
  for (size_t k = 0; k < n; k++) {
    T s = lam[k];
    size_t drop = 0; /* vectors left of the window can never be needed again */
    while (drop < w->nw && S_REAL(w->slam[drop]) < S_REAL(s) - B->delta) drop++;
    if (w->nw == EIGEN_WINDOW && drop == 0) drop = 1;
    for (size_t j = 0; j < drop; j++) { /* the freed slot goes to index nw - 1 */
      T *f = w->slot[0];
      memmove(w->slot, w->slot + 1, (w->nw - 1) * sizeof *w->slot);
      memmove(w->slam, w->slam + 1, (w->nw - 1) * sizeof *w->slam);
      w->slot[--w->nw] = f;
    }
    if (w->slot[w->nw] == NULL) {
      w->slot[w->nw] = malloc(2 * w->m * sizeof(T));
      if (w->slot[w->nw] == NULL) return PSCR_ERR_OUT_OF_MEMORY;
    }
    T *out = w->slot[w->nw];
    pscr_status st = FN(vector)(B, &s, k, w, out);
    if (st != PSCR_OK) return st;
    w->slam[w->nw++] = s;
    size_t pos = rank[k];
    lambda[pos] = s;
    for (size_t r = 0; r < nrows; r++)
      comp[pos * nrows + r] = rows[r] >= p && rows[r] - p < n ? out[rows[r] - p] : 0;
  }
  return PSCR_OK;
}

/* Sorts (lambda, comp rows) by ascending real part if the refinement moved
 * an eigenvalue past its neighbour. */
static pscr_status FN(final_sort)(size_t m, size_t nrows, T *lambda, T *comp) {
  size_t i = 1;
  while (i < m && S_REAL(lambda[i - 1]) <= S_REAL(lambda[i])) i++;
  if (i >= m) return PSCR_OK;
  FN(key) *key = malloc(m * sizeof *key);
  T *cp = malloc((m * nrows + m) * sizeof *cp);
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
  FN(ws) w;
  memset(&w, 0, sizeof w);
  w.m = m;
  T *lam = malloc(8 * m * sizeof *lam);
  size_t *rank = malloc(m * sizeof *rank);
  FN(key) *key = NULL;
  w.piv = malloc(m);
  if (lam == NULL || rank == NULL || w.piv == NULL) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
  T *work = lam + m; /* 6m for eigen_values, then 7m for the iteration */
  w.y = work, w.b = work + m, w.t = work + 2 * m, w.l = work + 3 * m, w.ui = work + 4 * m;
  w.u1 = work + 5 * m, w.u2 = work + 6 * m;
  /* Pass 1: eigenvalues of every unreduced block (split where A and M both
   * have an exact zero off-diagonal), each block ascending. */
  size_t nblk = 0;
  for (size_t p = 0, q; p < m; p = q) {
    for (q = p + 1; q < m && !(ao[q - 1] == 0 && (mo == NULL || mo[q - 1] == 0)); q++) {
    }
    st = FN(eigen_values)(q - p, ad + p, ao + p, md + p, mo ? mo + p : NULL, lam + p, work);
    if (st != PSCR_OK) goto cleanup;
    for (size_t i = p; i < q; i++)
      if (!S_ISFINITE(lam[i])) {
        st = PSCR_ERR_NOT_CONVERGED;
        goto cleanup;
      }
    nblk++;
  }
  /* Sort each block, then rank all eigenvalues (ascending real part). */
  key = malloc(m * sizeof *key);
  if (key == NULL) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
  for (size_t i = 0; i < m; i++) key[i].lam = lam[i], key[i].idx = i;
  for (size_t p = 0, q; p < m; p = q) {
    for (q = p + 1; q < m && !(ao[q - 1] == 0 && (mo == NULL || mo[q - 1] == 0)); q++) {
    }
    qsort(key + p, q - p, sizeof *key, FN(key_cmp));
    for (size_t i = p; i < q; i++) lam[i] = key[i].lam, key[i].idx = i;
  }
  if (nblk > 1) qsort(key, m, sizeof *key, FN(key_cmp));
  for (size_t i = 0; i < m; i++) rank[key[i].idx] = i;
  /* Pass 2: vectors, block by block. */
  for (size_t p = 0, q; p < m; p = q) {
    for (q = p + 1; q < m && !(ao[q - 1] == 0 && (mo == NULL || mo[q - 1] == 0)); q++) {
    }
    FN(blk) B = {q - p, ad + p, ao + p, md + p, mo ? mo + p : NULL, 0, 0, 0};
    B.anorm = FN(norm_inf)(B.n, B.ad, B.ao);
    B.mnorm = FN(norm_inf)(B.n, B.md, B.mo);
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
