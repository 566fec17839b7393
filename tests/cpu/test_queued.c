/* Queued solves on the cpu backend: the checks of queued_check.h (solved at once, failures kept for the finish). */
#include "queued_check.h"

int main(void) { return queued_main(PSCR_BACKEND_CPU, "queued"); }
