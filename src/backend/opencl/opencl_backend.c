/* The opencl backend: not implemented yet, so it answers "not available". */
#include "core/context.h"

static int opencl_available(void) { return 0; }

const struct pscr_backend_ops pscr_opencl_ops = {.name = "opencl", .available = opencl_available};
