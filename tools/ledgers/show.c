/* SPDX-License-Identifier: MIT */
/*
 * show.c — qcount show: a ledger's records with who counted each unit,
 * how and when, its plan's fingerprint and what it covers, as text or
 * JSON, to publish beside a claimed total (ledger_commands.h).  The
 * records come in unit order; the ledger is checked as merge checks it
 * (plan, checksums), and a damaged tail is reported, not hidden.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ledger_files.h"
#include "ledgers.h"

static const char usage[] = "usage: qcount show [--json] LEDGER";

static const char help[] =
    "usage: qcount show [--json] LEDGER\n"
    "\n"
    "A ledger as it stands, to publish beside a claimed total: its format, N,\n"
    "engine, the plan's fingerprint and units, its part and the part's units, its\n"
    "coverage (and a damaged tail, if any) and the sum of its solutions; then one\n"
    "line per record in unit order: unit, solutions, steps, engine, ISA level,\n"
    "host, CPU seconds and the time it finished (UTC).  Fields a record does not\n"
    "keep are shown as -.  Only reads the ledger.\n"
    "\n"
    "  -j, --json   the same as one JSON object (null for fields not kept)\n"
    "  -h, --help   this text\n"
    "\n"
    "Exit status: 0; 2 for bad input (a corrupt, foreign or unreadable ledger).";

static int by_unit(const void *a, const void *b)
{
    const qcc_ledger_entry *x = a, *y = b;
    return (x->unit > y->unit) - (x->unit < y->unit);
}

/* Whether this qcount deals h's part as the ledger's writer did. */
static int dealt_alike(const qcc_ledger_header *h, const qcc_part *part)
{
    return !h->part.count || (h->part.units == part->units && h->part.digest == part->digest);
}

static void print_text(const qcl_bound *b, const qcc_part *part, qc_u128 sum)
{
    const qcc_ledger_file *f = b->file;
    const qcc_ledger_header *h = &f->header;
    char name[24], s[48];
    printf("ledger       %s\n", b->path);
    printf("format       %u\n", h->version);
    printf("board        N=%d\nengine       %s\n", h->n, h->engine);
    printf("fingerprint  %016llx\n", (unsigned long long)h->fingerprint);
    printf("plan units   %llu\n", (unsigned long long)h->units);
    if (h->profile)     /* [plan profiles] board P's plan, not N's own */
        printf("plan         %d (--plan=%d)\n", h->profile, h->profile);
    printf("part         %s (%llu units)%s\n", qcc_part_name(&h->part, name, sizeof name),
           (unsigned long long)part->units,
           dealt_alike(h, part) ? "" : ", dealt otherwise by the qcount that wrote it");
    printf("coverage     %zu of %llu units%s\n", f->count, (unsigned long long)part->units,
           f->count == part->units ? ", complete" : "");
    if (f->damaged_bytes)
        printf("damaged tail %zu bytes (a run cut off writing; resume it)\n", f->damaged_bytes);
    printf("solutions    %s (the sum of these records)\n", qc_u128_format(sum, s));
    printf("%-8s %20s %16s %-10s %-11s %-20s %10s %s\n", "unit", "solutions", "steps",
           "engine", "isa", "host", "cpu_s", "finished_utc");
    for (size_t i = 0; i < f->count; i++) {
        const qcc_ledger_entry *e = &f->entries[i];
        char p[48], when[40], cpu[32];
        if (e->log.cpu_seconds >= 0)
            snprintf(cpu, sizeof cpu, "%.6f", e->log.cpu_seconds);
        else
            snprintf(cpu, sizeof cpu, "-");
        printf("%-8llu %20s %16s %-10s %-11s %-20s %10s %s\n", (unsigned long long)e->unit,
               qc_u128_format(e->tally.solutions, s), qc_u128_format(e->tally.steps, p),
               e->log.engine[0] ? e->log.engine : "-", e->log.isa[0] ? e->log.isa : "-",
               e->log.host[0] ? e->log.host : "-", cpu, qcl_time(e->log.finished_us, when, sizeof when));
    }
}

static void print_json(const qcl_bound *b, const qcc_part *part, qc_u128 sum)
{
    const qcc_ledger_file *f = b->file;
    const qcc_ledger_header *h = &f->header;
    char name[24], s[48];
    printf("{\"ledger\": ");
    qcl_json_string(stdout, b->path);
    printf(", \"format\": %u, \"n\": %d, \"engine\": ", h->version, h->n);
    qcl_json_string(stdout, h->engine);
    printf(", \"plan\": %d", h->profile ? h->profile : h->n);
    printf(", \"fingerprint\": \"%016llx\", \"plan_units\": %llu, \"part\": \"%s\", "
           "\"part_units\": %llu, \"part_dealt_alike\": %s, \"records\": %zu, \"complete\": %s, "
           "\"damaged_bytes\": %zu, \"solutions\": %s, \"units\": [",
           (unsigned long long)h->fingerprint, (unsigned long long)h->units,
           qcc_part_name(&h->part, name, sizeof name), (unsigned long long)part->units,
           dealt_alike(h, part) ? "true" : "false", f->count,
           f->count == part->units ? "true" : "false", f->damaged_bytes, qc_u128_format(sum, s));
    for (size_t i = 0; i < f->count; i++) {
        const qcc_ledger_entry *e = &f->entries[i];
        char p[48], when[40];
        qc_u128_format(e->tally.steps, p);
        printf("%s{\"unit\": %llu, \"solutions\": %s, \"steps\": %s, \"placements\": %s, "
               "\"engine\": ", i ? ", " : "", (unsigned long long)e->unit,
               qc_u128_format(e->tally.solutions, s), p, p);
        qcl_json_string(stdout, e->log.engine);
        printf(", \"isa\": ");
        qcl_json_string(stdout, e->log.isa);
        printf(", \"host\": ");
        qcl_json_string(stdout, e->log.host);
        if (e->log.cpu_seconds >= 0)
            printf(", \"cpu_seconds\": %.6f", e->log.cpu_seconds);
        else
            printf(", \"cpu_seconds\": null");
        if (e->log.finished_us > 0)
            printf(", \"finished\": \"%s\"}", qcl_time(e->log.finished_us, when, sizeof when));
        else
            printf(", \"finished\": null}");
    }
    printf("]}\n");
}

int qcl_show_main(int argc, char **argv)
{
    int json;
    const int early = qcl_json_options_help(argc, argv, "show", usage, help, &json);
    if (early >= 0)
        return early;
    if (argc - optind != 1) {
        qcl_error("show", "%s ledger given (%s)", argc - optind ? "more than one" : "no", usage);
        return 2;
    }
    qcl_bound b;
    if (qcl_load(argv[optind], &b) != 0)
        return 2;
    qcc_part part = b.file->header.part;
    if (qcc_part_fill(b.plan, &part, NULL) != 0) {
        qcl_error("show", "out of memory");
        qcl_free(&b);
        return 2;
    }
    qsort(b.file->entries, b.file->count, sizeof *b.file->entries, by_unit);
    qc_u128 sum = 0;
    for (size_t i = 0; i < b.file->count; i++)
        sum += b.file->entries[i].tally.solutions;
    if (json)
        print_json(&b, &part, sum);
    else
        print_text(&b, &part, sum);
    qcl_free(&b);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        qcl_error("show", "cannot write to stdout");
        return 2;
    }
    return 0;
}
