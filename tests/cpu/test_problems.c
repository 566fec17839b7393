/* The problem builders of seed 003 (31), (33)-(35) against closed forms, element-by-element
 * assembly (2-point Gauss quadrature, independent of the builders' formulas), and the weak
 * form of the second-order absorbing boundary condition; plus bad input. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"

#define NMAX 64
static const double gauss[2] = {0.21132486540518711775, 0.78867513459481288225}; /* on [0,1] */

/* Random steps: a mesh graded by a random factor up to 1e3 between steps. */
static void random_steps(pt_rng *r, size_t count, double *h) {
  for (size_t i = 0; i < count; i++)
    h[i] = exp(pt_uniform(r, -3.5, 3.5));
}

static double rel(double a, double b) { return fabs(a - b) / fmax(fabs(b), 1e-300); }

static void uniform_poisson(pt_rng *r) {
  size_t n = 1 + (size_t)pt_uniform(r, 0, NMAX - 1);
  double hs = pt_uniform(r, 1e-4, 2.0), h[NMAX + 1], ad[NMAX], ao[NMAX], md[NMAX];
  for (size_t i = 0; i <= n; i++)
    h[i] = hs;
  PT_CHECK_STATUS(pscr_factor_poisson_fem(n, h, ad, ao, md), PSCR_OK);
  double worst = 0;
  for (size_t i = 0; i < n; i++) {
    worst = fmax(worst, rel(ad[i], 2.0 / hs));
    worst = fmax(worst, rel(md[i], hs));
    if (i + 1 < n)
      worst = fmax(worst, rel(ao[i], -1.0 / hs));
  }
  PT_CHECK_LE(worst, 4e-16, "uniform Poisson n %zu h %g: A = tridiag(-1,2,-1)/h, M = h I", n, hs);
}

/* Full 1D assembly on all n+2 nodes from element matrices by quadrature, boundary stripped. */
static void graded_poisson(pt_rng *r) {
  size_t n = 2 + (size_t)pt_uniform(r, 0, NMAX - 2);
  double h[NMAX + 1], ad[NMAX], ao[NMAX], md[NMAX], x[NMAX + 2];
  double kd[NMAX + 2] = {0}, ko[NMAX + 2] = {0}, mm[NMAX + 2] = {0};
  random_steps(r, n + 1, h);
  PT_CHECK_STATUS(pscr_factor_poisson_fem(n, h, ad, ao, md), PSCR_OK);
  x[0] = pt_uniform(r, -1, 1);
  for (size_t e = 0; e <= n; e++)
    x[e + 1] = x[e] + h[e];
  for (size_t e = 0; e <= n; e++) { /* element [x_e, x_e+1]: phi = (1-t, t) */
    for (int g = 0; g < 2; g++) {
      double w = 0.5 * h[e], phi[2] = {1 - gauss[g], gauss[g]}, dphi[2] = {-1 / h[e], 1 / h[e]};
      for (int a = 0; a < 2; a++) {
        kd[e + a] += w * dphi[a] * dphi[a];
        mm[e + a] += w * phi[a]; /* lumped: row sum of the mass = integral of phi_a */
      }
      ko[e] += w * dphi[0] * dphi[1];
    }
  }
  double worst = 0;
  for (size_t i = 0; i < n; i++) {
    worst = fmax(worst, rel(ad[i], kd[i + 1]));
    worst = fmax(worst, rel(md[i], mm[i + 1]));
    if (i + 1 < n)
      worst = fmax(worst, rel(ao[i], ko[i + 1]));
  }
  PT_CHECK_LE(worst, 1e-13, "graded Poisson n %zu vs element assembly", n);
  /* A u for u linear: zero in the interior rows, boundary values / step in the end rows */
  double al = pt_uniform(r, -2, 2), be = pt_uniform(r, -2, 2), u[NMAX + 2], scale = 0;
  for (size_t j = 0; j < n + 2; j++)
    u[j] = al + be * x[j];
  for (size_t i = 0; i < n; i++) {
    double au =
        ad[i] * u[i + 1] + (i > 0 ? ao[i - 1] * u[i] : 0) + (i + 1 < n ? ao[i] * u[i + 2] : 0);
    if (i == 0)
      au -= u[0] / h[0];
    if (i == n - 1)
      au -= u[n + 1] / h[n];
    double mag = fabs(ad[i] * u[i + 1]) + 1;
    scale = fmax(scale, fabs(au) / mag);
  }
  PT_CHECK_LE(scale, 1e-13, "A (linear) = boundary terms only, n %zu", n);
  /* M sums to the domain length less the two half end steps (boundary nodes excluded) */
  double msum = 0, len = x[n + 1] - x[0];
  for (size_t i = 0; i < n; i++)
    msum += md[i];
  PT_CHECK_LE(rel(msum + 0.5 * (h[0] + h[n]), len), 1e-14, "sum M + end halves = length");
}

/* Helmholtz factors: every entry against the consistent 1D assembly plus the ABC terms. */
static void helmholtz_1d(pt_rng *r) {
  size_t n = 2 + (size_t)pt_uniform(r, 0, NMAX - 2);
  double h[NMAX], w = pt_uniform(r, 0.1, 200), x[NMAX];
  double ad[2 * NMAX], ao[2 * NMAX], md[2 * NMAX], mo[2 * NMAX];
  random_steps(r, n - 1, h);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(n, h, w, ad, ao, md, mo), PSCR_OK);
  x[0] = 0;
  for (size_t i = 0; i + 1 < n; i++)
    x[i + 1] = x[i] + h[i];
  double worst = 0;
  for (size_t l = 0; l < n; l++) {
    double left = l > 0 ? h[l - 1] : 0, right = l + 1 < n ? h[l] : 0;
    double kb = (left > 0 ? 1 / left : 0) + (right > 0 ? 1 / right : 0), mb = (left + right) / 3;
    int end = l == 0 || l == n - 1;
    worst = fmax(worst, rel(ad[2 * l], kb));
    worst = fmax(worst, rel(md[2 * l], mb));
    worst = fmax(worst, fabs(ad[2 * l + 1] - (end ? -0.5 * w : 0.0)) / w);
    worst = fmax(worst, fabs(md[2 * l + 1] - (end ? 0.5 / w : 0.0)) * w);
    if (l + 1 < n) {
      worst = fmax(worst, rel(ao[2 * l], -1 / h[l]) + fabs(ao[2 * l + 1]));
      worst = fmax(worst, rel(mo[2 * l], h[l] / 6) + fabs(mo[2 * l + 1]));
    }
  }
  PT_CHECK_LE(worst, 1e-14, "Helmholtz (35) entries, n %zu omega %g", n, w);
  /* Re A and Re M are the Neumann stiffness and consistent mass: for u = al + be x,
   * u^T Re(A) u = be^2 L, u^T Re(M) u = int u^2, and Re(A) 1 = 0. */
  double al = pt_uniform(r, -2, 2), be = pt_uniform(r, -2, 2), qa = 0, qm = 0, row = 0, sa = 0;
  for (size_t l = 0; l < n; l++) {
    double u = al + be * x[l], v1 = ad[2 * l] * u, vm = md[2 * l] * u, r1 = ad[2 * l];
    double s1 = fabs(v1); /* |u|^T |A| |u|: the rounding scale of u^T A u */
    for (int side = 0; side < 2; side++) {
      size_t k = side ? l + 1 : l - 1, e = side ? l : l - 1;
      if ((side == 0 && l == 0) || (side == 1 && l + 1 == n))
        continue;
      double uk = al + be * x[k];
      v1 += ao[2 * e] * uk, vm += mo[2 * e] * uk, r1 += ao[2 * e], s1 += fabs(ao[2 * e] * uk);
    }
    qa += u * v1, qm += u * vm, sa += fabs(u) * s1;
    row = fmax(row, fabs(r1) / ad[2 * l]);
  }
  double len = x[n - 1], ua = al, ub = al + be * len;
  double int2 = len * (ua * ua + ua * ub + ub * ub) / 3;
  PT_CHECK_LE(fabs(qa - be * be * len) / sa, 1e-14, "u^T A u = int u'^2");
  PT_CHECK_LE(rel(qm, int2), 1e-13, "u^T M u = int u^2");
  PT_CHECK_LE(row, 1e-13, "Re(A) 1 = 0");
}

/* 2D: the Kronecker form A1(x)M2 + M1(x)A2 - w^2 M1(x)M2 equals the weak form of
 * -Lap u - w^2 u with du/dn = i w u + i/(2w) d2u/ds2 on the rectangle's edges and the corner
 * condition (du/dn1 + du/dn2) = 3/2 i w u, assembled element by element by quadrature. */
#define N2 8
static double complex kron_entry(const double *a[2][2], size_t n2, size_t i, size_t j, double w) {
  size_t i1 = i / n2, i2 = i % n2, j1 = j / n2, j2 = j % n2;
  double complex f[2][2]; /* f[dim][0] = A entry, f[dim][1] = M entry */
  size_t ii[2] = {i1, i2}, jj[2] = {j1, j2};
  for (int d = 0; d < 2; d++) {
    for (int k = 0; k < 2; k++) {
      const double *diag = a[d][k], *off = a[d][k] + 2 * NMAX;
      size_t p = ii[d], q = jj[d];
      if (p == q)
        f[d][k] = diag[2 * p] + I * diag[2 * p + 1];
      else if (p + 1 == q || q + 1 == p) {
        size_t m = p < q ? p : q;
        f[d][k] = off[2 * m] + I * off[2 * m + 1];
      } else
        f[d][k] = 0;
    }
  }
  return f[0][0] * f[1][1] + f[0][1] * f[1][0] - w * w * f[0][1] * f[1][1];
}

static void helmholtz_2d_weak_form(pt_rng *r) {
  size_t n[2];
  double h[2][N2], x[2][N2], w = pt_uniform(r, 0.5, 30);
  double buf[2][2][4 * NMAX]; /* [dim][A or M][diag (2 NMAX) | off (2 NMAX)] */
  for (int d = 0; d < 2; d++) {
    n[d] = 2 + (size_t)pt_uniform(r, 0, N2 - 2);
    random_steps(r, n[d] - 1, h[d]);
    x[d][0] = 0;
    for (size_t i = 0; i + 1 < n[d]; i++)
      x[d][i + 1] = x[d][i] + h[d][i];
    PT_CHECK_STATUS(pscr_factor_helmholtz_abc(n[d], h[d], w, buf[d][0], buf[d][0] + 2 * NMAX,
                                              buf[d][1], buf[d][1] + 2 * NMAX),
                    PSCR_OK);
  }
  size_t nn = n[0] * n[1];
  double complex *ref = calloc(nn * nn, sizeof *ref);
  PT_CHECK(ref != NULL, "alloc");
  if (!ref)
    return;
  /* interior: bilinear elements, stiffness - w^2 mass, 2x2 Gauss (exact for these products) */
  for (size_t e1 = 0; e1 + 1 < n[0]; e1++)
    for (size_t e2 = 0; e2 + 1 < n[1]; e2++)
      for (int g1 = 0; g1 < 2; g1++)
        for (int g2 = 0; g2 < 2; g2++) {
          double t1 = gauss[g1], t2 = gauss[g2], wt = 0.25 * h[0][e1] * h[1][e2];
          double p1[2] = {1 - t1, t1}, p2[2] = {1 - t2, t2};
          double d1[2] = {-1 / h[0][e1], 1 / h[0][e1]}, d2[2] = {-1 / h[1][e2], 1 / h[1][e2]};
          for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) {
              int a1 = a / 2, a2 = a % 2, b1 = b / 2, b2 = b % 2;
              double grad = d1[a1] * p2[a2] * d1[b1] * p2[b2] + p1[a1] * d2[a2] * p1[b1] * d2[b2];
              double mass = p1[a1] * p2[a2] * p1[b1] * p2[b2];
              size_t ia = (e1 + a1) * n[1] + e2 + a2, ib = (e1 + b1) * n[1] + e2 + b2;
              ref[ia * nn + ib] += wt * (grad - w * w * mass);
            }
        }
  /* edges: -i w int u v + i/(2w) int u_s v_s, 1D elements along each of the four sides */
  for (int d = 0; d < 2; d++)              /* the side runs along dimension d */
    for (int side = 0; side < 2; side++) { /* the other coordinate at its min or max */
      size_t fixed = side ? n[1 - d] - 1 : 0;
      for (size_t e = 0; e + 1 < n[d]; e++)
        for (int g = 0; g < 2; g++) {
          double t = gauss[g], he = h[d][e], p[2] = {1 - t, t}, dp[2] = {-1 / he, 1 / he};
          for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
              size_t ia = d == 0 ? (e + a) * n[1] + fixed : fixed * n[1] + e + a;
              size_t ib = d == 0 ? (e + b) * n[1] + fixed : fixed * n[1] + e + b;
              ref[ia * nn + ib] += 0.5 * he * (-I * w * p[a] * p[b] + I / (2 * w) * dp[a] * dp[b]);
            }
        }
    }
  for (int c1 = 0; c1 < 2; c1++) /* corners: -(i/2w) (3/2 i w) = 3/4 */
    for (int c2 = 0; c2 < 2; c2++) {
      size_t i = (c1 ? n[0] - 1 : 0) * n[1] + (c2 ? n[1] - 1 : 0);
      ref[i * nn + i] += 0.75;
    }
  const double *fac[2][2] = {{buf[0][0], buf[0][1]}, {buf[1][0], buf[1][1]}};
  double worst = 0, scale = 0;
  for (size_t i = 0; i < nn; i++)
    for (size_t j = 0; j < nn; j++) {
      worst = fmax(worst, cabs(kron_entry(fac, n[1], i, j, w) - ref[i * nn + j]));
      scale = fmax(scale, cabs(ref[i * nn + j]));
    }
  PT_CHECK_LE(worst / scale, 1e-13, "2D ABC weak form vs Kronecker form, n %zu x %zu, w %g", n[0],
              n[1], w);
  free(ref);
}

/* Bad input: the right status, outputs untouched. */
static void bad_input(void) {
  double h[4] = {0.25, 0.25, 0.25, 0.25}, out[4][8], save[4][8];
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < 8; i++)
      out[k][i] = save[k][i] = 1234.5 + k + i;
  double *ad = out[0], *ao = out[1], *md = out[2], *mo = out[3];
  PT_CHECK_STATUS(pscr_factor_poisson_fem(0, h, ad, ao, md), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_poisson_fem(3, NULL, ad, ao, md), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_poisson_fem(3, h, NULL, ao, md), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_poisson_fem(3, h, ad, NULL, md), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_poisson_fem(3, h, ad, ao, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(0, h, 1, ad, ao, md, mo), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(1, h, 1, ad, ao, md, mo), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(3, NULL, 1, ad, ao, md, mo), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(3, h, 1, NULL, ao, md, mo), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(3, h, 1, ad, NULL, md, mo), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(3, h, 1, ad, ao, NULL, mo), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(3, h, 1, ad, ao, md, NULL), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(3, h, 0, ad, ao, md, mo), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(3, h, -2, ad, ao, md, mo), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(3, h, NAN, ad, ao, md, mo), PSCR_ERR_NONFINITE);
  PT_CHECK_STATUS(pscr_factor_helmholtz_abc(3, h, INFINITY, ad, ao, md, mo), PSCR_ERR_NONFINITE);
  const double badv[4] = {0.0, -0.1, NAN, INFINITY};
  const pscr_status want[4] = {PSCR_ERR_INVALID_ARGUMENT, PSCR_ERR_INVALID_ARGUMENT,
                               PSCR_ERR_NONFINITE, PSCR_ERR_NONFINITE};
  for (int v = 0; v < 4; v++)
    for (int pos = 0; pos < 4; pos++) { /* every step position; Helmholtz n = 4 uses h[0..2] */
      double hb[4] = {0.25, 0.25, 0.25, 0.25};
      hb[pos] = badv[v];
      PT_CHECK_STATUS(pscr_factor_poisson_fem(3, hb, ad, ao, md), want[v]);
      if (pos < 3)
        PT_CHECK_STATUS(pscr_factor_helmholtz_abc(4, hb, 1, ad, ao, md, mo), want[v]);
    }
  PT_CHECK(pt_equal_bytes(out, save, sizeof out), "outputs untouched on bad input");
  /* n = 1 (Poisson) needs no off-diagonal */
  PT_CHECK_STATUS(pscr_factor_poisson_fem(1, h, ad, NULL, md), PSCR_OK);
  PT_CHECK(ad[0] == 8.0 && md[0] == 0.25, "n = 1: A = 2/h, M = h");
}

int main(void) {
  pt_rng r;
  pt_rng_seed(&r, pt_fresh_seed());
  for (int rep = 0; rep < 50; rep++) {
    uniform_poisson(&r);
    graded_poisson(&r);
    helmholtz_1d(&r);
    helmholtz_2d_weak_form(&r);
  }
  bad_input();
  return pt_exit("test_problems");
}
