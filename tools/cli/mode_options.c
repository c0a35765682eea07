/* SPDX-License-Identifier: MIT */
/*
 * mode_options.c — parsing and checking the --list / --svg / --solve /
 * --verify options.  Every rejection is one line naming the word at fault.
 */
#include <stdio.h>
#include <string.h>

#include "mode_options.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* A decimal integer in [lo, hi], nothing around it. */
static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!s || !*s)
        return -1;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        unsigned d = (unsigned)(*p - '0');
        if (v > (hi - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (v < lo)
        return -1;
    *out = v;
    return 0;
}

/* An SVG colour we can paste into an attribute safely: #rgb, #rrggbb, or a
 * name of letters (red, navy, ...). */
static int valid_colour(const char *s, size_t len)
{
    if (len == 0 || len >= 24)
        return 0;
    if (s[0] == '#') {
        if (len != 4 && len != 7)
            return 0;
        for (size_t i = 1; i < len; i++)
            if (!strchr("0123456789abcdefABCDEF", s[i]))
                return 0;
        return 1;
    }
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
            return 0;
    return 1;
}

int qca_mode_option(int code, const char *arg, qca_mode_options *m, char *err, size_t errlen)
{
    uint64_t v;
    switch (code) {
    case QC_MODE_OPT_LIST:
        m->list = 1;
        break;
    case QC_MODE_OPT_LIMIT:
        if (parse_u64(arg, 1, UINT64_MAX, &v) != 0)
            FAIL("invalid limit '%s' (expected a positive integer)", arg);
        m->limit = v;
        m->limit_given = 1;
        break;
    case QC_MODE_OPT_FORMAT:
        if (strcmp(arg, "cols") == 0)
            m->format = QC_FORMAT_COLS;
        else if (strcmp(arg, "board") == 0)
            m->format = QC_FORMAT_BOARD;
        else if (strcmp(arg, "bfile") == 0)
            m->format = QC_FORMAT_BFILE;
        else
            FAIL("unknown format '%s' (expected 'cols' or 'board', or 'bfile' for a count)", arg);
        m->format_given = 1;
        break;
    case QC_MODE_OPT_SVG:
        if (!*arg)
            FAIL("empty file name for --svg");
        m->svg_path = arg;
        break;
    case QC_MODE_OPT_SVG_PER_ROW:
        if (parse_u64(arg, 1, 1000, &v) != 0)
            FAIL("invalid boards per row '%s' (expected an integer from 1 to 1000)", arg);
        m->svg_per_row = (int)v;
        break;
    case QC_MODE_OPT_SVG_SQUARE:
        if (parse_u64(arg, 2, 1000, &v) != 0)
            FAIL("invalid square size '%s' (expected an integer from 2 to 1000 pixels)", arg);
        m->svg_square = (int)v;
        break;
    case QC_MODE_OPT_SVG_COLORS: {
        const char *p = arg;
        for (int k = 0; k < 3; k++) {
            const char *end = strchr(p, ',');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if ((k < 2) != (end != NULL) || !valid_colour(p, len))
                FAIL("invalid colours '%s' (expected LIGHT,DARK,QUEEN, each #rgb, #rrggbb or a name)", arg);
            memcpy(m->svg_colors[k], p, len);
            m->svg_colors[k][len] = '\0';
            p = end ? end + 1 : p + len;
        }
        break;
    }
    case QC_MODE_OPT_SOLVE:
        m->solve = 1;
        break;
    case QC_MODE_OPT_RANDOM:
        m->random = 1;
        break;
    case QC_MODE_OPT_SEED:
        if (parse_u64(arg, 0, UINT64_MAX, &v) != 0)
            FAIL("invalid seed '%s' (expected an integer from 0 to 2^64-1)", arg);
        m->seed = v;
        m->seed_given = 1;
        break;
    case QC_MODE_OPT_VERIFY:
        m->verify = 1;
        break;
    default:
        FAIL("internal error: unknown mode option %d", code);
    }
    return 0;
}

int qca_mode_finish(int argc, char **argv, int first, int unique, const char *count_only,
                   qca_mode_options *m, char *err, size_t errlen)
{
    int listing = m->list || m->svg_path;
    const char *modes[3];
    int k = 0;
    if (listing)
        modes[k++] = m->list ? "--list" : "--svg";
    if (m->solve)
        modes[k++] = "--solve";
    if (m->verify)
        modes[k++] = "--verify";
    if (k > 1)
        FAIL("%s and %s cannot be used together", modes[0], modes[1]);
    /* -u/--unique is the count's option (options.c): with --list or --svg
     * it asks for one canonical solution per class instead */
    m->unique = unique;
    if (!listing && m->limit_given)
        FAIL("--limit needs --list or --svg");
    if ((m->solve || m->verify) && m->unique)
        FAIL("--unique applies to counting and --list, not to %s", m->solve ? "--solve" : "--verify");
    if (m->format == QC_FORMAT_BFILE && (listing || m->solve || m->verify))
        FAIL("--format=bfile applies to counting, not to %s",
             listing ? (m->list ? "--list" : "--svg") : m->solve ? "--solve" : "--verify");
    if (!m->list && m->format_given && m->format != QC_FORMAT_BFILE)
        FAIL("--format needs --list");
    if (m->list && m->svg_path && strcmp(m->svg_path, "-") == 0)
        FAIL("--list and --svg=- cannot both write to stdout (give --svg a file)");
    if (!m->svg_path && (m->svg_per_row || m->svg_square || m->svg_colors[0][0]))
        FAIL("%s needs --svg", m->svg_per_row ? "--svg-per-row" : m->svg_square ? "--svg-square" : "--svg-colors");
    if (!m->solve && (m->random || m->seed_given))
        FAIL("%s needs --solve", m->random ? "--random" : "--seed");
    if (m->seed_given && !m->random)
        FAIL("--seed needs --random (the solution of --solve alone does not depend on it)");
    if (!listing && !m->solve && !m->verify)
        return QC_MODE_NONE;                        /* counting: N follows */
    if (count_only)
        FAIL("%s applies to counting, not to %s", count_only,
             listing ? (m->list ? "--list" : "--svg") : m->solve ? "--solve" : "--verify");
    if (listing)
        return QC_MODE_LIST;                        /* N (1..32) follows */
    if (m->verify) {
        m->verify_argc = argc - first;
        m->verify_argv = argv + first;
        return QC_MODE_VERIFY;
    }
    if (first >= argc)
        FAIL("missing board size N after --solve (try 'qcount --help')");
    if (argc - first > 1)
        FAIL("unexpected argument '%s' (only one board size N)", argv[first + 1]);
    const char *word = argv[first];
    uint64_t v;
    if (parse_u64(word, 1, QC_SOLVE_N_MAX, &v) != 0) {
        const char *p = word;
        while (*p >= '0' && *p <= '9')
            p++;
        if (*word == '\0' || *p != '\0')
            FAIL("invalid board size '%s' (expected an integer from 1 to %ld)", word, QC_SOLVE_N_MAX);
        FAIL("board size '%s' out of range for --solve (expected 1 to %ld)", word, QC_SOLVE_N_MAX);
    }
    m->solve_n = (size_t)v;
    return QC_MODE_SOLVE;
}
