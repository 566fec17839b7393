/* OpenCL platforms and devices: selection across platforms, fp64 check,
 * error mapping. */
#include <stdlib.h>
#include <string.h>

#include "backend/opencl/opencl.h"

pscr_status ocl_status(cl_int err) {
  switch (err) {
  case CL_SUCCESS: return PSCR_OK;
  case CL_MEM_OBJECT_ALLOCATION_FAILURE:
  case CL_OUT_OF_RESOURCES:
  case CL_OUT_OF_HOST_MEMORY:
  case CL_INVALID_BUFFER_SIZE: return PSCR_ERR_OUT_OF_MEMORY;
  default: return PSCR_ERR_DEVICE;
  }
}

/* 1 if the platform's name contains $PSCR_OPENCL_PLATFORM (or it is unset). */
static int platform_wanted(cl_platform_id p) {
  const char *want = getenv("PSCR_OPENCL_PLATFORM");
  if (want == NULL || want[0] == '\0') return 1;
  char name[256] = {0};
  if (clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name - 1, name, NULL) != CL_SUCCESS) return 0;
  return strstr(name, want) != NULL;
}

static int device_has_fp64(cl_device_id dev) {
  size_t len = 0;
  if (clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, 0, NULL, &len) != CL_SUCCESS || len == 0) return 0;
  char *ext = malloc(len + 1);
  if (ext == NULL) return 0;
  int ok = clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, len, ext, NULL) == CL_SUCCESS;
  ext[len] = '\0';
  ok = ok && strstr(ext, "cl_khr_fp64") != NULL;
  free(ext);
  return ok;
}

/* Calls visit(device) for every device of every wanted platform, in order,
 * until it returns nonzero. @return that value, or 0. */
typedef int (*device_visitor)(cl_platform_id p, cl_device_id d, void *arg);
static int for_each_device(device_visitor visit, void *arg) {
  cl_uint np = 0;
  if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) return 0;
  cl_platform_id *plats = malloc(np * sizeof *plats);
  if (plats == NULL) return 0;
  int result = 0;
  if (clGetPlatformIDs(np, plats, NULL) != CL_SUCCESS) goto cleanup;
  for (cl_uint p = 0; p < np && result == 0; p++) {
    if (!platform_wanted(plats[p])) continue;
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
      continue;
    cl_device_id *devs = malloc(nd * sizeof *devs);
    if (devs == NULL) break;
    if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, nd, devs, NULL) == CL_SUCCESS)
      for (cl_uint d = 0; d < nd && result == 0; d++) result = visit(plats[p], devs[d], arg);
    free(devs);
  }
cleanup:
  free(plats);
  return result;
}

static int count_fp64(cl_platform_id p, cl_device_id d, void *arg) {
  (void)p;
  *(int *)arg += device_has_fp64(d);
  return 0;
}

int ocl_count_fp64_devices(void) {
  int count = 0;
  for_each_device(count_fp64, &count);
  return count;
}

typedef struct {
  int index;
  cl_platform_id platform;
  cl_device_id device;
} find_arg;

static int find_index(cl_platform_id p, cl_device_id d, void *arg) {
  find_arg *f = arg;
  if (f->index-- != 0) return 0;
  f->platform = p;
  f->device = d;
  return 1;
}

pscr_status ocl_find_device(int index, cl_platform_id *platform, cl_device_id *device, int *fp64) {
  find_arg f = {.index = index};
  if (index < 0 || !for_each_device(find_index, &f)) return PSCR_ERR_BACKEND_UNAVAILABLE;
  *platform = f.platform;
  *device = f.device;
  *fp64 = device_has_fp64(f.device);
  return PSCR_OK;
}
