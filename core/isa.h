/* SPDX-License-Identifier: MIT */
/*
 * isa.h — the instruction-set levels the kernels are built for, the level
 * that runs, and the names a kernel function has at each level.
 *
 * [per-level objects] The hot kernels (kernel/kernel.c, eightfold/lanes.c,
 * join/unit.c, bands.c, halves.c, the AND loop and the level's byte tables
 * of join/joiner.h) are compiled once per level, each time whole with that
 * level's flags (core/CMakeLists.txt):
 *   portable    the compiler's default target, on every CPU;
 *   avx2        x86-64-v3: AVX2, BMI1/2, POPCNT, LZCNT, FMA;
 *   avx512      x86-64-v4: AVX-512 F, BW, CD, DQ, VL;
 *   avx512vbmi  x86-64-v4 with VBMI, VPOPCNTDQ and GFNI (Ice Lake and
 *               later Intel cores, AMD Zen 4 and later): the sextet tables;
 *   neon        64-bit Arm with Advanced SIMD (every aarch64 CPU).
 * The x86 levels are built on x86-64 alone (QC_ISA_X86), neon on aarch64
 * alone (QC_ISA_ARM64).  Everything else is built once, for the compiler's
 * default target, and never runs an instruction the CPU may lack.
 *
 * [per-level names] A level file's external names exist once per level:
 * its header renames each, `#define f QC_LEVEL(f)`, to f_portable, f_avx2,
 * f_avx512, f_avx512vbmi or f_neon after the level being compiled
 * (QC_ISA_BUILD_<LEVEL>; none: portable).  So a level's code calls its own
 * level's copies, and code outside the levels (plan building, tests) the
 * portable ones.  The entry of each engine's kernel is chosen at run time
 * instead, by indexing QC_ISA_TABLE(f) with qci_isa_current().  One
 * spelling each: bare f is the level's own copy, f_at(level, ...) a given
 * level's, and f_now(...) the running level's (qci_isa_current()).
 *
 * [one probe] Which levels this CPU runs is found in isa.c and nowhere
 * else: no other file asks the CPU what it has.
 */
#ifndef QC_ISA_H
#define QC_ISA_H

typedef enum qci_isa_level {
    QC_ISA_PORTABLE = 0,
#if defined(QC_ISA_X86)
    QC_ISA_AVX2,
    QC_ISA_AVX512,
    QC_ISA_AVX512VBMI,
#elif defined(QC_ISA_ARM64)
    QC_ISA_NEON,
#endif
    QC_ISA_LEVELS_
} qci_isa_level;

/* The level the kernels run at: on the first call the best one the CPU
 * has (or the one qc_isa_select chose before), then always the same until
 * qc_isa_select changes it.  Thread-safe; one atomic load after the first
 * call. */
qci_isa_level qci_isa_current(void);

#if defined(QC_ISA_BUILD_AVX512VBMI)
#define QC_LEVEL(name) name##_avx512vbmi
#elif defined(QC_ISA_BUILD_AVX512)
#define QC_LEVEL(name) name##_avx512
#elif defined(QC_ISA_BUILD_AVX2)
#define QC_LEVEL(name) name##_avx2
#elif defined(QC_ISA_BUILD_NEON)
#define QC_LEVEL(name) name##_neon
#else
#define QC_LEVEL(name) name##_portable
#endif

/* Declares f's copies at every level built, QC_ISA_DECLARE(int, f,
 * (int x)); and the initialiser of an array of them indexed by
 * qci_isa_level. */
#if defined(QC_ISA_X86)
#define QC_ISA_DECLARE(type, name, params) \
    type name##_portable params;           \
    type name##_avx2 params;               \
    type name##_avx512 params;             \
    type name##_avx512vbmi params
#define QC_ISA_TABLE(name)                                                               \
    [QC_ISA_PORTABLE] = name##_portable, [QC_ISA_AVX2] = name##_avx2,                    \
    [QC_ISA_AVX512] = name##_avx512, [QC_ISA_AVX512VBMI] = name##_avx512vbmi
#elif defined(QC_ISA_ARM64)
#define QC_ISA_DECLARE(type, name, params) \
    type name##_portable params;           \
    type name##_neon params
#define QC_ISA_TABLE(name) [QC_ISA_PORTABLE] = name##_portable, [QC_ISA_NEON] = name##_neon
#else
#define QC_ISA_DECLARE(type, name, params) type name##_portable params
#define QC_ISA_TABLE(name) [QC_ISA_PORTABLE] = name##_portable
#endif

#endif
