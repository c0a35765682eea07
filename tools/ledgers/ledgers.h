/* SPDX-License-Identifier: MIT */
/*
 * ledgers.h — the ledger commands, one a file, that commands.c dispatches
 * to: each takes its word's argv and returns the exit status
 * (ledger_commands.h).  Private to tools/ledgers/.
 */
#ifndef QC_LEDGERS_H
#define QC_LEDGERS_H

int qcl_merge_main(int argc, char **argv);
int qcl_audit_main(int argc, char **argv);
int qcl_show_main(int argc, char **argv);
int qcl_status_main(int argc, char **argv);
int qcl_unit_main(int argc, char **argv);

#endif
