/* SPDX-License-Identifier: MIT */
/*
 * joiner.h — the join engine's joining interface: how the halves of one
 * column set are paired, one implementation ("joiner") per way of
 * counting, chosen per ISA level in one place ([per-level joiners]).
 *
 * A joiner counts the pairs (top, bottom) of halves whose border
 * signatures share no diagonal, over halves sorted into key groups by
 * their k key diagonals (unit.c): the sieve ([sieve]) takes each top group
 * tg against the bottom groups that are subsets of ~(tg | extra), and the
 * pairs of such groups are tested on the rest of the signature, the
 * "ANDed part" (geometry.h: the low 32 bits, or from N=25 up to 64).
 *
 * The joiners:
 *   tables  [byte tables] (tables.h), one file per instruction set:
 *           tables_portable.c  128-bit entries, 128 tops a lookup (64-bit
 *                              words on CPUs without 128-bit vectors);
 *           tables_avx2.c      VPSHUFB on 32 bytes, 8 tops x 32 bottoms;
 *           tables_avx512.c    VPSHUFB on 64 bytes, 8 tops x 64 bottoms;
 *           tables_avx512vbmi.c VPERMB on 6-bit digits, 8 x 64;
 *           tables_neon.c      TBL on 6-bit digits, 8 tops x 16 bottoms;
 *   and     one AND per pair (and_loop.c), every level: the count the
 *           tables are checked against, and the one an audit recounts
 *           with (it shares no pair-counting code with the tables).
 *
 * [middle carried] / [middle spared] Odd N has a middle queen in row h,
 * in one of the columns neither half uses.  A joiner says how its bottoms
 * treat it:
 *   QCJ_MIDDLE_CARRIED  the bottoms of every middle column c are built
 *       sparing c's diagonals and carrying them (ORed into the signature),
 *       so that a top the middle queen attacks meets none of them; the
 *       bottoms of all c of one weight may then join the tops in one pass
 *       (merges_passes);
 *   QCJ_MIDDLE_SPARED   one pass per c: the bottoms spare c's diagonals,
 *       and only the tops that spare them too are joined (the tops' key
 *       groups it meets are passed as `extra`, and dropped whole).
 * Even N has no middle queen: one pass, extra 0.
 */
#ifndef QCJ_JOINER_H
#define QCJ_JOINER_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"
#include "vec.h"

/* The halves of one column set on one side, sorted into 2^key_bits groups
 * by their key diagonals: group g's ANDed parts (key bits cleared) are
 * low[off[g]] .. low[off[g+1]-1]. */
typedef struct qcj_groups {
    const uint32_t *off;   /* 2^key_bits + 1 offsets */
    const uint64_t *low;
} qcj_groups;

/* [path counters] How often the units took the paths that cut their work
 * in pieces: counted per unit in its scratch, added up in the plan
 * (settings.h, qcj_plan_paths), for the tests to see that a profile's chunked
 * paths run ([scaled profile], profile.c).  Each is bumped once a piece,
 * never inside a sweep. */
typedef struct qcj_paths {
    uint64_t top_chunks;      /* [halves capped] chunks of a set's tops past its first */
    uint64_t bottom_chunks;   /* ... joins of bottoms the cap cut off */
    uint64_t tiled_joins;     /* [bottom tiles] joins whose bottoms were cut in tiles */
    uint64_t paired_sweeps;   /* [paired blocks] sweeps of two top blocks at once */
    uint64_t share_units;      /* [set shares] units holding a share of their sets' tops */
    uint64_t in_place;        /* [grouped in place] chunks of tops grouped in place */
    uint64_t coarse;          /* [sort by halves of the key] groupings in two passes */
    uint64_t set_keys;        /* [set key] chunks of tops with their set's own key */
    uint64_t spread_keys;     /* [spread key sample] ... chosen on the spread bottoms */
    uint64_t own_lists;       /* [own lists] sets whose bands were listed for them */
    uint64_t top_relists;     /* [top lists freed] top lists listed again for a chunk */
    uint64_t grown_bottoms;   /* [bottoms take the rest] chunks of tops whose joins hold
                               * more bottoms than the set's cap */
} qcj_paths;

/* What a count is given besides the halves. */
typedef struct qcj_join_shape {
    int key_bits;          /* k, 0..18: groups per side 2^k */
    int bits;              /* the ANDed part: bits 0..bits-1 (1..64) */
    /* [sampled joins] For the sampler alone (bench/sample.c): with
     * samples > 1, only the top blocks (tables), the tiles where the
     * bottoms are cut into tiles ([sampled tiles], [bottom tiles]) or the
     * top groups (AND loop) whose hash modulo samples is `sample` are
     * joined, sample == samples joins none; samples 0 or 1 joins all, as
     * every count does. */
    uint32_t samples, sample;
    /* [sampled tiles] Which join of its unit this is (unit.c counts
     * them): a tiled join's tiles are chosen by tile and join, so that
     * each join samples other tiles. */
    uint32_t join;
    /* [bottom tiles] (tables): the largest tile of bottom planes, in
     * bytes; 0 takes config.h's QCJ_TABLES_TILE_BYTES (tests set it small
     * to cut small cases).  Changes speed alone, never a count. */
    size_t tile_bytes;
    /* [path counters] the unit's (NULL: none kept) */
    qcj_paths *paths;
} qcj_join_shape;

/* [sampled joins] Whether item `item` of `group` (a top block of a top
 * group, a tile of a join, ...) is joined under shape s: a deterministic
 * spread over the samples, even where every group has one item. */
static inline int qcj_shape_joins(const qcj_join_shape *s, uint32_t group, uint32_t item)
{
    if (s->samples <= 1)
        return 1;
    /* every bit of group and item stirred into the low bits (a multiply
     * alone would leave them zero for item 0, and every group's first
     * chunk in sample 0) */
    uint64_t h = ((uint64_t)group << 32 | item) + 0x9e3779b97f4a7c15ULL;
    h = (h ^ h >> 30) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ h >> 27) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h % s->samples == s->sample;
}

typedef enum qcj_middle { QCJ_MIDDLE_SPARED, QCJ_MIDDLE_CARRIED } qcj_middle;

typedef struct qcj_joiner {
    const char *name;      /* "tables" or "and", with the level's name in tests */
    qcj_middle middle;     /* odd N: how the bottoms treat the middle queen */
    int merges_passes;     /* odd N, carried: one pass per weight, not per column */
    /* The pairs (top in group tg, bottom in a group inside ~(tg | extra))
     * whose ANDed parts are disjoint, into *pairs; adds the pairs tested
     * (both groups' sizes multiplied, padding not counted) to *tested.
     * `scratch` is the joiner's own scratch, kept from call to call.  Returns
     * QC_OK; QC_ENOMEM; or QC_ESTOP where the thread's stop flag rose
     * ([stop check], stop.h: the tables read it between parts of a tiled
     * join).  *pairs is undefined unless QC_OK. */
    int (*count)(const qcj_join_shape *shape, const qcj_groups *tops, const qcj_groups *bottoms,
                 uint32_t extra, qcj_vec *scratch, uint64_t *pairs, uint64_t *tested);
} qcj_joiner;

/* Each level's own joiners: its byte tables (its tables_<level>.c) and
 * its AND loop (and_loop.c), [per-level names] (isa.h). */
#define qcj_tables_joiner QC_LEVEL(qcj_tables_joiner)
#define qcj_and_joiner QC_LEVEL(qcj_and_joiner)
extern const qcj_joiner qcj_tables_joiner;
extern const qcj_joiner qcj_and_joiner;

/* The joiners of a level: the tables, the fastest; the AND loop. */
typedef enum qcj_joiner_kind { QCJ_JOIN_TABLES, QCJ_JOIN_AND, QCJ_JOIN_KINDS_ } qcj_joiner_kind;

/* [per-level joiners] The level's own joiner of a kind, [per-level
 * names] (isa.h): each level's copy returns its own level's;
 * qcj_joiner_at(level, kind) any level's. */
#define qcj_joiner_of QC_LEVEL(qcj_joiner_of)
const qcj_joiner *qcj_joiner_of(qcj_joiner_kind kind);

QC_ISA_DECLARE(const qcj_joiner *, qcj_joiner_of, (qcj_joiner_kind kind));

static inline const qcj_joiner *qcj_joiner_at(qci_isa_level level, qcj_joiner_kind kind)
{
    static const qcj_joiner *(*const at_level[QC_ISA_LEVELS_])(qcj_joiner_kind) = {
        QC_ISA_TABLE(qcj_joiner_of)};
    return at_level[level](kind);
}

#endif
