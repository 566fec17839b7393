/* Helpers shared by the examples, the PSCR benchmark and the convergence test (header only,
 * public API only): meshes on [0,1], a manufactured solution, y = A u through the Kronecker
 * structure, norms, a wall clock and the examples' common command-line options. */
#ifndef PSCR_EXAMPLE_UTIL_H
#define PSCR_EXAMPLE_UTIL_H

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---- command line: the options every PSCR example takes ---- */
typedef struct {
  int ndim, threads, radix;
  size_t n[3];
  ex_mesh mesh;
  pscr_backend backend;
} ex_args;

/* An example's own option o with value v: 1 taken, 0 not its own, -1 bad value. */
typedef int (*ex_own_option)(const char *o, const char *v, void *own_args);

/* --dim 2|3, --n N and --n1/--n2/--n3 N (N >= n_min; unset sizes: n2d in 2D, n3d in 3D),
 * --mesh, --backend, --threads T (0 = all), --radix q >= 2; the example's own options first
 * through `own` (may be NULL). --help prints `usage` on stdout, bad usage says why and prints
 * it on stderr. @return -1: run; else the exit status (0 after --help, 2 after bad usage). */
static inline int ex_parse_args(const char *prog, const char *usage, int argc, char **argv,
                                size_t n_min, size_t n2d, size_t n3d, ex_args *a,
                                ex_own_option own, void *own_args) {
  int bad = 0;
  *a = (ex_args){.ndim = 2, .radix = 4, .mesh = EX_MESH_UNIFORM, .backend = PSCR_BACKEND_CPU};
  for (int i = 1; i < argc && !bad; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0)
      return fputs(usage, stdout), 0;
    if (v == NULL) {
      fprintf(stderr, "%s: %s needs a value\n", prog, o), bad = 1;
      break;
    }
    i++;
    long k = strtol(v, NULL, 10);
    int mine = own ? own(o, v, own_args) : 0;
    if (mine > 0)
      continue;
    if (mine < 0)
      bad = 1;
    else if (strcmp(o, "--dim") == 0 && (k == 2 || k == 3))
      a->ndim = (int)k;
    else if (strcmp(o, "--n") == 0 && k >= (long)n_min)
      a->n[0] = a->n[1] = a->n[2] = (size_t)k;
    else if (strncmp(o, "--n", 3) == 0 && o[3] >= '1' && o[3] <= '3' && !o[4] && k >= (long)n_min)
      a->n[o[3] - '1'] = (size_t)k;
    else if (strcmp(o, "--mesh") == 0 && ex_mesh_parse(v, &a->mesh))
      ;
    else if (strcmp(o, "--backend") == 0 && ex_backend_parse(v, &a->backend))
      ;
    else if (strcmp(o, "--threads") == 0 && k >= 0)
      a->threads = (int)k;
    else if (strcmp(o, "--radix") == 0 && k >= 2)
      a->radix = (int)k;
    else
      bad = 1;
    if (bad)
      fprintf(stderr, "%s: bad option %s %s\n", prog, o, v);
  }
  if (bad)
    return fputs(usage, stderr), 2;
  for (int d = 0; d < 3; d++)
    if (a->n[d] == 0)
      a->n[d] = a->ndim == 2 ? n2d : n3d;
  return -1;
}

/* The examples' common path: a context for a->backend (a->threads on the CPU), the plan
 * (radix, threads from a) and one solve of f in place, with the wall times of
 * pscr_plan_create and pscr_solve. The caller destroys *plan and *ctx (even on failure). */
static inline pscr_status ex_plan_solve(const ex_args *a, const pscr_problem *p, void *f,
                                        pscr_context **ctx, pscr_plan **plan, double *t_plan,
                                        double *t_solve) {
  pscr_options opt;
  pscr_options_default(&opt);
  opt.radix = a->radix, opt.threads = a->threads;
  *t_plan = *t_solve = 0;
  pscr_status st = pscr_context_create(a->backend, 0, ctx);
  if (st == PSCR_OK && a->backend == PSCR_BACKEND_CPU)
    st = pscr_context_set_threads(*ctx, a->threads);
  double t0 = ex_wtime();
  if (st == PSCR_OK)
    st = pscr_plan_create(*ctx, p, &opt, plan);
  *t_plan = ex_wtime() - t0;
  t0 = ex_wtime();
  if (st == PSCR_OK)
    st = pscr_solve(*plan, f);
  *t_solve = ex_wtime() - t0;
  return st;
}

/* The lines every example prints after its solve. */
static inline void ex_print_run(double t_plan, double t_solve, const pscr_plan *plan, double res,
                                double bwd) {
  pscr_plan_info info = {0};
  pscr_plan_get_info(plan, &info);
  printf("  plan time               %.4f s\n", t_plan);
  printf("  solve time              %.4f s (library: %.4f s)\n", t_solve, info.last_solve_seconds);
  printf("  relative residual       %.3e  (||f - A u||_2 / ||f||_2)\n", res);
  printf("  backward error          %.3e  (||f - A u|| / (||A|| ||u|| + ||f||), inf-norms)\n", bwd);
}

/* The examples' epilogue: says why on failure (st), releases plan and context.
 * @return the exit status: rc, or 1 after a failure. */
static inline int ex_finish(const char *prog, pscr_status st, int rc, pscr_plan *plan,
                            pscr_context *ctx) {
  if (st != PSCR_OK)
    fprintf(stderr, "%s: %s\n", prog, pscr_status_string(st)), rc = 1;
  pscr_plan_destroy(plan);
  pscr_context_destroy(ctx);
  return rc;
}

#endif
