/* libFuzzer harness over the public tridiagonal entry points: any bytes give a
 * status, never a crash, a hang or a sanitizer report; on error b is untouched
 * (queued solves: the finish gives a status, and the one after it PSCR_OK;
 * a refused one queues nothing); pscr_array_copy copies or refuses. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pscr/pscr.h>

static pscr_context *ctx;

static double take(const uint8_t **p, size_t *left) {
  double v = 0;
  if (*left >= 8) {
    memcpy(&v, *p, 8);
    *p += 8, *left -= 8;
  } else if (*left > 0) {
    v = (double)(int8_t)**p / 8.0; /* small values make solvable systems */
    *p += 1, *left -= 1;
  }
  return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (ctx == NULL && pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx) != PSCR_OK) return 0;
  if (size < 6) return 0;
  int alg = data[0] % (PSCR_TD_ALGORITHM_COUNT + 1); /* one unknown value too */
  pscr_dtype t = (pscr_dtype)(data[1] % 3);          /* and an unknown dtype */
  size_t n = data[2] % 70, batch = data[3] % 4, stride = n + data[4] % 3;
  int shifted = data[5] & 1, diag_m = data[5] & 2;
  const uint8_t *p = data + 6;
  size_t left = size - 6;
  size_t count = (batch ? batch - 1 : 0) * stride + n + 1, reals = count * 2;
  double *buf[4], *m[3], *shift = calloc(4 * 2, sizeof(double));
  for (int k = 0; k < 4; k++) buf[k] = calloc(reals, sizeof(double));
  for (int k = 0; k < 3; k++) m[k] = calloc(reals, sizeof(double));
  for (size_t i = 0; i < reals; i++)
    for (int k = 0; k < 4; k++) buf[k][i] = take(&p, &left);
  for (size_t i = 0; i < reals; i++)
    for (int k = 0; k < 3; k++) m[k][i] = take(&p, &left);
  for (int i = 0; i < 8; i++) shift[i] = take(&p, &left);
  double *copy = malloc(reals * sizeof(double));
  memcpy(copy, buf[3], reals * sizeof(double));
  pscr_td_report rep;
  pscr_status st;
  if (!shifted && (data[5] & 4)) { /* queued on arrays: b unspecified on a failure */
    pscr_array *a[4] = {NULL};
    for (int k = 0; k < 4; k++)
      if (pscr_array_create(ctx, t, count, &a[k]) == PSCR_OK) pscr_array_write(a[k], buf[k]);
    st = pscr_tridiag_solve_arrays_queued(ctx, (pscr_td_algorithm)alg, t, n, batch, stride, a[0],
                                          a[1], a[2], a[3]);
    pscr_status fin = pscr_context_finish(ctx);
    if (pscr_status_string(fin) == NULL || pscr_context_finish(ctx) != PSCR_OK) abort();
    for (int k = 0; k < 4; k++) pscr_array_destroy(a[k]);
    memcpy(buf[3], copy, reals * sizeof(double));
  } else if (shifted && (data[5] & 4)) { /* on arrays (the CPU keeps b on a failure) */
    pscr_array *a[8] = {NULL};
    const void *h[8] = {buf[0], buf[1], buf[2], m[0], m[1], m[2], shift, buf[3]};
    for (int k = 0; k < 8; k++)
      if ((k != 3 && k != 5) || !diag_m)
        if (pscr_array_create(ctx, t, k == 6 ? 4 : count, &a[k]) == PSCR_OK) pscr_array_write(a[k], h[k]);
    pscr_status fin = PSCR_OK;
    if (data[5] & 8) { /* queued: b unspecified where the finish reports a failure */
      st = pscr_tridiag_solve_shifted_arrays_queued(ctx, (pscr_td_algorithm)alg, t, n, batch, a[0],
                                                    a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
      fin = pscr_context_finish(ctx);
      if (pscr_status_string(fin) == NULL || pscr_context_finish(ctx) != PSCR_OK) abort();
      if (st != PSCR_OK && fin != PSCR_OK) abort(); /* a refused call queues nothing */
    } else
      st = pscr_tridiag_solve_shifted_arrays(ctx, (pscr_td_algorithm)alg, t, n, batch, a[0], a[1],
                                             a[2], a[3], a[4], a[5], a[6], a[7], &rep);
    if (a[7] && fin == PSCR_OK) pscr_array_read(a[7], buf[3]);
    /* pscr_array_copy between two of them: refused unless both exist with one count
     * (a[6] has 4, the others count), and then dst reads back as src */
    int ci = (data[3] >> 2) & 7, cj = (data[3] >> 5) & 7;
    int fits = a[ci] && a[cj] && pscr_array_count(a[ci]) == pscr_array_count(a[cj]);
    pscr_status cs = pscr_array_copy(a[cj], a[ci]);
    if (cs != (fits ? PSCR_OK : PSCR_ERR_INVALID_ARGUMENT)) abort();
    if (fits) {
      size_t len = pscr_array_count(a[ci]) * (t == PSCR_C128 ? 16 : 8);
      char *x = malloc(len), *y = malloc(len);
      if (pscr_array_read(a[ci], x) != PSCR_OK || pscr_array_read(a[cj], y) != PSCR_OK ||
          memcmp(x, y, len) != 0)
        abort();
      free(x), free(y);
    }
    for (int k = 0; k < 8; k++) pscr_array_destroy(a[k]);
  } else if (shifted)
    st = pscr_tridiag_solve_shifted(ctx, (pscr_td_algorithm)alg, t, n, batch, buf[0], buf[1], buf[2],
                                    diag_m ? NULL : m[0], m[1], diag_m ? NULL : m[2], shift,
                                    buf[3], &rep);
  else
    st = pscr_tridiag_solve(ctx, (pscr_td_algorithm)alg, t, n, batch, stride, buf[0], buf[1],
                            buf[2], buf[3], &rep);
  if (st != PSCR_OK && memcmp(copy, buf[3], reals * sizeof(double)) != 0) abort();
  if (pscr_status_string(st) == NULL) abort();
  for (int k = 0; k < 4; k++) free(buf[k]);
  for (int k = 0; k < 3; k++) free(m[k]);
  free(shift);
  free(copy);
  return 0;
}
