/* OpenCL tridiagonal solvers, PSCR_F64: see opencl_td_check.h. */
#include "opencl_td_check.h"

int main(void) { return td_check_main(PSCR_F64, "opencl_tridiag_d"); }
