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

static int row_finite(size_t n, size_t i, const T *dl, const T *d, const T *du) {
  return S_ISFINITE(d[i]) && (i == 0 || S_ISFINITE(dl[i])) && (i + 1 == n || S_ISFINITE(du[i]));
}

int FN(td_scan)(size_t n, size_t batch, size_t stride, const T *dl, const T *d, const T *du,
                int threads, int *dominant) {
  int finite = 1, dom = 1;
  long long nb = (long long)batch;
  (void)threads;
#pragma omp parallel for num_threads(threads) if (threads > 1 && n * batch > 65536)            \
    reduction(&& : finite, dom) schedule(static)
  for (long long s = 0; s < nb; s++) {
    const T *l = dl + s * stride, *m = d + s * stride, *u = du + s * stride;
    for (size_t i = 0; i < n; i++) {
      finite = finite && row_finite(n, i, l, m, u);
      R off = (i > 0 ? S_ABS1(l[i]) : 0) + (i + 1 < n ? S_ABS1(u[i]) : 0);
      dom = dom && S_ABS(m[i]) > off;
    }
  }
  if (dominant) *dominant = finite && dom;
  return finite;
}
