/* SPDX-License-Identifier: MIT */
/*
 * ledger_files.h — what the ledger commands (merge.c, audit.c, show.c,
 * status.c, unit.c) share: a ledger read and bound to its plan, errors,
 * JSON strings, lists of units.  Private to tools/ledgers/.
 */
#ifndef QC_LEDGER_FILES_H
#define QC_LEDGER_FILES_H

#include <stdio.h>

#include "ledger.h"

/* A ledger read from its file, with the plan its header names, made by
 * this qcount and checked against the header (fingerprint included). */
typedef struct qcl_bound {
    const char *path;
    qcc_ledger_file *file;
    qc_plan *plan;            /* owned; NULL when borrowed (qcl_load_for) */
} qcl_bound;

/* Reads path and makes its plan: 0, or 2 with the one-line error printed. */
int qcl_load(const char *path, qcl_bound *out);
/* Reads path and checks it against plan (borrowed): 0, or 2 (printed). */
int qcl_load_for(const char *path, const qc_plan *plan, qcl_bound *out);
void qcl_free(qcl_bound *b);
/* Prints "qcount: <command>: <message>" on stderr, one line. */
void qcl_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Says that unit u has two tallies that differ, `first` in ledger
 * first_path and `second` in second_path (merge, status): one qcl_error
 * line, the paths shown brief ([brief paths]). */
void qcl_two_tallies(const char *command, size_t u, qc_u128 first, const char *first_path,
                     qc_u128 second, const char *second_path);

/* The options merge and show share, --json (-j) and --help (-h), from
 * argv into *json; optind is left at the first file.  Returns -1 to go
 * on, else the status to exit with (0 after --help printed usage, 2 after
 * the one-line error for an unknown option). */
int qcl_json_options(int argc, char **argv, const char *command, const char *usage, int *json);
/* The same, printing help (several lines) for --help. */
int qcl_json_options_help(int argc, char **argv, const char *command, const char *usage,
                          const char *help, int *json);

/* s as a JSON string, quotes included. */
void qcl_json_string(FILE *out, const char *s);
/* A time in microseconds since 1970 UTC as ISO 8601 ("-" for 0) into buf
 * (>= 32 bytes). */
const char *qcl_time(int64_t us, char *buf, size_t len);
/* The units u with flag[u] == want, as ranges ("3, 7-9, 12"), at most
 * max_ranges of them ("..." after), into out. */
void qcl_unit_ranges(FILE *out, const unsigned char *flag, size_t units, unsigned char want,
                     int max_ranges);

#endif
