/* SPDX-License-Identifier: MIT */
/*
 * ledger.h — the checkpoint ledger: an append-only file that records each
 * finished work unit of one plan, so that a run killed at any moment can
 * be started again and redo only the units it had not finished.
 *
 * The file is a 64-byte header binding it to one plan (magic, format
 * version, N, engine, unit count, plan fingerprint, header checksum) and
 * then one 40-byte record per finished unit (unit index, solutions as two
 * 64-bit halves, placements, checksum seeded with the plan fingerprint).
 * All fields are little-endian.  See ledger.c for what a crash can leave
 * behind and how it is read back.
 */
#ifndef QCT_LEDGER_H
#define QCT_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "qcount.h"

#define QCT_LEDGER_MAGIC "QCLEDGER"      /* 8 bytes, no terminator in the file */
#define QCT_LEDGER_VERSION 1u
#define QCT_LEDGER_HEADER_SIZE 64u
#define QCT_LEDGER_RECORD_SIZE 40u

typedef struct qct_ledger qct_ledger;

/* Opens the ledger at path for this plan, creating it (header only) if the
 * path does not exist.  An existing ledger is verified: header (magic,
 * format version, N, engine, plan fingerprint, unit count) and every
 * record's checksum.  A torn or corrupt LAST record from a crash is
 * tolerated (that unit is simply redone; the first append truncates the
 * torn tail), and so are all-zero records (blocks a crash left unwritten).
 * Anything else wrong (foreign ledger, other N/engine/split, corrupted
 * middle record, truncated header, not a ledger, in use by another process)
 * returns -1 with a one-line message naming the file and the problem in
 * err, and the file left byte-for-byte untouched. */
int qct_ledger_open(qct_ledger **out, const char *path, const qc_plan *plan, char *err, size_t errlen);
int qct_ledger_is_done(const qct_ledger *l, size_t unit);
int qct_ledger_get(const qct_ledger *l, size_t unit, qc_tally *out);  /* 0 if done, -1 if not */
size_t qct_ledger_done_count(const qct_ledger *l);
/* Appends one finished unit's record.  Each record is one pwrite() at the
 * end of the file, so a killed process (kill -9) loses nothing that was
 * recorded; a flusher thread of the ledger fdatasync()s within
 * QCT_LEDGER_SYNC_SECONDS (group commit), so a power loss or OS crash can
 * lose the records of about the last 0.1 s (those units are redone), never
 * earlier ones, and the append never waits for the disk.  Not thread-safe:
 * callers serialise.  Returns 0, or -1 with errno set. */
int qct_ledger_record(qct_ledger *l, size_t unit, const qc_tally *t);
/* Forces everything recorded so far to disk (fdatasync).  0 or -1 (+errno). */
int qct_ledger_sync(qct_ledger *l);
/* Stops the flusher, syncs (as qct_ledger_sync) and closes; NULL is fine. */
void qct_ledger_close(qct_ledger *l);

#define QCT_LEDGER_SYNC_SECONDS 0.1

/* Removes the files PATH.new-PID beside path that are older than
 * QCT_LEDGER_STALE_SECONDS: a new ledger is written there first, and a run
 * killed in those milliseconds leaves it behind.  The age, not the PID,
 * says it is stale, since the PID may belong to another machine sharing
 * the directory.  qct_ledger_open calls it once it holds the ledger. */
void qct_ledger_sweep(const char *path);
#define QCT_LEDGER_STALE_SECONDS 60

/* ---- the file format, for tools and tests (ledger_dump, fuzzers) ---- */

/* Writes the header of plan's ledger into buf (QCT_LEDGER_HEADER_SIZE). */
void qct_ledger_encode_header(const qc_plan *plan, unsigned char *buf);
/* Writes one record into buf (QCT_LEDGER_RECORD_SIZE); the checksum is
 * seeded with the plan fingerprint, so a record means nothing elsewhere. */
void qct_ledger_encode_record(uint64_t fingerprint, uint64_t unit, const qc_tally *t,
                              unsigned char *buf);
/* The checksum of len bytes seeded with seed (header: seed 0). */
uint64_t qct_ledger_checksum(uint64_t seed, const unsigned char *p, size_t len);

#endif
