/* SPDX-License-Identifier: MIT */
/*
 * test_colex.c — column sets in colex order (join/colex.h) against
 * definitions: binomials against Pascal's triangle, the set of each rank
 * and the next set against the sets of one size listed by increasing
 * mask, and the rank tables against the rank's sum and as a bijection onto
 * 0..C(t,r)-1.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "join/colex.h"
#include "check.h"
#include "random.h"

static void test_binomial(void)
{
    static uint64_t pascal[63][63];
    for (int n = 0; n <= 62; n++)
        for (int k = 0; k <= n; k++)
            pascal[n][k] = k == 0 || k == n ? 1 : pascal[n - 1][k - 1] + pascal[n - 1][k];
    for (int n = 0; n <= 62; n++)
        for (int k = -1; k <= n + 1; k++) {
            const uint64_t want = k < 0 || k > n ? 0 : pascal[n][k];
            CHECK(qcj_binomial(n, k) == want, "C(%d,%d) = %llu, want %llu", n, k,
                  (unsigned long long)qcj_binomial(n, k), (unsigned long long)want);
        }
}

/* The sets of r of t columns by increasing mask: the at-th is
 * qcj_colex_at(at, r), the next after it qcj_colex_next, and its rank at. */
static void test_order(const qcj_rank *rk)
{
    for (int t = 0; t <= 20; t++)
        for (int r = 0; r <= t && r <= 16; r += (t > 14 ? 3 : 1)) {
            uint64_t at = 0;
            uint32_t prev = 0;
            int bad_at = 0, bad_next = 0, bad_rank = 0;
            for (uint32_t x = 0; x < 1u << t; x++) {
                if (__builtin_popcount(x) != r)
                    continue;
                bad_at += qcj_colex_at(at, r) != x;
                bad_next += at > 0 && prev && qcj_colex_next(prev) != x;
                bad_rank += qcj_rank_of(rk, x) != at;
                prev = x;
                at++;
            }
            CHECK(at == qcj_binomial(t, r), "t=%d r=%d: %llu sets", t, r, (unsigned long long)at);
            CHECK(bad_at == 0 && bad_next == 0 && bad_rank == 0,
                  "t=%d r=%d: %d sets of a rank, %d next sets, %d ranks wrong", t, r, bad_at,
                  bad_next, bad_rank);
        }
}

/* Sets of up to 16 columns anywhere in 32 (every byte of the tables):
 * the rank is the sum of C(p_i, i+1) over the members p_0 < p_1 < ...,
 * and the set of that rank is the set again. */
static void test_rank_sum(const qcj_rank *rk)
{
    CHECK(rk->binom[32][16] == 601080390u, "C(32,16) = %u", rk->binom[32][16]);
    for (int i = 0; i < 3000; i++) {
        uint32_t x = (uint32_t)next_random() & (uint32_t)next_random();
        while (__builtin_popcount(x) > 16)
            x &= x - 1;
        uint64_t want = 0;
        int j = 0;
        for (uint32_t y = x; y; j++, y &= y - 1)
            want += qcj_binomial(__builtin_ctz(y), j + 1);
        CHECK(qcj_rank_of(rk, x) == want, "rank of %x: %u, want %llu", x, qcj_rank_of(rk, x),
              (unsigned long long)want);
        CHECK(qcj_colex_at(want, j) == x, "set of rank %llu", (unsigned long long)want);
    }
}

int main(void)
{
    static qcj_rank rk;
    qcj_rank_init(&rk);
    test_binomial();
    test_order(&rk);
    test_rank_sum(&rk);
    return check_report("colex");
}
