/* SPDX-License-Identifier: MIT */
/*
 * set_key.c — [set key] the key diagonals of one column set, chosen on a
 * sample of its halves, and their layout (set_key.h).
 */
#include "set_key.h"

/* The signature bits the geometry gives border diagonals. */
static uint64_t used_bits(const qcj_geometry *g)
{
    const uint64_t key = g->key_bits ? ((~0ull >> (64 - g->key_bits)) << g->key_shift) : 0;
    const uint64_t and_part = g->and_bits >= 64 ? ~0ull : (1ull << g->and_bits) - 1;
    return key | and_part;
}

void qcj_set_key_lay_out(const qcj_geometry *g, const int *bits, qcj_set_key *key)
{
    const uint64_t used = used_bits(g);
    uint64_t chosen = 0;
    int to[64];
    for (int j = 0; j < g->key_bits; j++) {
        chosen |= 1ull << bits[j];
        to[bits[j]] = g->key_shift + j;
    }
    int next = 0;
    for (int b = 0; b < 64; b++)
        if (used >> b & 1 && !(chosen >> b & 1))
            to[b] = next++;
    for (int i = 0; i < 8; i++) {
        key->byte[i][0] = 0;
        for (unsigned v = 1; v < 256; v++) {
            const int b = 8 * i + __builtin_ctz(v);
            key->byte[i][v] = key->byte[i][v & (v - 1)] | (used >> b & 1 ? 1ull << to[b] : 0);
        }
    }
}

enum { SAMPLE = QCJ_SET_KEY_SAMPLE };

/* The sample's halves by signature bit: for each bit, which of the mt
 * sampled tops and mb sampled bottoms use it (an even stride over each
 * side), and every pair alive; words: the bottoms' words a row. */
typedef struct key_sample_shape {
    size_t mt, mb, words;
} key_sample_shape;

static key_sample_shape sample_halves(const uint64_t *tops, size_t nt, const uint64_t *bottoms,
                                      size_t nb, double pairs, qcj_set_key_sample *sample)
{
    /* m halves a side, where m^4 <= pairs / 4 (the choice takes some m^2
     * steps, the join of the chunk some `pairs` over the pairs the key
     * leaves) */
    size_t m = SAMPLE;
    while (m > 64 && (double)m * m * m * m * 4 > pairs)
        m /= 2;
    const size_t mt = nt < m ? nt : m, mb = nb < m ? nb : m, words = (mb + 63) / 64;
    uint64_t (*alive)[SAMPLE / 64] = sample->alive, (*uses)[SAMPLE / 64] = sample->uses,
             (*top_uses)[SAMPLE / 64] = sample->top_uses;
    for (int b = 0; b < 64; b++)
        for (size_t w = 0; w < SAMPLE / 64; w++)
            uses[b][w] = top_uses[b][w] = 0;
    for (size_t i = 0; i < mb; i++)
        for (uint64_t sig = bottoms[i * (nb / mb)]; sig; sig &= sig - 1)
            uses[__builtin_ctzll(sig)][i / 64] |= 1ull << i % 64;
    for (size_t t = 0; t < mt; t++) {
        for (uint64_t sig = tops[t * (nt / mt)]; sig; sig &= sig - 1)
            top_uses[__builtin_ctzll(sig)][t / 64] |= 1ull << t % 64;
        for (size_t w = 0; w < words; w++)
            alive[t][w] = mb >= 64 * w + 64 ? ~0ull : (1ull << (mb - 64 * w)) - 1;
    }
    return (key_sample_shape){mt, mb, words};
}

/* The sampled pairs still alive whose top and bottom both use bit b; with
 * drop, those pairs are marked dead (b is a key bit: they fall into
 * groups that never meet). */
static uint64_t live_pairs_on(qcj_set_key_sample *sample, key_sample_shape sh, int b, int drop)
{
    uint64_t pairs = 0;
    for (size_t tw = 0; tw < (sh.mt + 63) / 64; tw++)
        for (uint64_t ts = sample->top_uses[b][tw]; ts; ts &= ts - 1) {
            const size_t t = 64 * tw + (size_t)__builtin_ctzll(ts);
            for (size_t w = 0; w < sh.words; w++) {
                pairs += (uint64_t)__builtin_popcountll(sample->alive[t][w] & sample->uses[b][w]);
                if (drop)
                    sample->alive[t][w] &= ~sample->uses[b][w];
            }
        }
    return pairs;
}

/* Greedily, the g->key_bits bits into bits[]: each the bit that kills the
 * most live pairs of the sample. */
static void choose_bits(const qcj_geometry *g, qcj_set_key_sample *sample, key_sample_shape sh,
                        int bits[64])
{
    const uint64_t used = used_bits(g);
    uint64_t both[64];                   /* pairs of the sample that use b */
    for (int b = 0; b < 64; b++) {
        uint64_t t = 0, u = 0;
        for (size_t w = 0; w < SAMPLE / 64; w++)
            t += (uint64_t)__builtin_popcountll(sample->top_uses[b][w]),
            u += (uint64_t)__builtin_popcountll(sample->uses[b][w]);
        both[b] = t * u;
    }
    uint64_t chosen = 0;
    for (int j = 0; j < g->key_bits; j++) {
        int best = -1;
        uint64_t best_pairs = 0;
        for (uint64_t left = used & ~chosen; left; left &= left - 1) {
            const int b = __builtin_ctzll(left);
            const uint64_t pairs = live_pairs_on(sample, sh, b, 0);
            /* ties (a sample with no live pair left, too): the most
             * pairs of the whole sample, then the geometry's key first,
             * in its order, then the lower bit */
            if (best < 0 || pairs > best_pairs
                || (pairs == best_pairs
                    && (both[b] > both[best]
                        || (both[b] == both[best] && best < g->key_shift && b >= g->key_shift))))
                best = b, best_pairs = pairs;
        }
        bits[j] = best;
        chosen |= 1ull << best;
        live_pairs_on(sample, sh, best, 1);
    }
}

/* [tiles by top use] the key bits in increasing order of the sampled
 * tops that use them (stable: ties keep the order chosen), so that the
 * high bits, which cut a tiled join's bottoms into tiles, are those the
 * most tops use. */
static void order_by_top_use(const qcj_geometry *g, const qcj_set_key_sample *sample, int bits[64])
{
    uint64_t top_count[64];
    for (int j = 0; j < g->key_bits; j++) {
        top_count[j] = 0;
        for (size_t w = 0; w < SAMPLE / 64; w++)
            top_count[j] += (uint64_t)__builtin_popcountll(sample->top_uses[bits[j]][w]);
    }
    for (int j = 1; j < g->key_bits; j++)
        for (int i = j; i > 0 && top_count[i - 1] > top_count[i]; i--) {
            const uint64_t c = top_count[i];
            const int b = bits[i];
            top_count[i] = top_count[i - 1], bits[i] = bits[i - 1];
            top_count[i - 1] = c, bits[i - 1] = b;
        }
}

void qcj_set_key_choose(const qcj_geometry *g, const uint64_t *tops, size_t nt,
                        const uint64_t *bottoms, size_t nb, double pairs,
                        qcj_set_key_sample *sample, qcj_set_key *key)
{
    int bits[64];
    const key_sample_shape sh = sample_halves(tops, nt, bottoms, nb, pairs, sample);
    choose_bits(g, sample, sh, bits);
    order_by_top_use(g, sample, bits);
    qcj_set_key_lay_out(g, bits, key);
}
