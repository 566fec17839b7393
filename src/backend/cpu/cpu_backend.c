/* The CPU backend: host memory, algorithms of src/tridiag run in place. */
#include <stdlib.h>
#include <string.h>

#include "backend/cpu/cpu.h"
#include "core/timer.h"

static int cpu_available(void) { return 1; }
static pscr_status cpu_init(pscr_context *ctx, int device_index) {
  (void)ctx;
  (void)device_index;
  return PSCR_OK;
}
static void cpu_fini(pscr_context *ctx) { (void)ctx; }

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

static pscr_status cpu_tridiag(pscr_context *ctx, const pscr_td_request *r, pscr_td_report *rep) {
  double t0 = pscr_wtime();
  pscr_status st =
      r->dtype == PSCR_F64
          ? cpu_tridiag_d(r->alg, r->n, r->batch, r->stride, r->dl->native, r->d->native,
                          r->du->native, r->b->native, ctx->threads, rep)
          : cpu_tridiag_z(r->alg, r->n, r->batch, r->stride, r->dl->native, r->d->native,
                          r->du->native, r->b->native, ctx->threads, rep);
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
    .tridiag = cpu_tridiag,
    .tridiag_shifted = cpu_tridiag_shifted,
};
