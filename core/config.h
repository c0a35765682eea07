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

/* qc_engine_default: join from this N on, eightfold below.  N=14: join 5.0
 * ms, eightfold 21.5; below, all take under 5 ms and eightfold is as fast
 * or faster (N=13: 4.1 against 4.6).  (performance-log.md,
 * "2026-12-02 — measurements that lived only in config.h's comments".) */
#define QC_JOIN_FROM_N 14

/* ---- kernel: the backtracking step ---------------------------------- */

/* [stop check] Rows of the subtrees between two readings of the stop flag:
 * at N=27 a subtree of 10 rows is some 10^5 placements, under a millisecond.
 * (performance-log.md,
 * "2026-12-02 — measurements that lived only in config.h's comments".) */
#define QCK_STOP_ROWS 10

/* ---- halving -------------------------------------------------------- */

/* Units wanted (part of the fingerprint): about QCH_UNITS up to N =
 * QCH_GROW_FROM_N, hundreds a thread for balance; twice as many per step
 * of N above, so that a unit stays short (N=20: 32k units of a few ms); at
 * most QCH_MAX_DOUBLINGS doublings (2^20 units, 16 MiB of plan).  (Not yet
 * in performance-log.md.) */
#define QCH_UNITS 2000
#define QCH_GROW_FROM_N 16
#define QCH_MAX_DOUBLINGS 9

/* ---- eightfold ------------------------------------------------------ */

/* [lanes] Independent searches stepped in turn: 4 is 5-15% faster than 2,
 * 6 and 8 (N=15, one thread).  (performance-log.md,
 * "2026-12-02 — measurements that lived only in config.h's comments".) */
#define QCE_LANES 4

/* [deep seeds] With a stop flag, the rows the lanes' subtrees span (at
 * least 2): 14 rows are some 10^5 placements at any N (N=21..27), under a
 * millisecond against some 100 ns a seed; 12 rows give a few 10^3, 16 rows
 * 10^6-10^7.  (performance-log.md,
 * "2026-12-02 — measurements that lived only in config.h's comments".) */
#define QCE_STOP_ROWS 14

/* ---- join ----------------------------------------------------------- */

/* [plan profiles] The join plan's size-dependent choices, one row a profile
 * from its board size to the next row's, each measured at its knob below.
 * A board takes its own row unless told to take another's (qcount.h,
 * qc_plan_options; join/profile.c scales it to the board).  Columns:
 *   less     centre width m = N - less (qcj_unit_cols)
 *   target   the units the plan aims at ("Units the plan aims at" below)
 *   transposed  [transposed lists] the halves test their pairs transposed
 *   fresh    [fresh scratch] and [memory budget]
 *   large    [large plans]: bands listed in place and pruned, no empty
 *            units, and the ANDed rest up to 64 bits wide (qcj_key_bits)
 *   own      [own lists]
 *   sets     [set units]
 *   shares   [set shares]: units a column set is cut into
 * Shapes the units (m, target, sets, shares): part of the fingerprint. */
typedef struct qcj_profile {
    const char *name;
    int from_n, less;
    double target;
    unsigned char transposed, fresh, large, own, sets, shares;
} qcj_profile;

static inline const qcj_profile *qcj_profile_of(int n)
{
    static const qcj_profile rows[] = {
        /* name        from less target    transposed fresh large own sets shares */
        {"small",         1, 10, 4096,             1,    0,    0,   0,  0,   1},
        {"middle",       19,  8, 4096,             1,    0,    0,   0,  0,   1},
        {"budget",       24,  8, 4096,             0,    1,    0,   0,  0,   1},
        {"large",        25,  6, 4096,             0,    1,    1,   0,  0,   1},
        {"own-lists",    26,  6, 4096.0 * 11,      0,    1,    1,   1,  0,   1},
        {"set-units",    27,  4, 4096.0 * 121,     0,    1,    1,   1,  1,   1},
        {"set-shares",   28,  4, 4096.0 * 1331,    0,    1,    1,   1,  1,   4},
    };
    unsigned i = (unsigned)(sizeof rows / sizeof *rows) - 1;
    while (i > 0 && rows[i].from_n > n)
        i--;
    return &rows[i];
}

/* Centre width m: the central columns M a unit's pattern fixes (same
 * parity as N; at most 24 - N%2, as the plan lists 2^m patterns).  A larger
 * m gives more units, and fewer columns to each band, so less memory: N-10
 * to N=18, N-8 to N=24; from N=25 the 6- and 7-row bands' lists are a
 * unit's memory, so N-6 at 25 and 26, N-4 from 27.  The lists that chose
 * these: performance-log.md, "2026-12-02 — measurements that lived only in
 * config.h's comments"; the peaks they give:
 * (performance-log.md, "2026-11-25 — record sizes in bounded memory: N=26
 * to 28").  Part of the plan's fingerprint. */
static inline int qcj_centre_width(int n, int less)
{
    int m = n - less;
    if (m > 24 - n % 2)
        m = 24 - n % 2;                 /* keeps the parity of N */
    return m < n % 2 ? n % 2 : m;
}

static inline int qcj_unit_cols(int n)
{
    return qcj_centre_width(n, qcj_profile_of(n)->less);
}

/* Group key bits k (part of the fingerprint): more bits test fewer pairs
 * (each drops about a quarter) but leave emptier groups, blocks and runs.
 * 4 to N=17, 6 at 18, 9 at 19, then N-10 but at least what leaves the
 * ANDed rest 32 bits and at most 16 (so from N=25 the rest passes 32
 * bits); 17 at N=26, 18 from 27.  To N=21 the nibble tables' best, which
 * at N=22 were 7% faster at 13 than at 12 (performance-log.md, "2026-12-02 —
 * measurements that lived only in config.h's comments");
 * the 6-bit tables are not measured at other k.  avx2 N=18 took 1.04 times
 * as long at 8 and 1.68 at 10; N=25 17 0.97-0.99 of 16's time, N=26 17
 * 0.77 and N=27 18 0.65 of 16's joins (performance-log.md, "2026-11-27 —
 * tiles share their compact copies; more key bits from N=26; the record
 * plan again"). */
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

/* [set key] A chunk of tops gets its column set's own key (join/set_key.h)
 * where it and the first bottoms it meets make QCJ_SET_KEY_FROM_PAIRS
 * pairs, chosen on up to QCJ_SET_KEY_SAMPLE halves a side (a multiple of
 * 64).  N=20's joins 0.41 -> 0.24-0.27 s (from 2.5e8 pairs, the choices'
 * cost in the halves ate the gain); an N=27 set joined in 10.3 s at 1024,
 * 13.7 at 512.
 * (performance-log.md, "2026-11-27 — a key for each column set ([set
 * key]); the record plan's N=22, 27 and 28 again") */
#ifndef QCJ_SET_KEY_FROM_PAIRS
#define QCJ_SET_KEY_FROM_PAIRS 1e9
#endif
#ifndef QCJ_SET_KEY_SAMPLE
#define QCJ_SET_KEY_SAMPLE 1024
#endif

/* [spread key sample] Where more of a set's bottoms follow a chunk of tops'
 * first join, the splits spread over them that its key is chosen on
 * (join/unit.c), QCJ_SET_KEY_SAMPLE / QCJ_SET_KEY_SPLITS bottoms from each;
 * 0 takes the first join's.  N=28 unit 18799644's joins 24.8 s against
 * 33.5-37.0; 256 splits of 4 no faster.  (performance-log.md,
 * "2026-11-28 (night) — a set's key chosen on bottoms spread over the set;
 * where N=28's joins go; the record plan again") */
#ifndef QCJ_SET_KEY_SPLITS
#define QCJ_SET_KEY_SPLITS 64
#endif

/* [middle carried] Odd N's middle queen in the byte tables (join/joiner.h):
 * carried in the bottoms, one pass a weight (QCJ_MIDDLE_CARRIED), or one
 * pass a middle column with the tops that spare it (QCJ_MIDDLE_SPARED).
 * Carried takes 0.86 of spared's instructions at avx2 N=17, 0.54 at
 * portable N=15.  (performance-log.md, "2026-11-24 — odd N's middle queen
 * in the byte tables, per level") */
#ifndef QCJ_TABLES_MIDDLE
#define QCJ_TABLES_MIDDLE QCJ_MIDDLE_CARRIED
#endif

/* Units the plan aims at (the profiles' target): a pattern whose estimate
 * passes 1/target of the board's is cut into slices of its column sets,
 * which share its band lists (join/shared.c).  4096 up to N=25: the
 * measured units allow a speed-up of 62-63 at 64 workers
 * (performance-log.md, "2026-11-22 — work balance of the join plan").  From
 * N=26, 11 times as many per step of N (Q(N+1) / Q(N) is 10-12), for units
 * under 30 minutes of a core; none more past 28.  Part of the fingerprint
 * wherever it cuts a pattern. */

/* [set units] From N=27 (`sets`) every pattern is cut into one unit per
 * column set, whatever its estimate, which counts sets and cannot tell a
 * set of an hour from one of a minute.  N=27: 5,447,334 units, a sample's
 * all under 12 minutes.  Part of the fingerprint.  (performance-log.md,
 * "2026-11-26 — one unit per column set from N=27; the record plan again") */

/* [set shares] From N=28 (`shares`) each column set's unit is cut into
 * `shares` units, share k joining the k-th share of the set's top splits
 * (join/halves.h) with all its bottoms.  A set alone joined for up to 76
 * minutes of a core; in four shares the heaviest took 844-1055 s a share.
 * Part of the fingerprint.  (performance-log.md, "2026-11-26 — N=28's
 * column sets in four parts; the plan as runs of units") */

/* [band cost] Listing a pattern's bands, as a share of the mean pattern's
 * estimated cost: measured 9% at N=16, 3% at N=17, 6% at N=18.  (Not yet
 * in performance-log.md.) */
#define QCJ_BAND_COST 0.06

/* [shared ahead] How many patterns early the units that list a cut
 * pattern's bands (its first slice, or with [split build] its pieces'
 * units) come in the plan (join/join.c).  Not measured apart. */
#define QCJ_SHARED_AHEAD 1

/* Shared band lists kept while no unit holds them, and entries kept for
 * their buffers (join/shared.c).  Not measured apart. */
#define QCJ_SHARED_IDLE (2 * QCJ_SHARED_AHEAD)
#define QCJ_SHARED_SPARES 4

/* [large plans] From N=25 (`large`): [in place] [outside quota] a band is
 * listed in two walks (join/bands.c), 16 bytes a placement at the peak
 * instead of 36, and leaves out the placements no half can use (N=28, a
 * side of 14 of 24 columns: 1.5 million a band instead of 20.9); [no empty
 * units] a pattern none of whose sets its unit counts is no unit (odd N:
 * at N=25 56797 of 177880).  (performance-log.md,
 * "2026-12-02 — measurements that lived only in config.h's comments".) */

/* [own lists] From N=26 (`own`) a unit lists its bands for each column set
 * it counts, on the set's columns alone (join/unit.c, join/bands.c).  N=28
 * unit 3000000: 265 MiB of lists against 742 shared; N=26 unit 10920: 224
 * MiB at its peak against 523 listed once for all its sets.
 * (performance-log.md, "2026-11-25 — record sizes in bounded memory: N=26
 * to 28") */

/* [bottoms take the rest] The most bottoms a join holds, as a multiple of
 * QCJ_HALVES_CAP, where they take the budget a chunk of tops leaves
 * (join/unit.c).  N=28 unit 3908318 (its tops in one chunk), bottoms a
 * join at 4, 8 and 16 Mi: 22.1-22.8, 17.3-17.9 and 14.6 s (peaks 294,
 * 375 and 551 MiB); below 16 Mi the budget bounds them first.
 * (performance-log.md,
 * "2026-12-07 (eighth sitting) — the top's band lists freed while its
 * tops are joined; …") */
#define QCJ_BOTTOMS_GROWTH 4

/* [halves capped] The halves of a side one join holds (join/unit.c): more
 * tops make chunks, each with all the set's bottoms built again.  At 4 Mi
 * N=28 unit 6000000 peaks 376 MiB above the plan, at 2 Mi 300 MiB for
 * twice the halves built.  (performance-log.md, "2026-11-25 — record
 * sizes in bounded memory: N=26 to 28") */
#define QCJ_HALVES_CAP ((size_t)1 << 22)

/* [memory budget] With fresh scratch, the bytes a unit aims its band lists
 * and its chunks of tops and bottoms at (join/unit.c; [long tops]), a top
 * taking QCJ_TOP_BYTES (its raw and grouped copies) and a bottom
 * QCJ_BOTTOM_BYTES (those, its planes and compact copy).  A unit's peak
 * passes the budget by some 14 MiB, so a thread stays under 512 MiB
 * (performance-log.md, "2026-11-28 (evening) — long chunks of tops under
 * the memory budget; the record plan again"), once its listing's
 * placements are freed before its halves ([listing freed], join/unit.c:
 * N=24's last units 516 -> 421 MiB; performance-log.md, "2026-12-06 —
 * the Zen 5 again: …").  [top lists freed] From N=26, where a unit lists
 * its bands set by set, a chunk of tops also takes the room of the top's
 * lists, which are freed while it is joined: N=28 units whose tops now
 * take fewer chunks took 0.70-0.90 of the time, those in as many chunks
 * as before 0.95-1.00, peaks 294-476 MiB (performance-log.md, "2026-12-07
 * (eighth sitting) — the top's band lists freed while its tops are
 * joined; …"). */
#define QCJ_UNIT_MEMORY_BUDGET ((size_t)464 << 20)
#define QCJ_TOP_BYTES 16
#define QCJ_BOTTOM_BYTES 26
/* ... a top with [tops held grouped] (join/unit.c): its grouped copy alone;
 * with [grouped in place] the largest unit's peak seen is 472.6 MiB (N=28)
 * (performance-log.md, "2026-11-29 — Two blocks a sweep, tops grouped in
 * place: the record plan within its target"). */
#define QCJ_TOP_HELD_BYTES 8
/* ... the most tops a chunk holds: a group's offsets are 32-bit (a bound,
 * not a measurement). */
#define QCJ_TOPS_CAP_MOST ((size_t)1 << 28)

/* [transposed lists] The fewest rows of the band by the middle row for the
 * halves' plain C pair loop to use its transposed lists (join/halves.c),
 * in profiles with `transposed`.  Portable: 5% less time at N=18, 10% on part
 * of N=23; N=17's 4-row lists 1.02-1.09 times slower; at N=24 a unit's peak
 * 283 MiB against 218.  (performance-log.md, "2026-11-27 — the halves by
 * transposed lists at the portable level; the levels against the
 * reference again") */
#define QCJ_HALVES_TRANSPOSED_FROM_ROWS 5

/* [fits by mask] The longest list the halves' plain C pair loop
 * (join/halves.c) takes into a mask of its fits before storing them.
 * Portable: 0.80 of storing every pair at N=17, 0.94 at N=18; 24 took
 * 1.03-1.04 of 16's time at N=17, every list through it 1.06-1.07 at N=18.
 * (performance-log.md, "2026-11-27 — a third development machine (AMD
 * EPYC, Zen 3, no AVX-512); the halves' pair loops there; the suite's
 * time") */
#ifndef QCJ_HALVES_MASK_TO
#define QCJ_HALVES_MASK_TO 16
#endif

/* [splits located first] How many splits the halves (join/halves.c) locate
 * in a loop of their own, their band lists found, before pairing them.
 * avx512vbmi N=17 0.98 of the time; 8 took 1.02-1.06 and 128 1.00-1.04 of
 * 32's.  (performance-log.md, "2026-11-28 — a fourth development machine
 * (AMD EPYC, Zen 4); avx512vbmi's clash vectors never inverted; the
 * halves' splits located first; every level against the reference; N=19
 * and 20 on two threads; a unit of N=28's memory with huge pages") */
#ifndef QCJ_HALVES_BATCH
#define QCJ_HALVES_BATCH 32
#endif

/* The largest rank table a band may have (entries; 2^26 of 4 bytes, 256
 * MiB): bounds a unit's memory whatever N.  A bound, not a measurement. */
#define QCJ_RANKS_MAX (1u << 26)

/* [sort streams] The input streams of the halves' counting sort
 * (join/unit.c), each with its own counters, up to QCJ_SORT_STREAMS_GROUPS
 * groups (of QCJ_SORT_STREAMS halves or more on average): avx512vbmi N=18
 * 0.96 of the time.  (performance-log.md, "2026-11-26 — the halves'
 * counting sort in four streams") */
#define QCJ_SORT_STREAMS 4
#define QCJ_SORT_STREAMS_GROUPS 1024

/* [sort by halves of the key] From QCJ_SORT_COARSE_FROM_BITS key bits the
 * halves are sorted first by the key's high QCJ_SORT_COARSE_BITS bits
 * (join/unit.c), so that a coarse group (N=28: 512 KiB) sits in L2.  N=28
 * unit 31201435's grouping 19.8 -> 15.0 s; 9 bits alike (bound by memory
 * traffic).  (performance-log.md, "2026-11-29 — N=28's halves: grouped in
 * two passes, laid out once, built fewer times") */
#define QCJ_SORT_COARSE_FROM_BITS 14
#define QCJ_SORT_COARSE_BITS 6

/* [bottom tiles] The most bytes of planes a tile of bottoms holds in the
 * byte tables' sieve (join/tables_loop.h, [tiles outer]), so that it stays
 * in L2 while swept; to N=20 no set is cut.  N=28 unit 31201435 with
 * [paired blocks]: 512 KiB 0.79 and 256 KiB 0.815 of unpaired 256 KiB's
 * time; unpaired, 1 and 2 MiB took 1.08 and 1.22 of 512's.
 * (performance-log.md, "2026-11-29 — Two blocks a sweep, tops grouped in
 * place: the record plan within its target") */
#ifndef QCJ_TABLES_TILE_BYTES
#define QCJ_TABLES_TILE_BYTES ((size_t)512 << 10)
#endif

/* [planes by chunks] The bottoms laid out as planes (join/tables.h) this
 * many at a time, so that each is read from memory once, not once a digit:
 * N=28 unit 31201435's layout 12.2 -> 4.6 s; no other size measured.
 * (performance-log.md, "2026-11-29 — N=28's halves: grouped in two passes,
 * laid out once, built fewer times") */
#define QCJ_TABLES_PLANES_CHUNK 512

/* [compact runs] The fewest blocks of a top group, and runs (2^bits) of
 * bottom groups it meets, for the blocks to sweep one copy of the runs laid
 * end to end (join/tables_loop.h).  N=18: avx2 2.36 -> 2.21 s, avx512vbmi
 * 1.61 -> 1.53; 1, 2 or 4 blocks and 2 or 4 runs alike.
 * (performance-log.md, "2026-11-26 — compact runs, the halves' guard bit,
 * clash counts") */
#define QCJ_TABLES_COMPACT_BLOCKS 2
#define QCJ_TABLES_COMPACT_RUN_BITS 1

/* [tops ahead] How many groups ahead, and how many cache lines (8 tops a
 * line), the tops are prefetched in a tile (join/tables_loop.h).  With
 * [blocks across groups], N=27 unit 1874642: 0.85-0.89 of no prefetch at
 * 2 groups and 3 lines; 0.86-0.96 at 2 and 8, 3 and 3, 4 and 8.
 * (performance-log.md,
 * "2026-11-28 (midday) — a tile's top blocks filled across groups; their
 * tops prefetched; the record plan on the Zen 4 machine") */
#define QCJ_TABLES_TOPS_AHEAD_GROUPS 2
#define QCJ_TABLES_TOPS_AHEAD_LINES 3

/* [mapped vectors] [huge pages] The size from which a join vector
 * (join/vec.c) is its own mapping of whole 2 MiB pages, madvised as huge
 * pages, and grows by moving them.  N=18: avx2 0.96-0.97, portable
 * 0.87-0.89 of 4 KiB pages' time, peak 26 -> 33 MiB; from 512 KiB no faster
 * and 36 MiB (performance-log.md, "2026-11-28 (morning) — avx2's clash
 * vectors added in pairs, its missing tops by count; huge pages for the
 * join's large vectors; against the reference") */
#ifndef QCJ_VEC_HUGE_FROM
#define QCJ_VEC_HUGE_FROM ((size_t)2 << 20)
#endif

/* Scratch sets a plan keeps for reuse between units (join/scratch.c), more
 * than threads ever count at once: fresh pages per unit cost a quarter of
 * the run at N=16.  (performance-log.md,
 * "2026-12-02 — measurements that lived only in config.h's comments".) */
#define QCJ_POOL_SLOTS 256

/* [kept scratch] The most bytes a scratch set may hold and still be kept by
 * the pool (join/scratch.c).  N=22, 64 units: a thread's peak 424.0 MiB
 * against 459.8 with every set kept, CPU time alike (median 1.017).
 * [fresh scratch] From N=24 (`fresh`) the pool keeps none, so a thread's
 * peak is its largest unit's own (join/scratch.h).  N=24, 8 units: 370.8
 * MiB against 516.9 kept, for 1.01-1.03 of the CPU time.  Both:
 * (performance-log.md, "2026-11-28 (afternoon) — a thread's memory
 * bounded: vectors moved, not copied; fresh scratch from N=24 and a memory
 * budget; kept scratch bounded below") */
#ifndef QCJ_SCRATCH_KEPT_MAX
#define QCJ_SCRATCH_KEPT_MAX ((size_t)192 << 20)
#endif

#endif
