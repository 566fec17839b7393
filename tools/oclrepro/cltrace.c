/* LD_PRELOAD shim: calls and host time of the OpenCL entry points a solve
 * makes, printed to stderr at exit (which of them a small solve waits in);
 * each kernel's first enqueue apart, which may carry its program's load (a
 * forty-second session lead: td_reg_perm's 61 us average).
 * CLTRACE_TL=1: also a timeline line at every clFinish that follows kernel
 * launches (a solve's status wait): each launch's host enqueue span and its
 * device QUEUED / SUBMIT / START / END, us from the first enqueue (device
 * times from the first QUEUED). CLTRACE_FLUSH=1: a clFlush after the first
 * launch of each such span (a trial: the GPU starts before the rest are
 * enqueued).
 * cc -O2 -shared -fPIC -o cltrace.so cltrace.c -ldl
 * LD_PRELOAD=./cltrace.so ./build/bench_pscr_gpu --backends opencl ... */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { F_ENQ, F_ARG, F_FINISH, F_READ, F_WRITE, F_FILL, F_COPY, F_SUB, F_BUF, F_WGINFO, F_WAIT,
       F_MARK, F_PROF, F_FLUSH, F_N };
static const char *names[F_N] = {"clEnqueueNDRangeKernel", "clSetKernelArg", "clFinish",
                                 "clEnqueueReadBuffer", "clEnqueueWriteBuffer",
                                 "clEnqueueFillBuffer", "clEnqueueCopyBuffer", "clCreateSubBuffer",
                                 "clCreateBuffer", "clGetKernelWorkGroupInfo", "clWaitForEvents",
                                 "clEnqueueMarkerWithWaitList", "clGetEventProfilingInfo",
                                 "clFlush"};
static double spent[F_N], kspent[32], kfirst[32], kt[32][256]; /* kt: the later enqueues */
static long calls[F_N], kcalls[32];
static char knames[32][64];

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

__attribute__((destructor)) static void report(void) {
  for (int i = 0; i < F_N; i++)
    if (calls[i])
      fprintf(stderr, "cltrace %-28s %8ld calls %10.1f us total %8.2f us each\n", names[i],
              calls[i], 1e6 * spent[i], 1e6 * spent[i] / calls[i]);
  /* per kernel: the first enqueue apart (it may load the program), the median of the rest */
  for (int i = 0; i < 32 && knames[i][0]; i++) {
    long m = kcalls[i] - 1 < 256 ? kcalls[i] - 1 : 256;
    if (m > 0) qsort(kt[i], (size_t)m, sizeof kt[i][0], cmp_d);
    fprintf(stderr,
            "cltrace   enqueue %-20s %8ld calls %10.1f us total %8.2f us each, first %8.1f,"
            " median of the rest %8.2f\n",
            knames[i], kcalls[i], 1e6 * kspent[i], 1e6 * kspent[i] / kcalls[i], 1e6 * kfirst[i],
            m > 0 ? 1e6 * kt[i][m / 2] : 0.0);
  }
}

#define WRAP(id, ret, name, params, args)                                                          \
  ret name params {                                                                                \
    static ret(*real) params = NULL;                                                               \
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, #name);                                          \
    double t0_ = now();                                                                            \
    ret r_ = real args;                                                                            \
    spent[id] += now() - t0_;                                                                      \
    calls[id]++;                                                                                   \
    return r_;                                                                                     \
  }

static struct {
  char name[24];
  double h0, h1;
  cl_event e;
} tl[64];
static int ntl, tl_on = -1, tl_flush;

/* clEnqueueNDRangeKernel by kernel name too */
cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o,
                              const size_t *g, const size_t *l, cl_uint n, const cl_event *w,
                              cl_event *e) {
  static cl_int (*real)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                        const size_t *, cl_uint, const cl_event *, cl_event *) = NULL;
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel");
  char name[64] = {0};
  clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, NULL);
  if (tl_on < 0) {
    tl_on = getenv("CLTRACE_TL") != NULL;
    tl_flush = getenv("CLTRACE_FLUSH") != NULL;
  }
  cl_event own = NULL, *ep = tl_on && ntl < 64 ? (e ? e : &own) : e;
  double t0 = now();
  cl_int r = real(q, k, d, o, g, l, n, w, ep);
  double dt = now() - t0;
  if (tl_on && ntl < 64 && r == CL_SUCCESS) {
    if (e) clRetainEvent(*e);
    snprintf(tl[ntl].name, sizeof tl[ntl].name, "%s", name);
    tl[ntl].h0 = t0, tl[ntl].h1 = t0 + dt, tl[ntl].e = *ep;
    if (tl_flush && ntl == 0) {
      static cl_int (*fl)(cl_command_queue) = NULL;
      if (!fl) *(void **)&fl = dlsym(RTLD_NEXT, "clFlush");
      fl(q);
    }
    ntl++;
  }
  spent[F_ENQ] += dt;
  calls[F_ENQ]++;
  int i = 0;
  while (i < 32 && knames[i][0] && strcmp(knames[i], name) != 0) i++;
  if (i < 32) {
    if (!knames[i][0]) strcpy(knames[i], name);
    if (kcalls[i] == 0)
      kfirst[i] = dt;
    else if (kcalls[i] <= 256)
      kt[i][kcalls[i] - 1] = dt;
    kspent[i] += dt;
    kcalls[i]++;
  }
  return r;
}
WRAP(F_ARG, cl_int, clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void *v),
     (k, i, s, v))
cl_int clFinish(cl_command_queue q) {
  static cl_int (*real)(cl_command_queue) = NULL;
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "clFinish");
  double t0 = now();
  cl_int r = real(q);
  double t1 = now();
  spent[F_FINISH] += t1 - t0;
  calls[F_FINISH]++;
  if (ntl > 0) { /* a span of launches ends: its timeline */
    cl_ulong base = 0;
    fprintf(stderr, "tl");
    for (int i = 0; i < ntl; i++) {
      cl_ulong v[4] = {0};
      cl_profiling_info p[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
      for (int j = 0; j < 4; j++) clGetEventProfilingInfo(tl[i].e, p[j], sizeof v[j], &v[j], NULL);
      if (i == 0) base = v[0];
      fprintf(stderr, " | %s h %.1f-%.1f d %.1f %.1f %.1f-%.1f", tl[i].name,
              1e6 * (tl[i].h0 - tl[0].h0), 1e6 * (tl[i].h1 - tl[0].h0), 1e-3 * (double)(v[0] - base),
              1e-3 * (double)(v[1] - base), 1e-3 * (double)(v[2] - base), 1e-3 * (double)(v[3] - base));
      clReleaseEvent(tl[i].e);
    }
    fprintf(stderr, " | finish h %.1f-%.1f\n", 1e6 * (t0 - tl[0].h0), 1e6 * (t1 - tl[0].h0));
    ntl = 0;
  }
  return r;
}
WRAP(F_READ, cl_int, clEnqueueReadBuffer,
     (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, void *p, cl_uint n,
      const cl_event *w, cl_event *e),
     (q, m, b, o, s, p, n, w, e))
WRAP(F_WRITE, cl_int, clEnqueueWriteBuffer,
     (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t s, const void *p, cl_uint n,
      const cl_event *w, cl_event *e),
     (q, m, b, o, s, p, n, w, e))
WRAP(F_FILL, cl_int, clEnqueueFillBuffer,
     (cl_command_queue q, cl_mem m, const void *p, size_t ps, size_t o, size_t s, cl_uint n,
      const cl_event *w, cl_event *e),
     (q, m, p, ps, o, s, n, w, e))
WRAP(F_COPY, cl_int, clEnqueueCopyBuffer,
     (cl_command_queue q, cl_mem a, cl_mem b, size_t oa, size_t ob, size_t s, cl_uint n,
      const cl_event *w, cl_event *e),
     (q, a, b, oa, ob, s, n, w, e))
WRAP(F_SUB, cl_mem, clCreateSubBuffer,
     (cl_mem m, cl_mem_flags f, cl_buffer_create_type t, const void *i, cl_int *e),
     (m, f, t, i, e))
WRAP(F_BUF, cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t s, void *h, cl_int *e),
     (c, f, s, h, e))
WRAP(F_WGINFO, cl_int, clGetKernelWorkGroupInfo,
     (cl_kernel k, cl_device_id d, cl_kernel_work_group_info p, size_t s, void *v, size_t *r),
     (k, d, p, s, v, r))
WRAP(F_WAIT, cl_int, clWaitForEvents, (cl_uint n, const cl_event *e), (n, e))
WRAP(F_MARK, cl_int, clEnqueueMarkerWithWaitList,
     (cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e), (q, n, w, e))
WRAP(F_PROF, cl_int, clGetEventProfilingInfo,
     (cl_event e, cl_profiling_info p, size_t s, void *v, size_t *r), (e, p, s, v, r))
WRAP(F_FLUSH, cl_int, clFlush, (cl_command_queue q), (q))
