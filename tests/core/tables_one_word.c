/* SPDX-License-Identifier: MIT */
/*
 * tables_one_word.c — the portable level's tables with one-word entries
 * (64 tops a block), the form CPUs without 128-bit vectors get, built
 * here so that test_joiners checks it on every machine.
 */
#define TBL_WORDS 1
#define TBL_JOINER qcj_tables_one_word_joiner
#include "join/tables_portable.c"
