/* SPDX-License-Identifier: MIT */
/*
 * test_join.c — unit tests of the join engine's building blocks, each
 * against a slow independent check: border signatures (halves and middle
 * row, and between the bands of a half) against coordinate geometry, column
 * keys, the halves built from bands against a textbook backtracker; the
 * growable vector's contents kept on each of its paths.
 * Colex ranks: test_colex.c; the joiners: test_joiners.c; the engine as a
 * whole: test_join_plan.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "join/geometry.h"
#include "join/halves.h"
#include "join/join_plan.h"
#include "join/settings.h"
#include "join/orbits.h"
#include "join/scratch.h"
#include "join/vec.h"
#include "kernel/kernel.h"
#include "plan.h"
#include "check.h"
#include "random.h"
#include "known.h"

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
        /* [guard bit] the halves' guard is no placement's (halves.c) */
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++)
                CHECK(!(g.inner_sig[r][c] >> 63), "n=%d inner (%d,%d) has bit 63", n, r, c);
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

/* The halves of each column set, built by joining bands, against the
 * textbook enumeration: every unit pattern, both sides, every set, each
 * time at a level this CPU runs drawn at random (their vector code). */
static void test_halves(void)
{
    static const char *const names[] = {"portable", "avx2", "avx512", "avx512vbmi", "neon"};
    qci_isa_level levels[8];
    int nlevels = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (qc_isa_select(names[i]) == QC_OK)
            levels[nlevels++] = qci_isa_current();
    qc_isa_select(NULL);
    static qcj_rank rk;
    qcj_rank_init(&rk);
    /* every set up to N=11; then a sample of sets on boards whose band
     * lists outgrow two vectors (more than 16 placements on one column set) */
    for (int n = 1; n <= 16; n++)
        for (int m = n % 2; m <= n && m <= (n <= 11 ? 5 : n % 2 + 2); m += 2) {
            qcj_geometry g;
            qcj_geometry_init(&g, n, m, 2, m == 1);
            /* [transposed lists] on half of the boards, which by their
             * size would not use them */
            g.halves_transposed = (n + m / 2) % 2 == 0;
            qcj_splits sp[2];
            CHECK(qcj_splits_init(&sp[0], g.h, g.band_rows) == QC_OK
                  && qcj_splits_init(&sp[1], g.h, g.h - g.band_rows) == QC_OK, "splits");
            const uint32_t full = (1u << n) - 1u;
            const uint32_t centre = ((1u << m) - 1u) << g.unit_lo;
            for (uint32_t bits = 0; bits < 1u << m; bits++) {
                const uint32_t pattern = bits << g.unit_lo;
                const uint32_t allowed = (full & ~centre) | pattern;
                for (int bottom = 0; bottom < 2; bottom++) {
                    qcj_side side = {0};
                    qcj_vec tmp[3] = {{0}}, out = {0};
                    uint64_t placed = 0, tested = 0;
                    const qcj_listing l = {.geo = &g, .rank = &rk, .tmp = tmp, .placed = &placed};
                    int rc = qcj_side_build(&l, bottom, pattern, UINT32_MAX, &side);
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
                        uint64_t *pre = qcj_vec_reserve(&out, kept * sizeof *pre, 0);
                        CHECK(pre != NULL, "out of memory");
                        for (size_t i = 0; pre && i < kept; i++)
                            pre[i] = ~(uint64_t)i;
                        size_t len = kept;
                        const qci_isa_level level = levels[next_random() % (uint64_t)nlevels];
                        size_t at = 0;
                        const qcj_halves_request rq = {.side = &side, .splits = &sp[bottom],
                                                       .set = qcj_squeeze(&g, pattern, set),
                                                       .avoid = avoid, .mark = avoid};
                        int hr = qcj_halves_of_at(level, &rk, &rq, &at, &out, &len, &tested);
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

/* qcj_vec_reserve keeps the prefix it is told to on each of its paths
 * ([kept prefix], vec.c): the allocator's below QCJ_VEC_HUGE_FROM, copied
 * into a first mapping, [moved, not copied] from mapping to mapping; and
 * a growth that keeps nothing gives room as large, aligned alike.  A byte
 * every page and the last are written after each reserve and read after
 * the next, up to the prefix kept. */
static void test_vec(void)
{
    qcj_vec v = {0};
    size_t written = 0;
    for (int step = 0; step < 6; step++) {
        const size_t bytes = step == 0 ? 1000
                           : step == 1 ? 3000                          /* realloc */
                           : step == 2 ? QCJ_VEC_HUGE_FROM + 1000      /* first mapping */
                                       : v.bytes + 1;                  /* moved, kept: all, half, none */
        const size_t keep = step == 4 ? written / 2 : step == 5 ? 0 : written;
        uint8_t *p = qcj_vec_reserve(&v, bytes, keep);
        CHECK(p != NULL && v.bytes >= bytes, "step %d: %zu bytes", step, bytes);
        if (!p)
            break;
        unsigned long bad = 0;
        for (size_t i = 0; i < keep; i += 4096)
            bad += p[i] != (uint8_t)(i / 4096 * 31 + 7);
        bad += keep == written && written && p[written - 1] != 0xa5;
        CHECK(bad == 0, "step %d: %lu bytes of the %zu kept changed", step, bad, keep);
#if defined(__linux__) && defined(QCJ_VEC_HUGE_FROM)
        if (step >= 2)
            CHECK((uintptr_t)p % ((size_t)2 << 20) == 0, "step %d: not on a 2 MiB page", step);
#endif
        for (size_t i = 0; i < bytes; i += 4096)
            p[i] = (uint8_t)(i / 4096 * 31 + 7);
        p[bytes - 1] = 0xa5;
        written = bytes;
    }
    qcj_vec_free(&v);
    CHECK(v.p == NULL && v.bytes == 0, "freed");
}

/* [kept scratch] [fresh scratch] A pool keeps a set given back, buffers
 * and all, only while they hold at most its keep_max bytes: a set with a
 * small buffer and one with a mapped 4 MiB buffer, given back to pools
 * keeping nothing, 1 MiB and everything; the next set taken has the
 * buffer back or is empty. */
static void test_pool(void)
{
    const size_t keeps[] = {0, (size_t)1 << 20, SIZE_MAX};
    const size_t sizes[] = {1000, (size_t)4 << 20};
    for (size_t k = 0; k < 3; k++)
        for (size_t z = 0; z < 2; z++) {
            qcj_pool *pool = qcj_pool_new(keeps[k]);
            qcj_scratch *s = pool ? qcj_pool_take(pool) : NULL;
            CHECK(s != NULL, "out of memory");
            if (!s) {
                qcj_pool_free(pool);
                continue;
            }
            uint8_t *p = qcj_vec_reserve(&s->low[1], sizes[z], 0);
            CHECK(p != NULL, "out of memory");
            if (p)
                memset(p, 7, sizes[z]);
            const size_t held = s->low[1].bytes;
            qcj_pool_give(pool, s);
            qcj_scratch *t = qcj_pool_take(pool);
            CHECK(t != NULL, "out of memory");
            const int kept = held <= keeps[k];
            CHECK(t && (kept ? t->low[1].bytes == held && ((uint8_t *)t->low[1].p)[sizes[z] - 1] == 7
                             : t->low[1].bytes == 0),
                  "keep %zu, %zu bytes: %s", keeps[k], sizes[z], kept ? "not kept" : "kept");
            qcj_pool_give(pool, t);
            qcj_pool_free(pool);
        }
}

int main(void)
{
    test_vec();
    test_pool();
    test_signatures();
    test_colkey();
    test_halves();
    return check_report("join parts");
}
