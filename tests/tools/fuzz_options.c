/* SPDX-License-Identifier: MIT */
/*
 * fuzz_options.c — libFuzzer target for the command-line parser.
 *
 * The input is split at NUL bytes into up to 16 arguments after "qcount".
 * Properties: qca_options_parse never crashes; a rejection is one nonempty
 * line free of control bytes (qca_quote escapes what it quotes); an acceptance gives values in range; parsing the same words twice
 * gives the same answer (the parser resets getopt's state).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define MAX_ARGS 16

static int parse(const uint8_t *data, size_t size, qca_options *o, char *err, size_t errlen)
{
    char *copy = malloc(size + 1);
    memcpy(copy, data, size);
    copy[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"qcount"};
    int argc = 1;
    for (char *p = copy; argc <= MAX_ARGS && p <= copy + size; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;
    int rc = qca_options_parse(argc, argv, o, err, errlen);
    /* the result may point into argv (checkpoint): compare before freeing */
    if (rc == 0 && o->checkpoint && (o->checkpoint < copy || o->checkpoint > copy + size))
        abort();
    if (rc == 0 && o->checkpoint)
        o->checkpoint = (const char *)(uintptr_t)strlen(o->checkpoint);
    free(copy);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    qca_options a, b;
    char ea[256] = "", eb[256] = "";
    int ra = parse(data, size, &a, ea, sizeof ea);
    int rb = parse(data, size, &b, eb, sizeof eb);
    if (ra != rb || strcmp(ea, eb) != 0)
        abort();
    if (ra != 0) {
        if (ea[0] == '\0')
            abort();
        for (const unsigned char *p = (const unsigned char *)ea; *p; p++)
            if (*p < 0x20 || *p == 0x7f)
                abort();
        return 0;
    }
    if (a.action != b.action || a.n != b.n || a.threads != b.threads || a.bind != b.bind
        || a.json != b.json || a.engine != b.engine || a.checkpoint != b.checkpoint
        || a.progress != b.progress)
        abort();
    if (a.action == QC_ACTION_COUNT && (a.n < QC_N_MIN || a.n > QC_N_MAX))
        abort();
    if (a.threads < 0 || a.threads > 4096 || a.progress < 0 || a.progress > 2)
        abort();
    return 0;
}
