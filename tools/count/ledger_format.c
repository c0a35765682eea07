/* SPDX-License-Identifier: MIT */
/*
 * ledger_format.c — the ledger's header and records to bytes and back
 * (the format is in ledger.h; the byte order in ledger_format.h).
 */
#include <stdio.h>
#include <string.h>

#include "ledger_format.h"

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
 * u64 | 24 steps u64 | 32 finished, microseconds since 1970 UTC i64 |
 * 40 CPU microseconds u64 (all ones: unknown) | 48 engine[16] | 64 ISA
 * level[16] | 80 host[40] | 120 checksum of bytes 0..119 seeded with the
 * plan fingerprint.  Version 1: bytes 0..31 the same, 32 checksum of
 * bytes 0..31.  The strings are cut to leave a NUL. */
static void encode_tally(uint64_t unit, const qc_tally *t, unsigned char *buf)
{
    put64(buf, unit);
    put64(buf + 8, (uint64_t)t->solutions);
    put64(buf + 16, (uint64_t)(t->solutions >> 64));
    put64(buf + 24, t->steps);
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

/* ---- decoding -------------------------------------------------------- */

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

void qcc_ledger_get_string(char *out, size_t size, const unsigned char *p)
{
    memcpy(out, p, size - 1);
    out[size - 1] = '\0';
    for (char *c = out; *c; c++)
        if (*c < 0x21 || *c > 0x7e)
            *c = '?';
}

int qcc_ledger_parse_header(const unsigned char *buf, size_t len, qcc_ledger_header *h,
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
    qcc_ledger_get_string(h->engine, sizeof h->engine, buf + 24);
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

qc_tally qcc_ledger_get_tally(const unsigned char *r)
{
    return (qc_tally){.solutions = (qc_u128)get64(r + 8) | (qc_u128)get64(r + 16) << 64,
                      .steps = get64(r + 24)};
}
