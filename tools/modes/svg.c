/* SPDX-License-Identifier: MIT */
/*
 * svg.c — the SVG writer of svg.h.
 *
 * Drawing: the squares of a board are one rectangle filled with a 2x2
 * checker <pattern> (light square top left, as on a chess board), the
 * queens <use> one crown <symbol>; both are defined once in <defs>, so a
 * board costs N+2 elements.  Each board is a <g class="board"> with a
 * <title> (its columns: a tooltip in browsers) and a caption below it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "svg.h"

/* The header's size attributes are written twice: as a placeholder, then
 * for real over it; the slot is wide enough for any size we can reach. */
#define SIZE_SLOT 96

struct qcm_svg {
    FILE *f;
    const char *path;       /* as the user gave it, for messages */
    char *target;           /* the file to replace: path, or where its link leads */
    char *tmp;              /* [whole or nothing] target.new-PID, renamed at the end */
    int to_stdout;          /* path "-": f is a temporary file for stdout */
    int n, per_row, square, gap, caption;
    long size_at;           /* file offset of the size slot */
    uint64_t boards;
};

/* Where path leads when it names no file: path itself, or the missing end
 * of its chain of symbolic links (a new file is created there, as open()
 * would).  A fresh string, or NULL when out of memory. */
static char *link_end(const char *path)
{
    char *cur = strdup(path);
    struct stat st;
    for (int hops = 0; cur && hops < 40 && lstat(cur, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
        char to[PATH_MAX];
        ssize_t k = readlink(cur, to, sizeof to - 1);
        if (k <= 0)
            break;
        to[k] = '\0';
        const char *slash = strrchr(cur, '/');
        size_t dir = to[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = malloc(dir + (size_t)k + 1);
        if (next) {
            memcpy(next, cur, dir);
            memcpy(next + dir, to, (size_t)k + 1);
        }
        free(cur);
        cur = next;
    }
    return cur;
}

/* [whole or nothing] The picture is drawn in target.new-PID beside the
 * file it replaces and renamed over it once it is complete, so a failed or
 * killed run never leaves a partial SVG at path (nor loses the one that
 * was there).  A symbolic link is followed: its target is replaced.  A path
 * that is there but not a regular file (a pipe, a device) is refused, as
 * the size slot needs seeking, and so is a file this user may not write.
 * Returns 0, or -1 with a message. */
static int open_beside(qcm_svg *s, char *err, size_t errlen)
{
    const char *path = s->path;
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "cannot write the SVG to '%s': not a regular file", path);
            return -1;
        }
        if (access(path, W_OK) != 0) {   /* replaced, yet only where it could be written */
            snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
            return -1;
        }
        s->target = realpath(path, NULL);
        if (!s->target)
            s->target = strdup(path);
    } else {
        s->target = link_end(path);   /* a new file, maybe through a link */
    }
    size_t len = s->target ? strlen(s->target) + 32 : 0;
    s->tmp = s->target ? malloc(len) : NULL;
    if (!s->tmp) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    snprintf(s->tmp, len, "%s.new-%ld", s->target, (long)getpid());
    unlink(s->tmp);   /* left by a killed run of a process with our pid */
    int fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 || (s->f = fdopen(fd, "w")) == NULL) {
        snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(s->tmp);
        }
        goto fail;
    }
    return 0;
fail:
    free(s->target);
    free(s->tmp);
    return -1;
}

qcm_svg *qcm_svg_open(const char *path, int n, const qcm_svg_style *style, char *err, size_t errlen)
{
    qcm_svg *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->path = path;
    s->n = n;
    s->per_row = style->per_row > 0 ? style->per_row : 6;
    int sq = 192 / n;
    s->square = style->square > 0 ? style->square : sq < 6 ? 6 : sq > 32 ? 32 : sq;
    s->gap = 16;
    s->caption = 20;
    const char *light = style->light && *style->light ? style->light : "#f0d9b5";
    const char *dark = style->dark && *style->dark ? style->dark : "#b58863";
    const char *queen = style->queen && *style->queen ? style->queen : "#1a1a1a";
    s->to_stdout = strcmp(path, "-") == 0;
    if (s->to_stdout ? (s->f = tmpfile()) == NULL : open_beside(s, err, errlen) != 0) {
        if (s->to_stdout)
            snprintf(err, errlen, "cannot create a temporary file for '-': %s", strerror(errno));
        free(s);
        return NULL;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"", s->f);
    s->size_at = ftell(s->f);
    fprintf(s->f, "%*s>\n", SIZE_SLOT, "");
    const int q = s->square;
    fprintf(s->f,
            "<title>Solutions of the %d-queens problem</title>\n"
            "<defs>\n"
            "  <pattern id=\"checker\" width=\"%d\" height=\"%d\" patternUnits=\"userSpaceOnUse\">\n"
            "    <rect width=\"%d\" height=\"%d\" fill=\"%s\"/>\n"
            "    <rect x=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n"
            "    <rect y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n"
            "  </pattern>\n"
            "  <symbol id=\"queen\" viewBox=\"0 0 100 100\">\n"
            "    <g fill=\"%s\" stroke=\"%s\" stroke-width=\"4\" stroke-linejoin=\"round\">\n"
            "      <path d=\"M20 78 L12 34 L32 56 L50 24 L68 56 L88 34 L80 78 Z\"/>\n"
            "      <rect x=\"18\" y=\"80\" width=\"64\" height=\"10\" rx=\"3\"/>\n"
            "      <circle cx=\"12\" cy=\"30\" r=\"7\"/><circle cx=\"50\" cy=\"19\" r=\"7\"/>"
            "<circle cx=\"88\" cy=\"30\" r=\"7\"/>\n"
            "    </g>\n"
            "  </symbol>\n"
            "</defs>\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            n, 2 * q, 2 * q, 2 * q, 2 * q, light, q, q, q, dark, q, q, q, dark, queen, light);
    return s;
}

void qcm_svg_board(qcm_svg *s, const uint32_t *cols, const char *caption)
{
    const int q = s->square, side = s->n * q;
    const uint64_t k = s->boards++;
    const uint64_t x = (uint64_t)s->gap + (k % (uint64_t)s->per_row) * (uint64_t)(side + s->gap);
    const uint64_t y = (uint64_t)s->gap + (k / (uint64_t)s->per_row) * (uint64_t)(side + s->caption + s->gap);
    FILE *f = s->f;
    fprintf(f, "<g class=\"board\" transform=\"translate(%llu,%llu)\">\n  <title>",
            (unsigned long long)x, (unsigned long long)y);
    for (int r = 0; r < s->n; r++)
        fprintf(f, r ? " %u" : "%u", cols[r] + 1);
    fprintf(f, "</title>\n  <rect width=\"%d\" height=\"%d\" fill=\"url(#checker)\" stroke=\"#404040\"/>\n",
            side, side);
    for (int r = 0; r < s->n; r++)
        fprintf(f, "  <use class=\"queen\" href=\"#queen\" xlink:href=\"#queen\" x=\"%u\" y=\"%d\" "
                   "width=\"%d\" height=\"%d\"/>\n", cols[r] * (unsigned)q, r * q, q, q);
    fprintf(f, "  <text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-family=\"sans-serif\" "
               "font-size=\"13\">%s</text>\n</g>\n", side / 2, side + 15, caption);
}

/* The finished picture of --svg=-, from its temporary file to stdout. */
static int copy_out(FILE *f)
{
    char buf[1 << 16];
    size_t got;
    rewind(f);
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, got, stdout) != got)
            return -1;
    return ferror(f) || fflush(stdout) != 0 ? -1 : 0;
}

int qcm_svg_close(qcm_svg *s, int keep, char *err, size_t errlen)
{
    const int side = s->n * s->square;
    uint64_t cols = s->boards < (uint64_t)s->per_row ? s->boards : (uint64_t)s->per_row;
    uint64_t rows = (s->boards + (uint64_t)s->per_row - 1) / (uint64_t)s->per_row;
    uint64_t w = (uint64_t)s->gap + cols * (uint64_t)(side + s->gap);
    uint64_t h = (uint64_t)s->gap + rows * (uint64_t)(side + s->caption + s->gap);
    if (s->boards == 0) {           /* nothing to draw: say so */
        w = 240;
        h = 48;
        fprintf(s->f, "<text x=\"16\" y=\"30\" font-family=\"sans-serif\" font-size=\"14\">"
                      "No solutions for N=%d</text>\n", s->n);
    }
    fputs("</svg>\n", s->f);
    char slot[SIZE_SLOT + 1];
    snprintf(slot, sizeof slot, " width=\"%llu\" height=\"%llu\" viewBox=\"0 0 %llu %llu\"",
             (unsigned long long)w, (unsigned long long)h, (unsigned long long)w, (unsigned long long)h);
    int rc = 0;
    if (fseek(s->f, s->size_at, SEEK_SET) != 0 || fprintf(s->f, "%-*s", SIZE_SLOT, slot) != SIZE_SLOT)
        rc = -1;
    if (ferror(s->f))
        rc = -1;
    int to_stdout_failed = 0;
    if (rc == 0 && keep && s->to_stdout && copy_out(s->f) != 0)
        rc = to_stdout_failed = -1;
    if (fclose(s->f) != 0)
        rc = -1;
    if (rc == 0 && keep && s->tmp && rename(s->tmp, s->target) != 0)
        rc = -1;
    if (rc != 0 && to_stdout_failed)
        snprintf(err, errlen, "cannot write to stdout: %s", strerror(errno));
    else if (rc != 0)
        snprintf(err, errlen, "cannot write '%s': %s", s->path, strerror(errno));
    if (s->tmp && (rc != 0 || !keep))
        unlink(s->tmp);   /* [whole or nothing] */
    free(s->target);
    free(s->tmp);
    free(s);
    return keep ? rc : 0;
}
