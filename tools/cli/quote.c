/* SPDX-License-Identifier: MIT */
/*
 * quote.c — escaping what users typed before it is printed (see quote.h).
 */
#include <stdio.h>
#include <string.h>

#include "quote.h"

/* The length of the valid UTF-8 sequence at s (n bytes left) that is not a
 * C1 control, or 0: then s[0] is to be escaped. */
static size_t utf8_printable(const unsigned char *s, size_t n)
{
    size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (len == 0 || s[0] > 0xf4 || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    unsigned cp = s[0] & (0x7f >> len);
    for (size_t i = 1; i < len; i++)
        cp = cp << 6 | (s[i] & 0x3f);
    static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;   /* overlong, out of range, a surrogate */
    if (cp <= 0x9f)
        return 0;   /* C1: CSI (U+009B) and its kin act like ESC [ */
    return len;
}

size_t qca_quote(char *dst, size_t dstlen, const char *src, size_t srclen)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t o = 0;
    for (size_t i = 0; i < srclen;) {
        char esc[5];
        size_t take = 1, elen;
        const char *piece;
        if (s[i] >= 0x20 && s[i] < 0x7f) {
            piece = (const char *)s + i;
            elen = 1;
        } else if (s[i] >= 0x80 && (take = utf8_printable(s + i, srclen - i)) > 0) {
            piece = (const char *)s + i;
            elen = take;
        } else {
            take = 1;
            if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
                snprintf(esc, sizeof esc, "\\%c", s[i] == '\n' ? 'n' : s[i] == '\r' ? 'r' : 't');
            else
                snprintf(esc, sizeof esc, "\\x%02x", s[i]);
            piece = esc;
            elen = strlen(esc);
        }
        if (o + elen >= dstlen)
            break;
        memcpy(dst + o, piece, elen);
        o += elen;
        i += take;
    }
    dst[o] = '\0';
    return o;
}

void qca_quote_in_place(char *msg, size_t msglen)
{
    char copy[1024];
    size_t len = strlen(msg);
    if (len >= sizeof copy)
        len = sizeof copy - 1;
    memcpy(copy, msg, len);
    qca_quote(msg, msglen, copy, len);
}

const char *qca_path_brief(const char *path, char *buf)
{
    const size_t len = strlen(path), keep = (QCA_PATH_SHOWN - 3) / 2;
    if (len <= QCA_PATH_SHOWN)
        return path;
    size_t head = keep, tail = len - keep;
    while (head > 0 && ((unsigned char)path[head] & 0xc0) == 0x80)
        head--;                     /* never inside a UTF-8 character */
    while (tail < len && ((unsigned char)path[tail] & 0xc0) == 0x80)
        tail++;
    memcpy(buf, path, head);
    memcpy(buf + head, "...", 3);
    memcpy(buf + head + 3, path + tail, len - tail + 1);
    return buf;
}

void qca_print_error(const char *msg)
{
    /* [one write] the line is gathered and goes out in one fwrite on
     * unbuffered stderr, so one write(2): under mpirun, Open MPI's
     * MPI_ABORT banner reaches the terminal by another path and once
     * landed between a "qcount: " and the rest of its line.  The buffer
     * holds a 1 KiB message escaped (at most 4 bytes a byte, "\xHH"); a
     * longer one goes out in more writes, never cut. */
    char line[8 + 4 * 1024 + 2];   /* the prefix, 1 KiB escaped, newline and NUL */
    const size_t len = strlen(msg);
    size_t o = 8;
    memcpy(line, "qcount: ", 8);
    for (size_t i = 0, n; i < len; i += n) {
        n = len - i < 200 ? len - i : 200;
        /* never split a UTF-8 sequence between pieces */
        while (i + n < len && ((unsigned char)msg[i + n] & 0xc0) == 0x80 && n > 196)
            n--;
        if (o + 4 * n + 2 > sizeof line) {
            fwrite(line, 1, o, stderr);
            o = 0;
        }
        o += qca_quote(line + o, sizeof line - o, msg + i, n);
    }
    line[o++] = '\n';
    fwrite(line, 1, o, stderr);
}
