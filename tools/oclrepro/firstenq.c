/* What the first enqueue of a solve costs on NVIDIA's OpenCL, by what came
 * before it: host us of the first and the second clEnqueueNDRangeKernel
 * after the queue was drained (clFinish) following nothing, a blocking write
 * of 256 MB to a buffer the kernels use, the same to a buffer they do not,
 * a 4 KB write, a 28-byte blocking read (a solve's status wait), and a 256 MB
 * write followed by an absorbing tiny launch; each with and without an event
 * on the first launch (a profiling queue, as the library's). Medians of 30.
 * H200, driver 580: 5.9 us after nothing, 13.7-14.6 after the 256 MB
 * writes, 6.2-6.8 after the others; an event adds 7-20 (13.5, 27.4-34.5),
 * which is why the library's OpenCL solves time themselves on the host's
 * clock (opencl.h: t0). The second enqueue: 5.5-9.1 us.
 * cc -O2 firstenq.c -lOpenCL && ./a.out  (exit 77 without an NVIDIA platform) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#include "nvidia.h"

static const char *src =
    "__kernel void k(__global double *a, __global double *b, __global double *c,"
    " __global double *d, __global double *e, __global double *f, __global double *o, long n) {"
    " size_t i = get_global_id(0); if (i < n) o[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i]; }";

enum { NOTHING, BIGW, BIGW_OTHER, SMALLW, SMALLR, BIGW_ABSORB, NWAYS };
static const char *names[NWAYS] = {"nothing", "256 MB write (used)", "256 MB write (unused)",
                                   "4 KB write", "28 B blocking read",
                                   "256 MB write + tiny launch"};

int main(void) {
  cl_device_id d;
  cl_int e;
  cl_context c = nvidia_context(&d);
  if (!c) return 77;
  cl_command_queue q = clCreateCommandQueue(c, d, CL_QUEUE_PROFILING_ENABLE, &e);
  cl_program pr = nvidia_program(c, d, src, "", "k");
  if (!pr) return 1;
  cl_kernel k = clCreateKernel(pr, "k", &e);
  size_t big = (size_t)256 << 20, n = 4096;
  cl_mem B = clCreateBuffer(c, CL_MEM_READ_WRITE, big, NULL, &e);
  cl_mem U = clCreateBuffer(c, CL_MEM_READ_WRITE, big, NULL, &e);
  cl_mem a[7];
  for (int i = 0; i < 7; i++) a[i] = clCreateBuffer(c, CL_MEM_READ_WRITE, n * 8, NULL, &e);
  char *h = calloc(big, 1);
  int st[8];
  cl_long nn = (cl_long)n;
  for (int i = 0; i < 6; i++) clSetKernelArg(k, i, sizeof(cl_mem), &a[i]);
  clSetKernelArg(k, 6, sizeof(cl_mem), &B); /* o: the big buffer's first rows */
  clSetKernelArg(k, 7, sizeof nn, &nn);
  printf("%-28s %-6s %10s %10s %10s\n", "before", "event", "1st us", "2nd us", "to done us");
  for (int way = 0; way < NWAYS; way++)
    for (int ev = 0; ev < 2; ev++) {
      double t1[30], t2[30], tt[30];
      for (int r = -3; r < 30; r++) {
        if (way == BIGW || way == BIGW_ABSORB)
          clEnqueueWriteBuffer(q, B, CL_TRUE, 0, big, h, 0, NULL, NULL);
        if (way == BIGW_OTHER) clEnqueueWriteBuffer(q, U, CL_TRUE, 0, big, h, 0, NULL, NULL);
        if (way == SMALLW) clEnqueueWriteBuffer(q, B, CL_TRUE, 0, 4096, h, 0, NULL, NULL);
        if (way == SMALLR) clEnqueueReadBuffer(q, a[6], CL_TRUE, 0, 28, st, 0, NULL, NULL);
        if (way == BIGW_ABSORB) {
          size_t one = 1;
          clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
        }
        clFinish(q);
        size_t g = n, l = 64;
        cl_event e0 = NULL;
        /* the buffers set again before the launch, as the library does */
        for (int i = 0; i < 6; i++) clSetKernelArg(k, i, sizeof(cl_mem), &a[i]);
        double h0 = now();
        clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, ev ? &e0 : NULL);
        double h1 = now();
        clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
        double h2 = now();
        clFinish(q);
        double h3 = now();
        if (e0) clReleaseEvent(e0);
        if (r >= 0) t1[r] = 1e6 * (h1 - h0), t2[r] = 1e6 * (h2 - h1), tt[r] = 1e6 * (h3 - h0);
      }
      printf("%-28s %-6s %10.1f %10.1f %10.1f\n", names[way], ev ? "yes" : "no", median(t1, 30),
             median(t2, 30), median(tt, 30));
    }
  return 0;
}
