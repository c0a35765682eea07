/* SPDX-License-Identifier: MIT */
/*
 * tables_adders.h — the bit-sliced adders (Harley and Seal) with which the
 * tables files whose lookups give wide entries count the clashing bits:
 * sixteen entries into counters of ones, twos, fours and eights, only the
 * carries out of the eights counted; the counters are carried from sweep
 * to sweep through a join, so that its many short sweeps share their
 * popcounts, and the entries of sweeps' tails wait for sixteen
 * ([word counts] in tables_portable.c, [vector counts] in tables_avx512.c),
 * or are added a pair at a time, the carries waiting instead ([pairs
 * added], tables_avx2.c).
 *
 * The including file defines before it:
 *   tbl_word          an entry: a GNU C vector or word (^, &, | apply)
 *   tbl_tally         the sixteens' count: a word, or a vector of qword
 *                     sums (+ and * by a number apply)
 *   tbl_word_bits(x)  the set bits of entry x, as a tbl_tally
 * and gets:
 *   tbl_sums, tbl_sums_zero(), tbl_sums_clashing(s): the pairs swept and
 *       the clashing bits added, as a tbl_tally;
 *   TBL_SUMS_OPEN(sums) ... TBL_SUMS_CLOSE(sums): the counters of *sums
 *       as locals of a sweep, and back;
 *   TBL_ADD16(E): entries E(0) .. E(15) into the locals;
 *   TBL_PAIRS_OPEN(sums) ... TBL_PAIRS_CLOSE(sums), inside the above: the
 *       waiting carries as locals, and back; TBL_ADD2(a, b): entries a and
 *       b into the locals (TBL_ADD16 is then not used);
 *   TBL_WAIT(sums, x): entry x to wait, the sixteen added when they are.
 */
#ifndef QCJ_TABLES_ADDERS_H
#define QCJ_TABLES_ADDERS_H

typedef struct tbl_sums {
    uint64_t swept;
    tbl_tally sixteens;
    tbl_word ones, twos, fours, eights;
    tbl_word waiting[16];
    unsigned waits;
    /* [pairs added] the carries waiting for their partner: of weight 2
     * where bit 0 of pairs is set, 4 where bit 1 is, 8 where bit 2 is */
    tbl_word twos_c, fours_c, eights_c;
    unsigned pairs;
} tbl_sums;

static inline tbl_sums tbl_sums_zero(void)
{
    return (tbl_sums){0};
}

static inline tbl_tally tbl_sums_clashing(tbl_sums s)
{
    tbl_tally clashing = 16 * s.sixteens + 8 * tbl_word_bits(s.eights)
                       + 4 * tbl_word_bits(s.fours) + 2 * tbl_word_bits(s.twos)
                       + tbl_word_bits(s.ones);
    for (unsigned k = 0; k < s.waits; k++)
        clashing += tbl_word_bits(s.waiting[k]);
    if (s.pairs & 1)
        clashing += 2 * tbl_word_bits(s.twos_c);
    if (s.pairs & 2)
        clashing += 4 * tbl_word_bits(s.fours_c);
    if (s.pairs & 4)
        clashing += 8 * tbl_word_bits(s.eights_c);
    return clashing;
}

/* A full adder over entries: *high gets the carries and *low the sums of
 * a + b + c, bit by bit. */
static inline __attribute__((always_inline)) void tbl_add3(tbl_word *high, tbl_word *low,
                                                            tbl_word a, tbl_word b, tbl_word c)
{
    const tbl_word u = a ^ b;
    *high = (a & b) | (u & c);
    *low = u ^ c;
}

#define TBL_SUMS_OPEN(sums)                                                                \
    tbl_word ones = (sums)->ones, twos = (sums)->twos, fours = (sums)->fours,              \
             eights = (sums)->eights;                                                      \
    tbl_tally sixteens = (sums)->sixteens

#define TBL_SUMS_CLOSE(sums)                                                               \
    do {                                                                                   \
        (sums)->ones = ones;                                                               \
        (sums)->twos = twos;                                                               \
        (sums)->fours = fours;                                                             \
        (sums)->eights = eights;                                                           \
        (sums)->sixteens = sixteens;                                                       \
    } while (0)

/* The sixteen entries E(0) .. E(15) into the counters: one popcount for
 * the sixteen.  A macro, so that a sweep reads each entry as it adds it
 * (through an array of sixteen, portable N=18 took 1.065 times as
 * long). */
#define TBL_ADD16(E)                                                                       \
    do {                                                                                   \
        tbl_word eights_a, eights_b, fours_a, fours_b, twos_a, twos_b, sixteen;            \
        tbl_add3(&twos_a, &ones, ones, E(0), E(1));                                        \
        tbl_add3(&twos_b, &ones, ones, E(2), E(3));                                        \
        tbl_add3(&fours_a, &twos, twos, twos_a, twos_b);                                   \
        tbl_add3(&twos_a, &ones, ones, E(4), E(5));                                        \
        tbl_add3(&twos_b, &ones, ones, E(6), E(7));                                        \
        tbl_add3(&fours_b, &twos, twos, twos_a, twos_b);                                   \
        tbl_add3(&eights_a, &fours, fours, fours_a, fours_b);                              \
        tbl_add3(&twos_a, &ones, ones, E(8), E(9));                                        \
        tbl_add3(&twos_b, &ones, ones, E(10), E(11));                                      \
        tbl_add3(&fours_a, &twos, twos, twos_a, twos_b);                                   \
        tbl_add3(&twos_a, &ones, ones, E(12), E(13));                                      \
        tbl_add3(&twos_b, &ones, ones, E(14), E(15));                                      \
        tbl_add3(&fours_b, &twos, twos, twos_a, twos_b);                                   \
        tbl_add3(&eights_b, &fours, fours, fours_a, fours_b);                              \
        tbl_add3(&sixteen, &eights, eights, eights_a, eights_b);                           \
        sixteens += tbl_word_bits(sixteen);                                                \
    } while (0)

/* [pairs added] Entries a and b into the counters: the same adders as
 * TBL_ADD16's, one pair at a time, each carry kept until its partner
 * comes (the pairs' count says which are waiting), so that a sweep of any
 * length adds every whole pair of entries in its loop and only an odd one
 * waits.  Inside TBL_PAIRS_OPEN ... TBL_PAIRS_CLOSE (after
 * TBL_SUMS_OPEN). */
#define TBL_PAIRS_OPEN(sums)                                                               \
    tbl_word twos_c = (sums)->twos_c, fours_c = (sums)->fours_c,                           \
             eights_c = (sums)->eights_c;                                                  \
    unsigned pairs = (sums)->pairs

#define TBL_PAIRS_CLOSE(sums)                                                              \
    do {                                                                                   \
        (sums)->twos_c = twos_c;                                                           \
        (sums)->fours_c = fours_c;                                                         \
        (sums)->eights_c = eights_c;                                                       \
        (sums)->pairs = pairs & 7u;                                                        \
    } while (0)

#define TBL_ADD2(a, b)                                                                     \
    do {                                                                                   \
        tbl_word twos_n;                                                                   \
        tbl_add3(&twos_n, &ones, ones, (a), (b));                                          \
        if (!(pairs & 1u)) {                                                               \
            twos_c = twos_n;                                                               \
        } else {                                                                           \
            tbl_word fours_n;                                                              \
            tbl_add3(&fours_n, &twos, twos, twos_c, twos_n);                               \
            if (!(pairs & 2u)) {                                                           \
                fours_c = fours_n;                                                         \
            } else {                                                                       \
                tbl_word eights_n;                                                         \
                tbl_add3(&eights_n, &fours, fours, fours_c, fours_n);                      \
                if (!(pairs & 4u)) {                                                       \
                    eights_c = eights_n;                                                   \
                } else {                                                                   \
                    tbl_word sixteen;                                                      \
                    tbl_add3(&sixteen, &eights, eights, eights_c, eights_n);               \
                    sixteens += tbl_word_bits(sixteen);                                    \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
        pairs++;                                                                           \
    } while (0)

#define TBL_WAITING_ENTRY(k) tbl_waiting_[k]
#define TBL_WAIT(sums, x)                                                                  \
    do {                                                                                   \
        (sums)->waiting[(sums)->waits++] = (x);                                            \
        if ((sums)->waits == 16) {                                                         \
            const tbl_word *const tbl_waiting_ = (sums)->waiting;                          \
            TBL_ADD16(TBL_WAITING_ENTRY);                                                  \
            (sums)->waits = 0;                                                             \
        }                                                                                  \
    } while (0)

#endif
