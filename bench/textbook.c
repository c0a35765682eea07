/* SPDX-License-Identifier: MIT */
/*
 * textbook.c — the yardstick, not an engine: a plain textbook mirror-halving
 * counter (bitmask recursion, a queen per row, first-row queen in the left
 * half doubled, the middle column of odd N handled by its second row), as
 * found in most N-Queens programs.  The benchmark times it beside qcount's
 * engines so that "faster than a plain counter" is a ratio from one run.
 */
#include "textbook.h"

static uint64_t textbook_rows(int n, uint32_t cols, uint32_t ld, uint32_t rd, int row,
                              uint64_t *placed)
{
    if (row == n)
        return 1;
    const uint32_t full = n >= 32 ? ~0u : (1u << n) - 1;
    uint32_t free = full & ~(cols | ld | rd);
    uint64_t count = 0;
    while (free) {
        uint32_t bit = free & -free;
        free ^= bit;
        ++*placed;
        count += textbook_rows(n, cols | bit, (ld | bit) << 1, (rd | bit) >> 1, row + 1, placed);
    }
    return count;
}

uint64_t qcb_textbook_count(int n, uint64_t *steps)
{
    uint64_t total = 0, placed = 0;
    for (int c = 0; c < n / 2; c++) {          /* left half, doubled */
        uint32_t bit = 1u << c;
        placed++;
        total += 2 * textbook_rows(n, bit, bit << 1, bit >> 1, 1, &placed);
    }
    if (n & 1) {                               /* middle column: second row left, doubled */
        uint32_t mid = 1u << (n / 2);
        placed++;
        for (int c = 0; c < n / 2; c++) {
            uint32_t bit = 1u << c;
            if (bit & (mid | mid << 1 | mid >> 1))
                continue;
            placed++;
            total += 2 * textbook_rows(n, mid | bit, ((mid << 1) | bit) << 1,
                                       ((mid >> 1) | bit) >> 1, 2, &placed);
        }
        if (n == 1)
            total = 1;
    }
    *steps = placed;
    return total;
}
