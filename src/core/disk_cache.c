/* The on-disk cache of compiled GPU programs (disk_cache.h). */
#define _POSIX_C_SOURCE 200809L /* getpid */
#include "core/disk_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned long long pscr_fnv(unsigned long long h, const void *data, size_t len) {
  const unsigned char *c = data;
  for (size_t i = 0; i < len; i++) h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

unsigned long long pscr_fnv_str(unsigned long long h, const char *s) {
  return pscr_fnv(h, s ? s : "", strlen(s ? s : "") + 1);
}

int pscr_disk_cache_path(unsigned long long hash, const char *ext, char *path, size_t size) {
  const char *dir = getenv("PSCR_CACHE_DIR");
  if (dir == NULL || *dir == '\0') return 0;
  int n = snprintf(path, size, "%s/pscr-%016llx.%s", dir, hash, ext);
  return n > 0 && (size_t)n < size;
}

/* A file: this header, then the data. */
typedef struct {
  char tag[8];              /* CACHE_TAG's 8 characters */
  unsigned long long size;  /* the data's bytes */
  unsigned long long check; /* pscr_fnv of the data */
} cache_header;
#define CACHE_TAG "pscrbin1"

char *pscr_disk_cache_read(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  cache_header h;
  char *data = NULL;
  *size = 0;
  if (f == NULL) return NULL;
  if (fread(&h, sizeof h, 1, f) == 1 && memcmp(h.tag, CACHE_TAG, 8) == 0 &&
      h.size > 0 && h.size < (1ull << 40) && (data = malloc((size_t)h.size + 1)) != NULL &&
      (fread(data, 1, (size_t)h.size, f) != (size_t)h.size || fgetc(f) != EOF ||
       pscr_fnv(PSCR_FNV_SEED, data, (size_t)h.size) != h.check)) {
    free(data);
    data = NULL;
  }
  fclose(f);
  if (data) data[h.size] = '\0', *size = (size_t)h.size;
  return data;
}

void pscr_disk_cache_write(const char *path, const void *data, size_t size) {
  char tmp[1100];
  int n = snprintf(tmp, sizeof tmp, "%s.%ld.%p.tmp", path, (long)getpid(), data);
  if (n < 0 || (size_t)n >= sizeof tmp) return;
  FILE *f = fopen(tmp, "wb");
  if (f == NULL) return;
  cache_header h = {{0}, size, pscr_fnv(PSCR_FNV_SEED, data, size)};
  memcpy(h.tag, CACHE_TAG, 8);
  int ok = fwrite(&h, sizeof h, 1, f) == 1 && fwrite(data, 1, size, f) == size;
  ok = fclose(f) == 0 && ok;
  if (!ok || rename(tmp, path) != 0) remove(tmp);
}
