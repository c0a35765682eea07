/* SPDX-License-Identifier: MIT */
/*
 * tables_avx512vbmi.c — the byte-table joiner ([byte tables], tables.h)
 * of the avx512vbmi level: 6-bit digits ("sextets") whose 64-byte tables
 * VPERMB looks up from one register (AVX-512 VBMI), 8 tops by 64 bottoms
 * a lookup, so a 28-bit ANDed part (N=18) takes 5 lookups where nibbles
 * take 7; VPOPCNTQ (VPOPCNTDQ) counts the pairs.  Tricks, named where they
 * are used:
 *   [one-register tables] 6 bits a digit, not 7: a lookup in one
 *                register (VPERMB) took half the time of one in two
 *                (VPERMI2B, a 7-bit table) in a throughput loop on an
 *                Intel Xeon (family 6, model 207), so at N=18 a sweep's
 *                vector is 5 lookups instead of 4 at twice the cost
 *                (docs/PERFORMANCE.md);
 *   [bit planes] a block's tables are built from its 8 tops' bit planes
 *                (one byte per bit: which tops have it), transposed by
 *                GF2P8AFFINEQB (GFNI): entry v of a digit's table is the
 *                OR of the planes of v's bits;
 *   [half tables] ... made as the OR of two 8-entry tables, of v's low
 *                and high three bits, eight of which come from three
 *                lookups: a block's five tables at N=18 take 16 lookups,
 *                not 30 (paired rounds: N=18 0.948 of the time);
 *   [ORs by three] a vector's lookups are ORed by three-input VPTERNLOG,
 *                two at a time into the running value;
 *   [clashes counted] the clashing bits are counted (VPOPCNTQ), not the
 *                free ones, and the disjoint pairs are the pairs swept
 *                less those, so no vector is inverted: at N=18 a vector
 *                is 5 lookups and 4 other vector instructions, where it
 *                was 6 (paired rounds on an AMD Zen 4, one thread: N=18
 *                0.95 and 0.97 of the time, N=17 0.98).
 */
#include <immintrin.h>

#include "joiner.h"
#include "tables.h"

#define TBL_BLOCK 8
#define TBL_DIGIT_BITS 6
#define TBL_DIGITS_MAX 11

typedef struct tbl_block {
    __m512i t[TBL_DIGITS_MAX];   /* digit j's 64 entries: [one-register tables] */
} tbl_block;

/* [clashes counted] the pairs swept, and the clashing bits of their
 * lookups in qword sums: the disjoint pairs are the difference, so no
 * vector is inverted */
typedef struct tbl_sums {
    uint64_t swept;
    __m512i clashing;
} tbl_sums;

static inline tbl_sums tbl_sums_zero(void)
{
    return (tbl_sums){0, _mm512_setzero_si512()};
}

static inline uint64_t tbl_sums_total(tbl_sums s)
{
    return s.swept - (uint64_t)_mm512_reduce_add_epi64(s.clashing);
}

/* [bit planes] byte b of the result: which of the n (1..8) tops have bit
 * b (bit i: top i), b < 64.  Byte m of every top is gathered into qword
 * m, top 7 first; GF2P8AFFINEQB with the unit bytes 1, 2, 4, ... then
 * transposes each qword's 8x8 bit matrix: byte j of qword m is the plane
 * of bit 8m+j. */
static inline __attribute__((always_inline)) __m512i bit_planes(const uint64_t *tops, size_t n)
{
    const __m512i v = _mm512_maskz_loadu_epi64((__mmask8)((1u << n) - 1u), tops);
    const __m512i gather = _mm512_set_epi64(   /* qword m, byte k: byte m of top 7-k */
        0x070f171f272f373full, 0x060e161e262e363eull, 0x050d151d252d353dull,
        0x040c141c242c343cull, 0x030b131b232b333bull, 0x020a121a222a323aull,
        0x0109111921293139ull, 0x0008101820283038ull);
    const __m512i rows = _mm512_permutexvar_epi8(gather, v);
    const __m512i units = _mm512_set1_epi64(0x8040201008040201ll);
    return _mm512_gf2p8affine_epi64_epi8(units, rows, 0);
}

/* The vector whose qword s holds byte value(s) in all its bytes. */
#define QWORDS_OF(value)                                                                          \
    _mm512_set_epi64((long long)(value(7) * 0x0101010101010101ull),                             \
                     (long long)(value(6) * 0x0101010101010101ull),                             \
                     (long long)(value(5) * 0x0101010101010101ull),                             \
                     (long long)(value(4) * 0x0101010101010101ull),                             \
                     (long long)(value(3) * 0x0101010101010101ull),                             \
                     (long long)(value(2) * 0x0101010101010101ull),                             \
                     (long long)(value(1) * 0x0101010101010101ull),                             \
                     (long long)(value(0) * 0x0101010101010101ull))

/* [half tables] A digit's table is built from two tables of 8 entries,
 * one for its low three bits and one for its high three: entry v is the
 * low table's entry v & 7 ORed with the high table's entry v >> 3, two
 * lookups where building it from its planes took six.  Eight such half
 * tables are made at once, by three lookups: qword s of half_tables(planes,
 * g) holds, in byte r, the OR of planes 24g + 3s + t over the bits t of r
 * (planes past 63 are none), so digit j's half tables are qwords 2(j % 4) and
 * 2(j % 4) + 1 of group j / 4. */
static inline __attribute__((always_inline)) __m512i half_tables(__m512i planes, int g)
{
    static const uint64_t with_bit[3] = {0xaaaaaaaaaaaaaaaaull, 0xccccccccccccccccull,
                                         0xf0f0f0f0f0f0f0f0ull};   /* bytes r with bit t */
    __m512i h = _mm512_setzero_si512();
    for (int t = 0; t < 3; t++) {
        const int first = 24 * g + t;   /* qword s takes plane first + 3s */
        const int past = first >= 64 ? 0 : (64 - first + 2) / 3;   /* qwords below 64 */
        const uint64_t keep = with_bit[t] & (past >= 8 ? ~0ull : (1ull << 8 * past) - 1u);
#define PLANE_OF(s) ((uint64_t)(first + 3 * (s)) & 63u)
        h = _mm512_or_si512(h, _mm512_maskz_permutexvar_epi8(keep, QWORDS_OF(PLANE_OF), planes));
#undef PLANE_OF
    }
    return h;
}

static inline __attribute__((always_inline)) void tbl_build(tbl_block *b, const uint64_t *tops,
                                                             size_t n, const int digits,
                                                             const int width)
{
    (void)width;                        /* always TBL_DIGIT_BITS here */
    const __m512i planes = bit_planes(tops, n);
    const __m512i missing = _mm512_set1_epi8((char)(0xffu << n));   /* clash with all */
    __m512i half_groups[(TBL_DIGITS_MAX + 3) / 4];   /* eight half tables each */
    for (int g = 0; 4 * g < digits; g++)
        half_groups[g] = half_tables(planes, g);
    for (int j = 0; j < digits; j++) {  /* [half tables] */
        const uint64_t low = 16u * (unsigned)(j % 4), high = low + 8;
        const __m512i low_entries = _mm512_add_epi8(_mm512_set1_epi64(0x0706050403020100ll),
                                                    _mm512_set1_epi8((char)low));
#define HIGH_OF(m) (high + (m))
        b->t[j] = _mm512_ternarylogic_epi64(
            _mm512_permutexvar_epi8(low_entries, half_groups[j / 4]),
            _mm512_permutexvar_epi8(QWORDS_OF(HIGH_OF), half_groups[j / 4]), missing, 0xfe);
#undef HIGH_OF
    }
}

/* Which of the 8 tops clash with each of the 64 bottoms of the planes at
 * p (each plane byte, below 64, indexes its digit's table).  [ORs by
 * three] the lookups are ORed two at a time into the running value, by
 * VPTERNLOG: five digits take two ORs, not four. */
static inline __attribute__((always_inline)) __m512i clash_at(const tbl_block *b, const uint8_t *p,
                                                               size_t stride, const int digits)
{
#define LOOKUP(j) _mm512_permutexvar_epi8(_mm512_loadu_si512(p + (size_t)(j) * stride), b->t[j])
    /* [one-register tables] */
    __m512i clash = LOOKUP(0);
    int j = 1;
    for (; j + 2 <= digits; j += 2)
        clash = _mm512_ternarylogic_epi64(clash, LOOKUP(j), LOOKUP(j + 1), 0xfe);
    if (j < digits)
        clash = _mm512_or_si512(clash, LOOKUP(j));
#undef LOOKUP
    return clash;
}

static inline __attribute__((always_inline)) void tbl_sweep(const tbl_block *b,
                                                             const uint8_t *planes, size_t stride,
                                                             size_t b0, size_t nb,
                                                             const int digits, tbl_sums *sums)
{
    const uint8_t *p = planes + b0;
    sums->swept += TBL_BLOCK * nb;          /* missing tops clash with all */
    __m512i clashing = sums->clashing;      /* [clashes counted] */
    for (; nb >= 64; nb -= 64, p += 64)
        clashing = _mm512_add_epi64(clashing, _mm512_popcnt_epi64(clash_at(b, p, stride, digits)));
    if (nb)
        clashing = _mm512_add_epi64(clashing, _mm512_popcnt_epi64(_mm512_maskz_mov_epi8(
                                                  ((__mmask64)1 << nb) - 1u, clash_at(b, p, stride, digits))));
    sums->clashing = clashing;
}

/* [paired blocks] Which of two blocks' tops clash with each of the 64
 * bottoms at p, into *ca and *cb: each plane vector is loaded once for
 * both blocks' lookups. */
static inline __attribute__((always_inline)) void clash_pair(const tbl_block *a, const tbl_block *b,
                                                              const uint8_t *p, size_t stride,
                                                              const int digits, __m512i *ca,
                                                              __m512i *cb)
{
#define PLANE(j) _mm512_loadu_si512(p + (size_t)(j) * stride)
    __m512i v = PLANE(0);
    __m512i x = _mm512_permutexvar_epi8(v, a->t[0]), y = _mm512_permutexvar_epi8(v, b->t[0]);
    int j = 1;
    for (; j + 2 <= digits; j += 2) {       /* [ORs by three] */
        const __m512i v1 = PLANE(j), v2 = PLANE(j + 1);
        x = _mm512_ternarylogic_epi64(x, _mm512_permutexvar_epi8(v1, a->t[j]),
                                      _mm512_permutexvar_epi8(v2, a->t[j + 1]), 0xfe);
        y = _mm512_ternarylogic_epi64(y, _mm512_permutexvar_epi8(v1, b->t[j]),
                                      _mm512_permutexvar_epi8(v2, b->t[j + 1]), 0xfe);
    }
    if (j < digits) {
        v = PLANE(j);
        x = _mm512_or_si512(x, _mm512_permutexvar_epi8(v, a->t[j]));
        y = _mm512_or_si512(y, _mm512_permutexvar_epi8(v, b->t[j]));
    }
#undef PLANE
    *ca = x;
    *cb = y;
}

/* [paired blocks] tbl_sweep for two blocks at once. */
#define TBL_SWEEP_PAIR 1
static inline __attribute__((always_inline)) void tbl_sweep_pair(const tbl_block *a,
                                                                  const tbl_block *b,
                                                                  const uint8_t *planes,
                                                                  size_t stride, size_t b0,
                                                                  size_t nb, const int digits,
                                                                  tbl_sums *sums)
{
    const uint8_t *p = planes + b0;
    sums->swept += 2 * TBL_BLOCK * nb;
    __m512i clashing = sums->clashing, other = _mm512_setzero_si512();
    for (; nb >= 64; nb -= 64, p += 64) {
        __m512i x, y;
        clash_pair(a, b, p, stride, digits, &x, &y);
        clashing = _mm512_add_epi64(clashing, _mm512_popcnt_epi64(x));
        other = _mm512_add_epi64(other, _mm512_popcnt_epi64(y));
    }
    if (nb) {
        const __mmask64 in = ((__mmask64)1 << nb) - 1u;
        __m512i x, y;
        clash_pair(a, b, p, stride, digits, &x, &y);
        clashing = _mm512_add_epi64(clashing, _mm512_popcnt_epi64(_mm512_maskz_mov_epi8(in, x)));
        other = _mm512_add_epi64(other, _mm512_popcnt_epi64(_mm512_maskz_mov_epi8(in, y)));
    }
    sums->clashing = _mm512_add_epi64(clashing, other);
}

#define TBL_COUNT tables_count
#include "tables_loop.h"

const qcj_joiner qcj_tables_joiner = {
    .name = "tables",
    .middle = TBL_MIDDLE,
    .merges_passes = TBL_MIDDLE == QCJ_MIDDLE_CARRIED,
    .count = tables_count,
};
