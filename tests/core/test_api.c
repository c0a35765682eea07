/* SPDX-License-Identifier: MIT */
/*
 * test_api.c — libqcount.so as a program built against its headers meets
 * it (this test links the shared library, not the archive): the run-time
 * version is the headers', every error code has its own words, and
 * qc_run_options grows by its size field ([growing options]): a struct
 * without a size is refused, an older caller's shorter struct is read with
 * the fields past it as zero, and a newer caller's longer one is counted
 * when its extra bytes are zero and refused when they are not; the
 * result names the CPUs the run used.
 * Usage: test_api KNOWN_TSV
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qcount.h"
#include "check.h"
#include "known.h"

/* A newer caller's options: this library's struct and a field after it. */
typedef struct newer_options {
    qc_run_options known;
    long later;
} newer_options;

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s KNOWN_TSV\n", argv[0]);
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {{0, 0}};
    known_load(argv[1], known);

    CHECK(qc_version() == QC_VERSION_NUMBER, "qc_version() %u, headers %d", qc_version(),
          QC_VERSION_NUMBER);
    CHECK(strcmp(qc_version_string(), QC_VERSION) == 0, "%s", qc_version_string());
    char parts[32];
    snprintf(parts, sizeof parts, "%d.%d.%d", QC_VERSION_MAJOR, QC_VERSION_MINOR, QC_VERSION_PATCH);
    CHECK(strcmp(parts, QC_VERSION) == 0, "QC_VERSION %s, parts %s", QC_VERSION, parts);

    const int codes[] = {QC_OK, QC_EINVAL, QC_ENOMEM, QC_ESTOP, QC_EHOOK, QC_ENOTSUP};
    const size_t ncodes = sizeof codes / sizeof codes[0];
    const char *unknown = qc_strerror(-1);
    CHECK(unknown && *unknown);
    CHECK(strcmp(qc_strerror(QC_ENOTSUP + 1), unknown) == 0);
    for (size_t i = 0; i < ncodes; i++) {
        const char *s = qc_strerror(codes[i]);
        CHECK(s && *s && strcmp(s, unknown) != 0, "code %d: '%s'", codes[i], s ? s : "(null)");
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(s, qc_strerror(codes[j])) != 0, "codes %d and %d share '%s'", codes[i],
                  codes[j], s);
    }

    const int n = 10;
    qc_plan *plan;
    CHECK(qc_plan_create(&plan, n, QC_ENGINE_EIGHTFOLD) == QC_OK);
    qc_result r;

    qc_run_options o = {.size = sizeof o, .threads = 2};
    CHECK(qc_run(plan, &o, &r) == QC_OK && r.total == known[n].total, "size = sizeof");
    CHECK(qc_run(plan, NULL, &r) == QC_OK && r.total == known[n].total, "no options");
    /* the result says where it ran: the CPUs qc_topology_cpus names for
     * the same threads and binding */
    char cpus[256];
    int count = qc_topology_cpus(r.threads, QC_BIND_PIN, cpus, sizeof cpus);
    CHECK(r.cpu_count == count && strcmp(r.cpus, cpus) == 0, "ran on %d '%s', topology %d '%s'",
          r.cpu_count, r.cpus, count, cpus);
    CHECK(r.cpu_seconds >= 0 && r.seconds >= 0);

    qc_run_options unsized = {.threads = 2};
    CHECK(qc_run(plan, &unsized, &r) == QC_EINVAL && r.total == 0 && r.units == 0,
          "options without a size are refused");
    qc_run_options tiny = {.size = sizeof(size_t), .threads = 2};
    CHECK(qc_run(plan, &tiny, &r) == QC_EINVAL, "a size short of the first struct is refused");

    newer_options newer;
    memset(&newer, 0, sizeof newer);
    newer.known.size = sizeof newer;
    newer.known.threads = 2;
    CHECK(qc_run(plan, &newer.known, &r) == QC_OK && r.total == known[n].total,
          "a longer struct with zero past this library's fields counts");
    newer.later = 1;
    CHECK(qc_run(plan, &newer.known, &r) == QC_ENOTSUP && r.total == 0,
          "a field this library does not know is refused, not ignored");

    qc_run_options negative = {.size = sizeof negative, .threads = -1};
    CHECK(qc_run(plan, &negative, &r) == QC_EINVAL);
    qc_plan_free(plan);
    return check_report("api");
}
