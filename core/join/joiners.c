/* SPDX-License-Identifier: MIT */
/*
 * joiners.c — [per-level joiners] (joiner.h): which joiner of this level
 * counts a kind of join.  Built once per level, like the joiners it names:
 * each level's tables are its own tables_<level>.c.
 */
#include "joiner.h"

const qcj_joiner *qcj_joiner_of(qcj_joiner_kind kind)
{
    return kind == QCJ_JOIN_AND ? &qcj_and_joiner : &qcj_tables_joiner;
}
