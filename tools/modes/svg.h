/* SPDX-License-Identifier: MIT */
/*
 * svg.h — draws solutions as an SVG grid of chess boards, streamed: boards
 * are written as they come, and the picture's size, known only at the end,
 * is written back into a fixed-width slot of the header.  So the file must
 * be seekable (a regular file); the path "-" (standard output) is drawn in
 * a temporary file first, and copied out when it is finished; a file is
 * drawn beside its path and renamed over it when it is finished.
 */
#ifndef QC_SVG_H
#define QC_SVG_H

#include <stddef.h>
#include <stdint.h>

typedef struct qcm_svg_style {
    int per_row;            /* boards per row of the grid (0: 6)           */
    int square;             /* side of a square in pixels (0: about 192/N) */
    const char *light, *dark, *queen;   /* colours (NULL or "": defaults)  */
} qcm_svg_style;

typedef struct qcm_svg qcm_svg;

/* Boards --svg draws without --limit (then it says on stderr that it
 * stopped there): about 1.6 KB a board at N=14, so some 16 MB, where all
 * of N=14's 365596 solutions would make 587 MB. */
#define QC_SVG_BOARDS_UNLIMITED 10000

/* Creates the file for boards of size n ("-": for standard output);
 * returns NULL with a message. */
qcm_svg *qcm_svg_open(const char *path, int n, const qcm_svg_style *style, char *err,
                      size_t errlen);
/* Adds a board (cols 0-based), with a caption and a tooltip. */
void qcm_svg_board(qcm_svg *s, const uint32_t *cols, const char *caption);
/* Finishes and closes the file (and frees s).  keep: put the picture in
 * place (or copy it to stdout); 0 throws it away, as when the run failed
 * elsewhere.  Returns 0, or -1 with a message when any write failed: then
 * nothing is left at the path, and a file that was there is unchanged
 * (svg.c's [whole or nothing]). */
int qcm_svg_close(qcm_svg *s, int keep, char *err, size_t errlen);

#endif
