#include <pscr/core.h>

const char *pscr_status_string(pscr_status status) {
  switch (status) {
  case PSCR_OK: return "success";
  case PSCR_ERR_INVALID_ARGUMENT: return "invalid argument";
  case PSCR_ERR_OUT_OF_MEMORY: return "out of memory";
  case PSCR_ERR_SINGULAR: return "matrix is (numerically) singular";
  case PSCR_ERR_NONFINITE: return "NaN or Inf in the input";
  case PSCR_ERR_NOT_CONVERGED: return "iteration did not converge";
  case PSCR_ERR_UNSUPPORTED: return "request not supported by this build or backend";
  case PSCR_ERR_BACKEND_UNAVAILABLE: return "backend not compiled in or no device";
  case PSCR_ERR_DEVICE: return "device runtime error";
  case PSCR_ERR_IO: return "file unreadable or malformed";
  }
  return "unknown status";
}
