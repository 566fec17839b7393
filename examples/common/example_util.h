/* Helpers shared by the examples, the PSCR benchmark and the convergence test (header only,
 * public API only): meshes on [0,1], a manufactured solution, y = A u through the Kronecker
 * structure, norms and a wall clock. */
#ifndef PSCR_EXAMPLE_UTIL_H
#define PSCR_EXAMPLE_UTIL_H

#include <complex.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include <pscr/pscr.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static inline double ex_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- meshes: nodes x[0..N] on [0,1], N = number of steps ---- */
typedef enum { EX_MESH_UNIFORM, EX_MESH_GRADED, EX_MESH_GEOMETRIC, EX_MESH_COUNT } ex_mesh;
static const char *const ex_mesh_names[EX_MESH_COUNT] = {"uniform", "graded", "geometric"};

/* graded: x = (1 - cos(pi s))/2, fine at both ends (smallest step ~ h^2);
 * geometric: x = (r^s - 1)/(r - 1), r = 20: steps grow geometrically by a factor 20 in all.
 * Both are smooth maps of a uniform s, so the FEM keeps its O(h^2) nodal accuracy. */
static inline void ex_mesh_nodes(ex_mesh kind, size_t steps, double *x) {
  for (size_t j = 0; j <= steps; j++) {
    double s = (double)j / (double)steps;
    x[j] = kind == EX_MESH_GRADED      ? 0.5 * (1.0 - cos(M_PI * s))
           : kind == EX_MESH_GEOMETRIC ? (pow(20.0, s) - 1.0) / 19.0
                                       : s;
  }
  x[0] = 0.0, x[steps] = 1.0;
}

static inline void ex_mesh_steps(size_t steps, const double *x, double *h) {
  for (size_t j = 0; j < steps; j++)
    h[j] = x[j + 1] - x[j];
}

static inline int ex_mesh_parse(const char *s, ex_mesh *kind) {
  for (int k = 0; k < EX_MESH_COUNT; k++)
    if (strcmp(s, ex_mesh_names[k]) == 0)
      return *kind = (ex_mesh)k, 1;
  return 0;
}

/* ---- manufactured solution u = prod_d sin(k_d pi x_d) * exp(a prod_d x_d) (non-separable,
 * zero on the boundary of [0,1]^d), and f = -Lap u ---- */
typedef struct {
  int ndim;
  double k[3], a;
} ex_mms;

static inline void ex_mms_eval(const ex_mms *m, const double *x, double *u, double *f) {
  double s[3], c[3], sp = 1, xp = 1, ks2 = 0;
  for (int d = 0; d < m->ndim; d++) {
    s[d] = sin(m->k[d] * M_PI * x[d]);
    c[d] = cos(m->k[d] * M_PI * x[d]);
    sp *= s[d], xp *= x[d], ks2 += m->k[d] * m->k[d];
  }
  double e = exp(m->a * xp), cross = 0, lap_e = 0;
  for (int d = 0; d < m->ndim; d++) {
    double s_other = 1, x_other = 1; /* products over the other coordinates */
    for (int j = 0; j < m->ndim; j++)
      if (j != d)
        s_other *= s[j], x_other *= x[j];
    cross += m->k[d] * M_PI * c[d] * s_other * m->a * x_other; /* dS/dx_d * dE/dx_d / E */
    lap_e += m->a * m->a * x_other * x_other;
  }
  *u = sp * e;
  *f = -e * (-M_PI * M_PI * ks2 * sp + 2.0 * cross + sp * lap_e);
}

/* ---- y = A u for a pscr_problem (either dtype), through its Kronecker form ---- */
/* out[o, i, r] = diag[i] in[o, i, r] + off[i-1] in[o, i-1, r] + off[i] in[o, i+1, r] */
#define EX_AXIS(NAME, T)                                                                           \
  static inline void NAME(size_t outer, size_t n, size_t inner, const T *dg, const T *off,         \
                          const T *in, T *out) {                                                   \
    for (size_t o = 0; o < outer; o++)                                                             \
      for (size_t i = 0; i < n; i++) {                                                             \
        const T *p = in + (o * n + i) * inner;                                                     \
        T *q = out + (o * n + i) * inner, dv = dg[i];                                              \
        T lo = (off && i > 0) ? off[i - 1] : 0, up = (off && i + 1 < n) ? off[i] : 0;              \
        for (size_t r = 0; r < inner; r++) {                                                       \
          T v = dv * p[r];                                                                         \
          if (i > 0)                                                                               \
            v += lo * (p - inner)[r];                                                              \
          if (i + 1 < n)                                                                           \
            v += up * (p + inner)[r];                                                              \
          q[r] = v;                                                                                \
        }                                                                                          \
      }                                                                                            \
  }
EX_AXIS(ex_axis_d, double)
EX_AXIS(ex_axis_z, double complex)
#undef EX_AXIS

static inline size_t ex_problem_size(const pscr_problem *p) {
  size_t total = 1;
  for (int d = 0; d < p->ndim; d++)
    total *= p->dim[d].n;
  return total;
}

/* y = A u; w1, w2: workspace of the problem's size. Terms: A_t along axis t, M elsewhere,
 * then c M(x)..(x)M. */
static inline void ex_kron_apply(const pscr_problem *p, const void *u, void *y, void *w1,
                                 void *w2) {
  size_t total = ex_problem_size(p), esz = p->dtype == PSCR_C128 ? 16 : 8;
  double complex c = p->c_re + I * p->c_im;
  memset(y, 0, total * esz);
  for (int t = 0; t <= p->ndim; t++) {
    if (t == p->ndim && c == 0)
      break;
    const void *cur = u;
    void *buf[2] = {w1, w2}, *next = NULL;
    size_t outer = 1;
    for (int d = 0; d < p->ndim; d++) {
      size_t n = p->dim[d].n, inner = total / (outer * n);
      const pscr_factor *f = &p->dim[d];
      const void *dg = d == t ? f->a_diag : f->m_diag, *off = d == t ? f->a_off : f->m_off;
      next = buf[d % 2];
      if (p->dtype == PSCR_C128)
        ex_axis_z(outer, n, inner, dg, off, cur, next);
      else
        ex_axis_d(outer, n, inner, dg, off, cur, next);
      cur = next, outer *= n;
    }
    if (p->dtype == PSCR_C128) {
      double complex coef = t == p->ndim ? c : 1, *yy = y;
      const double complex *v = next;
      for (size_t i = 0; i < total; i++)
        yy[i] += coef * v[i];
    } else {
      double coef = t == p->ndim ? creal(c) : 1, *yy = y;
      const double *v = next;
      for (size_t i = 0; i < total; i++)
        yy[i] += coef * v[i];
    }
  }
}

/* ||b - r||_2 / ||b||_2 over `count` scalars of the dtype (r is overwritten). */
static inline double ex_rel_diff(pscr_dtype t, size_t count, const void *b, const void *r) {
  size_t m = t == PSCR_C128 ? 2 * count : count;
  const double *x = b, *y = r;
  double num = 0, den = 0;
  for (size_t i = 0; i < m; i++) {
    double d = x[i] - y[i];
    num += d * d, den += x[i] * x[i];
  }
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* ||x||_inf over `count` scalars of the dtype (modulus for complex). */
static inline double ex_norm_inf(pscr_dtype t, size_t count, const void *x) {
  double m = 0;
  for (size_t i = 0; i < count; i++)
    m = fmax(m,
             t == PSCR_C128 ? cabs(((const double complex *)x)[i]) : fabs(((const double *)x)[i]));
  return m;
}

/* ||F||_inf of one tridiagonal factor (off may be NULL). */
static inline double ex_factor_norm(pscr_dtype t, size_t n, const void *dg, const void *off) {
  double m = 0;
  for (size_t i = 0; i < n; i++) {
    double s = 0;
    for (size_t k = i > 0 ? i - 1 : 0; k <= i + 1 && k < n; k++) {
      const void *p = k == i ? dg : off;
      size_t j = k == i ? i : (k < i ? k : i);
      if (p)
        s += t == PSCR_C128 ? cabs(((const double complex *)p)[j]) : fabs(((const double *)p)[j]);
    }
    m = fmax(m, s);
  }
  return m;
}

/* Normwise backward error ||f - A u||_inf / (||A||_inf ||u||_inf + ||f||_inf), with
 * ||A||_inf bounded by the Kronecker terms' norms (||X (x) Y|| = ||X|| ||Y||).
 * r = A u from ex_kron_apply. */
static inline double ex_backward_error(const pscr_problem *p, const void *u, const void *f,
                                       const void *r) {
  size_t total = ex_problem_size(p), m = p->dtype == PSCR_C128 ? 2 * total : total;
  double na = 0, res = 0;
  for (int t = 0; t <= p->ndim; t++) {
    double term = t == p->ndim ? hypot(p->c_re, p->c_im) : 1;
    for (int d = 0; d < p->ndim; d++) {
      const pscr_factor *g = &p->dim[d];
      term *= d == t ? ex_factor_norm(p->dtype, g->n, g->a_diag, g->a_off)
                     : ex_factor_norm(p->dtype, g->n, g->m_diag, g->m_off);
    }
    na += term;
  }
  const double *x = f, *y = r;
  if (p->dtype == PSCR_C128)
    for (size_t i = 0; i < m; i += 2)
      res = fmax(res, hypot(x[i] - y[i], x[i + 1] - y[i + 1]));
  else
    for (size_t i = 0; i < m; i++)
      res = fmax(res, fabs(x[i] - y[i]));
  return res / (na * ex_norm_inf(p->dtype, total, u) + ex_norm_inf(p->dtype, total, f));
}

static inline const char *ex_backend_name(pscr_backend b) {
  return b == PSCR_BACKEND_CUDA ? "cuda" : b == PSCR_BACKEND_OPENCL ? "opencl" : "cpu";
}

static inline int ex_backend_parse(const char *s, pscr_backend *b) {
  if (strcmp(s, "cpu") == 0)
    return *b = PSCR_BACKEND_CPU, 1;
  if (strcmp(s, "cuda") == 0)
    return *b = PSCR_BACKEND_CUDA, 1;
  if (strcmp(s, "opencl") == 0)
    return *b = PSCR_BACKEND_OPENCL, 1;
  return 0;
}

#endif
