/* The single-source kernels compile with NVRTC to PTX for both dtypes (no
 * GPU needed; CUDA modules have no other variant, local arrays are sized by
 * each launch), the PTX holds every KERNEL entry point of kernels/common
 * (the names read from the embedded sources), and the names hold every entry
 * of the PTX. Skipped (77) in builds without CUDA. */
#include <stdlib.h>
#include <string.h>

#include "testing.h"

/* Defined by the CUDA backend and src/backend/gpu only: weak references are
 * NULL without them. */
pscr_status pscr_cuda_compile_ptx(int complex_, char **ptx, size_t *size, char **log)
    __attribute__((weak));
int pscr_gpu_kernel_names(char (*names)[64], int max) __attribute__((weak));

#define MAX_KERNELS 256

int main(void) {
  if (pscr_cuda_compile_ptx == NULL || pscr_gpu_kernel_names == NULL) return PT_SKIP;
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
    }
    PT_CHECK(entries >= count, "complex=%d: %d PTX entries, %d kernels parsed", z, entries, count);
    free(ptx);
    free(log);
  }
  return pt_exit("kernels_nvrtc");
}
