/* SPDX-License-Identifier: MIT */
/*
 * test_set_key.c — a column set's own key (join/set_key.h): its layout
 * moves each border diagonal's bit to a bit of its own, the key's j-th to
 * key_shift + j, and so keeps every pair of signatures disjoint or not as
 * it was; the geometry's own key laid out is no move at all; and on halves
 * that use some diagonals far more than the rest, the choice takes those,
 * the same each time, laid out by how many tops use them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "join/geometry.h"
#include "join/set_key.h"
#include "check.h"
#include "random.h"

static qcj_set_key key, again;
static qcj_set_key_sample sample;
static uint64_t tops[5000], bottoms[5000];

static uint64_t used_bits(const qcj_geometry *g)
{
    uint64_t used = 0;
    for (int r = 0; r < g->n; r++)
        for (int c = 0; c < g->n; c++)
            used |= g->cell_sig[r][c];
    return used;
}

/* k different bits of used, at random, into bits[0..k). */
static void random_bits(uint64_t used, int k, int *bits)
{
    int all[64], count = 0;
    for (int b = 0; b < 64; b++)
        if (used >> b & 1)
            all[count++] = b;
    for (int j = 0; j < k; j++) {
        const int at = j + (int)(next_random() % (uint64_t)(count - j));
        const int t = all[j];
        all[j] = all[at];
        all[at] = t;
        bits[j] = all[j];
    }
}

/* nt tops and nb bottoms, into tops[] and bottoms[], each using each bit b
 * of used with chance top_in_64[b] / 64 (a top) or bottom_in_64[b] / 64
 * (a bottom). */
static void random_halves(uint64_t used, const unsigned *top_in_64, const unsigned *bottom_in_64,
                          size_t nt, size_t nb)
{
    for (size_t h = 0; h < nt + nb; h++) {
        const unsigned *in_64 = h < nt ? top_in_64 : bottom_in_64;
        uint64_t sig = 0;
        for (uint64_t left = used; left; left &= left - 1) {
            const int b = __builtin_ctzll(left);
            if (next_random() % 64 < in_64[b])
                sig |= 1ull << b;
        }
        (h < nt ? tops : bottoms)[h < nt ? h : h - nt] = sig;
    }
}

/* The bit of used that *key lays out at key bit j, or -1. */
static int key_bit_from(const qcj_geometry *g, uint64_t used, int j)
{
    for (uint64_t left = used; left; left &= left - 1)
        if (qcj_set_key_apply(&key, left & -left) == 1ull << (g->key_shift + j))
            return __builtin_ctzll(left);
    return -1;
}

/* The layout for bits[0..k): each used bit to its own used bit, bits[j]
 * to key_shift + j, the others in order; pairs disjoint as before. */
static void check_layout(const qcj_geometry *g, const int *bits, const char *what)
{
    const uint64_t used = used_bits(g);
    uint64_t seen = 0;
    int bad = 0, next = 0;
    for (int b = 0; b < 64; b++) {
        if (!(used >> b & 1))
            continue;
        const uint64_t to = qcj_set_key_apply(&key, 1ull << b);
        int j = 0;
        while (j < g->key_bits && bits[j] != b)
            j++;
        const uint64_t want = j < g->key_bits ? 1ull << (g->key_shift + j) : 1ull << next++;
        bad += to != want || (seen & to) || !(used & to);
        seen |= to;
    }
    CHECK(bad == 0 && seen == used, "n=%d %s: %d bits laid out wrong", g->n, what, bad);
    int differ = 0;
    for (int i = 0; i < 2000; i++) {
        const uint64_t a = next_random() & next_random() & used;
        const uint64_t b = next_random() & next_random() & used;
        const uint64_t la = qcj_set_key_apply(&key, a), lb = qcj_set_key_apply(&key, b);
        differ += ((a & b) == 0) != ((la & lb) == 0) || qcj_set_key_apply(&key, a | b) != (la | lb);
    }
    CHECK(differ == 0, "n=%d %s: %d pairs disjoint otherwise after the layout", g->n, what, differ);
}

static void test_layouts(void)
{
    const int sizes[] = {4, 8, 9, 16, 17, 22, 25, 27, 28, 32};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (int wide = 0; wide < 2; wide++) {
            const int n = sizes[i];
            qcj_geometry g;
            qcj_geometry_init(&g, n, n % 2, n < 6 ? 2 : n < 20 ? 6 : 18, wide);
            int bits[64];
            for (int j = 0; j < g.key_bits; j++)
                bits[j] = g.key_shift + j;
            qcj_set_key_lay_out(&g, bits, &key);
            check_layout(&g, bits, "the geometry's key");
            int moved = 0;
            for (int t = 0; t < 1000; t++) {
                const uint64_t x = next_random() & used_bits(&g);
                moved += qcj_set_key_apply(&key, x) != x;
            }
            CHECK(moved == 0, "n=%d: the geometry's own key moves %d signatures", n, moved);
            for (int round = 0; round < 20; round++) {
                random_bits(used_bits(&g), g.key_bits, bits);
                qcj_set_key_lay_out(&g, bits, &key);
                check_layout(&g, bits, "a random key");
            }
        }
}

/* Halves that use the bits of `favoured` with probability 1/2, the rest
 * with 1/64: the key is those bits, whatever the sample's size. */
static void test_choice(void)
{
    const size_t sizes[][2] = {{5000, 5000}, {100, 3000}, {70, 70}, {1, 5000}};
    for (int n = 20; n <= 28; n += 8)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            qcj_geometry g;
            qcj_geometry_init(&g, n, n % 2, n == 20 ? 10 : 18, 0);
            const uint64_t used = used_bits(&g);
            int bits[64];
            random_bits(used, g.key_bits, bits);
            uint64_t favoured = 0;
            unsigned in_64[64];
            for (int j = 0; j < g.key_bits; j++)
                favoured |= 1ull << bits[j];
            for (int b = 0; b < 64; b++)
                in_64[b] = favoured >> b & 1 ? 32u : 1u;
            const size_t nt = sizes[i][0], nb = sizes[i][1];
            random_halves(used, in_64, in_64, nt, nb);
            qcj_set_key_choose(&g, tops, nt, bottoms, nb, (double)nt * (double)nb, &sample, &key);
            qcj_set_key_choose(&g, tops, nt, bottoms, nb, (double)nt * (double)nb, &sample,
                               &again);
            uint64_t key_bits = 0;
            for (uint64_t left = favoured; left; left &= left - 1)
                key_bits |= qcj_set_key_apply(&key, left & -left);
            const uint64_t want = (~0ull >> (64 - g.key_bits)) << g.key_shift;
            if (nt > 1)
                CHECK(key_bits == want, "n=%d %zu x %zu halves: the favoured bits not the key", n,
                      nt, nb);
            CHECK(memcmp(&key, &again, sizeof key) == 0, "n=%d: two choices differ", n);
            int chosen[64], k = 0;   /* whatever was chosen is a layout */
            for (int j = 0; j < g.key_bits; j++) {
                const int b = key_bit_from(&g, used, j);
                if (b >= 0)
                    chosen[k++] = b;
            }
            CHECK(k == g.key_bits, "n=%d: %d key bits laid out, want %d", n, k, g.key_bits);
            if (k == g.key_bits)
                check_layout(&g, chosen, "a chosen key");
        }
}

/* [tiles by top use] Tops that use the favoured bits each with its own
 * probability, the bottoms each with 1/2: the key is those bits, laid out
 * from the one the fewest tops use (bit key_shift) to the one the most
 * use.  The greedy choice alone takes them the other way round. */
static void test_order(void)
{
    enum { NT = QCJ_SET_KEY_SAMPLE, NB = 3000 };
    for (int n = 22; n <= 28; n += 3) {
        qcj_geometry g;
        qcj_geometry_init(&g, n, n % 2, n == 22 ? 12 : 18, 0);
        const uint64_t used = used_bits(&g);
        int bits[64];
        random_bits(used, g.key_bits, bits);
        uint64_t favoured = 0;
        unsigned top_in_64[64], bottom_in_64[64];
        for (int b = 0; b < 64; b++)
            top_in_64[b] = bottom_in_64[b] = 1u;
        for (int j = 0; j < g.key_bits; j++) {
            favoured |= 1ull << bits[j];
            top_in_64[bits[j]] = 6u + 3u * (unsigned)j;   /* each its own chance */
            bottom_in_64[bits[j]] = 32u;
        }
        random_halves(used, top_in_64, bottom_in_64, NT, NB);
        /* pairs enough for a sample of every top */
        qcj_set_key_choose(&g, tops, NT, bottoms, NB, 1e15, &sample, &key);
        int fewest_first = 1, favoured_only = 1;
        size_t before = 0;
        for (int j = 0; j < g.key_bits; j++) {
            const int b = key_bit_from(&g, used, j);
            favoured_only &= b >= 0 && (favoured >> b & 1);
            size_t count = 0;
            for (size_t t = 0; t < NT && b >= 0; t++)
                count += tops[t] >> b & 1;
            fewest_first &= count >= before;
            before = count;
        }
        CHECK(favoured_only, "n=%d: a key bit the halves do not favour", n);
        CHECK(fewest_first, "n=%d: the key bits not in increasing order of the tops' use", n);
    }
}

int main(void)
{
    test_layouts();
    test_choice();
    test_order();
    return check_report("test_set_key");
}
