/* The CPU backend: host memory, algorithms of src/tridiag run in place. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu.h"
#include "core/timer.h"
#include "tridiag/td.h"

/* The context's scratch pool (td.h): one solve at a time holds it; a solve
 * that finds it taken (another caller thread) allocates its own. */
typedef struct {
  atomic_flag taken;
  td_pool pool;
} cpu_state;

static int cpu_available(void) { return 1; }
static pscr_status cpu_init(pscr_context *ctx, int device_index) {
  (void)device_index;
  cpu_state *s = calloc(1, sizeof *s);
  if (s == NULL) return PSCR_ERR_OUT_OF_MEMORY;
  atomic_flag_clear(&s->taken);
  ctx->impl = s;
  return PSCR_OK;
}
static void cpu_fini(pscr_context *ctx) {
  cpu_state *s = ctx->impl;
  if (s) td_pool_free(&s->pool);
  free(s);
  ctx->impl = NULL;
}

td_pool *cpu_pool_acquire(pscr_context *ctx) {
  cpu_state *s = ctx && ctx->backend == PSCR_BACKEND_CPU ? ctx->impl : NULL;
  return s && !atomic_flag_test_and_set(&s->taken) ? &s->pool : NULL;
}
void cpu_pool_release(pscr_context *ctx, td_pool *pool) {
  if (pool) atomic_flag_clear(&((cpu_state *)ctx->impl)->taken);
}

static pscr_status cpu_alloc(pscr_context *ctx, size_t bytes, void **native) {
  (void)ctx;
  *native = malloc(bytes);
  return *native ? PSCR_OK : PSCR_ERR_OUT_OF_MEMORY;
}
static void cpu_release(pscr_context *ctx, void *native) {
  (void)ctx;
  free(native);
}
static pscr_status cpu_write(pscr_context *ctx, void *native, size_t offset, const void *host,
                             size_t bytes) {
  (void)ctx;
  memcpy((char *)native + offset, host, bytes);
  return PSCR_OK;
}
static pscr_status cpu_read(pscr_context *ctx, const void *native, size_t offset, void *host,
                            size_t bytes) {
  (void)ctx;
  memcpy(host, (const char *)native + offset, bytes);
  return PSCR_OK;
}
static pscr_status cpu_copy(pscr_context *ctx, void *dst, const void *src, size_t bytes) {
  (void)ctx;
  memcpy(dst, src, bytes);
  return PSCR_OK;
}

static pscr_status cpu_tridiag(pscr_context *ctx, const pscr_td_request *r, pscr_td_report *rep) {
  double t0 = pscr_wtime();
  td_pool *pool = cpu_pool_acquire(ctx);
  pscr_status st =
      r->dtype == PSCR_F64
          ? cpu_tridiag_d(r->alg, r->n, r->batch, r->stride, r->dl->native, r->d->native,
                          r->du->native, r->b->native, ctx->threads, pool, rep)
          : cpu_tridiag_z(r->alg, r->n, r->batch, r->stride, r->dl->native, r->d->native,
                          r->du->native, r->b->native, ctx->threads, pool, rep);
  cpu_pool_release(ctx, pool);
  if (rep) rep->seconds = pscr_wtime() - t0;
  return st;
}

static const void *opt_native(const pscr_array *a) { return a ? a->native : NULL; }

static pscr_status cpu_tridiag_shifted(pscr_context *ctx, const pscr_td_shifted_request *r,
                                       pscr_td_report *rep) {
  double t0 = pscr_wtime();
  pscr_status st =
      r->dtype == PSCR_F64
          ? cpu_tridiag_shifted_d(r->alg, r->n, r->nshift, r->a_dl->native, r->a_d->native,
                                  r->a_du->native, opt_native(r->m_dl), r->m_d->native,
                                  opt_native(r->m_du), r->shift->native, r->b->native,
                                  ctx->threads, 1, rep)
          : cpu_tridiag_shifted_z(r->alg, r->n, r->nshift, r->a_dl->native, r->a_d->native,
                                  r->a_du->native, opt_native(r->m_dl), r->m_d->native,
                                  opt_native(r->m_du), r->shift->native, r->b->native,
                                  ctx->threads, 1, rep);
  if (rep) rep->seconds = pscr_wtime() - t0;
  return st;
}

const struct pscr_backend_ops pscr_cpu_ops = {
    .name = "cpu",
    .available = cpu_available,
    .init = cpu_init,
    .fini = cpu_fini,
    .alloc = cpu_alloc,
    .release = cpu_release,
    .write = cpu_write,
    .read = cpu_read,
    .copy = cpu_copy,
    .tridiag = cpu_tridiag,
    .tridiag_shifted = cpu_tridiag_shifted,
};
