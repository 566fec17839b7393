/* One system streamed through the OpenCL device in chunks
 * (src/tridiag/chunked.c): the checks of chunked_check.h with n = 10^5 and
 * 99999, ~100 chunks of ~1000 rows, the collections at n = 5000 in chunks of
 * 512. PoCL in CI. Exits 77 without an OpenCL platform with an fp64 device. */
#include "chunked_check.h"
#include "opencl_lsan.h"

int main(void) {
  if (!pscr_backend_available(PSCR_BACKEND_OPENCL)) return PT_SKIP;
  pscr_context *ctx = NULL;
  if (pscr_context_create(PSCR_BACKEND_OPENCL, 0, &ctx) != PSCR_OK) return PT_SKIP;
  const chunk_sizes sz = {.n = 100000, .rows = 1000, .n_coll = 5000, .rows_coll = 512};
  int rc = chunked_main(ctx, &sz, "opencl_chunked");
  pscr_context_destroy(ctx);
  return rc;
}
