/* Internal: the OpenCL tridiagonal operations of the backend table. */
#ifndef PSCR_BACKEND_OPENCL_TRIDIAG_H
#define PSCR_BACKEND_OPENCL_TRIDIAG_H

#include "backend/opencl/opencl.h"

pscr_status ocl_tridiag(pscr_context *ctx, const pscr_td_request *req, pscr_td_report *rep);
pscr_status ocl_tridiag_shifted(pscr_context *ctx, const pscr_td_shifted_request *req,
                                pscr_td_report *rep);
/* The shared GPU device interface over this context (backend table `gpu`). */
struct gpu_device;
pscr_status ocl_gpu_device(pscr_context *ctx, struct gpu_device *g);
/* Waits until the queue has run all it holds, as a solve's status read does:
 * the status words' read into pinned memory without blocking, a flush and a
 * spin of up to tune.wait_spin us until they land, else clFinish (NVIDIA's
 * sleeps and wakes 14-23 us late; CUDA's synchronize spins). words (NULL or
 * GPU_TD_FLAG_WORDS): the words read. Before the first solve (no status words): clFinish. */
cl_int ocl_queue_wait(ocl_state *s, cl_int *words);
/* Releases the solve buffers (work, status words). */
void ocl_tridiag_free(ocl_state *s);

#endif
