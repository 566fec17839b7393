/* OpenCL tridiagonal solves: waiting on the single-source kernels of
 * kernels/common (issue 6); until then every request is UNSUPPORTED. */
#include "backend/opencl/opencl.h"
#include "backend/opencl/opencl_tridiag.h"

pscr_status ocl_tridiag(pscr_context *ctx, const pscr_td_request *req, pscr_td_report *rep) {
  (void)ctx, (void)req, (void)rep;
  return PSCR_ERR_UNSUPPORTED;
}

pscr_status ocl_tridiag_shifted(pscr_context *ctx, const pscr_td_shifted_request *req,
                                pscr_td_report *rep) {
  (void)ctx, (void)req, (void)rep;
  return PSCR_ERR_UNSUPPORTED;
}
