/* The on-disk module cache (PSCR_CACHE_DIR, pscr-*.cubin): pt_check_disk_cache
 * (src/testing/cache_check.c). Skipped (77) without a CUDA device. */
#include "testing.h"

int main(void) {
  if (!pscr_backend_available(PSCR_BACKEND_CUDA)) return PT_SKIP;
  pt_check_disk_cache(PSCR_BACKEND_CUDA, "cubin");
  return pt_exit("cuda_cache");
}
