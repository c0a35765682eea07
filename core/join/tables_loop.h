/* SPDX-License-Identifier: MIT */
/*
 * tables_loop.h — the byte-table joiner's loop ([byte tables], tables.h),
 * written once and included by each instruction set's tables file, which
 * defines before it:
 *   TBL_BLOCK        tops a block holds (8: byte entries; 64 or 128: entries
 *                    of one or two words)
 *   TBL_DIGIT_BITS   bits a digit (at most, where TBL_DIGIT_WIDTH is
 *                    defined)
 *   TBL_DIGITS_MAX   digits of the widest ANDed part, 64 bits
 *   tbl_block        one block's tables (where the file keeps them)
 *   tbl_sums         the running count of disjoint pairs
 *   tbl_sums_zero(), tbl_sums_total(sums)
 *   tbl_build(&block, tops, n, digits, width)
 *       the tables of the n (1..TBL_BLOCK) tops at `tops`, for `digits`
 *       digits of `width` bits (TBL_DIGIT_BITS unless TBL_DIGIT_WIDTH);
 *   tbl_sweep(&block, planes, stride, b0, nb, digits, &sums)
 *       adds the disjoint pairs of the block and bottoms [b0, b0+nb) of
 *       the planes (nb >= 1; planes readable QCJ_TABLES_PAD bytes past
 *       their end);
 *   TBL_COUNT        the name of the count function to define (static);
 *   TBL_DIGIT_WIDTH(bits), optionally: the bits a digit of a `bits`-bit
 *       ANDed part, at most TBL_DIGIT_BITS and as many digits as it
 *       gives ([narrow digits]); by default TBL_DIGIT_BITS.
 * `digits` is a constant in each copy of the loop (one per digit count,
 * so that the loops over the digits unroll).
 */
#ifndef QCJ_TABLES_LOOP_H
#define QCJ_TABLES_LOOP_H

#include <string.h>

#include "config.h"
#include "joiner.h"
#include "qcount.h"
#include "stop.h"
#include "tables.h"

#define TBL_INLINE static inline __attribute__((always_inline))

/* [middle carried] How odd N's middle queen is treated (joiner.h): carried
 * in the bottoms, the passes of one weight merged, on every level (see
 * config.h, QCJ_TABLES_MIDDLE, for the measurements). */
#define TBL_MIDDLE QCJ_TABLES_MIDDLE

#ifndef TBL_DIGIT_WIDTH
#define TBL_DIGIT_WIDTH(bits) TBL_DIGIT_BITS
#endif

/* One join's fixed context, which the sieves and their inlined helpers
 * read: made by TBL_COUNT, copied by the sieves' dispatch with `digits`
 * made a constant, so that once inlined its fields are the sieve's own
 * constants and registers again (the sieves' code as with them passed
 * one by one: see tbl_untiled). */
typedef struct tbl_join {
    const qcj_groups *tops;   /* the top groups (2^key_bits) */
    const uint32_t *boff;     /* the bottom groups' offsets: group g is bottoms boff[g] ..
                               * boff[g + 1] - 1 */
    const uint8_t *planes;    /* the bottoms' planes (tables.h), plane j at planes + j * stride */
    size_t stride;            /* bytes from one plane to the next */
    uint8_t *compact;         /* room for a compact copy of runs ([compact runs]) */
    size_t cs;                /* bytes from one plane of the copy to the next */
    int digits;               /* digits of the ANDed part: a constant in each sieve */
    int width;                /* bits a digit (TBL_DIGIT_WIDTH) */
} tbl_join;

/* [runs of groups] Bottom groups taken in runs: base + (hg << run) ..
 * base + ((hg + 1) << run) - 1 for every submask hg of high. */
typedef struct tbl_runs {
    uint32_t base;    /* the first group (of the tile) */
    uint32_t high;    /* the free key bits above the run's, shifted down by run */
    int run;          /* the low free key bits: 2^run neighbouring groups a run */
} tbl_runs;

/* The runs of the key bits `avail` leaves free (a run the low ones),
 * from group base on. */
TBL_INLINE tbl_runs tbl_runs_of(uint32_t base, uint32_t avail)
{
    const int run = __builtin_ctz(~avail);     /* its low free bits */
    return (tbl_runs){.base = base, .high = avail >> run, .run = run};
}

/* [compact runs] The planes of the runs r of join j's bottoms, copied one
 * after another into j's compact copy, so that the blocks of one top
 * group sweep them once, with one ragged tail, instead of a sweep and a
 * tail a run.  [runs ascending] The submasks are taken in increasing
 * order, so that the reads of each plane move forward through memory, as
 * the hardware prefetchers expect: at N=27, where a copy gathers runs of
 * one to a few groups, the copies took about a third of the joins' time,
 * and descending order 1.04 times as long in all (docs/PERFORMANCE.md).
 * Copies 64 bytes at a time: reads up to 63 bytes past a run (the planes'
 * padding covers it) and writes as far past the copy (cs leaves room),
 * then zeros 64 bytes past the last, as the planes' padding is.  Returns
 * the bottoms copied. */
typedef uint8_t tbl_copy_unit __attribute__((vector_size(32)));

TBL_INLINE size_t tbl_compact(const tbl_join *j, tbl_runs r)
{
    size_t at = 0;
    for (uint32_t hg = 0;; hg = (hg - r.high) & r.high) {     /* [runs ascending] */
        const size_t b0 = j->boff[r.base + (hg << r.run)];
        const size_t nb = j->boff[r.base + ((hg + 1) << r.run)] - b0;
        for (int d = 0; d < j->digits; d++) {
            const uint8_t *src = j->planes + (size_t)d * j->stride + b0;
            uint8_t *dst = j->compact + (size_t)d * j->cs + at;
            for (size_t x = 0; x < nb; x += 64) {   /* through vectors: memcpy's */
                tbl_copy_unit u, v;                  /* own moves were 16 bytes */
                memcpy(&u, src + x, sizeof u);
                memcpy(&v, src + x + 32, sizeof v);
                memcpy(dst + x, &u, sizeof u);
                memcpy(dst + x + 32, &v, sizeof v);
            }
        }
        at += nb;
        if (hg == r.high)
            break;
    }
    for (int d = 0; d < j->digits; d++)    /* a tail reads zeros past the copy */
        memset(j->compact + (size_t)d * j->cs + at, 0, 64);
    return at;
}

/* [compact runs] Whether `blocks` blocks (a top group's; in a tile, a low
 * key part's) sweep a compact copy of their 2^runs_bits runs rather than
 * the runs in place. */
static inline int tbl_compacts(size_t blocks, int runs_bits)
{
    return blocks >= QCJ_TABLES_COMPACT_BLOCKS && runs_bits >= QCJ_TABLES_COMPACT_RUN_BITS;
}

/* [paired blocks] Where the level has tbl_sweep_pair(&a, &b, planes,
 * stride, b0, nb, digits, &sums), two blocks (as tbl_sweep, each) that
 * load each plane vector once for both, the tiled sieve sweeps its
 * blocks two at a time: a sweep of planes past the L1 cache is bound by
 * the loads from L2.  On the Zen 4 development machine (avx512vbmi, 6
 * digits): 64-byte vectors swept from planes of 4096 bottoms (in L1)
 * took 1.94 ns each, of 8192 or more (in L2) 3.2-3.3 ns; swept by two
 * blocks at once, 1.88-1.95 ns a block's vector at every size.  On
 * N=28 unit 31201435, whose copies and runs are tens of KiB, the
 * estimate took 0.79 of the time of single sweeps with the best tiles
 * for them (config.h, QCJ_TABLES_TILE_BYTES).  The untiled sieve
 * (every set to N=20) sweeps one block at a time: paired there, N=18
 * and N=20 took 1.01 of the time.  Changes speed alone: no count, no
 * work reported. */
#ifdef TBL_SWEEP_PAIR
#define TBL_PAIRED 2
#else
#define TBL_PAIRED 1
#define tbl_sweep_pair(a, b, planes, stride, b0, nb, digits, sums) \
    (tbl_sweep(a, planes, stride, b0, nb, digits, sums),        \
     tbl_sweep(b, planes, stride, b0, nb, digits, sums))
#endif

/* [runs of groups] The block (and the block also, unless NULL: [paired
 * blocks]) against the runs r of join j's bottoms, one sweep a run, in
 * place, into *sums.  Returns the bottoms swept. */
TBL_INLINE size_t tbl_sweep_runs(const tbl_block *block, const tbl_block *also, const tbl_join *j,
                                 tbl_runs r, tbl_sums *sums)
{
    size_t swept = 0;
    for (uint32_t hg = r.high;; hg = (hg - 1) & r.high) {     /* submasks of high */
        const size_t b0 = j->boff[r.base + (hg << r.run)];
        const size_t nb = j->boff[r.base + ((hg + 1) << r.run)] - b0;
        if (nb && also)
            tbl_sweep_pair(block, also, j->planes, j->stride, b0, nb, j->digits, sums);
        else if (nb)
            tbl_sweep(block, j->planes, j->stride, b0, nb, j->digits, sums);
        swept += nb;
        if (hg == 0)
            break;
    }
    return swept;
}

/* [bottom tiles] The ready blocks (1, or 2: [paired blocks]) against a
 * tile's runs r, into *sums: swept over join j's compact copy of `copied`
 * bottoms where `compacts`, else over the runs in place.  Returns the
 * bottoms swept. */
TBL_INLINE size_t tbl_sweep_ready(const tbl_block *blocks, int ready, int compacts, size_t copied,
                                  const tbl_join *j, tbl_runs r, tbl_sums *sums)
{
    const tbl_block *also = TBL_PAIRED == 2 && ready == 2 ? &blocks[1] : NULL;
    if (compacts) {
        if (also)
            tbl_sweep_pair(&blocks[0], also, j->compact, j->cs, 0, copied, j->digits, sums);
        else
            tbl_sweep(&blocks[0], j->compact, j->cs, 0, copied, j->digits, sums);
        return copied;
    }
    return tbl_sweep_runs(&blocks[0], also, j, r, sums);
}

/* [sieve] [runs of groups] Join j's every top group tg, a block at a
 * time, against the bottom groups inside ~(tg | extra), 2^run neighbours
 * a sweep: the sieve where the bottoms' planes fit one tile.  Adds the
 * pairs tested to *tested; returns the disjoint pairs. */
TBL_INLINE uint64_t tbl_sieve(const tbl_join *j, const qcj_join_shape *shape, uint32_t extra,
                              uint64_t *tested)
{
    const uint32_t kmask = (1u << shape->key_bits) - 1u;
    const uint32_t *toff = j->tops->off, *boff = j->boff;
    tbl_sums sums = tbl_sums_zero();
    uint64_t tried = 0;
    for (uint32_t tg = 0; tg <= kmask; tg++) {
        const uint64_t nt = toff[tg + 1] - toff[tg];
        if (nt == 0)
            continue;
        const tbl_runs r = tbl_runs_of(0, ~(tg | extra) & kmask);
        uint64_t free_bottoms = 0;
        for (uint32_t hg = r.high;; hg = (hg - 1) & r.high) {      /* submasks of high */
            free_bottoms += boff[(hg + 1) << r.run] - boff[hg << r.run];
            if (hg == 0)
                break;
        }
        if (free_bottoms == 0)
            continue;
        /* [compact runs] copied at the group's first joined block */
        const int compacts = tbl_compacts((nt + TBL_BLOCK - 1) / TBL_BLOCK,
                                          __builtin_popcount(r.high));
        int copied = 0;
        for (uint32_t i = toff[tg]; i < toff[tg + 1]; i += TBL_BLOCK) {
            tbl_block block;
            const size_t n = toff[tg + 1] - i < TBL_BLOCK ? toff[tg + 1] - i : TBL_BLOCK;
            if (!qcj_shape_joins(shape, tg, i))
                continue;                   /* [sampled joins] */
            tried += n * free_bottoms;
            tbl_build(&block, j->tops->low + i, n, j->digits, j->width);
            if (compacts) {
                if (!copied)
                    tbl_compact(j, r);
                copied = 1;
                tbl_sweep(&block, j->compact, j->cs, 0, free_bottoms, j->digits, &sums);
                continue;
            }
            tbl_sweep_runs(&block, NULL, j, r, &sums);
        }
    }
    *tested += tried;
    return tbl_sums_total(sums);
}

/* [tops ahead] Prefetches the first lines (QCJ_TABLES_TOPS_AHEAD_LINES at
 * most) of the tops of the group QCJ_TABLES_TOPS_AHEAD_GROUPS after (th,
 * l) in the order of the submasks th of meets.  The groups (th, l) of one
 * low part are as many groups apart as there are low parts, scattered
 * over a tops array larger than the caches at N=27, so the hardware does
 * not foresee them; each tile reads them all again. */
TBL_INLINE void tbl_tops_ahead(const qcj_groups *tops, uint32_t meets, int lbits, uint32_t l,
                               uint32_t th)
{
    for (int a = 0; a < QCJ_TABLES_TOPS_AHEAD_GROUPS && th; a++)
        th = (th - 1) & meets;
    const uint32_t tg = th << lbits | l;
    const uint64_t *t = tops->low + tops->off[tg];
    const size_t n = tops->off[tg + 1] - tops->off[tg];
    for (size_t x = 0; x < n && x < 8 * QCJ_TABLES_TOPS_AHEAD_LINES; x += 8)
        __builtin_prefetch(t + x);
}

/* The tops of the groups (th, l), th << lbits | l, for every submask th
 * of meets. */
TBL_INLINE size_t tbl_tops_met(const qcj_groups *tops, uint32_t meets, int lbits, uint32_t l)
{
    size_t tops_met = 0;
    for (uint32_t th = meets;; th = (th - 1) & meets) {      /* submasks of meets */
        const uint32_t tg = th << lbits | l;
        tops_met += tops->off[tg + 1] - tops->off[tg];
        if (th == 0)
            break;
    }
    return tops_met;
}

/* [compact runs] Whether the blocks of tops_met tops sweep a compact copy
 * of the runs r rather than the runs in place: if they do, copied into
 * join j's copy, *copied its bottoms (else 0). */
TBL_INLINE int tbl_copy_runs(const tbl_join *j, tbl_runs r, size_t tops_met, size_t *copied)
{
    const int compacts = tbl_compacts((tops_met + TBL_BLOCK - 1) / TBL_BLOCK,
                                      __builtin_popcount(r.high));
    *copied = compacts ? tbl_compact(j, r) : 0;
    return compacts;
}

/* [stop check] Whether the thread's stop flag is raised: if so, *stopped
 * is set. */
TBL_INLINE int tbl_stopped(int *stopped)
{
    if (!qci_stop_raised(qci_stop_flag))
        return 0;
    *stopped = 1;
    return 1;
}

/* [bottom tiles] The sieve where the bottoms' planes pass a tile: as
 * tbl_sieve, but the key's high hbits bits (> 0) cut both sides: a bottom
 * tile is the 2^lbits groups of one high part bh (lbits = key_bits -
 * hbits), small enough to stay in the L2 cache (a set's own key puts the
 * bits most tops use high: [tiles by top use], set_key.h).  [tiles outer] The tiles
 * are taken one after another, and in each every low part l of the top
 * keys in turn: its runs in the tile are copied once ([compact runs]) and
 * swept by the blocks of its groups (th, l) that meet the tile (th & bh
 * clear), their tables built there.  So a tile is read from memory once,
 * and every low part's copy of its runs reads it from the cache; a block's
 * tables are built once for each tile it meets (8.7 times a block on
 * one N=27 set, one build for each sweep).  Taken the other way round (a chunk of
 * blocks built once and met with every tile in turn) each copy read its
 * runs from memory, and the copies took a third of N=27's joins
 * (docs/PERFORMANCE.md).  [blocks across groups] All the groups (th, l)
 * of one low part sweep the same bottoms of the tile, so their tops fill
 * blocks together: on one N=27 set, blocks of one group's tops alone
 * held 5.79 tops of 8, blocks across groups 7.49, 23% fewer blocks
 * (docs/PERFORMANCE.md).  [tops ahead] The tops of the groups are
 * prefetched QCJ_TABLES_TOPS_AHEAD_GROUPS groups ahead.  [sampled tiles]
 * The sampler joins whole tiles, a part of the (tile, join) pairs: a tile
 * read from memory and its tops streamed for every low part, as in a
 * whole join.  Low parts sampled in every tile made each part's copies
 * and tops cold: on one N=28 unit parts of 64 scaled up took 1.30 times
 * the whole joins' time a solution (docs/PERFORMANCE.md).  [stop check] The
 * thread's stop flag is read before each tile and every 64 low parts (a
 * join from N=25 takes minutes, a tile about a second): *stopped is set
 * and the count left partial.  Adds the pairs tested to *tested; returns
 * the disjoint pairs. */
TBL_INLINE uint64_t tbl_sieve_tiled(const tbl_join *j, const qcj_join_shape *shape, uint32_t extra,
                                    int hbits, uint64_t *tested, int *stopped)
{
    const int lbits = shape->key_bits - hbits;
    const uint32_t lmask = (1u << lbits) - 1u, hmask = (1u << hbits) - 1u;
    const uint32_t tiles = ~(extra >> lbits) & hmask;  /* the tiles extra leaves: bh */
    const qcj_groups *tops = j->tops;
    const uint32_t *toff = tops->off;
    tbl_sums sums = tbl_sums_zero();
    uint64_t tried = 0, paired = 0;
    for (uint32_t bh = tiles, more = 1; more; more = bh != 0, bh = (bh - 1) & tiles) {
        if (tbl_stopped(stopped))
            return 0;                                   /* [stop check] */
        const uint32_t base = bh << lbits;
        if (!qcj_shape_joins(shape, bh, shape->join) || j->boff[base + lmask + 1] == j->boff[base])
            continue;                                   /* [sampled tiles], or no bottoms */
        const uint32_t meets = ~bh & hmask;    /* the top groups' high parts that meet it */
        for (uint32_t l = 0; l <= lmask; l++) {
            if ((l & 63) == 0 && tbl_stopped(stopped))
                return 0;                               /* [stop check] */
            const size_t tops_met = tbl_tops_met(tops, meets, lbits, l);
            if (tops_met == 0)
                continue;
            const tbl_runs r = tbl_runs_of(base, ~(l | extra) & lmask);
            size_t copied;      /* [compact runs] l's runs in the tile, if enough blocks */
            const int compacts = tbl_copy_runs(j, r, tops_met, &copied);
            if (compacts && copied == 0)
                continue;
            /* [blocks across groups] the rest of a group's tops held; [paired blocks] */
            uint64_t held[TBL_BLOCK];
            size_t nheld = 0, in_ready = 0;     /* tops in the blocks ready */
            tbl_block blocks[TBL_PAIRED];
            int ready = 0;
            for (uint32_t th = meets;; th = (th - 1) & meets) {
                const uint32_t tg = th << lbits | l;
                const uint64_t *t = tops->low + toff[tg], *end = tops->low + toff[tg + 1];
                tbl_tops_ahead(tops, meets, lbits, l, th);     /* [tops ahead] */
                while (t < end) {
                    const uint64_t *block_tops = t;
                    size_t n = (size_t)(end - t);
                    if (nheld == 0 && n >= TBL_BLOCK) {
                        n = TBL_BLOCK;
                        t += TBL_BLOCK;
                    } else {
                        const size_t take = n < TBL_BLOCK - nheld ? n : TBL_BLOCK - nheld;
                        memcpy(held + nheld, t, take * sizeof *t);
                        nheld += take;
                        t += take;
                        if (nheld < TBL_BLOCK)
                            break;                  /* the next group fills it */
                        block_tops = held;
                        n = TBL_BLOCK;
                        nheld = 0;
                    }
                    tbl_build(&blocks[ready], block_tops, n, j->digits, j->width);
                    in_ready += n;
                    if (++ready == TBL_PAIRED) {
                        paired += TBL_PAIRED == 2;              /* [path counters] */
                        tried += in_ready * tbl_sweep_ready(blocks, ready, compacts, copied, j,
                                                            r, &sums);
                        ready = 0;
                        in_ready = 0;
                    }
                }
                if (th == 0)
                    break;
            }
            if (nheld) {
                tbl_build(&blocks[ready++], held, nheld, j->digits, j->width);
                in_ready += nheld;
            }
            if (ready)
                tried += in_ready * tbl_sweep_ready(blocks, ready, compacts, copied, j, r, &sums);
        }
    }
    *tested += tried;
    if (shape->paths)
        shape->paths->paired_sweeps += paired;
    return tbl_sums_total(sums);
}

/* The sieves at the digit count of the shape, a constant in each case
 * (TBL_COUNT has checked it).  Two functions, not inlined, so that the
 * tiled loop's code does not change the untiled one's: inlined side by
 * side, the untiled sieve of the avx2 level took 1.2 times as long at
 * N=18. */
#define TBL_DIGIT_CASES(CASE) CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) \
    TBL_DIGIT_CASES_9(CASE) TBL_DIGIT_CASES_12(CASE)
/* [one case unoptimized] Unoptimized (the sanitizer builds, -O0), a
 * constant digit count buys nothing, and every inlined case keeps stack
 * slots of its own for each vector temporary: the sixteen cases of the
 * avx512 level's tiled sieve took a 9.4 MiB frame under clang's ASan,
 * past the 8 MiB main-thread stack.  There the digit count is read at
 * run time, in one case.  The sieve's code is the same either way. */
#ifndef __OPTIMIZE__
#undef TBL_DIGIT_CASES
#define TBL_DIGIT_CASES(CASE) default: CASE(0)
#endif
/* a case past the level's digits is never reached (TBL_COUNT refuses
 * it); clamped, so that its loops stay inside the tables */
#define TBL_DIGITS_AT_MOST(c) ((c) <= TBL_DIGITS_MAX ? (c) : TBL_DIGITS_MAX)
#if TBL_DIGITS_MAX > 8
#define TBL_DIGIT_CASES_9(CASE) CASE(9) CASE(10) CASE(11)
#else
#define TBL_DIGIT_CASES_9(CASE)
#endif
#if TBL_DIGITS_MAX > 11
#define TBL_DIGIT_CASES_12(CASE) CASE(12) CASE(13) CASE(14) CASE(15) CASE(16)
#else
#define TBL_DIGIT_CASES_12(CASE)
#endif
/* join j at digit count c: a copy of *j with its digits the constant c
 * (c = 0: j's own, [one case unoptimized]) */
#define TBL_JOIN_AT(c) (tbl_join){.tops = j->tops, .boff = j->boff, .planes = j->planes,       \
                                  .stride = j->stride, .compact = j->compact, .cs = j->cs,      \
                                  .digits = (c) ? TBL_DIGITS_AT_MOST(c) : j->digits,            \
                                  .width = j->width}

/* tbl_sieve of join j at its digit count (the case's constant). */
static __attribute__((noinline)) uint64_t tbl_untiled(const tbl_join *j,
                                                      const qcj_join_shape *shape, uint32_t extra,
                                                      uint64_t *tested)
{
#define TBL_CASE(c)                                                                        \
    case c:                                                                                \
        return tbl_sieve(&TBL_JOIN_AT(c), shape, extra, tested);
    switch (j->digits) {
        TBL_DIGIT_CASES(TBL_CASE)
    }
#undef TBL_CASE
    return 0;
}

/* tbl_sieve_tiled of join j at its digit count (the case's constant). */
static __attribute__((noinline)) uint64_t tbl_tiled(const tbl_join *j, const qcj_join_shape *shape,
                                                    uint32_t extra, int hbits, uint64_t *tested,
                                                    int *stopped)
{
#define TBL_CASE(c)                                                                        \
    case c:                                                                                \
        return tbl_sieve_tiled(&TBL_JOIN_AT(c), shape, extra, hbits, tested, stopped);
    switch (j->digits) {
        TBL_DIGIT_CASES(TBL_CASE)
    }
#undef TBL_CASE
    return 0;
}

/* The joiner's count (joiner.h): the bottoms into planes (the joiner's
 * scratch), then the sieve at the digit count of the shape. */
static int TBL_COUNT(const qcj_join_shape *shape, const qcj_groups *tops,
                     const qcj_groups *bottoms, uint32_t extra, qcj_vec *scratch, uint64_t *pairs,
                     uint64_t *tested)
{
    const int digits = qcj_tables_digits(shape->bits, TBL_DIGIT_BITS);
    const int width = TBL_DIGIT_WIDTH(shape->bits);
    const size_t nb = bottoms->off[(size_t)1 << shape->key_bits];
    const size_t stride = qcj_tables_stride(nb);
    if (digits > TBL_DIGITS_MAX)
        return QC_EINVAL;
    /* [bottom tiles] the fewest high key bits that cut the planes into
     * tiles of at most tile bytes (a tile may hold more: groups are not
     * cut) */
    const size_t tile = shape->tile_bytes ? shape->tile_bytes : QCJ_TABLES_TILE_BYTES;
    int hbits = 0;
    while (hbits < shape->key_bits && (stride * (size_t)digits >> hbits) > tile)
        hbits++;
    /* [compact runs] the most bottoms a copy holds: a tile's */
    size_t most = nb;
    if (hbits) {
        const int lbits = shape->key_bits - hbits;
        most = 0;
        for (uint32_t bh = 0; bh < 1u << hbits; bh++) {
            const size_t in_tile = bottoms->off[(size_t)(bh + 1) << lbits]
                                 - bottoms->off[(size_t)bh << lbits];
            most = in_tile > most ? in_tile : most;
        }
    }
    const size_t cs = (most + 63) / 64 * 64 + 64 + QCJ_TABLES_PAD;
    /* the scratch: the planes, then the compact copy, each aligned to 64
     * bytes */
    const size_t planes_bytes = (stride * (size_t)digits + 63) / 64 * 64;
    uint8_t *mem = qcj_vec_reserve(scratch, planes_bytes + cs * (size_t)digits + 64, 0);
    if (!mem)
        return QC_ENOMEM;
    uint8_t *planes = mem + (-(uintptr_t)mem & 63);
    uint8_t *compact = planes + planes_bytes;
    qcj_tables_planes(bottoms->low, nb, width, digits, planes, stride);
    int stopped = 0;
    if (hbits && shape->paths)
        shape->paths->tiled_joins++;                    /* [path counters] */
    const tbl_join join = {.tops = tops, .boff = bottoms->off, .planes = planes, .stride = stride,
                           .compact = compact, .cs = cs, .digits = digits, .width = width};
    *pairs = hbits ? tbl_tiled(&join, shape, extra, hbits, tested, &stopped)
                   : tbl_untiled(&join, shape, extra, tested);
    return stopped ? QC_ESTOP : QC_OK;
}

#endif
