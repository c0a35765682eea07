/* SPDX-License-Identifier: MIT */
/*
 * orbits.c — which top column sets the join engine counts, and with what
 * weight (orbits.h).
 *
 * Write A(S) for the number of solutions whose top half uses the column set
 * S.  Mirroring a solution left-right maps those onto the solutions whose
 * top half uses mirror(S), so A(S) = A(mirror(S)).  On an even board the
 * top-bottom flip swaps the halves (both have N/2 rows), so A(S) = A(~S)
 * too.  The total is the sum over orbits of (orbit size) * A(any member):
 * the engine counts one member per orbit, the smallest in the order
 * (pattern, S) where the pattern is S's part inside the centre M.  M is
 * mirror-symmetric, so every image's pattern is the image of S's pattern:
 * a unit whose pattern is not the smallest of its images holds no counted
 * set (qcj_pattern_canonical), and inside a unit only images with the same
 * pattern compete (qcj_set_weight).
 */
#include "kernel/kernel.h"   /* qck_full_mask */
#include "orbits.h"

/* [mirror by reversal] The word's bits reversed (pairs, nibbles, then
 * bytes), then shifted down so that column c lands on n-1-c; columns from
 * n on fall off.  No loop over the columns: a plan weighs every column
 * set of every pattern, on odd N once for each middle column
 * (qcj_triple_weight, two mirrors each), and a loop made that 71% of the
 * time of the plans of N=27..32 (performance-log.md, "2026-12-07 (sixth
 * sitting) — …"). */
uint32_t qcj_mirror(uint32_t s, int n)
{
    if (n <= 0)
        return 0;
    uint32_t r = (s >> 1 & 0x55555555u) | (s & 0x55555555u) << 1;
    r = (r >> 2 & 0x33333333u) | (r & 0x33333333u) << 2;
    r = (r >> 4 & 0x0f0f0f0fu) | (r & 0x0f0f0f0fu) << 4;
    return __builtin_bswap32(r) >> (32 - n);
}

int qcj_pattern_canonical(uint32_t q, uint32_t m, int n, int flip)
{
    uint32_t mq = qcj_mirror(q, n);
    if (mq < q)
        return 0;
    if (flip && ((m & ~q) < q || (m & ~mq) < q))
        return 0;
    return 1;
}

int qcj_set_weight(uint32_t s, uint32_t q, uint32_t m, int n, int flip)
{
    uint32_t images[4];
    int count = 0;
    images[count++] = s;
    images[count++] = qcj_mirror(s, n);
    if (flip) {
        images[count++] = qck_full_mask(n) & ~s;
        images[count++] = qck_full_mask(n) & ~images[1];
    }
    int distinct = 0;
    for (int i = 0; i < count; i++) {
        if ((images[i] & m) == q && images[i] < s)
            return 0;          /* a smaller image in this unit counts s */
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= images[j] == images[i];
        distinct += !seen;
    }
    return distinct;
}

/* Odd N.  The middle row is its own image under the flip, so the flip maps
 * (top set S, middle column c, bottom set B) to (B, c, S), and the mirror
 * to (mirror S, mirror c, mirror B): A(S, c) is constant on those orbits.
 * The engine counts the member whose (pattern, top set, c) is smallest. */
int qcj_triple_weight(uint32_t s, int c, uint32_t m, int n)
{
    const uint32_t full = qck_full_mask(n);
    const uint32_t b = full & ~s & ~(1u << c);
    const uint32_t ms = qcj_mirror(s, n), mb = qcj_mirror(b, n);
    const int mc = n - 1 - c;
    uint32_t top[4] = {s, ms, b, mb};
    int mid[4] = {c, mc, c, mc};
    int distinct = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t pi = top[i] & m, p0 = s & m;
        if (pi < p0 || (pi == p0 && (top[i] < s || (top[i] == s && mid[i] < c))))
            return 0;
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= top[j] == top[i] && mid[j] == mid[i];
        distinct += !seen;
    }
    return distinct;
}

int qcj_set_passes(uint32_t s, uint32_t q, uint32_t m, int n, int flip, int merge, uint32_t cols[32],
                   int weight[32])
{
    if (n % 2 == 0) {
        cols[0] = 0;
        weight[0] = qcj_set_weight(s, q, m, n, flip);
        return weight[0] != 0;
    }
    int passes = 0;
    for (uint32_t mids = qck_full_mask(n) & ~s; mids; mids &= mids - 1) {
        const int c = __builtin_ctz(mids), wc = qcj_triple_weight(s, c, m, n);
        int at = 0;
        if (wc == 0)
            continue;
        if (merge)                           /* the pass of its weight */
            while (at < passes && weight[at] != wc)
                at++;
        else
            at = passes;
        if (at == passes) {
            cols[passes] = 0;
            weight[passes++] = wc;
        }
        cols[at] |= 1u << c;
    }
    return passes;
}
