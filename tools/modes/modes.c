/*
 * modes.c — the modes beyond counting (issue 6): --list (and --svg),
 * --solve and --verify.  The searching and checking is in core/; this file
 * reads, formats and writes.
 *
 * Conventions shared by the three, so that their outputs feed each other:
 * a placement is one line of the columns of the queens, row by row, top to
 * bottom, columns numbered from 1 to N, separated by single spaces; '#'
 * starts a comment to the end of the line.  Output goes through a buffered
 * writer; a closed pipe (`qcount 16 --list | head -1`) ends the program
 * quietly with status 0, any other write error is a one-line error, status 2.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "qcount_solutions.h"
#include "outbuf.h"
#include "svg.h"

static int mode_fail(const char *fmt, const char *arg)
{
    fputs("qcount: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 2;
}

/* The end of a mode that wrote to stdout: 0, quietly 0 on a closed pipe,
 * or 2 with the reason. */
static int finish_stdout(qc_out *out, int status)
{
    qc_out_close(out);
    if (out->error == EPIPE)
        return 0;
    if (out->error)
        return mode_fail("cannot write to stdout: %s", strerror(out->error));
    return status;
}

/* ---- --list, --svg ------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void put_cols(qc_out *out, size_t n, const uint32_t *cols)
{
    for (size_t r = 0; r < n; r++) {
        if (r)
            qc_out_putc(out, ' ');
        qc_out_u64(out, (uint64_t)cols[r] + 1);
    }
}

static void put_board(qc_out *out, size_t n, const uint32_t *cols)
{
    for (size_t r = 0; r < n; r++) {
        char *p = qc_out_room(out, 2 * n);
        for (size_t c = 0; c < n; c++) {
            p[2 * c] = c == cols[r] ? 'Q' : '.';
            p[2 * c + 1] = c + 1 < n ? ' ' : '\n';
        }
        out->len += 2 * n;
    }
}

static int list_main(const qc_options *opts)
{
    const qc_mode_options *m = &opts->mode;
    const size_t n = (size_t)opts->n;
    char err[512];
    qc_enum *it;
    qc_out out;
    if (qc_enum_create(&it, opts->n) != QC_OK || qc_out_open(&out, STDOUT_FILENO, 1 << 16) != 0)
        return mode_fail("%s", "out of memory");
    qc_svg *svg = NULL;
    if (m->svg_path) {
        qc_svg_style style = {m->svg_per_row, m->svg_square, m->svg_colors[0], m->svg_colors[1],
                              m->svg_colors[2]};
        svg = qc_svg_open(m->svg_path, opts->n, &style, err, sizeof err);
        if (!svg) {
            qc_enum_free(it);
            qc_out_close(&out);
            return mode_fail("%s", err);
        }
    }
    /* When to write: every line for a person watching a terminal; else the
     * first line at once, then whenever 20 ms have passed since the last
     * write (so a slow stream still shows up, and a reader that has gone,
     * `| head -1`, is noticed soon), or the buffer is full. */
    const int each_line = m->list && isatty(STDOUT_FILENO);
    double last_write = 0;
    uint32_t cols[QC_N_MAX], canon[QC_N_MAX];
    uint64_t shown = 0;
    while ((m->limit == 0 || shown < m->limit) && !out.error && qc_enum_next(it, cols)) {
        int class_size = 0;
        if (m->unique) {            /* only the canonical member of each class */
            class_size = qc_solution_canonical(n, cols, canon);
            if (memcmp(canon, cols, n * sizeof *cols) != 0)
                continue;
        }
        shown++;
        if (m->list && m->format == QC_FORMAT_COLS) {
            put_cols(&out, n, cols);
            if (m->unique) {
                qc_out_puts(&out, " # class of ");
                qc_out_u64(&out, (uint64_t)class_size);
            }
            qc_out_putc(&out, '\n');
        } else if (m->list) {
            if (shown > 1)
                qc_out_putc(&out, '\n');
            if (m->unique) {
                qc_out_puts(&out, "# class of ");
                qc_out_u64(&out, (uint64_t)class_size);
                qc_out_putc(&out, '\n');
            }
            put_board(&out, n, cols);
        }
        if (svg) {
            char caption[64];
            if (m->unique)
                snprintf(caption, sizeof caption, "#%llu, class of %d", (unsigned long long)shown, class_size);
            else
                snprintf(caption, sizeof caption, "#%llu", (unsigned long long)shown);
            qc_svg_board(svg, cols, caption);
        }
        if (m->list && (each_line || shown == 1 || now_seconds() - last_write >= 0.02)) {
            qc_out_flush(&out);
            last_write = now_seconds();
        }
    }
    qc_enum_free(it);
    int status = 0;
    if (svg && qc_svg_close(svg, err, sizeof err) != 0)
        status = mode_fail("%s", err);
    return finish_stdout(&out, status);
}

/* ---- --solve ------------------------------------------------------- */

static int solve_main(const qc_options *opts)
{
    const qc_mode_options *m = &opts->mode;
    const size_t n = m->solve_n;
    char word[32];
    snprintf(word, sizeof word, "%zu", n);
    if (n == 2 || n == 3) {     /* a fact, not bad input: status 1 */
        fprintf(stderr, "qcount: no solution exists for N=%zu\n", n);
        return 1;
    }
    uint32_t *cols = malloc(n * sizeof *cols);
    if (!cols)
        return mode_fail("out of memory for a board of N=%s", word);
    int rc;
    if (m->random) {
        uint64_t seed = m->seed;
        if (!m->seed_given) {   /* a new board each run */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 40;
        }
        rc = qc_minconflicts(n, seed, cols, NULL);
    } else {
        rc = qc_construct(n, cols);
    }
    if (rc != QC_OK) {
        free(cols);
        return mode_fail(rc == QC_ENOMEM ? "out of memory for a board of N=%s" : "cannot solve N=%s", word);
    }
    qc_out out;
    if (qc_out_open(&out, STDOUT_FILENO, 1 << 20) != 0) {
        free(cols);
        return mode_fail("%s", "out of memory");
    }
    put_cols(&out, n, cols);
    qc_out_putc(&out, '\n');
    free(cols);
    return finish_stdout(&out, 0);
}

/* ---- --verify ------------------------------------------------------ */

/* A streaming reader of placements: characters go in, one at a time (the
 * input may be split anywhere), lines are checked as they end. */
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
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "qcount: line %llu: ", (unsigned long long)v->line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
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
        if (ch == '\n') {
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
        }
    }
}

static int verify_main(const qc_options *opts)
{
    const qc_mode_options *m = &opts->mode;
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
            return mode_fail("%s", "out of memory");
        for (;;) {
            ssize_t got = read(STDIN_FILENO, buf, cap);
            if (got < 0 && errno == EINTR)
                continue;
            if (got < 0) {
                free(buf);
                free(v.cols);
                return mode_fail("cannot read stdin: %s", strerror(errno));
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
        return mode_fail("cannot write to stdout: %s", strerror(errno));
    return v.status;
}

int qc_mode_main(const qc_options *opts)
{
    signal(SIGPIPE, SIG_IGN);       /* a closed pipe is EPIPE: see finish_stdout */
    switch (opts->action) {
    case QC_ACTION_LIST:
        return list_main(opts);
    case QC_ACTION_SOLVE:
        return solve_main(opts);
    case QC_ACTION_VERIFY:
        return verify_main(opts);
    default:
        return mode_fail("%s", "internal error: not a mode");
    }
}
