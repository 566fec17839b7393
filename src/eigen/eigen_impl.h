/* Internal interface of src/eigen (see eigen.h for the public contract).
 * The pencil (A~, M~) of seed 003 (23) is split into unreduced blocks; each
 * block's eigenvalues come from a reduction to a standard symmetric
 * tridiagonal (real: LAPACK; complex symmetric: own Crawford + LR), the
 * eigenvectors from inverse iteration on the pencil itself (invit_tmpl.c). */
#ifndef PSCR_EIGEN_IMPL_H
#define PSCR_EIGEN_IMPL_H

#include <complex.h>
#include <stddef.h>

#include <pscr/core.h>

/* Eigenvalues (any order) of one unreduced block of order n of the pencil;
 * mo == NULL: diagonal M. work: 10 n scalars. Real: PSCR_ERR_INVALID_ARGUMENT
 * when M is not positive definite. Complex: PSCR_ERR_INVALID_ARGUMENT when
 * M = Z Z^T (no conjugation) breaks down (M singular), PSCR_ERR_NOT_CONVERGED
 * when the reduction or the LR iteration fails. */
pscr_status eigen_values_d(size_t n, const double *ad, const double *ao, const double *md,
                           const double *mo, double *lam, double *work);
/* Blocks of at least this order take eigen_sturm_values_d (parallel, no
 * reduction) in eigen_values_d; smaller ones the reduction and dsterf (the
 * new path is faster from n ~ 128 on, 3x with AVX2, 1.1-1.5x with SSE2 only:
 * the bound only keeps the small blocks' results as they were). Defined at
 * build time (-DEIGEN_STURM_MIN=...) to compare. */
#ifndef EIGEN_STURM_MIN
#define EIGEN_STURM_MIN 256
#endif
#define EIGEN_STURM_CHUNK 256 /* eigenvalues per task of eigen_sturm_values_d */
/* Eigenvalues of the real pencil (order n, mo == NULL: diagonal M) by
 * bisection on inertia counts of A - x M and Laguerre's iteration (sturm.c),
 * in chunks that run as OpenMP tasks; lam[k] is the k-th smallest (ties
 * within the tolerance aside). To about eps max|lambda| (absolute) or better,
 * bitwise independent of the thread count. PSCR_ERR_INVALID_ARGUMENT when M
 * is not positive definite. */
pscr_status eigen_sturm_values_d(size_t n, const double *ad, const double *ao, const double *md,
                                 const double *mo, double *lam);
pscr_status eigen_values_z(size_t n, const double complex *ad, const double complex *ao,
                           const double complex *md, const double complex *mo,
                           double complex *lam, double complex *work);

/* Complex symmetric pieces (crawford.c, lr.c). */
/* (A, M) -> C = X^T A X with X^T M X = I, C tridiagonal (d, e): Crawford's
 * algorithm with the split M = Z Z^T and complex orthogonal bulge chasing.
 * work: 2 n. */
pscr_status eigen_crawford_z(size_t n, const double complex *ad, const double complex *ao,
                             const double complex *md, const double complex *mo,
                             double complex *d, double complex *e, double complex *work);
/* Eigenvalues of the complex symmetric tridiagonal with diagonal a and squared
 * off-diagonal b (b_i = e_i^2), by LR with Wilkinson's shift; a, b destroyed.
 * work: 2 n. */
pscr_status eigen_lr_z(size_t n, double complex *a, double complex *b, double complex *lam,
                       double complex *work);

/* Row excess (excess_tmpl.c): ex_i = d_i - k_{i-1} o_{i-1} - k_i o_i with
 * k_e = -1 where Re so_e < 0, else +1, to about eps |ex_i| (compensated). With
 * so = o = A's off-diagonal, the row sums of a Poisson-like A exactly. */
void eigen_row_excess_d(size_t n, const double *d, const double *o, const double *so,
                        double *ex);
void eigen_row_excess_z(size_t n, const double complex *d, const double complex *o,
                        const double complex *so, double complex *ex);

#define EIGEN_CLUSTER 1e-5 /* relative window of reorthogonalization */
/* Blocks of at most this order are reorthogonalized in full: vectors outside
 * the window are orthogonal only to O(eps ||A|| / gap), which random
 * indefinite pencils make 1e-14 .. 1e-13 (backward error of PSCR 3.5e-14 at
 * 2D 127^2, 7.5e-17 in full). */
#define EIGEN_FULL 128
#define EIGEN_CHUNK 256 /* eigenvalues per chunk of a large block (a parallel task) */
/* The reorthogonalization window of a block of order n (largest |lambda|
 * lmax): EIGEN_CLUSTER lmax, or everything (INFINITY) up to EIGEN_FULL. */
double eigen_cluster_delta(size_t n, double lmax);
/* Chunks of about EIGEN_CHUNK eigenvalues, cut only at gaps wider than delta:
 * no vector then needs orthogonalizing against another chunk's, which is why
 * chunks can run in parallel. The cuts depend on the spectrum alone, so the
 * vectors do not depend on the thread count. re: the eigenvalues' real
 * parts, ascending, at re[k * stride] (stride 2: a double complex array);
 * cut: n / EIGEN_CHUNK + 2 entries. @return the number of chunks. */
size_t eigen_chunk_cuts(size_t n, const double *re, size_t stride, double delta, size_t *cut);

/* Real Toeplitz pencils (toeplitz.c), as on uniform meshes: 1 if ad, ao, md
 * and mo (NULL: M diagonal) are each constant (compared with ==). Then
 * eigen_toeplitz_d gives pscr_eigen_block's result in closed form from
 * A = tridiag(b, a, b), M = tridiag(d, c, d) (d = 0 for diagonal M):
 * eigenvalues and components to about an ulp each, O(m + m nrows) work.
 * PSCR_ERR_INVALID_ARGUMENT when M is not positive definite. */
int eigen_is_toeplitz_d(size_t m, const double *ad, const double *ao, const double *md,
                        const double *mo);
pscr_status eigen_toeplitz_d(size_t m, double a, double b, double c, double d, size_t nrows,
                             const size_t *rows, double *lambda, double *comp);

/* The whole computation for one dtype (arguments already checked finite);
 * eigen_pencil_d is the general path, for any real pencil. */
pscr_status eigen_pencil_d(size_t m, const double *ad, const double *ao, const double *md,
                           const double *mo, size_t nrows, const size_t *rows, double *lambda,
                           double *comp);
pscr_status eigen_pencil_z(size_t m, const double complex *ad, const double complex *ao,
                           const double complex *md, const double complex *mo, size_t nrows,
                           const size_t *rows, double complex *lambda, double complex *comp);

/* re + i im (C11's CMPLX is missing from some libc / compiler pairings). */
static inline double complex eigen_cmplx(double re, double im) {
  union {
    double complex z;
    double d[2];
  } u = {.d = {re, im}};
  return u.z;
}

/* a * b without the C99 multiplication's NaN recovery (operands are finite). */
static inline double complex eigen_zmul(double complex a, double complex b) {
  return eigen_cmplx(creal(a) * creal(b) - cimag(a) * cimag(b), creal(a) * cimag(b) + cimag(a) * creal(b));
}

/* 1 / z without the C99 division's library call, except near overflow /
 * underflow of |z|^2. */
static inline double complex eigen_zinv(double complex z) {
  double r = creal(z), i = cimag(z), s = 1 / (r * r + i * i);
  if (s > 1e-300 && s < 1e300) return eigen_cmplx(r * s, -i * s);
  return 1.0 / z;
}

#endif
