/* SPDX-License-Identifier: MIT */
/*
 * test_ledger.c — the checkpoint ledger on its own: what is recorded comes
 * back after a reopen; what a crash leaves (torn tail, bad last record,
 * zero blocks) is tolerated and repaired at the next append; everything
 * else (foreign plan, corrupted middle record, truncated header, twice
 * recorded unit, a second user, another part) is refused with the file
 * untouched; the bytes are little-endian on every host; a ledger of format
 * version 1 is read and appended to in its own format; a record keeps its
 * log (engine, ISA level, host, time) and qcc_ledger_load reads it back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "ledger.h"
#include "slurp.h"

static char dir[] = "/tmp/test_ledger.XXXXXX";
static char path[256];

static void spit(const char *p, const unsigned char *b, size_t len)
{
    FILE *f = fopen(p, "wb");
    fwrite(b, 1, len, f);
    fclose(f);
}

static qc_tally tally_of(size_t unit)
{
    qc_tally t = {.solutions = ((qc_u128)unit << 64) + 7 * unit + 1, .steps = 1000 + unit};
    return t;
}

/* Opening must fail, mention the path and `what`, and leave the bytes. */
static void expect_refused(const qc_plan *plan, const char *what)
{
    size_t before_len, after_len;
    unsigned char *before = slurp(path, &before_len);
    qcc_ledger *l;
    char err[512] = "";
    int rc = qcc_ledger_open(&l, path, plan, err, sizeof err);
    CHECK(rc == -1);
    if (rc == 0)
        qcc_ledger_close(l);
    CHECK(strstr(err, path) != NULL);
    CHECK(strchr(err, '\n') == NULL);
    CHECK(strstr(err, what) != NULL, "message '%s' does not say '%s'", err, what);
    unsigned char *after = slurp(path, &after_len);
    CHECK(before_len == after_len && (before_len == 0 || memcmp(before, after, before_len) == 0));
    free(before);
    free(after);
}

static qcc_ledger *open_ok(const qc_plan *plan)
{
    qcc_ledger *l = NULL;
    char err[512] = "";
    if (qcc_ledger_open(&l, path, plan, err, sizeof err) != 0) {
        CHECK(0, "open failed: %s", err);
        exit(check_report("ledger"));
    }
    return l;
}

/* [byte order] The file is little-endian on every host: a halving N=10
 * ledger of format version 1 holding unit 7, byte for byte as qcount on
 * x86-64 wrote it before format version 2 (so ledgers already written
 * stay valid, and a big-endian or otherwise wrong encoding shows here).
 * The fingerprint and checksums are the plan's. */
static const unsigned char le_header[QCC_LEDGER_V1_HEADER_SIZE] = {
    'Q', 'C', 'L', 'E', 'D', 'G', 'E', 'R',
    0x01, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00,   /* version 1, header size 64 */
    0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,   /* N 10, engine 0 (halving)  */
    'h', 'a', 'l', 'v', 'i', 'n', 'g', 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xc0, 0x0e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,   /* 3776 units                */
    0x01, 0x64, 0xbc, 0xc0, 0x75, 0xfe, 0x53, 0x1f,   /* fingerprint               */
    0xf5, 0x25, 0x65, 0xee, 0x26, 0x6a, 0xd0, 0x47,   /* checksum                  */
};
static const unsigned char le_record[QCC_LEDGER_V1_RECORD_SIZE] = {
    0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,   /* unit 7                    */
    0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,   /* solutions, low half       */
    0x0d, 0x0c, 0x0b, 0x0a, 0x00, 0x00, 0x00, 0x00,   /* solutions, high half      */
    0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,   /* placements                */
    0x33, 0x14, 0x07, 0x83, 0x9a, 0x10, 0x9b, 0x01,   /* checksum                  */
};
static const qc_tally le_tally = {
    .solutions = (qc_u128)0x0a0b0c0d << 64 | 0x0102030405060708ULL,
    .steps = 0x1122334455667788ULL,
};

static void put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* The version 1 encoders; an old ledger read, appended to in its own
 * format (40-byte records), and read again. */
static void check_old_format(const qc_plan *plan)
{
    unsigned char buf[QCC_LEDGER_V1_HEADER_SIZE + 2 * QCC_LEDGER_V1_RECORD_SIZE];
    qcc_ledger_encode_header_v1(plan, buf);
    CHECK(memcmp(buf, le_header, sizeof le_header) == 0);
    qcc_ledger_encode_record_v1(qc_plan_fingerprint(plan), 7, &le_tally, buf);
    CHECK(memcmp(buf, le_record, sizeof le_record) == 0);

    memcpy(buf, le_header, sizeof le_header);
    memcpy(buf + sizeof le_header, le_record, sizeof le_record);
    spit(path, buf, sizeof le_header + sizeof le_record);
    qcc_ledger *l = open_ok(plan);
    qc_tally t, t3 = tally_of(3);
    CHECK(qcc_ledger_done_count(l) == 1 && qcc_ledger_get(l, 7, &t) == 0
          && t.solutions == le_tally.solutions && t.steps == le_tally.steps);
    CHECK(qcc_ledger_record(l, 3, &t3) == 0);
    qcc_ledger_close(l);
    size_t len;
    unsigned char *file = slurp(path, &len);
    unsigned char rec3[QCC_LEDGER_V1_RECORD_SIZE];
    qcc_ledger_encode_record_v1(qc_plan_fingerprint(plan), 3, &t3, rec3);
    CHECK(len == sizeof buf && memcmp(file, buf, sizeof le_header + sizeof le_record) == 0
          && memcmp(file + sizeof le_header + sizeof le_record, rec3, sizeof rec3) == 0);
    free(file);
    l = open_ok(plan);
    CHECK(qcc_ledger_done_count(l) == 2 && qcc_ledger_is_done(l, 3) && qcc_ledger_is_done(l, 7));
    qcc_ledger_close(l);

    /* read as it stands: format 1, the whole plan, no log */
    qcc_ledger_file *f;
    char err[512];
    CHECK(qcc_ledger_load(path, &f, err, sizeof err) == 0, "%s", err);
    CHECK(f->header.version == 1 && f->header.part.count == 0 && f->count == 2
          && f->damaged_bytes == 0 && f->entries[0].unit == 7 && f->entries[1].unit == 3
          && f->entries[0].log.host[0] == '\0' && f->entries[0].log.cpu_seconds < 0
          && f->entries[0].log.finished_us == 0);
    CHECK(qcc_ledger_check_plan(&f->header, plan, err, sizeof err) == 0);
    qcc_ledger_file_free(f);
    unlink(path);
}

/* Format version 2: the header the encoder writes, a record's log as
 * given and as the ledger fills it in, read back by qcc_ledger_load. */
static void check_new_format(const qc_plan *plan)
{
    qcc_ledger *l = open_ok(plan);
    qcc_unit_log log = {.engine = "halving", .isa = "portable", .host = "node-7",
                        .cpu_seconds = 1.25, .finished_us = 1700000000123456};
    qc_tally t5 = tally_of(5), t6 = tally_of(6);
    CHECK(qcc_ledger_record_log(l, 5, &t5, &log) == 0);
    time_t before = time(NULL);
    CHECK(qcc_ledger_record(l, 6, &t6) == 0);
    qcc_ledger_close(l);
    size_t len;
    unsigned char *file = slurp(path, &len);
    unsigned char header[QCC_LEDGER_HEADER_SIZE], rec[QCC_LEDGER_RECORD_SIZE];
    qcc_ledger_encode_header(plan, NULL, header);
    qcc_ledger_encode_record(qc_plan_fingerprint(plan), 5, &t5, &log, rec);
    CHECK(len == sizeof header + 2 * sizeof rec && memcmp(file, header, sizeof header) == 0
          && memcmp(file + sizeof header, rec, sizeof rec) == 0);
    CHECK(file[8] == 2 && file[12] == 128 && file[56] == 0 && file[60] == 0);   /* whole plan */
    free(file);

    qcc_ledger_file *f;
    char err[512], host[64] = "";
    gethostname(host, sizeof host);
    host[39] = '\0';
    CHECK(qcc_ledger_load(path, &f, err, sizeof err) == 0, "%s", err);
    CHECK(f && f->count == 2 && f->header.version == 2);
    if (f && f->count == 2) {
        const qcc_unit_log *a = &f->entries[0].log, *b = &f->entries[1].log;
        CHECK(f->entries[0].unit == 5 && strcmp(a->engine, "halving") == 0
              && strcmp(a->isa, "portable") == 0 && strcmp(a->host, "node-7") == 0
              && a->cpu_seconds == 1.25 && a->finished_us == 1700000000123456);
        CHECK(f->entries[1].unit == 6 && strcmp(b->engine, "halving") == 0
              && strcmp(b->isa, qc_isa_name()) == 0 && strcmp(b->host, host) == 0
              && b->cpu_seconds < 0 && b->finished_us / 1000000 >= before - 1
              && b->finished_us / 1000000 <= time(NULL) + 1);
        CHECK(f->entries[1].tally.solutions == t6.solutions);
    }
    qcc_ledger_file_free(f);
    unlink(path);
}

/* A part's ledger: created for the part, reopened for it, refused for
 * the whole plan and for another part. */
static void check_part(const qc_plan *plan)
{
    qcc_part p = {.index = 2, .count = 3}, q = {.index = 1, .count = 3};
    CHECK(qcc_part_fill(plan, &p, NULL) == 0 && qcc_part_fill(plan, &q, NULL) == 0);
    qcc_ledger *l = NULL;
    char err[512] = "";
    CHECK(qcc_ledger_open_part(&l, path, plan, &p, err, sizeof err) == 0, "%s", err);
    qcc_ledger_close(l);
    l = NULL;
    CHECK(qcc_ledger_open_part(&l, path, plan, &p, err, sizeof err) == 0, "%s", err);
    qcc_ledger_close(l);
    expect_refused(plan, "holds part 2/3 of the count, not the whole count");
    l = NULL;
    CHECK(qcc_ledger_open_part(&l, path, plan, &q, err, sizeof err) == -1
          && strstr(err, "holds part 2/3 of the count, not part 1/3"), "%s", err);
    qcc_part other = p;
    other.digest ^= 1;   /* as if this qcount dealt the units otherwise */
    CHECK(qcc_ledger_open_part(&l, path, plan, &other, err, sizeof err) == -1
          && strstr(err, "dealt otherwise"), "%s", err);
    unlink(path);
}

/* Everything above and below, the records read `window` at a time
 * ([ledger windows]; 0: the default window, which holds every record
 * here): a tail, a zero or a corrupt record, a unit twice fall in any
 * window. */
static void check_all(qc_plan *plan, qc_plan *other_n, size_t window)
{
    qcc_ledger_set_window(window);
    const size_t units = qc_plan_unit_count(plan);
    const size_t hs = QCC_LEDGER_HEADER_SIZE, rs = QCC_LEDGER_RECORD_SIZE;
    CHECK(units >= 8);
    check_old_format(plan);
    check_new_format(plan);
    check_part(plan);

    /* a new ledger is a header and nothing else */
    qcc_ledger *l = open_ok(plan);
    CHECK(qcc_ledger_done_count(l) == 0);
    for (size_t u = 0; u < 5; u++) {
        qc_tally t = tally_of(u * 2);
        CHECK(qcc_ledger_record(l, u * 2, &t) == 0);
    }
    qc_tally dup = tally_of(2);
    CHECK(qcc_ledger_record(l, 2, &dup) == -1);          /* twice: refused */
    CHECK(qcc_ledger_record(l, units, &dup) == -1);      /* out of range */
    /* a second run on the same ledger is refused while this one holds it */
    expect_refused(plan, "in use");
    qcc_ledger_close(l);
    size_t len;
    unsigned char *good = slurp(path, &len);
    CHECK(len == hs + 5 * rs);

    /* everything comes back */
    l = open_ok(plan);
    CHECK(qcc_ledger_done_count(l) == 5);
    for (size_t u = 0; u < units; u++) {
        qc_tally t, want = tally_of(u);
        int done = u % 2 == 0 && u < 10;
        CHECK(qcc_ledger_is_done(l, u) == done);
        CHECK(qcc_ledger_get(l, u, &t) == (done ? 0 : -1));
        if (done)
            CHECK(t.solutions == want.solutions && t.steps == want.steps);
    }
    qcc_ledger_close(l);

    /* a torn tail: tolerated, cut at the next append */
    unsigned char *buf = malloc(len + 2 * rs);
    memcpy(buf, good, len);
    memcpy(buf + len, good + hs, 17);
    spit(path, buf, len + 17);
    l = open_ok(plan);
    CHECK(qcc_ledger_done_count(l) == 5);
    qc_tally t1 = tally_of(1);
    CHECK(qcc_ledger_record(l, 1, &t1) == 0);
    qcc_ledger_close(l);
    size_t len2;
    unsigned char *now = slurp(path, &len2);
    CHECK(len2 == len + rs);
    free(now);
    l = open_ok(plan);
    CHECK(qcc_ledger_done_count(l) == 6 && qcc_ledger_is_done(l, 1));
    qcc_ledger_close(l);

    /* a corrupt last record: that unit is not done, the others are */
    memcpy(buf, good, len);
    buf[len - 3] ^= 0x40;
    spit(path, buf, len);
    l = open_ok(plan);
    CHECK(qcc_ledger_done_count(l) == 4 && !qcc_ledger_is_done(l, 8));
    qc_tally t8 = tally_of(8);
    CHECK(qcc_ledger_record(l, 8, &t8) == 0);
    qcc_ledger_close(l);
    l = open_ok(plan);
    CHECK(qcc_ledger_done_count(l) == 5 && qcc_ledger_is_done(l, 8));
    qcc_ledger_close(l);

    /* an all-zero record in the middle (an unwritten block): skipped */
    memcpy(buf, good, len);
    memset(buf + hs + rs, 0, rs);
    spit(path, buf, len);
    l = open_ok(plan);
    CHECK(qcc_ledger_done_count(l) == 4 && !qcc_ledger_is_done(l, 2));
    qcc_ledger_close(l);

    /* a corrupted middle record: refused */
    memcpy(buf, good, len);
    buf[hs + rs + 9] ^= 0x01;
    spit(path, buf, len);
    expect_refused(plan, "record 2 of 5 is corrupted");

    /* a unit recorded twice (with good checksums): refused */
    memcpy(buf, good, len);
    memcpy(buf + len, good + hs, rs);
    spit(path, buf, len + rs);
    expect_refused(plan, "recorded twice");

    /* a foreign ledger (another N) */
    spit(path, good, len);
    expect_refused(other_n, "another count");

    /* another engine, another split: headers with good checksums */
    memcpy(buf, good, len);
    memcpy(buf + 24, "octo\0\0\0", 8);
    buf[20] = 7;
    put_le64(buf + QCC_LEDGER_SUM_AT, qcc_ledger_checksum(0, buf, QCC_LEDGER_SUM_AT));
    spit(path, buf, len);
    expect_refused(plan, "another count (N=10, engine octo)");
    memcpy(buf, good, len);
    buf[50] ^= 0x10;
    put_le64(buf + QCC_LEDGER_SUM_AT, qcc_ledger_checksum(0, buf, QCC_LEDGER_SUM_AT));
    spit(path, buf, len);
    expect_refused(plan, "another work split");

    /* a header with a flipped bit */
    memcpy(buf, good, len);
    buf[44] ^= 0x02;
    spit(path, buf, len);
    expect_refused(plan, "header is corrupted");
    /* ... in the header size: damage, not another format version */
    for (int at = 12; at < 16; at++) {
        memcpy(buf, good, len);
        buf[at] ^= 0x04;
        spit(path, buf, len);
        expect_refused(plan, "header is corrupted (header size");
    }

    /* truncated headers, empty file, not a ledger */
    spit(path, good, 30);
    expect_refused(plan, "truncated header");
    spit(path, good, 5);
    expect_refused(plan, "truncated header");
    spit(path, good, 0);
    expect_refused(plan, "empty file");
    spit(path, (const unsigned char *)"hello, world\n", 13);
    expect_refused(plan, "not a qcount ledger");

    /* a directory where the ledger should be; a missing directory */
    char sub[300];
    snprintf(sub, sizeof sub, "%s/adir", dir);
    mkdir(sub, 0700);
    char saved[256];
    strcpy(saved, path);
    strcpy(path, sub);
    expect_refused(plan, "cannot open");
    snprintf(path, sizeof path, "%s/nodir/run.ckpt", dir);
    expect_refused(plan, "cannot create");
    strcpy(path, saved);

    free(buf);
    free(good);
    rmdir(sub);
    qcc_ledger_set_window(0);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/run.ckpt", dir);
    qc_plan *plan, *other_n;
    if (qc_plan_create(&plan, 10, QC_ENGINE_HALVING) || qc_plan_create(&other_n, 11, QC_ENGINE_HALVING))
        return 1;
    static const size_t windows[] = {0, 2, 1};
    for (size_t w = 0; w < sizeof windows / sizeof *windows; w++)
        check_all(plan, other_n, windows[w]);
    unlink(path);
    rmdir(dir);
    qc_plan_free(plan);
    qc_plan_free(other_n);
    return check_report("ledger");
}
