/* SPDX-License-Identifier: MIT */
/*
 * test_join.c — unit tests of the join engine's building blocks, each
 * against a slow independent check: border signatures (halves and middle
 * row, and between the bands of a half) against coordinate geometry, column
 * ranks, the halves built from bands against a textbook backtracker,
 * column keys, the disjoint-pair counters (every backend, by name: portable
 * and, on a CPU that has it, AVX-512) against a scalar loop.  The engine as
 * a whole: test_join_plan.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "join/geometry.h"
#include "join/halves.h"
#include "join/join.h"
#include "join/orbits.h"
#include "join/pairs.h"
#include "kernel/kernel.h"
#include "plan.h"
#include "check.h"
#include "random.h"
#include "known.h"

/* Whether this CPU runs the AVX-512 backend (it is built on every x86-64,
 * whatever the build targets). */
static inline int have_avx512(void)
{
#if defined(QCJ_PAIRS_HAVE_AVX512)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
#else
    return 0;
#endif
}



/* Queens of different parts (top rows < h, odd N's middle row h, bottom
 * rows >= b0) share a signature bit exactly when they share a diagonal. */
static void test_signatures(void)
{
    for (int n = 1; n <= 32; n++) {
        qcj_geometry g;
        qcj_geometry_init(&g, n, n % 2, n % 2 ? 4 : 6, n % 3 == 0);
        const int last_upper = n % 2 ? g.h : g.h - 1;   /* odd: the middle too */
        for (int r1 = 0; r1 <= last_upper; r1++)
            for (int c1 = 0; c1 < n; c1++)
                for (int r2 = r1 < g.h ? g.h : g.b0; r2 < n; r2++)
                    for (int c2 = 0; c2 < n; c2++) {
                        int diag = r1 + c1 == r2 + c2 || r1 - c1 == r2 - c2;
                        int shared = (g.cell_sig[r1][c1] & g.cell_sig[r2][c2]) != 0;
                        CHECK(diag == shared, "n=%d (%d,%d) (%d,%d): diagonal %d, signature %d",
                              n, r1, c1, r2, c2, diag, shared);
                    }
        /* the two bands of each half: inner bits shared exactly when a
         * diagonal is */
        for (int half = 0; half < 2; half++) {
            const int r0 = half ? g.b0 : 0, split = g.split[half], r1 = half ? n : g.h;
            CHECK(split - r0 == (half ? g.h - g.band_rows : g.band_rows), "n=%d band rows", n);
            for (int ra = r0; ra < split; ra++)
                for (int rb = split; rb < r1; rb++)
                    for (int ca = 0; ca < n; ca++)
                        for (int cb = 0; cb < n; cb++) {
                            int diag = ra + ca == rb + cb || ra - ca == rb - cb;
                            int shared = (g.inner_sig[ra][ca] & g.inner_sig[rb][cb]) != 0;
                            CHECK(diag == shared, "n=%d inner (%d,%d) (%d,%d): diagonal %d, bits %d",
                                  n, ra, ca, rb, cb, diag, shared);
                        }
        }
    }
}

static void test_colkey(void)
{
    for (int n = 1; n <= 32; n++)
        for (int m = n % 2; m <= n; m += 2) {
            qcj_geometry g;
            qcj_geometry_init(&g, n, m, 4, 0);
            uint32_t outside = 0;
            for (int c = 0; c < n; c++)
                if (c < g.unit_lo || c >= g.unit_hi)
                    outside |= 1u << c;
            for (int i = 0; i < 200; i++) {
                uint32_t cols = (uint32_t)next_random() & outside;
                uint32_t key = qcj_colkey(&g, cols);
                CHECK(key < (1ull << (n - m)), "n=%d m=%d key %x too wide", n, m, key);
                CHECK(qcj_colkey_expand(&g, key) == cols, "n=%d m=%d cols %x", n, m, cols);
            }
        }
}

/* Textbook enumeration of the halves of rows r0..r1-1 on exactly the
 * columns `set` (coordinates, no bitmasks); sums a digest of each border
 * signature. */
typedef struct slow_sum {
    uint64_t count, digest;
} slow_sum;

static uint64_t digest_of(uint64_t sig)
{
    uint64_t x = sig * 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
}

static void slow_halves(const qcj_geometry *g, int r0, int r1, int row, int *col, uint32_t set,
                        int avoid_col, slow_sum *out)
{
    if (row == r1) {
        uint64_t sig = 0;
        for (int r = r0; r < r1; r++) {
            sig |= g->cell_sig[r][col[r]];
            /* a queen on odd N's middle row in column avoid_col */
            if (avoid_col >= 0 && (col[r] - avoid_col == r - g->h || col[r] - avoid_col == g->h - r))
                return;
        }
        out->count++;
        out->digest += digest_of(sig);
        return;
    }
    for (int c = 0; c < g->n; c++) {
        if (!(set >> c & 1u))
            continue;
        int ok = 1;
        for (int r = r0; r < row; r++)
            if (col[r] == c || col[r] - c == r - row || col[r] - c == row - r)
                ok = 0;
        if (ok) {
            col[row] = c;
            slow_halves(g, r0, r1, row + 1, col, set, avoid_col, out);
        }
    }
}

/* Ranks: a bijection from the sets of r of t columns onto 0..C(t,r)-1. */
static void test_rank(void)
{
    static qcj_rank rk;
    qcj_rank_init(&rk);
    CHECK(rk.binom[32][16] == 601080390u, "C(32,16) = %u", rk.binom[32][16]);
    static unsigned char seen[1 << 20];
    for (int t = 0; t <= 20; t++)
        for (int r = 0; r <= t && r <= 16; r += (t > 16 ? 5 : 1)) {
            uint32_t ranks = rk.binom[t][r];
            memset(seen, 0, ranks);
            int bad = 0;
            for (uint32_t x = 0; x < 1u << t; x++) {
                if (__builtin_popcount(x) != r)
                    continue;
                uint32_t k = qcj_rank_of(&rk, x);
                bad += k >= ranks || seen[k]++;
            }
            CHECK(bad == 0, "t=%d r=%d: ranks not one-to-one onto 0..%u", t, r, ranks - 1);
        }
    /* the top byte too: sets of up to 16 columns anywhere in 32 */
    for (int i = 0; i < 2000; i++) {
        uint32_t x = (uint32_t)next_random() & (uint32_t)next_random(), y = x;
        while (__builtin_popcount(x) > 16)
            x &= x - 1;
        y = x;
        uint64_t want = 0;
        for (int j = 0; y; j++, y &= y - 1)
            want += rk.binom[__builtin_ctz(y)][j + 1];
        CHECK(qcj_rank_of(&rk, x) == want, "rank of %x", x);
    }
}

/* The halves of each column set, built by joining bands, against the
 * textbook enumeration: every unit pattern, both sides, every set. */
static void test_halves(void)
{
    static qcj_rank rk;
    qcj_rank_init(&rk);
    /* every set up to N=11; then a sample of sets on boards whose band
     * lists outgrow two vectors (more than 16 placements on one column set) */
    for (int n = 1; n <= 16; n++)
        for (int m = n % 2; m <= n && m <= (n <= 11 ? 5 : n % 2 + 2); m += 2) {
            qcj_geometry g;
            qcj_geometry_init(&g, n, m, 2, m == 1);
            qcj_splits sp[2];
            CHECK(qcj_splits_init(&sp[0], g.h, g.band_rows) == QC_OK
                  && qcj_splits_init(&sp[1], g.h, g.h - g.band_rows) == QC_OK, "splits");
            const uint32_t full = (1u << n) - 1u;
            const uint32_t block = ((1u << m) - 1u) << g.unit_lo;
            for (uint32_t bits = 0; bits < 1u << m; bits++) {
                const uint32_t pattern = bits << g.unit_lo;
                const uint32_t allowed = (full & ~block) | pattern;
                for (int bottom = 0; bottom < 2; bottom++) {
                    qcj_side side = {0};
                    qcj_vec tmp[3] = {{0}}, out = {0};
                    uint64_t placed = 0, tested = 0;
                    int rc = qcj_side_build(&g, &rk, bottom, pattern, &side, tmp, NULL, &placed);
                    CHECK(rc == QC_OK, "n=%d m=%d pattern %x: side not built", n, m, pattern);
                    const int r0 = bottom ? g.b0 : 0, r1 = bottom ? n : g.h;
                    for (uint32_t set = 0; rc == QC_OK && set <= full; set++) {
                        if ((set & ~allowed) || __builtin_popcount(set) != g.h)
                            continue;
                        if (n > 11 && next_random() % (n > 13 ? 600 : 60) != 0)
                            continue;
                        /* odd N: also sparing a middle queen not in the set */
                        int mid = -1;
                        if (n % 2 && set != full)
                            for (mid = (int)(next_random() % (uint64_t)n); set >> mid & 1u;)
                                mid = (mid + 1) % n;
                        uint64_t avoid = mid >= 0 ? g.cell_sig[g.h][mid] : 0;
                        /* appended after 3 entries kept, each marked with
                         * the middle queen's signature */
                        const size_t kept = 3;
                        uint64_t *pre = qcj_vec_reserve(&out, kept * sizeof *pre);
                        CHECK(pre != NULL, "out of memory");
                        for (size_t i = 0; pre && i < kept; i++)
                            pre[i] = ~(uint64_t)i;
                        size_t len = kept;
                        int hr = qcj_halves_of(&rk, &sp[bottom], &side, qcj_squeeze(&g, pattern, set),
                                               avoid, avoid, &out, &len, &tested);
                        CHECK(hr == QC_OK, "n=%d m=%d: halves not built", n, m);
                        slow_sum got = {len - kept, 0}, want = {0, 0};
                        for (size_t i = 0; i < kept && hr == QC_OK; i++)
                            CHECK(((uint64_t *)out.p)[i] == ~(uint64_t)i, "halves: kept entry %zu", i);
                        for (size_t i = kept; i < len && hr == QC_OK; i++) {
                            const uint64_t v = ((uint64_t *)out.p)[i];
                            CHECK((v & avoid) == avoid, "halves: middle queen's mark missing");
                            got.digest += digest_of(v & ~avoid);
                        }
                        int col[32];
                        slow_halves(&g, r0, r1, r0, col, set, mid, &want);
                        CHECK(got.count == want.count && got.digest == want.digest,
                              "n=%d m=%d pattern %x %s set %x middle %d: %llu halves, want %llu%s",
                              n, m, pattern, bottom ? "bottom" : "top", set, mid,
                              (unsigned long long)got.count, (unsigned long long)want.count,
                              got.digest != want.digest ? " (contents differ)" : "");
                        CHECK(tested >= len - kept, "pairs tested below halves");
                    }
                    qcj_side_free(&side);
                    for (int i = 0; i < 3; i++)
                        free(tmp[i].p);
                    free(out.p);
                }
            }
            qcj_splits_free(&sp[0]);
            qcj_splits_free(&sp[1]);
        }
}

static void test_pairs(void)
{
    uint32_t a32[300], b32[300];
    uint64_t a64[300], b64[300];
    for (int round = 0; round < 60; round++) {
        size_t nt = (size_t)(next_random() % 40), nb = (size_t)(next_random() % (round < 30 ? 40 : 300));
        int density = 1 + round % 4;   /* more bits set: fewer disjoint pairs */
        for (size_t i = 0; i < 300; i++) {
            uint64_t x = next_random(), y = next_random();
            for (int d = 1; d < density; d++) {
                x &= next_random() | next_random();
                y &= next_random() | next_random();
            }
            a64[i] = x & (next_random() | next_random());
            b64[i] = y & (next_random() | next_random());
            a32[i] = (uint32_t)a64[i];
            b32[i] = (uint32_t)(b64[i] >> 32);
        }
        uint64_t want32 = 0, want64 = 0;
        for (size_t i = 0; i < nt; i++)
            for (size_t j = 0; j < nb; j++) {
                want32 += (a32[i] & b32[j]) == 0;
                want64 += (a64[i] & b64[j]) == 0;
            }
        CHECK(qcj_pairs_portable_disjoint32(a32, nt, b32, nb) == want32, "portable32 %zu x %zu", nt, nb);
        CHECK(qcj_pairs_portable_disjoint64(a64, nt, b64, nb) == want64, "portable64 %zu x %zu", nt, nb);
#if defined(QCJ_PAIRS_HAVE_AVX512)
        if (have_avx512()) {
            CHECK(qcj_pairs_avx512_disjoint32(a32, nt, b32, nb) == want32, "avx512 32 %zu x %zu", nt, nb);
            CHECK(qcj_pairs_avx512_disjoint64(a64, nt, b64, nb) == want64, "avx512 64 %zu x %zu", nt, nb);
        }
#endif
    }
    /* all-zero signatures: every pair counts, across the slice bounds
     * (2^8 tops, 2^20 bottoms a call) */
    static uint32_t zeros[(1 << 20) + 5];
    static uint64_t zeros64[(1 << 20) + 5];
    CHECK(qcj_pairs_portable_disjoint32(zeros, 300, zeros, 1 << 12) == 300ull << 12, "zeros");
    CHECK(qcj_pairs_portable_disjoint64(zeros64, 3, zeros64, (1 << 20) + 5) == 3ull * ((1 << 20) + 5),
          "zeros64");
#if defined(QCJ_PAIRS_HAVE_AVX512)
    if (have_avx512()) {
        CHECK(qcj_pairs_avx512_disjoint32(zeros, 300, zeros, 1 << 12) == 300ull << 12, "avx512 zeros");
        CHECK(qcj_pairs_avx512_disjoint32(zeros, (1 << 20) + 5, zeros, 3) == 3ull * ((1 << 20) + 5),
              "avx512 zeros, lists swapped");
        CHECK(qcj_pairs_avx512_disjoint64(zeros64, 3, zeros64, (1 << 20) + 5) == 3ull * ((1 << 20) + 5),
              "avx512 zeros64");
    }
#endif
}

/* The sieve over key groups (vector and portable) against a scalar loop
 * over every pair and its groups' keys. */
static void test_join_groups(void)
{
    enum { MAX = 700 };
    static uint32_t t32[MAX], b32[MAX];
    static uint64_t t64[MAX], b64[MAX];
    for (int round = 0; round < 80; round++) {
        const int k = round % 6;
        const uint32_t groups = 1u << k, extra = (uint32_t)next_random() & (groups - 1) & -(round % 3 == 0);
        uint32_t toff[65], boff[65];
        size_t nt = 0, nb = 0;
        for (uint32_t g = 0; g < groups; g++) {   /* ragged groups, some empty */
            toff[g] = (uint32_t)nt;
            boff[g] = (uint32_t)nb;
            nt += (size_t)(next_random() % (MAX / groups));
            nb += (size_t)(next_random() % (MAX / groups));
        }
        toff[groups] = (uint32_t)nt;
        boff[groups] = (uint32_t)nb;
        for (size_t i = 0; i < MAX; i++) {
            t64[i] = next_random() & next_random() & next_random();
            b64[i] = next_random() & next_random() & next_random();
            t32[i] = (uint32_t)t64[i];
            b32[i] = (uint32_t)(b64[i] >> 32);
        }
        uint64_t want32 = 0, want64 = 0, want_tested = 0;
        for (uint32_t tg = 0; tg < groups; tg++)
            for (uint32_t bg = 0; bg < groups; bg++) {
                if (bg & (tg | extra))
                    continue;
                want_tested += (uint64_t)(toff[tg + 1] - toff[tg]) * (boff[bg + 1] - boff[bg]);
                for (size_t i = toff[tg]; i < toff[tg + 1]; i++)
                    for (size_t j = boff[bg]; j < boff[bg + 1]; j++) {
                        want32 += (t32[i] & b32[j]) == 0;
                        want64 += (t64[i] & b64[j]) == 0;
                    }
            }
        uint64_t tested[4] = {0};
        int runs = 2;
        CHECK(qcj_pairs_portable_groups32(toff, t32, boff, b32, k, extra, &tested[0]) == want32,
              "portable groups32 k=%d", k);
        CHECK(qcj_pairs_portable_groups64(toff, t64, boff, b64, k, extra, &tested[1]) == want64,
              "portable groups64 k=%d", k);
#if defined(QCJ_PAIRS_HAVE_AVX512)
        if (have_avx512()) {
            runs = 4;
            CHECK(qcj_pairs_avx512_groups32(toff, t32, boff, b32, k, extra, &tested[2]) == want32,
                  "avx512 groups32 k=%d", k);
            CHECK(qcj_pairs_avx512_groups64(toff, t64, boff, b64, k, extra, &tested[3]) == want64,
                  "avx512 groups64 k=%d", k);
        }
#endif
        for (int i = 0; i < runs; i++)
            CHECK(tested[i] == want_tested, "groups k=%d: %llu pairs tested, want %llu", k,
                  (unsigned long long)tested[i], (unsigned long long)want_tested);
    }
}

/* The AVX-512 sieve's guard on its 32-bit lane counters: group pairs big
 * enough (2^31 and 2^32 pairs) that the counters are summed between two
 * pairs, and that one pair alone is counted in slices.  Tops i % 3 == 0
 * and odd bottoms are 1, the rest 0: all pairs but those are disjoint. */
static void test_lane_guard(void)
{
#if defined(QCJ_PAIRS_HAVE_AVX512)
    if (!have_avx512())
        return;
    enum { T0 = 1 << 15, T1 = 1 << 16, B0 = 1 << 16, B1 = 1 << 16 };
    static uint32_t tops[T0 + T1], bottoms[B0 + B1];
    uint64_t want = 0;
    for (uint32_t i = 0; i < T0 + T1; i++)
        tops[i] = i % 3 == 0;
    for (uint32_t j = 0; j < B0 + B1; j++)
        bottoms[j] = j & 1u;
    /* top group 0 meets bottom groups 1 then 0 (2^31 pairs each: the
     * second sums the counters first), top group 1 meets group 0 (2^32
     * pairs: in slices) */
    const uint32_t toff[3] = {0, T0, T0 + T1}, boff[3] = {0, B0, B0 + B1};
    want += (uint64_t)T0 * B1 - (uint64_t)((T0 + 2) / 3) * (B1 / 2);
    want += (uint64_t)T0 * B0 - (uint64_t)((T0 + 2) / 3) * (B0 / 2);
    uint64_t ones1 = 0;
    for (uint32_t i = T0; i < T0 + T1; i++)
        ones1 += tops[i];
    want += (uint64_t)T1 * B0 - ones1 * (B0 / 2);
    uint64_t tested = 0;
    CHECK(qcj_pairs_avx512_groups32(toff, tops, boff, bottoms, 1, 0, &tested) == want,
          "avx512 groups32 past the lane limit");
    CHECK(tested == (uint64_t)T0 * (B0 + B1) + (uint64_t)T1 * B0, "lane guard: pairs tested");
#endif
}

int main(void)
{
    test_signatures();
    test_colkey();
    test_rank();
    test_halves();
    test_pairs();
    test_join_groups();
    test_lane_guard();
    return check_report("join parts");
}
