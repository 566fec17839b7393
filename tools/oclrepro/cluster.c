/* Does NVIDIA's OpenCL launch thread-block clusters (sm_90) when the
 * program's PTX declares them? OpenCL has no launch attribute for a cluster,
 * but PTX has a compile-time one, .reqnctapercluster, which CUDA's driver
 * honours at any launch. Builds a kernel that reads its neighbour group's
 * local memory (mapa + ld.shared::cluster, as td.cu's TD_CLUSTER_LD_D) from
 * source, prints the PTX's .version/.target and entry line, adds the
 * directive to the entry (as gpu_bounds.c adds .maxntid) and builds that;
 * then runs it and checks every group's rank and the value it read.
 * H200, driver 580.159.04: the patched PTX builds and runs, but every group
 * reads %cluster_nctarank 1: the driver launches no clusters from OpenCL, so
 * td_reg_clu stays CUDA's (opencl_coverage.h).
 * Exit 77 without an NVIDIA platform, 1 if the check fails.
 * cc -O2 cluster.c -lOpenCL && ./a.out */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia.h"

static const char *src =
    "__kernel void k(__global int *out) {\n"
    "  __local int s[512];\n"
    "  uint rank, nr, a; int v;\n"
    "  __asm__ volatile(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(rank));\n"
    "  __asm__ volatile(\"mov.u32 %0, %%cluster_nctarank;\" : \"=r\"(nr));\n"
    "  s[get_local_id(0)] = (int)(get_group_id(0) * 1000 + get_local_id(0));\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  __asm__ volatile(\"barrier.cluster.arrive.release.aligned;\" ::: \"memory\");\n"
    "  __asm__ volatile(\"barrier.cluster.wait.acquire.aligned;\" ::: \"memory\");\n"
    "  __asm__ volatile(\"mapa.shared::cluster.u32 %0, %1, %2;\" : \"=r\"(a)\n"
    "                   : \"r\"((uint)(size_t)&s[get_local_id(0)]), \"r\"((rank + 1) % nr));\n"
    "  __asm__ volatile(\"ld.shared::cluster.s32 %0, [%1];\" : \"=r\"(v) : \"r\"(a)\n"
    "                   : \"memory\");\n"
    "  __asm__ volatile(\"barrier.cluster.arrive.release.aligned;\" ::: \"memory\");\n"
    "  __asm__ volatile(\"barrier.cluster.wait.acquire.aligned;\" ::: \"memory\");\n"
    "  size_t g = get_global_id(0);\n"
    "  out[3 * g] = (int)rank; out[3 * g + 1] = (int)nr; out[3 * g + 2] = v;\n"
    "}\n";

/* ptx with "\n.reqnctapercluster N, 1, 1" after the entry's parameter list */
static char *patch(const char *ptx, int n) {
  const char *e = strstr(ptx, ".entry k("), *rp = e ? strchr(e, ')') : NULL;
  if (!rp) return NULL;
  size_t len = strlen(ptx), at = (size_t)(rp + 1 - ptx);
  char *out = malloc(len + 64);
  memcpy(out, ptx, at);
  int k = sprintf(out + at, "\n.reqnctapercluster %d, 1, 1", n);
  memcpy(out + at + k, ptx + at, len - at + 1);
  return out;
}

static int run(cl_context c, cl_device_id d, cl_program pr, int n, size_t groups, size_t wg) {
  cl_int e;
  cl_kernel k = clCreateKernel(pr, "k", &e);
  if (e != CL_SUCCESS) return printf("  kernel: %d\n", e), 1;
  size_t items = groups * wg;
  cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 3 * items * sizeof(int), NULL, &e);
  clSetKernelArg(k, 0, sizeof m, &m);
  cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
  e = clEnqueueNDRangeKernel(q, k, 1, NULL, &items, &wg, 0, NULL, NULL);
  if (e != CL_SUCCESS) return printf("  enqueue: %d\n", e), 1;
  int *h = malloc(3 * items * sizeof(int));
  e = clEnqueueReadBuffer(q, m, CL_TRUE, 0, 3 * items * sizeof(int), h, 0, NULL, NULL);
  if (e != CL_SUCCESS) return printf("  read: %d\n", e), 1;
  int bad = 0;
  for (size_t g = 0; g < items; g++) {
    size_t grp = g / wg, lid = g % wg, rank = grp % n, nb = grp - rank + (rank + 1) % n;
    int want = (int)(nb * 1000 + lid);
    if (h[3 * g] != (int)rank || h[3 * g + 1] != n || h[3 * g + 2] != want) {
      if (bad++ < 4)
        printf("  item %zu: rank %d nrank %d read %d (want %zu %d %d)\n", g, h[3 * g],
               h[3 * g + 1], h[3 * g + 2], rank, n, want);
    }
  }
  printf("  %zu groups of %zu in clusters of %d: %s (%d wrong)\n", groups, wg, n,
         bad ? "FAILED" : "ok", bad);
  free(h);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clReleaseCommandQueue(q);
  return bad != 0;
}

int main(void) {
  cl_device_id d;
  cl_int e;
  cl_context c = nvidia_context(&d);
  if (!c) return 77;
  cl_program pr = nvidia_program(c, d, src, "-cl-std=CL1.2", "source");
  if (!pr) return 1;
  size_t len = 0;
  clGetProgramInfo(pr, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL);
  char *ptx = calloc(len + 1, 1);
  clGetProgramInfo(pr, CL_PROGRAM_BINARIES, sizeof ptx, &ptx, NULL);
  for (const char *l = ptx; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
    if (!strncmp(l, ".version", 8) || !strncmp(l, ".target", 7) || strstr(l, ".entry"))
      printf("ptx: %.*s\n", (int)(strchr(l, '\n') ? strchr(l, '\n') - l : 80), l);
  int fails = 0;
  printf("unpatched (a cluster of one: rank 0 reads itself)\n");
  fails += run(c, d, pr, 1, 8, 64);
  for (int n = 2; n <= 8; n *= 2) {
    char *p = patch(ptx, n);
    const unsigned char *b = (const unsigned char *)p;
    size_t plen = strlen(p) + 1;
    cl_int bs;
    cl_program pp = clCreateProgramWithBinary(c, 1, &d, &plen, &b, &bs, &e);
    free(p);
    printf("patched, clusters of %d: binary %d/%d\n", n, e, bs);
    if (e != CL_SUCCESS || !nvidia_build(pp, d, "", "  patched")) {
      if (pp) clReleaseProgram(pp);
      fails++;
      continue;
    }
    fails += run(c, d, pp, n, 264 * (size_t)n / 2, 64);
    fails += run(c, d, pp, n, (size_t)n * 4, 512);
    clReleaseProgram(pp);
  }
  return fails != 0;
}
