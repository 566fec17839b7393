/* The NVIDIA OpenCL platform the probes in this directory run on: 0 if
 * there is none (they then exit 77). */
#ifndef PSCR_OCLREPRO_NVIDIA_H
#define PSCR_OCLREPRO_NVIDIA_H
#include <CL/cl.h>
#include <string.h>

static cl_platform_id nvidia_platform(void) {
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
#endif
