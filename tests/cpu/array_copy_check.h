/* pscr_array_copy on any backend, shared by the cpu, cuda and opencl tests:
 * the copy is dst's new contents bit for bit and src keeps its own; a copy onto
 * itself changes nothing; NULL, another dtype, another count or another
 * context's array is refused and dst keeps what it held. */
#ifndef PSCR_TESTS_ARRAY_COPY_CHECK_H
#define PSCR_TESTS_ARRAY_COPY_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "testing.h"

/* dst must read back as want (count elements of t). */
static int ac_holds(const pscr_array *dst, pscr_dtype t, size_t count, const void *want) {
  void *back = pt_alloc(t, count);
  int ok = pscr_array_read(dst, back) == PSCR_OK && pt_equal_bytes(back, want, count * pt_size(t));
  free(back);
  return ok;
}

static void pt_check_array_copy(pscr_context *ctx, pt_rng *r) {
  static const size_t counts[] = {1, 17, 4099};
  for (int t = 0; t < 2; t++)
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
      pscr_dtype dt = (pscr_dtype)t;
      size_t n = counts[k];
      void *hs = pt_alloc(dt, n), *hd = pt_alloc(dt, n);
      pt_fill_uniform(r, dt, hs, n, -1, 1);
      pt_fill_uniform(r, dt, hd, n, 2, 3);
      pscr_array *src = NULL, *dst = NULL, *other_t = NULL, *other_n = NULL;
      PT_CHECK_STATUS(pscr_array_create(ctx, dt, n, &src), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_create(ctx, dt, n, &dst), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_create(ctx, t ? PSCR_F64 : PSCR_C128, n, &other_t), PSCR_OK);
      PT_CHECK_STATUS(pscr_array_create(ctx, dt, n + 1, &other_n), PSCR_OK);
      if (src && dst && other_t && other_n) {
        PT_CHECK_STATUS(pscr_array_write(src, hs), PSCR_OK);
        PT_CHECK_STATUS(pscr_array_write(dst, hd), PSCR_OK);
        PT_CHECK_STATUS(pscr_array_copy(NULL, src), PSCR_ERR_INVALID_ARGUMENT);
        PT_CHECK_STATUS(pscr_array_copy(dst, NULL), PSCR_ERR_INVALID_ARGUMENT);
        PT_CHECK_STATUS(pscr_array_copy(dst, other_t), PSCR_ERR_INVALID_ARGUMENT);
        PT_CHECK_STATUS(pscr_array_copy(other_n, src), PSCR_ERR_INVALID_ARGUMENT);
        PT_CHECK(ac_holds(dst, dt, n, hd), "copy refused, dtype %d n %zu: dst changed", t, n);
        PT_CHECK_STATUS(pscr_array_copy(dst, dst), PSCR_OK);
        PT_CHECK(ac_holds(dst, dt, n, hd), "copy onto itself, dtype %d n %zu: changed", t, n);
        PT_CHECK_STATUS(pscr_array_copy(dst, src), PSCR_OK);
        PT_CHECK(ac_holds(dst, dt, n, hs), "copy, dtype %d n %zu: dst is not src", t, n);
        PT_CHECK(ac_holds(src, dt, n, hs), "copy, dtype %d n %zu: src changed", t, n);
      }
      pscr_array_destroy(src), pscr_array_destroy(dst);
      pscr_array_destroy(other_t), pscr_array_destroy(other_n);
      free(hs), free(hd);
    }
  /* another context's array, of the same backend */
  pscr_context *ctx2 = NULL;
  PT_CHECK_STATUS(pscr_context_create(pscr_context_backend(ctx), 0, &ctx2), PSCR_OK);
  pscr_array *a = NULL, *b = NULL;
  double h[3] = {1, 2, 3}, g[3] = {4, 5, 6};
  if (ctx2 && pscr_array_create(ctx, PSCR_F64, 3, &a) == PSCR_OK &&
      pscr_array_create(ctx2, PSCR_F64, 3, &b) == PSCR_OK) {
    PT_CHECK_STATUS(pscr_array_write(a, h), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_write(b, g), PSCR_OK);
    PT_CHECK_STATUS(pscr_array_copy(b, a), PSCR_ERR_INVALID_ARGUMENT);
    PT_CHECK(ac_holds(b, PSCR_F64, 3, g), "copy across contexts: dst changed");
  }
  pscr_array_destroy(a), pscr_array_destroy(b);
  pscr_context_destroy(ctx2);
}

#endif
