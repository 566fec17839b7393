/* Factor matrices of seed 003's test problems (section 5.1) on a mesh given by its steps.
 *
 * Poisson (31): 1D piecewise linear elements, Dirichlet nodes removed. Node i (0-based,
 * i = 0..n-1) lies between steps h[i] (left) and h[i+1] (right). The element stiffness of
 * a step h is [1 -1; -1 1]/h, so A(i,i) = 1/h[i] + 1/h[i+1], A(i,i+1) = -1/h[i+1]. The
 * element mass [2 1; 1 2] h/6, lumped (row sums onto the diagonal), gives
 * M(i,i) = (h[i] + h[i+1])/2: the diagonal M of (31).
 *
 * Helmholtz (33)-(35): bilinear elements with the consistent mass, all nodes kept, and the
 * second-order absorbing boundary condition du/dn = i w u + i/(2w) d2u/ds2. Adding
 * -i w/2 to the end entries of A_j and i/(2w) to the end entries of M_j makes
 * A1(x)M2 + M1(x)A2 - w^2 M1(x)M2 equal the stiffness - w^2 mass, minus i w times the
 * boundary mass, plus i/(2w) times the tangential boundary stiffness, plus 3/4 at each
 * corner: exactly the ABC's weak form with its corner condition. */
#include <complex.h>
#include <math.h>

#include <pscr/problems.h>

/* INVALID_ARGUMENT for a step <= 0, NONFINITE for NaN/Inf (checked first). */
static pscr_status check_steps(size_t count, const double *h) {
  for (size_t i = 0; i < count; i++)
    if (!isfinite(h[i]))
      return PSCR_ERR_NONFINITE;
  for (size_t i = 0; i < count; i++)
    if (!(h[i] > 0.0))
      return PSCR_ERR_INVALID_ARGUMENT;
  return PSCR_OK;
}

pscr_status pscr_factor_poisson_fem(size_t n, const double *h, double *a_diag, double *a_off,
                                    double *m_diag) {
  if (n == 0 || h == NULL || a_diag == NULL || m_diag == NULL || (n > 1 && a_off == NULL))
    return PSCR_ERR_INVALID_ARGUMENT;
  pscr_status st = check_steps(n + 1, h);
  if (st != PSCR_OK)
    return st;
  for (size_t i = 0; i < n; i++) {
    a_diag[i] = 1.0 / h[i] + 1.0 / h[i + 1]; /* (31) */
    m_diag[i] = 0.5 * (h[i] + h[i + 1]);
    if (i + 1 < n)
      a_off[i] = -1.0 / h[i + 1];
  }
  return PSCR_OK;
}

static void put(double *p, size_t i, double complex v) {
  p[2 * i] = creal(v);
  p[2 * i + 1] = cimag(v);
}

pscr_status pscr_factor_helmholtz_abc(size_t n, const double *h, double omega, double *a_diag,
                                      double *a_off, double *m_diag, double *m_off) {
  if (n < 2 || h == NULL || a_diag == NULL || a_off == NULL || m_diag == NULL || m_off == NULL)
    return PSCR_ERR_INVALID_ARGUMENT;
  if (!isfinite(omega))
    return PSCR_ERR_NONFINITE;
  if (!(omega > 0.0))
    return PSCR_ERR_INVALID_ARGUMENT; /* a wave number; (35) divides by it */
  pscr_status st = check_steps(n - 1, h);
  if (st != PSCR_OK)
    return st;
  for (size_t l = 0; l < n; l++) {
    double left = l > 0 ? h[l - 1] : 0.0, right = l + 1 < n ? h[l] : 0.0;
    double complex b = (left > 0.0 ? 1.0 / left : 0.0) + (right > 0.0 ? 1.0 / right : 0.0);
    double complex d = (left + right) / 3.0;
    if (l == 0 || l == n - 1) { /* (35): b_1, b_n, d_1, d_n */
      b -= 0.5 * I * omega;
      d += 0.5 * I / omega;
    }
    put(a_diag, l, b);
    put(m_diag, l, d);
    if (l + 1 < n) {
      put(a_off, l, -1.0 / h[l]); /* a_l */
      put(m_off, l, h[l] / 6.0);  /* c_l */
    }
  }
  return PSCR_OK;
}
