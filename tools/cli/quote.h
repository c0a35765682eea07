/* SPDX-License-Identifier: MIT */
/*
 * quote.h — user input made safe to print: every message that quotes a
 * word, a file name or a line the user gave goes through here, so that no
 * control character (a newline, ESC, BEL, a C1 control) reaches the
 * terminal as such and every message stays on one line.
 */
#ifndef QC_QUOTE_H
#define QC_QUOTE_H

#include <stddef.h>

/* Copies src[0..srclen) into dst (dstlen > 0 bytes, always terminated,
 * cut short when full, never inside an escape) with the bytes that could
 * act on a terminal escaped: \n, \r, \t, and \xHH for the other C0
 * controls, DEL, the C1 controls (U+0080..U+009F in UTF-8, or as raw
 * bytes) and any byte that is not part of valid UTF-8.  Printable ASCII
 * and valid UTF-8 text pass unchanged.  Returns strlen(dst). */
size_t qca_quote(char *dst, size_t dstlen, const char *src, size_t srclen);

/* Rewrites the message msg (a buffer of msglen bytes) as qca_quote does. */
void qca_quote_in_place(char *msg, size_t msglen);

/* [brief paths] The most bytes of a file name a message shows: a longer
 * one is shown as its first and last bytes around "...", so that what the
 * message says after the name (the reason) always fits its buffer. */
#define QCA_PATH_SHOWN 160

/* path as a message shows it: path itself when it is at most
 * QCA_PATH_SHOWN bytes, else its head and tail around "..." (cut between
 * UTF-8 characters) in buf, QCA_PATH_SHOWN + 1 bytes.  Returns path or
 * buf. */
const char *qca_path_brief(const char *path, char *buf);

/* Prints "qcount: " msg, escaped as qca_quote does, and a newline on
 * stderr, the whole line in one write ([one write]; a message past
 * 1 KiB in more than one). */
void qca_print_error(const char *msg);

#endif
