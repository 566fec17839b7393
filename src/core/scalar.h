/* One body for real and complex scalars (BLIS-style type-generic macros).
 * A file named *_tmpl.c is compiled twice, with PSCR_Z = 0 and PSCR_Z = 1
 * (cmake/PscrSources.cmake); it includes this header and writes its code with
 * T (the scalar), R (its real type), FN(name) (name_d / name_z) and the
 * macros below. Host complex code uses C99 double complex (DESIGN.md). */
#ifndef PSCR_CORE_SCALAR_H
#define PSCR_CORE_SCALAR_H

#include <complex.h>
#include <math.h>

#ifndef PSCR_Z
#error "PSCR_Z must be defined (0: double, 1: double complex)"
#endif

typedef double R;
#if PSCR_Z
typedef double complex T;
#define FN(name) name##_z
#define PSCR_T_DTYPE PSCR_C128
#define S_ABS(x) cabs(x)
/* |re| + |im|: LAPACK's cheap magnitude for pivot comparisons. */
#define S_ABS1(x) (fabs(creal(x)) + fabs(cimag(x)))
#define S_CONJ(x) conj(x)
#define S_REAL(x) creal(x)
#define S_ISFINITE(x) (isfinite(creal(x)) && isfinite(cimag(x)))
#else
typedef double T;
#define FN(name) name##_d
#define PSCR_T_DTYPE PSCR_F64
#define S_ABS(x) fabs(x)
#define S_ABS1(x) fabs(x)
#define S_CONJ(x) (x)
#define S_REAL(x) (x)
#define S_ISFINITE(x) isfinite(x)
#endif

#endif
