/* CPU tridiagonal driver: input scan, AUTO resolution, batch and shifted loops.
 * The algorithms themselves live in src/tridiag (one system each). */
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu.h"
#include "core/scalar.h"
#include "core/threads.h"
#include "tridiag/td.h"

/* AUTO: THOMAS only when strict dominance is proven, else a pivoting solver
 * (seed 001's diagonal pivoting: backward stable, parallel over partitions). */
static pscr_td_algorithm resolve(pscr_td_algorithm alg, int dominant, size_t n, size_t batch,
                                 int threads) {
  if (alg != PSCR_TD_AUTO) return alg;
  if (!dominant) return PSCR_TD_SPIKE_DIAG_PIVOT;
  return (batch == 1 && threads > 1 && n >= 65536) ? PSCR_TD_PCR_THOMAS : PSCR_TD_THOMAS;
}

pscr_status FN(cpu_tridiag)(pscr_td_algorithm alg, size_t n, size_t batch, size_t stride,
                            const T *dl, const T *d, const T *du, T *b, int threads,
                            td_pool *pool, pscr_td_report *rep) {
  threads = pscr_resolve_threads(threads);
  int dominant = 0;
  /* PCR_THOMAS on one system scans as part of its first pass (a pass fewer) */
  int self_scan = batch == 1 && alg == PSCR_TD_PCR_THOMAS;
  if (!self_scan &&
      !FN(td_scan)(n, batch, stride, dl, d, du, threads, alg == PSCR_TD_AUTO ? &dominant : NULL))
    return PSCR_ERR_NONFINITE;
  alg = resolve(alg, dominant, n, batch, threads);
  FN(td_fn) solve = FN(td_lookup)(alg);
  if (solve == NULL) return PSCR_ERR_INVALID_ARGUMENT;
  if (rep) rep->used = alg;

  if (batch == 1) {
    td_ctl ctl = {.threads = threads, .pool = pool, .unscanned = self_scan};
    pscr_status st = solve(n, dl, d, du, b, &ctl);
    if (rep) {
      rep->partitions = ctl.partitions;
      rep->modified_blocks = ctl.modified_blocks;
    }
    return st;
  }

  /* Batch: solve a contiguous copy so that b stays untouched if any system fails. */
  td_ctl top = {.pool = pool};
  T *x = td_scratch(&top, n * batch * sizeof *x);
  if (x == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  pscr_status st = PSCR_OK;
  int partitions = 0, modified = 0;
  long long nb = (long long)batch;
#pragma omp parallel for num_threads(threads) if (threads > 1) schedule(dynamic, 1)            \
    reduction(+ : modified) reduction(max : partitions)
  for (long long s = 0; s < nb; s++) {
    td_ctl ctl = {.threads = 1};
    memcpy(x + s * n, b + s * stride, n * sizeof *x);
    pscr_status sst = solve(n, dl + s * stride, d + s * stride, du + s * stride, x + s * n, &ctl);
    if (sst != PSCR_OK) {
#pragma omp critical(pscr_cpu_batch_status)
      if (st == PSCR_OK) st = sst;
    }
    modified += ctl.modified_blocks;
    if (ctl.partitions > partitions) partitions = ctl.partitions;
  }
  if (st == PSCR_OK)
    for (size_t s = 0; s < batch; s++) memcpy(b + s * stride, x + s * n, n * sizeof *x);
  if (rep) {
    rep->partitions = partitions;
    rep->modified_blocks = modified;
  }
  td_scratch_free(&top, x);
  return st;
}

pscr_status FN(cpu_tridiag_shifted)(pscr_td_algorithm alg, size_t n, size_t nshift,
                                    const T *a_dl, const T *a_d, const T *a_du, const T *m_dl,
                                    const T *m_d, const T *m_du, const T *shift, T *b,
                                    int threads, int keep_b_on_error, pscr_td_report *rep) {
  threads = pscr_resolve_threads(threads);
  if (!FN(td_scan)(n, 1, n, a_dl, a_d, a_du, 1, NULL) ||
      !FN(td_scan)(n, 1, n, m_dl ? m_dl : m_d, m_d, m_du ? m_du : m_d, 1, NULL))
    return PSCR_ERR_NONFINITE;
  for (size_t s = 0; s < nshift; s++)
    if (!S_ISFINITE(shift[s])) return PSCR_ERR_NONFINITE;
  if (alg != PSCR_TD_AUTO && FN(td_lookup)(alg) == NULL) return PSCR_ERR_INVALID_ARGUMENT;

  /* One system at a time per thread unless there are fewer systems than threads. */
  int inner = nshift >= (size_t)threads ? 1 : threads;
  int outer = inner > 1 ? 1 : threads;
  size_t per_thread = 5 * n; /* dl, d, du of the shifted system + 2n Thomas scratch */
  T *scratch = malloc((size_t)outer * per_thread * sizeof *scratch);
  T *x = keep_b_on_error && nshift > 1 ? malloc(n * nshift * sizeof *x) : NULL;
  if (scratch == NULL || (keep_b_on_error && nshift > 1 && x == NULL)) {
    free(scratch);
    free(x);
    return PSCR_ERR_OUT_OF_MEMORY;
  }
  T *out = x ? x : b;
  if (x) memcpy(x, b, n * nshift * sizeof *x);
  pscr_status st = PSCR_OK;
  int any_pivoting = 0, partitions = 0, modified = 0;
  long long ns = (long long)nshift;
#pragma omp parallel num_threads(outer) if (outer > 1) reduction(|| : any_pivoting)              \
    reduction(+ : modified) reduction(max : partitions)
  {
    T *l = scratch + (size_t)pscr_thread_id() * per_thread, *m = l + n, *u = l + 2 * n;
#pragma omp for schedule(dynamic, 4)
    for (long long s = 0; s < ns; s++) {
      T sh = shift[s];
      for (size_t i = 0; i < n; i++) { /* (A + shift M), formed on the fly */
        l[i] = (i > 0 ? a_dl[i] + sh * (m_dl ? m_dl[i] : 0) : 0);
        m[i] = a_d[i] + sh * m_d[i];
        u[i] = (i + 1 < n ? a_du[i] + sh * (m_du ? m_du[i] : 0) : 0);
      }
      pscr_td_algorithm a = alg;
      if (a == PSCR_TD_AUTO)
        a = FN(td_strictly_dominant)(n, l, m, u) ? PSCR_TD_THOMAS : PSCR_TD_SPIKE_DIAG_PIVOT;
      any_pivoting = any_pivoting || a != PSCR_TD_THOMAS;
      td_ctl ctl = {.threads = inner, .work = l + 3 * n, .work_bytes = 2 * n * sizeof(T)};
      pscr_status sst = FN(td_lookup)(a)(n, l, m, u, out + s * n, &ctl);
      if (sst != PSCR_OK) {
#pragma omp critical(pscr_cpu_shifted_status)
        if (st == PSCR_OK) st = sst;
      }
      modified += ctl.modified_blocks;
      if (ctl.partitions > partitions) partitions = ctl.partitions;
    }
  }
  if (x && st == PSCR_OK) memcpy(b, x, n * nshift * sizeof *x);
  if (rep) {
    rep->used = alg != PSCR_TD_AUTO ? alg
                : any_pivoting      ? PSCR_TD_SPIKE_DIAG_PIVOT
                                    : PSCR_TD_THOMAS;
    rep->partitions = partitions;
    rep->modified_blocks = modified;
  }
  free(scratch);
  free(x);
  return st;
}
