/* The algorithm registry: one table, indexed by pscr_td_algorithm. */
#include "tridiag/td.h"

static const struct {
  const char *name;
  td_fn_d d;
  td_fn_z z;
} registry[PSCR_TD_ALGORITHM_COUNT] = {
    [PSCR_TD_AUTO] = {"auto", NULL, NULL},
    [PSCR_TD_THOMAS] = {"thomas", td_thomas_d, td_thomas_z},
    [PSCR_TD_CR] = {"cr", td_cr_d, td_cr_z},
    [PSCR_TD_PCR] = {"pcr", td_pcr_d, td_pcr_z},
    /* On the CPU the staged GPU engine runs as its multicore cousin. */
    [PSCR_TD_CR_PCR_THOMAS] = {"cr_pcr_thomas", td_pcr_thomas_d, td_pcr_thomas_z},
    [PSCR_TD_PCR_THOMAS] = {"pcr_thomas", td_pcr_thomas_d, td_pcr_thomas_z},
    [PSCR_TD_SPIKE_DIAG_PIVOT] = {"spike_diag_pivot", td_spike_dp_d, td_spike_dp_z},
    [PSCR_TD_GSPIKE] = {"gspike", td_gspike_d, td_gspike_z},
    [PSCR_TD_LAPACK] = {"lapack", td_lapack_d, td_lapack_z},
};

static int known(pscr_td_algorithm alg) { return (unsigned)alg < PSCR_TD_ALGORITHM_COUNT; }

td_fn_d td_lookup_d(pscr_td_algorithm alg) { return known(alg) ? registry[alg].d : NULL; }
td_fn_z td_lookup_z(pscr_td_algorithm alg) { return known(alg) ? registry[alg].z : NULL; }

const char *pscr_td_algorithm_name(pscr_td_algorithm alg) {
  return known(alg) ? registry[alg].name : "unknown";
}
