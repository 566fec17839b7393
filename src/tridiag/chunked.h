/* Internal: one tridiagonal system larger than the device, streamed through it
 * in chunks (chunked.c, seed 001 section IV-B). pscr_tridiag_solve takes this
 * path for host data on a device backend, batch == 1, after its host scan. */
#ifndef PSCR_TRIDIAG_CHUNKED_H
#define PSCR_TRIDIAG_CHUNKED_H

#include "core/context.h"

typedef struct {
  pscr_td_algorithm alg; /* the per-chunk solver (AUTO resolved) */
  size_t rows;           /* most rows per chunk */
  int forced;            /* rows from PSCR_TD_CHUNK_ROWS: kept even on OUT_OF_MEMORY */
} td_chunking;

/* Decides whether one system of order n goes through the device in chunks:
 * always when PSCR_TD_CHUNK_ROWS holds a positive row count, else only when
 * its arrays and the solver's scratch would not fit the backend's mem_info
 * budget (no hook: never). dominant: the host scan proved strict row
 * dominance (AUTO then runs CR_PCR_THOMAS, else SPIKE_DIAG_PIVOT).
 * @return 1 and fills *plan to chunk, 0 to solve the system whole. */
int td_chunk_plan(pscr_context *ctx, pscr_td_algorithm alg, pscr_dtype dtype, size_t n,
                  int dominant, td_chunking *plan);

/* Solves one system (host data, finite matrix already checked) in chunks.
 * b is overwritten by x; untouched on SINGULAR / NONFINITE (a NaN or Inf in b
 * is refused) and on OUT_OF_MEMORY. report->partitions is the chunk count. */
pscr_status td_solve_chunked(pscr_context *ctx, const td_chunking *plan, pscr_dtype dtype, size_t n,
                             const void *dl, const void *d, const void *du, void *b,
                             pscr_td_report *report);

#endif
