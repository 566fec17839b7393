/* Does a command buffer (cl_khr_command_buffer) cut NVIDIA's per-enqueue host
 * cost? A solve-like sequence: L kernels of 8 buffer and 8 long arguments,
 * then a blocking 28-byte read. Median host us over 200 sequences, each way:
 * plain enqueues, and one clEnqueueCommandBufferKHR of the same L kernels
 * recorded once (each waits on the one before by sync points).
 * cc -O2 cmdbuf.c -lOpenCL && ./a.out  (exit 77 without an NVIDIA platform) */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia.h"

#define GET(p, f) f##_fn f##_p = (f##_fn)clGetExtensionFunctionAddressForPlatform(p, #f)

int main(void) {
  cl_device_id d;
  cl_int e;
  cl_context c = nvidia_context(&d);
  if (!c) return 77;
  char ext[16384] = {0}, ver[256] = {0};
  clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
  clGetDeviceInfo(d, CL_DRIVER_VERSION, sizeof ver - 1, ver, NULL);
  printf("driver %s\n", ver);
  for (char *t = strtok(ext, " "); t; t = strtok(NULL, " "))
    if (strstr(t, "command_buffer") || strstr(t, "svm") || strstr(t, "graph")) printf("ext %s\n", t);
  cl_platform_id p = nvidia_platform();
  GET(p, clCreateCommandBufferKHR);
  GET(p, clCommandNDRangeKernelKHR);
  GET(p, clFinalizeCommandBufferKHR);
  GET(p, clEnqueueCommandBufferKHR);
  printf("entry points %s\n", clCreateCommandBufferKHR_p && clEnqueueCommandBufferKHR_p ? "yes" : "no");
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  const char *src =
      "__kernel void k(__global double *a0, __global double *a1, __global double *a2,"
      " __global double *a3, __global double *a4, __global double *a5, __global double *a6,"
      " __global int *st, long s0, long s1, long s2, long s3, long s4, long s5, long s6, long s7)"
      "{ size_t i = get_global_id(0); a0[i] += a1[i] + (double)s0; if (i == 0) st[0] = 0; }";
  cl_program pr = nvidia_program(c, d, src, "", "k");
  if (!pr) return 1;
  cl_kernel k = clCreateKernel(pr, "k", &e);
  cl_mem b[8];
  for (int i = 0; i < 8; i++) b[i] = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 16, NULL, &e);
  for (int i = 0; i < 8; i++) clSetKernelArg(k, i, sizeof(cl_mem), &b[i]);
  for (int i = 0; i < 8; i++) {
    cl_long x = i;
    clSetKernelArg(k, 8 + i, sizeof x, &x);
  }
  size_t wg = 64, gs = 64 * 32;
  int st[8];
  for (int L = 1; L <= 4; L++) {
    double t[200];
    for (int r = -20; r < 200; r++) {
      double t0 = now();
      for (int l = 0; l < L; l++) clEnqueueNDRangeKernel(q, k, 1, NULL, &gs, &wg, 0, NULL, NULL);
      clEnqueueReadBuffer(q, b[7], CL_TRUE, 0, 28, st, 0, NULL, NULL);
      if (r >= 0) t[r] = 1e6 * (now() - t0);
    }
    double plain = median(t, 200), cb = -1;
    if (clCreateCommandBufferKHR_p) {
      cl_command_buffer_khr cmd = clCreateCommandBufferKHR_p(1, &q, NULL, &e);
      if (e != CL_SUCCESS) printf("create %d\n", e);
      cl_sync_point_khr sp = 0, prev = 0;
      for (int l = 0; l < L && e == CL_SUCCESS; l++) {
        e = clCommandNDRangeKernelKHR_p(cmd, NULL, NULL, k, 1, NULL, &gs, &wg, l ? 1 : 0,
                                        l ? &prev : NULL, &sp, NULL);
        prev = sp;
      }
      if (e == CL_SUCCESS) e = clFinalizeCommandBufferKHR_p(cmd);
      if (e != CL_SUCCESS) printf("record %d\n", e);
      for (int r = -20; r < 200 && e == CL_SUCCESS; r++) {
        double t0 = now();
        e = clEnqueueCommandBufferKHR_p(1, &q, cmd, 0, NULL, NULL);
        clEnqueueReadBuffer(q, b[7], CL_TRUE, 0, 28, st, 0, NULL, NULL);
        if (r >= 0) t[r] = 1e6 * (now() - t0);
      }
      if (e == CL_SUCCESS) cb = median(t, 200);
      else printf("enqueue %d\n", e);
    }
    printf("L=%d launches + read: plain %.1f us, command buffer %.1f us\n", L, plain, cb);
  }
  return 0;
}
