/* Internal entry points of PCR_THOMAS (seed 002) for tests and benchmarks. */
#ifndef PSCR_TRIDIAG_PCR_THOMAS_H
#define PSCR_TRIDIAG_PCR_THOMAS_H

#include "tridiag/td.h"

/* Variants (td_ctl.variant). */
enum {
  TD_PT_DEFAULT = 0,
  TD_PT_OVERLAPPED = 1,  /* P+TO */
  TD_PT_SHUFFLED = 2,    /* SP+T */
  TD_PT_PARTITIONED = 3, /* P+PT */
};

/* td_pcr_thomas with a forced number of PCR levels (levels < 0: the switch
 * point model td_pcr_thomas_levels; levels larger than log2 n are clipped;
 * 0 is plain Thomas). The public entry point reads overrides from the
 * environment, for tuning on a new machine: PSCR_PCR_THOMAS_LEVELS and
 * PSCR_PCR_THOMAS_VARIANT (used when ctl->variant == 0); for P+PT also
 * PSCR_PT_TILE (rows per tile), PSCR_PT_SPLIT (ranges per thread) and
 * PSCR_PT_NT (1: streaming stores at any size, 0: never). */
pscr_status td_pcr_thomas_run_d(size_t n, const double *dl, const double *d, const double *du,
                                double *b, td_ctl *ctl, int levels);
pscr_status td_pcr_thomas_run_z(size_t n, const double complex *dl, const double complex *d,
                                const double complex *du, double complex *b, td_ctl *ctl,
                                int levels);

/* The variant that variant 0 resolves to. */
int td_pcr_thomas_default_variant(void);

#endif
