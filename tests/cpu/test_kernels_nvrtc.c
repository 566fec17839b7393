/* The single-source kernels compile with NVRTC to PTX for both dtypes (no
 * GPU needed; CUDA modules have no other variant, local arrays are sized by
 * each launch), the PTX holds every KERNEL entry point of kernels/common
 * (the names read from the embedded sources), and the names hold every entry
 * of the PTX; the host's table of the kernels' register bounds
 * (pscr_gpu_kernel_bounds, written into NVIDIA's OpenCL PTX) holds every
 * entry's .maxntid / .minnctapersm, and pscr_gpu_ptx_bounds puts back those
 * of the PTX with its directives removed. Skipped (77) in builds without CUDA. */
#include <stdlib.h>
#include <string.h>

#include "testing.h"

/* Defined by the CUDA backend and src/backend/gpu only: weak references are
 * NULL without them. */
pscr_status pscr_cuda_compile_ptx(int complex_, char **ptx, size_t *size, char **log)
    __attribute__((weak));
int pscr_gpu_kernel_names(char (*names)[64], int max) __attribute__((weak));
int pscr_gpu_kernel_bounds(const char *name, const char *defines, int *maxw, int *minb)
    __attribute__((weak));
char *pscr_gpu_ptx_bounds(const char *ptx, const char *defines, int *added) __attribute__((weak));

/* The entry at p's directive `d` (between its parameters and its body): the
 * first integer after it, 0 if the entry has none. */
static int directive(const char *p, const char *d) {
  const char *rp = strchr(p, ')'), *body = rp ? strchr(rp, '{') : NULL;
  size_t n = strlen(d);
  for (const char *q = rp; q && q + n < body; q++)
    if (strncmp(q, d, n) == 0) return atoi(q + n);
  return 0;
}

/* ptx without its lines that start with .maxntid or .minnctapersm (malloc'ed). */
static char *strip_bounds(const char *ptx) {
  char *out = malloc(strlen(ptx) + 1), *k = out;
  for (const char *l = ptx; out && *l;) {
    const char *eol = strchr(l, '\n');
    size_t n = eol ? (size_t)(eol - l) + 1 : strlen(l);
    if (strncmp(l, ".maxntid ", 9) != 0 && strncmp(l, ".minnctapersm ", 14) != 0)
      memcpy(k, l, n), k += n;
    l += n;
  }
  if (out) *k = '\0';
  return out;
}

#define MAX_KERNELS 256

int main(void) {
  if (pscr_cuda_compile_ptx == NULL || pscr_gpu_kernel_names == NULL ||
      pscr_gpu_kernel_bounds == NULL || pscr_gpu_ptx_bounds == NULL)
    return PT_SKIP;
  static char names[MAX_KERNELS][64];
  int count = pscr_gpu_kernel_names(names, MAX_KERNELS);
  PT_CHECK(count > 0 && count <= MAX_KERNELS, "%d KERNEL entry points in kernels/common", count);
  int tile = 0;
  for (int e = 0; e < count && e < MAX_KERNELS; e++) tile |= strcmp(names[e], "td_tile_solve") == 0;
  PT_CHECK(tile, "the parser finds td_tile_solve");
  for (int z = 0; z < 2; z++) {
    char *ptx = NULL, *log = NULL;
    size_t size = 0;
    pscr_status st = pscr_cuda_compile_ptx(z, &ptx, &size, &log);
    char defines[32]; /* the module's options, for the table */
    snprintf(defines, sizeof defines, "-DPSCR_COMPLEX=%d", z);
    PT_CHECK(st == PSCR_OK, "complex=%d: %s\n%s", z, pscr_status_string(st), log ? log : "");
    PT_CHECK(log == NULL || strstr(log, "warning") == NULL, "NVRTC warnings:\n%s", log);
    for (int e = 0; st == PSCR_OK && e < count && e < MAX_KERNELS; e++) {
      char name[80];
      snprintf(name, sizeof name, ".entry %.63s(", names[e]);
      PT_CHECK(ptx != NULL && size > 0 && strstr(ptx, name) != NULL, "complex=%d: PTX lacks %s", z,
               name);
    }
    /* ... and the parser finds every entry of the PTX: a kernel it misses has no
     * OpenCL coverage check (td_reg_* went unseen behind TD_REG_KERNEL) */
    int entries = 0;
    for (const char *p = ptx ? strstr(ptx, ".entry ") : NULL; p; p = strstr(p + 7, ".entry ")) {
      const char *b = p + 7, *end = b;
      while (*end && *end != '(' && *end != ' ' && *end != '\n') end++;
      int found = 0;
      for (int e = 0; e < count && e < MAX_KERNELS && !found; e++)
        found = strlen(names[e]) == (size_t)(end - b) && strncmp(names[e], b, (size_t)(end - b)) == 0;
      PT_CHECK(found, "complex=%d: the kernel-name parser misses %.*s", z, (int)(end - b), b);
      entries++;
      char kname[64] = "";
      snprintf(kname, sizeof kname, "%.*s", (int)(end - b < 63 ? end - b : 63), b);
      int w = 0, m = 0, nw = directive(p, ".maxntid "), nm = directive(p, ".minnctapersm ");
      int has = pscr_gpu_kernel_bounds(kname, defines, &w, &m);
      PT_CHECK(has ? w == nw && m == nm : nw == 0 && nm == 0,
               "complex=%d: %s: the table's bounds %d, %d (of %d), NVRTC's .maxntid %d "
               ".minnctapersm %d",
               z, kname, w, m, has, nw, nm);
    }
    PT_CHECK(entries >= count, "complex=%d: %d PTX entries, %d kernels parsed", z, entries, count);
    /* the directives removed and written back: the same PTX */
    char *bare = ptx ? strip_bounds(ptx) : NULL;
    int added = 0;
    char *back = bare ? pscr_gpu_ptx_bounds(bare, defines, &added) : NULL;
    PT_CHECK(back && strcmp(back, ptx) == 0 && added > 0,
             "complex=%d: pscr_gpu_ptx_bounds restores NVRTC's PTX (%d entries)", z, added);
    int again = 0;
    char *twice = back ? pscr_gpu_ptx_bounds(back, defines, &again) : NULL;
    PT_CHECK(twice && strcmp(twice, ptx) == 0 && again == 0,
             "complex=%d: a second pass adds nothing (%d entries)", z, again);
    free(bare);
    free(back);
    free(twice);
    free(ptx);
    free(log);
  }
  return pt_exit("kernels_nvrtc");
}
