/* SPDX-License-Identifier: MIT */
/* textbook.h — the plain mirror-halving counter the benchmark measures against. */
#ifndef QC_BENCH_TEXTBOOK_H
#define QC_BENCH_TEXTBOOK_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
uint64_t qcb_textbook_count(int n, uint64_t *steps);
#ifdef __cplusplus
}
#endif
#endif
