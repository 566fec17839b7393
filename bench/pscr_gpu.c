/* PSCR on the GPU backends (CUDA, OpenCL) and the CPU backend at seed 003's sizes (Tables
 * 1-4; issue 5): 2D Poisson (31) and Helmholtz (33)-(35) n = 31 .. 8191, 3D Poisson n = 31 ..
 * 511, 3D Helmholtz n = 31 .. 361, and with --big 16383^2 and 1023^3. Public API only.
 *
 * Per row: plan seconds (wall), solve ms (median of >= 20 pscr_solve_array on device data
 * after two warm-ups; the device time of pscr_plan_info.last_solve_seconds, the host wall time
 * beside it), transfer ms (median pscr_plan_info.last_transfer_seconds of pscr_solve on host
 * data; transfer_wall_ms: its wall time minus its device time, the check), the
 * relative residual ||f - A u||_2 / ||f||_2 on the host through the Kronecker structure for a
 * random f, GB/s of reading f and writing u once, and floor_ratio = solve time / (those bytes
 * / measured copy bandwidth: a device-to-device cudaMemcpy in the same run, or a host memcpy
 * at the row's thread count for the CPU). The right-hand side is restored (untimed) before
 * each solve. A backend without PSCR stages (PSCR_ERR_UNSUPPORTED) or without a device is
 * reported once per problem and skipped. The CPU runs at 1 and all threads up to the sizes
 * predicted (n^dim from the last size) to take --cpu-max-s seconds a solve. One JSON line per
 * row, then a table.
 * usage: bench_pscr_gpu --help */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "../examples/common/example_util.h"
#include "kron_residual.h"
#include "testing.h"

#if PSCR_BENCH_CUDA
#include <cuda_runtime.h>
#endif

typedef struct {
  const char *name;
  int ndim, helmholtz;
  size_t n[10];
  int big[10];       /* only with --big */
  double gtx[10][2]; /* seed 003, GTX 1080 Ti: execution + RAM-VRAM-RAM transfer, s */
  double i5[10];     /* seed 003, Intel i5-6600, one core, s */
} problem_set;

/* Table 1 lists 2D Poisson at n = 32 .. 8192: shown against n = 2^k - 1 (as bench_pscr_cpu). */
/* clang-format off */
static const problem_set sets[] = {
    {"poisson2d", 2, 0, {31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 16383},
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
     {{.0003, 0}, {.0003, 0}, {.0005, .0001}, {.0005, .0002}, {.0014, .0010}, {.0053, .0029},
      {.0266, .0105}, {.1157, .0426}, {.5617, .1662}, {0, 0}},
     {.0001, .0002, .0011, .0039, .0200, .0829, .4005, 1.6845, 8.0182, 0}},
    {"helmholtz2d", 2, 1, {31, 63, 127, 255, 511, 1023, 2047, 4095, 8191},
     {0},
     {{.0003, 0}, {.0003, .0001}, {.0005, .0001}, {.0011, .0004}, {.0043, .0017}, {.0159, .0054},
      {.0712, .0208}, {.2916, .0817}, {0, 0}},
     {.0001, .0005, .0027, .0115, .0593, .2292, 1.2619, 5.7642, 0}},
    {"poisson3d", 3, 0, {31, 44, 63, 90, 127, 180, 255, 361, 511, 1023},
     {0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
     {{.0017, .0001}, {.0029, .0004}, {.0047, .0009}, {.0182, .0021}, {.0396, .0053},
      {.1109, .0158}, {.2734, .0408}, {1.3070, .1216}, {3.6158, .3226}, {0, 0}},
     {.0058, .0160, .0478, .2422, .7523, 2.2483, 6.5014, 28.368, 87.272, 0}},
    {"helmholtz3d", 3, 1, {31, 44, 63, 90, 127, 180, 255, 361},
     {0},
     {{.0030, .0002}, {.0075, .0009}, {.0137, .0015}, {.0570, .0040}, {.1358, .0102},
      {.4161, .0308}, {1.0900, .0819}, {5.1603, .2426}},
     {.0150, .0432, .1327, .7330, 2.1733, 6.9103, 20.007, 86.519}},
};
/* clang-format on */
#define NSETS (sizeof sets / sizeof sets[0])

typedef struct {
  const char *problems, *backends, *cpu_threads;
  size_t min_n, max_n, min_n3, max_n3;
  const char *tune; /* name=value,... for pscr_cuda_tune / pscr_opencl_tune */
  int reps, xfer_reps, radix, big, big_only, residual, selftest, xfer_cpu, profile;
  pscr_td_algorithm innermost;
  double workspace;
  double cpu_max_s, cpu_budget, omega;
} args;

typedef struct {
  const char *problem, *backend;
  size_t n;
  int threads;
  double plan_s, solve_ms, wall_ms, xfer_ms, residual, floor_ratio, gtx_ms;
} row;

typedef struct {
  args a;
  pscr_context *ctx[3]; /* per backend, created on first use */
  int dead[3];          /* context creation failed */
  double gpu_bw, cpu_bw1, cpu_bwall;
  int all;
  uint64_t seed, draws; /* one printed seed; each right-hand side gets seed + draws * odd */
  row *rows;
  size_t nrows, cap;
} bench;

static const char *bk_name(pscr_backend b) { return ex_backend_name(b); }

/* The backends' tuning entry points (exported, not in the public headers). */
pscr_status pscr_cuda_tune(pscr_context *ctx, const char *name, int value);
pscr_status pscr_opencl_tune(pscr_context *ctx, const char *name, int value);
pscr_status pscr_cuda_kernel_stat(const pscr_context *ctx, size_t i, const char **name,
                                  unsigned long *count, double *seconds);
pscr_status pscr_opencl_kernel_stat(const pscr_context *ctx, size_t i, const char **name,
                                    unsigned long *count, double *seconds);

/* --tune name=value,...: every pair goes to the backend's tuning call. */
static pscr_status apply_tuning(pscr_context *ctx, pscr_backend bk, const char *list) {
  pscr_status (*tune)(pscr_context *, const char *, int) = NULL;
#if PSCR_WITH_CUDA_TUNE
  if (bk == PSCR_BACKEND_CUDA) tune = pscr_cuda_tune;
#endif
#if PSCR_WITH_OPENCL_TUNE
  if (bk == PSCR_BACKEND_OPENCL) tune = pscr_opencl_tune;
#endif
  (void)bk;
  if (tune == NULL) return list && *list ? PSCR_ERR_BACKEND_UNAVAILABLE : PSCR_OK;
  return pt_apply_tuning(ctx, tune, list);
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: bench_pscr_gpu [options]\n"
          "  --backends LIST   comma list of cuda,opencl,cpu (default all three)\n"
          "  --problems LIST   poisson2d,helmholtz2d,poisson3d,helmholtz3d (default all)\n"
          "  --max-n N         largest 2D n (default 8191)   --max-n3 N  largest 3D n (511)\n"
          "  --min-n N         smallest 2D n (default 0)     --min-n3 N  smallest 3D n (0)\n"
          "  --tune LIST       GPU tuning name=value,... (e.g. tile_w=256,tile_q=4)\n"
          "  --profile         after each GPU row, its kernels' device time (each launch\n"
          "                    timed alone; lines starting with #)\n"
          "  --big             also 16383^2 and 1023^3 (Poisson; GPU backends only)\n"
          "  --big-only        only those two\n"
          "  --quick           --max-n 255 --max-n3 63 --reps 5 --xfer-reps 3\n"
          "  --reps R          timed device solves per row (default 21)\n"
          "  --xfer-reps R     host-data solves for the transfer time (default 5)\n"
          "  --cpu-threads L   CPU thread counts, 0 = all (default 1,0)\n"
          "  --cpu-max-s S     skip CPU sizes predicted (n^dim from the last) > S s (default 3)\n"
          "  --cpu-budget S    seconds of timed CPU solves per row, >= 3 solves (default 5)\n"
          "  --radix q (4)  --omega W (20 pi)  --no-residual\n"
          "  --innermost ALG   the innermost solver by name (default AUTO)\n"
          "  --workspace GB    3D devices: memory for the 2D subproblems solved together\n"
          "  --selftest        check the Kronecker residual against ex_kron_apply, exit\n"
          "  --xfer-cpu        the host-data (transfer) pass on the CPU rows too (a smoke test)\n");
}

static int parse(int argc, char **argv, args *a) {
  *a = (args){.problems = "poisson2d,helmholtz2d,poisson3d,helmholtz3d",
              .backends = "cuda,opencl,cpu",
              .cpu_threads = "1,0",
              .max_n = 8191,
              .max_n3 = 511,
              .reps = 21,
              .xfer_reps = 5,
              .radix = 4,
              .innermost = PSCR_TD_AUTO,
              .residual = 1,
              .cpu_max_s = 3.0,
              .cpu_budget = 5.0,
              .omega = 20 * M_PI};
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--help")) return 1;
    if (!strcmp(o, "--quick")) {
      a->max_n = 255, a->max_n3 = 63, a->reps = 5, a->xfer_reps = 3;
      continue;
    }
    if (!strcmp(o, "--big") || !strcmp(o, "--big-only") || !strcmp(o, "--no-residual") ||
        !strcmp(o, "--selftest") || !strcmp(o, "--xfer-cpu") || !strcmp(o, "--profile")) {
      if (!strcmp(o, "--xfer-cpu")) a->xfer_cpu = 1;
      if (!strcmp(o, "--profile")) a->profile = 1;
      if (!strcmp(o, "--big")) a->big = 1;
      if (!strcmp(o, "--big-only")) a->big = a->big_only = 1;
      if (!strcmp(o, "--no-residual")) a->residual = 0;
      if (!strcmp(o, "--selftest")) a->selftest = 1;
      continue;
    }
    if (!v) return -1;
    i++;
    if (!strcmp(o, "--backends"))
      a->backends = v;
    else if (!strcmp(o, "--problems"))
      a->problems = v;
    else if (!strcmp(o, "--cpu-threads"))
      a->cpu_threads = v;
    else if (!strcmp(o, "--max-n"))
      a->max_n = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--max-n3"))
      a->max_n3 = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--min-n"))
      a->min_n = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--min-n3"))
      a->min_n3 = strtoul(v, NULL, 10);
    else if (!strcmp(o, "--tune"))
      a->tune = v;
    else if (!strcmp(o, "--reps") && atoi(v) >= 3)
      a->reps = atoi(v);
    else if (!strcmp(o, "--xfer-reps") && atoi(v) >= 0)
      a->xfer_reps = atoi(v);
    else if (!strcmp(o, "--radix") && atoi(v) >= 2)
      a->radix = atoi(v);
    else if (!strcmp(o, "--workspace") && atof(v) > 0)
      a->workspace = atof(v);
    else if (!strcmp(o, "--innermost")) {
      int k = (int)PSCR_TD_AUTO;
      while (k <= (int)PSCR_TD_LAPACK && strcmp(pscr_td_algorithm_name((pscr_td_algorithm)k), v))
        k++;
      if (k > (int)PSCR_TD_LAPACK) return -1;
      a->innermost = (pscr_td_algorithm)k;
    }
    else if (!strcmp(o, "--cpu-max-s") && strtod(v, NULL) > 0)
      a->cpu_max_s = strtod(v, NULL);
    else if (!strcmp(o, "--cpu-budget") && strtod(v, NULL) > 0)
      a->cpu_budget = strtod(v, NULL);
    else if (!strcmp(o, "--omega") && strtod(v, NULL) > 0)
      a->omega = strtod(v, NULL);
    else
      return -1;
  }
  return 0;
}

static int wanted(const char *list, const char *name) {
  size_t len = strlen(name);
  for (const char *p = list; (p = strstr(p, name)) != NULL; p += len)
    if ((p == list || p[-1] == ',') && (p[len] == ',' || p[len] == 0)) return 1;
  return 0;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}
static double median(double *v, int k) {
  if (k <= 0) return -1;
  qsort(v, (size_t)k, sizeof *v, cmp_double);
  return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* Host copy bandwidth, bytes read + written per second, 256 MiB, best of 3. */
static double host_bandwidth(int threads) {
  size_t bytes = (size_t)256 << 20;
  char *src = malloc(bytes), *dst = malloc(bytes);
  double best = 0;
  if (src && dst) {
    memset(src, 1, bytes), memset(dst, 0, bytes);
    for (int rep = 0; rep < 3; rep++) {
      double t0 = ex_wtime();
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads)
#endif
      for (int c = 0; c < 64; c++)
        memcpy(dst + c * (bytes / 64), src + c * (bytes / 64), bytes / 64);
      double t = ex_wtime() - t0;
      if (2.0 * (double)bytes / t > best) best = 2.0 * (double)bytes / t;
    }
  }
  (void)threads;
  free(src), free(dst);
  return best;
}

#if PSCR_BENCH_CUDA
/* Device-to-device copy of 1 GiB, median of 21 (bytes read + written per second). */
static double cuda_bandwidth(void) {
  size_t bytes = (size_t)1 << 30;
  void *x = NULL, *y = NULL;
  cudaEvent_t e0 = NULL, e1 = NULL;
  double t[21], bw = 0;
  if (cudaMalloc(&x, bytes) != cudaSuccess || cudaMalloc(&y, bytes) != cudaSuccess ||
      cudaMemset(x, 1, bytes) != cudaSuccess || cudaEventCreate(&e0) != cudaSuccess ||
      cudaEventCreate(&e1) != cudaSuccess)
    goto done;
  for (int k = -3; k < 21; k++) {
    float ms = 0;
    cudaEventRecord(e0, 0);
    cudaMemcpy(y, x, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e1, 0);
    if (cudaEventSynchronize(e1) != cudaSuccess || cudaEventElapsedTime(&ms, e0, e1) != cudaSuccess)
      goto done;
    if (k >= 0) t[k] = ms;
  }
  bw = 2.0 * (double)bytes / (median(t, 21) * 1e-3);
done:
  cudaGetLastError();
  cudaFree(x), cudaFree(y);
  if (e0) cudaEventDestroy(e0);
  if (e1) cudaEventDestroy(e1);
  return bw;
}
#endif

/* Factors of one problem, as bench_pscr_cpu: every direction equal, uniform mesh,
 * Poisson h = 1/(n+1), Helmholtz (boundary nodes included) h = 1/(n-1), c = -omega^2.
 * buf: 8 n doubles. */
static pscr_status build(const problem_set *s, size_t n, double omega, double *buf,
                         pscr_problem *p) {
  *p = (pscr_problem){.ndim = s->ndim, .dtype = s->helmholtz ? PSCR_C128 : PSCR_F64};
  double *h = malloc((n + 1) * sizeof *h);
  if (!h) return PSCR_ERR_OUT_OF_MEMORY;
  pscr_status st;
  if (s->helmholtz) {
    for (size_t i = 0; i + 1 < n; i++) h[i] = 1.0 / (double)(n - 1);
    st = pscr_factor_helmholtz_abc(n, h, omega, buf, buf + 2 * n, buf + 4 * n, buf + 6 * n);
    p->c_re = -omega * omega;
    for (int d = 0; d < s->ndim; d++)
      p->dim[d] = (pscr_factor){n, buf, buf + 2 * n, buf + 4 * n, buf + 6 * n};
  } else {
    for (size_t i = 0; i <= n; i++) h[i] = 1.0 / (double)(n + 1);
    st = pscr_factor_poisson_fem(n, h, buf, buf + n, buf + 2 * n);
    for (int d = 0; d < s->ndim; d++) p->dim[d] = (pscr_factor){n, buf, buf + n, buf + 2 * n, NULL};
  }
  free(h);
  return st;
}

/* Uniform random scalars in [-1, 1], one generator per chunk (parallel, reproducible). */
static void fill_random(uint64_t seed, double *x, size_t count) {
  size_t chunk = (size_t)1 << 20, nchunks = (count + chunk - 1) / chunk;
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (size_t c = 0; c < nchunks; c++) {
    pt_rng r;
    pt_rng_seed(&r, seed + 0x9e3779b97f4a7c15ULL * (c + 1));
    for (size_t i = c * chunk; i < count && i < (c + 1) * chunk; i++) x[i] = pt_uniform(&r, -1, 1);
  }
}

/* Restores the device right-hand side from f0 (a device copy, the same on every GPU
 * backend: a host write before it would change what the next launch costs NVIDIA's
 * OpenCL, tools/oclrepro/firstenq.c) or from b (host). */
static pscr_status restore(pscr_array *f, pscr_array *f0, const void *b) {
  return f0 != NULL ? pscr_array_copy(f, f0) : pscr_array_write(f, b);
}

static void device_sync(pscr_backend bk) {
#if PSCR_BENCH_CUDA
  if (bk == PSCR_BACKEND_CUDA) cudaDeviceSynchronize();
#endif
  (void)bk;
}

/* --profile: reps more solves with every launch timed alone; prints each
 * kernel's launches and device time a solve. */
static pscr_status profile(bench *B, pscr_backend bk, pscr_plan *plan, pscr_array *f,
                           pscr_array *f0, const void *b, size_t n) {
  pscr_status (*tune)(pscr_context *, const char *, int) = NULL;
  pscr_status (*stat)(const pscr_context *, size_t, const char **, unsigned long *, double *) =
      NULL;
#if PSCR_WITH_CUDA_TUNE
  if (bk == PSCR_BACKEND_CUDA) tune = pscr_cuda_tune, stat = pscr_cuda_kernel_stat;
#endif
#if PSCR_WITH_OPENCL_TUNE
  if (bk == PSCR_BACKEND_OPENCL) tune = pscr_opencl_tune, stat = pscr_opencl_kernel_stat;
#endif
  if (tune == NULL) return PSCR_ERR_BACKEND_UNAVAILABLE;
  pscr_context *ctx = B->ctx[bk];
  int reps = B->a.reps;
  pscr_status st = tune(ctx, "profile_clear", 1);
  if (st == PSCR_OK) st = tune(ctx, "profile", 1);
  for (int it = 0; it < reps && st == PSCR_OK; it++) {
    st = restore(f, f0, b);
    if (st == PSCR_OK) st = pscr_solve_array(plan, f);
  }
  tune(ctx, "profile", 0);
  if (st != PSCR_OK) return st;
  const char *name;
  unsigned long count;
  double sec, total = 0;
  for (size_t i = 0; stat(ctx, i, &name, &count, &sec) == PSCR_OK; i++) total += sec;
  for (size_t i = 0; stat(ctx, i, &name, &count, &sec) == PSCR_OK; i++)
    printf("# profile %-6s n=%-5zu %-18s %6.2f launches %9.1f us %5.1f %%\n", bk_name(bk), n, name,
           (double)count / reps, 1e6 * sec / reps, total > 0 ? 100 * sec / total : 0);
  printf("# profile %-6s n=%-5zu %-18s %6s          %9.1f us\n", bk_name(bk), n, "total", "",
         1e6 * total / reps);
  return PSCR_OK;
}

/* One row: plan, timed device solves, residual, transfer. Prints its JSON line. */
static pscr_status measure(bench *B, const problem_set *s, int k, pscr_backend bk, int threads,
                           row *r) {
  const args *a = &B->a;
  size_t n = s->n[k], total = n * n * (s->ndim == 3 ? n : 1), esz = s->helmholtz ? 16 : 8;
  size_t bytes = total * esz;
  int cpu = bk == PSCR_BACKEND_CPU, reps = 0, xreps = 0;
  pscr_status st;
  pscr_problem prob;
  pscr_plan *plan = NULL;
  pscr_array *f = NULL, *f0 = NULL;
  pscr_plan_info info = {0};
  double *fac = malloc(8 * n * sizeof(double)), *dev = malloc((size_t)a->reps * sizeof(double));
  double *wall = malloc((size_t)a->reps * sizeof(double));
  double *xfer = malloc(2 * ((size_t)a->xfer_reps + 1) * sizeof(double)), *xwall = NULL;
  void *b = malloc(bytes), *u = malloc(bytes), *fh = NULL;
  *r = (row){s->name, bk_name(bk), n, threads, -1, -1, -1, -1, -1, -1, -1};
  if (!fac || !dev || !wall || !xfer || !b || !u) {
    st = PSCR_ERR_OUT_OF_MEMORY;
    goto cleanup;
  }
  xwall = xfer + a->xfer_reps + 1;
  if ((st = build(s, n, a->omega, fac, &prob)) != PSCR_OK) goto cleanup;
  pscr_context *ctx = B->ctx[bk];
  if (cpu && (st = pscr_context_set_threads(ctx, threads)) != PSCR_OK) goto cleanup;
  pscr_options opt;
  pscr_options_default(&opt);
  opt.radix = a->radix, opt.threads = cpu ? threads : 0, opt.innermost = a->innermost;
  opt.workspace_bytes = (size_t)(a->workspace * 1e9);
  double t0 = ex_wtime();
  if ((st = pscr_plan_create(ctx, &prob, &opt, &plan)) != PSCR_OK) goto cleanup;
  r->plan_s = ex_wtime() - t0;
  fill_random(B->seed + 0x632be59bd9b4e019ULL * ++B->draws, b, total * (esz / 8));
  if ((st = pscr_array_create(ctx, prob.dtype, total, &f)) != PSCR_OK) goto cleanup;
  /* a device copy of f restores it quickly (1023^3: 8.6 GB); without memory, the host one */
  if (!cpu) {
    if (pscr_array_create(ctx, prob.dtype, total, &f0) != PSCR_OK ||
        pscr_array_write(f0, b) != PSCR_OK)
      pscr_array_destroy(f0), f0 = NULL;
  }
  double spent = 0;
  for (int it = cpu ? -1 : -2; it < a->reps; it++) { /* warm-ups: two on a GPU, one CPU */
    if (cpu && it >= 3 && spent > a->cpu_budget) break;
    if ((st = restore(f, f0, b)) != PSCR_OK) goto cleanup;
    device_sync(bk);
    t0 = ex_wtime();
    if ((st = pscr_solve_array(plan, f)) != PSCR_OK) goto cleanup;
    device_sync(bk);
    double w = ex_wtime() - t0;
    if ((st = pscr_plan_get_info(plan, &info)) != PSCR_OK) goto cleanup;
    if (it >= 0) dev[reps] = info.last_solve_seconds, wall[reps++] = w, spent += w;
  }
  if ((st = pscr_array_read(f, u)) != PSCR_OK) goto cleanup; /* solution of the last rep */
  if (a->profile && !cpu && (st = profile(B, bk, plan, f, f0, b, n)) != PSCR_OK)
    goto cleanup;
  r->solve_ms = 1e3 * median(dev, reps);
  r->wall_ms = 1e3 * median(wall, reps);
  r->residual = a->residual ? kr_rel_residual(&prob, u, b) : -1;
  double host_diff = -1, xfer_wall_ms = -1;
  if ((!cpu || a->xfer_cpu) && a->xfer_reps > 0 && (fh = malloc(bytes)) != NULL) {
    for (int it = -1; it < a->xfer_reps; it++) { /* one warm-up */
      memcpy(fh, b, bytes);
      t0 = ex_wtime();
      pscr_status hs = pscr_solve(plan, fh);
      double w = ex_wtime() - t0;
      if (hs != PSCR_OK || pscr_plan_get_info(plan, &info) != PSCR_OK) {
        fprintf(stderr, "bench_pscr_gpu: %s %s n %zu: pscr_solve on host data: %s\n", s->name,
                r->backend, n, pscr_status_string(hs));
        xreps = 0;
        break;
      }
      /* the plan's own transfer time, and wall minus device time as a check */
      if (it >= 0) xwall[xreps] = w - info.last_solve_seconds;
      if (it >= 0) xfer[xreps++] = info.last_transfer_seconds;
    }
    if (xreps > 0) {
      xfer_wall_ms = 1e3 * median(xwall, xreps);
      r->xfer_ms = 1e3 * median(xfer, xreps);
      if (r->xfer_ms <= 0) r->xfer_ms = xfer_wall_ms;    /* a backend that does not report it */
      host_diff = ex_rel_diff(prob.dtype, total, u, fh); /* host path vs device path */
    }
  }
  double bw = cpu                       ? (threads == 1 ? B->cpu_bw1 : B->cpu_bwall)
              : bk == PSCR_BACKEND_CUDA ? B->gpu_bw
                                        : 0;
  double floor_ms = bw > 0 ? 1e3 * 2.0 * (double)bytes / bw : -1;
  r->floor_ratio = floor_ms > 0 ? r->solve_ms / floor_ms : -1;
  r->gtx_ms = 1e3 * s->gtx[k][0];
  printf("{\"bench\":\"pscr_gpu\",\"problem\":\"%s\",\"n\":%zu,\"dim\":%d,\"dof\":%zu,"
         "\"dtype\":\"%s\",\"backend\":\"%s\",\"threads\":%d,\"radix\":%d,\"status\":\"ok\","
         "\"plan_s\":%.6g,\"solve_ms\":%.6g,\"solve_ms_min\":%.6g,\"wall_ms\":%.6g,\"reps\":%d,"
         "\"transfer_ms\":%.6g,\"transfer_wall_ms\":%.6g,\"xfer_reps\":%d,"
         "\"host_path_rel_diff\":%.2e,"
         "\"rel_residual\":%.3e,\"gbps\":%.2f,\"floor_ms\":%.6g,\"floor_ratio\":%.3g,"
         "\"copy_gbps\":%.1f,\"device_bytes\":%zu,\"omega\":%.6g,\"seed_gtx1080ti_s\":%.6g,"
         "\"seed_gtx1080ti_transfer_s\":%.6g,\"seed_i5_6600_s\":%.6g}\n",
         s->name, n, s->ndim, total, s->helmholtz ? "c128" : "f64", r->backend, cpu ? threads : 0,
         a->radix, r->plan_s, r->solve_ms, 1e3 * dev[0], r->wall_ms, reps, r->xfer_ms, xfer_wall_ms,
         xreps, host_diff, r->residual, 2.0 * (double)bytes / (r->solve_ms * 1e-3) / 1e9, floor_ms,
         r->floor_ratio, bw / 1e9, info.device_bytes, s->helmholtz ? a->omega : 0.0, s->gtx[k][0],
         s->gtx[k][1], s->i5[k]);
  fflush(stdout);
cleanup:
  pscr_array_destroy(f), pscr_array_destroy(f0);
  pscr_plan_destroy(plan);
  free(fac), free(dev), free(wall), free(xfer), free(b), free(u), free(fh);
  return st;
}

static void skip_line(const problem_set *s, size_t n, pscr_backend bk, int threads,
                      pscr_status st) {
  printf("{\"bench\":\"pscr_gpu\",\"problem\":\"%s\",\"n\":%zu,\"backend\":\"%s\",\"threads\":%d,"
         "\"status\":\"%s\"}\n",
         s->name, n, bk_name(bk), threads,
         st == PSCR_ERR_UNSUPPORTED ? "unsupported" : pscr_status_string(st));
  fflush(stdout);
}

static int selftest(void);
static void table(const bench *B);

int main(int argc, char **argv) {
  bench B = {0};
  int pr = parse(argc, argv, &B.a);
  if (pr) {
    usage(pr > 0 ? stdout : stderr);
    return pr > 0 ? 0 : 2;
  }
  if (B.a.selftest) return selftest();
  B.all = 1;
#ifdef _OPENMP
  B.all = omp_get_max_threads();
#endif
  B.seed = pt_fresh_seed();
  pscr_backend order[3] = {PSCR_BACKEND_CUDA, PSCR_BACKEND_OPENCL, PSCR_BACKEND_CPU};
  int use[3] = {0};
  for (int i = 0; i < 3; i++) use[order[i]] = wanted(B.a.backends, bk_name(order[i]));
  for (int i = 0; i < 3; i++) {
    pscr_backend bk = order[i];
    if (!use[bk]) continue;
    pscr_status st = pscr_backend_available(bk) ? PSCR_OK : PSCR_ERR_BACKEND_UNAVAILABLE;
#if PSCR_BENCH_CUDA
    if (bk == PSCR_BACKEND_CUDA && st == PSCR_OK) { /* the runtime first: one primary context */
      cudaSetDevice(0);
      cudaFree(0);
    }
#endif
    if (st == PSCR_OK) st = pscr_context_create(bk, 0, &B.ctx[bk]);
    if (st == PSCR_OK && B.a.tune && bk != PSCR_BACKEND_CPU) st = apply_tuning(B.ctx[bk], bk, B.a.tune);
    if (st != PSCR_OK) {
      printf("{\"bench\":\"pscr_gpu\",\"backend\":\"%s\",\"status\":\"%s\"}\n", bk_name(bk),
             pscr_status_string(st));
      B.dead[bk] = 1;
    }
  }
#if PSCR_BENCH_CUDA
  if (B.ctx[PSCR_BACKEND_CUDA]) {
    struct cudaDeviceProp prop;
    B.gpu_bw = cuda_bandwidth();
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
      printf("{\"bench\":\"pscr_gpu\",\"what\":\"copy\",\"backend\":\"cuda\",\"device\":\"%s\","
             "\"gbps\":%.1f}\n",
             prop.name, B.gpu_bw / 1e9);
  }
#endif
  if (B.ctx[PSCR_BACKEND_CPU]) {
    B.cpu_bw1 = host_bandwidth(1), B.cpu_bwall = B.all > 1 ? host_bandwidth(B.all) : B.cpu_bw1;
    printf("{\"bench\":\"pscr_gpu\",\"what\":\"copy\",\"backend\":\"cpu\",\"gbps_1t\":%.1f,"
           "\"gbps_all\":%.1f,\"threads\":%d}\n",
           B.cpu_bw1 / 1e9, B.cpu_bwall / 1e9, B.all);
  }
  fflush(stdout);
  int threads[8], nth = 0, rc = 0;
  for (const char *p = B.a.cpu_threads; p && *p && nth < 8; p = strchr(p, ',')) {
    p += *p == ',';
    threads[nth++] = atoi(p) > 0 ? atoi(p) : B.all;
  }
  B.cap = 256, B.rows = calloc(B.cap, sizeof *B.rows);
  if (!B.rows) return 1;
  for (size_t si = 0; si < NSETS; si++) {
    const problem_set *s = &sets[si];
    if (!wanted(B.a.problems, s->name)) continue;
    int off[3] = {0};        /* backend skipped for this problem */
    double last_ms[8] = {0}; /* CPU: the last solve time and size per thread count */
    size_t last_n[8] = {0};
    for (int k = 0; k < 10 && s->n[k]; k++) {
      if (s->n[k] > (s->ndim == 2 ? B.a.max_n : B.a.max_n3) && !(B.a.big && s->big[k])) continue;
      if (s->n[k] < (s->ndim == 2 ? B.a.min_n : B.a.min_n3)) continue;
      if ((s->big[k] && !B.a.big) || (B.a.big_only && !s->big[k])) continue;
      for (int i = 0; i < 3; i++) {
        pscr_backend bk = order[i];
        if (!use[bk] || B.dead[bk] || off[bk]) continue;
        int cpu = bk == PSCR_BACKEND_CPU;
        if (cpu && s->big[k]) continue;
        for (int t = 0; t < (cpu ? nth : 1); t++) {
          double pred = 0;
          if (cpu && last_n[t])
            pred = last_ms[t] * pow((double)s->n[k] / (double)last_n[t], s->ndim);
          if (pred > 1e3 * B.a.cpu_max_s) {
            printf("{\"bench\":\"pscr_gpu\",\"problem\":\"%s\",\"n\":%zu,\"backend\":\"cpu\","
                   "\"threads\":%d,\"status\":\"skipped: predicted %.1f s per solve\"}\n",
                   s->name, s->n[k], threads[t], pred / 1e3);
            continue;
          }
          if (B.nrows == B.cap) {
            row *g = realloc(B.rows, 2 * B.cap * sizeof *g);
            if (!g) return 1;
            B.rows = g, B.cap *= 2;
          }
          row *r = &B.rows[B.nrows];
          pscr_status st = measure(&B, s, k, bk, cpu ? threads[t] : 0, r);
          if (st == PSCR_OK) {
            B.nrows++;
            if (cpu) last_ms[t] = r->wall_ms, last_n[t] = s->n[k];
            continue;
          }
          skip_line(s, s->n[k], bk, cpu ? threads[t] : 0, st);
          if (st == PSCR_ERR_UNSUPPORTED || st == PSCR_ERR_BACKEND_UNAVAILABLE) {
            off[bk] = 1; /* reported once per problem */
          } else if (st != PSCR_ERR_OUT_OF_MEMORY) {
            fprintf(stderr, "bench_pscr_gpu: %s n %zu %s: %s\n", s->name, s->n[k], bk_name(bk),
                    pscr_status_string(st));
            rc = 1;
          }
          break;
        }
      }
    }
  }
  table(&B);
  for (int i = 0; i < 3; i++) pscr_context_destroy(B.ctx[i]);
  free(B.rows);
  return rc;
}

/* The row of (problem, n, backend, threads), or NULL. */
static const row *find(const bench *B, const char *problem, size_t n, const char *bk, int threads) {
  for (size_t i = 0; i < B->nrows; i++) {
    const row *r = &B->rows[i];
    if (r->problem == problem && r->n == n && !strcmp(r->backend, bk) && r->threads == threads)
      return r;
  }
  return NULL;
}

static void cell(double v, const char *fmt) {
  if (v > 0)
    printf(fmt, v);
  else
    printf(" - |");
}

/* One line per (problem, n): CUDA, OpenCL, CPU 1 thread and all threads side by side. */
static void table(const bench *B) {
  printf("\n| problem | n | CUDA plan s | CUDA solve ms | CUDA transfer ms | CUDA floor ratio | "
         "CUDA rel. residual | OpenCL solve ms | CPU 1T ms | CPU %dT ms | CPU %dT / CUDA | "
         "seed GTX 1080 Ti ms (exec + transfer) |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|---|\n",
         B->all, B->all);
  for (size_t i = 0; i < B->nrows; i++) {
    const row *r = &B->rows[i];
    int first = 1;
    for (size_t j = 0; j < i; j++)
      if (B->rows[j].problem == r->problem && B->rows[j].n == r->n) first = 0;
    if (!first) continue;
    const row *c = find(B, r->problem, r->n, "cuda", 0),
              *o = find(B, r->problem, r->n, "opencl", 0);
    const row *c1 = find(B, r->problem, r->n, "cpu", 1),
              *ca = find(B, r->problem, r->n, "cpu", B->all);
    printf("| %s | %zu |", r->problem, r->n);
    cell(c ? c->plan_s : 0, " %.3f |");
    cell(c ? c->solve_ms : 0, " %.3f |");
    cell(c ? c->xfer_ms : 0, " %.3f |");
    cell(c ? c->floor_ratio : 0, " %.2f |");
    cell(c ? c->residual : 0, " %.1e |");
    cell(o ? o->solve_ms : 0, " %.3f |");
    cell(c1 ? c1->solve_ms : 0, " %.3f |");
    cell(ca ? ca->solve_ms : 0, " %.3f |");
    cell(c && ca ? ca->solve_ms / c->solve_ms : 0, " %.1f |");
    size_t si = 0;
    while (si + 1 < NSETS && strcmp(sets[si].name, r->problem)) si++;
    double gx = 0, gt = 0;
    for (int k = 0; k < 10; k++)
      if (sets[si].n[k] == r->n) gx = sets[si].gtx[k][0], gt = sets[si].gtx[k][1];
    if (gx > 0)
      printf(" %.1f + %.1f |\n", 1e3 * gx, 1e3 * gt);
    else
      printf(" - |\n");
  }
  printf("\nsolve ms: median pscr_plan_info.last_solve_seconds (CUDA: device time between "
         "events; OpenCL: host time, first launch to status read; the JSON's wall_ms: the host's "
         "clock around the call on every backend) of up to %d "
         "pscr_solve_array on device data after 2 warm-ups (CPU: at least 3, about %.0f s); "
         "transfer: pscr_solve on host data minus its device time; floor: read f + write u once "
         "over the measured copy bandwidth; residual ||f - A u||_2 / ||f||_2, random f.\n",
         B->a.reps, B->a.cpu_budget);
}

/* The slab residual against ex_kron_apply (full-size temporaries) on small random problems:
 * Poisson and Helmholtz factors, 2D and 3D, unequal sizes, a nonzero shift c; f random, then
 * f = A u + 1e-9 noise (a small residual must come out small too). */
static int selftest(void) {
  uint64_t seed = pt_fresh_seed();
  pt_rng rng;
  pt_rng_seed(&rng, seed);
  int bad = 0;
  for (int ndim = 2; ndim <= 3; ndim++)
    for (int hz = 0; hz < 2; hz++) {
      size_t nn[3] = {ndim == 2 ? 37 : 9, ndim == 2 ? 23 : 7, 11};
      double *fac[3] = {NULL, NULL, NULL};
      pscr_problem p = {.ndim = ndim, .dtype = hz ? PSCR_C128 : PSCR_F64};
      problem_set s = {hz ? "h" : "p", ndim, hz, {0}, {0}, {{0}}, {0}};
      for (int d = 0; d < ndim; d++) {
        fac[d] = malloc(8 * nn[d] * sizeof(double));
        pscr_problem one;
        if (!fac[d] || build(&s, nn[d], 7.0, fac[d], &one) != PSCR_OK) return 1;
        p.dim[d] = one.dim[0];
        p.c_re = one.c_re;
      }
      p.c_re += 0.3, p.c_im = hz ? 0.5 : 0; /* exercises the c term */
      size_t total = ex_problem_size(&p), esz = hz ? 16 : 8;
      void *u = malloc(total * esz), *f = malloc(total * esz), *y = malloc(total * esz),
           *w1 = malloc(total * esz), *w2 = malloc(total * esz);
      if (!u || !f || !y || !w1 || !w2) return 1;
      fill_random(seed += 7919, u, total * (esz / 8));
      fill_random(seed += 7919, f, total * (esz / 8));
      for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) { /* f = A u + small noise: a residual far below one */
          ex_kron_apply(&p, u, f, w1, w2);
          for (size_t i = 0; i < total * (esz / 8); i++)
            ((double *)f)[i] += 1e-9 * pt_uniform(&rng, -1, 1);
        }
        ex_kron_apply(&p, u, y, w1, w2);
        double ref = ex_rel_diff(p.dtype, total, f, y), got = kr_rel_residual(&p, u, f);
        /* both are relative to ||f||: the reference's own rounding is ~1e-16 absolute */
        int ok = got >= 0 && fabs(got - ref) <= 1e-10 * ref + 1e-13;
        printf("selftest %dD %s pass %d: residual %.6e reference %.6e %s\n", ndim,
               hz ? "c128" : "f64", pass, got, ref, ok ? "ok" : "MISMATCH");
        bad |= !ok;
      }
      free(u), free(f), free(y), free(w1), free(w2);
      for (int d = 0; d < ndim; d++) free(fac[d]);
    }
  return bad;
}
