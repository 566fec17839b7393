/* CPU PSCR stages (seed 003 section 4.3): shared by cpu_pscr_inner_tmpl.c
 * (the fused innermost stages) and cpu_pscr_tmpl.c (the others). Include
 * after defining PSCR_Z (a *_tmpl.c file). */
#ifndef PSCR_BACKEND_CPU_PSCR_H
#define PSCR_BACKEND_CPU_PSCR_H

#include "core/scalar.h"
#include "pscr/pscr_internal.h"

/* Shifted systems solved together, interleaved so the compiler vectorizes
 * across systems (the Thomas recurrences are sequential within one). */
#define PSCR_CPU_V PSCR_INNER_LANES

/* Complex products and magnitudes without C99 Annex G's NaN recovery calls:
 * the hot loops stay inline and vectorizable. */
#if PSCR_Z
#define SMUL(a, b)                                                                                 \
  CMPLX(creal(a) * creal(b) - cimag(a) * cimag(b), creal(a) * cimag(b) + cimag(a) * creal(b))
#define SNORM1(a) (fabs(creal(a)) + fabs(cimag(a)))
#else
#define SMUL(a, b) ((a) * (b))
#define SNORM1(a) fabs(a)
#endif

/* y (=, or -= when subtract) (alpha Mb + beta Ab) v on rows r0..r1-1 of the
 * kron's first dimension (elements for one dimension); scr: 6 * n[1] scalars. */
void FN(cpu_pscr_kron)(const pscr_kron *k, T alpha, T beta, const T *v, T *y, size_t r0, size_t r1,
                       int subtract, T *scr);

pscr_status FN(cpu_stage_11_td_12a)(const pscr_stage_args *a);
pscr_status FN(cpu_stage_21_td_22a)(const pscr_stage_args *a);
size_t FN(cpu_pscr_inner_scratch)(size_t n_last, size_t max_nd);

#endif
