/* SPDX-License-Identifier: MIT */
/*
 * mode_options.h — the options of the modes beyond counting: --list,
 * --svg, --solve, --verify and their settings.  options.c hands these
 * options to qca_mode_option and the words after them to qca_mode_finish;
 * like options.c, nothing here prints.  This header knows nothing of
 * options.h (which includes it).
 */
#ifndef QC_MODE_OPTIONS_H
#define QC_MODE_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* getopt_long codes, far from options.c's own */
enum {
    QC_MODE_OPT_FIRST = 0x1000,
    QC_MODE_OPT_LIST = QC_MODE_OPT_FIRST,
    QC_MODE_OPT_LIMIT,
    QC_MODE_OPT_FORMAT,
    QC_MODE_OPT_SVG,
    QC_MODE_OPT_SVG_PER_ROW,
    QC_MODE_OPT_SVG_SQUARE,
    QC_MODE_OPT_SVG_COLORS,
    QC_MODE_OPT_SOLVE,
    QC_MODE_OPT_RANDOM,
    QC_MODE_OPT_SEED,
    QC_MODE_OPT_VERIFY,
    QC_MODE_OPT_END
};

/* The entries for options.c's getopt_long table. */
#define QC_MODE_LONG_OPTIONS \
    {"list", no_argument, NULL, QC_MODE_OPT_LIST}, \
    {"limit", required_argument, NULL, QC_MODE_OPT_LIMIT}, \
    {"format", required_argument, NULL, QC_MODE_OPT_FORMAT}, \
    {"svg", required_argument, NULL, QC_MODE_OPT_SVG}, \
    {"svg-per-row", required_argument, NULL, QC_MODE_OPT_SVG_PER_ROW}, \
    {"svg-square", required_argument, NULL, QC_MODE_OPT_SVG_SQUARE}, \
    {"svg-colors", required_argument, NULL, QC_MODE_OPT_SVG_COLORS}, \
    {"solve", no_argument, NULL, QC_MODE_OPT_SOLVE}, \
    {"random", no_argument, NULL, QC_MODE_OPT_RANDOM}, \
    {"seed", required_argument, NULL, QC_MODE_OPT_SEED}, \
    {"verify", no_argument, NULL, QC_MODE_OPT_VERIFY},

/* --solve takes boards up to this size (the placement is held in memory:
 * 4 bytes a row, 24 with --random). */
#define QC_SOLVE_N_MAX 1000000000L

/* --format: cols and board for --list; bfile for a count (OEIS b-file
 * lines "N a(N)") */
typedef enum qca_list_format {
    QC_FORMAT_COLS = 0, QC_FORMAT_BOARD, QC_FORMAT_BFILE
} qca_list_format;

typedef struct qca_mode_options {
    int list, unique, solve, random, verify;
    uint64_t limit;            /* 0: no limit */
    int limit_given, format_given, seed_given;
    qca_list_format format;
    uint64_t seed;
    const char *svg_path;      /* NULL: no SVG */
    int svg_per_row;           /* 0: the default */
    int svg_square;            /* 0: the default */
    char svg_colors[3][24];    /* light, dark, queen; "" for the defaults */
    size_t solve_n;
    int verify_argc;           /* the placement given as words, if any */
    char **verify_argv;
} qca_mode_options;

/* What the command line asks for beyond counting. */
typedef enum qca_mode { QC_MODE_NONE = 0, QC_MODE_LIST, QC_MODE_SOLVE, QC_MODE_VERIFY } qca_mode;

/* Takes one of the QC_MODE_OPT_ options; returns 0, or -1 with a message. */
int qca_mode_option(int code, const char *arg, qca_mode_options *m, char *err, size_t errlen);

/* After getopt: checks the combination of options and, for --solve and
 * --verify, takes the words from argv[first] on.  unique: -u/--unique was
 * given (with --list or --svg it asks for one solution per class);
 * count_only: the first option given that applies to counting alone, or
 * NULL.  Returns the mode, or -1 with a message; after QC_MODE_NONE (a
 * count) and QC_MODE_LIST, N is still to parse from argv[first]. */
int qca_mode_finish(int argc, char **argv, int first, int unique, const char *count_only,
                   qca_mode_options *m, char *err, size_t errlen);

#endif
