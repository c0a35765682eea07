/* SPDX-License-Identifier: MIT */
/*
 * status.h — what qcount status (status.c) works out from the ledgers,
 * for its text, JSON and HTML (status_html.c), and the figures all three
 * print (status_figures.c).  Private to tools/ledgers/.
 */
#ifndef QC_STATUS_H
#define QC_STATUS_H

#include "ledger_files.h"

typedef struct qcl_status_group {     /* the records of one host at one ISA level */
    char host[40], isa[16];
    size_t units;
    double cpu_seconds;       /* of the records that know it             */
    size_t cpu_units;         /* the records that know it                */
    qc_u128 cpu_steps;        /* the steps of those records              */
    double work;
} qcl_status_group;

typedef struct qcl_status_ledger {
    qcc_part part;            /* with its units filled                   */
    size_t done;              /* records, each unit once                 */
    double work, work_all;    /* estimated work done and in the part     */
    int64_t last_us;          /* newest record, else the file's mtime    */
    int silent;
} qcl_status_ledger;

typedef struct qcl_status_state {
    size_t units;
    double *cost, work_all, work_done;
    unsigned char *have;
    qc_u128 *solutions;
    int *from;
    size_t covered, repeated, conflicts;
    qc_u128 sum;
    qcl_status_group *group;
    size_t groups, group_cap;
    qcl_status_ledger *ledger;
    int64_t first_us, last_us, now_us;
    double stale, window;
    double recent_work, recent_span;   /* work in the window, its length (s) */
    uint32_t parts;           /* M when every ledger is a part of M, else 0 */
    unsigned char *given;     /* [K] a ledger of part K/M was given      */
    int64_t *finished;        /* when each unit in finished (known ones) */
    size_t n_finished;
} qcl_status_state;

/* Whether every unit is in, without two tallies of one. */
int qcl_status_complete(const qcl_status_state *s);
/* The seconds left at the recent rate, or -1 when there is no rate. */
double qcl_status_seconds_left(const qcl_status_state *s);
/* A span of seconds as "0.4 s", "14 min", "3.2 h", "2.1 d" into buf. */
const char *qcl_status_span(double seconds, char *buf, size_t len);
/* part of whole in percent, from 0 to 100. */
double qcl_status_percent(double part, double whole);
/* The page of --html into path (written whole beside it, then renamed),
 * refreshing itself every refresh seconds when refresh > 0: 0, or 2 with
 * the one-line error printed. */
int qcl_status_html(const qcl_status_state *s, const qcl_bound *b, int count, const char *path,
                    double refresh);

#endif
