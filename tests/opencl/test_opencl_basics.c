/* OpenCL backend infrastructure: device selection, arrays as cl_mem (round
 * trips on fresh random data), #include resolution of the embedded sources,
 * the build cache, the build log of a failing build, kernel arguments (packs too).
 * Exits 77 without an OpenCL platform with an fp64 device. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_lsan.h"
#include "testing.h"

#if PSCR_HAVE_OPENCL
#include "backend/gpu/gpu_tridiag.h"
#include "backend/opencl/opencl.h"
#include "backend/opencl/opencl_tridiag.h"
#include "../cpu/array_copy_check.h"
#include "../cpu/wspec_check.h"

static void check_selection(void) {
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 1 << 20, &ctx),
                  PSCR_ERR_BACKEND_UNAVAILABLE);
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, -1, &ctx), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, NULL), PSCR_ERR_INVALID_ARGUMENT);
  /* A platform filter matching nothing hides every device. */
  const char *old = getenv("PSCR_OPENCL_PLATFORM");
  char *saved = old ? strdup(old) : NULL;
  setenv("PSCR_OPENCL_PLATFORM", "no such platform \x7f", 1);
  PT_CHECK(pscr_backend_available(PSCR_BACKEND_OPENCL) == 0, "filter hides every platform");
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ctx), PSCR_ERR_BACKEND_UNAVAILABLE);
  if (saved) {
    setenv("PSCR_OPENCL_PLATFORM", saved, 1);
    free(saved);
  } else {
    unsetenv("PSCR_OPENCL_PLATFORM");
  }
  PT_CHECK(pscr_backend_available(PSCR_BACKEND_OPENCL) == 1, "filter restored");
}

/* $PSCR_OPENCL_OPTIONS reaches every build (a fresh context, whose programs are
 * built anew): an option no compiler takes fails the solve with DEVICE and b
 * untouched; "-w" builds and solves right. */
static void check_extra_options(pt_rng *r) {
  const size_t n = 300;
  double dl[300], d[300], du[300], b[300], x[300];
  pt_fill_dominant(r, PSCR_F64, n, 1, n, dl, d, du, 0.5);
  pt_fill_uniform(r, PSCR_F64, b, n, -1, 1);
  static const char *const opt[2] = {"-no-such-option-pscr", "-w"};
  for (int k = 0; k < 2; k++) {
    setenv("PSCR_OPENCL_OPTIONS", opt[k], 1);
    pscr_context *ctx = NULL;
    PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ctx), PSCR_OK);
    memcpy(x, b, sizeof b);
    pscr_status st = ctx ? pscr_tridiag_solve(ctx, PSCR_TD_THOMAS, PSCR_F64, n, 1, n, dl, d, du,
                                              x, NULL)
                         : PSCR_ERR_DEVICE;
    PT_CHECK_STATUS(st, k ? PSCR_OK : PSCR_ERR_DEVICE);
    if (k == 0) PT_CHECK(pt_equal_bytes(x, b, sizeof b), "failed build: b untouched");
    if (k == 1) PT_CHECK_LE(pt_backward_error(PSCR_F64, n, dl, d, du, x, b), 1e-15, "-w");
    pscr_context_destroy(ctx);
  }
  unsetenv("PSCR_OPENCL_OPTIONS");
}

static void check_arrays(pscr_context *ctx, pt_rng *r) {
  static const size_t counts[] = {1, 2, 17, 4099, 100003};
  for (int t = 0; t < 2; t++)
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
      size_t n = counts[k], bytes = n * pt_size((pscr_dtype)t);
      void *h = pt_alloc((pscr_dtype)t, n), *back = pt_alloc((pscr_dtype)t, n);
      pt_fill_uniform(r, (pscr_dtype)t, h, n, -1, 1);
      pscr_array *a = NULL;
      PT_CHECK_STATUS(pscr_array_create(ctx, (pscr_dtype)t, n, &a), PSCR_OK);
      if (a) {
        PT_CHECK_STATUS(pscr_array_write(a, h), PSCR_OK);
        PT_CHECK_STATUS(pscr_array_read(a, back), PSCR_OK);
        PT_CHECK(pt_equal_bytes(h, back, bytes), "round trip dtype %d n %zu", t, n);
        /* pscr_array_native is the cl_mem itself */
        size_t size = 0;
        cl_int err =
            clGetMemObjectInfo((cl_mem)pscr_array_native(a), CL_MEM_SIZE, sizeof size, &size, NULL);
        PT_CHECK(err == CL_SUCCESS && size == bytes, "cl_mem size %zu, want %zu", size, bytes);
        PT_CHECK(pscr_array_count(a) == n && pscr_array_dtype(a) == (pscr_dtype)t, "metadata");
      }
      pscr_array_destroy(a);
      free(h), free(back);
    }
  pscr_array *a = NULL;
  PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_F64, 0, &a), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_F64, (size_t)1 << 60, &a), PSCR_ERR_OUT_OF_MEMORY);
  PT_CHECK(pscr_array_native(NULL) == NULL, "native(NULL)");
  pscr_array_destroy(NULL);
}

static void check_resolver(void) {
  static const ocl_source_file files[] = {
      {"common/a.h", "#pragma once\nint a_value;\n"},
      {"common/b.h", "#include \"a.h\"\n  #  include \"a.h\"\nint b_value;\n"},
      {"opencl/root.cl", "#include \"../common/b.h\"\n#include \"missing.h\"\nint root;"},
      {"loop/x.h", "#include \"y.h\"\n"},
      {"loop/y.h", "#include \"x.h\"\n"},
      {NULL, NULL}};
  char *text = NULL;
  PT_CHECK_STATUS(ocl_resolve_source(files, "opencl/root.cl", &text), PSCR_OK);
  if (text) {
    const char *a = strstr(text, "int a_value;");
    PT_CHECK(a && strstr(a + 1, "int a_value;") == NULL, "#pragma once file inserted once");
    PT_CHECK(strstr(text, "int b_value;") && strstr(text, "int root;"), "nested include");
    PT_CHECK(strstr(text, "#include \"missing.h\"") != NULL, "unknown include left alone");
    PT_CHECK(strstr(text, "#line 1 \"common/a.h\"") != NULL, "line markers");
    PT_CHECK(strstr(text, "pragma once") == NULL, "#pragma once removed");
  }
  free(text);
  text = NULL;
  PT_CHECK_STATUS(ocl_resolve_source(files, "loop/x.h", &text), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(ocl_resolve_source(files, "nowhere.cl", &text), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK(text == NULL, "no text on error");
}

static const char *good_src =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void pscr_test_axpy(__global double *y, __global const double *x, int n,\n"
    "                             long off, double a, double2 z) {\n"
    "  int i = (int)get_global_id(0);\n"
    "  if (i < n) y[i] = a * x[i] + (double)off + z.x - z.y * SCALE;\n"
    "}\n";

static void check_programs(pscr_context *ctx, pt_rng *r) {
  ocl_state *s = ((struct pscr_context *)ctx)->impl;
  ocl_program *p1 = NULL, *p2 = NULL, *p3 = NULL, *bad = NULL;
  size_t before = pscr_opencl_cached_programs(ctx);
  PT_CHECK_STATUS(ocl_program_get_text(s, "test", good_src, "-DSCALE=2.0", &p1), PSCR_OK);
  PT_CHECK_STATUS(ocl_program_get_text(s, "test", good_src, "-DSCALE=2.0", &p2), PSCR_OK);
  PT_CHECK(p1 && p1 == p2, "same options: the cached program");
  PT_CHECK_STATUS(ocl_program_get_text(s, "test", good_src, "-DSCALE=3.0", &p3), PSCR_OK);
  PT_CHECK(p3 && p3 != p1, "other options: another program");
  PT_CHECK(pscr_opencl_cached_programs(ctx) == before + 2, "cache holds 2 new programs");

  /* A failing build: DEVICE, the log kept and naming the culprit, nothing cached. */
  PT_CHECK_STATUS(
      ocl_program_get_text(s, "broken", "__kernel void k(void) { undeclared_xyz = 1; }", "", &bad),
      PSCR_ERR_DEVICE);
  const char *log = pscr_opencl_build_log(ctx);
  PT_CHECK(strstr(log, "broken") && strstr(log, "undeclared_xyz"), "build log: %.200s", log);
  PT_CHECK(pscr_opencl_cached_programs(ctx) == before + 2, "failed build not cached");

  /* Arguments of every kind reach the kernel. */
  if (p3) {
    int n = 1000;
    double x[1000], y[1000], z[2] = {pt_uniform(r, -1, 1), pt_uniform(r, -1, 1)};
    double a = pt_uniform(r, 1, 2);
    long off = 7;
    for (int i = 0; i < n; i++) x[i] = pt_uniform(r, -1, 1);
    pscr_array *ax = NULL, *ay = NULL;
    PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_F64, (size_t)n, &ax), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_F64, (size_t)n, &ay), PSCR_OK);
    if (ax && ay) {
      PT_CHECK_STATUS(pscr_array_write(ax, x), PSCR_OK);
      ocl_arg args[] = {OCL_MEM(pscr_array_native(ay)),
                        OCL_MEM(pscr_array_native(ax)),
                        OCL_INT(n),
                        OCL_LONG(off),
                        OCL_DOUBLE(a),
                        OCL_BYTES(z, sizeof z)};
      unsigned long c0 = pscr_opencl_launch_count(ctx, "pscr_test_axpy");
      unsigned long all0 = pscr_opencl_launch_count(ctx, NULL);
      PT_CHECK_STATUS(ocl_launch(s, p3, "pscr_test_axpy", 16, 64, 6, args), PSCR_OK);
      PT_CHECK_STATUS(ocl_launch(s, p3, "no_such_kernel", 1, 1, 0, args), PSCR_ERR_DEVICE);
      PT_CHECK(pscr_opencl_launch_count(ctx, "pscr_test_axpy") == c0 + 1, "launch counted");
      PT_CHECK(pscr_opencl_launch_count(ctx, NULL) == all0 + 1, "launch in the total");
      PT_CHECK(pscr_opencl_launch_count(ctx, "no_such_kernel") == 0, "refused: not counted");
      PT_CHECK_STATUS(pscr_array_read(ay, y), PSCR_OK);
      double worst = 0;
      for (int i = 0; i < n; i++) {
        double e = fabs(y[i] - (a * x[i] + (double)off + z[0] - z[1] * 3.0));
        if (!(e <= worst)) worst = e;
      }
      PT_CHECK_LE(worst, 1e-14, "kernel arguments");
    }
    pscr_array_destroy(ax);
    pscr_array_destroy(ay);
  }
}

/* Every embedded OpenCL shim builds for both dtypes (a compile check of
 * kernels/common through OpenCL C). */
static void check_embedded(pscr_context *ctx) {
  ocl_state *s = ((struct pscr_context *)ctx)->impl;
  int shims = 0;
  for (const ocl_source_file *f = pscr_opencl_sources(); f->path; f++) {
    size_t len = strlen(f->path);
    if (len < 3 || strcmp(f->path + len - 3, ".cl") != 0) continue;
    shims++;
    for (int z = 0; z < 2; z++) {
      ocl_program *p = NULL;
      pscr_status st = ocl_program_get(s, f->path, z ? "-DPSCR_COMPLEX=1" : "-DPSCR_COMPLEX=0", &p);
      PT_CHECK(st == PSCR_OK, "%s PSCR_COMPLEX=%d: %s\n%s", f->path, z, pscr_status_string(st),
               pscr_opencl_build_log(ctx));
    }
  }
  fprintf(stderr, "embedded OpenCL shims built: %d\n", shims);
}

/* Tuning parameters reach the launches: partitions follow tile_q / gs_q;
 * shrink_local sizes the tile module for the request; results stay right. */
static void check_tuning(pt_rng *r) {
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ctx), PSCR_OK);
  if (ctx == NULL) return;
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "no_such_knob", 4), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "thomas_wg", 33), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "gs_gp", 100000), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "gs_gp", 4), PSCR_ERR_INVALID_ARGUMENT); /* digits lost */
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "local_mem", 1 << 30), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "tile_q", 12), PSCR_ERR_INVALID_ARGUMENT);
  /* tiles' work-items: powers of 2, halved to fit they stay whole warps (td_tile.h) */
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "tile_w", 96), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "tile_mw", 96), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "tile_w", 128), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "tile_mw", 64), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pscr_tq", 1), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pscr_tq", 6), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pscr_local", 100), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pscr_tq", 4), PSCR_OK);
  /* pscr_lane: 0 .. 3 (3 the default), 0 valid unlike the other knobs' */
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pscr_lane", 4), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pscr_lane", -1), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "tile_q", 0), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pscr_lane", 0), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pscr_lane", 3), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(NULL, "tile_q", 8), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "tile_q", 8), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "gs_q", 16), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "thomas_wg", 64), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "shrink_local", 2), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "shrink_local", 1), PSCR_OK);
  /* "profile" times every launch (results unchanged, below) */
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "profile", 2), PSCR_ERR_INVALID_ARGUMENT);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "profile", 1), PSCR_OK);
  const size_t n = 1000;
  static const pscr_td_algorithm algs[] = {PSCR_TD_SPIKE_DIAG_PIVOT, PSCR_TD_CR_PCR_THOMAS,
                                           PSCR_TD_GSPIKE, PSCR_TD_THOMAS};
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 4; k++) {
      pscr_dtype dt = (pscr_dtype)t;
      const char *name = pscr_td_algorithm_name(algs[k]);
      void *dl = pt_alloc(dt, n), *d = pt_alloc(dt, n), *du = pt_alloc(dt, n);
      void *b = pt_alloc(dt, n), *x = pt_alloc(dt, n), *ref = pt_alloc(dt, n);
      pt_fill_dominant(r, dt, n, 1, n, dl, d, du, 0.5);
      pt_fill_uniform(r, dt, b, n, -1, 1);
      memcpy(x, b, n * pt_size(dt));
      pt_lapack_solve(dt, n, dl, d, du, b, ref);
      pscr_td_report rep;
      PT_CHECK_STATUS(pscr_tridiag_solve(ctx, algs[k], dt, n, 1, n, dl, d, du, x, &rep), PSCR_OK);
      PT_CHECK_LE(pt_rel_error(dt, n, x, ref), 1e-12, "tuned %s", name);
      /* the layout below needs one tile of 128 x 8 rows in local memory
       * (PoCL; NVIDIA's 48 KiB takes wider partitions instead) */
      int roomy = ((ocl_state *)((struct pscr_context *)ctx)->impl)->local_mem >=
                  (cl_ulong)6656 * pt_size(dt);
      if (k == 0 && roomy)
        PT_CHECK(rep.partitions == 125, "partitions %d, want 1000 / 8", rep.partitions);
      if (k == 2) PT_CHECK(rep.partitions == 63, "partitions %d, want 1000 / 16", rep.partitions);
      if (k == 0 && roomy) /* one tile of 128 x 8 rows: (4 (8 + 1) + 16) 128 local scalars */
        PT_CHECK(strstr(pscr_opencl_last_options(ctx), "-DTD_TILE_LOCAL=6656 ") != NULL,
                 "%s options '%s'", name, pscr_opencl_last_options(ctx));
      /* CR_PCR_THOMAS in registers (td_reg.h): 8 rows a work-item real, 4 complex,
       * and the tile's 4 (q + 1) local scalars each */
      if (k == 1 && roomy)
        PT_CHECK(strstr(pscr_opencl_last_options(ctx),
                        t == 0 ? "-DTD_TILE_LOCAL=4608 " : "-DTD_TILE_LOCAL=5120 ") != NULL,
                 "%s options '%s'", name, pscr_opencl_last_options(ctx));
      /* the program's kernels and their groups (developer hooks); the register
       * bounds' directives are NVIDIA's alone */
      if (k == 1) {
        ocl_state *os = ((struct pscr_context *)ctx)->impl;
        PT_CHECK(pscr_opencl_kernel_wg(ctx, "td_reg_solve") >= 32 &&
                     pscr_opencl_kernel_wg(ctx, "no_such_kernel") == 0,
                 "kernel_wg: td_reg_solve %zu", pscr_opencl_kernel_wg(ctx, "td_reg_solve"));
        if (!os->ptx)
          PT_CHECK(pscr_opencl_bounded_entries(ctx) == 0, "%d .maxntid off NVIDIA's platform",
                   pscr_opencl_bounded_entries(ctx));
      }
      /* the same request again: served from the build cache */
      size_t before = pscr_opencl_cached_programs(ctx);
      memcpy(x, b, n * pt_size(dt));
      PT_CHECK_STATUS(pscr_tridiag_solve(ctx, algs[k], dt, n, 1, n, dl, d, du, x, &rep), PSCR_OK);
      PT_CHECK(pscr_opencl_cached_programs(ctx) == before, "second solve: no new build");
      PT_CHECK_LE(pt_rel_error(dt, n, x, ref), 1e-12, "tuned %s again", name);
      free(dl), free(d), free(du), free(b), free(x), free(ref);
      if (t == 1 && k == 3) { /* profiled: every kernel that ran has its device time */
        const char *kn;
        unsigned long cnt;
        double sec;
        size_t kernels = 0;
        for (; pscr_opencl_kernel_stat(ctx, kernels, &kn, &cnt, &sec) == PSCR_OK; kernels++)
          PT_CHECK(cnt > 0 && sec > 0, "profile: %s %lu launches %.3g s", kn, cnt, sec);
        PT_CHECK(kernels >= 4, "profile: %zu kernels", kernels);
        PT_CHECK_STATUS(pscr_opencl_tune(ctx, "profile_clear", 1), PSCR_OK);
        PT_CHECK(pscr_opencl_launch_count(ctx, NULL) == 0, "profile_clear: no launches left");
        PT_CHECK_STATUS(pscr_opencl_tune(ctx, "profile", 0), PSCR_OK);
      }
    }
  pscr_context_destroy(ctx);
}

/* tune reg_min (2^18 on OpenCL GPUs, whose driver's enqueues are slow):
 * shifted batches of fewer rows in all take td_tile_solve, more take
 * td_reg_perm + td_reg_solve_s (or its constant-W form); both ways match the CPU's solve. */
static void check_reg_min(pt_rng *r) {
  pscr_context *ctx = NULL, *cpu = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ctx), PSCR_OK);
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &cpu), PSCR_OK);
  if (ctx == NULL || cpu == NULL) {
    pscr_context_destroy(ctx), pscr_context_destroy(cpu);
    return;
  }
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "reg_min", -1), PSCR_ERR_INVALID_ARGUMENT);
  const size_t n = 300, ns = 4;
  for (int t = 0; t < 2; t++) {
    pscr_dtype dt = (pscr_dtype)t;
    void *a[3], *m = pt_alloc(dt, n), *sh = pt_alloc(dt, ns), *b = pt_alloc(dt, n * ns);
    void *ref = pt_alloc(dt, n * ns), *x = pt_alloc(dt, n * ns);
    for (int i = 0; i < 3; i++) a[i] = pt_alloc(dt, n);
    pt_fill_dominant(r, dt, n, 1, n, a[0], a[1], a[2], 0.5);
    for (size_t i = 0; i < n; i++) pt_set(dt, m, i, 1); /* M = I: A + s I stays dominant */
    pt_fill_uniform(r, dt, sh, ns, 0, 0.05);
    pt_fill_uniform(r, dt, b, n * ns, -1, 1);
    memcpy(ref, b, n * ns * pt_size(dt));
    PT_CHECK_STATUS(pscr_tridiag_solve_shifted(cpu, PSCR_TD_THOMAS, dt, n, ns, a[0], a[1], a[2],
                                               NULL, m, NULL, sh, ref, NULL),
                    PSCR_OK);
    for (int small = 0; small < 2; small++) {
      PT_CHECK_STATUS(pscr_opencl_tune(ctx, "reg_min", small ? 1 << 20 : 0), PSCR_OK);
      unsigned long tile = pscr_opencl_launch_count(ctx, "td_tile_solve");
      unsigned long reg = ws_launches(ctx, pscr_opencl_launch_count);
      memcpy(x, b, n * ns * pt_size(dt));
      PT_CHECK_STATUS(pscr_tridiag_solve_shifted(ctx, PSCR_TD_CR_PCR_THOMAS, dt, n, ns, a[0],
                                                 a[1], a[2], NULL, m, NULL, sh, x, NULL),
                      PSCR_OK);
      PT_CHECK_LE(pt_rel_error(dt, n * ns, x, ref), 1e-13, "reg_min %s, dtype %d",
                  small ? "2^20" : "0", t);
      tile = pscr_opencl_launch_count(ctx, "td_tile_solve") - tile;
      reg = ws_launches(ctx, pscr_opencl_launch_count) - reg;
      PT_CHECK(tile == (unsigned long)small && reg == (unsigned long)!small,
               "reg_min %s, dtype %d: td_tile_solve %lu, td_reg_solve_s %lu launches",
               small ? "2^20" : "0", t, tile, reg);
    }
    for (int i = 0; i < 3; i++) free(a[i]);
    free(m), free(sh), free(b), free(ref), free(x);
  }
  pscr_context_destroy(ctx), pscr_context_destroy(cpu);
}

/* tune wait_spin (GPUs: a solve's status read spins on pinned memory before
 * clFinish): the same x bit for bit and the same status as the sleeping wait,
 * for a solve that succeeds and for one whose kernel flags a zero pivot;
 * pscr_array_copy, which waits the same way, right under both. */
static void check_wait_spin(pt_rng *r) {
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ctx), PSCR_OK);
  if (ctx == NULL) return;
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "wait_spin", -1), PSCR_ERR_INVALID_ARGUMENT);
  const size_t n = 1000, ns = 8, count = n * ns;
  double *a[3], *b = pt_alloc(PSCR_F64, count), *x[2];
  for (int i = 0; i < 3; i++) a[i] = pt_alloc(PSCR_F64, count);
  for (int s = 0; s < 2; s++) x[s] = pt_alloc(PSCR_F64, count);
  pt_fill_dominant(r, PSCR_F64, n, ns, n, a[0], a[1], a[2], 0.5);
  pt_fill_uniform(r, PSCR_F64, b, count, -1, 1);
  for (int bad = 0; bad < 2; bad++) {
    if (bad) a[0][3 * n] = a[1][3 * n] = a[2][3 * n] = 0; /* system 3's first row all zero */
    pscr_status st[2];
    for (int s = 0; s < 2; s++) {
      PT_CHECK_STATUS(pscr_opencl_tune(ctx, "wait_spin", s ? 1000000 : 0), PSCR_OK);
      memcpy(x[s], b, count * sizeof *b);
      st[s] = pscr_tridiag_solve(ctx, PSCR_TD_CR_PCR_THOMAS, PSCR_F64, n, ns, n, a[0], a[1],
                                 a[2], x[s], NULL);
    }
    PT_CHECK(st[0] == st[1] && (st[0] == PSCR_OK) == !bad,
             "wait_spin, %s system: status %s without the spin, %s with it",
             bad ? "a singular" : "a dominant", pscr_status_string(st[0]),
             pscr_status_string(st[1]));
    PT_CHECK(bad || memcmp(x[0], x[1], count * sizeof *b) == 0, "wait_spin: x differs");
  }
  /* pscr_array_copy waits as the status read does (ocl_queue_wait): right either way */
  for (int s = 0; s < 2; s++) {
    PT_CHECK_STATUS(pscr_opencl_tune(ctx, "wait_spin", s ? 1000000 : 0), PSCR_OK);
    pt_check_array_copy(ctx, r);
  }
  for (int i = 0; i < 3; i++) free(a[i]);
  free(b), free(x[0]), free(x[1]);
  pscr_context_destroy(ctx);
}

/* A GPU's local memory on PoCL: with local_mem = 48 KiB (NVIDIA's OpenCL
 * limit) and local arrays sized per request (shrink_local, as on GPUs) every
 * algorithm runs right for both dtypes at sizes that take every kernel (one
 * tile, several tiles, g-Spike with reduced levels); every kernel of every
 * program built fits in 48 KiB (CL_KERNEL_LOCAL_MEM_SIZE, launched or not: a
 * GPU would refuse to build the program otherwise); a kernel over the limit
 * is refused (UNSUPPORTED), not launched. */
static void check_local_limit(pt_rng *r) {
  const cl_ulong limit = 48 * 1024;
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ctx), PSCR_OK);
  if (ctx == NULL) return;
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "local_mem", (int)limit), PSCR_OK);
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "shrink_local", 1), PSCR_OK);
  /* td_reg.h's kernels at every size, as PoCL takes them (OpenCL GPUs: large batches) */
  PT_CHECK_STATUS(pscr_opencl_tune(ctx, "reg_min", 0), PSCR_OK);
  static const pscr_td_algorithm algs[] = {
      PSCR_TD_AUTO,          PSCR_TD_THOMAS,        PSCR_TD_CR,
      PSCR_TD_PCR,           PSCR_TD_CR_PCR_THOMAS, PSCR_TD_PCR_THOMAS,
      PSCR_TD_SPIKE_DIAG_PIVOT, PSCR_TD_GSPIKE};
  /* 2000: a real CR_PCR_THOMAS system is one td_reg_solve tile staged in two parts */
  static const size_t sizes[] = {300, 2000, 5000};
  const size_t batch = 2;
  double worst = 0;
  for (int t = 0; t < 2; t++)
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      pscr_dtype dt = (pscr_dtype)t;
      size_t n = sizes[k], count = n * batch, es = pt_size(dt);
      void *dl = pt_alloc(dt, count), *d = pt_alloc(dt, count), *du = pt_alloc(dt, count);
      void *b = pt_alloc(dt, count), *x = pt_alloc(dt, count), *ref = pt_alloc(dt, count);
      pt_fill_dominant(r, dt, n, batch, n, dl, d, du, 0.5);
      pt_fill_uniform(r, dt, b, count, -1, 1);
      for (size_t s = 0; s < batch; s++)
        pt_lapack_solve(dt, n, (char *)dl + s * n * es, (char *)d + s * n * es,
                        (char *)du + s * n * es, (char *)b + s * n * es, (char *)ref + s * n * es);
      for (size_t a = 0; a < sizeof algs / sizeof *algs; a++) {
        memcpy(x, b, count * es);
        unsigned long reg0 = pscr_opencl_launch_count(ctx, "td_reg_solve");
        pscr_status st = pscr_tridiag_solve(ctx, algs[a], dt, n, batch, n, dl, d, du, x, NULL);
        if (algs[a] == PSCR_TD_CR_PCR_THOMAS && dt == PSCR_F64 && n == 2000)
          PT_CHECK(pscr_opencl_launch_count(ctx, "td_reg_solve") == reg0 + 1,
                   "48 KiB: real n 2000 in one td_reg_solve tile (two parts)");
        PT_CHECK(st == PSCR_OK, "48 KiB: %s dtype %d n %zu: %s", pscr_td_algorithm_name(algs[a]),
                 t, n, pscr_status_string(st));
        if (st != PSCR_OK) continue;
        double e = pt_rel_error(dt, count, x, ref);
        PT_CHECK_LE(e, 1e-12, "48 KiB: %s dtype %d n %zu", pscr_td_algorithm_name(algs[a]), t, n);
        if (!(e <= worst)) worst = e;
      }
      free(dl), free(d), free(du), free(b), free(x), free(ref);
    }
  /* real shifted systems too long for one tile of 16 rows in 48 KiB: the 16-row
   * passes, in a module whose td_reg.h kernels take no register bounds (gpu_tile.c) */
  {
    const size_t n = 5000, ns = 2;
    pscr_context *cpu = NULL;
    PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_CPU, 0, &cpu), PSCR_OK);
    double *a[3], *m = pt_alloc(PSCR_F64, n), sh[2] = {0.01, 0.03};
    double *b = pt_alloc(PSCR_F64, n * ns), *x = pt_alloc(PSCR_F64, n * ns);
    double *ref = pt_alloc(PSCR_F64, n * ns);
    for (int i = 0; i < 3; i++) a[i] = pt_alloc(PSCR_F64, n);
    pt_fill_dominant(r, PSCR_F64, n, 1, n, a[0], a[1], a[2], 0.5);
    for (size_t i = 0; i < n; i++) m[i] = 1; /* M = I: A + s I stays dominant */
    pt_fill_uniform(r, PSCR_F64, b, n * ns, -1, 1);
    memcpy(ref, b, n * ns * sizeof *b);
    memcpy(x, b, n * ns * sizeof *b);
    PT_CHECK_STATUS(pscr_tridiag_solve_shifted(cpu, PSCR_TD_THOMAS, PSCR_F64, n, ns, a[0], a[1],
                                               a[2], NULL, m, NULL, sh, ref, NULL),
                    PSCR_OK);
    unsigned long bwd = ws_family(ctx, pscr_opencl_launch_count, "td_reg_bwd_s");
    PT_CHECK_STATUS(pscr_tridiag_solve_shifted(ctx, PSCR_TD_CR_PCR_THOMAS, PSCR_F64, n, ns, a[0],
                                               a[1], a[2], NULL, m, NULL, sh, x, NULL),
                    PSCR_OK);
    PT_CHECK(ws_family(ctx, pscr_opencl_launch_count, "td_reg_bwd_s") == bwd + 1 &&
                 strstr(pscr_opencl_last_options(ctx), "-DTD_RQ=16 ") &&
                 strstr(pscr_opencl_last_options(ctx), "-DTD_REG_FREE=1"),
             "48 KiB: shifted real n 5000 in 16-row passes, no register bounds ('%s')",
             pscr_opencl_last_options(ctx));
    PT_CHECK_LE(pt_rel_error(PSCR_F64, n * ns, x, ref), 1e-12, "48 KiB: shifted real n 5000");
    /* and with the second pass's y in local memory (tune pass_ysm) */
    PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pass_ysm", 1), PSCR_OK);
    memcpy(x, b, n * ns * sizeof *b);
    PT_CHECK_STATUS(pscr_tridiag_solve_shifted(ctx, PSCR_TD_CR_PCR_THOMAS, PSCR_F64, n, ns, a[0],
                                               a[1], a[2], NULL, m, NULL, sh, x, NULL),
                    PSCR_OK);
    PT_CHECK(strstr(pscr_opencl_last_options(ctx), "-DTD_REG_YSM=2") != NULL,
             "48 KiB, pass_ysm 1: TD_REG_YSM 2 ('%s')", pscr_opencl_last_options(ctx));
    PT_CHECK_LE(pt_rel_error(PSCR_F64, n * ns, x, ref), 1e-12,
                "48 KiB: shifted real n 5000, pass_ysm 1");
    PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pass_ysm", 2), PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK_STATUS(pscr_opencl_tune(ctx, "pass_ysm", 0), PSCR_OK);
    for (int i = 0; i < 3; i++) free(a[i]);
    free(m), free(b), free(x), free(ref);
    pscr_context_destroy(cpu);
  }
  /* every kernel of every program built under the limit */
  ocl_state *s = ((struct pscr_context *)ctx)->impl;
  cl_ulong most = 0;
  int programs = 0;
  for (const ocl_program *p = s->cache; p; p = p->next, programs++)
    for (cl_uint k = 0; k < p->nkernels; k++) {
      PT_CHECK(p->local[k] <= limit, "48 KiB: %s uses %llu bytes of local memory (%s)",
               p->names[k], (unsigned long long)p->local[k], strchr(p->key, '\n') + 1);
      if (p->local[k] > most) most = p->local[k];
    }
  /* the query is real: the tile kernels' arrays take most of the limit */
  PT_CHECK(programs > 1 && most > limit / 4, "%d programs, largest kernel %llu bytes", programs,
           (unsigned long long)most);
  fprintf(stderr, "48 KiB local memory: %d programs, largest kernel %llu bytes, worst %.2e\n",
          programs, (unsigned long long)most, worst);
  /* a kernel over the limit is refused */
  ocl_program *big = NULL;
  PT_CHECK_STATUS(ocl_program_get_text(s, "big",
                                       "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                       "__kernel void pscr_test_big(__global double *y) {\n"
                                       "  __local double buf[8192];\n"
                                       "  buf[get_local_id(0)] = y[get_global_id(0)];\n"
                                       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                                       "  y[get_global_id(0)] = buf[8191 - get_local_id(0)];\n"
                                       "}\n",
                                       "", &big),
                  PSCR_OK);
  pscr_array *y = NULL;
  PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_F64, 64, &y), PSCR_OK);
  if (big && y) {
    ocl_arg args[] = {OCL_MEM(pscr_array_native(y))};
    PT_CHECK_STATUS(ocl_launch(s, big, "pscr_test_big", 1, 64, 1, args), PSCR_ERR_UNSUPPORTED);
    PT_CHECK(pscr_opencl_launch_count(ctx, "pscr_test_big") == 0, "refused launch not counted");
  }
  /* the register-bound pass (NVIDIA's platform only) on a program whose binary is
   * no PTX (PoCL's): left as built, and it runs */
  int bounds0 = s->ptx_bounds;
  s->ptx_bounds = 1;
  ocl_program *slab = NULL;
  PT_CHECK_STATUS(ocl_program_get_text(s, "bounds",
                                       "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                       "__kernel void pscr_slab(__global double *y) {\n"
                                       "  y[get_global_id(0)] *= 2;\n"
                                       "}\n",
                                       "-DPSCR_COMPLEX=0", &slab),
                  PSCR_OK);
  s->ptx_bounds = bounds0;
  if (slab && y) {
    double h[64], back[64];
    for (int i = 0; i < 64; i++) h[i] = i;
    PT_CHECK_STATUS(pscr_array_write(y, h), PSCR_OK);
    ocl_arg args[] = {OCL_MEM(pscr_array_native(y))};
    PT_CHECK_STATUS(ocl_launch(s, slab, "pscr_slab", 1, 64, 1, args), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_read(y, back), PSCR_OK);
    int same = 1;
    for (int i = 0; i < 64; i++) same &= back[i] == 2.0 * i;
    PT_CHECK(same, "a program through the register-bound pass runs right");
  }
  if (slab && s->ptx && bounds0) { /* NVIDIA's: pscr_slab's KERNEL_BOUNDED(512, 1) in its PTX */
    size_t len = 0;
    char *bin = (char *)ocl_program_binary(slab->program, &len);
    PT_CHECK(bin && strstr(bin, ".maxntid 512, 1, 1") && strstr(bin, ".minnctapersm 1"),
             "NVIDIA's program binary holds pscr_slab's register bounds");
    free(bin);
  }
  pscr_array_destroy(y);
  pscr_context_destroy(ctx);
}

/* PKPTR arguments (gpu_tridiag.h): OpenCL passes each as an offset into the
 * PKBASE pack, and refuses a pointer the host gave no offset for (the kernel
 * would read it as null). */
static void check_pack_args(pscr_context *ctx) {
  gpu_device g;
  PT_CHECK_STATUS(ocl_gpu_device(ctx, &g), PSCR_OK);
  PT_CHECK(g.pack_args == 1, "OpenCL's kernels take packs");
  pscr_array *a = NULL;
  PT_CHECK_STATUS(pscr_array_create(ctx, PSCR_F64, 4, &a), PSCR_OK);
  if (a == NULL) return;
  gpu_ptr p = {pscr_array_native(a), 0, 0};
  gpu_arg args[] = {GPU_PKBASE(p), GPU_PKPTR(p, -1)};
  PT_CHECK_STATUS(g.launch(&g, "pscr_slab", 512, 512, 0, 2, args), PSCR_ERR_DEVICE);
  pscr_array_destroy(a);
}

/* Plans' arrays are pieces of shared chunks (ops->alloc_internal,
 * opencl_backend.c): one buffer at distinct aligned offsets, each keeping its
 * own data; a large one is a buffer of its own; the chunk's space comes back
 * once every piece is released. */
static void check_pieces(pscr_context *ctx, pt_rng *r) {
  enum { NP = 3 };
  size_t bytes[NP] = {24, 8000, 8}, o[NP];
  void *p[NP] = {NULL};
  cl_mem m[NP];
  PT_CHECK(ctx->ops->alloc_internal != NULL, "OpenCL makes internal allocations pieces");
  for (int k = 0; k < NP; k++) {
    PT_CHECK_STATUS(pscr_alloc_internal(ctx, bytes[k], &p[k]), PSCR_OK);
    if (p[k] == NULL) return;
    o[k] = 0;
    m[k] = ocl_mem_at(p[k], &o[k]);
  }
  PT_CHECK(m[0] == m[1] && m[1] == m[2] && m[0] != (cl_mem)p[0], "pieces share one chunk");
  PT_CHECK(o[0] != o[1] && o[1] != o[2] && o[0] % 256 == 0 && o[1] % 256 == 0 && o[2] % 256 == 0,
           "pieces lie at distinct 256-byte offsets");
  double h[NP][1000], back[1000];
  for (int k = 0; k < NP; k++) {
    for (size_t i = 0; i < bytes[k] / 8; i++) h[k][i] = pt_uniform(r, -1, 1);
    PT_CHECK_STATUS(ctx->ops->write(ctx, p[k], 0, h[k], bytes[k]), PSCR_OK);
  }
  int same = 1;
  for (int k = 0; k < NP; k++) {
    PT_CHECK_STATUS(ctx->ops->read(ctx, p[k], 0, back, bytes[k]), PSCR_OK);
    same &= memcmp(back, h[k], bytes[k]) == 0;
  }
  PT_CHECK(same, "each piece keeps its own data");
  PT_CHECK_STATUS(ctx->ops->read(ctx, p[1], 800, back, 80), PSCR_OK);
  PT_CHECK(memcmp(back, h[1] + 100, 80) == 0, "a read at an offset into a piece");
  void *big = NULL;
  size_t ob = 0;
  PT_CHECK_STATUS(pscr_alloc_internal(ctx, (size_t)8 << 20, &big), PSCR_OK);
  PT_CHECK(big && ocl_mem_at(big, &ob) == (cl_mem)big && ob == 0, "8 MB: a buffer of its own");
  ctx->ops->release(ctx, big);
  for (int k = 0; k < NP; k++) ctx->ops->release(ctx, p[k]);
  void *again = NULL;
  size_t oa = 0;
  PT_CHECK_STATUS(pscr_alloc_internal(ctx, 16, &again), PSCR_OK);
  PT_CHECK(again && ocl_mem_at(again, &oa) == m[0] && oa == 0,
           "the chunk's space comes back when its pieces are released");
  ctx->ops->release(ctx, again);
}

int main(void) {
  if (!pscr_backend_available(PSCR_BACKEND_OPENCL)) return PT_SKIP;
  pt_rng r;
  uint64_t seed = pt_fresh_seed();
  pt_rng_seed(&r, seed);
  check_selection();
  check_resolver();
  check_extra_options(&r);
  pscr_context *ctx = NULL;
  PT_CHECK_STATUS(pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ctx), PSCR_OK);
  if (ctx) {
    fprintf(stderr, "device: %s\n", pscr_opencl_device_name(ctx));
    check_arrays(ctx, &r);
    pt_check_array_copy(ctx, &r);
    check_programs(ctx, &r);
    check_embedded(ctx);
    check_pack_args(ctx);
    check_pieces(ctx, &r);
  }
  check_tuning(&r);
  check_reg_min(&r);
  check_wait_spin(&r);
  check_local_limit(&r);
  pscr_context_destroy(ctx);
  return pt_exit("opencl_basics");
}
#else
int main(void) { return PT_SKIP; }
#endif
