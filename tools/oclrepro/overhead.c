/* Host cost of NVIDIA OpenCL calls a small PSCR solve makes: clSetKernelArg
 * (buffer, sub-buffer, scalar), clEnqueueNDRangeKernel of a tiny kernel, and
 * "solve-like" rounds (4 launches of 9 buffer + 3 scalar arguments, then a
 * blocking 28-byte read), with and without a profiling queue.
 * cc -O2 overhead.c -lOpenCL && ./a.out  (exit 77 without an NVIDIA platform) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

#include "nvidia.h"

/* Host microseconds an enqueue of k (one group of 64) takes, after 50 to
 * warm up; *drain_us (unless NULL): per kernel until the queue has run them. */
static double enqueue_us(cl_command_queue q, cl_kernel k, int L, double *drain_us) {
  size_t g = 64;
  for (int r = 0; r < 50; r++) clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL);
  clFinish(q);
  double t = now();
  for (int r = 0; r < L; r++) clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL);
  double te = now() - t;
  clFinish(q);
  if (drain_us) *drain_us = 1e6 * (now() - t) / L;
  return 1e6 * te / L;
}

static const char *src =
    "__kernel void k(__global double *a0, __global double *a1, __global double *a2,"
    " __global double *a3, __global double *a4, __global double *a5, __global double *a6,"
    " __global double *a7, __global double *a8, long n, long m, int w) {"
    " size_t i = get_global_id(0); if (i < n) a0[i] += a1[i] * (double)(m + w); }";

int main(void) {
  cl_device_id d;
  cl_int e;
  cl_context c = nvidia_context(&d);
  if (!c) return 77;
  cl_program pr = nvidia_program(c, d, src, "", "k");
  if (!pr) return 1;
  cl_kernel k = clCreateKernel(pr, "k", &e);
  cl_mem b[2], sub[2];
  for (int i = 0; i < 2; i++) {
    b[i] = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 20, NULL, &e);
    cl_buffer_region r = {4096 * (size_t)(i + 1), 8192};
    sub[i] = clCreateSubBuffer(b[i], CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  }
  cl_long n = 32, m = 1;
  cl_int w = 2;
  int R = 20000;
  double t = now();
  for (int r = 0; r < R; r++) clSetKernelArg(k, r % 9, sizeof(cl_mem), &b[r & 1]);
  printf("clSetKernelArg(buffer)      %7.3f us\n", 1e6 * (now() - t) / R);
  t = now();
  for (int r = 0; r < R; r++) clSetKernelArg(k, r % 9, sizeof(cl_mem), &sub[r & 1]);
  printf("clSetKernelArg(sub-buffer)  %7.3f us\n", 1e6 * (now() - t) / R);
  t = now();
  for (int r = 0; r < R; r++) {
    n = 32 + (r & 1);
    clSetKernelArg(k, 9, sizeof n, &n);
  }
  printf("clSetKernelArg(long)        %7.3f us\n", 1e6 * (now() - t) / R);
  for (int prof = 0; prof < 2; prof++) {
    cl_command_queue q = clCreateCommandQueue(c, d, prof ? CL_QUEUE_PROFILING_ENABLE : 0, &e);
    for (int i = 0; i < 9; i++) clSetKernelArg(k, i, sizeof(cl_mem), &b[i & 1]);
    clSetKernelArg(k, 10, sizeof m, &m);
    clSetKernelArg(k, 11, sizeof w, &w);
    size_t g = 64, l = 64;
    int L = 2000;
    double drain, te = enqueue_us(q, k, L, &drain);
    printf("queue prof %d: enqueue %7.3f us (host), %7.3f us a kernel to drain\n", prof, te,
           drain);
    /* what an enqueue's cost follows: its buffer arguments' kinds */
    cl_mem many[9], subs[9];
    for (int i = 0; i < 9; i++) {
      many[i] = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 16, NULL, &e);
      cl_buffer_region r = {4096 * (size_t)i, 4096};
      subs[i] = clCreateSubBuffer(b[0], CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
    }
    const char *kinds[3] = {"one buffer 9 times", "9 buffers", "9 sub-buffers of one"};
    for (int v = 0; v < 3; v++) {
      for (int i = 0; i < 9; i++)
        clSetKernelArg(k, i, sizeof(cl_mem), v == 0 ? &b[0] : v == 1 ? &many[i] : &subs[i]);
      printf("queue prof %d: enqueue with %-22s %7.3f us (host)\n", prof, kinds[v],
             enqueue_us(q, k, L, NULL));
    }
    /* a NULL buffer argument; kernels with static local arrays (td.cl's tiles) */
    clSetKernelArg(k, 3, sizeof(cl_mem), NULL);
    printf("queue prof %d: enqueue with a NULL buffer argument  %7.3f us (host)\n", prof,
           enqueue_us(q, k, L, NULL));
    for (int kb = 1; kb <= 40; kb *= 4) {
      char text[512];
      snprintf(text, sizeof text,
               "__kernel void s(__global double *a, long n) { __local double sm[%d];"
               " size_t i = get_local_id(0); sm[i] = a[i]; barrier(CLK_LOCAL_MEM_FENCE);"
               " a[i] = sm[(i + 1) %% 64] + (double)n; }", kb * 128);
      const char *tp = text;
      cl_program sp = clCreateProgramWithSource(c, 1, &tp, NULL, &e);
      clBuildProgram(sp, 1, &d, "", NULL, NULL);
      cl_kernel sk = clCreateKernel(sp, "s", &e);
      clSetKernelArg(sk, 0, sizeof(cl_mem), &b[0]);
      clSetKernelArg(sk, 1, sizeof n, &n);
      te = enqueue_us(q, sk, L, NULL);
      double ta = now();
      for (int r = 0; r < L; r++) { /* alternating with the 9-argument kernel */
        clEnqueueNDRangeKernel(q, sk, 1, NULL, &g, &l, 0, NULL, NULL);
        clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
      }
      ta = now() - ta;
      clFinish(q);
      printf("queue prof %d: enqueue, %2d KB static local: %7.3f us;"
             " alternating with k: %7.3f us a pair\n",
             prof, kb, te, 1e6 * ta / L);
      clReleaseKernel(sk);
      clReleaseProgram(sp);
    }
    for (int i = 0; i < 9; i++) clSetKernelArg(k, i, sizeof(cl_mem), &b[i & 1]);
    int fl[7];
    for (int set = 0; set < 2; set++) {
      int S = 500;
      double best = 1e9, sum = 0;
      for (int r = 0; r < S; r++) {
        double t0 = now();
        for (int j = 0; j < 4; j++) {
          if (set)
            for (int i = 0; i < 9; i++) clSetKernelArg(k, i, sizeof(cl_mem), &b[(i + j) & 1]);
          clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
        }
        clEnqueueReadBuffer(q, b[0], CL_TRUE, 0, sizeof fl, fl, 0, NULL, NULL);
        double dt = now() - t0;
        sum += dt;
        if (dt < best) best = dt;
      }
      printf("queue prof %d: 4 launches (%s buffer args) + blocking read:"
             " mean %7.2f us, best %7.2f\n",
             prof, set ? "36" : "no", 1e6 * sum / S, 1e6 * best);
    }
    clReleaseCommandQueue(q);
  }
  return 0;
}
