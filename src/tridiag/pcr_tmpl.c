/* PLACEHOLDER: replaced by the real implementation (helper in progress). */
#include "core/scalar.h"
#include "tridiag/td.h"

pscr_status FN(td_pcr)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl) {
  (void)n; (void)dl; (void)d; (void)du; (void)b; (void)ctl;
  return PSCR_ERR_UNSUPPORTED;
}
