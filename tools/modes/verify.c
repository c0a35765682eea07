/* SPDX-License-Identifier: MIT */
/*
 * verify.c — --verify: checks placements, given as words or streamed from
 * stdin one per line: "valid" (status 0), or the first pair of queens that
 * attack each other (status 1).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mode.h"
#include "quote.h"

/* A streaming reader of placements: characters go in, one at a time (the
 * input may be split anywhere), lines are checked as they end.  Bad input
 * is an error as soon as it is read: a NUL byte at once, a word that is
 * not a column number when it ends or reaches the length of the longest
 * one, so that endless input (/dev/zero, a line of digits without end)
 * is refused rather than read forever. */
typedef struct verifier {
    uint32_t *cols;              /* the line so far, 0-based            */
    size_t len, cap;
    uint64_t line, placements;   /* line number (1-based), lines checked */
    int in_token, in_comment, bad_token;
    uint64_t value;
    char token[32];              /* the token's first characters        */
    size_t token_len;
    int status;                  /* -1 while all is well, else the exit */
} verifier;

static const char *line_names[] = {"", "column", "diagonal", "diagonal"};

static void verifier_error(verifier *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verifier_error(verifier *v, const char *fmt, ...)
{
    char msg[512];
    int at = snprintf(msg, sizeof msg, "line %llu: ", (unsigned long long)v->line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + at, sizeof msg - (size_t)at, fmt, ap);
    va_end(ap);
    qca_print_error(msg);   /* the token quoted is the user's */
    v->status = 2;
}

static void end_token(verifier *v)
{
    if (!v->in_token)
        return;
    v->in_token = 0;
    if (v->token_len < sizeof v->token)    /* the token, or its start and "..." */
        v->token[v->token_len] = '\0';
    else
        strcpy(v->token + sizeof v->token - 4, "...");
    if (v->bad_token) {
        verifier_error(v, "'%s' is not a column number (expected integers from 1 to N)", v->token);
        return;
    }
    if (v->value == 0) {
        verifier_error(v, "column 0: columns are numbered from 1 to N");
        return;
    }
    if (v->value >= UINT32_MAX) {
        verifier_error(v, "column %s is off any board this program can check", v->token);
        return;
    }
    if (v->len == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 1024;
        uint32_t *p = realloc(v->cols, cap * sizeof *p);
        if (!p) {
            verifier_error(v, "out of memory");
            return;
        }
        v->cols = p;
        v->cap = cap;
    }
    v->cols[v->len++] = (uint32_t)(v->value - 1);
}

static void end_line(verifier *v)
{
    end_token(v);
    if (v->status < 0 && v->len > 0) {
        qc_attack at;
        int rc = qc_solution_verify(v->len, v->cols, &at);
        if (rc == QC_EINVAL) {
            size_t r = 0;
            while (v->cols[r] < v->len)
                r++;
            verifier_error(v, "column %llu of row %zu is off the board (%zu queens: columns 1 to %zu)",
                           (unsigned long long)v->cols[r] + 1, r + 1, v->len, v->len);
        } else if (rc != QC_OK) {
            verifier_error(v, "out of memory");
        } else {
            v->placements++;
            if (at.line != QC_LINE_NONE) {
                if (v->placements > 1)
                    printf("invalid: placement %llu (line %llu): ", (unsigned long long)v->placements,
                           (unsigned long long)v->line);
                else
                    printf("invalid: ");
                unsigned long long ca = v->cols[at.row_a] + 1ull, cb = v->cols[at.row_b] + 1ull;
                if (at.line == QC_LINE_COLUMN)
                    printf("the queens of rows %zu and %zu attack each other along column %llu\n",
                           at.row_a + 1, at.row_b + 1, ca);
                else
                    printf("the queens of rows %zu and %zu attack each other along a %s "
                           "(columns %llu and %llu)\n",
                           at.row_a + 1, at.row_b + 1, line_names[at.line], ca, cb);
                v->status = 1;
            }
        }
    }
    v->len = 0;
    v->in_comment = 0;
    v->line++;
}

/* Feeds a piece of the input; stops early once the answer is known. */
static void verifier_feed(verifier *v, const char *p, size_t len)
{
    for (size_t i = 0; i < len && v->status < 0; i++) {
        char ch = p[i];
        if (ch == '\0') {
            verifier_error(v, "a NUL byte: the input is not text");
        } else if (ch == '\n') {
            end_line(v);
        } else if (v->in_comment) {
            continue;
        } else if (ch == ' ' || ch == '\t' || ch == '\r') {
            end_token(v);
        } else if (ch == '#') {
            end_token(v);
            v->in_comment = 1;
        } else {
            if (!v->in_token) {
                v->in_token = 1;
                v->bad_token = 0;
                v->value = 0;
                v->token_len = 0;
            }
            if (v->token_len < sizeof v->token)
                v->token[v->token_len] = ch;
            v->token_len++;
            if (ch >= '0' && ch <= '9') {
                v->value = v->value * 10 + (uint64_t)(ch - '0');
                if (v->value > UINT32_MAX)     /* off any board we can hold */
                    v->value = UINT32_MAX;
            } else {
                v->bad_token = 1;
            }
            if (v->token_len >= sizeof v->token) {
                /* longer than any column: wrong now, whatever follows */
                if (!v->bad_token)
                    v->value = UINT32_MAX;
                end_token(v);
            }
        }
    }
}

int qcm_verify(const qca_options *opts)
{
    const qca_mode_options *m = &opts->mode;
    verifier v = {.line = 1, .status = -1};
    if (m->verify_argc > 0) {       /* the placement as words */
        for (int a = 0; a < m->verify_argc && v.status < 0; a++) {
            verifier_feed(&v, m->verify_argv[a], strlen(m->verify_argv[a]));
            verifier_feed(&v, " ", 1);
        }
    } else {
        size_t cap = 1 << 20;
        char *buf = malloc(cap);
        if (!buf)
            return qcm_fail("%s", "out of memory");
        for (;;) {
            ssize_t got = read(STDIN_FILENO, buf, cap);
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                free(buf);
                free(v.cols);
                return qcm_fail("cannot read stdin: %s", strerror(errno));
            }
            if (got == 0 || v.status >= 0)
                break;
            verifier_feed(&v, buf, (size_t)got);
        }
        free(buf);
    }
    if (v.status < 0)
        end_line(&v);               /* a last line without its newline */
    free(v.cols);
    if (v.status < 0 && v.placements == 0) {
        fputs("qcount: no placement to verify (expected the columns of the queens, 1 to N, "
              "row by row, on one line)\n", stderr);
        return 2;
    }
    if (v.status < 0) {
        if (v.placements > 1)
            printf("valid: all %llu placements\n", (unsigned long long)v.placements);
        else
            puts("valid");
        v.status = 0;
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return qcm_fail("cannot write to stdout: %s", strerror(errno));
    return v.status;
}

