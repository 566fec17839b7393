/* Internal to the collection generators (collections*.c): real generators
 * that need more than a line, shared between the two files. */
#ifndef PSCR_TESTING_COLLECTIONS_IMPL_H
#define PSCR_TESTING_COLLECTIONS_IMPL_H

#include "collections.h"
#include "testing.h"

/* gallery('randsvd', n, kappa, mode, 1, 1) substitute (collections_special.c). */
pscr_status ptc_randsvd(size_t n, double kappa, int mode, pt_rng *r, double *dl, double *d,
                        double *du);
/* Seed 000 #21 (collections_special.c). */
void ptc_legendre(size_t n, double *dl, double *d, double *du);
/* Block k of a singular-block matrix: rows [k*block, min(n, (k+1)*block)). */
pscr_status ptc_singular_random_block(size_t m, pt_rng *r, double *d, double *e);

#endif
