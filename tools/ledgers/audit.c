/* SPDX-License-Identifier: MIT */
/*
 * audit.c — qcount audit: a seeded random sample of a ledger's finished
 * units counted again by another path, tallies compared unit by unit
 * (ledger_commands.h).
 *
 * [recount path] Every sampled unit is counted again by the same engine
 * at another ISA level than its record names (portable, or if the record
 * was counted at portable, the best other level this CPU has), which
 * shares the search but not the level's code; where the CPU has no other
 * level, or the record does not name its level (format 1 ledgers, MPI
 * runs), that is said beside the result.  A join unit is also counted by
 * its AND loop at the portable level (qc_plan_recount_unit), which shares
 * no pair-counting code with the byte tables that count it in a run; the
 * other engines have no such second path (QC_ENOTSUP).  The solutions
 * are compared; the steps may differ between paths (odd N's middle
 * queen).  The units are counted over --threads threads (default: one per
 * core), each pass at one level, since the level is the whole process's.
 *
 * [by backtrack] --by=backtrack counts every sampled unit of a join
 * ledger by one path instead: the unit's cases (qc_plan_unit_describe)
 * counted by plain backtracking (qc_plan_backtrack_unit,
 * core/oracle/backtrack.c), which shares no code with the engine: no
 * bands, halves, tables or AND loop.  --by=levels is the default above.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "ledger_files.h"
#include "ledgers.h"
#include "quote.h"

static const char usage[] =
    "usage: qcount audit [--sample=P] [--seed=S] [--threads=K] [--by=levels|backtrack] LEDGER";

/* --help: usage, a blank line, then this */
static const char help[] =
    "Counts a seeded random sample of a ledger's finished units again by another\n"
    "path and compares each unit's solutions with the record.  The seed is printed,\n"
    "so the same sample can be drawn again.  Only reads the ledger.\n"
    "\n"
    "  --sample=P      the share of the finished units to draw, in percent\n"
    "                  (more than 0, at most 100; default 1)\n"
    "  --seed=S        the sample's seed (default: drawn, and printed)\n"
    "  -t, --threads=K count on K threads (default: one per core)\n"
    "  --by=levels     (the default) the same engine at another instruction-set\n"
    "                  level than the record's and, for join, its AND loop at the\n"
    "                  portable level\n"
    "  --by=backtrack  a join unit from its cases alone ('qcount unit'), by a\n"
    "                  backtracking search that shares no code with join\n"
    "  -h, --help      this text\n"
    "\n"
    "Exit status: 0 when every recount agrees; 1 when one differs; 2 for bad input\n"
    "(a corrupt, foreign or unreadable ledger) or a unit that could not be counted\n"
    "again.";

static const char backtrack_path[] = "backtracking from the unit's cases (core/oracle)";

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int by_unit(const void *a, const void *b)
{
    const qcc_ledger_entry *x = *(const qcc_ledger_entry *const *)a;
    const qcc_ledger_entry *y = *(const qcc_ledger_entry *const *)b;
    return (x->unit > y->unit) - (x->unit < y->unit);
}

static const char *const levels[] = {"portable", "avx512vbmi", "avx512", "avx2", "neon"};
#define LEVELS (sizeof levels / sizeof *levels)

/* Which levels this CPU runs (qc_isa_select succeeds); the best stays selected. */
static void find_levels(int *runs)
{
    for (size_t i = 0; i < LEVELS; i++)
        runs[i] = qc_isa_select(levels[i]) == QC_OK;
    qc_isa_select(NULL);
}

/* The level to count a unit again at, for a record counted at `counted`
 * ("" unknown); *note says why it is not independent, or "". */
static const char *other_level(const int *runs, const char *counted, const char **note)
{
    *note = "";
    for (size_t i = 0; i < LEVELS; i++)
        if (runs[i] && strcmp(levels[i], counted) != 0) {
            if (!counted[0])
                *note = " (the record does not name its level: it may be the same)";
            return levels[i];
        }
    *note = " (this CPU has no other level: the same code counted it again)";
    return "portable";
}

/* Distinct recount paths and how many units each took. */
typedef struct path_count {
    char path[96];
    size_t units;
} path_count;

static void note_path(path_count *paths, size_t *count, const char *path)
{
    for (size_t i = 0; i < *count; i++)
        if (strcmp(paths[i].path, path) == 0) {
            paths[i].units++;
            return;
        }
    snprintf(paths[*count].path, sizeof paths[*count].path, "%s", path);
    paths[(*count)++].units = 1;
}

/* One sampled unit and what counting it again by each path gave: path 0
 * the engine at another level, path 1 its second path (QC_ENOTSUP when
 * it has none); under --by=backtrack path 0 is not taken (QC_ENOTSUP)
 * and path 1 is the backtracking. */
typedef struct recount_job {
    const qcc_ledger_entry *entry;
    const char *level;        /* for path 0 */
    qc_tally tally[2];
    int rc[2];
    char how[2][96];
} recount_job;

/* The jobs of one pass, shared by its threads. */
typedef struct pass {
    const qc_plan *plan;
    recount_job *jobs;
    size_t count;
    int path;
    int backtrack;            /* path 1 is qc_plan_backtrack_unit */
    const char *level;        /* path 0: only the jobs at this level */
    size_t next;              /* atomic */
} pass;

static void *pass_worker(void *arg)
{
    pass *p = arg;
    for (;;) {
        size_t i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
        if (i >= p->count)
            return NULL;
        recount_job *j = &p->jobs[i];
        size_t unit = (size_t)j->entry->unit;
        if (p->path == 0) {
            if (j->level == p->level)
                j->rc[0] = qc_plan_count_unit(p->plan, unit, &j->tally[0]);
        } else if (p->backtrack) {
            j->rc[1] = qc_plan_backtrack_unit(p->plan, unit, NULL, &j->tally[1]);
            snprintf(j->how[1], sizeof j->how[1], "%s", backtrack_path);
        } else {
            const char *path = NULL;
            j->rc[1] = qc_plan_recount_unit(p->plan, unit, &j->tally[1], &path);
            snprintf(j->how[1], sizeof j->how[1], "%s", path ? path : "none");
        }
    }
}

/* Runs one pass over threads (at least the calling one). */
static void run_pass(pass *p, int threads)
{
    pthread_t *ids = calloc((size_t)(threads > 1 ? threads - 1 : 1), sizeof *ids);
    int started = 0;
    for (int t = 1; ids && t < threads && (size_t)t < p->count; t++)
        if (pthread_create(&ids[started], NULL, pass_worker, p) == 0)
            started++;
    pass_worker(p);
    for (int t = 0; t < started; t++)
        pthread_join(ids[t], NULL);
    free(ids);
}

/* Counts every job again by both paths, over threads: path 0 a level at
 * a time (the level is the whole process's), then path 1; by backtracking
 * alone when backtrack is set. */
static void recount_all(const qc_plan *plan, recount_job *jobs, size_t count, int threads,
                        const int *runs, int backtrack)
{
    if (backtrack) {
        for (size_t i = 0; i < count; i++)
            jobs[i].rc[0] = QC_ENOTSUP;
        pass p = {.plan = plan, .jobs = jobs, .count = count, .path = 1, .backtrack = 1};
        run_pass(&p, threads);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        const char *note;
        jobs[i].level = other_level(runs, jobs[i].entry->log.isa, &note);
        snprintf(jobs[i].how[0], sizeof jobs[i].how[0], "%s at the %s level%s",
                 qc_engine_name(qc_plan_engine(plan)), jobs[i].level, note);
    }
    for (size_t l = 0; l < LEVELS; l++) {
        pass p = {.plan = plan, .jobs = jobs, .count = count, .path = 0, .level = NULL};
        for (size_t i = 0; i < count && !p.level; i++)
            if (strcmp(jobs[i].level, levels[l]) == 0)
                p.level = jobs[i].level;
        if (!p.level)
            continue;
        for (size_t i = 0; i < count; i++)   /* one pointer per level name */
            if (strcmp(jobs[i].level, levels[l]) == 0)
                jobs[i].level = p.level;
        qc_isa_select(levels[l]);
        run_pass(&p, threads);
    }
    qc_isa_select(NULL);
    pass p = {.plan = plan, .jobs = jobs, .count = count, .path = 1};
    run_pass(&p, threads);
}

/* What the command line asks. */
typedef struct audit_options {
    double percent;
    uint64_t seed;
    int seed_given;
    int threads;              /* 0: one per core */
    int backtrack;            /* --by=backtrack */
} audit_options;

/* One option's value into *o: 0, or 2 with the one-line error printed. */
static int parse_value(int c, const char *arg, audit_options *o)
{
    char *end = NULL;
    errno = 0;
    if (c == 't') {
        long v = strtol(arg, &end, 10);
        if (arg[0] < '0' || arg[0] > '9' || *end || errno || v < 1 || v > 4096) {
            qcl_error("audit", "invalid thread count '%s' (expected an integer from 1 to "
                      "4096)", arg);
            return 2;
        }
        o->threads = (int)v;
    } else if (c == 'p') {
        o->percent = strtod(arg, &end);
        if (arg[0] < '0' || arg[0] > '9' || *end || errno || !(o->percent > 0)
            || o->percent > 100) {
            qcl_error("audit", "invalid sample '%s' (expected a percentage, more than 0 "
                      "and at most 100)", arg);
            return 2;
        }
    } else if (c == 'S') {
        unsigned long long v = strtoull(arg, &end, 10);
        if (arg[0] < '0' || arg[0] > '9' || *end || errno) {
            qcl_error("audit", "invalid seed '%s' (expected an integer from 0 to "
                      "18446744073709551615)", arg);
            return 2;
        }
        o->seed = v;
        o->seed_given = 1;
    } else if (strcmp(arg, "levels") == 0 || strcmp(arg, "backtrack") == 0) {   /* 'b' */
        o->backtrack = arg[0] == 'b';
    } else {
        qcl_error("audit", "invalid path '%s' (expected levels or backtrack)", arg);
        return 2;
    }
    return 0;
}

/* The command line into *o, optind left at the ledger: -1 to go on, else
 * the status to exit with. */
static int parse_options(int argc, char **argv, audit_options *o)
{
    static const struct option options[] = {
        {"sample", required_argument, NULL, 'p'},
        {"seed", required_argument, NULL, 'S'},
        {"threads", required_argument, NULL, 't'},
        {"by", required_argument, NULL, 'b'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (audit_options){.percent = 1};
    int c;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, ":t:h", options, NULL)) != -1) {
        if (c == 't' || c == 'p' || c == 'S' || c == 'b') {
            if (parse_value(c, optarg, o) != 0)
                return 2;
        } else if (c == 'h') {
            printf("%s\n\n%s\n", usage, help);
            return 0;
        } else if (c == ':') {
            qcl_error("audit", "option '%s' needs an argument (%s)", argv[optind - 1], usage);
            return 2;
        } else {
            qcl_error("audit", "unknown option '%s' (%s)", argv[optind - 1], usage);
            return 2;
        }
    }
    if (argc - optind != 1) {
        qcl_error("audit", "%s ledger given (%s)", argc - optind ? "more than one" : "no", usage);
        return 2;
    }
    if (!o->seed_given && getrandom(&o->seed, sizeof o->seed, 0) != (ssize_t)sizeof o->seed)
        o->seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;
    if (!o->threads)
        o->threads = qc_topology_cores();
    return -1;
}

/* The sample: the first `want` of a Fisher-Yates shuffle of f's entries
 * by the seed, into pick (f->count slots), in unit order. */
static void draw_sample(const qcc_ledger_file *f, uint64_t seed, size_t want,
                        const qcc_ledger_entry **pick)
{
    for (size_t i = 0; i < f->count; i++)
        pick[i] = &f->entries[i];
    uint64_t state = seed;
    for (size_t i = 0; i < want; i++) {
        size_t j = i + (size_t)(splitmix64(&state) % (f->count - i));
        const qcc_ledger_entry *t = pick[i];
        pick[i] = pick[j];
        pick[j] = t;
    }
    qsort(pick, want, sizeof *pick, by_unit);
}

/* Every job's recounts against its record, printed: the mismatches, the
 * units, the paths and the closing line.  Returns the exit status. */
static int report(const recount_job *jobs, size_t want, path_count *paths)
{
    size_t mismatches = 0, failed = 0, path_kinds = 0;
    char *checked = NULL;
    size_t checked_len = 0;
    FILE *units_line = open_memstream(&checked, &checked_len);
    for (size_t i = 0; i < want; i++) {
        const qcc_ledger_entry *e = jobs[i].entry;
        if (units_line)
            fprintf(units_line, " %llu", (unsigned long long)e->unit);
        int unit_failed = 0, unit_differs = 0;
        for (int which = 0; which < 2; which++) {
            const qc_tally *t = &jobs[i].tally[which];
            const char *how = jobs[i].how[which];
            int rc = jobs[i].rc[which];
            if (rc == QC_ENOTSUP)
                continue;   /* no second path */
            if (rc != QC_OK) {
                printf("unit %llu: could not be counted again by %s (%s)\n",
                       (unsigned long long)e->unit, how, rc == QC_ENOMEM ? "out of memory" : "error");
                unit_failed = 1;
                continue;
            }
            note_path(paths, &path_kinds, how);
            if (t->solutions != e->tally.solutions) {
                char a[48], c2[48];
                printf("mismatch unit %llu: the ledger says %s solutions, counted again %s (%s)\n",
                       (unsigned long long)e->unit, qc_u128_format(e->tally.solutions, a),
                       qc_u128_format(t->solutions, c2), how);
                unit_differs = 1;
            }
        }
        failed += unit_failed;
        mismatches += unit_differs;
    }
    if (units_line)
        fclose(units_line);
    printf("units%s\n", checked ? checked : " ?");
    for (size_t i = 0; i < path_kinds; i++)
        printf("path %s: %zu units\n", paths[i].path, paths[i].units);
    printf("%zu units checked, %zu mismatched%s\n", want - failed, mismatches,
           failed ? ", some units could not be counted again" : "");
    free(checked);
    return mismatches ? 1 : failed ? 2 : 0;
}

int qcl_audit_main(int argc, char **argv)
{
    audit_options o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return status;
    int runs[LEVELS];
    find_levels(runs);

    qcl_bound b;
    if (qcl_load(argv[optind], &b) != 0)
        return 2;
    const qcc_ledger_file *f = b.file;
    if (o.backtrack && qc_plan_engine(b.plan) != QC_ENGINE_JOIN) {
        char shown[QCA_PATH_SHOWN + 1];   /* [brief paths] */
        qcl_error("audit", "--by=backtrack: ledger '%s' is of engine %s, whose units are not "
                  "described as cases (only join's are)", qca_path_brief(b.path, shown),
                  f->header.engine);
        qcl_free(&b);
        return 2;
    }
    size_t want = (size_t)((double)f->count * o.percent / 100.0);
    if ((double)want < (double)f->count * o.percent / 100.0)
        want++;   /* rounded up: a sample of a small ledger is not empty */
    const qcc_ledger_entry **pick = malloc((f->count ? f->count : 1) * sizeof *pick);
    path_count *paths = calloc(2 * want + 1, sizeof *paths);
    recount_job *jobs = calloc(want + 1, sizeof *jobs);
    if (!pick || !paths || !jobs) {
        qcl_error("audit", "out of memory");
        free(pick);
        free(paths);
        free(jobs);
        qcl_free(&b);
        return 2;
    }
    draw_sample(f, o.seed, want, pick);

    char name[24];
    printf("ledger %s: N=%d, engine %s, fingerprint %016llx, part %s\n", b.path,
           f->header.n, f->header.engine, (unsigned long long)f->header.fingerprint,
           qcc_part_name(&f->header.part, name, sizeof name));
    printf("seed %llu\n", (unsigned long long)o.seed);
    printf("sample %g%% of %zu finished units: %zu units\n", o.percent, f->count, want);
    fflush(stdout);
    for (size_t i = 0; i < want; i++)
        jobs[i].entry = pick[i];
    recount_all(b.plan, jobs, want, o.threads, runs, o.backtrack);
    status = report(jobs, want, paths);
    free(pick);
    free(paths);
    free(jobs);
    qcl_free(&b);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        qcl_error("audit", "cannot write to stdout");
        return 2;
    }
    return status;
}
