/* SPDX-License-Identifier: MIT */
/*
 * context.c — the context of context.h.  The build's facts arrive as
 * compile definitions from tools/CMakeLists.txt: QC_MARCH (the -march the
 * build used outside the kernels), QC_HWLOC_VERSION, QC_MPI_LIBRARY (the MPI library's own
 * version line, when built with MPI) and QC_MPI_MODULE (the MPI front's
 * file name).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "qcount.h"

#ifndef QC_MARCH
#define QC_MARCH "default"
#endif
#ifndef QC_HWLOC_VERSION
#define QC_HWLOC_VERSION "unknown"
#endif

/* [isa level] The level the kernels run at, chosen by the library at the
 * first count (the best this CPU has) or by QCOUNT_ISA (tools/qcount.c). */
const char *qcc_context_isa(void)
{
    return qc_isa_name();
}

/* A string from the build, quoted for JSON (it holds no quote or
 * backslash, but a version line may hold anything). */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++)
        fputc(*s == '"' || *s == '\\' || (unsigned char)*s < 0x20 ? '?' : *s, out);
    fputc('"', out);
}

/* The CPU's model name as the kernel gives it (/proc/cpuinfo's first
 * "model name", x86 and some Arm kernels), in buf; "" when there is none. */
static void cpu_model(char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        const char *v = strchr(line, ':');
        if (v) {
            v += strspn(v + 1, " \t") + 1;
            snprintf(buf, len, "%.*s", (int)strcspn(v, "\n"), v);
        }
        break;
    }
    fclose(f);
}

void qcc_context_json(FILE *out, const qca_options *opts)
{
    char host[256] = "", date[32] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    time_t now = time(NULL);
    struct tm utc;
    if (gmtime_r(&now, &utc))
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    fprintf(out, ", \"context\": {\"version\": \"%s\", \"isa\": \"%s\", \"march\": ",
            QC_VERSION, qcc_context_isa());
    json_string(out, QC_MARCH);
    fprintf(out, ", \"bind\": %s, \"openmp\": %d, \"hwloc\": ", opts->bind ? "true" : "false",
#ifdef _OPENMP
            _OPENMP
#else
            0
#endif
    );
    json_string(out, QC_HWLOC_VERSION);
    fprintf(out, ", \"mpi\": %s, \"host\": ",
#ifdef QC_MPI_MODULE
            "true"
#else
            "false"
#endif
    );
    json_string(out, host);
    char model[256];
    cpu_model(model, sizeof model);
    fprintf(out, ", \"online_cpus\": %ld, \"cpu_model\": ", sysconf(_SC_NPROCESSORS_ONLN));
    json_string(out, model);
    /* the machine's load as the count ended: other work shares its CPUs */
    double load[3] = {-1, -1, -1};
    getloadavg(load, 3);
    fprintf(out, ", \"load_average\": [%.2f, %.2f, %.2f], \"date\": \"%s\"}", load[0], load[1],
            load[2], date);
}

void qcc_context_version(FILE *out)
{
    fprintf(out,
            "qcount %s\n"
            "Copyright (C) 2026 the qcount authors.\n"
            "License MIT: <https://opensource.org/licenses/MIT>.\n"
            "This is free software: you are free to change and redistribute it.\n"
            "There is NO WARRANTY, to the extent permitted by law.\n"
            "\n"
            "Features:\n", QC_VERSION);
#ifdef QC_MPI_MODULE
    fprintf(out, "  MPI     %s (%s, loaded under mpirun or srun only)\n", QC_MPI_LIBRARY, QC_MPI_MODULE);
#else
    fprintf(out, "  MPI     no (built without MPI)\n");
#endif
    const char *forced = getenv("QCOUNT_ISA");
    fprintf(out, "  ISA     %s (%s)\n", qcc_context_isa(),
            forced && *forced ? "forced by QCOUNT_ISA"
                              : "the best level this CPU has; QCOUNT_ISA=portable|avx2|avx512 forces one");
    if (strcmp(QC_MARCH, "native") == 0)
        fprintf(out, "  march   native (the code outside the kernels runs on the building CPU alone)\n");
#ifdef _OPENMP
    fprintf(out, "  OpenMP  %d\n", _OPENMP);
#else
    fprintf(out, "  OpenMP  no\n");
#endif
    fprintf(out, "  hwloc   %s\n", QC_HWLOC_VERSION);
}
