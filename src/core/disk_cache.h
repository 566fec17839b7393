/* Internal: the on-disk cache of compiled GPU programs (opt-in:
 * $PSCR_CACHE_DIR names a directory). A program's file is
 * DIR/pscr-HASH.EXT, HASH a 64-bit FNV-1a of everything that makes it (the
 * backend hashes its sources, options, device and compiler versions); files
 * are written under a temporary name and renamed, so that readers see whole
 * files only. CUDA keeps CUBINs (.cubin), OpenCL program binaries (.clbin). */
#ifndef PSCR_CORE_DISK_CACHE_H
#define PSCR_CORE_DISK_CACHE_H

#include <stddef.h>

#define PSCR_FNV_SEED 14695981039346656037ull

/* FNV-1a of data, continued from h (PSCR_FNV_SEED to start). */
unsigned long long pscr_fnv(unsigned long long h, const void *data, size_t len);

/* FNV-1a of a string and its terminating NUL (NULL reads as ""). */
unsigned long long pscr_fnv_str(unsigned long long h, const char *s);

/* DIR/pscr-HASH.ext into path: 1, or 0 without $PSCR_CACHE_DIR (or no room). */
int pscr_disk_cache_path(unsigned long long hash, const char *ext, char *path, size_t size);

/* The data a file holds (malloc'ed, a NUL past the end; *size its bytes),
 * NULL unless the file is whole: its header's tag, length and checksum must
 * match, so a damaged or truncated file never reaches a driver (PoCL aborts
 * on a truncated binary). */
char *pscr_disk_cache_read(const char *path, size_t *size);

/* Stores data at path behind that header (quietly nothing where it cannot). */
void pscr_disk_cache_write(const char *path, const void *data, size_t size);

#endif
