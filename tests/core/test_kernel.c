/* SPDX-License-Identifier: MIT */
/*
 * test_kernel.c — unit tests of the kernel, the halving split and the
 * 128-bit totals, each against an independent slow method.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/kernel.h"
#include "plan.h"
#include "check.h"
#include "known.h"


/* The textbook count: rows top-down, a queen per row, attack checks on
 * coordinates (no bitmasks), no symmetry. */
static int safe(const int *col, int row, int c)
{
    for (int r = 0; r < row; r++)
        if (col[r] == c || col[r] - c == r - row || col[r] - c == row - r)
            return 0;
    return 1;
}
static long textbook(int n, int row, int *col)
{
    if (row == n)
        return 1;
    long count = 0;
    for (int c = 0; c < n; c++)
        if (safe(col, row, c)) {
            col[row] = c;
            count += textbook(n, row + 1, col);
        }
    return count;
}

static void test_kernel_empty_board(void)
{
    for (int n = 1; n <= 11; n++) {
        int col[32];
        long want = textbook(n, 0, col);
        uint64_t placed = 0;
        qck_board empty = {0, 0, 0};
        uint64_t got = 0;
        CHECK(qck_count_completions_now(n, empty, n, &got, &placed) == QC_OK, "n=%d", n);
        CHECK(got == (uint64_t)want, "kernel n=%d: %llu, textbook %ld", n, (unsigned long long)got, want);
        CHECK(placed >= got * (uint64_t)n / (uint64_t)n, "placements below solutions");
    }
}

/* A fixed prefix: the kernel from a pre-placed board agrees with the
 * textbook search constrained to the same first rows. */
static void test_kernel_prefix(void)
{
    const int n = 9;
    int col[32] = {1, 3};   /* rows 0 and 1 fixed, non-attacking */
    long want = textbook(n, 2, col);
    qck_board b = {0, 0, 0};
    b = qck_place(b, 1u << 1);
    b = qck_place(b, 1u << 3);
    uint64_t placed = 0;
    uint64_t got = 0;
    CHECK(qck_count_completions_now(n, b, n - 2, &got, &placed) == QC_OK);
    CHECK(got == (uint64_t)want, "prefix count %llu, textbook %ld", (unsigned long long)got, want);
}

/* Placements: on N=4 the full search tree (no pre-placement) has a known
 * node count, computed here by the textbook search. */
static long textbook_nodes(int n, int row, int *col)
{
    if (row == n)
        return 0;
    long nodes = 0;
    for (int c = 0; c < n; c++)
        if (safe(col, row, c)) {
            col[row] = c;
            nodes += 1 + textbook_nodes(n, row + 1, col);
        }
    return nodes;
}
static void test_kernel_placements(void)
{
    for (int n = 2; n <= 10; n++) {
        int col[32];
        long want = textbook_nodes(n, 0, col);
        uint64_t placed = 0;
        qck_board empty = {0, 0, 0};
        uint64_t found;
        CHECK(qck_count_completions_now(n, empty, n, &found, &placed) == QC_OK, "n=%d", n);
        CHECK(placed == (uint64_t)want, "n=%d placements %llu, textbook nodes %ld", n,
              (unsigned long long)placed, want);
    }
}

/* Halving against the full search, every N where the full search is quick:
 * odd N exercises the middle-column rule. */
static void test_halving_matches_full(void)
{
    for (int n = 1; n <= 13; n++) {
        qc_plan *plan;
        CHECK(qc_plan_create(&plan, n, QC_ENGINE_HALVING) == QC_OK, "plan n=%d", n);
        qc_u128 sum = 0;
        for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
            qc_tally t;
            CHECK(qc_plan_count_unit(plan, u, &t) == QC_OK, "n=%d unit %zu failed", n, u);
            sum += t.solutions;
        }
        uint64_t placed = 0;
        qck_board empty = {0, 0, 0};
        uint64_t full = 0;
        CHECK(qck_count_completions_now(n, empty, n, &full, &placed) == QC_OK, "n=%d", n);
        CHECK(sum == full, "halving n=%d: %llu, full search %llu", n,
              (unsigned long long)sum, (unsigned long long)full);
        qc_plan_free(plan);
    }
}

/* The middle-column trap: on odd N the solutions whose first-row queen is
 * in the middle column must count once each.  Check the trap is live (such
 * solutions exist, so dropping them or doubling them twice changes the
 * total) and that halving's total is exactly 2*left + middle. */
static void test_halving_middle_column(void)
{
    for (int n = 5; n <= 13; n += 2) {
        int col[32];
        long middle = 0, left = 0;
        for (int c = 0; c < n; c++) {
            col[0] = c;
            long k = textbook(n, 1, col);
            if (c == n / 2)
                middle = k;
            else if (c < n / 2)
                left += k;
        }
        CHECK(middle > 0, "n=%d: no middle-column solutions, the trap is not exercised", n);
        qc_plan *plan;
        qc_plan_create(&plan, n, QC_ENGINE_HALVING);
        qc_u128 sum = 0;
        for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
            qc_tally t;
            CHECK(qc_plan_count_unit(plan, u, &t) == QC_OK, "n=%d unit %zu failed", n, u);
            sum += t.solutions;
        }
        CHECK(sum == (qc_u128)(2 * left + middle), "n=%d: halving %llu, want 2*%ld + %ld", n,
              (unsigned long long)sum, left, middle);
        qc_plan_free(plan);
    }
}

static void test_plan_fingerprint(void)
{
    qc_plan *a, *b, *c;
    qc_plan_create(&a, 12, QC_ENGINE_HALVING);
    qc_plan_create(&b, 12, QC_ENGINE_HALVING);
    qc_plan_create(&c, 13, QC_ENGINE_HALVING);
    CHECK(qc_plan_fingerprint(a) == qc_plan_fingerprint(b), "same plan, same fingerprint");
    CHECK(qc_plan_fingerprint(a) != qc_plan_fingerprint(c), "N=12 and N=13 differ");
    CHECK(qc_plan_unit_count(a) >= 1000, "N=12 has %zu units, want >= 1000", qc_plan_unit_count(a));
    qc_plan_free(a);
    qc_plan_free(b);
    qc_plan_free(c);
    qc_plan *p;
    CHECK(qc_plan_create(&p, 0, QC_ENGINE_HALVING) == QC_EINVAL, "N=0 refused");
    CHECK(qc_plan_create(&p, QC_N_MAX + 1, QC_ENGINE_HALVING) == QC_EINVAL, "N too large refused");
    CHECK(qc_plan_create(&p, 8, (qc_engine_id)(QC_ENGINE_BRUTE + 1)) == QC_EINVAL, "bad engine refused");
}

/* Totals past 2^64 (Q(29) and up): 128-bit sums and decimal printing. */
static void test_u128(void)
{
    char buf[48];
    CHECK(strcmp(qc_u128_format(0, buf), "0") == 0, "0");
    qc_u128 two64 = (qc_u128)1 << 64;
    CHECK(strcmp(qc_u128_format(two64, buf), "18446744073709551616") == 0, "2^64: %s", buf);
    CHECK(strcmp(qc_u128_format(~(qc_u128)0, buf), "340282366920938463463374607431768211455") == 0,
          "2^128-1: %s", buf);
    /* a sum of unit tallies that passes 2^64 must not wrap */
    qc_u128 sum = 0;
    for (int i = 0; i < 4; i++)
        sum += (qc_u128)UINT64_MAX * 2;     /* weighted unit counts near the top */
    CHECK(sum > two64 && strcmp(qc_u128_format(sum, buf), "147573952589676412920") == 0, "sum %s", buf);
}

int main(void)
{
    test_kernel_empty_board();
    test_kernel_prefix();
    test_kernel_placements();
    test_halving_matches_full();
    test_halving_middle_column();
    test_plan_fingerprint();
    test_u128();
    return check_report("kernel");
}
