/* Does NVIDIA's OpenCL compiler take inline PTX (td.cl's TD_RCP_APPROX)?
 * Builds the reciprocal with __asm__ and with asm, runs it, prints the worst
 * relative error against 1 / x. Exit 77 without an NVIDIA platform.
 * cc -O2 ptx.c -lOpenCL && ./a.out */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nvidia.h"

static const char *fmt =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void k(__global double *x) { size_t i = get_global_id(0); double r, v = x[i];\n"
    "  %s(\"rcp.approx.ftz.f64 %%0, %%1;\" : \"=d\"(r) : \"d\"(v));\n"
    "  double e = fma(-v, r, 1.0); x[i] = fma(r, fma(e, e, e), r); }\n";

int main(void) {
  cl_device_id d;
  cl_int e;
  cl_context c = nvidia_context(&d);
  if (!c) return 77;
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  enum { N = 4096 };
  static double h[N], x[N];
  for (int i = 0; i < N; i++) h[i] = (i % 2 ? -1 : 1) * ldexp(1.0 + i / (double)N, i % 61 - 30);
  const char *kw[2] = {"__asm__", "asm"};
  for (int v = 0; v < 2; v++) {
    char src[1024];
    snprintf(src, sizeof src, fmt, kw[v]);
    const char *s = src;
    cl_program pr = nvidia_program(c, d, s, "-cl-std=CL1.2", kw[v]);
    if (!pr) continue;
    cl_kernel k = clCreateKernel(pr, "k", &e);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof h, h, &e);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t g = N;
    clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
    clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL);
    double worst = 0;
    for (int i = 0; i < N; i++) worst = fmax(worst, fabs(x[i] * h[i] - 1.0));
    printf("%s: builds, worst |x r - 1| = %.3g\n", kw[v], worst);
  }
  return 0;
}
