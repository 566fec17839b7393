/* OpenMP shims: the library builds and runs single-threaded without OpenMP. */
#ifndef PSCR_CORE_THREADS_H
#define PSCR_CORE_THREADS_H
#if PSCR_HAVE_OPENMP
#include <omp.h>
static inline int pscr_max_threads(void) { return omp_get_max_threads(); }
static inline int pscr_thread_id(void) { return omp_get_thread_num(); }
static inline int pscr_num_threads(void) { return omp_get_num_threads(); }
#else
static inline int pscr_max_threads(void) { return 1; }
static inline int pscr_thread_id(void) { return 0; }
static inline int pscr_num_threads(void) { return 1; }
#endif
/* Threads to use for a request of `requested` (0 = all). */
static inline int pscr_resolve_threads(int requested) {
  int max = pscr_max_threads();
  return (requested <= 0 || requested > max) ? max : requested;
}
#endif
