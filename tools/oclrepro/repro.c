/* Does releasing OpenCL sub-buffers crash NVIDIA's driver? Variants by argv[1]
 * (argv[2..4]: count, small regions 1-5, fills). H100, driver 580: variants 3
 * and 4 (and small = 1, 2, 3, 5) crash inside a clReleaseMemObject of a
 * sub-buffer after the queue has drained, with the kernel's arguments unset
 * first (UNBIND=1) or not; EVERY=1 prints each release, KEEP=i skips one.
 * The library has made no sub-buffers since 5fa458c (GPTR, td.cl). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nvidia.h"
static const char *src = "__kernel void k(__global double *a, __global double *b) { size_t i = get_global_id(0); a[i] += b[i]; }";
int main(int argc, char **argv) {
  int variant = argc > 1 ? atoi(argv[1]) : 0;
  cl_device_id d; cl_context c = nvidia_context(&d);
  if (!c) return 77;
  cl_uint align = 0; clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align, &align, NULL);
  cl_int e;
  cl_command_queue q = clCreateCommandQueue(c, d, CL_QUEUE_PROFILING_ENABLE, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e); clBuildProgram(pr, 1, &d, "", NULL, NULL);
  cl_kernel k = clCreateKernel(pr, "k", &e);
  size_t A = align / 8, n = 1 << 16;
  cl_mem w = clCreateBuffer(c, CL_MEM_READ_WRITE, 128 * n * 8, NULL, &e);
  int R = argc > 2 ? atoi(argv[2]) : (variant >= 3 ? 1000 : 40);
  int small = argc > 3 ? atoi(argv[3]) : variant >= 3, fill = argc > 4 ? atoi(argv[4]) : variant >= 3;
  printf("variant %d R %d small %d fill %d: ", variant, R, small, fill); fflush(stdout);
  cl_mem *sub = malloc(R * sizeof *sub); int ns = 0;
  for (int r = 0; r < R; r++) {
    size_t off = (size_t)(r % 7) * A * 16, len = (size_t)(1 + r % 5) * n * 8;
    if (variant == 1) off = (size_t)r * n * 8, len = n * 8; /* disjoint */
    if (small == 1) off = (size_t)(r % 61) * A, len = (size_t)(1 + r % 13) * 8 * 64;
    if (small == 2) off = (size_t)(r % 61) * 65536, len = (size_t)(1 + r % 13) * 65536;
    if (small == 3) off = (size_t)(r % 61) * A, len = (size_t)(1 + r % 13) * 65536;
    if (small == 4) off = (size_t)(r % 61) * 65536, len = (size_t)(1 + r % 13) * 8 * 64;
    if (small == 5) off = (size_t)(r % 61) * 4096, len = (size_t)(1 + r % 13) * 4096;
    if (fill) { double z = 0; clEnqueueFillBuffer(q, w, &z, 8, off, len, 0, NULL, NULL); }
    cl_buffer_region reg = {off, len};
    sub[ns] = clCreateSubBuffer(w, variant == 2 ? 0 : CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &e);
    if (e) { printf("sub %d err %d\n", r, e); return 1; }
    ns++;
    if (ns >= 2) {
      clSetKernelArg(k, 0, sizeof(cl_mem), &sub[ns - 1]); clSetKernelArg(k, 1, sizeof(cl_mem), &sub[ns - 2]);
      size_t g = small ? 64 : n; cl_event ev; e = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, &ev);
      if (e) { printf("launch err %d\n", e); return 1; }
      clReleaseEvent(ev);
    }
  }
  printf("made; "); fflush(stdout);
  if (variant != 4) clFinish(q);
  printf("drained; "); fflush(stdout);
  if (getenv("UNBIND")) { /* the kernel lets go of its sub-buffers first */
    clSetKernelArg(k, 0, sizeof(cl_mem), NULL); clSetKernelArg(k, 1, sizeof(cl_mem), NULL);
  }
  int every = getenv("EVERY") ? 1 : 100, keep = getenv("KEEP") ? atoi(getenv("KEEP")) : -1;
  for (int i = 0; i < ns; i++) {
    if (i == keep) continue; /* one sub-buffer left alive */
    e = clReleaseMemObject(sub[i]); if (e) printf("release %d: %d\n", i, e);
    if (i % every == 0) { printf("%d ", i); fflush(stdout); }
  }
  printf("released; "); fflush(stdout);
  
  clReleaseMemObject(w); clReleaseKernel(k); clReleaseProgram(pr); clReleaseCommandQueue(q); clReleaseContext(c);
  printf("ok\n");
  return 0;
}
