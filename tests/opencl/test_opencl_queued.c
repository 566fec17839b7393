/* Queued solves on the opencl backend: the checks of queued_check.h (exits 77 without a device). */
#include "../cpu/queued_check.h"
#include "opencl_lsan.h"

int main(void) { return queued_main(PSCR_BACKEND_OPENCL, "opencl_queued"); }
