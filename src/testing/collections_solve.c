/* Solver-side helpers of the stability experiments: status names, and a
 * solve through the internal algorithm table with a forced partition count. */
#include "collections.h"
#include "tridiag/td.h"

const char *pt_status_name(pscr_status st) {
  switch (st) {
  case PSCR_OK: return "OK";
  case PSCR_ERR_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
  case PSCR_ERR_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
  case PSCR_ERR_SINGULAR: return "SINGULAR";
  case PSCR_ERR_NONFINITE: return "NONFINITE";
  case PSCR_ERR_NOT_CONVERGED: return "NOT_CONVERGED";
  case PSCR_ERR_UNSUPPORTED: return "UNSUPPORTED";
  case PSCR_ERR_BACKEND_UNAVAILABLE: return "BACKEND_UNAVAILABLE";
  case PSCR_ERR_DEVICE: return "DEVICE";
  case PSCR_ERR_IO: return "IO";
  }
  return "UNKNOWN";
}

pscr_status pt_solve_partitioned(pscr_td_algorithm alg, pscr_dtype t, size_t n, const void *dl,
                                 const void *d, const void *du, void *b, int partitions,
                                 int *partitions_used, int *modified_blocks) {
  if (n == 0 || dl == NULL || d == NULL || du == NULL || b == NULL || partitions < 0)
    return PSCR_ERR_INVALID_ARGUMENT;
  td_ctl ctl = {.threads = 1, .partitions = partitions};
  pscr_status st;
  if (t == PSCR_F64) {
    td_fn_d f = td_lookup_d(alg);
    st = f ? f(n, dl, d, du, b, &ctl) : PSCR_ERR_INVALID_ARGUMENT;
  } else if (t == PSCR_C128) {
    td_fn_z f = td_lookup_z(alg);
    st = f ? f(n, dl, d, du, b, &ctl) : PSCR_ERR_INVALID_ARGUMENT;
  } else {
    st = PSCR_ERR_INVALID_ARGUMENT;
  }
  if (partitions_used) *partitions_used = ctl.partitions;
  if (modified_blocks) *modified_blocks = ctl.modified_blocks;
  return st;
}
