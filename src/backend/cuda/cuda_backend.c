/* The cuda backend: not implemented yet, so it answers "not available". */
#include "core/context.h"

static int cuda_available(void) { return 0; }

const struct pscr_backend_ops pscr_cuda_ops = {.name = "cuda", .available = cuda_available};
