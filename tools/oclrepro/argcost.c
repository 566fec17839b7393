/* What an enqueue's host cost on NVIDIA's OpenCL follows: kernels of P buffer
 * and S long arguments (P distinct buffers, or one buffer P times, or NULLs),
 * and one kernel taking its S longs as a struct by value. Median host us of
 * an enqueue (batches of 100, the queue drained between them). H100, driver
 * 580: 5.5-8 us up to 8 buffers, 9-10 at 16, 12 at 24; NULLs cost little,
 * longs and structs about the same as each other.
 * cc -O2 argcost.c -lOpenCL && ./a.out  (exit 77 without an NVIDIA platform) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#include "nvidia.h"

int main(void) {
  cl_device_id d;
  cl_int e;
  cl_context c = nvidia_context(&d);
  if (!c) return 77;
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  cl_mem buf[24];
  for (int i = 0; i < 24; i++) buf[i] = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 16, NULL, &e);
  printf("%4s %4s %10s %10s %10s %10s\n", "ptrs", "longs", "distinct", "one buf", "NULLs",
         "struct");
  int P[] = {1, 4, 8, 16, 24}, S[] = {0, 8, 16};
  for (int pi = 0; pi < 5; pi++)
    for (int si = 0; si < 3; si++) {
      char text[4096], *w = text;
      for (int v = 0; v < 2; v++) { /* v 1: the longs as one struct */
        w += sprintf(w, "typedef struct { long v[%d]; } S%d;\n__kernel void k%d(",
                     S[si] ? S[si] : 1, v, v);
        for (int i = 0; i < P[pi]; i++) w += sprintf(w, "%s__global double *a%d", i ? ", " : "", i);
        if (v) w += sprintf(w, ", S%d s", v);
        for (int i = 0; !v && i < S[si]; i++) w += sprintf(w, ", long s%d", i);
        w += sprintf(w, ") { if (get_global_id(0) == 0 && a0) a0[0] += %s; }\n",
                     S[si] == 0 ? "1.0" : v ? "(double)s.v[0]" : "(double)s0");
      }
      const char *tp = text;
      cl_program pr = nvidia_program(c, d, tp, "", "k0, k1");
      if (!pr) return 1;
      cl_kernel k[2] = {clCreateKernel(pr, "k0", &e), clCreateKernel(pr, "k1", &e)};
      double r[4];
      for (int way = 0; way < 3; way++) {
        for (int i = 0; i < P[pi]; i++)
          clSetKernelArg(k[0], i, sizeof(cl_mem),
                         way == 0 ? &buf[i] : way == 1 || i == 0 ? &buf[0] : NULL);
        for (int i = 0; i < S[si]; i++) {
          cl_long x = i;
          clSetKernelArg(k[0], P[pi] + i, sizeof x, &x);
        }
        r[way] = enqueue_median_us(q, k[0], 64);
      }
      cl_long sv[16] = {1};
      for (int i = 0; i < P[pi]; i++) clSetKernelArg(k[1], i, sizeof(cl_mem), &buf[i]);
      clSetKernelArg(k[1], P[pi], sizeof(cl_long) * (S[si] ? S[si] : 1), sv);
      r[3] = enqueue_median_us(q, k[1], 64);
      printf("%4d %4d %10.2f %10.2f %10.2f %10.2f\n", P[pi], S[si], r[0], r[1], r[2], r[3]);
      clReleaseKernel(k[0]);
      clReleaseKernel(k[1]);
      clReleaseProgram(pr);
    }
  return 0;
}
