/* The generators of the collections that are more than a formula:
 * the randsvd substitute, seed 000 #21, and the random singular blocks. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "collections_impl.h"

/* ---- randsvd ----
 * MATLAB's gallery('randsvd', n, kappa, mode, 1, 1) is U diag(sigma) V^T
 * (random orthogonal U, V) reduced to tridiagonal form by two-sided
 * Householder transformations: O(n^3), and its random streams cannot be
 * reproduced. Substitute with the same singular values: a symmetric
 * tridiagonal J = Q^T diag(lambda) Q with lambda_i = +-sigma_i (random signs)
 * and random eigenvector weights, built in O(n^2) by adding one eigenvalue
 * at a time to a bordered ("arrow") matrix and chasing the bulge back to
 * tridiagonal form with Givens rotations (the reconstruction of a Jacobi
 * matrix from spectral data, Gragg & Harrod 1984). Then T = S1 J S2 with
 * random sign matrices S1, S2: orthogonal factors, so sigma(T) = sigma(J)
 * = |lambda| exactly, and T is unsymmetric. An unreduced J cannot repeat an
 * eigenvalue, so the repeated sigmas of modes 1 and 2 get a 1e-2 relative
 * spread (the condition number moves by < 1%); the clustered spectrum gives
 * J tiny off-diagonals, as MATLAB's modes 1-3 are marked reducible in seed 000.
 * Above 8192 rows the O(n^2) build is done on blocks of 512 rows, each with
 * an interleaved share of the sigmas, coupled by off-diagonals of the size
 * of their neighbours: the singular values are then only approximately
 * the mode's (gtcon estimates 1e13 .. 8e15 at 2^16 and 2^20, vs 1e15). */
#define RSVD_EXACT_MAX 8192
#define RSVD_TILE 512

static void mode_sigmas(size_t n, double kappa, int mode, pt_rng *r, double *s) {
  for (size_t i = 0; i < n; i++) {
    double f = n > 1 ? (double)i / (double)(n - 1) : 0;
    switch (mode) {
    case 1:
      s[i] = i == 0 ? 1 : 1 / kappa;
      break; /* one large */
    case 2:
      s[i] = i + 1 == n ? 1 / kappa : 1;
      break; /* one small */
    case 3:
      s[i] = pow(kappa, -f);
      break; /* geometric */
    default:
      s[i] = 1 - (1 - 1 / kappa) * f;
      break; /* arithmetic */
    }
    if ((mode == 1 && i > 0) || (mode == 2 && i + 1 < n))
      s[i] *= 1 + 1e-2 * pt_uniform(r, 0, 1);
  }
}

/* Jacobi matrix (a diagonal, e off-diagonal) with eigenvalues lam[0..m-1] and
 * last eigenvector components proportional to w: see the comment above. */
static void jacobi_from_spectrum(size_t m, const double *lam, const double *w, double *a,
                                 double *e) {
  double beta = w[0]; /* coupling of the arrow node to the last row */
  a[0] = lam[0];
  for (size_t k = 1; k < m; k++) {
    a[k] = lam[k];
    e[k - 1] = 0;
    /* The outer node (the arrow, later the previous q) couples to p = q-1 by
     * g and to q by h; rotate (p, q) so that only the coupling to q stays. */
    double g = beta, h = w[k];
    for (size_t q = k;; q--) {
      size_t p = q - 1;
      double rr = sqrt(g * g + h * h), c = rr > 0 ? h / rr : 1, s = rr > 0 ? -g / rr : 0;
      if (q == k)
        beta = rr;
      else
        e[q] = rr;
      double ap = a[p], aq = a[q], ep = e[p];
      a[p] = c * c * ap + 2 * c * s * ep + s * s * aq;
      a[q] = s * s * ap - 2 * c * s * ep + c * c * aq;
      e[p] = (c * c - s * s) * ep + c * s * (aq - ap);
      if (p == 0 || s == 0)
        break;           /* no bulge left */
      g = -s * e[p - 1]; /* the new bulge (p-1, q) */
      e[p - 1] *= c;
      h = e[p];
    }
  }
}

/* One exact block: m sigmas -> T = S1 J S2 into dl, d, du (row offsets local). */
static void randsvd_block(size_t m, const double *sig, pt_rng *r, double *lam, double *w, double *e,
                          double *dl, double *d, double *du) {
  for (size_t i = 0; i < m; i++) {
    lam[i] = (pt_uniform(r, 0, 1) < 0.5 ? -1 : 1) * sig[i];
    w[i] = fabs(pt_normal(r)) + 1e-3;
  }
  /* Shuffle so that the order of addition is random. */
  for (size_t i = m; i-- > 1;) {
    size_t j = (size_t)(pt_uniform(r, 0, 1) * (double)(i + 1));
    if (j > i)
      j = i;
    double t = lam[i];
    lam[i] = lam[j];
    lam[j] = t;
  }
  jacobi_from_spectrum(m, lam, w, d, e);
  double s_prev1 = 1, s_prev2 = 1;
  for (size_t i = 0; i < m; i++) {
    double s1 = pt_uniform(r, 0, 1) < 0.5 ? -1 : 1, s2 = pt_uniform(r, 0, 1) < 0.5 ? -1 : 1;
    d[i] *= s1 * s2;
    if (i > 0) {
      du[i - 1] = s_prev1 * s2 * e[i - 1]; /* row i-1, column i */
      dl[i] = s1 * s_prev2 * e[i - 1];     /* row i, column i-1 */
    }
    s_prev1 = s1;
    s_prev2 = s2;
  }
}

pscr_status ptc_randsvd(size_t n, double kappa, int mode, pt_rng *r, double *dl, double *d,
                        double *du) {
  size_t tile = n <= RSVD_EXACT_MAX ? n : RSVD_TILE, nb = (n + tile - 1) / tile;
  double *sig = malloc((2 * n + 3 * tile + 3) * sizeof *sig);
  if (sig == NULL)
    return PSCR_ERR_OUT_OF_MEMORY;
  double *inter = sig + n, *lam = inter + n, *w = lam + tile + 1, *e = w + tile + 1;
  mode_sigmas(n, kappa, mode, r, sig);
  size_t k = 0; /* interleave, so that each block gets a sample of the whole distribution */
  for (size_t s = 0; s < nb; s++)
    for (size_t i = s; i < n; i += nb)
      inter[k++] = sig[i];
  dl[0] = 0;
  for (size_t b = 0; b < nb; b++) {
    size_t lo = b * n / nb, hi = (b + 1) * n / nb;
    randsvd_block(hi - lo, inter + lo, r, lam, w, e, dl + lo, d + lo, du + lo);
    if (b > 0) { /* couple to the previous block at the smaller of their scales */
      double left = fabs(d[lo - 1]) + fabs(dl[lo - 1]), right = fabs(d[lo]) + fabs(du[lo]);
      double c = (left < right ? left : right) * pt_uniform(r, -1, 1);
      dl[lo] = c;
      du[lo - 1] = c * (pt_uniform(r, 0, 1) < 0.5 ? -1 : 1);
    }
  }
  free(sig);
  return PSCR_OK;
}

/* ---- seed 000 #21 ----
 * Swarztrauber's matrix [59] is not available. Substitute from the same
 * source: P_L(cos t) = sum_j a_j cos(j t) and Legendre's equation
 * sin^2 P'' + sin cos P' + L(L+1) sin^2 P = 0 give, for each j,
 *   ((j-1)(j-2) - N) a_{j-2} + 2 (N - j^2) a_j + ((j+1)(j+2) - N) a_{j+2} = 0,
 * N = L(L+1). Rows j = 2, 4, ..., 2n for the unknowns a_2 .. a_2n, scaled by
 * 1/N, with L = 2n + 1 (odd: the even-j equations are then not those of the
 * exact, singular, truncation). */
void ptc_legendre(size_t n, double *dl, double *d, double *du) {
  double L = 2.0 * (double)n + 1, N = L * (L + 1);
  for (size_t i = 0; i < n; i++) {
    double j = 2.0 * (double)(i + 1);
    dl[i] = i > 0 ? ((j - 1) * (j - 2) - N) / N : 0;
    d[i] = 2 * (N - j * j) / N;
    du[i] = i + 1 < n ? ((j + 1) * (j + 2) - N) / N : 0;
  }
}

/* ---- random singular block (seed 000 section 4, Table 4) ----
 * G is m x (m-1) with entries U(-1,1)*sqrt(3/(m-1)) (so diag(G G^T) ~ 1);
 * B = G G^T has rank m-1; LAPACK sytrd takes it to the symmetric tridiagonal
 * form Q^T B Q (the "Hessenberg form" of the paper), still of rank m-1. */
pscr_status ptc_singular_random_block(size_t m, pt_rng *r, double *d, double *e) {
  double *g = malloc((m * (m - 1) + m * m + m) * sizeof *g);
  if (g == NULL)
    return PSCR_ERR_OUT_OF_MEMORY;
  double *b = g + m * (m - 1), *tau = b + m * m, scale = sqrt(3.0 / (double)(m - 1));
  for (size_t i = 0; i < m * (m - 1); i++)
    g[i] = pt_uniform(r, -1, 1) * scale;
  for (size_t i = 0; i < m; i++) /* column major, lower triangle */
    for (size_t j = 0; j <= i; j++) {
      double s = 0;
      for (size_t k = 0; k + 1 < m; k++)
        s += g[i + k * m] * g[j + k * m];
      b[i + j * m] = s;
    }
  lapack_int info =
      LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', (lapack_int)m, b, (lapack_int)m, d, e, tau);
  free(g);
  return info == 0 ? PSCR_OK : PSCR_ERR_INVALID_ARGUMENT;
}
