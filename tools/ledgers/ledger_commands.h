/* SPDX-License-Identifier: MIT */
/*
 * ledger_commands.h — the program's commands on ledgers:
 *   qcount merge [--json] LEDGER...       the total of ledgers that cover
 *                                         every unit of one plan once
 *   qcount audit [--sample=P] [--seed=S] [--by=levels|backtrack] LEDGER
 *                                         recount a random sample by
 *                                         another path and compare
 *   qcount show [--json] LEDGER           the records, fit to publish
 *   qcount status [--json] LEDGER...      a run of many parts at a glance,
 *                                         finished or not
 * and beside them, reading no ledger:
 *   qcount unit N U [--plan=P] [--json]   what unit U of the join plan of
 *                                         board N counts, as weighted cases
 *                                         that a recorded tally is checked by
 * They only read the ledgers.  Results on stdout, one-line errors on
 * stderr; exit 0, 1 when the ledgers disagree or fall short (a missing
 * unit, two tallies of a unit, a recount that differs), 2 for bad input
 * (a corrupt, foreign or unreadable ledger, a bad option).
 */
#ifndef QC_LEDGER_COMMANDS_H
#define QC_LEDGER_COMMANDS_H

/* Whether word names one of these commands. */
int qcl_command_named(const char *word);
/* Runs the command argv[0] with its arguments; returns the exit status. */
int qcl_command(int argc, char **argv);

#endif
