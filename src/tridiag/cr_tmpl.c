/* Odd-even (cyclic) reduction, seed 004 Algorithms 1-2, for any n >= 1.
 *
 * With normalized rows (tridiag/pcr_kernels.h), at stride s the active rows
 * are i = s-1, 2s-1, 3s-1, ... (0-based). Forward reduction: every other
 * active row, i = 2s-1 + 2s m, eliminates its neighbours i -+ s (the
 * PCR step of pcr_kernels.h, written in place since the neighbours are not
 * updated in that step); a neighbour past either end is the identity row.
 * When one active row is left (2s > n) it reads x = y. Back substitution,
 * stride s from coarse to fine: x_i = y_i - a_i x_{i-s} - c_i x_{i+s} for
 * the rows i = s-1 + 2s m eliminated at stride s. 3n scratch, x overwrites y. */
#include <stdlib.h>
#include <string.h>

#include "core/scalar.h"
#include "core/threads.h"
#include "tridiag/pcr_kernels.h"
#include "tridiag/td.h"

/* A level with fewer rows than this runs on one thread. */
#define CR_PAR_MIN 16384

/* Reduction of rows i = first + 2s m, m in [m0, m1). */
static int FN(cr_reduce)(size_t n, size_t s, size_t m0, size_t m1, T *a, T *c, T *y) {
  int bad = 0;
  for (size_t m = m0; m < m1; m++) {
    size_t i = 2 * s - 1 + 2 * s * m;
    int rgt = i + s < n;
    T ar = rgt ? a[i + s] : 0, cr = rgt ? c[i + s] : 0, yr = rgt ? y[i + s] : 0;
    T piv = 1 - PK_MUL(a[i], c[i - s]) - PK_MUL(c[i], ar);
    T r = PK_RECIP(piv);
    bad += PK_BAD(piv);
    T an = -PK_MUL(PK_MUL(a[i], a[i - s]), r), cn = -PK_MUL(PK_MUL(c[i], cr), r);
    y[i] = PK_MUL(y[i] - PK_MUL(a[i], y[i - s]) - PK_MUL(c[i], yr), r);
    a[i] = PK_FLUSH(an);
    c[i] = PK_FLUSH(cn);
  }
  return bad;
}

/* Back substitution of rows i = s-1 + 2s m, m in [m0, m1); x lives in y. */
static int FN(cr_back)(size_t n, size_t s, size_t m0, size_t m1, const T *a, const T *c, T *y) {
  int bad = 0;
  for (size_t m = m0; m < m1; m++) {
    size_t i = s - 1 + 2 * s * m;
    T xl = i >= s ? y[i - s] : 0, xr = i + s < n ? y[i + s] : 0;
    y[i] = y[i] - PK_MUL(a[i], xl) - PK_MUL(c[i], xr);
    bad += !S_ISFINITE(y[i]);
  }
  return bad;
}

pscr_status FN(td_cr)(size_t n, const T *dl, const T *d, const T *du, T *b, td_ctl *ctl) {
  int threads = ctl && ctl->threads > 1 ? ctl->threads : 1;
  T *w = td_scratch(ctl, 3 * n * sizeof *w);
  if (w == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  T *a = w, *c = w + n, *y = w + 2 * n;
  int bad = 0;
  for (size_t i = 0; i < n; i++) bad += FN(pk_load_row)(n, i, dl, d, du, b, a + i, c + i, y + i);
  size_t s = 1;
  for (; 2 * s <= n; s *= 2) { /* rows 2s-1, 4s-1, ... < n */
    size_t cnt = (n - (2 * s - 1) + 2 * s - 1) / (2 * s);
    if (threads > 1 && cnt >= CR_PAR_MIN) {
      long long nc = (long long)cnt;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : bad)
      for (long long q = 0; q < nc; q += 1024)
        bad += FN(cr_reduce)(n, s, (size_t)q, (size_t)(q + 1024 < nc ? q + 1024 : nc), a, c, y);
    } else {
      bad += FN(cr_reduce)(n, s, 0, cnt, a, c, y);
    }
  }
  /* One active row left: s-1, with no neighbours (a = c = 0): x = y. */
  bad += !S_ISFINITE(y[s - 1]);
  for (s /= 2; s >= 1 && bad == 0; s /= 2) { /* rows s-1, 3s-1, ... < n */
    size_t cnt = (n - (s - 1) + 2 * s - 1) / (2 * s);
    if (threads > 1 && cnt >= CR_PAR_MIN) {
      long long nc = (long long)cnt;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : bad)
      for (long long q = 0; q < nc; q += 1024)
        bad += FN(cr_back)(n, s, (size_t)q, (size_t)(q + 1024 < nc ? q + 1024 : nc), a, c, y);
    } else {
      bad += FN(cr_back)(n, s, 0, cnt, a, c, y);
    }
  }
  if (bad == 0) memcpy(b, y, n * sizeof *b);
  td_scratch_free(ctl, w);
  return bad ? PSCR_ERR_SINGULAR : PSCR_OK;
}
