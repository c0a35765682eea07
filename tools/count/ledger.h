/* SPDX-License-Identifier: MIT */
/*
 * ledger.h — the checkpoint ledger: an append-only file that records each
 * finished work unit of one plan, so that a run killed at any moment can
 * be started again and redo only the units it had not finished, and so
 * that the units' tallies, with who counted them, when and how, can be
 * merged, audited and published (qcount merge, audit, show).
 *
 * The file is a header binding it to one plan and one part of it, then
 * one record per finished unit.  All fields are little-endian.
 *   Version 2 (written now): a 128-byte header (magic, format version,
 *   N, engine, unit count, plan fingerprint, part K/M with its unit count
 *   and digest, checksum), 128-byte records (unit, solutions as two
 *   64-bit halves, steps, when it finished, CPU seconds, engine, ISA
 *   level, host, checksum seeded with the plan fingerprint).
 *   Version 1 (read, and appended to in its own format): a 64-byte header
 *   without the part, 40-byte records without the log.
 * See ledger.c for what a crash can leave behind, ledger_read.c for how it
 * is read back, ledger_format.c for the bytes of each field.
 */
#ifndef QCC_LEDGER_H
#define QCC_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "part.h"
#include "qcount.h"

#define QCC_LEDGER_MAGIC "QCLEDGER"      /* 8 bytes, no terminator in the file */
#define QCC_LEDGER_VERSION 2u            /* the version new ledgers get */
#define QCC_LEDGER_HEADER_SIZE 128u      /* version 2's */
#define QCC_LEDGER_RECORD_SIZE 128u
#define QCC_LEDGER_SUM_AT 120u           /* the checksum's offset, header and record */
#define QCC_LEDGER_V1_HEADER_SIZE 64u    /* version 1's */
#define QCC_LEDGER_V1_RECORD_SIZE 40u
#define QCC_LEDGER_V1_HEADER_SUM_AT 56u
#define QCC_LEDGER_V1_RECORD_SUM_AT 32u

typedef struct qcc_ledger qcc_ledger;

/* The log of one record: who counted the unit, how and when.  Strings end
 * in a NUL; "" and negative or zero numbers: not known (a version 1
 * record knows none of it). */
typedef struct qcc_unit_log {
    char engine[16];          /* the engine's name ("join")            */
    char isa[16];             /* the ISA level it ran at ("avx512")    */
    char host[40];            /* the machine's host name, cut to fit   */
    double cpu_seconds;       /* CPU time the unit took; < 0 unknown   */
    int64_t finished_us;      /* when it finished: microseconds since
                                 1970-01-01 UTC; 0 unknown             */
} qcc_unit_log;

/* Opens the ledger at path for this plan, creating it (header only) if the
 * path does not exist.  An existing ledger is verified: header (magic,
 * format version, N, engine, plan fingerprint, unit count, part) and every
 * record's checksum.  A torn or corrupt LAST record from a crash is
 * tolerated (that unit is simply redone; the first append truncates the
 * torn tail), and so are all-zero records (blocks a crash left unwritten).
 * Anything else wrong (foreign ledger, other N/engine/split/part,
 * corrupted middle record, truncated header, not a ledger, in use by
 * another process) returns -1 with a one-line message naming the file and
 * the problem in err, and the file left byte-for-byte untouched.
 * qcc_ledger_open is for the whole plan; qcc_ledger_open_part for one part
 * (part.h; its units and digest filled by qcc_part_fill), which a ledger
 * created by it records. */
int qcc_ledger_open(qcc_ledger **out, const char *path, const qc_plan *plan, char *err, size_t errlen);
int qcc_ledger_open_part(qcc_ledger **out, const char *path, const qc_plan *plan,
                         const qcc_part *part, char *err, size_t errlen);
int qcc_ledger_is_done(const qcc_ledger *l, size_t unit);
int qcc_ledger_get(const qcc_ledger *l, size_t unit, qc_tally *out);  /* 0 if done, -1 if not */
size_t qcc_ledger_done_count(const qcc_ledger *l);
/* Appends one finished unit's record, with log (NULL: the plan's engine,
 * the running ISA level, this host, CPU time unknown, finished now; a
 * version 1 ledger keeps no log).  Each record is one pwrite() at the
 * end of the file, so a killed process (kill -9) loses nothing that was
 * recorded; a flusher thread of the ledger fdatasync()s within
 * QCC_LEDGER_SYNC_SECONDS (group commit), so a power loss or OS crash can
 * lose the records of about the last 0.1 s (those units are redone), never
 * earlier ones, and the append never waits for the disk.  Not thread-safe:
 * callers serialise.  Returns 0, or -1 with errno set. */
int qcc_ledger_record(qcc_ledger *l, size_t unit, const qc_tally *t);
int qcc_ledger_record_log(qcc_ledger *l, size_t unit, const qc_tally *t, const qcc_unit_log *log);
/* Forces everything recorded so far to disk (fdatasync).  0 or -1 (+errno). */
int qcc_ledger_sync(qcc_ledger *l);
/* Stops the flusher, syncs (as qcc_ledger_sync) and closes; NULL is fine. */
void qcc_ledger_close(qcc_ledger *l);

#define QCC_LEDGER_SYNC_SECONDS 0.1

/* [ledger windows] Opening or loading a ledger reads its records this
 * many at a time (1 MiB of version 2 records), never the whole file.
 * qcc_ledger_set_window(n) sets another count for this process (tests
 * cut windows of a few records); 0 restores this one. */
#define QCC_LEDGER_WINDOW_RECORDS 8192u
void qcc_ledger_set_window(size_t records);

/* Removes the files PATH.new-PID beside path that are older than
 * QCC_LEDGER_STALE_SECONDS: a new ledger is written there first, and a run
 * killed in those milliseconds leaves it behind.  The age, not the PID,
 * says it is stale, since the PID may belong to another machine sharing
 * the directory.  qcc_ledger_open calls it once it holds the ledger. */
void qcc_ledger_sweep(const char *path);
#define QCC_LEDGER_STALE_SECONDS 60

/* ---- reading a ledger as it stands (qcount merge, audit, show) ------ */

/* What a ledger's header says. */
typedef struct qcc_ledger_header {
    unsigned version;
    int n;
    unsigned engine_id;
    char engine[17];          /* printable: other bytes shown as '?' */
    uint64_t units;
    uint64_t fingerprint;
    qcc_part part;            /* whole (0/0) in a version 1 ledger */
    int profile;              /* [plan profiles] the board size whose plan profile the
                               * count took (qc_plan_profile); 0: N's own, as every
                               * version 1 ledger */
} qcc_ledger_header;

/* One good record, in file order. */
typedef struct qcc_ledger_entry {
    uint64_t unit;
    qc_tally tally;
    qcc_unit_log log;
} qcc_ledger_entry;

typedef struct qcc_ledger_file {
    qcc_ledger_header header;
    qcc_ledger_entry *entries;
    size_t count;             /* good records                          */
    size_t damaged_bytes;     /* past the last good record: a partial, bad
                                 or zero tail a crash can leave (redone on
                                 resume); 0 for a ledger written whole   */
    size_t file_bytes;
} qcc_ledger_file;

/* Reads the ledger at path, read-only, without a lock: header and every
 * record, under the same rules as qcc_ledger_open (a damaged tail is
 * noted in damaged_bytes; corruption before a good record, a unit twice or
 * past the units refuse).  Never writes.  0, or -1 with a one-line
 * message naming the file in err. */
int qcc_ledger_load(const char *path, qcc_ledger_file **out, char *err, size_t errlen);
/* Whether h is the header of plan's ledgers: 0, or -1 with the reason
 * (another count, another work split) in err, as qcc_ledger_open says it. */
int qcc_ledger_check_plan(const qcc_ledger_header *h, const qc_plan *plan, char *err, size_t errlen);
void qcc_ledger_file_free(qcc_ledger_file *f);

/* ---- the file format, for tools and tests (ledger_dump, fuzzers) ---- */

/* Writes the header of plan's ledger for part into buf
 * (QCC_LEDGER_HEADER_SIZE); part NULL: the whole plan. */
void qcc_ledger_encode_header(const qc_plan *plan, const qcc_part *part, unsigned char *buf);
/* Writes one record into buf (QCC_LEDGER_RECORD_SIZE); the checksum is
 * seeded with the plan fingerprint, so a record means nothing elsewhere.
 * log NULL: nothing known. */
void qcc_ledger_encode_record(uint64_t fingerprint, uint64_t unit, const qc_tally *t,
                              const qcc_unit_log *log, unsigned char *buf);
/* The same in format version 1 (QCC_LEDGER_V1_HEADER_SIZE and _RECORD_SIZE). */
void qcc_ledger_encode_header_v1(const qc_plan *plan, unsigned char *buf);
void qcc_ledger_encode_record_v1(uint64_t fingerprint, uint64_t unit, const qc_tally *t,
                                 unsigned char *buf);
/* The checksum of len bytes seeded with seed (header: seed 0). */
uint64_t qcc_ledger_checksum(uint64_t seed, const unsigned char *p, size_t len);

#endif
