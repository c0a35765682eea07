/* SPDX-License-Identifier: MIT */
/*
 * test_nibbles.c — the join engine's table stage (join/nibbles.h) against
 * a plain scalar loop: counts and planes by hand on small cases, and the
 * count over key groups on random lists of every width the stage takes
 * (17 to 32 bits), ragged and empty groups, runs of free keys, marked
 * bottoms, for each kind of tables this CPU runs (nibbles; septets where
 * built and the CPU has VBMI, VPOPCNTDQ and GFNI).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "join/nibbles.h"
#include "join/pairs.h"
#include "check.h"
#include "random.h"

#if defined(QCJ_PAIRS_HAVE_AVX512)
static int cpu_has_bw(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}

/* The kinds this CPU runs. */
static int kinds_here(const qcj_nib_kind **kinds)
{
    int n = 0;
    kinds[n++] = &qcj_nib_nibbles;
#if defined(QCJ_NIB_SEPTETS)
    if (__builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vpopcntdq")
        && __builtin_cpu_supports("gfni"))
        kinds[n++] = &qcj_nib_septets;
#endif
    return n;
}


/* Hand-checked, kind k: tops 0x1, 0x6, 0x0 (one block of 3, 5 missing)
 * against bottoms 0x1, 0x2, 0x8, 0x0 and 0x40000000 (slices past the
 * first): 0x1 fits 4 of them, 0x6 fits 4, 0x0 fits all 5: 13.  Then 11
 * tops (a block of 8 and one of 3), each 1 << i: top i fits every bottom
 * but those with bit i (tops 0, 1 and 3 miss one each): 52. */
static void test_counts_by_hand(const qcj_nib_kind *k)
{
    const uint32_t toff[2] = {0, 3}, tops[3] = {0x1, 0x6, 0x0};
    const uint32_t boff[2] = {0, 5}, bottoms[5] = {0x1, 0x2, 0x8, 0x0, 0x40000000};
    static uint8_t planes[8 * 96];
    const size_t stride = qcj_nib_stride(5);
    const int slices = qcj_nib_slices(k, 32);
    CHECK(stride * (size_t)slices <= sizeof planes, "stride");
    qcj_nib_planes(bottoms, 5, 0, k->slice_bits, slices, planes, stride);
    uint64_t tested = 0;
    uint64_t got = k->count(toff, tops, boff, planes, stride, 0, slices, &tested);
    CHECK(got == 13, "%s: 3 tops by hand: %llu pairs, want 13", k->name, (unsigned long long)got);
    CHECK(tested == 15, "%s: 3 x 5 pairs tested", k->name);
    uint32_t eleven[11];
    for (int i = 0; i < 11; i++)
        eleven[i] = 1u << i;
    const uint32_t toff11[2] = {0, 11};
    got = k->count(toff11, eleven, boff, planes, stride, 0, slices, &tested);
    CHECK(got == 11 * 5 - 3, "%s: 11 tops by hand: %llu pairs, want 52", k->name,
          (unsigned long long)got);
}

/* Planes by hand: bottom 0x87654321 ORed with 0x400, in nibbles 1,2,7,4,
 * 5,6,7,8 and in septets 0x21, 0x0c, 0x59 (bits 14-20), 0x30, 0x08. */
static void test_planes_by_hand(void)
{
    const uint32_t bottom = 0x87654321u;
    static uint8_t planes[8 * 80];
    const size_t stride = qcj_nib_stride(1);
    CHECK(stride * 8 <= sizeof planes, "stride %zu", stride);
    qcj_nib_planes(&bottom, 1, 0x400, 4, 8, planes, stride);
    const uint8_t want4[8] = {1, 2, 7, 4, 5, 6, 7, 8};
    for (int j = 0; j < 8; j++)
        CHECK(planes[(size_t)j * stride] == want4[j], "nibble plane %d: %u, want %u", j,
              planes[(size_t)j * stride], want4[j]);
    qcj_nib_planes(&bottom, 1, 0x400, 7, 5, planes, stride);
    const uint32_t x = bottom | 0x400;
    for (int j = 0; j < 5; j++)
        CHECK(planes[(size_t)j * stride] == ((x >> (7 * j)) & 0x7f), "septet plane %d: %u, want %u",
              j, planes[(size_t)j * stride], (x >> (7 * j)) & 0x7f);
}

enum { MAX = 3000 };

/* Random groups of tops and bottoms with `bits` ANDed bits under key_bits
 * keys: kind k's count against the scalar one. */
static void test_random_counts(const qcj_nib_kind *k, int round)
{
    static uint32_t tops[MAX], bottoms[MAX];
    static uint32_t toff[65], boff[65];
    static uint8_t planes[8 * (MAX + 16 + QCJ_NIB_PAD)];
    const int key_bits = round % 7;                  /* 0..6 */
    const int bits = 17 + round % 16;                /* 17..32: 5..8 nibbles */
    const int chunks = qcj_nib_slices(k, bits);
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
    const size_t stride = qcj_nib_stride(nb);
    qcj_nib_planes(bottoms, nb, 0, k->slice_bits, chunks, planes, stride);
    uint64_t tested = 0;
    CHECK(k->count(toff, tops, boff, planes, stride, key_bits, chunks, &tested) == want,
          "%s: round %d, %d keys, %d bits", k->name, round, key_bits, bits);
    CHECK(tested == want_tested, "%s: pairs tested %llu, want %llu", k->name,
          (unsigned long long)tested, (unsigned long long)want_tested);
    /* bottoms carrying a mark: the tops that meet it meet no bottom */
    const uint32_t mark = 1u << (round % bits);
    uint64_t marked = 0;
    for (uint32_t tg = 0; tg < groups; tg++)
        for (uint32_t bg = 0; bg < groups; bg++)
            for (size_t i = toff[tg]; !(bg & tg) && i < toff[tg + 1]; i++)
                for (size_t j = boff[bg]; j < boff[bg + 1]; j++)
                    marked += (tops[i] & (bottoms[j] | mark)) == 0;
    qcj_nib_planes(bottoms, nb, mark, k->slice_bits, chunks, planes, stride);
    CHECK(k->count(toff, tops, boff, planes, stride, key_bits, chunks, &tested) == marked,
          "%s: marked bottoms: round %d", k->name, round);
}
#endif

int main(void)
{
#if defined(QCJ_PAIRS_HAVE_AVX512)
    if (!cpu_has_bw()) {
        printf("nibbles: no AVX-512 BW on this CPU, nothing to test\n");
        return 0;
    }
    const qcj_nib_kind *kinds[2];
    const int n = kinds_here(kinds);
    printf("nibbles: kinds tested: %s%s%s\n", kinds[0]->name, n > 1 ? ", " : "",
           n > 1 ? kinds[1]->name : "");
    test_planes_by_hand();
    for (int i = 0; i < n; i++) {
        test_counts_by_hand(kinds[i]);
        for (int round = 0; round < 120; round++)
            test_random_counts(kinds[i], round);
    }
    CHECK(qcj_nib_kind_now() == kinds[n - 1], "the kind chosen is the best one here");
#else
    printf("nibbles: not built for this target\n");
#endif
    return check_report("nibbles");
}
