/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ledger.c — libFuzzer target for the checkpoint ledger reader.
 *
 * The input becomes a ledger file for the plan N=8 (halving): byte 0
 * picks how much of it is made valid, so that the fuzzer reaches the
 * record parser and not just the magic check:
 *   mode 0: the bytes as they are;
 *   mode 1: a valid header, then the bytes;
 *   mode 2: a valid header, then the bytes as records (128 bytes) whose unit
 *           is folded into range and whose checksum is fixed, unless the
 *           record's byte 31 is odd (so torn and bad records still occur).
 * Properties: a refused ledger gets a one-line message naming the file and
 * is byte-for-byte unchanged; an accepted one is self-consistent, takes a
 * new record, and opens again with that record added.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ledger.h"
#include "slurp.h"

static qc_plan *plan;
static char path[64];

static void remove_file(void)
{
    unlink(path);
}

static void spit(const unsigned char *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b, 1, len, f) != len || fclose(f) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!plan) {
        if (qc_plan_create(&plan, 8, QC_ENGINE_HALVING) != QC_OK)
            abort();
        /* tmpfs where there is one: fdatasync is free there */
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(path, sizeof path, "%s/fuzz_ledger.%ld", dir, (long)getpid());
        atexit(remove_file);
    }
    if (size == 0 || size > 1 << 16)
        return 0;
    const size_t units = qc_plan_unit_count(plan);
    const size_t hs = QCC_LEDGER_HEADER_SIZE, rs = QCC_LEDGER_RECORD_SIZE;
    int mode = data[0] % 3;
    data++, size--;
    unsigned char *file = malloc(hs + size + 1);
    size_t len = 0;
    if (mode > 0) {
        qcc_ledger_encode_header(plan, NULL, file);
        len = hs;
    }
    memcpy(file + len, data, size);
    if (mode == 2) {
        for (size_t at = len; at + rs <= len + size; at += rs) {
            unsigned char *r = file + at;
            if (r[31] & 1)
                continue;
            r[0] %= (unsigned char)(units + 1);   /* mostly in range */
            memset(r + 1, 0, 7);
            uint64_t c = qcc_ledger_checksum(qc_plan_fingerprint(plan), r, QCC_LEDGER_SUM_AT);
            for (int i = 0; i < 8; i++)
                r[QCC_LEDGER_SUM_AT + i] = (unsigned char)(c >> (8 * i));
        }
    }
    len += size;
    spit(file, len);

    qcc_ledger *l;
    char err[512] = "";
    if (qcc_ledger_open(&l, path, plan, err, sizeof err) != 0) {
        size_t got;
        unsigned char *after = slurp(path, &got);
        if (!after)
            abort();
        if (got != len || memcmp(after, file, len) != 0)
            abort();                         /* a refused ledger was touched */
        if (!strstr(err, path) || strchr(err, '\n'))
            abort();                         /* not one line naming the file */
        free(after);
        free(file);
        return 0;
    }
    size_t done = qcc_ledger_done_count(l), seen = 0, todo = units;
    for (size_t u = 0; u < units; u++) {
        qc_tally t;
        int is = qcc_ledger_is_done(l, u);
        if (is != (qcc_ledger_get(l, u, &t) == 0))
            abort();
        seen += is != 0;
        if (!is && todo == units)
            todo = u;
    }
    if (seen != done)
        abort();
    if (todo < units) {
        qc_tally t = {.solutions = 3, .steps = 5};
        if (qcc_ledger_record(l, todo, &t) != 0)
            abort();
    }
    qcc_ledger_close(l);
    if (qcc_ledger_open(&l, path, plan, err, sizeof err) != 0)
        abort();                             /* our own append broke it */
    if (qcc_ledger_done_count(l) != done + (todo < units))
        abort();
    qcc_ledger_close(l);
    free(file);
    return 0;
}
