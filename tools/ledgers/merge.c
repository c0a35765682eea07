/* SPDX-License-Identifier: MIT */
/*
 * merge.c — qcount merge: the total of ledgers that together hold every
 * unit of one plan exactly once (ledger_commands.h).
 *
 * Every ledger must be of the same plan (N, engine, fingerprint) and
 * whole: a damaged tail (a run cut off mid-write) is refused, since the
 * unit it held is redone by resuming that count, not by guessing.  A unit
 * found in two ledgers counts once if both give it the same solutions
 * (parts that overlap, a part run twice); different solutions are an
 * error naming the unit and both ledgers.  The steps (work done, qc_tally) may
 * differ between engines' paths and are not compared.  Whole-plan ledgers
 * (plain or MPI runs) and part ledgers merge alike: coverage is checked
 * unit by unit, whatever split wrote them.  Nothing is written.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ledger_files.h"
#include "ledgers.h"
#include "quote.h"

static const char usage[] = "usage: qcount merge [--json] LEDGER...";

static const char help[] =
    "usage: qcount merge [--json] LEDGER...\n"
    "\n"
    "The total of a count from the ledgers of its parts (or of whole runs): printed\n"
    "only when together they hold every work unit of one count, a unit in two\n"
    "ledgers with the same solutions counting once.  Otherwise the units no ledger\n"
    "holds are named with their parts, or a unit with two tallies and both ledgers,\n"
    "and there is no total.  Standard error names the count, its fingerprint and\n"
    "the parts merged.  Only reads the ledgers.\n"
    "\n"
    "  -j, --json   one JSON object: the total (null when incomplete), the count,\n"
    "               units covered, missing and found twice, and each ledger\n"
    "  -h, --help   this text\n"
    "\n"
    "Exit status: 0 with the total; 1 when a unit is missing or has two tallies;\n"
    "2 for bad input (a corrupt, foreign, truncated or unreadable ledger).";

typedef struct merge_state {
    size_t units;
    qc_tally *tally;
    unsigned char *have;      /* [unit] 1 when some ledger holds it        */
    int *from;                /* [unit] which ledger gave it first         */
    size_t covered, repeated, conflicts;
} merge_state;

/* The ledgers' parts as "1/3, 2/3" (or "whole") for the messages. */
static void print_parts(FILE *out, const qcl_bound *b, int count)
{
    for (int i = 0; i < count; i++) {
        char name[24];
        fprintf(out, i ? ", " : "");
        fputs(qcc_part_name(&b[i].file->header.part, name, sizeof name), out);
    }
}

static void print_json(const qcl_bound *b, int count, const merge_state *m, int complete)
{
    const qcc_ledger_header *h = &b[0].file->header;
    char total[48] = "null";
    if (complete) {
        qc_u128 sum = 0;
        for (size_t u = 0; u < m->units; u++)
            sum += m->tally[u].solutions;
        qc_u128_format(sum, total);
    }
    printf("{\"n\": %d, \"total\": %s, \"engine\": ", h->n, total);
    qcl_json_string(stdout, h->engine);
    printf(", \"fingerprint\": \"%016llx\", \"units\": %zu, \"covered\": %zu, \"missing\": %zu, "
           "\"repeated\": %zu, \"conflicts\": %zu, \"ledgers\": [",
           (unsigned long long)h->fingerprint, m->units, m->covered, m->units - m->covered,
           m->repeated, m->conflicts);
    for (int i = 0; i < count; i++) {
        char name[24];
        printf(i ? ", {\"file\": " : "{\"file\": ");
        qcl_json_string(stdout, b[i].path);
        printf(", \"part\": ");
        qcl_json_string(stdout, qcc_part_name(&b[i].file->header.part, name, sizeof name));
        printf(", \"format\": %u, \"records\": %zu}", b[i].file->header.version, b[i].file->count);
    }
    printf("]}\n");
}

/* The entries of ledger i into m; conflicting tallies said on stderr. */
static void take(merge_state *m, const qcl_bound *b, int i)
{
    const qcc_ledger_file *f = b[i].file;
    for (size_t k = 0; k < f->count; k++) {
        const qcc_ledger_entry *e = &f->entries[k];
        size_t u = (size_t)e->unit;
        if (!m->have[u]) {
            m->have[u] = 1;
            m->tally[u] = e->tally;
            m->from[u] = i;
            m->covered++;
            continue;
        }
        if (m->tally[u].solutions == e->tally.solutions) {
            m->repeated++;
            continue;
        }
        qcl_two_tallies("merge", u, m->tally[u].solutions, b[m->from[u]].path,
                        e->tally.solutions, b[i].path);
        m->conflicts++;
    }
}

/* Says which units no ledger holds (with their parts, when the ledgers
 * are parts of one M). */
static void say_missing(const merge_state *m, const qcl_bound *b, int count)
{
    uint32_t parts = 0;
    for (int i = 0; i < count; i++) {
        uint32_t c = b[i].file->header.part.count;
        if (c && (!parts || parts == c))
            parts = c;
        else if (c)
            parts = UINT32_MAX;   /* parts of different splits: no part names */
    }
    fprintf(stderr, "qcount: merge: %zu of %zu units are in none of the ledgers, no total: "
            "units ", m->units - m->covered, m->units);
    qcl_unit_ranges(stderr, m->have, m->units, 0, 8);
    if (parts && parts != UINT32_MAX) {
        uint32_t *of = malloc((m->units ? m->units : 1) * sizeof *of);
        unsigned char *lacking = calloc(parts + 1, 1);
        if (of && lacking) {
            qcc_part_deal(b[0].plan, parts, of);
            for (size_t u = 0; u < m->units; u++)
                if (!m->have[u])
                    lacking[of[u]] = 1;
            fprintf(stderr, "; of part");
            int first = 1;
            for (uint32_t k = 1; k <= parts; k++)
                if (lacking[k]) {
                    fprintf(stderr, "%s %u/%u", first ? "" : ",", (unsigned)k, (unsigned)parts);
                    first = 0;
                }
        }
        free(of);
        free(lacking);
    }
    fputc('\n', stderr);
}

int qcl_merge_main(int argc, char **argv)
{
    int json;
    const int early = qcl_json_options_help(argc, argv, "merge", usage, help, &json);
    if (early >= 0)
        return early;
    int count = argc - optind;
    if (count < 1) {
        qcl_error("merge", "no ledger given (%s)", usage);
        return 2;
    }
    qcl_bound *b = calloc((size_t)count, sizeof *b);
    merge_state m = {0};
    int status = 2;
    if (!b)
        goto out;
    for (int i = 0; i < count; i++) {
        int rc = i == 0 ? qcl_load(argv[optind], &b[0])
                        : qcl_load_for(argv[optind + i], b[0].plan, &b[i]);
        if (rc != 0)
            goto out;
        if (b[i].file->damaged_bytes) {
            char shown[QCA_PATH_SHOWN + 1];   /* [brief paths] */
            qcl_error("merge", "ledger '%s': truncated or damaged after its last whole record "
                      "(%zu bytes of %zu): resume its count (the same command) to finish it",
                      qca_path_brief(b[i].path, shown), b[i].file->damaged_bytes,
                      b[i].file->file_bytes);
            goto out;
        }
    }
    m.units = qc_plan_unit_count(b[0].plan);
    m.tally = calloc(m.units ? m.units : 1, sizeof *m.tally);
    m.have = calloc(m.units ? m.units : 1, 1);
    m.from = calloc(m.units ? m.units : 1, sizeof *m.from);
    if (!m.tally || !m.have || !m.from) {
        qcl_error("merge", "out of memory");
        goto out;
    }
    for (int i = 0; i < count; i++)
        take(&m, b, i);
    int complete = m.covered == m.units && !m.conflicts;
    if (m.covered < m.units)
        say_missing(&m, b, count);
    if (json) {
        print_json(b, count, &m, complete);
    } else if (complete) {
        qc_u128 sum = 0;
        for (size_t u = 0; u < m.units; u++)
            sum += m.tally[u].solutions;
        char total[48];
        puts(qc_u128_format(sum, total));
    }
    if (complete) {
        fprintf(stderr, "qcount: merge: N=%d, %s, fingerprint %016llx: all %zu units from %d "
                "ledger%s (", b[0].file->header.n, b[0].file->header.engine,
                (unsigned long long)b[0].file->header.fingerprint, m.units, count,
                count == 1 ? "" : "s");
        print_parts(stderr, b, count);
        fprintf(stderr, ")%s\n", m.repeated ? ", units found twice agree" : "");
    }
    status = complete ? 0 : 1;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        qcl_error("merge", "cannot write to stdout");
        status = 2;
    }
out:
    for (int i = 0; b && i < count; i++)
        qcl_free(&b[i]);
    free(b);
    free(m.tally);
    free(m.have);
    free(m.from);
    return status;
}
