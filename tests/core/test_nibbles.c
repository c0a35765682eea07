/* SPDX-License-Identifier: MIT */
/*
 * test_nibbles.c — the join engine's nibble-table stage (join/nibbles.h)
 * against a plain scalar loop: tables and planes by hand on small cases,
 * and the count over key groups on random lists of every width the stage
 * takes (5 to 8 nibbles), ragged and empty groups, runs of free keys, both
 * builds of the loop (shuffles alone, VPOPCNTQ) where the CPU runs them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "join/nibbles.h"
#include "join/pairs.h"
#include "check.h"

#if defined(QCJ_PAIRS_HAVE_AVX512)
static int cpu_has(const char *what)
{
    __builtin_cpu_init();
    if (!strcmp(what, "avx512bw"))
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    return __builtin_cpu_supports("avx512vpopcntdq");
}

static uint64_t state = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* Hand-checked: one block of 3 tops, nibble 0.  Top 0 = 0x1, top 1 = 0x6,
 * top 2 = 0x0: byte v of table 0 has bit 0 when v has bit 0, bit 1 when v
 * has bit 1 or 2, never bit 2; tops 3..7 are missing: bits 3..7 always. */
static void test_tables_by_hand(void)
{
    const uint32_t off[2] = {0, 3}, tops[3] = {0x1, 0x6, 0x0};
    uint32_t blk[2];
    static uint8_t tables[QCJ_NIB_BLOCK_BYTES];
    qcj_nib_tables(off, tops, 1, 5, blk, tables);
    CHECK(blk[0] == 0 && blk[1] == 1, "one block for 3 tops");
    for (unsigned v = 0; v < 16; v++) {
        unsigned want = 0xf8u | (v & 1u) | ((v & 6u) ? 2u : 0u);
        CHECK(tables[v] == want, "table 0 byte %u: %02x, want %02x", v, tables[v], want);
        CHECK(tables[16 + v] == 0xf8u, "table 1 byte %u: only the missing tops", v);
    }
    /* planes: bottom 0x87654321 ORed with 0x400: nibbles 1,2,7,4,5,6,7,8 */
    const uint32_t bottom = 0x87654321u;
    static uint8_t planes[8 * 80];
    const size_t stride = qcj_nib_stride(1);
    CHECK(stride * 8 <= sizeof planes, "stride %zu", stride);
    qcj_nib_planes(&bottom, 1, 0x400, 8, planes, stride);
    const uint8_t want[8] = {1, 2, 7, 4, 5, 6, 7, 8};
    for (int j = 0; j < 8; j++)
        CHECK(planes[(size_t)j * stride] == want[j], "plane %d: %u, want %u", j, planes[(size_t)j * stride],
              want[j]);
}

enum { MAX = 3000 };

/* Random groups of tops and bottoms with `bits` ANDed bits under key_bits
 * keys: the nibble count against the scalar one. */
static void test_random_counts(int round)
{
    static uint32_t tops[MAX], bottoms[MAX];
    static uint32_t toff[65], boff[65], blk[65];
    static uint8_t tables[(MAX / 8 + 64) * QCJ_NIB_BLOCK_BYTES];
    static uint8_t planes[8 * (MAX + 16 + QCJ_NIB_PAD)];
    const int key_bits = round % 7;                  /* 0..6 */
    const int bits = 17 + round % 16;                /* 17..32: 5..8 nibbles */
    const int chunks = qcj_nib_chunks(bits);
    const uint32_t groups = 1u << key_bits, mask = bits == 32 ? ~0u : (1u << bits) - 1u;
    size_t nt = 0, nb = 0;
    for (uint32_t g = 0; g < groups; g++) {          /* ragged groups, some empty */
        toff[g] = (uint32_t)nt;
        boff[g] = (uint32_t)nb;
        if (next_random() % 5 != 0)
            nt += (size_t)(next_random() % (MAX / groups));
        if (next_random() % 5 != 0)
            nb += (size_t)(next_random() % (MAX / groups));
    }
    toff[groups] = (uint32_t)nt;
    boff[groups] = (uint32_t)nb;
    for (size_t i = 0; i < MAX; i++) {               /* sparse: some pairs fit */
        tops[i] = (uint32_t)(next_random() & next_random() & next_random()) & mask;
        bottoms[i] = (uint32_t)(next_random() & next_random() & next_random()) & mask;
    }
    uint64_t want = 0, want_tested = 0;
    for (uint32_t tg = 0; tg < groups; tg++)
        for (uint32_t bg = 0; bg < groups; bg++) {
            if (bg & tg)
                continue;
            want_tested += (uint64_t)(toff[tg + 1] - toff[tg]) * (boff[bg + 1] - boff[bg]);
            for (size_t i = toff[tg]; i < toff[tg + 1]; i++)
                for (size_t j = boff[bg]; j < boff[bg + 1]; j++)
                    want += (tops[i] & bottoms[j]) == 0;
        }
    CHECK(qcj_nib_blocks(toff, groups) <= MAX / 8 + 64, "blocks");
    qcj_nib_tables(toff, tops, groups, chunks, blk, tables);
    CHECK(blk[groups] == qcj_nib_blocks(toff, groups), "blocks counted and built differ");
    const size_t stride = qcj_nib_stride(nb);
    qcj_nib_planes(bottoms, nb, 0, chunks, planes, stride);
    uint64_t tested = 0;
    CHECK(qcj_nib_count_shuffled(toff, blk, tables, boff, planes, stride, key_bits, chunks, &tested)
              == want,
          "shuffled: round %d, %d keys, %d bits", round, key_bits, bits);
    CHECK(tested == want_tested, "shuffled: pairs tested %llu, want %llu",
          (unsigned long long)tested, (unsigned long long)want_tested);
#if defined(QCJ_NIB_VPOPCNT)
    if (cpu_has("avx512vpopcntdq")) {
        tested = 0;
        CHECK(qcj_nib_count_popcnt(toff, blk, tables, boff, planes, stride, key_bits, chunks, &tested)
                  == want,
              "popcnt: round %d, %d keys, %d bits", round, key_bits, bits);
        CHECK(tested == want_tested, "popcnt: pairs tested");
    }
#endif
    tested = 0;
    CHECK(qcj_nib_count(toff, blk, tables, boff, planes, stride, key_bits, chunks, &tested) == want,
          "chosen build: round %d", round);
    /* bottoms carrying a mark: the tops that meet it meet no bottom */
    const uint32_t mark = 1u << (round % bits);
    uint64_t marked = 0;
    for (uint32_t tg = 0; tg < groups; tg++)
        for (uint32_t bg = 0; bg < groups; bg++)
            for (size_t i = toff[tg]; !(bg & tg) && i < toff[tg + 1]; i++)
                for (size_t j = boff[bg]; j < boff[bg + 1]; j++)
                    marked += (tops[i] & (bottoms[j] | mark)) == 0;
    qcj_nib_planes(bottoms, nb, mark, chunks, planes, stride);
    CHECK(qcj_nib_count(toff, blk, tables, boff, planes, stride, key_bits, chunks, &tested) == marked,
          "marked bottoms: round %d", round);
}
#endif

int main(void)
{
#if defined(QCJ_PAIRS_HAVE_AVX512)
    if (!cpu_has("avx512bw")) {
        printf("nibbles: no AVX-512 BW on this CPU, nothing to test\n");
        return 0;
    }
    test_tables_by_hand();
    for (int round = 0; round < 120; round++)
        test_random_counts(round);
#else
    printf("nibbles: not built for this target\n");
#endif
    return check_report("nibbles");
}
