/* Manufactured solutions through the whole pipeline (problem builder (31) + PSCR solve):
 * -Lap u = f on [0,1]^d, u = prod sin(k_d pi x_d) exp(a prod x_d) with random k_d in {1,2}
 * and a in [0.5,1.5]; uniform, cosine-graded, geometric and mixed meshes, non-square sizes,
 * radix 4 (default), 2 and 3.
 * The observed order of the max nodal error and of the discrete L2 error between
 * successive refinements (steps halved) must be 2 +- 0.1, and the normwise backward error
 * of the solve small. */
#include <stdlib.h>

#include "../../examples/common/example_util.h"
#include "testing.h"

typedef struct {
  int ndim;
  ex_mesh mesh[3];
  size_t mult[3]; /* n_d = mult_d (n + 1) - 1: every direction refines by 2 */
  size_t n[4];    /* the refinements */
  int radix;      /* 0: the default options */
} conv_case;

static const conv_case cases[] = {
    {2, {EX_MESH_UNIFORM, EX_MESH_UNIFORM}, {1, 1}, {31, 63, 127, 255}, 0},
    {2, {EX_MESH_GRADED, EX_MESH_GRADED}, {1, 1}, {31, 63, 127, 255}, 0},
    {2, {EX_MESH_GEOMETRIC, EX_MESH_GRADED}, {1, 2}, {31, 63, 127, 255}, 2},
    {3, {EX_MESH_UNIFORM, EX_MESH_UNIFORM, EX_MESH_UNIFORM}, {1, 1, 1}, {7, 15, 31, 47}, 0},
    {3, {EX_MESH_GRADED, EX_MESH_UNIFORM, EX_MESH_GEOMETRIC}, {1, 1, 2}, {15, 23, 31, 39}, 3},
};

typedef struct {
  double err_max, err_l2, residual, backward;
  pscr_status st;
} outcome;

/* One solve at refinement n; errors against the exact nodal values. */
static outcome solve_once(pscr_context *ctx, const conv_case *c, size_t n0, const ex_mms *mms) {
  outcome out = {.st = PSCR_ERR_OUT_OF_MEMORY};
  pscr_problem prob = {.ndim = c->ndim, .dtype = PSCR_F64};
  double *x[3] = {NULL}, *h[3] = {NULL}, *fac[3] = {NULL}, *buf = NULL;
  pscr_plan *plan = NULL;
  size_t n[3] = {0}, total = 1;
  for (int d = 0; d < c->ndim; d++) {
    n[d] = c->mult[d] * (n0 + 1) - 1, total *= n[d];
    x[d] = malloc((n[d] + 2) * sizeof(double));
    h[d] = malloc((n[d] + 1) * sizeof(double));
    fac[d] = malloc(3 * n[d] * sizeof(double));
    if (!x[d] || !h[d] || !fac[d])
      goto cleanup;
    ex_mesh_nodes(c->mesh[d], n[d] + 1, x[d]);
    ex_mesh_steps(n[d] + 1, x[d], h[d]);
    out.st = pscr_factor_poisson_fem(n[d], h[d], fac[d], fac[d] + n[d], fac[d] + 2 * n[d]);
    if (out.st != PSCR_OK)
      goto cleanup;
    prob.dim[d] = (pscr_factor){n[d], fac[d], fac[d] + n[d], fac[d] + 2 * n[d], NULL};
  }
  out.st = PSCR_ERR_OUT_OF_MEMORY;
  buf = malloc(5 * total * sizeof(double)); /* exact | load | solution | 2 x work */
  if (!buf)
    goto cleanup;
  double *u = buf, *b = u + total, *y = b + total, *w1 = y + total, *w2 = w1 + total;
  for (size_t i = 0; i < total; i++) {
    size_t rest = i, idx[3];
    for (int d = c->ndim - 1; d >= 0; d--)
      idx[d] = rest % n[d], rest /= n[d];
    double p[3], wgt = 1, f;
    for (int d = 0; d < c->ndim; d++)
      p[d] = x[d][idx[d] + 1], wgt *= fac[d][2 * n[d] + idx[d]];
    ex_mms_eval(mms, p, &u[i], &f);
    y[i] = b[i] = wgt * f; /* lumped load (M1 (x) M2 (x) M3) f */
  }
  pscr_options opt;
  pscr_options_default(&opt);
  if (c->radix)
    opt.radix = c->radix;
  out.st = pscr_plan_create(ctx, &prob, c->radix ? &opt : NULL, &plan);
  if (out.st == PSCR_OK)
    out.st = pscr_solve(plan, y);
  if (out.st != PSCR_OK)
    goto cleanup;
  double l2 = 0;
  for (size_t i = 0; i < total; i++) {
    double e = y[i] - u[i], wgt = 1;
    size_t rest = i;
    for (int d = c->ndim - 1; d >= 0; d--)
      wgt *= fac[d][2 * n[d] + rest % n[d]], rest /= n[d];
    out.err_max = fmax(out.err_max, fabs(e));
    l2 += wgt * e * e; /* sum over nodes of the lumped-mass weights: an L2(Omega) norm */
  }
  out.err_l2 = sqrt(l2);
  ex_kron_apply(&prob, y, u, w1, w2);
  out.residual = ex_rel_diff(PSCR_F64, total, b, u);
  out.backward = ex_backward_error(&prob, y, b, u);
cleanup:
  pscr_plan_destroy(plan);
  for (int d = 0; d < 3; d++)
    free(x[d]), free(h[d]), free(fac[d]);
  free(buf);
  return out;
}

/* Least-squares slope of y against x. */
static double ls_slope(int m, const double *x, const double *y) {
  double mx = 0, my = 0, sxy = 0, sxx = 0;
  for (int i = 0; i < m; i++)
    mx += x[i] / m, my += y[i] / m;
  for (int i = 0; i < m; i++)
    sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx);
  return sxy / sxx;
}

int main(void) {
  pt_rng r;
  pt_rng_seed(&r, pt_fresh_seed());
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx), PSCR_OK);
  if (!ctx)
    return pt_exit("test_convergence");
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
    const conv_case *c = &cases[ci];
    ex_mms mms = {.ndim = c->ndim, .a = pt_uniform(&r, 0.5, 1.5)};
    for (int d = 0; d < c->ndim; d++)
      mms.k[d] = pt_uniform(&r, 0, 1) < 0.5 ? 1 : 2;
    outcome o[4];
    double lh[4], lmax[4], ll2[4];
    int ok = 1;
    for (int k = 0; k < 4 && ok; k++) {
      o[k] = solve_once(ctx, c, c->n[k], &mms);
      PT_CHECK_STATUS(o[k].st, PSCR_OK);
      if (!(ok = o[k].st == PSCR_OK))
        break;
      PT_CHECK_LE(o[k].backward, 1e-12, "case %zu n %zu: backward error", ci, c->n[k]);
      lh[k] = -log((double)(c->n[k] + 1)), lmax[k] = log(o[k].err_max), ll2[k] = log(o[k].err_l2);
      fprintf(stderr,
              "case %zu %dD %s/%s/%s k %g %g %g a %.2f n %4zu: max err %.3e  L2 err %.3e  "
              "residual %.1e backward %.1e",
              ci, c->ndim, ex_mesh_names[c->mesh[0]], ex_mesh_names[c->mesh[1]],
              c->ndim == 3 ? ex_mesh_names[c->mesh[2]] : "-", mms.k[0], mms.k[1], mms.k[2], mms.a,
              c->n[k], o[k].err_max, o[k].err_l2, o[k].residual, o[k].backward);
      if (k > 0)
        fprintf(stderr, "  order %.3f (max) %.3f (L2)",
                (lmax[k - 1] - lmax[k]) / (lh[k - 1] - lh[k]),
                (ll2[k - 1] - ll2[k]) / (lh[k - 1] - lh[k]));
      fprintf(stderr, "\n");
    }
    if (!ok)
      continue;
    /* The max-norm order from a least-squares fit over the four meshes (where the maximum
     * sits moves from mesh to mesh), the L2 order also pairwise on the finest pair. */
    double p_max = ls_slope(4, lh, lmax), p_l2 = ls_slope(4, lh, ll2);
    double p_l2_last = (ll2[2] - ll2[3]) / (lh[2] - lh[3]);
    fprintf(stderr, "case %zu: fitted order %.3f (max) %.3f (L2)\n", ci, p_max, p_l2);
    PT_CHECK_LE(fabs(p_max - 2), 0.1, "case %zu: max-norm order %.3f", ci, p_max);
    PT_CHECK_LE(fabs(p_l2 - 2), 0.1, "case %zu: L2 order %.3f", ci, p_l2);
    PT_CHECK_LE(fabs(p_l2_last - 2), 0.1, "case %zu: L2 order on the finest pair %.3f", ci,
                p_l2_last);
  }
  pscr_context_destroy(ctx);
  return pt_exit("test_convergence");
}
