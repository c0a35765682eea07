/* SPDX-License-Identifier: MIT */
/*
 * isa.h — the instruction-set levels the kernels are built for, the level
 * that runs, and the names a kernel function has at each level.
 *
 * [per-level objects] The hot kernels (kernel/kernel.c, eightfold/lanes.c,
 * join/unit.c, bands.c, halves.c and the pair counting of pairs.h) are
 * compiled once per level, each time whole with that level's flags
 * (core/CMakeLists.txt): portable (the compiler's default target),
 * avx2 (-march=x86-64-v3: AVX2, BMI1/2, POPCNT, LZCNT) and avx512
 * (-march=x86-64-v4: AVX-512 F, BW, CD, DQ, VL), the last two on x86-64
 * only (QC_ISA_X86).  Everything else is built once, for the compiler's
 * default target, and never runs an instruction the CPU may lack.
 *
 * [per-level names] A level file's external functions exist once per
 * level: its header renames each, `#define f QC_LEVEL(f)`, to f_portable,
 * f_avx2 or f_avx512 after the level being compiled (QC_ISA_BUILD_AVX2,
 * QC_ISA_BUILD_AVX512; neither: portable).  So a level's code calls its
 * own level's copies, and code outside the levels (plan building, tests)
 * the portable ones.  The entry of each engine's kernel is chosen at run
 * time instead, by indexing QC_ISA_TABLE(f) with qc_isa_current().
 */
#ifndef QC_ISA_H
#define QC_ISA_H

typedef enum qc_isa_level {
    QC_ISA_PORTABLE = 0,
#if defined(QC_ISA_X86)
    QC_ISA_AVX2,
    QC_ISA_AVX512,
#endif
    QC_ISA_LEVELS_
} qc_isa_level;

/* The level the kernels run at: on the first call the best one the CPU
 * has (or the one qc_isa_select chose before), then always the same until
 * qc_isa_select changes it.  Thread-safe; one atomic load after the first
 * call. */
qc_isa_level qc_isa_current(void);

#if defined(QC_ISA_BUILD_AVX512)
#define QC_LEVEL(name) name##_avx512
#elif defined(QC_ISA_BUILD_AVX2)
#define QC_LEVEL(name) name##_avx2
#else
#define QC_LEVEL(name) name##_portable
#endif

/* Declares f's copies at every level built, QC_ISA_DECLARE(int, f,
 * (int x)); and the initialiser of an array of them indexed by
 * qc_isa_level. */
#if defined(QC_ISA_X86)
#define QC_ISA_DECLARE(type, name, params) \
    type name##_portable params;           \
    type name##_avx2 params;               \
    type name##_avx512 params
#define QC_ISA_TABLE(name) \
    [QC_ISA_PORTABLE] = name##_portable, [QC_ISA_AVX2] = name##_avx2, [QC_ISA_AVX512] = name##_avx512
#else
#define QC_ISA_DECLARE(type, name, params) type name##_portable params
#define QC_ISA_TABLE(name) [QC_ISA_PORTABLE] = name##_portable
#endif

#endif
