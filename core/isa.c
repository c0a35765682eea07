/* SPDX-License-Identifier: MIT */
/*
 * isa.c — the instruction-set level the kernels run at (isa.h): the best
 * one the CPU has, found on first use, or the one named to qc_isa_select
 * (qcount.h).  [one probe] The only file that asks the CPU what it has.
 *
 * [cpuid] On x86-64 the CPU is asked directly (cpuid, and xgetbv for what
 * the OS saves on a context switch) rather than through
 * __builtin_cpu_supports, which in clang knows neither LZCNT nor MOVBE nor
 * F16C: the avx2 level is compiled for all of x86-64-v3 (its eightfold step
 * counts leading zeros with LZCNT), so it runs only where every feature of
 * x86-64-v3 is there, avx512 only where all of x86-64-v4 is, with the OS
 * saving the AVX (XCR0 bits 1-2) and AVX-512 (bits 5-7) registers, and
 * avx512vbmi where VBMI, VPOPCNTDQ and GFNI come on top.
 * [hwcap] On aarch64 the kernel's HWCAP says whether Advanced SIMD is
 * there (it always is on Linux's aarch64, but the level says why it runs).
 */
#include <stdint.h>
#include <string.h>

#include "isa.h"
#include "qcount.h"

#if defined(QC_ISA_X86)
#include <cpuid.h>
#elif defined(QC_ISA_ARM64)
#include <sys/auxv.h>
#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1 << 1)
#endif
#endif

/* Every level's name on every architecture, each with its qci_isa_level
 * here (-1: another architecture's, never run here).  Lowest first: each
 * level's CPU has every lower level's features too. */
static const struct {
    const char *name;
    int level;
} levels[] = {
    {"portable", QC_ISA_PORTABLE},
#if defined(QC_ISA_X86)
    {"avx2", QC_ISA_AVX2},
    {"avx512", QC_ISA_AVX512},
    {"avx512vbmi", QC_ISA_AVX512VBMI},
    {"neon", -1},
#elif defined(QC_ISA_ARM64)
    {"avx2", -1},
    {"avx512", -1},
    {"avx512vbmi", -1},
    {"neon", QC_ISA_NEON},
#else
    {"avx2", -1},
    {"avx512", -1},
    {"avx512vbmi", -1},
    {"neon", -1},
#endif
};

/* The qci_isa_level running, or -1 until the first use chooses it. */
static int chosen = -1;

#if defined(QC_ISA_X86)
#define BIT(b) (1u << (b))

static uint64_t os_saved_state(void)   /* XCR0; only when OSXSAVE is set */
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

/* [cpuid] the highest level this CPU runs. */
static qci_isa_level best_level(void)
{
    unsigned a, b, c, d, leaf7_b = 0, leaf7_c = 0, ext_c = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return QC_ISA_PORTABLE;
    const unsigned leaf1_c = c;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        leaf7_b = b;
        leaf7_c = c;
    }
    if (__get_cpuid(0x80000001u, &a, &b, &c, &d))
        ext_c = c;
    /* x86-64-v2: SSE3, SSSE3, CX16, SSE4.1, SSE4.2, POPCNT, LAHF; v3 adds
     * FMA, MOVBE, OSXSAVE, AVX, F16C (leaf 1), BMI1, AVX2, BMI2 (leaf 7),
     * LZCNT; v4 adds AVX-512 F, DQ, CD, BW, VL (leaf 7 ebx); the sextet
     * tables VBMI (ecx 1), GFNI (ecx 8) and VPOPCNTDQ (ecx 14) */
    const unsigned v3_c = BIT(0) | BIT(9) | BIT(12) | BIT(13) | BIT(19) | BIT(20) | BIT(22)
                        | BIT(23) | BIT(27) | BIT(28) | BIT(29);
    const unsigned v3_b = BIT(3) | BIT(5) | BIT(8);
    const unsigned v4_b = v3_b | BIT(16) | BIT(17) | BIT(28) | BIT(30) | BIT(31);
    const unsigned v3_ext = BIT(0) | BIT(5);
    const unsigned vbmi_c = BIT(1) | BIT(8) | BIT(14);
    if ((leaf1_c & v3_c) != v3_c || (leaf7_b & v3_b) != v3_b || (ext_c & v3_ext) != v3_ext)
        return QC_ISA_PORTABLE;
    const uint64_t xcr0 = os_saved_state();
    if ((xcr0 & 0x06) != 0x06)
        return QC_ISA_PORTABLE;
    if ((leaf7_b & v4_b) != v4_b || (xcr0 & 0xe6) != 0xe6)
        return QC_ISA_AVX2;
    if ((leaf7_c & vbmi_c) != vbmi_c)
        return QC_ISA_AVX512;
    return QC_ISA_AVX512VBMI;
}
#elif defined(QC_ISA_ARM64)
/* [hwcap] */
static qci_isa_level best_level(void)
{
    return getauxval(AT_HWCAP) & HWCAP_ASIMD ? QC_ISA_NEON : QC_ISA_PORTABLE;
}
#else
static qci_isa_level best_level(void)
{
    return QC_ISA_PORTABLE;
}
#endif

qci_isa_level qci_isa_current(void)
{
    int level = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (level < 0) {
        int none = -1;
        level = (int)best_level();
        /* the first to choose wins, a qc_isa_select included */
        if (!__atomic_compare_exchange_n(&chosen, &none, level, 0, __ATOMIC_RELAXED,
                                         __ATOMIC_RELAXED))
            level = none;
    }
    return (qci_isa_level)level;
}

const char *qc_isa_name(void)
{
    const int level = (int)qci_isa_current();
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
        if (levels[i].level == level)
            return levels[i].name;
    return "portable";   /* not reached: every level built has a name */
}

int qc_isa_select(const char *name)
{
    if (!name) {
        __atomic_store_n(&chosen, (int)best_level(), __ATOMIC_RELAXED);
        return QC_OK;
    }
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
        if (strcmp(name, levels[i].name) != 0)
            continue;
        const int level = levels[i].level;
        if (level < 0 || level > (int)best_level())
            return QC_ENOTSUP;   /* another architecture's, or more than this CPU has */
        __atomic_store_n(&chosen, level, __ATOMIC_RELAXED);
        return QC_OK;
    }
    return QC_EINVAL;
}
