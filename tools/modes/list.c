/* SPDX-License-Identifier: MIT */
/*
 * list.c — --list and --svg: the solutions of an N-board in lexicographic
 * order, as lines of columns, as boards, or drawn into an SVG file; with
 * --unique the canonical member of each symmetry class only.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "qct_clock.h"
#include "mode.h"
#include "svg.h"

static void put_board(qcm_out *out, size_t n, const uint32_t *cols)
{
    for (size_t r = 0; r < n; r++) {
        char *p = qcm_out_room(out, 2 * n);
        for (size_t c = 0; c < n; c++) {
            p[2 * c] = c == cols[r] ? 'Q' : '.';
            p[2 * c + 1] = c + 1 < n ? ' ' : '\n';
        }
        out->len += 2 * n;
    }
}

/* The shown-th solution listed, as --format asks; with --unique, the size
 * of its class (class_size) beside it. */
static void put_solution(qcm_out *out, const qca_mode_options *m, size_t n, const uint32_t *cols,
                         uint64_t shown, int class_size)
{
    if (m->format == QC_FORMAT_COLS) {
        qcm_put_cols(out, n, cols);
        if (m->unique) {
            qcm_out_puts(out, " # class of ");
            qcm_out_u64(out, (uint64_t)class_size);
        }
        qcm_out_putc(out, '\n');
        return;
    }
    if (shown > 1)
        qcm_out_putc(out, '\n');
    if (m->unique) {
        qcm_out_puts(out, "# class of ");
        qcm_out_u64(out, (uint64_t)class_size);
        qcm_out_putc(out, '\n');
    }
    put_board(out, n, cols);
}

int qcm_list(const qca_options *opts)
{
    const qca_mode_options *m = &opts->mode;
    const size_t n = (size_t)opts->n;
    char err[512];
    qc_enum *it;
    qcm_out out;
    if (qc_enum_create(&it, opts->n) != QC_OK || qcm_out_open(&out, STDOUT_FILENO, 1 << 16) != 0)
        return qcm_fail("%s", "out of memory");
    qcm_svg *svg = NULL;
    if (m->svg_path) {
        qcm_svg_style style = {m->svg_per_row, m->svg_square, m->svg_colors[0], m->svg_colors[1],
                              m->svg_colors[2]};
        svg = qcm_svg_open(m->svg_path, opts->n, &style, err, sizeof err);
        if (!svg) {
            qc_enum_free(it);
            qcm_out_close(&out);
            return qcm_fail("%s", err);
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
    /* without --limit the drawing stops at QC_SVG_BOARDS_UNLIMITED boards,
     * the listing (if any) goes on */
    const uint64_t drawn_max = m->limit_given ? UINT64_MAX : QC_SVG_BOARDS_UNLIMITED;
    while ((m->limit == 0 || shown < m->limit) && !out.error && qc_enum_next(it, cols)) {
        int class_size = 0;
        if (m->unique) {            /* only the canonical member of each class */
            class_size = qc_solution_canonical(n, cols, canon);
            if (memcmp(canon, cols, n * sizeof *cols) != 0)
                continue;
        }
        shown++;
        if (m->list)
            put_solution(&out, m, n, cols, shown, class_size);
        if (svg && shown > drawn_max) {
            if (shown == drawn_max + 1)
                fprintf(stderr, "qcount: --svg: drew the first %d solutions of more; "
                        "--limit=K draws K\n", QC_SVG_BOARDS_UNLIMITED);
            if (!m->list)
                break;
        } else if (svg) {
            char caption[64];
            if (m->unique)
                snprintf(caption, sizeof caption, "#%llu, class of %d", (unsigned long long)shown, class_size);
            else
                snprintf(caption, sizeof caption, "#%llu", (unsigned long long)shown);
            qcm_svg_board(svg, cols, caption);
        }
        if (m->list && (each_line || shown == 1 || qct_now_seconds() - last_write >= 0.02)) {
            qcm_out_flush(&out);
            last_write = qct_now_seconds();
        }
    }
    qc_enum_free(it);
    int status = 0;
    /* the listing first: a picture of a listing that failed is not kept */
    qcm_out_flush(&out);
    if (svg && qcm_svg_close(svg, !out.error, err, sizeof err) != 0)
        status = qcm_fail("%s", err);
    return qcm_end_stdout(&out, status);
}

