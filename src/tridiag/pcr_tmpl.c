/* Parallel cyclic reduction (seed 002 Sec. II): ceil(log2 n) steps with
 * strides 1, 2, 4, ...; each step couples row i to rows i -+ 2k only, so
 * after the last step every row holds one unknown. Any n works: a missing
 * neighbour is the identity row (tridiag/pcr_kernels.h). Rows are kept
 * normalized, ping-ponging between two sets of three arrays (6n scratch). */
#include <stdlib.h>
#include <string.h>

#include "core/scalar.h"
#include "core/threads.h"
#include "tridiag/pcr_kernels.h"
#include "tridiag/td.h"

/* Below this many rows a step is not worth a team of threads. */
#define PCR_PAR_MIN 16384
#define PCR_BLOCK 4096

/* Normalized copy of rows lo..hi-1 of the input. */
static int FN(pcr_load)(size_t n, size_t lo, size_t hi, const T *dl, const T *d, const T *du,
                        const T *b, T *a, T *c, T *y) {
  size_t flo = lo > 1 ? lo : 1, fhi = hi < n - 1 ? hi : n - 1;
  int bad = 0;
  for (size_t i = lo; i < hi && i < flo; i++)
    bad += FN(pk_load_row)(n, i, dl, d, du, b, a + i, c + i, y + i);
  if (flo < fhi) bad += FN(pk_load_rows)(flo, fhi, dl, d, du, b, a + flo, c + flo, y + flo);
  for (size_t i = flo > fhi ? flo : fhi; i < hi; i++)
    bad += FN(pk_load_row)(n, i, dl, d, du, b, a + i, c + i, y + i);
  return bad;
}

/* One step of stride k on rows lo..hi-1: branch-free where both neighbours exist. */
static int FN(pcr_part)(size_t n, size_t k, size_t lo, size_t hi, const T *a, const T *c,
                        const T *y, T *ao, T *co, T *yo) {
  size_t mlo = lo > k ? lo : k, mhi = n > k && hi > n - k ? n - k : hi;
  int bad = 0;
  if (mlo < mhi) {
    bad += FN(pk_step)(mlo, mhi, k, 0, a, c, y, ao, co, yo);
    for (size_t i = lo; i < mlo; i++) bad += FN(pk_step_row)(n, i, k, a, c, y, ao, co, yo);
    for (size_t i = mhi; i < hi; i++) bad += FN(pk_step_row)(n, i, k, a, c, y, ao, co, yo);
  } else {
    for (size_t i = lo; i < hi; i++) bad += FN(pk_step_row)(n, i, k, a, c, y, ao, co, yo);
  }
  return bad;
}

static int FN(pcr_finite)(size_t lo, size_t hi, const T *x) {
  int bad = 0;
  for (size_t i = lo; i < hi; i++) bad += !S_ISFINITE(x[i]);
  return bad;
}

pscr_status FN(td_pcr)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl) {
  int threads = ctl && ctl->threads > 1 ? ctl->threads : 1;
  T *w = td_scratch(ctl, 6 * n * sizeof *w);
  if (w == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  T *set[2][3] = {{w, w + n, w + 2 * n}, {w + 3 * n, w + 4 * n, w + 5 * n}};
  int cur = 0, bad = 0;
  if (threads > 1 && n >= PCR_PAR_MIN) {
    long long nblk = (long long)((n + PCR_BLOCK - 1) / PCR_BLOCK);
#pragma omp parallel num_threads(threads) reduction(+ : bad)
    {
      int c0 = 0;
#pragma omp for schedule(static)
      for (long long q = 0; q < nblk; q++) {
        size_t lo = (size_t)q * PCR_BLOCK, hi = lo + PCR_BLOCK < n ? lo + PCR_BLOCK : n;
        bad += FN(pcr_load)(n, lo, hi, dl, d, du, b, set[0][0], set[0][1], set[0][2]);
      }
      for (size_t k = 1; k < n; k *= 2, c0 ^= 1) {
        T **in = set[c0], **out = set[c0 ^ 1];
#pragma omp for schedule(static)
        for (long long q = 0; q < nblk; q++) {
          size_t lo = (size_t)q * PCR_BLOCK, hi = lo + PCR_BLOCK < n ? lo + PCR_BLOCK : n;
          bad += FN(pcr_part)(n, k, lo, hi, in[0], in[1], in[2], out[0], out[1], out[2]);
        }
      }
#pragma omp for schedule(static)
      for (long long q = 0; q < nblk; q++) {
        size_t lo = (size_t)q * PCR_BLOCK, hi = lo + PCR_BLOCK < n ? lo + PCR_BLOCK : n;
        bad += FN(pcr_finite)(lo, hi, set[c0][2]);
      }
#pragma omp single
      cur = c0;
    }
  } else {
    bad += FN(pcr_load)(n, 0, n, dl, d, du, b, set[0][0], set[0][1], set[0][2]);
    for (size_t k = 1; k < n; k *= 2, cur ^= 1) {
      T **in = set[cur], **out = set[cur ^ 1];
      bad += FN(pcr_part)(n, k, 0, n, in[0], in[1], in[2], out[0], out[1], out[2]);
    }
    bad += FN(pcr_finite)(0, n, set[cur][2]);
  }
  /* Every row is now x_i = y_i (unit diagonal, no neighbours). */
  if (bad == 0) memcpy(b, set[cur][2], n * sizeof *b);
  td_scratch_free(ctl, w);
  return bad ? PSCR_ERR_SINGULAR : PSCR_OK;
}
