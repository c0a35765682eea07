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
 * qct_ledger_record returns, so a killed process loses nothing; a flusher
 * thread fdatasync()s at most QCT_LEDGER_SYNC_SECONDS later (group
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

struct qct_ledger {
    int fd;
    char *path;
    size_t units;
    uint64_t fingerprint;
    unsigned char *done;     /* done[u]: unit u has a good record        */
    qc_tally *tallies;       /* its tally, when done                     */
    size_t done_count;
    off_t end;               /* where the next record goes               */
    off_t file_size;         /* > end while a damaged tail is still there */
    int dirty;               /* records written since the last sync (atomic) */
    /* the flusher: a thread that syncs what was written, every
     * QCT_LEDGER_SYNC_SECONDS, so that appends never wait for the disk and
     * no record stays unsynced longer, however long the next unit takes */
    pthread_t flusher;
    int have_flusher;
    int stopping;            /* under lock */
    pthread_mutex_t lock;
    pthread_cond_t wake;
};

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
uint64_t qct_ledger_checksum(uint64_t seed, const unsigned char *p, size_t len)
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

/* Header: 0 magic[8] | 8 version u32 | 12 header size u32 | 16 N u32 |
 * 20 engine id u32 | 24 engine name[16] | 40 unit count u64 |
 * 48 fingerprint u64 | 56 checksum of bytes 0..55 (seed 0). */
void qct_ledger_encode_header(const qc_plan *plan, unsigned char *buf)
{
    memset(buf, 0, QCT_LEDGER_HEADER_SIZE);
    memcpy(buf, QCT_LEDGER_MAGIC, 8);
    put32(buf + 8, QCT_LEDGER_VERSION);
    put32(buf + 12, QCT_LEDGER_HEADER_SIZE);
    put32(buf + 16, (uint32_t)qc_plan_n(plan));
    put32(buf + 20, (uint32_t)qc_plan_engine(plan));
    const char *name = qc_engine_name(qc_plan_engine(plan));
    strncpy((char *)buf + 24, name ? name : "", 15);
    put64(buf + 40, (uint64_t)qc_plan_unit_count(plan));
    put64(buf + 48, qc_plan_fingerprint(plan));
    put64(buf + 56, qct_ledger_checksum(0, buf, 56));
}

/* Record: 0 unit u64 | 8 solutions low u64 | 16 solutions high u64 |
 * 24 placements u64 | 32 checksum of bytes 0..31 seeded with the plan
 * fingerprint. */
void qct_ledger_encode_record(uint64_t fingerprint, uint64_t unit, const qc_tally *t,
                              unsigned char *buf)
{
    put64(buf, unit);
    put64(buf + 8, (uint64_t)t->solutions);
    put64(buf + 16, (uint64_t)(t->solutions >> 64));
    put64(buf + 24, t->placements);
    put64(buf + 32, qct_ledger_checksum(fingerprint, buf, 32));
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

/* Checks the header in buf against plan; fills l's index from the
 * records.  Pure: no I/O.  On failure, err names the problem (the caller
 * prefixes the file name). */
static int ledger_parse(qct_ledger *l, const unsigned char *buf, size_t len,
                        const qc_plan *plan, char *err, size_t errlen)
{
    const size_t hs = QCT_LEDGER_HEADER_SIZE, rs = QCT_LEDGER_RECORD_SIZE;
    if (len < 8 || memcmp(buf, QCT_LEDGER_MAGIC, 8) != 0) {
        if (len == 0)
            FAIL("empty file, not a qcount ledger");
        if (len < 8 && memcmp(buf, QCT_LEDGER_MAGIC, len) == 0)
            FAIL("truncated header (%zu of %u bytes)", len, QCT_LEDGER_HEADER_SIZE);
        FAIL("not a qcount ledger (no QCLEDGER magic)");
    }
    if (len < hs)
        FAIL("truncated header (%zu of %u bytes)", len, QCT_LEDGER_HEADER_SIZE);
    uint32_t version = get32(buf + 8);
    if (version != QCT_LEDGER_VERSION)
        FAIL("ledger format version %u, this qcount reads version %u only",
             (unsigned)version, QCT_LEDGER_VERSION);
    if (get32(buf + 12) != hs)
        FAIL("header is corrupted (header size %u, expected %zu)", (unsigned)get32(buf + 12), hs);
    if (get64(buf + 56) != qct_ledger_checksum(0, buf, 56))
        FAIL("header is corrupted (checksum mismatch)");

    uint32_t n = get32(buf + 16);
    char engine[17] = {0};
    memcpy(engine, buf + 24, 16);
    for (char *p = engine; *p; p++)     /* keep the message one printable line */
        if (*p < 0x21 || *p > 0x7e)
            *p = '?';
    uint64_t units = get64(buf + 40), fingerprint = get64(buf + 48);
    const char *my_engine = qc_engine_name(qc_plan_engine(plan));
    if (n != (uint32_t)qc_plan_n(plan) || get32(buf + 20) != (uint32_t)qc_plan_engine(plan)
        || strcmp(engine, my_engine ? my_engine : "") != 0)
        FAIL("belongs to another count (N=%u, engine %s), not to this one (N=%d, engine %s)",
             (unsigned)n, engine, qc_plan_n(plan), my_engine ? my_engine : "?");
    if (units != (uint64_t)qc_plan_unit_count(plan) || fingerprint != qc_plan_fingerprint(plan))
        FAIL("was written for another work split (%llu units, fingerprint %016llx; this "
             "qcount splits N=%d into %zu units, fingerprint %016llx)",
             (unsigned long long)units, (unsigned long long)fingerprint, qc_plan_n(plan),
             qc_plan_unit_count(plan), (unsigned long long)qc_plan_fingerprint(plan));

    /* Records: good ones are indexed; a bad or zero record is allowed only
     * in the tail (nothing good after it). */
    size_t count = (len - hs) / rs;
    size_t first_bad = 0;        /* 1 + index of the first bad record, 0 if none */
    size_t good_end = hs;        /* byte just after the last good record */
    for (size_t i = 0; i < count; i++) {
        const unsigned char *r = buf + hs + i * rs;
        if (get64(r + 32) != qct_ledger_checksum(fingerprint, r, 32)) {
            if (!all_zero(r, rs) && !first_bad)
                first_bad = i + 1;
            continue;
        }
        if (first_bad)
            FAIL("record %zu of %zu is corrupted (checksum mismatch)", first_bad, count);
        uint64_t unit = get64(r);
        if (unit >= units)
            FAIL("record %zu of %zu names unit %llu, past the %llu units", i + 1, count,
                 (unsigned long long)unit, (unsigned long long)units);
        if (l->done[unit])
            FAIL("unit %llu is recorded twice (record %zu of %zu)", (unsigned long long)unit,
                 i + 1, count);
        l->done[unit] = 1;
        l->tallies[unit].solutions = (qc_u128)get64(r + 8) | (qc_u128)get64(r + 16) << 64;
        l->tallies[unit].placements = get64(r + 24);
        l->done_count++;
        good_end = hs + (i + 1) * rs;
    }
    /* Zero records before the last good one stay (they are skipped); the
     * damaged tail after it goes at the first append. */
    l->end = (off_t)good_end;
    l->file_size = (off_t)len;
    return 0;
}

#undef FAIL
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* Reads the whole of fd into a fresh buffer. */
static unsigned char *read_all(int fd, size_t size, size_t *got)
{
    unsigned char *buf = malloc(size ? size : 1);
    if (!buf)
        return NULL;
    size_t at = 0;
    while (at < size) {
        ssize_t k = pread(fd, buf + at, size - at, (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        at += (size_t)k;
    }
    *got = at;
    return buf;
}

/* Creates path holding just the header: written to a temporary file in the
 * same directory, synced, then link()ed to path (fails if path exists). */
static int create_ledger(const char *path, const qc_plan *plan, char *err, size_t errlen)
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
    unsigned char header[QCT_LEDGER_HEADER_SIZE];
    qct_ledger_encode_header(plan, header);
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

int qct_ledger_open(qct_ledger **out, const char *path, const qc_plan *plan, char *err, size_t errlen)
{
    *out = NULL;
    unsigned char *buf = NULL;
    qct_ledger *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "ledger '%s': out of memory", path);
        return -1;
    }
    l->fd = -1;
    l->units = qc_plan_unit_count(plan);
    l->fingerprint = qc_plan_fingerprint(plan);
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
        if (create_ledger(path, plan, err, errlen) != 0)
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
    qct_ledger_sweep(path);
    size_t len = 0;
    buf = read_all(l->fd, (size_t)st.st_size, &len);
    if (!buf)
        FAIL("ledger '%s': out of memory reading it", path);
    if (len != (size_t)st.st_size)
        FAIL("ledger '%s': cannot read it all (%zu of %lld bytes)", path, len,
             (long long)st.st_size);
    char why[200];
    if (ledger_parse(l, buf, len, plan, why, sizeof why) != 0)
        FAIL("ledger '%s': %s", path, why);
    free(buf);
    pthread_mutex_init(&l->lock, NULL);
    pthread_cond_init(&l->wake, NULL);
    l->have_flusher = pthread_create(&l->flusher, NULL, flush_loop, l) == 0;
    *out = l;
    return 0;
fail:
    qc_quote_in_place(err, errlen);   /* one line, even if the path holds a newline */
    free(buf);
    if (l->fd >= 0)
        close(l->fd);   /* also drops the lock */
    free(l->path);
    free(l->done);
    free(l->tallies);
    free(l);
    return -1;
}

int qct_ledger_is_done(const qct_ledger *l, size_t unit)
{
    return unit < l->units && l->done[unit];
}

int qct_ledger_get(const qct_ledger *l, size_t unit, qc_tally *out)
{
    if (!qct_ledger_is_done(l, unit))
        return -1;
    *out = l->tallies[unit];
    return 0;
}

size_t qct_ledger_done_count(const qct_ledger *l)
{
    return l->done_count;
}

/* ---- writing --------------------------------------------------------- */

int qct_ledger_sync(qct_ledger *l)
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

/* The flusher thread: qct_ledger_sync every QCT_LEDGER_SYNC_SECONDS until
 * close.  Only l->fd and l->dirty are shared with the appending thread;
 * pwrite and fdatasync on one descriptor may run at once. */
static void *flush_loop(void *arg)
{
    qct_ledger *l = arg;
    pthread_mutex_lock(&l->lock);
    while (!l->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)(QCT_LEDGER_SYNC_SECONDS * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&l->wake, &l->lock, &until);
        if (!l->stopping) {
            pthread_mutex_unlock(&l->lock);
            qct_ledger_sync(l);      /* an error shows again at close */
            pthread_mutex_lock(&l->lock);
        }
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

int qct_ledger_record(qct_ledger *l, size_t unit, const qc_tally *t)
{
    if (unit >= l->units || l->done[unit]) {
        errno = EINVAL;
        return -1;
    }
    if (l->file_size > l->end) {
        /* first append after a crash: cut the damaged tail, durably,
         * before anything goes after it */
        if (ftruncate(l->fd, l->end) != 0 || fdatasync(l->fd) != 0)
            return -1;
        l->file_size = l->end;
    }
    unsigned char rec[QCT_LEDGER_RECORD_SIZE];
    qct_ledger_encode_record(l->fingerprint, unit, t, rec);
    size_t at = 0;
    while (at < sizeof rec) {
        ssize_t k = pwrite(l->fd, rec + at, sizeof rec - at, l->end + (off_t)at);
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
    l->end += (off_t)sizeof rec;
    l->file_size = l->end;
    l->done[unit] = 1;
    l->tallies[unit] = *t;
    l->done_count++;
    __atomic_store_n(&l->dirty, 1, __ATOMIC_RELEASE);
    /* group commit: the flusher syncs it within QCT_LEDGER_SYNC_SECONDS
     * (without a flusher thread, every record is synced here) */
    return l->have_flusher ? 0 : qct_ledger_sync(l);
}

void qct_ledger_close(qct_ledger *l)
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
    qct_ledger_sync(l);
    close(l->fd);
    free(l->path);
    free(l->done);
    free(l->tallies);
    free(l);
}
