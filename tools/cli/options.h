/* SPDX-License-Identifier: MIT */
/*
 * options.h — the qcount command line, parsed into a plain struct.  The
 * parser does no I/O: it returns an error message instead of printing it,
 * so the program, the tests and a fuzzer all drive the same code.
 */
#ifndef QC_OPTIONS_H
#define QC_OPTIONS_H

#include "qcount.h"
#include "mode_options.h"

typedef enum qca_action {
    QC_ACTION_COUNT = 0,
    QC_ACTION_HELP,
    QC_ACTION_VERSION,
    QC_ACTION_LIST,       /* --list / --svg: solutions of an N-board */
    QC_ACTION_SOLVE,      /* --solve: one solution of a big board */
    QC_ACTION_VERIFY      /* --verify: check a placement */
} qca_action;

typedef struct qca_options {
    qca_action action;
    int n;                /* the board size, or the first of a range      */
    int n_last;           /* the range's last N; n when one N was given   */
    int range;            /* N was given as a range FIRST-LAST            */
    int check;            /* --check: compare with the known counts       */
    int threads;          /* 0: one per allowed core (qc_run_options) */
    int bind;             /* QC_BIND_* flags: --no-bind, --smt */
    int json;
    qc_engine_id engine;  /* N's default (qc_engine_default) unless given */
    int engine_given;     /* -e/--engine was on the command line          */
    int plan;             /* --plan=P: the join plan profile of board P (0: N's own) */
    int unique;           /* also print the fundamental count (A002562)  */
    int stats;            /* print steps and rates on stderr              */
    const char *checkpoint;   /* --checkpoint FILE: the ledger, or NULL */
    int part, parts;          /* --part K/M: part K of M (part.h); 0, 0: all */
    int progress;             /* QC_PROGRESS_AUTO, _ALWAYS or _NEVER */
    qca_mode_options mode; /* --list, --svg, --solve, --verify (mode_options.h) */
} qca_options;

/* When the live progress line is drawn on stderr. */
enum {
    QC_PROGRESS_AUTO = 0,     /* when stderr is a terminal (the default) */
    QC_PROGRESS_ALWAYS = 1,   /* --progress: also into a file or a pipe  */
    QC_PROGRESS_NEVER = 2     /* --quiet (of the two, the last given wins) */
};

/* Parses argv; returns 0, or -1 with a one-line message in err. */
int qca_options_parse(int argc, char **argv, qca_options *opts, char *err, size_t errlen);

/* Parses a decimal integer in [lo, hi] with nothing around it; returns 0,
 * or -1 if s is empty, not a number, or out of range. */
int qca_parse_int(const char *s, long lo, long hi, long *out);

/* What the parsed command line asks for, as the options that decide it
 * ("--engine=join --unique 16", "--solve 8"): the same string for two
 * command lines exactly when they ask for the same work and output; the
 * threads, their binding and the progress line, which may differ between
 * machines, are left out.  MPI ranks compare these before counting.
 * Returns 0, or -1 when it was cut to fit len. */
int qca_options_summary(const qca_options *opts, char *buf, size_t len);

extern const char qca_usage_text[];

#endif
