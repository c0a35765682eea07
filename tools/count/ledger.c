/* SPDX-License-Identifier: MIT */
/*
 * ledger.c — the checkpoint ledger (format in ledger.h).
 *
 * Crash model.  The file only ever grows by whole records written with one
 * pwrite() each at its end, and a new ledger appears under its name only
 * once its header is on disk (written to a temporary file, fsynced, then
 * link()ed into place, which also refuses to clobber a file that appeared
 * meanwhile).  So after any crash the file is: a good header, good records,
 * and possibly a damaged tail made of
 *   - a partial record (the process or the machine died mid-write),
 *   - a last record whose checksum fails (its blocks were not all written),
 *   - all-zero records (blocks allocated but never written before a power
 *     loss; a real record is never all zero, its checksum is seeded).
 * All of those are "not done": the unit is redone.  A bad record FOLLOWED
 * by a good one cannot come from a crash, so it is reported as corruption.
 *
 * Opening never writes: a refused ledger is left byte-for-byte as it was,
 * and even an accepted one is only touched on the first append, which
 * first truncates a damaged tail.  An exclusive flock() keeps two runs
 * from appending to one ledger.
 *
 * Durability: a record is in the kernel's page cache when
 * qcc_ledger_record returns, so a killed process loses nothing; a flusher
 * thread fdatasync()s at most QCC_LEDGER_SYNC_SECONDS later (group
 * commit), so a power loss or OS crash loses at most the records of the
 * last ~0.1 s, which are then redone.  (Measured on this machine's ext4:
 * one fdatasync per record costs 0.2-1.1 ms, 2-11 s for N=16's 9844 units;
 * group commit 16 ms in all.)
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ledger.h"
#include "quote.h"

typedef struct narrow_tally {
    uint64_t solutions, placements;
} narrow_tally;

typedef struct wide_tally {
    size_t unit;
    qc_u128 solutions;
} wide_tally;

struct qcc_ledger {
    int fd;
    char *path;
    size_t units;
    uint64_t fingerprint;
    unsigned version;        /* the file's format: records are written in it */
    char host[40];           /* this machine's name, for the records' log */
    char engine[16];         /* the plan's engine's name, likewise */
    /* [narrow tallies] what a resumed run holds a unit: 17 bytes, not 33
     * (N=28: 40 million units).  done[u]: 0 to do, 1 done, 2 done with
     * solutions past 64 bits, kept in wide; tallies[u] its solutions' low
     * 64 bits and its placements (64 bits in a record too). */
    unsigned char *done;
    narrow_tally *tallies;
    wide_tally *wide;        /* the rare units of done 2, in no order    */
    size_t wide_count, wide_room;
    size_t done_count;
    off_t end;               /* where the next record goes               */
    off_t file_size;         /* > end while a damaged tail is still there */
    int dirty;               /* records written since the last sync (atomic) */
    /* the flusher: a thread that syncs what was written, every
     * QCC_LEDGER_SYNC_SECONDS, so that appends never wait for the disk and
     * no record stays unsynced longer, however long the next unit takes */
    pthread_t flusher;
    int have_flusher;
    int stopping;            /* under lock */
    pthread_mutex_t lock;
    pthread_cond_t wake;
};

/* [narrow tallies] Room in the wide list for tally t if it needs it: 0,
 * or -1 out of memory. */
static int room_for(qcc_ledger *l, const qc_tally *t)
{
    if ((uint64_t)(t->solutions >> 64) == 0 || l->wide_count < l->wide_room)
        return 0;
    const size_t room = l->wide_room ? 2 * l->wide_room : 16;
    wide_tally *w = realloc(l->wide, room * sizeof *w);
    if (!w)
        return -1;
    l->wide = w;
    l->wide_room = room;
    return 0;
}

/* [narrow tallies] Unit `unit`'s tally kept as done: 0, or -1 out of
 * memory (nothing kept). */
static int keep_tally(qcc_ledger *l, size_t unit, const qc_tally *t)
{
    const int wide = (uint64_t)(t->solutions >> 64) != 0;
    if (room_for(l, t) != 0)
        return -1;
    if (wide)
        l->wide[l->wide_count++] = (wide_tally){unit, t->solutions};
    l->tallies[unit] = (narrow_tally){(uint64_t)t->solutions, (uint64_t)t->placements};
    l->done[unit] = wide ? 2 : 1;
    l->done_count++;
    return 0;
}

/* ---- encoding -------------------------------------------------------- */

/* [byte order] Every field is written and read a byte at a time, least
 * significant first: the file is little-endian whatever the host, and the
 * same file reads on any machine (tests/tools/test_ledger.c pins the bytes). */

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* A 64-bit FNV-1a over the bytes, finished with a murmur-style mix so
 * that every input bit reaches every output bit. */
uint64_t qcc_ledger_checksum(uint64_t seed, const unsigned char *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL ^ seed;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

/* s into a field of size bytes, cut to leave at least one NUL (the
 * field is zeroed before). */
static void put_string(unsigned char *field, const char *s, size_t size)
{
    memcpy(field, s, strnlen(s, size - 1));
}

/* Header, version 2: 0 magic[8] | 8 version u32 | 12 header size u32 |
 * 16 N u32 | 20 engine id u32 | 24 engine name[16] | 40 unit count u64 |
 * 48 fingerprint u64 | 56 part K u32 | 60 part M u32 (both 0: the whole
 * plan) | 64 the part's unit count u64 | 72 its digest u64 (part.h) |
 * 80 plan profile u32 (0: N's own; qcount.h, [plan profiles]) | 84..119
 * zero | 120 checksum of bytes 0..119 (seed 0).
 * Version 1: bytes 0..55 the same, 56 checksum of bytes 0..55. */
static void encode_header_start(const qc_plan *plan, unsigned version, unsigned size,
                                unsigned char *buf)
{
    memset(buf, 0, size);
    memcpy(buf, QCC_LEDGER_MAGIC, 8);
    put32(buf + 8, version);
    put32(buf + 12, size);
    put32(buf + 16, (uint32_t)qc_plan_n(plan));
    put32(buf + 20, (uint32_t)qc_plan_engine(plan));
    const char *name = qc_engine_name(qc_plan_engine(plan));
    strncpy((char *)buf + 24, name ? name : "", 15);
    put64(buf + 40, (uint64_t)qc_plan_unit_count(plan));
    put64(buf + 48, qc_plan_fingerprint(plan));
}

void qcc_ledger_encode_header(const qc_plan *plan, const qcc_part *part, unsigned char *buf)
{
    encode_header_start(plan, QCC_LEDGER_VERSION, QCC_LEDGER_HEADER_SIZE, buf);
    if (part && part->count) {
        put32(buf + 56, part->index);
        put32(buf + 60, part->count);
        put64(buf + 64, part->units);
        put64(buf + 72, part->digest);
    }
    const int profile = qc_plan_profile(plan);
    if (profile && profile != qc_plan_n(plan))
        put32(buf + 80, (uint32_t)profile);
    put64(buf + QCC_LEDGER_SUM_AT, qcc_ledger_checksum(0, buf, QCC_LEDGER_SUM_AT));
}

void qcc_ledger_encode_header_v1(const qc_plan *plan, unsigned char *buf)
{
    encode_header_start(plan, 1, QCC_LEDGER_V1_HEADER_SIZE, buf);
    put64(buf + QCC_LEDGER_V1_HEADER_SUM_AT, qcc_ledger_checksum(0, buf, QCC_LEDGER_V1_HEADER_SUM_AT));
}

/* Record, version 2: 0 unit u64 | 8 solutions low u64 | 16 solutions high
 * u64 | 24 placements u64 | 32 finished, microseconds since 1970 UTC i64 |
 * 40 CPU microseconds u64 (all ones: unknown) | 48 engine[16] | 64 ISA
 * level[16] | 80 host[40] | 120 checksum of bytes 0..119 seeded with the
 * plan fingerprint.  Version 1: bytes 0..31 the same, 32 checksum of
 * bytes 0..31.  The strings are cut to leave a NUL. */
static void encode_tally(uint64_t unit, const qc_tally *t, unsigned char *buf)
{
    put64(buf, unit);
    put64(buf + 8, (uint64_t)t->solutions);
    put64(buf + 16, (uint64_t)(t->solutions >> 64));
    put64(buf + 24, t->placements);
}

void qcc_ledger_encode_record(uint64_t fingerprint, uint64_t unit, const qc_tally *t,
                              const qcc_unit_log *log, unsigned char *buf)
{
    memset(buf, 0, QCC_LEDGER_RECORD_SIZE);
    encode_tally(unit, t, buf);
    put64(buf + 40, UINT64_MAX);
    if (log) {
        put64(buf + 32, (uint64_t)log->finished_us);
        if (log->cpu_seconds >= 0)
            put64(buf + 40, (uint64_t)(log->cpu_seconds * 1e6 + 0.5));
        put_string(buf + 48, log->engine, 16);
        put_string(buf + 64, log->isa, 16);
        put_string(buf + 80, log->host, 40);
    }
    put64(buf + QCC_LEDGER_SUM_AT, qcc_ledger_checksum(fingerprint, buf, QCC_LEDGER_SUM_AT));
}

void qcc_ledger_encode_record_v1(uint64_t fingerprint, uint64_t unit, const qc_tally *t,
                                 unsigned char *buf)
{
    encode_tally(unit, t, buf);
    put64(buf + QCC_LEDGER_V1_RECORD_SUM_AT,
          qcc_ledger_checksum(fingerprint, buf, QCC_LEDGER_V1_RECORD_SUM_AT));
}

static void *flush_loop(void *arg);

/* ---- reading --------------------------------------------------------- */

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int all_zero(const unsigned char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (p[i])
            return 0;
    return 1;
}

/* A string field into out (size bytes, from size - 1 bytes of the
 * field), one printable line: other bytes as '?'. */
static void get_string(char *out, size_t size, const unsigned char *p)
{
    memcpy(out, p, size - 1);
    out[size - 1] = '\0';
    for (char *c = out; *c; c++)
        if (*c < 0x21 || *c > 0x7e)
            *c = '?';
}

/* The header at the start of buf into *h.  Pure: no I/O.  On failure,
 * err names the problem (the caller prefixes the file name). */
static int parse_header(const unsigned char *buf, size_t len, qcc_ledger_header *h,
                        char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    if (len < 8 || memcmp(buf, QCC_LEDGER_MAGIC, 8) != 0) {
        if (len == 0)
            FAIL("empty file, not a qcount ledger");
        if (len < 8 && memcmp(buf, QCC_LEDGER_MAGIC, len) == 0)
            FAIL("truncated header (%zu of %u bytes)", len, QCC_LEDGER_HEADER_SIZE);
        FAIL("not a qcount ledger (no QCLEDGER magic)");
    }
    if (len < 16)
        FAIL("truncated header (%zu of %u bytes)", len, QCC_LEDGER_HEADER_SIZE);
    uint32_t version = get32(buf + 8);
    size_t hs = version == 1 ? QCC_LEDGER_V1_HEADER_SIZE : QCC_LEDGER_HEADER_SIZE;
    size_t sum_at = version == 1 ? QCC_LEDGER_V1_HEADER_SUM_AT : QCC_LEDGER_SUM_AT;
    if (version != 1 && version != QCC_LEDGER_VERSION)
        FAIL("ledger format version %u, this qcount reads versions 1 to %u",
             (unsigned)version, QCC_LEDGER_VERSION);
    if (len < hs)
        FAIL("truncated header (%zu of %zu bytes)", len, hs);
    if (get32(buf + 12) != hs)
        FAIL("header is corrupted (header size %u, expected %zu)", (unsigned)get32(buf + 12), hs);
    if (get64(buf + sum_at) != qcc_ledger_checksum(0, buf, sum_at))
        FAIL("header is corrupted (checksum mismatch)");
    h->version = version;
    h->n = (int)get32(buf + 16);
    h->engine_id = get32(buf + 20);
    get_string(h->engine, sizeof h->engine, buf + 24);
    h->units = get64(buf + 40);
    h->fingerprint = get64(buf + 48);
    if (version >= 2) {
        h->part.index = get32(buf + 56);
        h->part.count = get32(buf + 60);
        h->part.units = get64(buf + 64);
        h->part.digest = get64(buf + 72);
        h->profile = (int)get32(buf + 80);
        if (h->profile > QC_N_MAX)
            FAIL("header is corrupted (plan profile %u)", (unsigned)get32(buf + 80));
        if (h->part.index > h->part.count || (h->part.count && !h->part.index)
            || h->part.count > QCC_PART_MAX)
            FAIL("header is corrupted (part %u/%u)", (unsigned)h->part.index,
                 (unsigned)h->part.count);
    }
    return 0;
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

/* Whether the ledger with header h is the one for part: 0 or -1 (err). */
static int check_part(const qcc_ledger_header *h, const qcc_part *part, char *err, size_t errlen)
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

/* Takes the good record r (its unit already checked against the units). */
typedef int (*take_fn)(void *ctx, const unsigned char *r, uint64_t unit, const qcc_ledger_header *h);

/* [ledger windows] Where a reading of the records stands: how many the
 * file holds, and 1 + the index of the first bad one (0 if none yet). */
typedef struct records_seen {
    size_t count, first_bad;
} records_seen;

/* Records i0 .. i0+n-1 of the file, at buf: good ones go to take (which
 * returns -1 for a unit it already has); a bad or zero record is allowed
 * only in the tail (nothing good after it).  *good_end: the byte just
 * after the last good record so far. */
static int parse_records(const unsigned char *buf, size_t i0, size_t n,
                         const qcc_ledger_header *h, take_fn take, void *ctx, records_seen *seen,
                         size_t *good_end, char *err, size_t errlen)
{
    const int v1 = h->version == 1;
    const size_t hs = v1 ? QCC_LEDGER_V1_HEADER_SIZE : QCC_LEDGER_HEADER_SIZE;
    const size_t rs = v1 ? QCC_LEDGER_V1_RECORD_SIZE : QCC_LEDGER_RECORD_SIZE;
    const size_t sum_at = v1 ? QCC_LEDGER_V1_RECORD_SUM_AT : QCC_LEDGER_SUM_AT;
    const size_t count = seen->count;
    for (size_t k = 0; k < n; k++) {
        const size_t i = i0 + k;
        const unsigned char *r = buf + k * rs;
        if (get64(r + sum_at) != qcc_ledger_checksum(h->fingerprint, r, sum_at)) {
            if (!all_zero(r, rs) && !seen->first_bad)
                seen->first_bad = i + 1;
            continue;
        }
        if (seen->first_bad)
            FAIL("record %zu of %zu is corrupted (checksum mismatch)", seen->first_bad, count);
        uint64_t unit = get64(r);
        if (unit >= h->units)
            FAIL("record %zu of %zu names unit %llu, past the %llu units", i + 1, count,
                 (unsigned long long)unit, (unsigned long long)h->units);
        const int took = take(ctx, r, unit, h);
        if (took == -2)
            FAIL("out of memory at record %zu of %zu", i + 1, count);
        if (took != 0)
            FAIL("unit %llu is recorded twice (record %zu of %zu)", (unsigned long long)unit,
                 i + 1, count);
        *good_end = hs + (i + 1) * rs;
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

/* [ledger windows] The records of the len-byte file fd whose header is h,
 * read a window of whole records at a time (never the whole file: a
 * ledger of N=28 holds 40.1 million records, 5.1 GB), into take as
 * parse_records says.  The window's memory is its own, freed here. */
static int read_records(int fd, size_t len, const qcc_ledger_header *h, take_fn take, void *ctx,
                        size_t *good_end, char *err, size_t errlen)
{
    const size_t hs = h->version == 1 ? QCC_LEDGER_V1_HEADER_SIZE : QCC_LEDGER_HEADER_SIZE;
    const size_t rs = h->version == 1 ? QCC_LEDGER_V1_RECORD_SIZE : QCC_LEDGER_RECORD_SIZE;
    records_seen seen = {.count = (len - hs) / rs};
    const size_t window = seen.count < window_records ? seen.count : window_records;
    unsigned char *buf = malloc(window ? window * rs : 1);
    *good_end = hs;
    if (!buf)
        FAIL("out of memory reading it");
    for (size_t i0 = 0; i0 < seen.count; i0 += window) {
        const size_t n = seen.count - i0 < window ? seen.count - i0 : window;
        if (read_at(fd, buf, n * rs, (off_t)(hs + i0 * rs)) != 0) {
            snprintf(err, errlen, "cannot read it all (%s)",
                     errno ? strerror(errno) : "it ended early");
            free(buf);
            return -1;
        }
        if (parse_records(buf, i0, n, h, take, ctx, &seen, good_end, err, errlen) != 0) {
            free(buf);
            return -1;
        }
    }
    free(buf);
    return 0;
}

/* The header of the len-byte file fd into *h, as parse_header. */
static int read_header(int fd, size_t len, qcc_ledger_header *h, char *err, size_t errlen)
{
    unsigned char buf[QCC_LEDGER_HEADER_SIZE];
    const size_t n = len < sizeof buf ? len : sizeof buf;
    if (read_at(fd, buf, n, 0) != 0)
        FAIL("cannot read it: %s", errno ? strerror(errno) : "it ended early");
    return parse_header(buf, n, h, err, errlen);
}

static qc_tally get_tally(const unsigned char *r)
{
    return (qc_tally){.solutions = (qc_u128)get64(r + 8) | (qc_u128)get64(r + 16) << 64,
                      .placements = get64(r + 24)};
}

static int take_into_ledger(void *ctx, const unsigned char *r, uint64_t unit,
                            const qcc_ledger_header *h)
{
    (void)h;
    qcc_ledger *l = ctx;
    if (l->done[unit])
        return -1;
    const qc_tally t = get_tally(r);
    return keep_tally(l, unit, &t) == 0 ? 0 : -2;
}

/* Checks the len-byte ledger fd against plan and part; fills l's index
 * from the records.  On failure, err names the problem (the caller
 * prefixes the file name). */
static int ledger_parse(qcc_ledger *l, int fd, size_t len, const qc_plan *plan,
                        const qcc_part *part, char *err, size_t errlen)
{
    qcc_ledger_header h;
    if (read_header(fd, len, &h, err, errlen) != 0
        || qcc_ledger_check_plan(&h, plan, err, errlen) != 0
        || check_part(&h, part, err, errlen) != 0)
        return -1;
    size_t good_end;
    if (read_records(fd, len, &h, take_into_ledger, l, &good_end, err, errlen) != 0)
        return -1;
    /* Zero records before the last good one stay (they are skipped); the
     * damaged tail after it goes at the first append. */
    l->version = h.version;
    l->end = (off_t)good_end;
    l->file_size = (off_t)len;
    return 0;
}

#undef FAIL
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* Creates path holding just the header: written to a temporary file in the
 * same directory, synced, then link()ed to path (fails if path exists). */
static int create_ledger(const char *path, const qc_plan *plan, const qcc_part *part,
                         char *err, size_t errlen)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32), *dircopy = strdup(path);
    int fd = -1;
    if (!tmp || !dircopy) {
        snprintf(err, errlen, "ledger '%s': out of memory", path);
        goto fail;
    }
    /* a name of our own beside path (pid), created like any new file
     * (mode 0666 less the umask), O_EXCL: never someone else's */
    snprintf(tmp, plen + 32, "%s.new-%ld", path, (long)getpid());
    unlink(tmp);   /* left by a crashed run of a process with our pid */
    fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        FAIL("ledger '%s': cannot create: %s", path, strerror(errno));
    unsigned char header[QCC_LEDGER_HEADER_SIZE];
    qcc_ledger_encode_header(plan, part, header);
    if (pwrite(fd, header, sizeof header, 0) != (ssize_t)sizeof header || fsync(fd) != 0) {
        int e = errno;
        unlink(tmp);
        FAIL("ledger '%s': cannot write: %s", path, strerror(e));
    }
    close(fd);
    fd = -1;
    if (link(tmp, path) != 0 && errno != EEXIST) {
        int e = errno;
        unlink(tmp);
        FAIL("ledger '%s': cannot create: %s", path, strerror(e));
    }
    unlink(tmp);
    /* make the new name durable too */
    int dfd = open(dirname(dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(tmp);
    free(dircopy);
    return 0;
fail:
    if (fd >= 0)
        close(fd);
    free(tmp);
    free(dircopy);
    return -1;
}

int qcc_ledger_open(qcc_ledger **out, const char *path, const qc_plan *plan, char *err, size_t errlen)
{
    const qcc_part whole = {0, 0, 0, 0};
    return qcc_ledger_open_part(out, path, plan, &whole, err, errlen);
}

int qcc_ledger_open_part(qcc_ledger **out, const char *path, const qc_plan *plan,
                         const qcc_part *part, char *err, size_t errlen)
{
    *out = NULL;
    qcc_ledger *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "ledger '%s': out of memory", path);
        return -1;
    }
    l->fd = -1;
    l->units = qc_plan_unit_count(plan);
    l->fingerprint = qc_plan_fingerprint(plan);
    const char *engine = qc_engine_name(qc_plan_engine(plan));
    snprintf(l->engine, sizeof l->engine, "%s", engine ? engine : "?");
    l->path = strdup(path);
    l->done = calloc(l->units ? l->units : 1, 1);
    l->tallies = calloc(l->units ? l->units : 1, sizeof *l->tallies);
    if (!l->path || !l->done || !l->tallies)
        FAIL("ledger '%s': out of memory", path);

    for (int attempt = 0; l->fd < 0; attempt++) {
        l->fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (l->fd >= 0)
            break;
        struct stat link;
        if (errno == ENOENT && lstat(path, &link) == 0 && S_ISLNK(link.st_mode))
            FAIL("ledger '%s': a symbolic link to a missing file (make the file, or give its path)", path);
        if (errno != ENOENT || attempt > 0)
            FAIL("ledger '%s': cannot open for writing: %s", path, strerror(errno));
        if (create_ledger(path, plan, part, err, errlen) != 0)
            goto fail;
    }
    struct stat st;
    if (fstat(l->fd, &st) != 0)
        FAIL("ledger '%s': cannot stat: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        FAIL("ledger '%s': not a regular file, not a qcount ledger", path);
    if (flock(l->fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            FAIL("ledger '%s': in use by another qcount run", path);
        FAIL("ledger '%s': cannot lock: %s", path, strerror(errno));
    }
    qcc_ledger_sweep(path);
    char why[200];
    if (ledger_parse(l, l->fd, (size_t)st.st_size, plan, part, why, sizeof why) != 0)
        FAIL("ledger '%s': %s", path, why);
    if (gethostname(l->host, sizeof l->host - 1) != 0)
        strcpy(l->host, "?");
    l->host[sizeof l->host - 1] = '\0';
    pthread_mutex_init(&l->lock, NULL);
    pthread_cond_init(&l->wake, NULL);
    l->have_flusher = pthread_create(&l->flusher, NULL, flush_loop, l) == 0;
    *out = l;
    return 0;
fail:
    qca_quote_in_place(err, errlen);   /* one line, even if the path holds a newline */
    if (l->fd >= 0)
        close(l->fd);   /* also drops the lock */
    free(l->path);
    free(l->done);
    free(l->tallies);
    free(l->wide);
    free(l);
    return -1;
}

int qcc_ledger_is_done(const qcc_ledger *l, size_t unit)
{
    return unit < l->units && l->done[unit];
}

int qcc_ledger_get(const qcc_ledger *l, size_t unit, qc_tally *out)
{
    if (!qcc_ledger_is_done(l, unit))
        return -1;
    *out = (qc_tally){l->tallies[unit].solutions, l->tallies[unit].placements};
    for (size_t k = 0; l->done[unit] == 2 && k < l->wide_count; k++)
        if (l->wide[k].unit == unit)
            out->solutions = l->wide[k].solutions;
    return 0;
}

size_t qcc_ledger_done_count(const qcc_ledger *l)
{
    return l->done_count;
}

/* ---- writing --------------------------------------------------------- */

int qcc_ledger_sync(qcc_ledger *l)
{
    if (!__atomic_exchange_n(&l->dirty, 0, __ATOMIC_ACQ_REL))
        return 0;
    if (fdatasync(l->fd) != 0) {
        int e = errno;
        __atomic_store_n(&l->dirty, 1, __ATOMIC_RELEASE);   /* try again later */
        errno = e;
        return -1;
    }
    return 0;
}

/* The flusher thread: qcc_ledger_sync every QCC_LEDGER_SYNC_SECONDS until
 * close.  Only l->fd and l->dirty are shared with the appending thread;
 * pwrite and fdatasync on one descriptor may run at once. */
static void *flush_loop(void *arg)
{
    qcc_ledger *l = arg;
    pthread_mutex_lock(&l->lock);
    while (!l->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)(QCC_LEDGER_SYNC_SECONDS * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&l->wake, &l->lock, &until);
        if (!l->stopping) {
            pthread_mutex_unlock(&l->lock);
            qcc_ledger_sync(l);      /* an error shows again at close */
            pthread_mutex_lock(&l->lock);
        }
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

int qcc_ledger_record(qcc_ledger *l, size_t unit, const qc_tally *t)
{
    return qcc_ledger_record_log(l, unit, t, NULL);
}

int qcc_ledger_record_log(qcc_ledger *l, size_t unit, const qc_tally *t, const qcc_unit_log *log)
{
    if (unit >= l->units || l->done[unit]) {
        errno = EINVAL;
        return -1;
    }
    if (room_for(l, t) != 0) {              /* [narrow tallies] before the record */
        errno = ENOMEM;
        return -1;
    }
    if (l->file_size > l->end) {
        /* first append after a crash: cut the damaged tail, durably,
         * before anything goes after it */
        if (ftruncate(l->fd, l->end) != 0 || fdatasync(l->fd) != 0)
            return -1;
        l->file_size = l->end;
    }
    unsigned char rec[QCC_LEDGER_RECORD_SIZE];
    size_t size = QCC_LEDGER_RECORD_SIZE;
    if (l->version == 1) {
        size = QCC_LEDGER_V1_RECORD_SIZE;
        qcc_ledger_encode_record_v1(l->fingerprint, unit, t, rec);
    } else {
        qcc_unit_log mine;
        if (!log) {
            memset(&mine, 0, sizeof mine);
            snprintf(mine.engine, sizeof mine.engine, "%s", l->engine);
            snprintf(mine.isa, sizeof mine.isa, "%s", qc_isa_name());
            mine.cpu_seconds = -1;
            log = &mine;
        }
        qcc_unit_log stamped = *log;
        if (!stamped.host[0])
            memcpy(stamped.host, l->host, sizeof stamped.host);
        if (!stamped.finished_us) {
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            stamped.finished_us = (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
        }
        qcc_ledger_encode_record(l->fingerprint, unit, t, &stamped, rec);
    }
    size_t at = 0;
    while (at < size) {
        ssize_t k = pwrite(l->fd, rec + at, size - at, l->end + (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            int e = k < 0 ? errno : ENOSPC;
            if (at > 0 && ftruncate(l->fd, l->end) != 0)
                l->file_size = l->end + (off_t)at;   /* torn: cut at the next append */
            errno = e;
            return -1;
        }
        at += (size_t)k;
    }
    l->end += (off_t)size;
    l->file_size = l->end;
    keep_tally(l, unit, t);                 /* room made above: cannot fail */
    __atomic_store_n(&l->dirty, 1, __ATOMIC_RELEASE);
    /* group commit: the flusher syncs it within QCC_LEDGER_SYNC_SECONDS
     * (without a flusher thread, every record is synced here) */
    return l->have_flusher ? 0 : qcc_ledger_sync(l);
}

void qcc_ledger_close(qcc_ledger *l)
{
    if (!l)
        return;
    if (l->have_flusher) {
        pthread_mutex_lock(&l->lock);
        l->stopping = 1;
        pthread_cond_signal(&l->wake);
        pthread_mutex_unlock(&l->lock);
        pthread_join(l->flusher, NULL);
    }
    pthread_mutex_destroy(&l->lock);
    pthread_cond_destroy(&l->wake);
    qcc_ledger_sync(l);
    close(l->fd);
    free(l->path);
    free(l->done);
    free(l->tallies);
    free(l->wide);
    free(l);
}

/* ---- reading a ledger as it stands ----------------------------------- */

#undef FAIL
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* What parse_records fills for qcc_ledger_load: the entries, and which
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
    e->tally = get_tally(r);
    e->log.cpu_seconds = -1;
    if (h->version >= 2) {
        e->log.finished_us = (int64_t)get64(r + 32);
        uint64_t cpu = get64(r + 40);
        if (cpu != UINT64_MAX)
            e->log.cpu_seconds = (double)cpu / 1e6;
        get_string(e->log.engine, sizeof e->log.engine, r + 48);
        get_string(e->log.isa, sizeof e->log.isa, r + 64);
        get_string(e->log.host, sizeof e->log.host, r + 80);
    }
    return 0;
}

int qcc_ledger_load(const char *path, qcc_ledger_file **out, char *err, size_t errlen)
{
    *out = NULL;
    load_ctx c = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        FAIL("ledger '%s': cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0)
        FAIL("ledger '%s': cannot stat: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        FAIL("ledger '%s': not a regular file, not a qcount ledger", path);
    const size_t len = (size_t)st.st_size;
    c.f = calloc(1, sizeof *c.f);
    if (!c.f)
        FAIL("ledger '%s': out of memory", path);
    char why[200];
    if (read_header(fd, len, &c.f->header, why, sizeof why) != 0)
        FAIL("ledger '%s': %s", path, why);
    const qcc_ledger_header *h = &c.f->header;
    const size_t hs = h->version == 1 ? QCC_LEDGER_V1_HEADER_SIZE : QCC_LEDGER_HEADER_SIZE;
    const size_t rs = h->version == 1 ? QCC_LEDGER_V1_RECORD_SIZE : QCC_LEDGER_RECORD_SIZE;
    const size_t records = (len - hs) / rs;
    if (h->units > SIZE_MAX / 2)
        FAIL("ledger '%s': header is corrupted (%llu units)", path, (unsigned long long)h->units);
    c.seen = calloc(h->units ? h->units : 1, 1);
    c.f->entries = calloc(records ? records : 1, sizeof *c.f->entries);
    if (!c.seen || !c.f->entries)
        FAIL("ledger '%s': out of memory", path);
    size_t good_end;
    if (read_records(fd, len, h, take_into_file, &c, &good_end, why, sizeof why) != 0)
        FAIL("ledger '%s': %s", path, why);
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
