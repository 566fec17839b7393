/* pt_check_disk_cache (testing.h): the checks both GPU backends' cache tests make. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkdtemp, dirent */
#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testing.h"

enum { N = 1000, BATCH = 3, MAX_FILES = 16 };

/* The cache's files (pscr-*.ext) in dir: their count, sizes and inodes (a
 * file written again is a new one: written aside, then renamed). */
static int cache_files(const char *dir, const char *ext, char names[][512], long *sizes,
                       unsigned long *inodes) {
  DIR *d = opendir(dir);
  int k = 0;
  size_t le = strlen(ext);
  for (struct dirent *e; d && (e = readdir(d)) != NULL && k < MAX_FILES;) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "pscr-", 5) != 0 || len < 6 + le || e->d_name[len - le - 1] != '.' ||
        strcmp(e->d_name + len - le, ext) != 0)
      continue;
    snprintf(names[k], 512, "%s/%s", dir, e->d_name);
    struct stat st;
    int ok = stat(names[k], &st) == 0;
    sizes[k] = ok ? (long)st.st_size : -1;
    inodes[k] = ok ? (unsigned long)st.st_ino : 0;
    k++;
  }
  if (d) closedir(d);
  return k;
}

/* One CR_PCR_THOMAS batch on a new context (its programs come from the
 * cache or the compiler). */
static pscr_status solve(pscr_backend bk, const double *dl, const double *d, const double *du,
                         const double *b, double *x) {
  pscr_context *g = NULL;
  pscr_status st = pscr_context_create(bk, 0, &g);
  memcpy(x, b, sizeof(double) * N * BATCH);
  if (st == PSCR_OK)
    st = pscr_tridiag_solve(g, PSCR_TD_CR_PCR_THOMAS, PSCR_F64, N, BATCH, N, dl, d, du, x, NULL);
  pscr_context_destroy(g);
  return st;
}

void pt_check_disk_cache(pscr_backend bk, const char *ext) {
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
  unsigned long inodes[MAX_FILES], first[MAX_FILES];
  PT_CHECK(mkdtemp(dir) != NULL, "mkdtemp failed");
  setenv("PSCR_CACHE_DIR", dir, 1);

  /* 1. compiled, stored */
  PT_CHECK_STATUS(solve(bk, dl, d, du, b, x0), PSCR_OK);
  int files = cache_files(dir, ext, names, sizes, inodes);
  PT_CHECK(files >= 1, "no program stored in %s", dir);
  for (int i = 0; i < files; i++) PT_CHECK(sizes[i] > 1024, "%s: %ld bytes", names[i], sizes[i]);
  memcpy(first, inodes, sizeof first);

  /* 2. loaded: the same solution, no file written (a built program would be) */
  PT_CHECK_STATUS(solve(bk, dl, d, du, b, x), PSCR_OK);
  PT_CHECK(pt_equal_bytes(x, x0, count * sizeof(double)), "cached program: another solution");
  PT_CHECK(cache_files(dir, ext, names, sizes, inodes) == files, "cached programs: new files");
  for (int i = 0; i < files; i++)
    PT_CHECK(inodes[i] == first[i], "%s was written again: not loaded", names[i]);

  /* 3. damaged files, garbage and then their first half alone: built again, replaced */
  for (int how = 0; how < 2; how++) {
    for (int i = 0; i < files; i++) {
      FILE *f = how ? NULL : fopen(names[i], "wb");
      int ok = how ? truncate(names[i], sizes[i] / 2) == 0
                   : f != NULL && fwrite("not a program", 1, 13, f) == 13;
      if (f) ok = fclose(f) == 0 && ok;
      PT_CHECK(ok, "cannot damage %s", names[i]);
    }
    PT_CHECK_STATUS(solve(bk, dl, d, du, b, x), PSCR_OK);
    const char *damage = how ? "truncated" : "garbage";
    PT_CHECK(pt_equal_bytes(x, x0, count * sizeof(double)), "%s files: another solution", damage);
    PT_CHECK(cache_files(dir, ext, names, sizes, inodes) == files, "%s files: %d files now", damage,
             files);
    for (int i = 0; i < files; i++)
      PT_CHECK(sizes[i] > 1024 && inodes[i] != first[i], "%s not replaced", names[i]);
    memcpy(first, inodes, sizeof first);
  }

  /* 4. a directory that cannot be written: solves as without the cache */
  setenv("PSCR_CACHE_DIR", "/nonexistent/pscr-cache", 1);
  PT_CHECK_STATUS(solve(bk, dl, d, du, b, x), PSCR_OK);
  PT_CHECK(pt_equal_bytes(x, x0, count * sizeof(double)), "unwritable cache: another solution");

  for (int i = cache_files(dir, ext, names, sizes, inodes) - 1; i >= 0; i--) remove(names[i]);
  rmdir(dir);
  unsetenv("PSCR_CACHE_DIR");
  free(dl), free(d), free(du), free(b), free(x0), free(x);
}
