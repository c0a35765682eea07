/* SPDX-License-Identifier: MIT */
/*
 * part.h — a plan's units dealt into M parts for machines that share
 * nothing: `qcount N --part K/M` counts part K, and the parts' ledgers
 * merge into the total (qcount merge).
 *
 * [parts] Part K of M is a run of consecutive units (plan order) holding
 * about the K-th M-th of the plan's estimated work (qc_plan_unit_cost),
 * not of its unit count: unit u goes to the part in whose share the middle
 * of its work falls, so no part is off by more than one unit's cost.  The
 * costs are turned into integers first (relative to the largest, in 2^24
 * steps), so the split is integer arithmetic on the plan alone: the same
 * on every machine, at every ISA level and thread count, since the plan's
 * units, costs and fingerprint depend on N and the engine only
 * (tests/tools/test_part.c checks them at every level this CPU has).  The
 * coarse steps keep a cost computed a last bit otherwise by another build
 * (FMA contraction on aarch64 or with -march=native) from changing a
 * weight but in the rarest case; and then, a part's ledger keeps K, M,
 * the part's unit count and a digest of its units, so a part resumed by a
 * qcount that deals otherwise is refused rather than counted wrong, and
 * qcount merge checks coverage unit by unit whatever the split.
 */
#ifndef QCC_PART_H
#define QCC_PART_H

#include <stddef.h>
#include <stdint.h>

#include "qcount.h"

#define QCC_PART_MAX 1000000u   /* parts of one count, at most */

/* One part: index K of count M (1 <= K <= M), or the whole plan
 * (index = count = 0); with its units' number and digest. */
typedef struct qcc_part {
    uint32_t index, count;
    uint64_t units;
    uint64_t digest;
} qcc_part;

/* Parses "K/M" (1 <= K <= M <= QCC_PART_MAX) into p's index and count;
 * 0, or -1 for anything else. */
int qcc_part_parse(const char *s, qcc_part *p);
/* Deals plan's units into count parts: of[u] = the part (1..count) of
 * unit u; of has qc_plan_unit_count entries.  count >= 1. */
void qcc_part_deal(const qc_plan *plan, uint32_t count, uint32_t *of);
/* Fills p's units and digest for plan from its index and count (the whole
 * plan when count is 0); with `member` not NULL, also member[u] = 1 for
 * its units, 0 for the others.  0, or -1 out of memory. */
int qcc_part_fill(const qc_plan *plan, qcc_part *p, unsigned char *member);
/* "K/M", or "whole" for the whole plan, into buf (>= 24 bytes). */
const char *qcc_part_name(const qcc_part *p, char *buf, size_t len);

#endif
