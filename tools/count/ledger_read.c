/* SPDX-License-Identifier: MIT */
/*
 * ledger_read.c — a ledger read as it stands: its header and records
 * checked a window at a time (ledger_read.h, for opening it to resume and
 * for loading it), and the whole of it loaded for qcount merge, audit and
 * show (qcc_ledger_load, ledger.h).  A damaged tail is what a crash can
 * leave (ledger.c); anything bad before a good record is corruption.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ledger_format.h"
#include "ledger_read.h"
#include "quote.h"

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int all_zero(const unsigned char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (p[i])
            return 0;
    return 1;
}

int qcc_ledger_check_plan(const qcc_ledger_header *h, const qc_plan *plan, char *err, size_t errlen)
{
    const char *my_engine = qc_engine_name(qc_plan_engine(plan));
    if (h->n != qc_plan_n(plan) || h->engine_id != (unsigned)qc_plan_engine(plan)
        || strcmp(h->engine, my_engine ? my_engine : "") != 0)
        FAIL("belongs to another count (N=%d, engine %s), not to this one (N=%d, engine %s)",
             h->n, h->engine, qc_plan_n(plan), my_engine ? my_engine : "?");
    const int profile = qc_plan_profile(plan) == qc_plan_n(plan) ? 0 : qc_plan_profile(plan);
    if (h->profile != profile)
        FAIL("was written under plan profile %d, not this count's (%d)",
             h->profile ? h->profile : h->n, profile ? profile : qc_plan_n(plan));
    if (h->units != (uint64_t)qc_plan_unit_count(plan) || h->fingerprint != qc_plan_fingerprint(plan))
        FAIL("was written for another work split (%llu units, fingerprint %016llx; this "
             "qcount splits N=%d into %zu units, fingerprint %016llx)",
             (unsigned long long)h->units, (unsigned long long)h->fingerprint, qc_plan_n(plan),
             qc_plan_unit_count(plan), (unsigned long long)qc_plan_fingerprint(plan));
    return 0;
}

int qcc_ledger_check_part(const qcc_ledger_header *h, const qcc_part *part, char *err,
                          size_t errlen)
{
    char have[24], want[24];
    qcc_part_name(&h->part, have, sizeof have);
    qcc_part_name(part, want, sizeof want);
    if (h->part.index != part->index || h->part.count != part->count) {
        if (!part->count)
            FAIL("holds part %s of the count, not the whole count (add --part %s)", have, have);
        if (!h->part.count)
            FAIL("holds the whole count, not part %s (drop --part, or use another file)", want);
        FAIL("holds part %s of the count, not part %s", have, want);
    }
    if (part->count && (h->part.units != part->units || h->part.digest != part->digest))
        FAIL("part %s was dealt otherwise when it was written (%llu units, this qcount's "
             "part %s has %llu)", have, (unsigned long long)h->part.units, want,
             (unsigned long long)part->units);
    return 0;
}

/* [ledger windows] Where a reading of the records stands: what it reads
 * for (h, take, ctx), how many records the file holds, 1 + the index of
 * the first bad one (0 if none yet), the byte just after the last good
 * one so far; err for the problem. */
typedef struct records_read {
    const qcc_ledger_header *h;
    qcc_ledger_take take;
    void *ctx;
    size_t count, first_bad;
    size_t good_end;
    char *err;
    size_t errlen;
} records_read;

/* Records i0 .. i0+n-1 of the file, at buf, into rd->take, as
 * qcc_ledger_read_records says. */
static int parse_records(const unsigned char *buf, size_t i0, size_t n, records_read *rd)
{
    const qcc_ledger_header *h = rd->h;
    char *err = rd->err;
    const size_t errlen = rd->errlen;
    const int v1 = h->version == 1;
    const size_t hs = v1 ? QCC_LEDGER_V1_HEADER_SIZE : QCC_LEDGER_HEADER_SIZE;
    const size_t rs = v1 ? QCC_LEDGER_V1_RECORD_SIZE : QCC_LEDGER_RECORD_SIZE;
    const size_t sum_at = v1 ? QCC_LEDGER_V1_RECORD_SUM_AT : QCC_LEDGER_SUM_AT;
    const size_t count = rd->count;
    for (size_t k = 0; k < n; k++) {
        const size_t i = i0 + k;
        const unsigned char *r = buf + k * rs;
        if (get64(r + sum_at) != qcc_ledger_checksum(h->fingerprint, r, sum_at)) {
            if (!all_zero(r, rs) && !rd->first_bad)
                rd->first_bad = i + 1;
            continue;
        }
        if (rd->first_bad)
            FAIL("record %zu of %zu is corrupted (checksum mismatch)", rd->first_bad, count);
        uint64_t unit = get64(r);
        if (unit >= h->units)
            FAIL("record %zu of %zu names unit %llu, past the %llu units", i + 1, count,
                 (unsigned long long)unit, (unsigned long long)h->units);
        const int took = rd->take(rd->ctx, r, unit, h);
        if (took == -2)
            FAIL("out of memory at record %zu of %zu", i + 1, count);
        if (took != 0)
            FAIL("unit %llu is recorded twice (record %zu of %zu)", (unsigned long long)unit,
                 i + 1, count);
        rd->good_end = hs + (i + 1) * rs;
    }
    return 0;
}

/* Reads exactly len bytes of fd at off into buf: 0, or -1 (errno set; 0
 * for a file that ended first). */
static int read_at(int fd, unsigned char *buf, size_t len, off_t off)
{
    size_t at = 0;
    while (at < len) {
        ssize_t k = pread(fd, buf + at, len - at, off + (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = 0;
            return -1;
        }
        at += (size_t)k;
    }
    return 0;
}

static size_t window_records = QCC_LEDGER_WINDOW_RECORDS;

void qcc_ledger_set_window(size_t records)
{
    window_records = records ? records : QCC_LEDGER_WINDOW_RECORDS;
}

int qcc_ledger_read_records(int fd, size_t len, const qcc_ledger_header *h, qcc_ledger_take take,
                            void *ctx, size_t *good_end, char *err, size_t errlen)
{
    const size_t hs = h->version == 1 ? QCC_LEDGER_V1_HEADER_SIZE : QCC_LEDGER_HEADER_SIZE;
    const size_t rs = h->version == 1 ? QCC_LEDGER_V1_RECORD_SIZE : QCC_LEDGER_RECORD_SIZE;
    records_read rd = {.h = h, .take = take, .ctx = ctx, .count = (len - hs) / rs,
                       .good_end = hs, .err = err, .errlen = errlen};
    const size_t window = rd.count < window_records ? rd.count : window_records;
    unsigned char *buf = malloc(window ? window * rs : 1);
    *good_end = hs;
    if (!buf)
        FAIL("out of memory reading it");
    int rc = 0;
    for (size_t i0 = 0; i0 < rd.count && rc == 0; i0 += window) {
        const size_t n = rd.count - i0 < window ? rd.count - i0 : window;
        if (read_at(fd, buf, n * rs, (off_t)(hs + i0 * rs)) != 0) {
            snprintf(err, errlen, "cannot read it all (%s)",
                     errno ? strerror(errno) : "it ended early");
            rc = -1;
        } else {
            rc = parse_records(buf, i0, n, &rd);
        }
        *good_end = rd.good_end;
    }
    free(buf);
    return rc;
}

int qcc_ledger_read_header(int fd, size_t len, qcc_ledger_header *h, char *err, size_t errlen)
{
    unsigned char buf[QCC_LEDGER_HEADER_SIZE];
    const size_t n = len < sizeof buf ? len : sizeof buf;
    if (read_at(fd, buf, n, 0) != 0)
        FAIL("cannot read it: %s", errno ? strerror(errno) : "it ended early");
    return qcc_ledger_parse_header(buf, n, h, err, errlen);
}

/* ---- loading a ledger whole ------------------------------------------ */

#undef FAIL
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* What qcc_ledger_read_records fills for qcc_ledger_load: the entries, and which
 * units are in them. */
typedef struct load_ctx {
    qcc_ledger_file *f;
    unsigned char *seen;     /* [units] */
} load_ctx;

static int take_into_file(void *ctx, const unsigned char *r, uint64_t unit,
                          const qcc_ledger_header *h)
{
    load_ctx *c = ctx;
    if (c->seen[unit])
        return -1;
    c->seen[unit] = 1;
    qcc_ledger_entry *e = &c->f->entries[c->f->count++];
    memset(e, 0, sizeof *e);
    e->unit = unit;
    e->tally = qcc_ledger_get_tally(r);
    e->log.cpu_seconds = -1;
    if (h->version >= 2) {
        e->log.finished_us = (int64_t)get64(r + 32);
        uint64_t cpu = get64(r + 40);
        if (cpu != UINT64_MAX)
            e->log.cpu_seconds = (double)cpu / 1e6;
        qcc_ledger_get_string(e->log.engine, sizeof e->log.engine, r + 48);
        qcc_ledger_get_string(e->log.isa, sizeof e->log.isa, r + 64);
        qcc_ledger_get_string(e->log.host, sizeof e->log.host, r + 80);
    }
    return 0;
}

int qcc_ledger_load(const char *path, qcc_ledger_file **out, char *err, size_t errlen)
{
    char shown_buf[QCA_PATH_SHOWN + 1];   /* [brief paths] */
    const char *shown = qca_path_brief(path, shown_buf);
    *out = NULL;
    load_ctx c = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        FAIL("ledger '%s': cannot open: %s", shown, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0)
        FAIL("ledger '%s': cannot stat: %s", shown, strerror(errno));
    if (!S_ISREG(st.st_mode))
        FAIL("ledger '%s': not a regular file, not a qcount ledger", shown);
    const size_t len = (size_t)st.st_size;
    c.f = calloc(1, sizeof *c.f);
    if (!c.f)
        FAIL("ledger '%s': out of memory", shown);
    char why[200];
    if (qcc_ledger_read_header(fd, len, &c.f->header, why, sizeof why) != 0)
        FAIL("ledger '%s': %s", shown, why);
    const qcc_ledger_header *h = &c.f->header;
    const size_t hs = h->version == 1 ? QCC_LEDGER_V1_HEADER_SIZE : QCC_LEDGER_HEADER_SIZE;
    const size_t rs = h->version == 1 ? QCC_LEDGER_V1_RECORD_SIZE : QCC_LEDGER_RECORD_SIZE;
    const size_t records = (len - hs) / rs;
    if (h->units > SIZE_MAX / 2)
        FAIL("ledger '%s': header is corrupted (%llu units)", shown, (unsigned long long)h->units);
    c.seen = calloc(h->units ? h->units : 1, 1);
    c.f->entries = calloc(records ? records : 1, sizeof *c.f->entries);
    if (!c.seen || !c.f->entries)
        FAIL("ledger '%s': out of memory", shown);
    size_t good_end;
    if (qcc_ledger_read_records(fd, len, h, take_into_file, &c, &good_end, why, sizeof why) != 0)
        FAIL("ledger '%s': %s", shown, why);
    c.f->damaged_bytes = len - good_end;
    c.f->file_bytes = len;
    close(fd);
    free(c.seen);
    *out = c.f;
    return 0;
fail:
    qca_quote_in_place(err, errlen);
    if (fd >= 0)
        close(fd);
    free(c.seen);
    qcc_ledger_file_free(c.f);
    return -1;
}

void qcc_ledger_file_free(qcc_ledger_file *f)
{
    if (!f)
        return;
    free(f->entries);
    free(f);
}
