/* PSCR_CLONES: hot loops that are instruction bound with SSE2 (the x86-64
 * baseline) get an AVX2 copy too, picked at load time where the CPU has it.
 * Same IEEE results: -std=c11 turns FMA contraction off, and the loops have
 * no reductions whose order could change. */
#ifndef PSCR_CORE_CLONES_H
#define PSCR_CORE_CLONES_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) &&       \
    __GNUC__ >= 11 && !defined(__SANITIZE_ADDRESS__)
#define PSCR_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define PSCR_CLONES
#endif

#endif
