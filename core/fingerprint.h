/* SPDX-License-Identifier: MIT */
/*
 * fingerprint.h — the digest a plan's engine builds of its work split
 * (qc_plan_fingerprint): a ledger records it, and refuses to resume a
 * count whose plan splits the work otherwise.
 */
#ifndef QC_FINGERPRINT_H
#define QC_FINGERPRINT_H

#include <stdint.h>

/* Mixes a 64-bit word into a running digest. */
static inline uint64_t qc_fingerprint_mix(uint64_t h, uint64_t word)
{
    h ^= word + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

#endif
