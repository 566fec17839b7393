/* libpscr demo: -Lap u - w^2 u = f on [0,1]^d (d = 2, 3) with the second-order absorbing
 * boundary condition, bilinear (trilinear) FEM (seed 003 eqs. (33)-(35), c = -w^2), solved by
 * radix-q PSCR in complex arithmetic. Source: a point load at the node nearest the centre or
 * a Gaussian. Prints the relative residual, the times, and for the point source the
 * deviation from the free-space field (i/4) H0(w r) (2D) or e^{i w r}/(4 pi r) (3D), which
 * measures the discretization and the absorbing boundary's reflections. In 2D, --png writes
 * Re u and |u| side by side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/example_util.h"
#ifdef PSCR_HAVE_PNG
#include <png.h>
#endif

typedef struct {
  ex_args c; /* the common options */
  int gauss;
  double omega;
  const char *png;
} args;

static const char usage[] =
    "usage: helmholtz [options]\n"
    "  --dim 2|3              dimension (default 2)\n"
    "  --n N                  nodes per direction, boundary included\n"
    "                         (default 1023 in 2D, 63 in 3D); --n1 --n2 --n3 one at a time\n"
    "  --omega W              wave number (default 20 pi: 10 wavelengths across the box)\n"
    "  --source point|gauss   point load at the centre or a Gaussian (sigma 0.02)\n"
    "  --mesh uniform|graded|geometric\n"
    "  --backend cpu|cuda|opencl, --threads T (0 = all), --radix q (default 4)\n"
    "  --png PATH             2D: write Re u and |u| side by side as a PNG\n"
    "  --help\n";

/* --omega, --source, --png; 1 taken, 0 not these, -1 bad value */
static int own_option(const char *o, const char *v, void *own_args) {
  args *a = own_args;
  if (strcmp(o, "--omega") == 0)
    return strtod(v, NULL) > 0 ? (a->omega = strtod(v, NULL), 1) : -1;
  if (strcmp(o, "--source") == 0) {
    if (strcmp(v, "point") && strcmp(v, "gauss"))
      return -1;
    return a->gauss = strcmp(v, "gauss") == 0, 1;
  }
  if (strcmp(o, "--png") == 0)
    return a->png = v, 1;
  return 0;
}

#ifdef PSCR_HAVE_PNG
static void colour(double t, int diverging, unsigned char *rgb) {
  t = t < -1 ? -1 : t > 1 ? 1 : t;
  double r, g, b;
  if (diverging) /* blue - white - red */
    r = t < 0 ? 1 + t : 1, g = 1 - fabs(t), b = t > 0 ? 1 - t : 1;
  else /* black - red - yellow - white */
    r = fmin(1, 3 * t), g = fmin(1, fmax(0, 3 * t - 1)), b = fmax(0, 3 * t - 2);
  rgb[0] = (unsigned char)(255 * r), rgb[1] = (unsigned char)(255 * g);
  rgb[2] = (unsigned char)(255 * b);
}

/* Re u (left) and |u| (right), each scaled by `scale` and clipped; y upwards. */
static int write_png(const char *path, const double complex *u, const size_t *n, double scale) {
  size_t side = n[0] > n[1] ? n[0] : n[1];
  if (side > 1024)
    side = 1024;
  size_t width = 2 * side + 8, height = side;
  int ok = 0;
  unsigned char *row = calloc(3 * width, 1);
  FILE *fp = fopen(path, "wb");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!row || !fp || !info)
    goto cleanup;
  if (setjmp(png_jmpbuf(png)))
    goto cleanup;
  png_init_io(png, fp);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (size_t py = 0; py < height; py++) {
    size_t i2 = (height - 1 - py) * n[1] / height;
    for (size_t px = 0; px < side; px++) {
      double complex v = u[(px * n[0] / side) * n[1] + i2];
      colour(creal(v) / scale, 1, row + 3 * px);
      colour(cabs(v) / scale, 0, row + 3 * (side + 8 + px));
    }
    png_write_row(png, row);
  }
  png_write_end(png, NULL);
  ok = 1;
cleanup:
  if (png)
    png_destroy_write_struct(&png, info ? &info : NULL);
  if (fp)
    fclose(fp);
  free(row);
  return ok;
}
#endif

/* The free-space field of a unit point source at distance r. */
static double complex free_space(int ndim, double w, double r) {
  if (ndim == 2)
    return 0.25 * I * (j0(w * r) + I * y0(w * r)); /* (i/4) H0^(1)(w r) */
  return cexp(I * w * r) / (4 * M_PI * r);
}

int main(int argc, char **argv) {
  args a = {.omega = 20 * M_PI};
  int ex = ex_parse_args("helmholtz", usage, argc, argv, 2, 1023, 63, &a.c, own_option, &a);
  if (ex >= 0)
    return ex;
  int rc = 1;
  pscr_status st = PSCR_OK;
  pscr_context *ctx = NULL;
  pscr_plan *plan = NULL;
  double *x[3] = {NULL}, *fac[3] = {NULL};
  double complex *b = NULL, *u = NULL, *y = NULL, *w1 = NULL, *w2 = NULL;
  pscr_problem prob = {.ndim = a.c.ndim, .dtype = PSCR_C128, .c_re = -a.omega * a.omega};
  size_t total = 1, centre[3];
  double x0[3];
  for (int d = 0; d < a.c.ndim; d++) {
    size_t n = a.c.n[d];
    total *= n;
    x[d] = malloc(n * sizeof(double));
    fac[d] = malloc(8 * n * sizeof(double)); /* a_diag | a_off | m_diag | m_off, complex */
    double *h = malloc(n * sizeof(double));
    if (!x[d] || !fac[d] || !h) {
      free(h);
      goto oom;
    }
    ex_mesh_nodes(a.c.mesh, n - 1, x[d]);
    ex_mesh_steps(n - 1, x[d], h);
    double *ad = fac[d], *ao = ad + 2 * n, *md = ao + 2 * n, *mo = md + 2 * n;
    st = pscr_factor_helmholtz_abc(n, h, a.omega, ad, ao, md, mo); /* (33)-(35) */
    free(h);
    if (st != PSCR_OK)
      goto cleanup;
    prob.dim[d] = (pscr_factor){n, ad, ao, md, mo};
    centre[d] = 0;
    for (size_t i = 1; i < n; i++)
      if (fabs(x[d][i] - 0.5) < fabs(x[d][centre[d]] - 0.5))
        centre[d] = i;
    x0[d] = a.gauss ? 0.5 : x[d][centre[d]];
  }
  b = calloc(total, sizeof *b), u = malloc(total * sizeof *u), y = malloc(total * sizeof *y);
  w1 = malloc(total * sizeof *w1), w2 = malloc(total * sizeof *w2);
  if (!b || !u || !y || !w1 || !w2)
    goto oom;

  /* Load vector: a point load is 1 at its node (int delta phi_i); a Gaussian is lumped. */
  const double sigma = 0.02;
  for (size_t i = 0; i < total; i++) {
    size_t rest = i, idx[3];
    for (int d = a.c.ndim - 1; d >= 0; d--)
      idx[d] = rest % a.c.n[d], rest /= a.c.n[d];
    double r2 = 0, wgt = 1;
    int at_centre = 1;
    for (int d = 0; d < a.c.ndim; d++) {
      size_t k = idx[d], n = a.c.n[d];
      r2 += (x[d][k] - x0[d]) * (x[d][k] - x0[d]);
      wgt *= 0.5 * ((k > 0 ? x[d][k] - x[d][k - 1] : 0) + (k + 1 < n ? x[d][k + 1] - x[d][k] : 0));
      at_centre &= k == centre[d];
    }
    b[i] = a.gauss ? wgt * exp(-0.5 * r2 / (sigma * sigma)) : at_centre;
  }
  memcpy(y, b, total * sizeof *y);

  double t_plan, t_solve;
  if ((st = ex_plan_solve(&a.c, &prob, y, &ctx, &plan, &t_plan, &t_solve)) != PSCR_OK)
    goto cleanup;

  /* Field scale away from the source (the point source's field is singular there), and
   * the deviation from the free-space field on 0.1 <= r <= 0.4. */
  double scale = 0, dev = 0, ref = 0;
  for (size_t i = 0; i < total; i++) {
    size_t rest = i, idx[3];
    double r2 = 0;
    for (int d = a.c.ndim - 1; d >= 0; d--)
      idx[d] = rest % a.c.n[d], rest /= a.c.n[d];
    for (int d = 0; d < a.c.ndim; d++)
      r2 += (x[d][idx[d]] - x0[d]) * (x[d][idx[d]] - x0[d]);
    double r = sqrt(r2);
    if (r >= 0.05)
      scale = fmax(scale, cabs(y[i]));
    if (!a.gauss && r >= 0.1 && r <= 0.4) {
      double complex e = free_space(a.c.ndim, a.omega, r);
      dev = fmax(dev, cabs(y[i] - e)), ref = fmax(ref, cabs(e));
    }
  }
  ex_kron_apply(&prob, y, u, w1, w2); /* u <- A y */
  double res = ex_rel_diff(PSCR_C128, total, b, u), bwd = ex_backward_error(&prob, y, b, u);

  printf("libpscr Helmholtz %dD: ", a.c.ndim);
  for (int d = 0; d < a.c.ndim; d++)
    printf("%s%zu", d ? " x " : "", a.c.n[d]);
  printf(" nodes, omega %.4g (%.1f points per wavelength), %s source, %s mesh, backend %s, "
         "radix %d, threads %d\n",
         a.omega, 2 * M_PI / a.omega * (double)(a.c.n[0] - 1), a.gauss ? "gaussian" : "point",
         ex_mesh_names[a.c.mesh], ex_backend_name(a.c.backend), a.c.radix, a.c.threads);
  ex_print_run(t_plan, t_solve, plan, res, bwd);
  if (!a.gauss && ref > 0)
    printf("  vs free-space field     %.3e  (max |u - u_free| / max |u_free|, 0.1 <= r <= 0.4)\n",
           dev / ref);
  if (a.png && a.c.ndim == 2) {
#ifdef PSCR_HAVE_PNG
    if (!write_png(a.png, y, a.c.n, scale)) {
      fprintf(stderr, "helmholtz: cannot write %s\n", a.png);
      goto cleanup;
    }
    printf("  wrote %s (Re u | |u|)\n", a.png);
#else
    printf("  PNG output is disabled (libpng was not found at build time)\n");
#endif
  } else if (a.png) {
    printf("  --png is for 2D only\n");
  }
  rc = 0;
  goto cleanup;
oom:
  st = PSCR_ERR_OUT_OF_MEMORY;
cleanup:
  rc = ex_finish("helmholtz", st, rc, plan, ctx);
  for (int d = 0; d < 3; d++)
    free(x[d]), free(fac[d]);
  free(b), free(u), free(y), free(w1), free(w2);
  return rc;
}
