#ifndef PSCR_CORE_TIMER_H
#define PSCR_CORE_TIMER_H
#include <time.h>
/* Wall-clock seconds (monotonic). */
static inline double pscr_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif
