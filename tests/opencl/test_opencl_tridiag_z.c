/* OpenCL tridiagonal solvers, PSCR_C128: see opencl_td_check.h. */
#include "opencl_td_check.h"

int main(void) { return td_check_main(PSCR_C128, "opencl_tridiag_z"); }
