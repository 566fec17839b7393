/* What the probes in this directory share: the NVIDIA OpenCL platform they
 * run on (they exit 77 without it), a context on its GPU, the clock, medians
 * and the median host cost of an enqueue. */
#ifndef PSCR_OCLREPRO_NVIDIA_H
#define PSCR_OCLREPRO_NVIDIA_H
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline cl_platform_id nvidia_platform(void) {
  cl_platform_id ps[8], p = 0;
  cl_uint np = 0;
  if (clGetPlatformIDs(8, ps, &np) != CL_SUCCESS) return 0;
  for (cl_uint i = 0; i < np && i < 8; i++) {
    char n[256] = {0};
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof n - 1, n, NULL);
    if (strstr(n, "NVIDIA")) p = ps[i];
  }
  return p;
}

/* NVIDIA's GPU (*d) and a context on it; NULL (and a line saying so) if
 * there is no NVIDIA platform. */
static inline cl_context nvidia_context(cl_device_id *d) {
  cl_platform_id p = nvidia_platform();
  if (!p) return printf("no NVIDIA platform\n"), (cl_context)NULL;
  cl_int e;
  clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, d, NULL);
  return clCreateContext(NULL, 1, d, NULL, NULL, &e);
}

/* Builds pr (from source or binary) for d with opts; where that fails,
 * prints what, the error and the build log, and returns 0. */
static inline int nvidia_build(cl_program pr, cl_device_id d, const char *opts,
                               const char *what) {
  cl_int e = clBuildProgram(pr, 1, &d, opts, NULL, NULL);
  if (e == CL_SUCCESS) return 1;
  char log[4096] = {0};
  clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
  printf("%s: build failed (%d): %.1000s\n", what, e, log);
  return 0;
}

/* The program of the OpenCL C text src, built for d with opts (NULL, after
 * nvidia_build's report, where it fails). */
static inline cl_program nvidia_program(cl_context c, cl_device_id d, const char *src,
                                        const char *opts, const char *what) {
  cl_int e;
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  if (e != CL_SUCCESS) return printf("%s: no program (%d)\n", what, e), (cl_program)NULL;
  if (nvidia_build(pr, d, opts, what)) return pr;
  clReleaseProgram(pr);
  return NULL;
}

static inline double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The median of t[0..n) (sorted in place). */
static inline double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp_double);
  return t[n / 2];
}

/* Median host us of an enqueue of k as one group of wg work-items: 30
 * batches of 100 after 3 to warm up, the queue drained between them. */
static inline double enqueue_median_us(cl_command_queue q, cl_kernel k, size_t wg) {
  double t[30];
  for (int b = -3; b < 30; b++) {
    double t0 = now();
    for (int r = 0; r < 100; r++) clEnqueueNDRangeKernel(q, k, 1, NULL, &wg, &wg, 0, NULL, NULL);
    if (b >= 0) t[b] = 1e6 * (now() - t0) / 100;
    clFinish(q);
  }
  return median(t, 30);
}
#endif
