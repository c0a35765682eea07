/* SPDX-License-Identifier: MIT */
/*
 * test_joiners.c — every joiner (join/joiner.h) of every level this CPU
 * runs, the byte tables and the AND loop, against a scalar loop over
 * every pair and its groups' keys: hand-checked cases; random groups,
 * ragged and empty, at 0..18 key bits, ANDed parts of 1..62 bits, odd and
 * even group sizes across the blocks' edges, bottoms carrying a middle
 * queen's mark and top groups spared from its key (extra); every pair
 * disjoint over long sweeps (the byte counters' limits); the tables'
 * bottoms cut into tiles, down to one group.  A table with one
 * digit skipped (the shape told 8 bits fewer) must fail the same check.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "join/joiner.h"
#include "stop.h"
#include "qcount.h"
#include "check.h"
#include "random.h"

/* tables_one_word.c: the portable tables as a CPU without 128-bit
 * vectors builds them */
extern const qcj_joiner qcj_tables_one_word_joiner;

static const char *const level_names[] = {"portable", "avx2", "avx512", "avx512vbmi", "neon"};

typedef struct joiner_here {
    char name[40];
    const qcj_joiner *j;
} joiner_here;

/* The joiners of the levels this CPU runs, into js; returns how many. */
static int joiners_here(joiner_here *js)
{
    int count = 0;
    for (size_t l = 0; l < sizeof level_names / sizeof *level_names; l++) {
        if (qc_isa_select(level_names[l]) != QC_OK)
            continue;
        const qci_isa_level level = qci_isa_current();
        for (int kind = 0; kind < QCJ_JOIN_KINDS_; kind++) {
            js[count].j = qcj_joiner_at(level, (qcj_joiner_kind)kind);
            snprintf(js[count].name, sizeof js[count].name, "%s %s", level_names[l],
                     js[count].j->name);
            count++;
        }
    }
    qc_isa_select(NULL);
    js[count].j = &qcj_tables_one_word_joiner;   /* CPUs without 128-bit vectors */
    snprintf(js[count].name, sizeof js[count].name, "portable tables, one-word entries");
    return count + 1;
}

/* One case: groups of tops and bottoms. */
enum { MAX_HALVES = 6000, MAX_GROUPS = 1 << 18 };
typedef struct join_case {
    int key_bits, bits;
    uint32_t extra;
    uint32_t toff[MAX_GROUPS + 1], boff[MAX_GROUPS + 1];
    uint64_t tops[MAX_HALVES], bottoms[MAX_HALVES];
} join_case;

/* The scalar count: pairs (top in tg, bottom in bg), bg & (tg | extra)
 * == 0, with disjoint ANDed parts (bits 0..bits-1). */
static uint64_t scalar_count(const join_case *c, uint64_t *tested)
{
    static uint32_t tgs[MAX_GROUPS], bgs[MAX_GROUPS];   /* the nonempty groups */
    const uint32_t groups = 1u << c->key_bits;
    const uint64_t mask = c->bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << c->bits) - 1u;
    uint32_t nt = 0, nb = 0;
    for (uint32_t g = 0; g < groups; g++) {
        if (c->toff[g + 1] > c->toff[g])
            tgs[nt++] = g;
        if (c->boff[g + 1] > c->boff[g])
            bgs[nb++] = g;
    }
    uint64_t pairs = 0;
    *tested = 0;
    for (uint32_t a = 0; a < nt; a++)
        for (uint32_t b = 0; b < nb; b++) {
            const uint32_t tg = tgs[a], bg = bgs[b];
            if (bg & (tg | c->extra))
                continue;
            *tested += (uint64_t)(c->toff[tg + 1] - c->toff[tg]) * (c->boff[bg + 1] - c->boff[bg]);
            for (uint32_t i = c->toff[tg]; i < c->toff[tg + 1]; i++)
                for (uint32_t k = c->boff[bg]; k < c->boff[bg + 1]; k++)
                    pairs += (c->tops[i] & c->bottoms[k] & mask) == 0;
        }
    return pairs;
}

/* The joiner's count of case c, told `bits` ANDed bits; 1 when it agrees
 * with want (and the pairs tested with want_tested). */
static int agrees_cut(const joiner_here *jh, const join_case *c, int bits, uint64_t want,
                      uint64_t want_tested, size_t tile_bytes, qcj_vec *scratch)
{
    const qcj_join_shape shape = {.key_bits = c->key_bits, .bits = bits, .tile_bytes = tile_bytes};
    const qcj_groups tops = {c->toff, c->tops}, bottoms = {c->boff, c->bottoms};
    uint64_t pairs = ~(uint64_t)0, tested = 0;
    const int rc = jh->j->count(&shape, &tops, &bottoms, c->extra, scratch, &pairs, &tested);
    return rc == QC_OK && pairs == want && tested == want_tested;
}

/* [stop check] With the thread's stop flag up, a tiled join (tiles of a
 * byte) stops and says so. */
static int stops_when_told(const joiner_here *jh, const join_case *c, qcj_vec *scratch)
{
    static const int raised = 1;
    const qcj_join_shape shape = {.key_bits = c->key_bits, .bits = c->bits, .tile_bytes = 1};
    const qcj_groups tops = {c->toff, c->tops}, bottoms = {c->boff, c->bottoms};
    uint64_t pairs = 0, tested = 0;
    qci_stop_flag = &raised;
    const int rc = jh->j->count(&shape, &tops, &bottoms, c->extra, scratch, &pairs, &tested);
    qci_stop_flag = NULL;
    return rc == QC_ESTOP;
}

static int agrees(const joiner_here *jh, const join_case *c, int bits, uint64_t want,
                  uint64_t want_tested, qcj_vec *scratch)
{
    return agrees_cut(jh, c, bits, want, want_tested, 0, scratch);
}

/* [sampled joins] The samples of a count partition it: over samples
 * 0..S-1 the pairs and the pairs tested add up to the whole count's, and
 * sample S joins nothing (tile_bytes: [bottom tiles]; join: which join of a unit
 * this is, [sampled tiles]). */
static int samples_add_up(const joiner_here *jh, const join_case *c, uint64_t want,
                          uint64_t want_tested, size_t tile_bytes, uint32_t join, qcj_vec *scratch)
{
    const qcj_groups tops = {c->toff, c->tops}, bottoms = {c->boff, c->bottoms};
    uint64_t pairs = 0, tested = 0;
    for (uint32_t sample = 0; sample <= 5; sample++) {
        const qcj_join_shape shape = {.key_bits = c->key_bits, .bits = c->bits, .samples = 5,
                                      .sample = sample, .join = join, .tile_bytes = tile_bytes};
        uint64_t p = 0, t = 0;
        if (jh->j->count(&shape, &tops, &bottoms, c->extra, scratch, &p, &t) != QC_OK)
            return 0;
        if (sample == 5 && (p != 0 || t != 0))
            return 0;
        pairs += p;
        tested += t;
    }
    return pairs == want && tested == want_tested;
}

/* A random sparse value of `bits` bits, denser with `density`. */
static uint64_t random_value(int bits, int density)
{
    uint64_t x = next_random();
    for (int d = 0; d < density; d++)
        x &= next_random();
    return bits >= 64 ? x : x & (((uint64_t)1 << bits) - 1u);
}

/* Fills c at random: key bits k, groups ragged (sizes 0..max, some
 * empty, odd and even), values of `bits` bits; bottoms ORed with a mark
 * (a middle queen carried) in some rounds, an extra mask in others. */
static void random_case(join_case *c, int round)
{
    /* 0..16, and 17 and 18 in six rounds: 2^18 groups a side make a
     * round slow under the sanitizers */
    const int key_bits = round % 50 == 49 ? 17 + round / 50 % 2 : round % 17;
    const int bits = 1 + (round * 7) % 62;                 /* 1..62 */
    const uint32_t groups = 1u << key_bits;
    const uint32_t per = MAX_HALVES / 2 / groups;           /* mean group size, roughly */
    c->key_bits = key_bits;
    c->bits = bits;
    c->extra = round % 3 == 1 ? (uint32_t)next_random() & (groups - 1) : 0;
    uint32_t nt = 0, nb = 0;
    for (uint32_t g = 0; g < groups; g++) {
        c->toff[g] = nt;
        c->boff[g] = nb;
        if (next_random() % 4 != 0)
            nt += per ? (uint32_t)(next_random() % (2 * per + 1)) : next_random() % 16 == 0;
        if (next_random() % 4 != 0)
            nb += per ? (uint32_t)(next_random() % (2 * per + 1)) : next_random() % 16 == 0;
        if (nt > MAX_HALVES)
            nt = MAX_HALVES;
        if (nb > MAX_HALVES)
            nb = MAX_HALVES;
    }
    c->toff[groups] = nt;
    c->boff[groups] = nb;
    const int density = bits < 8 ? 0 : bits < 24 ? 1 : 2;   /* some pairs fit */
    const uint64_t mark = round % 3 == 2 ? (uint64_t)1 << (next_random() % (uint64_t)bits) : 0;
    for (uint32_t i = 0; i < MAX_HALVES; i++) {
        c->tops[i] = random_value(bits, density);
        c->bottoms[i] = random_value(bits, density) | mark;
    }
}

/* Hand-checked: tops 0x1, 0x6, 0x0 (one block of 3) against bottoms 0x1,
 * 0x2, 0x8, 0x0 and 1 << 30: 0x1 fits 4, 0x6 fits 4, 0x0 fits 5: 13.
 * Then 11 tops 1 << i: each fits every bottom but the one with bit i
 * (tops 0, 1 and 3 miss one each): 52. */
static void test_by_hand(const joiner_here *jh, qcj_vec *scratch)
{
    static join_case c;
    c.key_bits = 0;
    c.bits = 32;
    c.extra = 0;
    c.toff[0] = c.boff[0] = 0;
    c.toff[1] = 3;
    c.boff[1] = 5;
    const uint64_t tops[3] = {0x1, 0x6, 0x0}, bottoms[5] = {0x1, 0x2, 0x8, 0x0, 1u << 30};
    memcpy(c.tops, tops, sizeof tops);
    memcpy(c.bottoms, bottoms, sizeof bottoms);
    CHECK(agrees(jh, &c, 32, 13, 15, scratch), "%s: 3 tops by hand", jh->name);
    c.toff[1] = 11;
    for (int i = 0; i < 11; i++)
        c.tops[i] = (uint64_t)1 << i;
    CHECK(agrees(jh, &c, 32, 52, 55, scratch), "%s: 11 tops by hand", jh->name);
}

/* Every pair disjoint: 200 tops (a block of 128 and a ragged one, 3 of
 * 64 and one of 8, or 25 of 8) against 5003 bottoms in one group, and
 * against 4 key groups of uneven sizes: the byte sums at their largest,
 * every sweep longer than the counters' flush. */
static void test_all_disjoint(const joiner_here *jh, qcj_vec *scratch)
{
    static join_case c;
    memset(c.tops, 0, sizeof c.tops);
    memset(c.bottoms, 0, sizeof c.bottoms);
    c.key_bits = 0;
    c.bits = 62;
    c.extra = 0;
    c.toff[0] = c.boff[0] = 0;
    c.toff[1] = 200;
    c.boff[1] = 5003;
    CHECK(agrees(jh, &c, 62, 200ull * 5003, 200ull * 5003, scratch), "%s: 200 x 5003 disjoint",
          jh->name);
    c.key_bits = 2;
    const uint32_t toff[5] = {0, 9, 9, 150, 151}, boff[5] = {0, 1000, 1001, 3000, 5003};
    memcpy(c.toff, toff, sizeof toff);
    memcpy(c.boff, boff, sizeof boff);
    uint64_t tested, want = scalar_count(&c, &tested);
    CHECK(agrees(jh, &c, 62, want, tested, scratch), "%s: four groups disjoint", jh->name);
}

/* [sampled joins] The parts spread items evenly, also where every group
 * has one item: of 4000 groups' item 0, and of 4000 items of one group
 * (a tile of 4000 joins, [sampled tiles]), each of 4 samples takes
 * 900..1100. */
static void test_samples_spread(void)
{
    for (int by_item = 0; by_item < 2; by_item++)
        for (uint32_t sample = 0; sample < 4; sample++) {
            const qcj_join_shape shape = {.samples = 4, .sample = sample};
            int taken = 0;
            for (uint32_t x = 0; x < 4000; x++)
                taken += by_item ? qcj_shape_joins(&shape, 7, x) : qcj_shape_joins(&shape, x, 0);
            CHECK(taken >= 900 && taken <= 1100, "sample %u of 4 takes %d of 4000 %s", sample, taken,
                  by_item ? "items" : "groups");
        }
}

/* argv[1], optional: the random rounds (340; the sanitizer and emulated
 * builds run 170, tests/CMakeLists.txt, as their instrumented code is ten
 * times slower: the Release build still runs all 340). */
int main(int argc, char **argv)
{
    const int rounds = argc > 1 ? atoi(argv[1]) : 340;
    if (argc > 2 || rounds < 40) {
        fprintf(stderr, "usage: %s [ROUNDS, at least 40]\n", argv[0]);
        return 2;
    }
    test_samples_spread();
    joiner_here js[16];
    const int count = joiners_here(js);
    printf("joiners tested:");
    for (int i = 0; i < count; i++)
        printf(" %s%s", js[i].name, i + 1 < count ? "," : "\n");
    CHECK(count >= 2, "the portable level's joiners at least");
    static join_case c;
    qcj_vec scratch = {0};
    for (int i = 0; i < count; i++) {
        test_by_hand(&js[i], &scratch);
        test_all_disjoint(&js[i], &scratch);
    }
    int broken_caught = 0, broken_tried = 0;
    for (int round = 0; round < rounds; round++) {
        random_case(&c, round);
        uint64_t tested, want = scalar_count(&c, &tested);
        for (int i = 0; i < count; i++)
            CHECK(agrees(&js[i], &c, c.bits, want, tested, &scratch),
                  "%s: round %d, %d key bits, %d bits, extra %x", js[i].name, round, c.key_bits,
                  c.bits, c.extra);
        /* [bottom tiles] the bottoms cut into tiles of one group up to
         * a few hundred bytes (the cases' planes are a few KiB: untiled by
         * default) */
        static const size_t tiles[4] = {1, 200, 1500, 60};
        for (int i = 0; i < count; i++)
            CHECK(agrees_cut(&js[i], &c, c.bits, want, tested, tiles[round % 4], &scratch),
                  "%s: round %d in tiles of %zu bytes", js[i].name, round, tiles[round % 4]);
        const uint32_t last = c.key_bits > 0 ? 1u << c.key_bits : 0;
        if (round % 4 == 0 && last && c.toff[last] > 0 && c.boff[last] > 0)
            for (int i = 0; i < count; i++)
                if (strcmp(js[i].j->name, "and") != 0)
                    CHECK(stops_when_told(&js[i], &c, &scratch),
                          "%s: round %d went on with the stop flag up", js[i].name, round);
        if (round % 5 == 0)
            for (int i = 0; i < count; i++)
                CHECK(samples_add_up(&js[i], &c, want, tested,
                                   round % 10 ? 0 : tiles[round / 10 % 4], (uint32_t)round,
                                   &scratch),
                      "%s: round %d in parts", js[i].name, round);
        /* a broken table: the top digit (8 bits) skipped, where they
         * matter (the AND loop tests whole words, told bits or not) */
        if (c.bits > 8 && want != 0 && tested > 1000)
            for (int i = 0; i < count; i++)
                if (strcmp(js[i].j->name, "and") != 0) {
                    broken_caught += !agrees(&js[i], &c, c.bits - 8, want, tested, &scratch);
                    broken_tried++;
                }
    }
    printf("a digit skipped: caught in %d of %d counts\n", broken_caught, broken_tried);
    CHECK(broken_tried > rounds / 4 && broken_caught * 10 >= broken_tried * 9,
          "a broken table passed %d of %d checks", broken_tried - broken_caught, broken_tried);
    qcj_vec_free(&scratch);
    return check_report("joiners");
}
