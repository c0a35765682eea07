/* SPDX-License-Identifier: MIT */
/*
 * test_solutions.c — the single-solution modules against each other and
 * against the published counts: the lazy enumeration (order, count, every
 * solution checked), DLX solution by solution, symmetry classes, the
 * verifier against a quadratic textbook check, the explicit construction
 * and the local search.   Usage: test_solutions TSV [big]
 * ("big" adds boards of a million rows and more).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/queens_dlx.h"
#include "check.h"
#include "known.h"
#include "qcount_solutions.h"


/* The textbook first attacking pair: lowest row b attacked from above,
 * then the lowest row a attacking it; O(n^2), for checking the verifier. */
static qc_attack textbook_attack(size_t n, const uint32_t *c)
{
    qc_attack at = {0, 0, QC_LINE_NONE};
    for (size_t b = 0; b < n; b++)
        for (size_t a = 0; a < b; a++) {
            long dr = (long)b - (long)a, dc = (long)c[b] - (long)c[a];
            qc_line line = dc == 0 ? QC_LINE_COLUMN : dc == dr ? QC_LINE_DIAGONAL
                         : dc == -dr ? QC_LINE_ANTIDIAGONAL : QC_LINE_NONE;
            if (line != QC_LINE_NONE) {
                at.row_a = a; at.row_b = b; at.line = line;
                return at;
            }
        }
    return at;
}

static int is_valid(size_t n, const uint32_t *cols)
{
    qc_attack at;
    return qc_solution_verify(n, cols, &at) == QC_OK && at.line == QC_LINE_NONE;
}

/* ---- enumeration: count, strict lexicographic order, each one valid ---- */

static int lex_less(int n, const uint32_t *a, const uint32_t *b)
{
    for (int r = 0; r < n; r++)
        if (a[r] != b[r])
            return a[r] < b[r];
    return 0;
}

static void test_enumerate(const known_count *known)
{
    for (int n = 1; n <= 12; n++) {
        qc_enum *it;
        CHECK(qc_enum_create(&it, n) == QC_OK, "enum_create %d", n);
        uint32_t cols[32], prev[32];
        uint64_t count = 0;
        int ordered = 1, valid = 1;
        while (qc_enum_next(it, cols)) {
            if (count && !lex_less(n, prev, cols))
                ordered = 0;
            if (!is_valid((size_t)n, cols))
                valid = 0;
            memcpy(prev, cols, sizeof cols);
            count++;
        }
        CHECK(qc_enum_next(it, cols) == 0, "n=%d: next after the end", n);
        CHECK((qc_u128)count == known[n].total, "n=%d: enumerated %llu", n, (unsigned long long)count);
        CHECK(ordered, "n=%d: not in lexicographic order", n);
        CHECK(valid, "n=%d: an invalid solution", n);
        /* each solution's last queen a step at least; the former name the same count */
        CHECK(qc_enum_steps(it) >= count && qc_enum_placements(it) == qc_enum_steps(it),
              "n=%d: %llu steps", n, (unsigned long long)qc_enum_steps(it));
        qc_enum_free(it);
    }
    qc_enum *it;
    CHECK(qc_enum_create(&it, 0) == QC_EINVAL && it == NULL, "enum n=0");
    CHECK(qc_enum_create(&it, 33) == QC_EINVAL, "enum n=33");
    /* N=32: the first solution is found at once and is valid */
    CHECK(qc_enum_create(&it, 32) == QC_OK, "enum n=32");
    uint32_t cols[32];
    CHECK(qc_enum_next(it, cols) == 1 && is_valid(32, cols), "n=32 first solution");
    qc_enum_free(it);
}

/* ---- DLX against the enumeration, solution by solution ---- */

typedef struct collect {
    int n;
    size_t count, cap;
    uint32_t *all;
} collect;

static int collect_one(const uint32_t *cols, void *arg)
{
    collect *c = arg;
    if (c->count == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->all = realloc(c->all, c->cap * (size_t)c->n * sizeof *c->all);
        if (!c->all)
            abort();
    }
    memcpy(c->all + c->count * (size_t)c->n, cols, (size_t)c->n * sizeof *cols);
    c->count++;
    return 0;
}

static int sort_n;
static int cmp_solution(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    for (int r = 0; r < sort_n; r++)
        if (x[r] != y[r])
            return x[r] < y[r] ? -1 : 1;
    return 0;
}

static void test_dlx_same_set(void)
{
    for (int n = 1; n <= 10; n++) {
        collect c = {.n = n};
        int64_t found = qco_queens_dlx_each(n, collect_one, &c);
        CHECK(found == (int64_t)c.count, "n=%d: dlx returned %lld, visited %zu", n, (long long)found, c.count);
        sort_n = n;
        if (c.count)
            qsort(c.all, c.count, (size_t)n * sizeof *c.all, cmp_solution);
        qc_enum *it;
        qc_enum_create(&it, n);
        uint32_t cols[32];
        size_t k = 0;
        int same = 1;
        while (qc_enum_next(it, cols)) {
            if (k >= c.count || memcmp(cols, c.all + k * (size_t)n, (size_t)n * sizeof *cols) != 0)
                same = 0;
            k++;
        }
        CHECK(same && k == c.count, "n=%d: dlx and the enumeration differ (%zu vs %zu)", n, c.count, k);
        qc_enum_free(it);
        free(c.all);
    }
}

/* ---- symmetry classes ---- */

static void test_classes(const known_count *known)
{
    for (int n = 1; n <= 10; n++) {
        qc_enum *it;
        qc_enum_create(&it, n);
        uint32_t cols[32], canon[32], image[32], canon2[32];
        uint64_t classes = 0, sum = 0;
        int sizes_ok = 1, images_ok = 1;
        while (qc_enum_next(it, cols)) {
            int size = qc_solution_canonical((size_t)n, cols, canon);
            if (!(n == 1 ? size == 1 : size == 2 || size == 4 || size == 8))
                sizes_ok = 0;
            for (int s = 0; s < QC_SYMMETRIES; s++) {   /* images: valid, same class */
                qc_solution_transform((size_t)n, cols, s, image);
                if (!is_valid((size_t)n, image) || qc_solution_canonical((size_t)n, image, canon2) != size
                    || memcmp(canon, canon2, (size_t)n * sizeof *canon) != 0)
                    images_ok = 0;
            }
            if (memcmp(canon, cols, (size_t)n * sizeof *cols) == 0) {
                classes++;
                sum += (uint64_t)size;
            }
        }
        qc_enum_free(it);
        CHECK((qc_u128)classes == known[n].unique, "n=%d: %llu classes", n, (unsigned long long)classes);
        CHECK((qc_u128)sum == known[n].total, "n=%d: class sizes sum to %llu", n, (unsigned long long)sum);
        CHECK(sizes_ok, "n=%d: a class size not 2, 4 or 8", n);
        CHECK(images_ok, "n=%d: an image invalid or in another class", n);
    }
    /* the 8 symmetries are 8 different maps (on an asymmetric solution) */
    uint32_t s8[8] = {0, 4, 7, 5, 2, 6, 1, 3}, img[8][8];
    int distinct = 1;
    for (int a = 0; a < 8; a++) {
        qc_solution_transform(8, s8, a, img[a]);
        for (int b = 0; b < a; b++)
            if (memcmp(img[a], img[b], sizeof img[a]) == 0)
                distinct = 0;
    }
    CHECK(distinct, "8 symmetries give 8 images of 1 5 8 6 3 7 2 4");
}

/* ---- the verifier ---- */

static void test_verify(void)
{
    qc_attack at;
    uint32_t ok4[4] = {1, 3, 0, 2};
    CHECK(qc_solution_verify(4, ok4, &at) == QC_OK && at.line == QC_LINE_NONE, "2 4 1 3 valid");
    uint32_t samecol[4] = {1, 3, 0, 1};
    CHECK(qc_solution_verify(4, samecol, &at) == QC_OK && at.line == QC_LINE_COLUMN && at.row_a == 0 && at.row_b == 3,
          "column clash rows 0,3: got %zu %zu %d", at.row_a, at.row_b, at.line);
    uint32_t diag[3] = {0, 1, 2};     /* \ diagonal: rows 0 and 1 */
    CHECK(qc_solution_verify(3, diag, &at) == QC_OK && at.line == QC_LINE_DIAGONAL && at.row_a == 0 && at.row_b == 1,
          "diagonal 0,1");
    uint32_t anti[4] = {3, 0, 2, 1};  /* rows 2 (col 2) and 3 (col 1): / */
    CHECK(qc_solution_verify(4, anti, &at) == QC_OK && at.line == QC_LINE_ANTIDIAGONAL && at.row_a == 2 && at.row_b == 3,
          "antidiagonal 2,3: got %zu %zu %d", at.row_a, at.row_b, at.line);
    uint32_t off[3] = {0, 3, 1};
    CHECK(qc_solution_verify(3, off, &at) == QC_EINVAL, "column 3 on a 3-board");
    CHECK(qc_solution_verify(0, off, &at) == QC_OK && at.line == QC_LINE_NONE, "empty board");
    /* random placements (not only permutations) against the textbook */
    uint64_t x = 12345;
    int agree = 1;
    for (int trial = 0; trial < 20000; trial++) {
        size_t n = 1 + trial % 12;
        uint32_t c[12];
        for (size_t r = 0; r < n; r++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            c[r] = (uint32_t)((x >> 33) % n);
        }
        qc_attack want = textbook_attack(n, c);
        if (qc_solution_verify(n, c, &at) != QC_OK || at.line != want.line
            || (want.line && (at.row_a != want.row_a || at.row_b != want.row_b)))
            agree = 0;
    }
    CHECK(agree, "verifier disagrees with the textbook check");
}

/* ---- one solution for any n ---- */

static void test_construct(int big)
{
    uint32_t *cols = malloc(1000 * sizeof *cols);
    int all_ok = 1;
    for (size_t n = 4; n <= 1000; n++)
        if (qc_construct(n, cols) != QC_OK || !is_valid(n, cols)) {
            all_ok = 0;
            printf("construct n=%zu invalid\n", n);
        }
    CHECK(all_ok, "construct 4..1000");
    CHECK(qc_construct(1, cols) == QC_OK && cols[0] == 0, "construct 1");
    CHECK(qc_construct(2, cols) == QC_EINVAL && qc_construct(3, cols) == QC_EINVAL
          && qc_construct(0, cols) == QC_EINVAL, "construct 0, 2, 3");
    free(cols);
    size_t top = big ? 10000005 : 100005;      /* every n mod 6 near the top */
    cols = malloc(top * sizeof *cols);
    for (size_t n = top - 5; n <= top; n++)
        CHECK(qc_construct(n, cols) == QC_OK && is_valid(n, cols), "construct n=%zu", n);
    free(cols);
}

static void test_minconflicts(int big)
{
    uint32_t *a = malloc(1000 * sizeof *a), *b = malloc(1000 * sizeof *b);
    int all_ok = 1;
    for (size_t n = 4; n <= 64; n++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            if (qc_minconflicts(n, seed, a, NULL) != QC_OK || !is_valid(n, a)) {
                all_ok = 0;
                printf("minconflicts n=%zu seed=%llu invalid\n", n, (unsigned long long)seed);
            }
    CHECK(all_ok, "minconflicts 4..64, seeds 1..3");
    CHECK(qc_minconflicts(1, 7, a, NULL) == QC_OK && a[0] == 0, "minconflicts 1");
    CHECK(qc_minconflicts(2, 7, a, NULL) == QC_EINVAL && qc_minconflicts(3, 7, a, NULL) == QC_EINVAL,
          "minconflicts 2, 3");
    /* reproducible by seed, different across seeds */
    qc_minconflicts(1000, 42, a, NULL);
    qc_minconflicts(1000, 42, b, NULL);
    CHECK(memcmp(a, b, 1000 * sizeof *a) == 0, "same seed, same solution");
    int differ = 0;
    for (uint64_t seed = 43; seed < 46; seed++) {
        qc_minconflicts(1000, seed, b, NULL);
        differ += memcmp(a, b, 1000 * sizeof *a) != 0 && is_valid(1000, b);
    }
    CHECK(differ == 3, "seeds 43..45 give other valid solutions (%d of 3)", differ);
    free(a);
    free(b);
    size_t n = big ? 1000000 : 100000;
    a = malloc(n * sizeof *a);
    qc_minconflicts_stats st;
    CHECK(qc_minconflicts(n, 1, a, &st) == QC_OK && is_valid(n, a), "minconflicts n=%zu", n);
    printf("minconflicts n=%zu: %llu conflicted at start, %llu swaps, %llu restarts\n", n,
           (unsigned long long)st.initial_conflicts, (unsigned long long)st.swaps,
           (unsigned long long)st.restarts);
    free(a);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TSV [big]\n", argv[0]);
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {0};
    known_load(argv[1], known);
    int big = argc > 2 && strcmp(argv[2], "big") == 0;
    test_enumerate(known);
    test_dlx_same_set();
    test_classes(known);
    test_verify();
    test_construct(big);
    test_minconflicts(big);
    return check_report("solutions");
}
