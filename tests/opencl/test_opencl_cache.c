/* The on-disk program cache (PSCR_CACHE_DIR, pscr-*.clbin): pt_check_disk_cache
 * (src/testing/cache_check.c); on PoCL in CI. Skipped (77) without an OpenCL
 * device. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdlib.h>

#include "testing.h"

int main(void) {
  if (!pscr_backend_available(PSCR_BACKEND_OPENCL)) return PT_SKIP;
  setenv("PSCR_OPENCL_CACHE_ANY", "1", 1); /* PoCL's programs too */
  pt_check_disk_cache(PSCR_BACKEND_OPENCL, "clbin");
  return pt_exit("opencl_cache");
}
