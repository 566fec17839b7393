/* One O(n) pass over the matrix data: every entry finite? strictly dominant?
 * The ignored corners dl[s*stride] and du[s*stride + n-1] are not read. */
#include "core/scalar.h"
#include "core/threads.h"
#include "tridiag/td.h"

int FN(td_strictly_dominant)(size_t n, const T *dl, const T *d, const T *du) {
  for (size_t i = 0; i < n; i++) {
    R off = (i > 0 ? S_ABS1(dl[i]) : 0) + (i + 1 < n ? S_ABS1(du[i]) : 0);
    if (!(S_ABS(d[i]) > off)) return 0;
  }
  return 1;
}

/* |d| <= off without a square root (complex: |d|^2 <= off^2; an overflow of
 * off^2 only denies the proof, which is safe). */
#if PSCR_Z
#define SC_NOTDOM(x, off) !(creal(x) * creal(x) + cimag(x) * cimag(x) > (off) * (off))
#else
#define SC_NOTDOM(x, off) !(fabs(x) > (off))
#endif

/* Rows lo..hi-1 of one system of order n: bit 0 = a non-finite entry, bit 1 =
 * a row not strictly dominant (only with want_dom). */
static int FN(scan_rows)(size_t n, size_t lo, size_t hi, const T *l, const T *m, const T *u,
                         int want_dom) {
  int bad = 0, notdom = 0;
  for (size_t i = lo; i < hi; i++) {
    int first = i == 0, last = i + 1 == n;
    T li = first ? 0 : l[i], ui = last ? 0 : u[i];
    bad |= !S_ISFINITE(m[i]) | !S_ISFINITE(li) | !S_ISFINITE(ui);
    if (want_dom) notdom |= SC_NOTDOM(m[i], S_ABS1(li) + S_ABS1(ui));
  }
  return (bad != 0) | (notdom != 0) << 1;
}

int FN(td_scan)(size_t n, size_t batch, size_t stride, const T *dl, const T *d, const T *du,
                int threads, int *dominant) {
  int flags = 0, want = dominant != NULL;
  if (batch == 1) { /* one system: its rows split among the threads */
    long long nb = (long long)((n + 65535) / 65536);
#pragma omp parallel for num_threads(threads) if (threads > 1 && nb > 1) reduction(| : flags)    \
    schedule(static)
    for (long long q = 0; q < nb; q++) {
      size_t lo = (size_t)q * 65536, hi = lo + 65536 < n ? lo + 65536 : n;
      flags |= FN(scan_rows)(n, lo, hi, dl, d, du, want);
    }
  } else {
    long long nb = (long long)batch;
#pragma omp parallel for num_threads(threads) if (threads > 1 && n * batch > 65536)            \
    reduction(| : flags) schedule(static)
    for (long long s = 0; s < nb; s++)
      flags |= FN(scan_rows)(n, 0, n, dl + s * stride, d + s * stride, du + s * stride, want);
  }
  if (dominant) *dominant = flags == 0;
  return !(flags & 1);
}
