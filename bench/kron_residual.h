/* Relative residual ||f - A u||_2 / ||f||_2 of a pscr_problem through its Kronecker
 * structure, without full-size temporaries (a few planes per thread), for the GPU
 * benchmarks' large sizes (1023^3 = 1.07e9 unknowns). Public API types only. Compiles as C
 * (real and complex) and as C++ (real only, for the .cu benchmark).
 *
 * Split along the slowest axis, row i1 of A u is
 *   2D: M2 X + (A2 + c M2) Y,            X = sum_d A1(i1,i1+d) u_(i1+d), Y = same with M1,
 *   3D: per row i2 of the plane:  M3 r1 + (A3 + c M3) r2,
 *       r1 = sum_d M2(i2,i2+d) X_(i2+d) + A2(i2,i2+d) Y_(i2+d),  r2 = sum_d M2(i2,i2+d) Y_(i2+d),
 * which is A1(x)M2(x)M3 + M1(x)A2(x)M3 + M1(x)M2(x)A3 + c M1(x)M2(x)M3 of solver.h. The caller
 * sums kr_slab_* over i1 ranges (one per thread) and takes sqrt(num / den). */
#ifndef PSCR_BENCH_KRON_RESIDUAL_H
#define PSCR_BENCH_KRON_RESIDUAL_H

#include <math.h>
#include <stdlib.h>

#include <pscr/pscr.h>

/* Doubles of workspace one thread needs (X and Y planes, r1 and r2 rows), complex counted 2x. */
static inline size_t kr_work_doubles(const pscr_problem *p) {
  size_t plane = p->dim[1].n * (p->ndim == 3 ? p->dim[2].n : 1), row = p->dim[p->ndim - 1].n;
  return (2 * plane + 2 * row) * (p->dtype == PSCR_C128 ? 2 : 1);
}

/* One body per scalar type T: kr_slab_<S>(p, u, f, lo, hi, work, num, den) adds the squared
 * residual and squared f over planes i1 in [lo, hi). */
#define KR_DEFINE(S, T, ABS2)                                                                      \
  static inline T kr_tri_##S(const T *dg, const T *off, const T *x, size_t j, size_t n) {          \
    T v = dg[j] * x[j];                                                                            \
    if (off && j > 0) v += off[j - 1] * x[j - 1];                                                  \
    if (off && j + 1 < n) v += off[j] * x[j + 1];                                                  \
    return v;                                                                                      \
  }                                                                                                \
  /* out = sum_d T(i, i+d) v_(i+d) for rows v of length len at stride len */                       \
  static inline void kr_comb_##S(const T *dg, const T *off, size_t i, size_t n, const T *v,        \
                                 size_t len, T *out) {                                             \
    const T *c = v + i * len;                                                                      \
    T w0 = dg[i], wm = (off && i > 0) ? off[i - 1] : (T)0,                                         \
      wp = (off && i + 1 < n) ? off[i] : (T)0;                                                     \
    for (size_t r = 0; r < len; r++) out[r] = w0 * c[r];                                           \
    if (off && i > 0)                                                                              \
      for (size_t r = 0; r < len; r++) out[r] += wm * (c - len)[r];                                \
    if (off && i + 1 < n)                                                                          \
      for (size_t r = 0; r < len; r++) out[r] += wp * (c + len)[r];                                \
  }                                                                                                \
  static inline void kr_slab_##S(const pscr_problem *p, const T *u, const T *f, size_t lo,         \
                                 size_t hi, T *work, double *num, double *den) {                   \
    const pscr_factor *F1 = &p->dim[0], *F2 = &p->dim[1], *FL = &p->dim[p->ndim - 1];              \
    size_t nl = FL->n, plane = F2->n * (p->ndim == 3 ? nl : 1);                                    \
    T c = (T)p->c_re;                                                                              \
    KR_SET_CIM(c, p->c_im);                                                                        \
    T *X = work, *Y = work + plane, *r1 = Y + plane, *r2 = r1 + nl;                                \
    const T *la = (const T *)FL->a_diag, *lao = (const T *)FL->a_off;                              \
    const T *lm = (const T *)FL->m_diag, *lmo = (const T *)FL->m_off;                              \
    for (size_t i1 = lo; i1 < hi; i1++) {                                                          \
      kr_comb_##S((const T *)F1->a_diag, (const T *)F1->a_off, i1, F1->n, u, plane, X);            \
      kr_comb_##S((const T *)F1->m_diag, (const T *)F1->m_off, i1, F1->n, u, plane, Y);            \
      size_t rows = p->ndim == 3 ? F2->n : 1;                                                      \
      for (size_t i2 = 0; i2 < rows; i2++) {                                                       \
        const T *x1 = X, *x2 = Y;                                                                  \
        if (p->ndim == 3) {                                                                        \
          kr_comb_##S((const T *)F2->m_diag, (const T *)F2->m_off, i2, F2->n, X, nl, r1);          \
          kr_comb_##S((const T *)F2->a_diag, (const T *)F2->a_off, i2, F2->n, Y, nl, r2);          \
          for (size_t j = 0; j < nl; j++) r1[j] += r2[j];                                          \
          kr_comb_##S((const T *)F2->m_diag, (const T *)F2->m_off, i2, F2->n, Y, nl, r2);          \
          x1 = r1, x2 = r2;                                                                        \
        }                                                                                          \
        const T *fr = f + i1 * plane + i2 * nl;                                                    \
        double sn = 0, sd = 0;                                                                     \
        for (size_t j = 0; j < nl; j++) {                                                          \
          T a = kr_tri_##S(lm, lmo, x1, j, nl) + kr_tri_##S(la, lao, x2, j, nl) +                  \
                c * kr_tri_##S(lm, lmo, x2, j, nl);                                                \
          sn += ABS2(fr[j] - a), sd += ABS2(fr[j]);                                                \
        }                                                                                          \
        *num += sn, *den += sd;                                                                    \
      }                                                                                            \
    }                                                                                              \
  }

#define KR_ABS2_D(x) ((x) * (x))
#define KR_SET_CIM(c, im) (void)(im)
KR_DEFINE(d, double, KR_ABS2_D)
#undef KR_SET_CIM

#ifndef __cplusplus
#include <complex.h>
#define KR_ABS2_Z(x) (creal(x) * creal(x) + cimag(x) * cimag(x))
#define KR_SET_CIM(c, im) ((c) += I * (im))
KR_DEFINE(z, double complex, KR_ABS2_Z)
#undef KR_SET_CIM
#ifdef _OPENMP
#include <omp.h>
#endif

/* ||f - A u||_2 / ||f||_2 with OpenMP threads over i1; -1 when workspace is short. */
static inline double kr_rel_residual(const pscr_problem *p, const void *u, const void *f) {
  double num = 0, den = 0;
  int fail = 0;
  size_t n1 = p->dim[0].n, wd = kr_work_doubles(p);
#ifdef _OPENMP
#pragma omp parallel reduction(+ : num, den) reduction(| : fail)
#endif
  {
    double *work = (double *)malloc(wd * sizeof(double));
    fail |= work == NULL;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
    for (size_t i1 = 0; i1 < n1; i1++) {
      if (work == NULL) continue;
      if (p->dtype == PSCR_C128)
        kr_slab_z(p, (const double complex *)u, (const double complex *)f, i1, i1 + 1,
                  (double complex *)work, &num, &den);
      else
        kr_slab_d(p, (const double *)u, (const double *)f, i1, i1 + 1, work, &num, &den);
    }
    free(work);
  }
  if (fail) return -1;
  return den > 0 ? sqrt(num / den) : sqrt(num);
}
#endif

#endif
