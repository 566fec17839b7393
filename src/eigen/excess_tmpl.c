/* Row excess of a symmetric tridiagonal matrix, the data that keeps small
 * eigenvalues and nearly singular shifted solves accurate when the rows are
 * (nearly) balanced, as in Poisson and Helmholtz factors: the diagonal
 * d_i = ex_i + k_{i-1} o_{i-1} + k_i o_i, k_e = -1 where Re so_e < 0 (+1
 * else). Used by the Rayleigh quotients of invit_tmpl.c and by the CPU
 * backend's Thomas sweep in excess form. */
#include "core/scalar.h"
#include "eigen/eigen_impl.h"

/* a + b = s + e exactly (Knuth's TwoSum; -ffp-contract has no product to fuse). */
static inline void FN(two_sum)(double a, double b, double *s, double *e) {
  double x = a + b, z = x - a;
  *s = x, *e = (a - (x - z)) + (b - z);
}

/* d - a - b with both roundings carried along: about eps |d - a - b|. */
static double FN(sub2)(double d, double a, double b) {
  double s1, e1, s2, e2;
  FN(two_sum)(d, -a, &s1, &e1);
  FN(two_sum)(s1, -b, &s2, &e2);
  return s2 + (e1 + e2);
}

void FN(eigen_row_excess)(size_t n, const T *d, const T *o, const T *so, T *ex) {
  for (size_t i = 0; i < n; i++) {
    T a = 0, b = 0; /* k_e o_e of the two neighbours */
    if (i > 0) a = creal(so[i - 1]) < 0 ? -o[i - 1] : o[i - 1];
    if (i + 1 < n) b = creal(so[i]) < 0 ? -o[i] : o[i];
#if PSCR_Z
    ex[i] = eigen_cmplx(FN(sub2)(creal(d[i]), creal(a), creal(b)),
                        FN(sub2)(cimag(d[i]), cimag(a), cimag(b)));
#else
    ex[i] = FN(sub2)(d[i], a, b);
#endif
  }
}
