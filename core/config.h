/* SPDX-License-Identifier: MIT */
/*
 * config.h — every tuning knob of core/, one section per engine, each knob
 * with the measurement that chose it.  Knobs change speed and memory, never
 * a count; a knob that shapes the work split (units, key bits) also changes
 * the plan's fingerprint, so that ledgers of another split are refused.
 */
#ifndef QC_CONFIG_H
#define QC_CONFIG_H

/* ---- plan: the default engine --------------------------------------- */

/* qc_engine_default: join from this N on, eightfold below.  Measured (dev
 * machine, one thread, best of 5 runs, --json seconds): join is the
 * fastest engine at every N >= 14 (N=14: join 5.0 ms, eightfold 21.5 ms,
 * halving 78 ms) and by far from there on; below 14 all engines take under
 * 5 ms and eightfold is as fast or faster (N=13: 4.1 ms against join's
 * 4.6 ms; N=11: 0.30 against 0.53 ms). */
#define QC_JOIN_FROM_N 14

/* ---- kernel: the backtracking step ---------------------------------- */

/* [stop check] Rows of the subtrees between two readings of the stop
 * flag: at N=27 a subtree of 10 rows is some 10^5 placements, well under a
 * millisecond. */
#define QCK_STOP_ROWS 10

/* ---- halving -------------------------------------------------------- */

/* Units wanted (shapes the split: part of the fingerprint): about
 * QCH_UNITS at N <= QCH_GROW_FROM_N for load balance over many threads
 * (each thread then gets hundreds of units, so the last one to finish waits
 * for at most a unit), twice as many per step of N above that so that one
 * unit stays short (N=20: 32k units of a few ms each), doubled at most
 * QCH_MAX_DOUBLINGS times to bound the plan's memory (2^20 units, 16 MiB). */
#define QCH_UNITS 2000
#define QCH_GROW_FROM_N 16
#define QCH_MAX_DOUBLINGS 9

/* ---- eightfold ------------------------------------------------------ */

/* [lanes] Independent searches stepped in turn.  Measured (N=15, one
 * thread, CPU time, same run): 4 is best by 5-15% against 2, 6 and 8. */
#define QCE_LANES 4

/* [deep seeds] With a stop flag, the lanes' subtrees span the last
 * QCE_STOP_ROWS rows searched.  Those rows have about as many free columns
 * as rows whatever N is, so a subtree of 14 rows is some 10^5 placements
 * at any N (sampled at N=21, 23, 25, 27 by random descents: means
 * 0.4-2.5 x 10^5, largest 1.3 x 10^6), a fraction of a millisecond,
 * against some 100 ns per seed for the walk and the reading (12 rows: a
 * few 10^3, too close; 16 rows: 10^6-10^7, milliseconds).  At least 2. */
#define QCE_STOP_ROWS 14

/* ---- join ----------------------------------------------------------- */

/* [plan profiles] The join plan's size-dependent choices, one row a
 * profile, each row from its board size to the next row's; every choice
 * is measured where its knob is described below (its tag).  A board
 * counts under its own row unless told to take another board size's
 * (qcount.h, qc_plan_options; join/profile.c scales the row to the
 * board).  Columns:
 *   less     unit block width m = N - less (qcj_unit_cols)
 *   target   the units the plan aims at ("Units the plan aims at"
 *            below): 4096 up to N=25, 11 times as many per step of N
 *            from 26 to 28
 *   planes   [transposed lists] the halves test their pairs by planes
 *            (left off from 24, below the record sizes' memory bound)
 *   fresh    [fresh scratch] and [memory budget]
 *   large    [large plans]: bands listed in place and pruned, no empty
 *            units, and the ANDed rest up to 64 bits wide (qcj_key_bits)
 *   own      [own lists]
 *   sets     [set units]
 *   parts    [set parts]: units a column set is cut into
 * Shapes the units (m, target, sets, parts): part of the fingerprint. */
typedef struct qcj_profile {
    const char *name;
    int from_n, less;
    double target;
    unsigned char planes, fresh, large, own, sets, parts;
} qcj_profile;

static inline const qcj_profile *qcj_profile_of(int n)
{
    static const qcj_profile rows[] = {
        /* name        from less target         planes fresh large own sets parts */
        {"small",         1, 10, 4096,             1,    0,    0,   0,  0,   1},
        {"middle",       19,  8, 4096,             1,    0,    0,   0,  0,   1},
        {"budget",       24,  8, 4096,             0,    1,    0,   0,  0,   1},
        {"large",        25,  6, 4096,             0,    1,    1,   0,  0,   1},
        {"own-lists",    26,  6, 4096.0 * 11,      0,    1,    1,   1,  0,   1},
        {"set-units",    27,  4, 4096.0 * 121,     0,    1,    1,   1,  1,   1},
        {"set-parts",    28,  4, 4096.0 * 1331,    0,    1,    1,   1,  1,   4},
    };
    unsigned i = (unsigned)(sizeof rows / sizeof *rows) - 1;
    while (i > 0 && rows[i].from_n > n)
        i--;
    return &rows[i];
}

/* Unit block width m (same parity as N, so M is centred).  A unit keeps
 * only its band lists, on the t = N-m+|q| columns its sides may use, and
 * one column set's halves at a time; so m bounds a unit's memory (the
 * larger m, the fewer columns each band may use) and sets how many units
 * there are to spread over threads and ranks.  m = N-10 up to N=18, then
 * N-8 to N=24 (N=19: 782 patterns, N=20: 1049, N=24: 16159).  From N=25
 * the bands have 6 and 7 rows and their lists, not the halves, are a
 * unit's memory (16 bytes a placement): N-6 at N=25 and 26, N-4 from 27
 * (at most 24 - N%2: the plan lists 2^m patterns).  Measured band lists
 * of the largest unit (plan order), one side's two bands each: N=26 at
 * m=18 13.0 + 2.0 million placements a side, at m=20 6.7 + 1.2 million;
 * N=27 at m=19 13.0 and 23.0 million, at m=21 6.7 and 12.5, N=28 at m=20
 * 23.0 + 23.0, at m=22 12.5 + 12.5; peaks: docs/PERFORMANCE.md.  Shapes
 * the units: part of the plan's fingerprint. */
static inline int qcj_block_width(int n, int less)
{
    int m = n - less;
    if (m > 24 - n % 2)
        m = 24 - n % 2;                 /* keeps the parity of N */
    return m < n % 2 ? n % 2 : m;
}

static inline int qcj_unit_cols(int n)
{
    return qcj_block_width(n, qcj_profile_of(n)->less);
}

/* Group key bits k: the more, the fewer pairs the hot loop tests (each key
 * diagonal drops about a quarter of them), but the smaller the groups and
 * the more of each vector is a ragged tail.  Measured with the nibble
 * tables (one thread, CPU time; from N=19 on a sample of the units,
 * bench/sample.c): N=16 and 17 the same at 4, 5 and 6 (0.30-0.31 s at
 * N=17; the AND loop of the other levels is best at 4 there), N=18 6
 * (1.20 s against 1.28 at 7 and 1.36 at 5), N=19 8-9, N=20 10 (2.25
 * ns/solution against 2.42 at 9 and 2.66 at 11), N=21 11 (10: +2%),
 * N=22 13 (11-12: +7%, 14: +10%).  With 7-bit tables (VPERMI2B, on an
 * AMD EPYC): N=17 4, 5 and 6 alike (302 ms), N=18 5, 6 and 7 alike
 * (1.09-1.10 s; 4: 1.15), N=19 9 (8: +2%, 10: +8%), N=20 10 (1.83 ns;
 * 9: +6%, 11: +19%), N=22 12 and 13 alike (14: +9%); on an Intel Xeon,
 * still 7-bit, N=18 at 7 and 8 took 1.06 and 1.04 times 6's time
 * (docs/PERFORMANCE.md).  The 6-bit tables are not measured at other k.
 * N-10 from N=20; never fewer than leave the ANDed rest 32 bits wide
 * (odd N >= 21 needs 2N-32), and at most 16.
 * From N=25 the rest may be 64 bits wide: 16 at N=25 (on one sample of
 * its units, qcount_sample 25 --units 8 --sets 2 --seed 7 --key-bits K,
 * the same sets each time, a loaded machine, 14 took 6.37 ns a solution,
 * 15 3.81, 16 3.97 and 18 5.15; later, four sets joined whole, 17 took
 * 0.97-0.99 of 16's time), 17 at N=26 (one set joined whole, unit
 * 79328: 17 0.77 of 16's joins, 18 0.81), 18 from N=27 (one set, unit
 * 3920713: 18 0.65 of 16's joins, 88.6 -> 57.5 s, 19 0.91, 20 1.5; the
 * halves' grouping 1.1 times as long).  Where the tiled sieve
 * made a copy per top group, 18 had not paid at N=27: the groups' copies
 * were too small to share (docs/PERFORMANCE.md).
 * Part of the plan's fingerprint. */
static inline int qcj_key_bits(int n)
{
    int slots = n % 2 ? 2 * n : 2 * (n - 1);
    int k = n <= 17 ? 4 : n == 18 ? 6 : n == 19 ? 9 : n - 10;
    if (slots - k > 32)
        k = slots - 32;
    if (n >= 26)
        return n == 26 ? 17 : 18;
    return k > 16 ? 16 : k;
}

/* [set key] A chunk of tops gets its column set's own key
 * (join/set_key.h) where it and the first bottoms it meets make at least
 * QCJ_SET_KEY_FROM_PAIRS pairs; the key is chosen on an even sample of up
 * to QCJ_SET_KEY_SAMPLE halves a side (a multiple of 64; fewer on smaller
 * chunks).  Measured (docs/PERFORMANCE.md; a sample of the units, one
 * thread): N=20, 32 units, joins 0.41 -> 0.24-0.27 s, halves 0.22 ->
 * 0.25-0.29 s (from 2.5e8 pairs: joins 0.24-0.25, halves 0.29-0.32, the
 * choices' own cost); no chunk to N=19 chooses a key (gdb; N=17's
 * instructions the same under callgrind); one N=27 set joined in 10.3 s
 * with 1024, 13.7 with 512 and 14.2-14.7 with 256; N=22 1.25-1.48 ns a
 * solution with the sample cut for smaller chunks, against 1.72-1.74
 * with 1024 on every chunk.  Changes the work reported, never a count. */
#ifndef QCJ_SET_KEY_FROM_PAIRS
#define QCJ_SET_KEY_FROM_PAIRS 1e9
#endif
#ifndef QCJ_SET_KEY_SAMPLE
#define QCJ_SET_KEY_SAMPLE 1024
#endif

/* [spread key sample] Where more of a column set's bottoms follow a chunk
 * of tops' first join, its key is chosen on the bottoms of
 * QCJ_SET_KEY_SPLITS splits spread over all of them (join/unit.c), up to
 * QCJ_SET_KEY_SAMPLE / QCJ_SET_KEY_SPLITS from each.  Measured on N=28
 * unit 18799644 (avx512vbmi, one thread, its joins whole, two rounds):
 * 37.0 and 33.5 s with the first join's bottoms, 24.8 and 24.8 with 64
 * splits of 16 bottoms; in a scratch build 256 splits of 4 were no
 * faster than 64 of 16 (30.7 s against 28.7-29.4; docs/PERFORMANCE.md).
 * Changes the work reported, never a count; 0 keeps the first join's
 * bottoms. */
#ifndef QCJ_SET_KEY_SPLITS
#define QCJ_SET_KEY_SPLITS 64
#endif

/* [middle carried] How the byte tables treat odd N's middle queen
 * (join/joiner.h): carried in the bottoms, all middle columns of one
 * weight joined in one pass (QCJ_MIDDLE_CARRIED), or spared, one pass per
 * column with the tops that spare it (QCJ_MIDDLE_SPARED).  Changes the
 * work reported, never a count.  Measured: see docs/PERFORMANCE.md. */
#ifndef QCJ_TABLES_MIDDLE
#define QCJ_TABLES_MIDDLE QCJ_MIDDLE_CARRIED
#endif

/* Units the plan aims at (the profiles' target): a pattern whose estimated
 * cost passes 1/target of the board's is cut into slices of its column
 * sets, so that no unit holds more than that share and work spreads evenly
 * over many threads and ranks (the slices share the pattern's band lists:
 * join/shared.c).  4096 up to N=25 (measured with the balance report,
 * bench/balance.c: the speed-up a greedy schedule of the measured unit
 * times allows at 64 workers, docs/PERFORMANCE.md).  From N=26, 11 times
 * as many per step of N, as the board's work grows (Q(N+1)/Q(N) is 10-12
 * there), aiming at units of under 30 minutes of one core at N=27 and 28
 * (a checkpoint's grain, and balance over 10^4 cores); no more past N=28
 * (N=28: 6.9 million units).  Measured: the aim was missed, N=27's units
 * took 32 minutes on average, because no pattern's estimate passes the
 * target there and a unit was a whole pattern (docs/PERFORMANCE.md); from
 * N=27 [set units] below cut every pattern instead.  Shapes the units:
 * part of the plan's fingerprint wherever it cuts a pattern. */

/* [set units] In the profiles with `sets` (from N=27) every pattern is cut
 * into one unit per column set (per column key), whatever its estimate:
 * the estimate counts column sets, so it cannot tell a set that joins for
 * an hour from one that joins for a minute, and a unit that lists its
 * bands set by set ([own lists]) pays nothing for holding one set.  The
 * units: N=27 5,447,334 (1,550,606 patterns); N=28 10,037,076 sets
 * (6,863,638 units cut by the target above), each in four units by [set
 * parts] below; what they take: docs/PERFORMANCE.md.  Shapes the units:
 * part of the plan's fingerprint. */

/* [set parts] In the profiles with `parts` > 1 (from N=28) each column
 * set's unit is cut into 4 units (the profiles' parts), part k joining the
 * tops of the k-th equal share of the set's top splits (join/halves.h)
 * with all the set's bottoms, which each part builds again.  At N=28 a
 * column set alone joined for 13 to 76 minutes of one core (eight sets
 * sampled, mean 44), against units of at most 30 minutes, and the estimate
 * cannot tell the heavy sets apart, so every set is cut alike.  Measured
 * (1/64 of the joins timed and scaled): the heaviest set seen, 76 minutes
 * whole, in four parts of 844, 1055, 981 and 844 s, whose halves took
 * 20-28 s each against 98 s for the set whole (its tops were built in
 * chunks, each with the bottoms again, before); eight units drawn at
 * random 120 to 1310 s; 40,148,304 units.  Parts cut where the splits'
 * pairs of band placements reach equal shares came out no better (974,
 * 1096, 886, 945 s). docs/PERFORMANCE.md.  Shapes the units: part of the
 * plan's fingerprint. */

/* [band cost] The cost of listing a pattern's bands, as a share of the
 * mean pattern's estimated cost: measured 9% at N=16, 3% at N=17, 6% at
 * N=18 (one thread, each pattern's band building timed apart). */
#define QCJ_BAND_COST 0.06

/* [shared ahead] How many patterns early the units that list a cut
 * pattern's bands (its first slice, or with [split build] its parts'
 * units) come in the plan (join/join.c), and so how many patterns' band
 * lists are held at once. */
#define QCJ_SHARED_AHEAD 1

/* Shared band lists (join/shared.c) kept for slices still to come while
 * no unit holds them (those of the patterns ahead, a stopped or resumed
 * run), and entries whose buffers are kept for the next pattern. */
#define QCJ_SHARED_IDLE (2 * QCJ_SHARED_AHEAD)
#define QCJ_SHARED_SPARES 4

/* [large plans] In the profiles with `large` (from N=25: the boards too
 * big to count here whole):
 * [in place] [outside quota] a band is listed in two walks,
 * counting then placing (join/bands.c), so no unsorted copy is held: 16
 * bytes a placement at the peak instead of 36, for twice the walk (a few
 * percent of a unit from N=25 on); and without the placements no half can
 * use, which the wide blocks of N >= 25 make most of an unbalanced side's
 * (N=28, a side with 14 of M's 24 columns: 1.5 million placements a band
 * instead of 20.9); and [no empty units] a pattern none of whose sets its
 * unit counts (the orbits' other members have smaller patterns) is no
 * unit (at N=25 56797 of 177880 patterns; N=27 695134 of 2245740;
 * only odd N has them).  Below it the plans and the lists stay as they
 * were; such a unit, still in the plan there, lists nothing and reports
 * no work.
 * Changes memory, time, the units and the work reported (the queens the
 * listing places), never a count. */

/* [own lists] In the profiles with `own` (from N=26) a unit lists its
 * bands for each column set it counts, the top's on the set's columns
 * alone and the bottom's on the rest (join/unit.c, join/bands.c), instead
 * of once for all its sets, or a cut pattern's slices sharing the
 * pattern's lists.  Measured on N=28's unit 3000000 (one set of a pattern
 * cut in 5): its lists 742 MiB shared, 265 MiB its own; listing takes 1.17
 * s CPU for the pattern shared, 0.41 s for one set, against more than 55
 * minutes for the set's join.  N=26's unit 10920 (20 sets): 523 MiB at its
 * peak listed for all its sets, 224 MiB set by set. Changes memory and the
 * work reported, never the plan or a count. */

/* [halves capped] The halves of a side one join holds (join/unit.c):
 * tops past it are taken in chunks, each joined with all the set's
 * bottoms, built again for each chunk; bottoms are joined whenever they
 * reach it (odd N's merged pass too, between one middle column and the
 * next).  A thread so holds two chunks, at about 16 bytes a top and 26 a
 * bottom (the halves, grouped, and the table joiners' planes).  Measured:
 * N=28's unit 6000000 peaks 376 MiB above the plan at 4 Mi, 300 MiB at 2
 * Mi for twice the halves built (130 s against 261 s of CPU, against a
 * join of about an hour); N=28's unit 3000000 held 6.65 GiB uncapped;
 * N=27's first set of unit 646094 takes 17.8 s to build capped, 7.1 s
 * whole, against about 700 s of joins.  See docs/PERFORMANCE.md. */
#define QCJ_HALVES_CAP ((size_t)1 << 22)

/* [memory budget] In a profile with fresh scratch a unit aims its band
 * lists, a chunk of tops and a chunk of bottoms at this many bytes
 * (join/unit.c): [long tops] the bottoms' chunk holds QCJ_HALVES_CAP
 * (at most half of what the lists leave, at QCJ_BOTTOM_BYTES a bottom),
 * and the tops' chunk the rest at QCJ_TOP_BYTES a top; neither falls
 * below a sixteenth of the halves the budget holds (a unit whose lists
 * alone fill it still goes on).
 * Set so that a thread stays under 512 MiB: a unit's peak passes the
 * budget by some 14 MiB (a chunk may pass its cap by one split's halves;
 * the groups' offsets, the compact copy, whole 2 MiB pages).  Measured on
 * the Zen 4 development machine, the largest units sampled: at 480 MiB
 * N=28 494.4, N=27 486.4, N=26 484.4 MiB; at 464, N=28 478.4 (units
 * 38729042 and 38467715), N=27 470.4 (1874642), N=26 468.5 (102150),
 * N=24 402.5 MiB; with the tops held grouped beside their raw copy
 * while grouped, the largest of the record samples: N=28 485.5
 * (38467715) and 485.3 (29282534), N=27 481.5 (150599), N=26 481.6
 * (138117), N=24 390.7 MiB; with [grouped in place], N=28 472.6
 * (38467715) and 470.4 (29282534), N=27 464.5 (150599), N=26 441.5
 * (74189), N=24 360.7 MiB.  Changes
 * memory and the work reported (bottoms built again per chunk of tops),
 * never the plan or a count.  docs/PERFORMANCE.md. */
#define QCJ_UNIT_MEMORY_BUDGET ((size_t)464 << 20)
/* ... the bytes a top and a bottom take in their chunks: a top its raw
 * and grouped copies (8 bytes each); a bottom those and the table
 * joiner's planes and compact copy.  Measured at N=28 (unit 38729042,
 * 4.25 Mi halves a side): 170 MiB in all, 42 bytes for a top and a
 * bottom together. */
#define QCJ_TOP_BYTES 16
#define QCJ_BOTTOM_BYTES 26
/* ... [tops held grouped] (join/unit.c): a top grouped in place and held
 * so while its chunk is joined. */
#define QCJ_TOP_HELD_BYTES 8
/* ... and the most tops a chunk holds whatever the budget: a group's
 * offsets are 32-bit. */
#define QCJ_TOPS_CAP_MOST ((size_t)1 << 28)

/* [transposed lists] The halves test pairs of band placements through
 * the transposed lists of the band by the middle row (join/bands.c,
 * join/halves.c), on the levels whose pair loop is plain C, where that
 * band has QCJ_HALVES_PLANES_FROM_ROWS rows or more and the profile has
 * `planes` (to N=23).  Measured at the portable level, one thread
 * (docs/PERFORMANCE.md): a run's time over its joins' fell by 5% at
 * N=18, 4% on a part of N=21's units and 10% on a part of N=23's; with
 * the 4-row bands of N=17 the lists are too short and runs took 1.02 to
 * 1.09 times as long.  At N=24 it saved 12% of a unit's time but added 30-42%
 * to a unit's memory (283 MiB for unit 8360 against 218): left off there,
 * below the record sizes' memory bound. */
#define QCJ_HALVES_PLANES_FROM_ROWS 5

/* [fits by mask] The plain C pair loop of the halves (join/halves.c:
 * portable, NEON) tests a list of up to QCJ_HALVES_MASK_TO entries into a
 * mask of its fits first and stores only those; longer lists store every
 * pair and keep the fits.  Measured (portable, one thread, paired rounds
 * on an AMD EPYC, Zen 3; docs/PERFORMANCE.md): up to 16 took 0.80 of the
 * time of storing every pair at N=17 (8 rounds), N=16 0.99, N=19 0.97;
 * up to 24 0.94-0.97 at N=17 (16 against 24: 0.96-0.97); every list took
 * 0.89-0.93 at N=17 with the fits stored by a loop alone, but 1.06-1.07
 * at N=18 with two stores first, whose longer lists fit more often than
 * the loop's branch can guess. */
#ifndef QCJ_HALVES_MASK_TO
#define QCJ_HALVES_MASK_TO 16
#endif

/* [splits located first] The halves (join/halves.c) find the band lists
 * of up to QCJ_HALVES_BATCH splits in a loop of their own before pairing
 * them.  Measured (paired rounds, one thread, on an AMD EPYC, Zen 4,
 * against locating each split as it is paired; docs/PERFORMANCE.md):
 * as committed, avx512vbmi N=17 0.980 and 0.983 (15 rounds); with each
 * split's four lists also prefetched as it is located, which took 0.995
 * and 0.989 of this code's time and was left out, avx512vbmi N=17 0.959
 * and 0.972 (21), N=18 0.979 and 0.974, avx2 N=17 0.994 and 0.989, N=18
 * 0.987 and 0.987, portable N=17 0.961 and 0.966, N=18 0.979 and 0.971.
 * 8 took 1.06 and 1.02 of 32's time at avx512vbmi N=17, 128 1.04 and
 * 1.00.  Changes speed alone. */
#ifndef QCJ_HALVES_BATCH
#define QCJ_HALVES_BATCH 32
#endif

/* The largest rank table a band may have (entries): keeps a unit's memory
 * bounded whatever N; the split above stays far below it (2^26 entries of
 * 4 bytes, 256 MiB, against the peaks measured above). */
#define QCJ_RANKS_MAX (1u << 26)

/* [sort streams] The halves' counting sort into key groups (join/unit.c)
 * runs QCJ_SORT_STREAMS parts of its input side by side, each with
 * counters of its own, where there are at most QCJ_SORT_STREAMS_GROUPS
 * groups (and QCJ_SORT_STREAMS halves a group on average): measured in
 * docs/PERFORMANCE.md.  Changes speed alone: no count, no work reported. */
#define QCJ_SORT_STREAMS 4
#define QCJ_SORT_STREAMS_GROUPS 1024

/* [sort by halves of the key] From this many key bits the halves' sort
 * into groups (join/unit.c) goes in two passes: by the key's high
 * QCJ_SORT_COARSE_BITS bits (64 streams of stores, 256 with [sort
 * streams]), then inside each such coarse group (at N=28 some 64 Ki
 * halves, 512 KiB, in the L2 cache) by the rest.  The one-pass scatter
 * over 2^18 groups misses the cache at each store.  Measured with perf on
 * the Zen 4 development machine (avx512vbmi, N=28 unit 31201435,
 * qcount_sample --joins 16, parts 12 and 7 of 16: the grouping does
 * not depend on the part; 432 groupings, 1.85e9 halves): the
 * grouping's samples 19.8 s -> 14.8 s with 9 coarse bits and no streams
 * in the first pass, 15.2 s with them, 15.0 s (with the key laid out in
 * the counting pass) with 6 bits and streams, as kept: the three alike,
 * as the grouping is bound by
 * memory traffic, some 8 ns a half.  A two-pass sort by the low bits
 * first, stably by the high (tried before), moved each half twice and
 * was slower.  With [planes by chunks], the unit's estimate 0.986 of
 * before (ratio of medians, four runs each, both cores busy), and
 * unit 18799644's 0.966 (six runs each).  Changes speed alone: the order
 * inside a group, never a count or the work reported. */
#define QCJ_SORT_COARSE_FROM_BITS 14
#define QCJ_SORT_COARSE_BITS 6

/* [bottom tiles] The byte tables' sieve (join/tables_loop.h) cuts the
 * bottoms into tiles of neighbouring key groups whose planes take at most
 * QCJ_TABLES_TILE_BYTES, and meets the tiles one after another with every
 * top block that meets them ([tiles outer]), so that a tile is read from
 * memory once and stays in the L2 cache (1 MiB a core on the development
 * machine) while it is swept.  Sets whose planes fit one tile (every set
 * to N=20) are not cut.  Measured when each chunk of top blocks met every
 * tile in turn, on one column set of N=26 unit 100000 (4 Mi bottoms of 5
 * digits a call, 21 MB of planes; avx512vbmi, one thread, join seconds):
 * untiled 25.3-29.4, tiles of 512 KiB 18.3-21.9; later, four N=25 sets,
 * tiles of 128 and 64 KiB 0.96 and 0.93 of 512's time.  Tiles outer took
 * 0.84-0.87 of that sieve's joins on one N=27 set and 0.94-0.98 on one of
 * N=26 (docs/PERFORMANCE.md).  Then on N=28 unit 31201435 (`qcount_sample
 * 28 --joins 16 --memory-units 12 --seed 3 --unit 31201435`, medians of
 * four runs each beside the other build on the other core): tiles of
 * 256 KiB 0.96 of 512's time, 128 and 64 KiB 1.00 and 1.03 of 256's,
 * 1 and 2 MiB 1.08 and 1.22 of 512's (2 MiB one run); with [paired
 * blocks] (tables_loop.h), against unpaired 256 KiB, paired 256 KiB
 * 0.815 and paired 512 KiB 0.79: alike, 512 kept.  Changes speed
 * alone: no count, no work reported. */
#ifndef QCJ_TABLES_TILE_BYTES
#define QCJ_TABLES_TILE_BYTES ((size_t)512 << 10)
#endif

/* [planes by chunks] The bottoms laid out as the byte tables' planes
 * (join/tables.h) a chunk of this many at a time, every plane of a chunk
 * before the next, so that a bottom is read from memory once, not once a
 * digit.  Measured with perf on the Zen 4 development machine
 * (avx512vbmi, N=28 unit 31201435, qcount_sample --joins 16, whose
 * timing lays the bottoms out three times a join): the layout's
 * samples 12.2 s -> 4.6 s; not measured at other chunk sizes.  Changes
 * speed alone: no count, no work reported. */
#define QCJ_TABLES_PLANES_CHUNK 512

/* [compact runs] The blocks of one top group (in a tile: those of one low
 * key part that meet it, [tiles outer]) sweep a copy of their runs of
 * bottom groups laid end to end, one sweep and one ragged tail a block,
 * where the group has at least
 * QCJ_TABLES_COMPACT_BLOCKS blocks and its runs number at least
 * 2^QCJ_TABLES_COMPACT_RUN_BITS.  Measured (one thread, paired rounds):
 * N=18 avx2 2.36 -> 2.21 s, avx512vbmi 1.61 -> 1.53, portable 5.80 ->
 * 5.64; one N=26 set (avx512vbmi) 17.8 -> 15.5 s; at least 1, 2 or 4
 * blocks, 2 or 4 runs: alike at N=18.  Changes speed alone: no count, no
 * work reported. */
#define QCJ_TABLES_COMPACT_BLOCKS 2
#define QCJ_TABLES_COMPACT_RUN_BITS 1

/* [tops ahead] In a tile, the tops of the group QCJ_TABLES_TOPS_AHEAD_GROUPS
 * after the one being joined are prefetched, their first
 * QCJ_TABLES_TOPS_AHEAD_LINES cache lines (8 tops a line).  Measured on
 * the Zen 4 development machine with [blocks across groups], avx512vbmi,
 * the joins of one N=27 set (unit 1874642, 1/8 of its joins), two rounds
 * on each core, ratio of medians against no prefetch: 2 groups ahead, 3
 * lines 0.85 and 0.89; 2 and 8 0.86 and 0.96; 3 and 3 0.92 and 0.87; 4
 * and 8 0.86 and 0.91; the tops of the next low part's every group at
 * once, 1.04-1.10 on a lighter set (unit 3920713).  Changes speed alone:
 * no count, no work reported. */
#define QCJ_TABLES_TOPS_AHEAD_GROUPS 2
#define QCJ_TABLES_TOPS_AHEAD_LINES 3

/* [mapped vectors] [huge pages] A join vector (join/vec.c) of at least
 * this many bytes is, on Linux, a mapping of its own made of whole 2 MiB
 * pages, asked for as transparent huge pages (madvise), so that the band
 * lists, read at scattered column sets, need fewer TLB entries.  Measured
 * on the Zen 3 development machine, whose kernel gives huge pages only
 * where asked (paired rounds, one thread, ratio of medians and median
 * ratio against 4 KiB pages): avx2 N=18 0.964 and 0.971, portable N=18
 * 0.887 and 0.869 (there the band lists reach 4 MiB; to N=17 no vector
 * reaches 2 MiB, and N=17's 1.016 and 1.001 are noise); peak memory at
 * N=18 26 -> 33 MiB.  From 512 KiB instead: 1.048 and 0.997 of 2 MiB's
 * time (avx2 N=18), 36 MiB.  Such a vector grows by moving its pages:
 * N=28's unit 38729042 peaked at 498.5 MiB where each growth copied the
 * whole old buffer into new pages, and at 434.4 MiB moved (the Zen 4
 * development machine).  A kernel set to give huge pages to every
 * mapping, or to none, needs no hint or heeds none; with none, that unit
 * took 477.4 MiB copied.  Changes speed and memory alone, never a
 * count. */
#ifndef QCJ_VEC_HUGE_FROM
#define QCJ_VEC_HUGE_FROM ((size_t)2 << 20)
#endif

/* Scratch sets a plan keeps for reuse between units (join/scratch.c):
 * more than threads ever count units at once.  Fresh pages per unit
 * (page faults, zeroing) cost a quarter of the run at N=16. */
#define QCJ_POOL_SLOTS 256

/* [kept scratch] The pool keeps a scratch set given back only while its
 * buffers hold at most this many bytes (join/scratch.c): a kept set
 * settles at the sum of each buffer's largest over the units it counted.
 * Measured on the Zen 4 development machine, one thread: qcount_sample
 * 22 --units 64 --strata 4 --seed 1 (its timed pass counts its units as
 * a run does, but in random order, so that it also holds several
 * patterns' shared lists, join/shared.c) peaked at 459.8 MiB with every
 * set kept, 424.0 with this bound, its largest unit taking 149.0 alone;
 * CPU time 0.95-1.04 of every set kept (three rounds, median 1.017).  A
 * run in plan order (qcount 22 --part 3/20, 376 units) peaked at 222.7
 * MiB in all. */
#ifndef QCJ_SCRATCH_KEPT_MAX
#define QCJ_SCRATCH_KEPT_MAX ((size_t)192 << 20)
#endif

/* [fresh scratch] In the profiles with `fresh` (from N=24) the pool keeps
 * no scratch set: each unit starts from no working memory and frees its
 * own (join/scratch.h), so a thread's peak is its largest unit's own peak,
 * the figure the sampler measures (bench/sample.c), where a kept set
 * settles at the sum of each buffer's largest over every unit the thread
 * counted.  Measured on the Zen 4 development machine (qcount_sample 24
 * --units 8 --strata 4 --seed 1, its timed pass as a run counts, four
 * rounds alternating the cores): a thread of kept sets peaked at 516.9 MiB
 * over those 8 units, fresh at 370.8, the largest unit's own; CPU time
 * 1.026 (ratio of medians) and 1.013 (median ratio) of kept sets', the
 * fresh pages of units of some 10 s.  Below N=24 units are short (N=22:
 * 0.42 s for 85 MiB on average) and kept sets hold less
 * (docs/PERFORMANCE.md). */

#endif
