/* What an enqueue's host cost on NVIDIA's OpenCL follows: the same
 * 12-argument kernel (8 buffers, 4 longs) alone in its program, beside 80
 * other kernels, with a long body; with 100-1000 more buffers, sub-buffers of
 * another buffer, or sub-buffers of the buffer its arguments name (then
 * released); and the library's pscr_gemm (26 arguments) from a program it
 * built (PSCR_OPENCL_DUMP's ocl-K.bin, argv[1]; any argv[2]: built with
 * GPTR's offsets, 5fa458c on). Median host us of an enqueue
 * (batches of 100, the queue drained between them). H100, driver 580: 8 us
 * every way but one: sub-buffers of its own buffer, 15 / 34 / 87 us with
 * 100 / 300 / 1000 of them (~0.008 us an argument and sub-buffer).
 * cc -O2 enqcost.c -lOpenCL && ./a.out [ocl-0.bin [gptr]]  (exit 77 without NVIDIA) */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#include "nvidia.h"

#define HEAD                                                                                    \
  "(__global double *a0, __global double *a1, __global double *a2, __global double *a3,"      \
  " __global double *a4, __global double *a5, __global double *a6, __global double *a7,"      \
  " long n, long m, long s, long t)"
static const char *plain = "__kernel void k" HEAD " { size_t i = get_global_id(0);"
                           " if (i < n) a0[i] += a1[i] * (double)(m + s + t); }";

static cl_kernel build(cl_context c, cl_device_id d, const char *text, const char *name) {
  cl_int e;
  cl_program p = clCreateProgramWithSource(c, 1, &text, NULL, &e);
  if (clBuildProgram(p, 1, &d, "", NULL, NULL) != CL_SUCCESS) return NULL;
  return clCreateKernel(p, name, &e);
}

static void set12(cl_kernel k, cl_mem b) {
  cl_long v = 1;
  for (int i = 0; i < 8; i++) clSetKernelArg(k, i, sizeof b, &b);
  for (int i = 8; i < 12; i++) clSetKernelArg(k, i, sizeof v, &v);
}

int main(int argc, char **argv) {
  cl_device_id d;
  cl_int e;
  cl_context c = nvidia_context(&d);
  if (!c) return 77;
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 20, NULL, &e);
  double zero = 0;
  clEnqueueFillBuffer(q, b, &zero, sizeof zero, 0, 1 << 20, 0, NULL, NULL);
  cl_kernel k[3];
  k[0] = build(c, d, plain, "k");
  char *text = malloc(1 << 20), *w = text; /* 80 other kernels beside it */
  w += sprintf(w, "%s\n", plain);
  for (int j = 0; j < 80; j++)
    w += sprintf(w, "__kernel void o%d" HEAD " { size_t i = get_global_id(0); double x = a2[i];"
                 " for (long r = 0; r < m; r++) x = x * a3[r] + a4[(r * %d) %% n];"
                 " a5[i] = x + a6[i] * a7[i]; }\n", j, j + 1);
  k[1] = build(c, d, text, "k");
  w = text; /* one long body: 400 dependent steps unrolled */
  w += sprintf(w, "__kernel void k" HEAD " { size_t i = get_global_id(0); double x = a1[i];");
  for (int j = 0; j < 400; j++) w += sprintf(w, " x = x * a2[(i + %d) %% n] + a3[%d %% n];", j, j);
  w += sprintf(w, " if (i < n) a0[i] = x; }");
  k[2] = build(c, d, text, "k");
  const char *what[3] = {"alone", "beside 80 kernels", "long body"};
  for (int v = 0; v < 3; v++) {
    if (!k[v]) return printf("build %d failed\n", v), 1;
    set12(k[v], b);
    printf("12-arg kernel, %-28s %7.2f us\n", what[v], enqueue_median_us(q, k[v], 64));
  }
  /* other memory objects of the context: buffers, sub-buffers of another
   * buffer, sub-buffers of the kernel's own; then released */
  cl_mem more[1000], other = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 20, NULL, &e);
  for (int way = 0; way < 3; way++)
    for (int n = 100, have = 0; n <= 1000; n = n == 100 ? 300 : n == 300 ? 1000 : 2000) {
      for (; have < n; have++) {
        cl_buffer_region r = {(size_t)have * 1024 % (1 << 20), 1024};
        more[have] = way == 0 ? clCreateBuffer(c, CL_MEM_READ_WRITE, 4096, NULL, &e)
                              : clCreateSubBuffer(way == 1 ? other : b, CL_MEM_READ_WRITE,
                                                  CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
        if (e != CL_SUCCESS) return printf("object %d: %d\n", have, e), 1;
      }
      printf("12-arg kernel, alone, %4d more %-18s %7.2f us\n", n,
             way == 0 ? "buffers" : way == 1 ? "subs of another" : "subs of its own",
             enqueue_median_us(q, k[0], 64));
      if (n == 1000) {
        for (int i = 0; i < n; i++) clReleaseMemObject(more[i]);
        printf("12-arg kernel, alone, those released      %7.2f us\n",
               enqueue_median_us(q, k[0], 64));
      }
    }
  if (argc > 1) { /* the library's pscr_gemm on 1 x 1 x 1 products */
    FILE *f = fopen(argv[1], "rb");
    long size = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
    free(text);
    text = size > 0 ? malloc((size_t)size) : NULL;
    size_t len = text && fseek(f, 0, SEEK_SET) == 0 ? fread(text, 1, (size_t)size, f) : 0;
    if (f) fclose(f);
    const unsigned char *bin = (const unsigned char *)text;
    cl_int bs;
    cl_program pp = len ? clCreateProgramWithBinary(c, 1, &d, &len, &bin, &bs, &e) : NULL;
    cl_kernel g = pp && clBuildProgram(pp, 1, &d, "", NULL, NULL) == CL_SUCCESS
                      ? clCreateKernel(pp, "pscr_gemm", &e)
                      : NULL;
    if (!g) return printf("pscr_gemm from %s: not loaded\n", argv[1]), 1;
    size_t wg[3] = {0};
    clGetKernelWorkGroupInfo(g, d, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL);
    size_t nk = 0;
    clGetProgramInfo(pp, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL);
    /* M N K a ao ars acs abs b bo ldb cin cio c co ldc bbs cbs lambda l0 ls shift ss sout so
     * ktot; since 5fa458c each pointer is followed by its byte offset (GPTR) */
    const char kind[] = "lllpllllpllplpllllpllplpll";
    cl_uint arg = 0, gptr = argc > 2;
    for (int i = 0; kind[i]; i++) {
      cl_long v = i < 3 || i == 6 || i == 10 || i == 15 ? 1 : 0, zero = 0;
      if (kind[i] == 'p') {
        clSetKernelArg(g, arg++, sizeof b, i == 23 ? NULL : &b);
        if (gptr) clSetKernelArg(g, arg++, sizeof zero, &zero);
      } else {
        clSetKernelArg(g, arg++, sizeof v, &v);
      }
    }
    printf("library pscr_gemm (program of %zu kernels, wg %zu)  %7.2f us\n", nk, wg[0],
           enqueue_median_us(q, g, wg[0] ? wg[0] : 64));
  }
  return 0;
}
