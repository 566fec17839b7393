/* PoCL and its LLVM keep allocations made while compiling kernels until the
 * process exits; LeakSanitizer (ASan builds) would blame the test for them.
 * Leaks whose stack passes through those libraries are not ours: suppressed.
 * (The sanitizer runtime calls this hook when it is linked in.) */
#ifndef PSCR_TESTS_OPENCL_LSAN_H
#define PSCR_TESTS_OPENCL_LSAN_H
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libpocl\nleak:libLLVM\n"; }
#endif
