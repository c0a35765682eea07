/*
 * config.h — every tuning knob of core/, one section per engine, each knob
 * with the measurement that chose it.  Knobs change speed and memory, never
 * a count; a knob that shapes the work split (units, key bits) also changes
 * the plan's fingerprint, so that ledgers of another split are refused.
 */
#ifndef QC_CONFIG_H
#define QC_CONFIG_H

/* ---- plan: the default engine --------------------------------------- */

/* ---- kernel: the backtracking step ---------------------------------- */

/* ---- halving -------------------------------------------------------- */

/* ---- eightfold ------------------------------------------------------ */

/* ---- join ----------------------------------------------------------- */

/* Unit block width m (same parity as N, so M is centred).  A unit keeps
 * only its band lists, on the t = N-m+|q| columns its sides may use, and
 * one column set's halves at a time; so m bounds a unit's memory (the
 * larger m, the fewer columns each band may use) and sets how many units
 * there are to spread over threads and ranks.  m = N-10 up to N=18, then
 * N-8 (N=19: 782 units, N=20: 1049, N=24: 16159).  Measured peaks (one
 * thread, whole process, its first and largest units): N=16 9 MiB, N=18
 * 23 MiB, N=20 16 MiB, N=22 62 MiB, N=23 77 MiB, N=24 150 MiB, N=26 about
 * 930 MiB.  At most 20 (the plan lists the 2^m patterns once).  Shapes the
 * units: part of the plan's fingerprint. */
static inline int qcj_unit_cols(int n)
{
    int m = n <= 18 ? n - 10 : n - 8;
    if (m > 20)
        m = 20 - n % 2;                 /* keeps the parity of N */
    return m < n % 2 ? n % 2 : m;
}

/* Group key bits k: the more, the fewer pairs the hot loop tests (each key
 * diagonal drops about a quarter of them), but the smaller the groups and
 * the more of each vector is a ragged tail (and on odd N the tops are
 * filtered and the bottoms grouped once per middle column).  Measured best
 * (one thread, a sample of the units from N=19 on): 4 up to N=17, 7 at
 * N=18, 6 at N=19, 9-10 at N=20, 10 at N=21, 12 at N=22: N-10 for even N
 * from 20; never fewer than leave the ANDed rest 32 bits wide (odd N >= 21
 * needs 2N-32), and at most 16.  Part of the plan's fingerprint. */
static inline int qcj_key_bits(int n)
{
    int slots = n % 2 ? 2 * n : 2 * (n - 1);
    int k = n <= 17 ? 4 : n == 18 ? 7 : n == 19 ? 6 : n % 2 == 0 ? n - 10 : 10;
    if (slots - k > 32)
        k = slots - 32;
    return k > 16 ? 16 : k;
}

/* The largest rank table a band may have (entries): keeps a unit's memory
 * bounded whatever N; the split above stays far below it (2^26 entries of
 * 4 bytes, 256 MiB, against the peaks measured above). */
#define QCJ_RANKS_MAX (1u << 26)

/* Scratch sets a plan keeps for reuse between units (join/scratch.c):
 * more than threads ever count units at once.  Fresh pages per unit
 * (page faults, zeroing) cost a quarter of the run at N=16. */
#define QCJ_POOL_SLOTS 256

/* [bounded lanes] The pairs the AVX-512 kernel's 32-bit lane counters may
 * see between two sums (join/pairs_avx512.c): as many as a lane can hold.
 * Summing sooner only costs reductions (small groups of tens of halves
 * would pay one per group pair).  A constant: as a run-time parameter the
 * loop measured 3-5% slower on such groups. */
#define QCJ_LANE_LIMIT 0xffffffffu

#endif
