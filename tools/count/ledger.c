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
#include "ledger_format.h"
#include "ledger_read.h"
#include "quote.h"

typedef struct narrow_tally {
    uint64_t solutions, steps;
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
     * 64 bits and its steps (64 bits in a record too). */
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
    l->tallies[unit] = (narrow_tally){(uint64_t)t->solutions, (uint64_t)t->steps};
    l->done[unit] = wide ? 2 : 1;
    l->done_count++;
    return 0;
}

static void *flush_loop(void *arg);

/* ---- opening ---------------------------------------------------------- */

static int take_into_ledger(void *ctx, const unsigned char *r, uint64_t unit,
                            const qcc_ledger_header *h)
{
    (void)h;
    qcc_ledger *l = ctx;
    if (l->done[unit])
        return -1;
    const qc_tally t = qcc_ledger_get_tally(r);
    return keep_tally(l, unit, &t) == 0 ? 0 : -2;
}

/* Checks the len-byte ledger fd against plan and part; fills l's index
 * from the records.  On failure, err names the problem (the caller
 * prefixes the file name). */
static int ledger_parse(qcc_ledger *l, int fd, size_t len, const qc_plan *plan,
                        const qcc_part *part, char *err, size_t errlen)
{
    qcc_ledger_header h;
    if (qcc_ledger_read_header(fd, len, &h, err, errlen) != 0
        || qcc_ledger_check_plan(&h, plan, err, errlen) != 0
        || qcc_ledger_check_part(&h, part, err, errlen) != 0)
        return -1;
    size_t good_end;
    if (qcc_ledger_read_records(fd, len, &h, take_into_ledger, l, &good_end, err, errlen) != 0)
        return -1;
    /* Zero records before the last good one stay (they are skipped); the
     * damaged tail after it goes at the first append. */
    l->version = h.version;
    l->end = (off_t)good_end;
    l->file_size = (off_t)len;
    return 0;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

/* Creates path holding just the header: written to a temporary file in the
 * same directory, synced, then link()ed to path (fails if path exists). */
static int create_ledger(const char *path, const qc_plan *plan, const qcc_part *part,
                         char *err, size_t errlen)
{
    char shown_buf[QCA_PATH_SHOWN + 1];   /* [brief paths] */
    const char *shown = qca_path_brief(path, shown_buf);
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32), *dircopy = strdup(path);
    int fd = -1;
    if (!tmp || !dircopy) {
        snprintf(err, errlen, "ledger '%s': out of memory", shown);
        goto fail;
    }
    /* a name of our own beside path (pid), created like any new file
     * (mode 0666 less the umask), O_EXCL: never someone else's */
    snprintf(tmp, plen + 32, "%s.new-%ld", path, (long)getpid());
    unlink(tmp);   /* left by a crashed run of a process with our pid */
    fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
        FAIL("ledger '%s': cannot create: %s", shown, strerror(errno));
    unsigned char header[QCC_LEDGER_HEADER_SIZE];
    qcc_ledger_encode_header(plan, part, header);
    if (pwrite(fd, header, sizeof header, 0) != (ssize_t)sizeof header || fsync(fd) != 0) {
        int e = errno;
        unlink(tmp);
        FAIL("ledger '%s': cannot write: %s", shown, strerror(e));
    }
    close(fd);
    fd = -1;
    if (link(tmp, path) != 0 && errno != EEXIST) {
        int e = errno;
        unlink(tmp);
        FAIL("ledger '%s': cannot create: %s", shown, strerror(e));
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
    char shown_buf[QCA_PATH_SHOWN + 1];   /* [brief paths] */
    const char *shown = qca_path_brief(path, shown_buf);
    *out = NULL;
    qcc_ledger *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "ledger '%s': out of memory", shown);
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
        FAIL("ledger '%s': out of memory", shown);

    for (int attempt = 0; l->fd < 0; attempt++) {
        l->fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (l->fd >= 0)
            break;
        struct stat link;
        if (errno == ENOENT && lstat(path, &link) == 0 && S_ISLNK(link.st_mode))
            FAIL("ledger '%s': a symbolic link to a missing file (make the file, or give its path)", shown);
        if (errno != ENOENT || attempt > 0)
            FAIL("ledger '%s': cannot open for writing: %s", shown, strerror(errno));
        if (create_ledger(path, plan, part, err, errlen) != 0)
            goto fail;
    }
    struct stat st;
    if (fstat(l->fd, &st) != 0)
        FAIL("ledger '%s': cannot stat: %s", shown, strerror(errno));
    if (!S_ISREG(st.st_mode))
        FAIL("ledger '%s': not a regular file, not a qcount ledger", shown);
    if (flock(l->fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            FAIL("ledger '%s': in use by another qcount run", shown);
        FAIL("ledger '%s': cannot lock: %s", shown, strerror(errno));
    }
    qcc_ledger_sweep(path);
    char why[200];
    if (ledger_parse(l, l->fd, (size_t)st.st_size, plan, part, why, sizeof why) != 0)
        FAIL("ledger '%s': %s", shown, why);
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
    *out = (qc_tally){.solutions = l->tallies[unit].solutions, .steps = l->tallies[unit].steps};
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
