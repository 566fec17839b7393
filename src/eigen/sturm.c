/* Eigenvalues of a large real symmetric tridiagonal pencil (A, M), M SPD,
 * in parallel, without reducing it to a standard problem (that reduction,
 * dsbgst, is serial and O(n^2) like dsterf after it).
 *
 * Counts. By Sylvester's law (M SPD) the number of eigenvalues below x is
 * the number of negative pivots of A - x M = L D L^T:
 *   q_0 = a_0 - x m_0,  q_i = (a_i - x m_i) - e_i^2 / q_{i-1},  e_i = o_{i-1} - x mo_{i-1}.
 * The computed pivots are the exact ones of a pencil whose entries moved by
 * a few ulps each (as Kahan's analysis of the standard Sturm sequence), so a
 * count errs only for x within about eps (|A| + |x| |M|) of an eigenvalue:
 * no reduction error comes on top. IEEE arithmetic needs no pivot guard: a
 * zero pivot gives q_{i+1} = -inf, then q_{i+2} = a - x m, the limit of a
 * tiny positive pivot; only 0 * inf (e_i = 0 after a zero pivot) gives NaN,
 * and that sweep is redone with LAPACK dlaebz's pivmin guard.
 *
 * Derivatives. p(x) = det(A - x M) = det M prod_k (lambda_k - x) = prod_i q_i,
 * so G = p'/p = sum_i q_i'/q_i = sum_k 1/(x - lambda_k) and
 * H = -G' = sum_k 1/(x - lambda_k)^2 follow from the recurrences of q_i' and
 * q_i'' along the same sweep (one division per row, as the count); so does
 * Z = trace((A - x M)^-1 D), D = diag(|A| + |x| |M|) by rows, which near an
 * eigenvalue gives the size of the counts' noise there (sturm_laguerre).
 *
 * Method. The spectrum is cut by index into chunks of EIGEN_STURM_CHUNK
 * eigenvalues, run as OpenMP tasks (like the vectors' chunks: idle threads
 * of an enclosing parallel region take them). Within a chunk, bisection on
 * counts isolates each eigenvalue (one tree for the chunk: O(1) sweeps per
 * eigenvalue on average; multisection while there are fewer intervals than
 * lanes), then Laguerre's iteration converges to it: for a polynomial with
 * real roots it moves monotonically towards the nearest root on the chosen
 * side (the count tells which), cubically; a step that leaves the bracket,
 * or fails to halve, is replaced by bisection, so it always converges. Where
 * a sweep's own rounding bound says H has lost its digits (a pivot within an
 * ulp of a pole, as near eigenvalues with localized vectors: random
 * matrices), Newton's step -1/G replaces Laguerre's. Every sweep evaluates
 * STURM_LANES shifts at once (independent chains, SIMD).
 * Stop: the step (or the bracket) is below 2 eps |x| + nu, nu the noise
 * of the counts at that eigenvalue (eps w^T D w, not LAPACK dstebz's
 * ulp ||T||: small eigenvalues of graded matrices keep their relative
 * accuracy), or the cubic model predicts that the next step would be below
 * an ulp. An interval still holding several eigenvalues at 2 eps |x| (a
 * cluster at the working precision) gives them all its midpoint.
 *
 * Cost and accuracy (order 8191, graded-mesh FEM pencils, this library's
 * 2-core AMD VM): ~1.2 count sweeps and ~3.3 Laguerre sweeps per eigenvalue,
 * 0.39 s at one thread (AVX2 clone; about 2x that with SSE2 alone) against
 * 1.0 s for dsbgst + dsterf, 2x faster at 2 threads; errors below 1 eps
 * max|lambda| against long double bisection where dsterf's reach 20 - 300
 * (tests/cpu/test_eigen.c). Slow case: pairs closer than 2 eps |x| (as in
 * Wilkinson's W+) are bisected to that width, ~40 count sweeps a pair (W+ of
 * order 8191: 1.5 s against dsterf's 0.6 s at one thread).
 *
 * A chunk's result depends on the pencil and its index range alone: bitwise
 * the same for any thread count. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clones.h"
#include "eigen/eigen_impl.h"

#define STURM_LANES 8    /* shifts per sweep (two AVX2 vectors: latency hidden) */
#define STURM_MAX_ITER 300 /* sweeps per eigenvalue (a safeguard; typically 3) */
#define STURM_NOISE 2.0   /* the counts' backward error, in eps w^T D w (sturm_laguerre) */
#define STURM_ROW_TRI 6
#define STURM_ROW_DIAG 5

typedef struct {
  size_t n;
  int tri;          /* M tridiagonal (else diagonal) */
  size_t w;         /* doubles per row of rw (STURM_ROW_TRI or STURM_ROW_DIAG) */
  /* per row i: a_i, m_i, then o_{i-1}, mo_{i-1} (tri) or o_{i-1}^2 (diag),
   * then the noise weights ca_i = |a_i| + |o_{i-1}| + |o_i| and
   * cm_i = m_i + |mo_{i-1}| + |mo_i| (rows of |A| and |M|) */
  const double *rw;
  double lo, hi;    /* bounds: count(lo) = 0, count(hi) = n */
  double tiny;      /* eps^2 max(|lo|, |hi|): below any eigenvalue's resolution */
  double pivmin;    /* smallest pivot magnitude of the guarded sweep */
} sturm_pencil;

/* The count at x with dlaebz's guard: |q| < pivmin is replaced by -pivmin. */
static double sturm_count_safe(const sturm_pencil *S, double x) {
  const double *rw = S->rw;
  double pm = S->pivmin, q = rw[0] - x * rw[1], c;
  if (fabs(q) < pm) q = -pm;
  c = q < 0;
  for (size_t i = 1; i < S->n; i++) {
    const double *r = rw + S->w * i;
    double e = r[2] - (S->tri ? x * r[3] : 0), E = S->tri ? e * e : r[2];
    q = (r[0] - x * r[1]) - E / q;
    if (fabs(q) < pm) q = -pm;
    c += q < 0;
  }
  return c;
}

/* The lane loops below are kept as loops ("GCC unroll 1"), which GCC
 * vectorizes (two AVX2 or four SSE2 vectors), rather than unrolled into
 * straight-line code that it does not. */
#if defined(__GNUC__)
#define STURM_LANE_LOOP _Pragma("GCC unroll 1") for (int j = 0; j < STURM_LANES; j++)
#else
#define STURM_LANE_LOOP for (int j = 0; j < STURM_LANES; j++)
#endif

/* Counts at the STURM_LANES shifts x; -1 where the sweep met NaN. */
PSCR_CLONES static void sturm_counts(const sturm_pencil *S, const double *x, double *cnt) {
  const double *rw = S->rw;
  size_t n = S->n;
  double q[STURM_LANES], c[STURM_LANES];
  for (int j = 0; j < STURM_LANES; j++) {
    q[j] = rw[0] - x[j] * rw[1];
    c[j] = q[j] < 0;
  }
  if (S->tri) {
    for (size_t i = 1; i < n; i++) {
      const double *r = rw + STURM_ROW_TRI * i;
      double a = r[0], m = r[1], o = r[2], mo = r[3];
      STURM_LANE_LOOP {
        double e = o - x[j] * mo;
        q[j] = (a - x[j] * m) - e * e / q[j];
        c[j] += q[j] < 0;
      }
    }
  } else {
    for (size_t i = 1; i < n; i++) {
      const double *r = rw + STURM_ROW_DIAG * i;
      double a = r[0], m = r[1], E = r[2];
      STURM_LANE_LOOP {
        q[j] = (a - x[j] * m) - E / q[j];
        c[j] += q[j] < 0;
      }
    }
  }
  for (int j = 0; j < STURM_LANES; j++) cnt[j] = q[j] == q[j] ? c[j] : -1;
}

/* Counts, G = p'/p, H = -G' and Z at the STURM_LANES shifts x. With
 * r = 1/q, u = q'/q, w = q''/q, z = (dq/dt)/q of the previous row,
 * t = e^2 r and s = (e^2)' r:
 *   q = (a - x m) - t,  q' = t u - m - s,  q'' = t w - (e^2)'' r - 2 u (q' + m).
 * Z = d/dt log det(A - x M + t D) = trace((A - x M)^-1 D) with
 * D = diag(ca + |x| cm): near an eigenvalue, -Z / G = w^T D w (w^T M w = 1),
 * the first-order size of the count's backward error in units of eps, the
 * noise below which the iteration cannot resolve that eigenvalue. U = max
 * (q'/q)^2 bounds the rounding of H's terms: near an eigenvalue whose
 * vector is localized, single pivots can come within an ulp of a pole and
 * H (large cancelling terms) lose its digits before G does. */
PSCR_CLONES static void sturm_laguerre(const sturm_pencil *S, const double *x, double *cnt,
                                       double *G, double *H, double *Z, double *U) {
  const double *rw = S->rw;
  size_t n = S->n;
  double r[STURM_LANES], u[STURM_LANES], w[STURM_LANES], z[STURM_LANES], ax[STURM_LANES];
  double g[STURM_LANES], h[STURM_LANES], y[STURM_LANES], c[STURM_LANES], ql[STURM_LANES];
  double um[STURM_LANES];
  for (int j = 0; j < STURM_LANES; j++) {
    double q = rw[0] - x[j] * rw[1];
    ax[j] = fabs(x[j]), c[j] = q < 0, ql[j] = q;
    r[j] = 1 / q, u[j] = -rw[1] * r[j], w[j] = 0, g[j] = u[j], h[j] = u[j] * u[j], um[j] = h[j];
    z[j] = (rw[S->w - 2] + ax[j] * rw[S->w - 1]) * r[j], y[j] = z[j];
  }
  if (S->tri) {
    for (size_t i = 1; i < n; i++) {
      const double *rr = rw + STURM_ROW_TRI * i;
      double a = rr[0], m = rr[1], o = rr[2], mo = rr[3], ca = rr[4], cm = rr[5];
      double mo2 = -2 * mo, epp = 2 * mo * mo;
      STURM_LANE_LOOP {
        double e = o - x[j] * mo;
        double t = (e * e) * r[j], s = (mo2 * e) * r[j];
        double q = (a - x[j] * m) - t;
        c[j] += q < 0, ql[j] = q;
        double uu = u[j];
        double qp = t * uu - (m + s);
        double qpp = (t * w[j] - epp * r[j]) - (uu + uu) * (qp + m);
        double v = (ca + ax[j] * cm) + t * z[j];
        double rn = 1 / q, un = qp * rn, wn = qpp * rn, zn = v * rn, u2 = un * un;
        g[j] += un, h[j] += u2 - wn, y[j] += zn, um[j] = um[j] > u2 ? um[j] : u2;
        r[j] = rn, u[j] = un, w[j] = wn, z[j] = zn;
      }
    }
  } else {
    for (size_t i = 1; i < n; i++) {
      const double *rr = rw + STURM_ROW_DIAG * i;
      double a = rr[0], m = rr[1], E = rr[2], ca = rr[3], cm = rr[4];
      STURM_LANE_LOOP {
        double t = E * r[j];
        double q = (a - x[j] * m) - t;
        c[j] += q < 0, ql[j] = q;
        double uu = u[j];
        double qp = t * uu - m;
        double qpp = t * w[j] - (uu + uu) * (qp + m);
        double v = (ca + ax[j] * cm) + t * z[j];
        double rn = 1 / q, un = qp * rn, wn = qpp * rn, zn = v * rn, u2 = un * un;
        g[j] += un, h[j] += u2 - wn, y[j] += zn, um[j] = um[j] > u2 ? um[j] : u2;
        r[j] = rn, u[j] = un, w[j] = wn, z[j] = zn;
      }
    }
  }
  for (int j = 0; j < STURM_LANES; j++)
    cnt[j] = ql[j] == ql[j] ? c[j] : -1, G[j] = g[j], H[j] = h[j], Z[j] = y[j], U[j] = um[j];
}

/* The kernels (Laguerre's when G != NULL), with the guarded sweep where the
 * fast one met NaN. */
static void sturm_eval(const sturm_pencil *S, const double *x, double *cnt, double *G,
                       double *H, double *Z, double *U) {
  if (G)
    sturm_laguerre(S, x, cnt, G, H, Z, U);
  else
    sturm_counts(S, x, cnt);
  for (int j = 0; j < STURM_LANES; j++)
    if (cnt[j] < 0) {
      cnt[j] = sturm_count_safe(S, x[j]);
      if (G) G[j] = H[j] = Z[j] = U[j] = NAN; /* no Laguerre step from here: bisection */
    }
}

/* An interval (l, u] with count(l) = cl, count(u) = cu. */
typedef struct {
  double l, u;
  size_t cl, cu;
} sturm_ivl;

/* The bracket (or step) size below which an eigenvalue is taken as found:
 * two ulps of the larger end, the noise nu of the counts there (0: unknown)
 * and an absolute tiny. */
static double sturm_tol(const sturm_pencil *S, double l, double u, double nu) {
  double a = fabs(l) > fabs(u) ? fabs(l) : fabs(u);
  return 2 * DBL_EPSILON * a + nu + S->tiny;
}

/* Laguerre's step from x towards the root on the right (right != 0) or left,
 * for degree N; cancellation-free in either branch. NaN where G, H are. */
static double sturm_step(double G, double H, double N, int right) {
  double S2 = (N - 1) * (N * H - G * G), S = S2 > 0 ? sqrt(S2) : 0, D = (N - 1) * H - G * G;
  if (right) return G <= 0 ? -N / (G - S) : (G + S) / D;
  return G >= 0 ? -N / (G + S) : (G - S) / D;
}

/* Bisection tree of one chunk: each eigenvalue k0 <= k < k1 either gets an
 * isolating interval in iso (count range (k, k + 1)) or, when an interval
 * holding several is already within tolerance (a cluster), its midpoint in
 * lam[k]. todo: room for k1 - k0 + 2 STURM_LANES intervals. @return the
 * number of isolating intervals. */
static size_t sturm_isolate(const sturm_pencil *S, size_t k0, size_t k1, sturm_ivl *todo,
                            sturm_ivl *iso, double *lam) {
  size_t nt = 0, ni = 0;
  todo[nt++] = (sturm_ivl){S->lo, S->hi, 0, S->n};
  double x[STURM_LANES], c[STURM_LANES];
  while (nt > 0) {
    /* the last nq intervals, p points in each (multisection when few) */
    size_t nq = nt < STURM_LANES ? nt : STURM_LANES, p = STURM_LANES / nq;
    sturm_ivl cur[STURM_LANES];
    nt -= nq;
    memcpy(cur, todo + nt, nq * sizeof *cur);
    for (size_t q = 0; q < nq; q++)
      for (size_t j = 0; j < p; j++) {
        double f = (double)(j + 1) / (double)(p + 1);
        x[q * p + j] = cur[q].l + (cur[q].u - cur[q].l) * f;
      }
    for (size_t j = nq * p; j < STURM_LANES; j++) x[j] = S->lo; /* idle lanes */
    sturm_eval(S, x, c, NULL, NULL, NULL, NULL);
    for (size_t q = 0; q < nq; q++) {
      sturm_ivl par = cur[q], s = {par.l, par.l, par.cl, par.cl};
      for (size_t j = 0; j <= p; j++) {
        s.l = s.u, s.cl = s.cu;
        if (j < p) {
          /* counts kept monotone and within the parent's (rounding) */
          double cj = c[q * p + j];
          s.u = x[q * p + j], s.cu = cj < (double)s.cl ? s.cl : cj > (double)par.cu ? par.cu : (size_t)cj;
        } else {
          s.u = par.u, s.cu = par.cu;
        }
        if (s.cu <= s.cl || s.cl >= k1 || s.cu <= k0) continue; /* none of the chunk's */
        if (s.cu - s.cl == 1) {
          iso[ni++] = s;
        } else if (s.u - s.l <= sturm_tol(S, s.l, s.u, 0)) {
          for (size_t k = s.cl > k0 ? s.cl : k0; k < s.cu && k < k1; k++) lam[k] = 0.5 * (s.l + s.u);
        } else {
          todo[nt++] = s;
        }
      }
    }
  }
  return ni;
}

/* Eigenvalues k0 <= k < k1 into lam[k]: isolated, then Laguerre's
 * iteration in STURM_LANES lanes, each taking the next eigenvalue when done. */
static pscr_status sturm_chunk(const sturm_pencil *S, size_t k0, size_t k1, double *lam) {
  size_t nk = k1 - k0;
  sturm_ivl *todo = malloc((nk + 2 * STURM_LANES + 2) * sizeof *todo), *iso = malloc(nk * sizeof *iso);
  if (todo == NULL || iso == NULL) {
    free(todo), free(iso);
    return PSCR_ERR_OUT_OF_MEMORY;
  }
  size_t ni = sturm_isolate(S, k0, k1, todo, iso, lam), next = 0, live = 0;
  double N = (double)S->n, x[STURM_LANES], c[STURM_LANES], G[STURM_LANES], H[STURM_LANES];
  double Z[STURM_LANES], U[STURM_LANES], l[STURM_LANES], u[STURM_LANES], dprev[STURM_LANES];
  size_t k[STURM_LANES], it[STURM_LANES];
  int on[STURM_LANES] = {0};
  for (;;) {
    for (int j = 0; j < STURM_LANES; j++) /* idle lanes take the next eigenvalue */
      if (!on[j] && next < ni) {
        sturm_ivl s = iso[next++];
        l[j] = s.l, u[j] = s.u, k[j] = s.cl, x[j] = 0.5 * (s.l + s.u);
        dprev[j] = INFINITY, it[j] = 0, on[j] = 1, live++;
      }
    if (live == 0) break;
    for (int j = 0; j < STURM_LANES; j++)
      if (!on[j]) x[j] = S->lo;
    sturm_eval(S, x, c, G, H, Z, U);
    for (int j = 0; j < STURM_LANES; j++) {
      if (!on[j]) continue;
      int right = c[j] <= (double)k[j]; /* lambda_k >= x */
      if (right)
        l[j] = x[j];
      else
        u[j] = x[j];
      /* Laguerre's step d, or Newton's dn = -1/G where H's rounding error
       * eps n U (relative) is too large for Laguerre's; stops need both
       * steps small, and the cubic model an accurate H. */
      double xj = x[j], d = sturm_step(G[j], H[j], N, right), dn = -1 / G[j], ad = fabs(d);
      double eh = DBL_EPSILON * N * U[j] / H[j], rho = ad / dprev[j], fin = NAN;
      int hok = eh <= 1e-3;
      if (!hok && (right ? dn > 0 : dn < 0)) d = dn, ad = fabs(d), rho = ad / dprev[j];
      if (!(eh < 1)) eh = 1;
      double xn = xj + d;
      /* The counts' noise eps w^T D w, as eps |Z d| (Z ~ w^T D w / (lambda - x),
       * d ~ lambda - x), where lambda's own terms dominate the sums:
       * G d ~ -1 and H d^2 ~ 1 (not so near a cluster, whose many terms
       * would count in Z as often) and the sums are accurate. Else unknown (0). */
      double gd = G[j] * d + 1, hd = H[j] * d * d - 1;
      double nu = hok && fabs(gd) <= 0.25 && fabs(hd) <= 0.25 ? STURM_NOISE * DBL_EPSILON * fabs(Z[j] * d) : 0;
      if (!(nu < INFINITY)) nu = 0;
      double tol = sturm_tol(S, xj, xj, nu);
      if (u[j] - l[j] <= sturm_tol(S, l[j], u[j], nu) || ++it[j] >= STURM_MAX_ITER) {
        fin = 0.5 * (l[j] + u[j]);
      } else if (ad <= tol && fabs(dn) <= tol && xn >= l[j] && xn <= u[j]) {
        fin = xn; /* converged: both steps are below the tolerance */
      } else if (!(xn > l[j] && xn < u[j]) || rho > 0.5) {
        x[j] = 0.5 * (l[j] + u[j]), dprev[j] = INFINITY; /* bisection */
      } else if (rho <= 1e-3 && dprev[j] < INFINITY &&
                 ad * (rho * rho * rho + eh) <= 0.25 * DBL_EPSILON * fabs(xn)) {
        fin = xn; /* cubic convergence (and H accurate): the next step would be below an ulp */
      } else {
        x[j] = xn, dprev[j] = ad;
      }
      if (fin == fin) lam[k[j]] = fin, on[j] = 0, live--;
    }
  }
  free(todo), free(iso);
  return PSCR_OK;
}

pscr_status eigen_sturm_values_d(size_t n, const double *ad, const double *ao, const double *md,
                                 const double *mo, double *lam) {
  /* M positive definite: the pivots of its L D L^T */
  double p = md[0];
  for (size_t i = 0; i < n; i++) {
    if (i > 0) p = md[i] - (mo ? mo[i - 1] * (mo[i - 1] / p) : 0);
    if (!(p > 0)) return PSCR_ERR_INVALID_ARGUMENT;
  }
  sturm_pencil S = {.n = n, .tri = mo != NULL};
  S.w = S.tri ? STURM_ROW_TRI : STURM_ROW_DIAG;
  double *rw = malloc(n * S.w * sizeof *rw);
  if (rw == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  double g = 0;
  for (size_t i = 0; i < n; i++) {
    double *r = rw + S.w * i, ol = i ? ao[i - 1] : 0, orr = i + 1 < n ? ao[i] : 0;
    double ml = mo && i ? mo[i - 1] : 0, mr = mo && i + 1 < n ? mo[i] : 0;
    r[0] = ad[i], r[1] = md[i];
    if (S.tri)
      r[2] = ol, r[3] = ml;
    else
      r[2] = ol * ol;
    r[S.w - 2] = fabs(ad[i]) + fabs(ol) + fabs(orr), r[S.w - 1] = md[i] + fabs(ml) + fabs(mr);
    double s = r[S.w - 2] / md[i]; /* Gershgorin of diag(M)^-1 A */
    g = s > g ? s : g;
  }
  S.rw = rw;
  /* Bounds, verified by counts (doubled where M's off-diagonal makes them
   * too tight); then the tolerances. */
  S.lo = -(g > 0 ? g : 1), S.hi = -S.lo, S.pivmin = DBL_MIN;
  pscr_status st = PSCR_OK;
  for (;;) {
    double x[STURM_LANES], c[STURM_LANES];
    for (int j = 0; j < STURM_LANES; j++) x[j] = j & 1 ? S.hi : S.lo;
    sturm_eval(&S, x, c, NULL, NULL, NULL, NULL);
    if (c[0] == 0 && c[1] == (double)n) break;
    if (c[0] != 0) S.lo *= 2;
    if (c[1] != (double)n) S.hi *= 2;
    if (!(fabs(S.lo) <= DBL_MAX / 4 && S.hi <= DBL_MAX / 4)) {
      st = PSCR_ERR_NOT_CONVERGED;
      break;
    }
  }
  if (st == PSCR_OK) {
    double xm = fabs(S.lo) > S.hi ? fabs(S.lo) : S.hi, emax = 1;
    for (size_t i = 0; i + 1 < n; i++) {
      double e = fabs(ao[i]) + (mo ? xm * fabs(mo[i]) : 0);
      emax = e * e > emax ? e * e : emax;
    }
    S.tiny = DBL_EPSILON * DBL_EPSILON * xm;
    S.pivmin = DBL_MIN * emax;
    if (!(S.pivmin > 0 && S.pivmin < 1)) S.pivmin = DBL_MIN;
    size_t nch = (n + EIGEN_STURM_CHUNK - 1) / EIGEN_STURM_CHUNK;
#pragma omp taskloop grainsize(1) shared(st)
    for (size_t ch = 0; ch < nch; ch++) {
      size_t k0 = ch * EIGEN_STURM_CHUNK, k1 = k0 + EIGEN_STURM_CHUNK < n ? k0 + EIGEN_STURM_CHUNK : n;
      pscr_status s = sturm_chunk(&S, k0, k1, lam);
      if (s != PSCR_OK) {
#pragma omp critical(pscr_eigen_sturm_status)
        if (st == PSCR_OK) st = s;
      }
    }
  }
  free(rw);
  return st;
}
