/* Force-included under clang (CMakeLists.txt): glibc's <complex.h> defines
 * the C11 CMPLX macro only for GCC >= 4.7, and clang reports GCC 4.2. */
#ifndef PSCR_CORE_CMPLX_COMPAT_H
#define PSCR_CORE_CMPLX_COMPAT_H
#include <complex.h>
#ifndef CMPLX
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#endif
#endif
