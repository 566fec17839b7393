/* Internal: the OpenCL tridiagonal operations of the backend table. */
#ifndef PSCR_BACKEND_OPENCL_TRIDIAG_H
#define PSCR_BACKEND_OPENCL_TRIDIAG_H

#include "core/context.h"

pscr_status ocl_tridiag(pscr_context *ctx, const pscr_td_request *req, pscr_td_report *rep);
pscr_status ocl_tridiag_shifted(pscr_context *ctx, const pscr_td_shifted_request *req,
                                pscr_td_report *rep);

#endif
