/* The KERNEL entry points of kernels/common, read from the embedded sources
 * (cmake/EmbedKernels.cmake), for the tests that check every kernel: the
 * OpenCL launch coverage (tests/opencl) and the NVRTC compile
 * (tests/cpu/test_kernels_nvrtc.c). Exported for tests, not public API. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "backend/gpu/gpu_tridiag.h"

extern const struct {
  const char *path;
  const char *text;
} pscr_kernel_files[];

/* The text of f without comments and preprocessor lines (malloc'ed). */
static char *strip(const char *text) {
  size_t len = strlen(text), k = 0;
  char *s = malloc(len + 1);
  if (s == NULL) return NULL;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '/' && text[i + 1] == '*') {
      const char *end = strstr(text + i + 2, "*/");
      i = end ? (size_t)(end - text) + 1 : len;
    } else if (text[i] == '/' && text[i + 1] == '/') {
      while (i < len && text[i] != '\n') i++;
    } else if (text[i] == '#' && (k == 0 || s[k - 1] == '\n')) {
      while (i < len && (text[i] != '\n' || text[i - 1] == '\\')) i++;
    } else {
      s[k++] = text[i];
    }
  }
  s[k] = '\0';
  return s;
}

static int ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

const char *pscr_gpu_kernel_source(const char *path) {
  for (int f = 0; path && pscr_kernel_files[f].path; f++)
    if (strcmp(pscr_kernel_files[f].path, path) == 0) return pscr_kernel_files[f].text;
  return NULL;
}

int pscr_gpu_kernel_names(char (*names)[64], int max) {
  int count = 0;
  for (int f = 0; pscr_kernel_files[f].path; f++) {
    if (strncmp(pscr_kernel_files[f].path, "common/", 7) != 0) continue;
    char *s = strip(pscr_kernel_files[f].text);
    if (s == NULL) return -1;
    for (char *p = strstr(s, "KERNEL"); p; p = strstr(p + 6, "KERNEL")) {
      char *q = p + 6;
      /* a qualifier macro named *_KERNEL (TD_REG_KERNEL: its #define is stripped) */
      if (p > s && ident(p[-1]) && (p[-1] != '_' || ident(*q))) continue;
      /* a kernel made by a macro named *_KERNEL(name, ...): the first argument */
      if (p > s && p[-1] == '_' && *q == '(') {
        q++;
        while (isspace((unsigned char)*q)) q++;
        char *end = q;
        while (ident(*end)) end++;
        if (end > q && end - q < 64) {
          if (count < max) {
            memcpy(names[count], q, (size_t)(end - q));
            names[count][end - q] = '\0';
          }
          count++;
        }
        continue;
      }
      /* KERNEL, or KERNEL_BOUNDED(W, B) / KERNEL_MAXW(W): skip the qualifier's arguments */
      if (strncmp(q, "_BOUNDED(", 9) == 0 || strncmp(q, "_MAXW(", 6) == 0) {
        q = strchr(q, ')');
        if (q == NULL) break;
        q++;
      } else if (ident(*q)) {
        continue;
      }
      q = strchr(q, '(');
      if (q == NULL) break;
      while (q > p && isspace((unsigned char)q[-1])) q--;
      char *end = q;
      while (q > p && ident(q[-1])) q--;
      if (end > q && end - q < 64) {
        if (count < max) {
          memcpy(names[count], q, (size_t)(end - q));
          names[count][end - q] = '\0';
        }
        count++;
      }
    }
    free(s);
  }
  return count;
}
