/* libFuzzer harness over the public PSCR entry points: any problem (ndim,
 * dtype, sizes, radix, innermost solver, factor values, c) gives a status from
 * pscr_plan_create / pscr_solve, never a crash, a hang or a sanitizer report;
 * the caller's factor arrays are left intact. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pscr/pscr.h>

static pscr_context *ctx;

static double take(const uint8_t **p, size_t *left) {
  double v = 0;
  if (*left >= 8 && (**p & 0xf0) == 0xf0) { /* rarely: raw bits (NaN, Inf, huge, tiny) */
    memcpy(&v, *p, 8);
    *p += 8, *left -= 8;
  } else if (*left > 0) {
    v = (double)(int8_t)**p / 16.0; /* small values: mostly well-posed problems */
    *p += 1, *left -= 1;
  }
  return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (ctx == NULL && pscr_context_create(PSCR_BACKEND_CPU, 0, &ctx) != PSCR_OK) return 0;
  if (size < 8) return 0;
  pscr_problem pb = {.ndim = data[0] % 5, .dtype = (pscr_dtype)(data[1] % 3)};
  pscr_options opt;
  pscr_options_default(&opt);
  opt.radix = data[2] % 7;
  opt.innermost = (pscr_td_algorithm)(data[3] % (PSCR_TD_ALGORITHM_COUNT + 1));
  opt.threads = data[4] % 3;
  int diag_m = data[5], null_arr = data[6];
  size_t n[3] = {data[7] % 20, size > 8 ? data[8] % 20 : 1, size > 9 ? data[9] % 8 : 1};
  const uint8_t *p = data + 8;
  size_t left = size - 8;
  pb.c_re = take(&p, &left), pb.c_im = take(&p, &left);
  size_t e = pb.dtype == PSCR_C128 ? 2 : 1, total = 1;
  double *arr[3][4] = {{NULL}}, *copy[3][4] = {{NULL}};
  for (int d = 0; d < 3; d++) {
    size_t len = (n[d] + 1) * e;
    for (int k = 0; k < 4; k++) {
      arr[d][k] = calloc(len, sizeof(double));
      copy[d][k] = malloc(len * sizeof(double));
      for (size_t i = 0; i < len && arr[d][k]; i++) arr[d][k][i] = take(&p, &left);
      if (k == 2) /* M's diagonal: mostly positive */
        for (size_t i = 0; i < len && arr[d][k] && !(data[1] & 0x80); i += e)
          arr[d][k][i] = 1 + arr[d][k][i] * arr[d][k][i];
      if (copy[d][k] && arr[d][k]) memcpy(copy[d][k], arr[d][k], len * sizeof(double));
    }
    pb.dim[d] = (pscr_factor){n[d], arr[d][0], arr[d][1], arr[d][2],
                              (diag_m >> d) & 1 ? NULL : arr[d][3]};
    if ((null_arr & 0x0f) == 1 + d) pb.dim[d].a_off = NULL; /* rare NULL factor arrays */
    total *= n[d] ? n[d] : 1;
  }
  pscr_plan *plan = NULL;
  pscr_status st = pscr_plan_create(ctx, &pb, &opt, &plan);
  if (pscr_status_string(st) == NULL) abort();
  if ((st == PSCR_OK) != (plan != NULL)) abort();
  if (plan) {
    double *f = calloc(total * e, sizeof(double));
    for (size_t i = 0; f && i < total * e; i++) f[i] = take(&p, &left);
    st = pscr_solve(plan, f);
    if (pscr_status_string(st) == NULL) abort();
    pscr_plan_info info;
    if (pscr_plan_get_info(plan, &info) != PSCR_OK) abort();
    pscr_plan_destroy(plan);
    free(f);
  }
  for (int d = 0; d < 3; d++)
    for (int k = 0; k < 4; k++) {
      if (arr[d][k] && copy[d][k] &&
          memcmp(arr[d][k], copy[d][k], (n[d] + 1) * e * sizeof(double)) != 0)
        abort(); /* the caller's data changed */
      free(arr[d][k]), free(copy[d][k]);
    }
  return 0;
}
