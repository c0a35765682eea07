/* SPDX-License-Identifier: MIT */
/*
 * groups.h — the halves of one column set sorted into groups by their key
 * diagonals (joiner.h): the counting sorts, in streams, in two passes by
 * halves of the key, or in place, and the tops that spare odd N's middle
 * queen.  Included by unit.c alone, which is built once per ISA level:
 * static functions, so that each level's compiler sees them with their
 * caller.
 */
#ifndef QCJ_GROUPS_H
#define QCJ_GROUPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "config.h"
#include "geometry.h"
#include "joiner.h"
#include "scratch.h"
#include "set_key.h"

/* Which bucket a half goes to: (x >> shift) & mask. */
typedef struct bucket_of {
    int shift;
    uint64_t mask;
} bucket_of;

static inline size_t bucket(bucket_of by, uint64_t x)
{
    return (size_t)((x >> by.shift) & by.mask);
}

/* [sort streams] The buckets (by) of the n halves at src counted into
 * cnt[c * buckets + bucket] by the streams c of the input (stream c:
 * [c * part, (c + 1) * part), the last to n), side by side; with a key,
 * each half first laid out by it, in place ([set key]). */
static void count_streams(uint64_t *src, size_t n, size_t streams, const qcj_set_key *set_key,
                          bucket_of by, uint32_t *cnt, size_t buckets)
{
    const size_t part = n / streams;
    memset(cnt, 0, streams * buckets * sizeof *cnt);
    for (size_t i = 0; i < part; i++)
        for (size_t c = 0; c < streams; c++) {
            uint64_t x = src[c * part + i];
            if (set_key)
                src[c * part + i] = x = qcj_set_key_apply(set_key, x);
            cnt[c * buckets + bucket(by, x)]++;
        }
    for (size_t i = streams * part; i < n; i++) {
        uint64_t x = src[i];
        if (set_key)
            src[i] = x = qcj_set_key_apply(set_key, x);
        cnt[(streams - 1) * buckets + bucket(by, x)]++;
    }
}

/* ... the counters made each stream's first place in its bucket, in
 * place, from at on: a bucket holds each stream's halves in turn, its
 * start at off[bucket * step]; returns the end of the last. */
static uint32_t stream_starts(uint32_t *cnt, size_t buckets, size_t streams, uint32_t at,
                              uint32_t *off, size_t step)
{
    for (size_t b = 0; b < buckets; b++) {
        off[b * step] = at;
        for (size_t c = 0; c < streams; c++) {
            const uint32_t n = cnt[c * buckets + b];
            cnt[c * buckets + b] = at;
            at += n;
        }
    }
    return at;
}

/* ... and the halves placed in dst, ANDed with keep, stream c's halves of
 * each bucket from ptr[c * buckets + bucket] on. */
static void place_streams(const uint64_t *src, size_t n, size_t streams, bucket_of by, uint32_t *ptr,
                          size_t buckets, uint64_t *dst, uint64_t keep)
{
    const size_t part = n / streams;
    for (size_t i = 0; i < part; i++)
        for (size_t c = 0; c < streams; c++) {
            const uint64_t x = src[c * part + i];
            dst[ptr[c * buckets + bucket(by, x)]++] = x & keep;
        }
    for (size_t i = streams * part; i < n; i++)
        dst[ptr[(streams - 1) * buckets + bucket(by, src[i])]++] = src[i] & keep;
}

/* A half's bits but its key_bits key bits from `shift` on: what a half
 * keeps once grouped by its key. */
static inline uint64_t keep_of(int key_bits, int shift)
{
    return ~((((uint64_t)1 << key_bits) - 1u) << shift);
}

/* [sort by halves of the key] The key bits of the first pass's coarse
 * groups. */
static int coarse_bits(int key_bits)
{
    return key_bits < QCJ_SORT_COARSE_BITS ? key_bits : QCJ_SORT_COARSE_BITS;
}

/* [sort by halves of the key] The len halves at raw (overwritten) into
 * their 2^key_bits groups at dst, the groups' starts into off (off[2^k]
 * the end): first into the coarse groups of the key's high bits (in
 * dst), then each coarse group, copied back into raw, into its groups.
 * With many groups a one-pass scatter writes each half to one of as many
 * places scattered over an array larger than the caches, a miss a half;
 * here the first pass writes a few hundred streams and the second one
 * coarse group's bytes, in the caches.  Both passes count and place by
 * [sort streams].  cnt: QCJ_SORT_STREAMS counters for every coarse
 * group, and for every group of a coarse group.  The halves keep their
 * bits but the key's (keep_of).  Measured: see config.h,
 * QCJ_SORT_COARSE_FROM_BITS. */
static void group_coarse(const qcj_set_key *set_key, uint64_t *raw, size_t len, uint64_t *dst,
                         uint32_t *off, uint32_t *cnt, int key_bits, int shift)
{
    enum { S = QCJ_SORT_STREAMS };
    const int cb = coarse_bits(key_bits), lb = key_bits - cb;
    const size_t coarse = (size_t)1 << cb, fine = (size_t)1 << lb;
    const bucket_of high = {shift + lb, coarse - 1}, low = {shift, fine - 1};
    count_streams(raw, len, S, set_key, high, cnt, coarse);
    off[(size_t)1 << key_bits] = stream_starts(cnt, coarse, S, 0, off, fine);
    place_streams(raw, len, S, high, cnt, coarse, dst, ~(uint64_t)0);
    for (size_t h = 0; h < coarse; h++) {
        const size_t from = off[h << lb], to = off[(h + 1) << lb];
        count_streams(dst + from, to - from, S, NULL, low, cnt, fine);
        stream_starts(cnt, fine, S, (uint32_t)from, off + (h << lb), 1);
        memcpy(raw + from, dst + from, (to - from) * sizeof *raw);
        place_streams(raw + from, to - from, S, low, cnt, fine, dst, keep_of(key_bits, shift));
    }
}

/* [grouped in place] The n halves at a permuted, in place, into their
 * buckets (by), which start at off[bucket * step] (and
 * the last ends at n): each half is read, and swapped into the next free
 * place of its bucket until one of the bucket being filled comes back (a
 * cycle); a half is ANDed with keep as it comes to its place.  head:
 * the buckets' next places. */
static void flag_sort(uint64_t *a, size_t n, bucket_of by, const uint32_t *off, size_t step,
                      uint32_t *head, size_t buckets, uint64_t keep)
{
    for (size_t b = 0; b < buckets; b++)
        head[b] = off[b * step];
    for (size_t b = 0; b < buckets; b++) {
        const uint32_t end = b + 1 < buckets ? off[(b + 1) * step] : (uint32_t)n;
        while (head[b] < end) {
            uint64_t x = a[head[b]];
            for (size_t to = bucket(by, x); to != b; to = bucket(by, x)) {
                const uint64_t y = a[head[to]];
                __builtin_prefetch(&a[head[to] + 8]);   /* the bucket's next line */
                a[head[to]++] = x & keep;
                x = y;
            }
            a[head[b]++] = x & keep;
        }
    }
}

/* [grouped in place] The len halves at raw sorted into their 2^key_bits
 * groups in place, the groups' starts into off: by the key's high bits
 * into coarse groups, then each coarse group by the low bits (flag_sort),
 * so that the cycles of the second pass stay in one coarse group's bytes.
 * No second copy of the halves: 8 bytes a half, for cycles of dependent
 * loads (config.h, QCJ_TOP_HELD_BYTES).  cnt: counters for every coarse
 * group, and for every group of a coarse group; head as many again.  The
 * halves keep their bits but the key's (keep_of). */
static void group_in_place(const qcj_set_key *set_key, uint64_t *raw, size_t len, uint32_t *off,
                           uint32_t *cnt, uint32_t *head, int key_bits, int shift)
{
    const int cb = coarse_bits(key_bits), lb = key_bits - cb;
    const size_t coarse = (size_t)1 << cb, fine = (size_t)1 << lb;
    const bucket_of high = {shift + lb, coarse - 1}, low = {shift, fine - 1};
    const uint64_t keep = keep_of(key_bits, shift);
    count_streams(raw, len, 1, set_key, high, cnt, coarse);
    off[(size_t)1 << key_bits] = stream_starts(cnt, coarse, 1, 0, off, fine);
    flag_sort(raw, len, high, off, fine, head, coarse, lb ? ~(uint64_t)0 : keep);
    for (size_t h = 0; lb && h < coarse; h++) {
        const size_t from = off[h << lb], to = off[(h + 1) << lb];
        count_streams(raw + from, to - from, 1, NULL, low, cnt, fine);
        uint32_t *starts = off + (h << lb);
        stream_starts(cnt, fine, 1, 0, starts, 1);          /* from the coarse group's start */
        flag_sort(raw + from, to - from, low, starts, 1, head, fine, keep);
        for (size_t f = 0; f < fine; f++)
            starts[f] += (uint32_t)from;
    }
}

/* The halves of one column set sorted into groups by their key diagonals
 * (joiner.h), in the side's vectors: a counting sort; raw is overwritten.
 * [sort streams] Halves that come one after another often share their
 * key, so one counter bumped again and again waits on its own last
 * store; with few groups the input is cut into QCJ_SORT_STREAMS parts,
 * each counted and placed with counters of its own, side by side (a
 * group holds each part's halves in turn; the order inside a group
 * changes no count).  With many, [sort by halves of the key].  With
 * in_place, [grouped in place]: the groups are raw's, lowv unused. */
static int group_halves(const qcj_geometry *g, const qcj_set_key *set_key, uint64_t *raw,
                        size_t len, int in_place, qcj_vec *offv, qcj_vec *lowv, qcj_groups *out)
{
    enum { S = QCJ_SORT_STREAMS };
    const size_t count = (size_t)1 << g->key_bits;
    const int shift = g->key_shift;
    const uint64_t kmask = count - 1;
    const int coarse = g->key_bits >= g->sort_coarse_from;
    const size_t streams = count <= QCJ_SORT_STREAMS_GROUPS && len >= S * count ? S : 1;
    /* off: the groups' starts; after them the counters of the passes
     * (S for each coarse group or each group of a coarse group), or of
     * the streams of each group */
    const int cb = coarse_bits(g->key_bits), lb = g->key_bits - cb;
    const size_t most = (size_t)1 << (cb > lb ? cb : lb);   /* coarse groups, or a coarse's */
    const size_t counters = in_place ? 2 * most : coarse ? S * most : streams * count;
    uint32_t *off = qcj_vec_reserve(offv, (count + 1 + counters) * sizeof *off, 0);
    uint64_t *low = in_place ? raw : qcj_vec_reserve(lowv, (len ? len : 1) * sizeof *low, 0);
    if (!off || !low || len >= UINT32_MAX)
        return QC_ENOMEM;
    uint32_t *cnt = off + count + 1;
    out->off = off;
    out->low = low;
    if (in_place)
        group_in_place(set_key, raw, len, off, cnt, cnt + most, g->key_bits, shift);
    else if (coarse)
        group_coarse(set_key, raw, len, low, off, cnt, g->key_bits, shift);
    else {
        const bucket_of by = {shift, kmask};
        count_streams(raw, len, streams, set_key, by, cnt, count);
        off[count] = stream_starts(cnt, count, streams, 0, off, 1);
        place_streams(raw, len, streams, by, cnt, count, low, keep_of(g->key_bits, shift));
    }
    return QC_OK;
}

/* [middle spared] the tops of src that spare the middle queen (signature
 * mid) into the scratch's spared groups: a top group sharing a key
 * diagonal with it is dropped whole, the others keep their tops that miss
 * its ANDed part. */
static int spare_middle(const qcj_geometry *g, const qcj_groups *src, uint64_t mid, qcj_scratch *sc,
                        qcj_groups *out)
{
    const uint32_t count = 1u << g->key_bits;
    const uint32_t mid_key = (uint32_t)(mid >> g->key_shift) & (count - 1);
    const uint64_t mid_low = mid & ~((uint64_t)(count - 1) << g->key_shift);
    uint32_t *off = qcj_vec_reserve(&sc->spared_off, ((size_t)count + 1) * sizeof *off, 0);
    uint64_t *low = qcj_vec_reserve(&sc->spared, ((size_t)src->off[count] + 1) * sizeof *low, 0);
    if (!off || !low)
        return QC_ENOMEM;
    uint32_t at = 0;
    for (uint32_t grp = 0; grp < count; grp++) {
        off[grp] = at;
        if (grp & mid_key)
            continue;
        for (size_t i = src->off[grp]; i < src->off[grp + 1]; i++) {
            const uint64_t t = src->low[i];
            low[at] = t;
            at += (t & mid_low) == 0;       /* kept unless it attacks */
        }
    }
    off[count] = at;
    out->off = off;
    out->low = low;
    return QC_OK;
}

#endif
