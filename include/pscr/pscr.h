/* libpscr umbrella header. */
#ifndef PSCR_PSCR_H
#define PSCR_PSCR_H
#include "core.h"
#include "tridiag.h"
#include "solver.h"
#include "problems.h"
#endif
