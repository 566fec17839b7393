/* Queued solves on the cuda backend: the checks of queued_check.h (exits 77 without a device). */
#include "../cpu/queued_check.h"

int main(void) { return queued_main(PSCR_BACKEND_CUDA, "cuda_queued"); }
