/* Kernel coverage of the OpenCL tests (issue 6: "a test fails if a kernel has
 * no OpenCL test"): the KERNEL names of kernels/common are read from the
 * embedded sources (pscr_gpu_kernel_names), the launches from the context's
 * counters (pscr_opencl_launch_count). Each test checks the kernels of its
 * family on the context it launched them on: the tridiagonal tests every
 * "td_" kernel, the PSCR test (tests/opencl/test_opencl_pscr.c) every "pscr_"
 * kernel, by calling opencl_check_coverage(ctx, "pscr_"). A kernel of
 * neither family fails the tridiagonal tests, so none goes unchecked.
 * Include after testing.h and backend/opencl/opencl.h. */
#ifndef PSCR_TESTS_OPENCL_COVERAGE_H
#define PSCR_TESTS_OPENCL_COVERAGE_H

#include <string.h>

#define OPENCL_MAX_KERNELS 256

/* The families of kernels/common and the test that launches each. */
static const char *const opencl_families[] = {"td_", "pscr_"};
/* Kernels of a dialect feature OpenCL lacks, absent from OpenCL programs:
 * TD_CLUSTER_* (CUDA's thread-block clusters; their systems take the two
 * passes td_reg_fwd / td_reg_bwd there, which these tests cover). */
static const char *const opencl_cuda_only[] = {"td_reg_clu", "td_reg_clu_s", "td_reg_clu_s128"};

/* Every KERNEL whose name starts with prefix was launched on ctx (and, for
 * prefix "td_", every KERNEL belongs to a family). @return kernels checked. */
static int opencl_check_coverage(pscr_context *ctx, const char *prefix) {
  static char names[OPENCL_MAX_KERNELS][64];
  int count = pscr_gpu_kernel_names(names, OPENCL_MAX_KERNELS), checked = 0;
  PT_CHECK(count > 0 && count <= OPENCL_MAX_KERNELS, "%d KERNEL names in kernels/common", count);
  for (int i = 0; i < count && i < OPENCL_MAX_KERNELS; i++) {
    int family = 0;
    for (size_t f = 0; f < sizeof opencl_families / sizeof *opencl_families; f++)
      family |= strncmp(names[i], opencl_families[f], strlen(opencl_families[f])) == 0;
    if (strcmp(prefix, "td_") == 0)
      PT_CHECK(family, "kernel %s of kernels/common belongs to no tested family", names[i]);
    if (strncmp(names[i], prefix, strlen(prefix)) != 0) continue;
    int cuda_only = 0;
    for (size_t k = 0; k < sizeof opencl_cuda_only / sizeof *opencl_cuda_only; k++)
      cuda_only |= strcmp(names[i], opencl_cuda_only[k]) == 0;
    if (cuda_only) {
      PT_CHECK(pscr_opencl_launch_count(ctx, names[i]) == 0, "CUDA-only %s ran on OpenCL",
               names[i]);
      continue;
    }
    unsigned long launches = pscr_opencl_launch_count(ctx, names[i]);
    PT_CHECK(launches > 0, "kernel %s of kernels/common has no OpenCL test", names[i]);
    fprintf(stderr, "  %-16s %lu launches\n", names[i], launches);
    checked++;
  }
  PT_CHECK(checked > 0, "no kernel of family %s", prefix);
  return checked;
}

#endif
