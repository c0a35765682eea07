/* SPDX-License-Identifier: MIT */
/*
 * random.h — the C tests' pseudo-random source: xorshift64 from a fixed
 * seed, so every run tests the same cases.  One stream per test program.
 */
#ifndef QC_TEST_RANDOM_H
#define QC_TEST_RANDOM_H

#include <stdint.h>

static uint64_t test_random_state = 0x2545f4914f6cdd1dULL;

static inline uint64_t next_random(void)
{
    test_random_state ^= test_random_state << 13;
    test_random_state ^= test_random_state >> 7;
    test_random_state ^= test_random_state << 17;
    return test_random_state;
}

#endif
