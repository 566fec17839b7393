/* The on-disk module cache (PSCR_CACHE_DIR): a solve stores its module's
 * CUBIN there, a new context loads it and solves bit for bit alike, a
 * damaged file is compiled again and replaced, and a directory that cannot
 * be written leaves solves working. Skipped (77) without a CUDA device. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkdtemp, dirent */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testing.h"

enum { N = 1000, BATCH = 3, MAX_FILES = 16 };

/* The cache's files (pscr-*.cubin) in dir: their count and sizes. */
static int cache_files(const char *dir, char names[][512], long *sizes) {
  DIR *d = opendir(dir);
  int k = 0;
  for (struct dirent *e; d && (e = readdir(d)) != NULL && k < MAX_FILES;) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "pscr-", 5) != 0 || len < 6 || strcmp(e->d_name + len - 6, ".cubin"))
      continue;
    snprintf(names[k], 512, "%s/%s", dir, e->d_name);
    FILE *f = fopen(names[k], "rb");
    sizes[k] = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (f) fclose(f);
    k++;
  }
  if (d) closedir(d);
  return k;
}

/* One CR_PCR_THOMAS batch on a new CUDA context (its modules come from the
 * cache or NVRTC). */
static pscr_status solve(const double *dl, const double *d, const double *du, const double *b,
                         double *x) {
  pscr_context *g = NULL;
  pscr_status st = pscr_context_create(PSCR_BACKEND_CUDA, 0, &g);
  memcpy(x, b, sizeof(double) * N * BATCH);
  if (st == PSCR_OK)
    st = pscr_tridiag_solve(g, PSCR_TD_CR_PCR_THOMAS, PSCR_F64, N, BATCH, N, dl, d, du, x, NULL);
  pscr_context_destroy(g);
  return st;
}

int main(void) {
  if (!pscr_backend_available(PSCR_BACKEND_CUDA)) return PT_SKIP;
  pt_rng rng;
  pt_rng_seed(&rng, pt_fresh_seed());
  size_t count = (size_t)N * BATCH;
  double *dl = pt_alloc(PSCR_F64, count), *d = pt_alloc(PSCR_F64, count);
  double *du = pt_alloc(PSCR_F64, count), *b = pt_alloc(PSCR_F64, count);
  double *x0 = pt_alloc(PSCR_F64, count), *x = pt_alloc(PSCR_F64, count);
  pt_fill_dominant(&rng, PSCR_F64, N, BATCH, N, dl, d, du, 0.5);
  pt_fill_uniform(&rng, PSCR_F64, b, count, -1, 1);
  char dir[] = "/tmp/pscr-cache-test-XXXXXX", names[MAX_FILES][512];
  long sizes[MAX_FILES];
  PT_CHECK(mkdtemp(dir) != NULL, "mkdtemp failed");
  setenv("PSCR_CACHE_DIR", dir, 1);

  /* 1. compiled, stored */
  PT_CHECK_STATUS(solve(dl, d, du, b, x0), PSCR_OK);
  int files = cache_files(dir, names, sizes);
  PT_CHECK(files >= 1, "no module stored in %s", dir);
  for (int i = 0; i < files; i++) PT_CHECK(sizes[i] > 1024, "%s: %ld bytes", names[i], sizes[i]);

  /* 2. loaded: the same solution, no new file */
  PT_CHECK_STATUS(solve(dl, d, du, b, x), PSCR_OK);
  PT_CHECK(pt_equal_bytes(x, x0, count * sizeof(double)), "cached module: another solution");
  PT_CHECK(cache_files(dir, names, sizes) == files, "a cached module was stored again");

  /* 3. damaged files: compiled again and replaced */
  for (int i = 0; i < files; i++) {
    FILE *f = fopen(names[i], "wb");
    PT_CHECK(f != NULL && fwrite("not a cubin", 1, 11, f) == 11, "cannot damage %s", names[i]);
    if (f) fclose(f);
  }
  PT_CHECK_STATUS(solve(dl, d, du, b, x), PSCR_OK);
  PT_CHECK(pt_equal_bytes(x, x0, count * sizeof(double)), "after a damaged file: another solution");
  PT_CHECK(cache_files(dir, names, sizes) == files, "damaged files: %d files", files);
  for (int i = 0; i < files; i++) PT_CHECK(sizes[i] > 1024, "%s not replaced", names[i]);

  /* 4. a directory that cannot be written: solves as without the cache */
  setenv("PSCR_CACHE_DIR", "/nonexistent/pscr-cache", 1);
  PT_CHECK_STATUS(solve(dl, d, du, b, x), PSCR_OK);
  PT_CHECK(pt_equal_bytes(x, x0, count * sizeof(double)), "unwritable cache: another solution");

  for (int i = cache_files(dir, names, sizes) - 1; i >= 0; i--) remove(names[i]);
  rmdir(dir);
  free(dl), free(d), free(du), free(b), free(x0), free(x);
  return pt_exit("cuda_cache");
}
