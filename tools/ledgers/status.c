/* SPDX-License-Identifier: MIT */
/*
 * status.c — qcount status: a run of many parts at a glance, from its
 * ledgers as they stand, while the parts still count (ledger_commands.h).
 *
 * The ledgers must be of one plan (N, engine, fingerprint), as merge
 * wants; a damaged tail (a part cut off mid-write, or a record being
 * written as it is read) is noted, not refused.  A unit in two ledgers
 * counts once; two tallies of a unit that differ are named, and the status
 * is then 1.  Work is the plan's estimate (qc_plan_unit_cost), the share a
 * unit takes of the whole; CPU time, ISA level and host come from the
 * records' log (version 1 records have none).
 *
 * Time: "now" is the clock (or --now); a part that is not complete and
 * wrote no record for --stale seconds (3600) is called silent; the
 * recent rate is the work of the units that finished in the last --window
 * seconds (3600) before the newest record, over that window (or over the
 * run, if it is younger), and the time left is the work left at that
 * rate, counted from the newest record.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ledger_files.h"
#include "ledgers.h"
#include "status.h"

static const char usage[] =
    "usage: qcount status [--json | --html=FILE [--refresh=SECONDS]] [--stale=SECONDS] "
    "[--window=SECONDS] [--now=SECONDS] LEDGER...";

static const char help[] =
    "usage: qcount status [--json | --html=FILE [--refresh=SECONDS]] [--stale=SECONDS]\n"
    "                     [--window=SECONDS] [--now=SECONDS] LEDGER...\n"
    "\n"
    "The state of a count from its ledgers, while it runs or once it is done: its\n"
    "plan (N, engine, fingerprint, units, parts), the units and estimated work done\n"
    "and left per part and in all, the solutions so far, CPU time and rate per host\n"
    "and ISA level, the time left at the recent rate, the parts silent for a while,\n"
    "the parts no ledger was given for, and the total once every unit is in.\n"
    "Only reads the ledgers, which may be in use.\n"
    "\n"
    "  -j, --json           one JSON object instead of the text\n"
    "      --html=FILE      instead, one self-contained HTML page into FILE (written\n"
    "                       whole, then renamed): the figures, units in over time\n"
    "                       and the rate per host as inline SVG, no script\n"
    "      --refresh=SECONDS  the page reloads itself this often (for a web server)\n"
    "      --stale=SECONDS  a part unfinished and without a record this long is\n"
    "                       silent (default 3600)\n"
    "      --window=SECONDS the recent rate: the work of the units finished this\n"
    "                       long before the newest record (default 3600)\n"
    "      --now=SECONDS    the time to judge by, in seconds since 1970 UTC\n"
    "                       (default: the clock)\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0; 1 when two ledgers give a unit different tallies; 2 for bad\n"
    "input (a corrupt, foreign or unreadable ledger, ledgers of two counts).";


static qcl_status_group *group_of(qcl_status_state *s, const qcc_unit_log *log)
{
    for (size_t i = s->groups; i-- > 0;)
        if (strcmp(s->group[i].host, log->host) == 0 && strcmp(s->group[i].isa, log->isa) == 0)
            return &s->group[i];
    if (s->groups == s->group_cap) {
        size_t cap = s->group_cap ? 2 * s->group_cap : 8;
        qcl_status_group *g = realloc(s->group, cap * sizeof *g);
        if (!g)
            return NULL;
        s->group = g;
        s->group_cap = cap;
    }
    qcl_status_group *g = &s->group[s->groups++];
    memset(g, 0, sizeof *g);
    snprintf(g->host, sizeof g->host, "%s", log->host);
    snprintf(g->isa, sizeof g->isa, "%s", log->isa);
    return g;
}

/* Ledger i's records into s: coverage, solutions, groups, times.
 * -1 out of memory. */
static int take(qcl_status_state *s, const qcl_bound *b, int i)
{
    const qcc_ledger_file *f = b[i].file;
    qcl_status_ledger *l = &s->ledger[i];
    for (size_t k = 0; k < f->count; k++) {
        const qcc_ledger_entry *e = &f->entries[k];
        size_t u = (size_t)e->unit;
        l->done++;
        l->work += s->cost[u];
        if (e->log.finished_us > l->last_us)
            l->last_us = e->log.finished_us;
        if (e->log.finished_us > 0 && (!s->first_us || e->log.finished_us < s->first_us))
            s->first_us = e->log.finished_us;
        if (e->log.finished_us > s->last_us)
            s->last_us = e->log.finished_us;
        if (s->have[u]) {
            if (s->solutions[u] == e->tally.solutions) {
                s->repeated++;
            } else {
                qcl_two_tallies("status", u, s->solutions[u], b[s->from[u]].path,
                                e->tally.solutions, b[i].path);
                s->conflicts++;
            }
            continue;
        }
        s->have[u] = 1;
        s->solutions[u] = e->tally.solutions;
        s->from[u] = i;
        s->covered++;
        s->sum += e->tally.solutions;
        s->work_done += s->cost[u];
        if (e->log.finished_us > 0)
            s->finished[s->n_finished++] = e->log.finished_us;
        qcl_status_group *g = group_of(s, &e->log);
        if (!g)
            return -1;
        g->units++;
        g->work += s->cost[u];
        if (e->log.cpu_seconds >= 0) {
            g->cpu_seconds += e->log.cpu_seconds;
            g->cpu_units++;
            g->cpu_steps += e->tally.steps;
        }
    }
    return 0;
}

/* The recent rate's window: the work of the units (each once) that
 * finished in the --window seconds before the newest record. */
static void recent(qcl_status_state *s, const qcl_bound *b, int count)
{
    if (!s->last_us)
        return;
    const int64_t from = s->last_us - (int64_t)(s->window * 1e6);
    for (int i = 0; i < count; i++) {
        const qcc_ledger_file *f = b[i].file;
        for (size_t k = 0; k < f->count; k++) {
            const qcc_ledger_entry *e = &f->entries[k];
            if (e->log.finished_us > from && s->from[e->unit] == i)
                s->recent_work += s->cost[e->unit];
        }
    }
    const int64_t start = s->first_us > from ? s->first_us : from;
    s->recent_span = (double)(s->last_us - start) / 1e6;
}

/* Each ledger's part, its work, whether it is silent; and M, when every
 * ledger is a part of one M, with the parts given.  -1 out of memory. */
static int parts(qcl_status_state *s, const qcl_bound *b, int count)
{
    unsigned char *member = malloc(s->units ? s->units : 1);
    if (!member)
        return -1;
    uint32_t m = b[0].file->header.part.count;
    for (int i = 0; i < count; i++) {
        qcl_status_ledger *l = &s->ledger[i];
        l->part = b[i].file->header.part;
        if (l->part.count != m)
            m = 0;
        if (qcc_part_fill(b[i].plan ? b[i].plan : b[0].plan, &l->part, member) != 0) {
            free(member);
            return -1;
        }
        for (size_t u = 0; u < s->units; u++)
            if (member[u])
                l->work_all += s->cost[u];
        struct stat st;
        if (!l->last_us && stat(b[i].path, &st) == 0)
            l->last_us = (int64_t)st.st_mtime * 1000000;
        l->silent = l->done < l->part.units
                    && (double)(s->now_us - l->last_us) / 1e6 > s->stale;
    }
    free(member);
    s->parts = m;
    if (m) {
        s->given = calloc((size_t)m + 1, 1);
        if (!s->given)
            return -1;
        for (int i = 0; i < count; i++)
            s->given[s->ledger[i].part.index] = 1;
    }
    return 0;
}

static void print_text_plan(const qcl_status_state *s, const qcl_bound *b, int count)
{
    const qcc_ledger_header *h = &b[0].file->header;
    char a[48], t1[40], t2[40], sp[32];
    printf("count        N=%d, engine %s, fingerprint %016llx, %zu units", h->n, h->engine,
           (unsigned long long)h->fingerprint, s->units);
    if (s->parts)
        printf(", in %u parts", (unsigned)s->parts);
    printf("\nledgers      %d\n", count);
    printf("coverage     %zu of %zu units (%.1f%%), %.1f%% of the estimated work; left: %zu "
           "units, %.1f%%\n", s->covered, s->units,
           qcl_status_percent((double)s->covered, (double)s->units),
           qcl_status_percent(s->work_done, s->work_all), s->units - s->covered,
           qcl_status_complete(s) ? 0.0
                                  : qcl_status_percent(s->work_all - s->work_done, s->work_all));
    if (qcl_status_complete(s))
        printf("total        %s\n", qc_u128_format(s->sum, a));
    else
        printf("solutions    %s so far (the sum of the units in; not the total)\n",
               qc_u128_format(s->sum, a));
    if (s->repeated || s->conflicts)
        printf("repeats      %zu units in two ledgers, %zu with tallies that differ\n",
               s->repeated + s->conflicts, s->conflicts);
    printf("records      %s to %s; now %s\n", qcl_time(s->first_us, t1, sizeof t1),
           qcl_time(s->last_us, t2, sizeof t2), qcl_time(s->now_us, a, sizeof a));
    double left = qcl_status_seconds_left(s);
    if (qcl_status_complete(s)) {
        printf("left         nothing: every unit is in\n");
    } else if (left >= 0) {
        char w[32];
        int64_t at = s->last_us + (int64_t)(left * 1e6);
        printf("left         %s at the rate of the last %s of records (about %s)",
               qcl_status_span(left, sp, sizeof sp), qcl_status_span(s->recent_span, w, sizeof w),
               qcl_time(at, t1, sizeof t1));
        if ((double)(s->now_us - s->last_us) / 1e6 > s->stale)
            printf(", but no unit has finished for %s",
                   qcl_status_span((double)(s->now_us - s->last_us) / 1e6, w, sizeof w));
        putchar('\n');
    } else {
        printf("left         unknown: no rate yet (units with their times are needed)\n");
    }
}

static void print_text_parts(const qcl_status_state *s, const qcl_bound *b, int count)
{
    char name[24], when[40], sp[32];
    printf("\n%-12s %17s %7s %7s  %-24s %s\n", "part", "units", "units%", "work%", "last record",
           "ledger");
    for (int i = 0; i < count; i++) {
        const qcl_status_ledger *l = &s->ledger[i];
        char units[40];
        snprintf(units, sizeof units, "%zu/%llu", l->done, (unsigned long long)l->part.units);
        printf("%-12s %17s %6.1f%% %6.1f%%  %-24s %s", qcc_part_name(&l->part, name, sizeof name),
               units, qcl_status_percent((double)l->done, (double)l->part.units),
               qcl_status_percent(l->work, l->work_all),
               qcl_time(l->last_us, when, sizeof when), b[i].path);
        if (l->done >= l->part.units)
            printf(" (complete)");
        else if (l->silent)
            printf(" (SILENT for %s)",
                   qcl_status_span((double)(s->now_us - l->last_us) / 1e6, sp, sizeof sp));
        if (b[i].file->damaged_bytes)
            printf(" (damaged tail: %zu bytes)", b[i].file->damaged_bytes);
        putchar('\n');
    }
    for (uint32_t k = 1; s->parts && k <= s->parts; k++)
        if (!s->given[k])
            printf("%u/%-10u %17s %7s %7s  %-24s %s\n", (unsigned)k, (unsigned)s->parts, "-", "-",
                   "-", "-", "(no ledger given)");
}

static void print_text_groups(const qcl_status_state *s)
{
    printf("\n%-20s %-11s %9s %7s %10s %16s\n", "host", "isa", "units", "work%", "cpu_time",
           "steps/cpu_s");
    for (size_t i = 0; i < s->groups; i++) {
        const qcl_status_group *g = &s->group[i];
        char rate[32] = "-", cpu[32] = "-";
        if (g->cpu_units && g->cpu_seconds > 0)
            snprintf(rate, sizeof rate, "%.3e", (double)g->cpu_steps / g->cpu_seconds);
        if (g->cpu_units)
            qcl_status_span(g->cpu_seconds, cpu, sizeof cpu);
        printf("%-20s %-11s %9zu %6.1f%% %10s %16s\n", g->host[0] ? g->host : "-",
               g->isa[0] ? g->isa : "-", g->units, qcl_status_percent(g->work, s->work_all), cpu,
               rate);
    }
}

static void json_time(const char *key, int64_t us)
{
    char t[40];
    if (us > 0)
        printf(", \"%s\": \"%s\"", key, qcl_time(us, t, sizeof t));
    else
        printf(", \"%s\": null", key);
}

static void print_json_ledgers(const qcl_status_state *s, const qcl_bound *b, int count)
{
    char name[24];
    printf(", \"ledgers\": [");
    for (int i = 0; i < count; i++) {
        const qcl_status_ledger *l = &s->ledger[i];
        printf(i ? ", {\"file\": " : "{\"file\": ");
        qcl_json_string(stdout, b[i].path);
        printf(", \"part\": \"%s\", \"units\": %llu, \"done\": %zu, \"work_done\": %.6f",
               qcc_part_name(&l->part, name, sizeof name), (unsigned long long)l->part.units,
               l->done, qcl_status_percent(l->work, l->work_all) / 100);
        json_time("last", l->last_us);
        printf(", \"complete\": %s, \"silent\": %s, \"damaged_bytes\": %zu}",
               l->done >= l->part.units ? "true" : "false", l->silent ? "true" : "false",
               b[i].file->damaged_bytes);
    }
    printf("], \"parts_not_given\": [");
    int first = 1;
    for (uint32_t k = 1; s->parts && k <= s->parts; k++)
        if (!s->given[k]) {
            printf("%s\"%u/%u\"", first ? "" : ", ", (unsigned)k, (unsigned)s->parts);
            first = 0;
        }
    printf("]");
}

static void print_json_groups(const qcl_status_state *s)
{
    printf(", \"hosts\": [");
    for (size_t i = 0; i < s->groups; i++) {
        const qcl_status_group *g = &s->group[i];
        char p[48];
        printf(i ? ", {\"host\": " : "{\"host\": ");
        qcl_json_string(stdout, g->host);
        printf(", \"isa\": ");
        qcl_json_string(stdout, g->isa);
        printf(", \"units\": %zu, \"work\": %.6f, \"cpu_seconds\": %.6f, \"cpu_units\": %zu, "
               "\"cpu_steps\": %s, \"cpu_placements\": %s, ", g->units,
               qcl_status_percent(g->work, s->work_all) / 100, g->cpu_seconds, g->cpu_units,
               qc_u128_format(g->cpu_steps, p), p);
        char rate[32] = "null";
        if (g->cpu_units && g->cpu_seconds > 0)
            snprintf(rate, sizeof rate, "%.6e", (double)g->cpu_steps / g->cpu_seconds);
        printf("\"steps_per_cpu_second\": %s, \"placements_per_cpu_second\": %s}", rate, rate);
    }
    printf("]");
}

static void print_json(const qcl_status_state *s, const qcl_bound *b, int count)
{
    const qcc_ledger_header *h = &b[0].file->header;
    char a[48];
    printf("{\"n\": %d, \"engine\": ", h->n);
    qcl_json_string(stdout, h->engine);
    printf(", \"fingerprint\": \"%016llx\", \"units\": %zu, \"parts\": ",
           (unsigned long long)h->fingerprint, s->units);
    if (s->parts)
        printf("%u", (unsigned)s->parts);
    else
        printf("null");
    printf(", \"covered\": %zu, \"missing\": %zu, \"work_done\": %.6f, \"solutions\": %s, "
           "\"total\": %s, \"complete\": %s, \"repeated\": %zu, \"conflicts\": %zu",
           s->covered, s->units - s->covered, qcl_status_percent(s->work_done, s->work_all) / 100,
           qc_u128_format(s->sum, a), qcl_status_complete(s) ? a : "null",
           qcl_status_complete(s) ? "true" : "false",
           s->repeated, s->conflicts);
    json_time("now", s->now_us);
    json_time("first_record", s->first_us);
    json_time("last_record", s->last_us);
    double left = qcl_status_seconds_left(s);
    printf(", \"rate_window_seconds\": %.3f, \"seconds_left\": ", s->recent_span);
    if (left >= 0) {
        printf("%.3f", left);
        json_time("eta", s->last_us + (int64_t)(left * 1e6));
    } else {
        printf("%s, \"eta\": null", qcl_status_complete(s) ? "0" : "null");
    }
    print_json_ledgers(s, b, count);
    print_json_groups(s);
    printf("}\n");
}

/* "SECONDS" of option name into *out: 0, or 2 with the one-line error. */
static int seconds_option(const char *name, const char *arg, double lo, double *out)
{
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || *end || !(v >= lo && v <= 1e11)) {
        qcl_error("status", "invalid %s '%s' (expected seconds, from %.0f) (%s)", name, arg, lo,
                  usage);
        return 2;
    }
    *out = v;
    return 0;
}

/* The options into s and *json; optind at the first ledger.  -1 to go
 * on, else the status to exit with. */
static int options(int argc, char **argv, qcl_status_state *s, int *json, const char **html,
                   double *refresh)
{
    static const struct option longs[] = {
        {"json", no_argument, NULL, 'j'},   {"stale", required_argument, NULL, 's'},
        {"window", required_argument, NULL, 'w'}, {"now", required_argument, NULL, 'n'},
        {"html", required_argument, NULL, 'H'}, {"refresh", required_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},   {NULL, 0, NULL, 0},
    };
    double now = -1;
    int c;
    *json = 0;
    s->stale = 3600;
    s->window = 3600;
    opterr = 0;
    optind = 0;
    while ((c = getopt_long(argc, argv, "jh", longs, NULL)) != -1) {
        int rc = 0;
        if (c == 'j')
            *json = 1;
        else if (c == 's')
            rc = seconds_option("--stale", optarg, 0, &s->stale);
        else if (c == 'w')
            rc = seconds_option("--window", optarg, 1, &s->window);
        else if (c == 'n')
            rc = seconds_option("--now", optarg, 0, &now);
        else if (c == 'H')
            *html = optarg;
        else if (c == 'r')
            rc = seconds_option("--refresh", optarg, 1, refresh);
        else if (c == 'h')
            return puts(help) < 0 ? 2 : 0;
        else {
            qcl_error("status", "unknown option or missing value '%s' (%s)", argv[optind - 1],
                      usage);
            return 2;
        }
        if (rc)
            return rc;
    }
    if (now < 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        s->now_us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    } else {
        s->now_us = (int64_t)(now * 1e6);
    }
    if (argc - optind < 1) {
        qcl_error("status", "no ledger given (%s)", usage);
        return 2;
    }
    return -1;
}

/* Reads the ledgers and works out the state: 0, else the status. */
static int gather(qcl_status_state *s, qcl_bound *b, int count, char **paths)
{
    for (int i = 0; i < count; i++)
        if ((i == 0 ? qcl_load(paths[0], &b[0]) : qcl_load_for(paths[i], b[0].plan, &b[i])) != 0)
            return 2;
    s->units = qc_plan_unit_count(b[0].plan);
    size_t n = s->units ? s->units : 1;
    s->cost = malloc(n * sizeof *s->cost);
    s->have = calloc(n, 1);
    s->solutions = calloc(n, sizeof *s->solutions);
    s->from = calloc(n, sizeof *s->from);
    s->ledger = calloc((size_t)count, sizeof *s->ledger);
    s->finished = malloc(n * sizeof *s->finished);
    if (!s->cost || !s->have || !s->solutions || !s->from || !s->ledger || !s->finished)
        goto oom;
    for (size_t u = 0; u < s->units; u++) {
        s->cost[u] = qc_plan_unit_cost(b[0].plan, u);
        s->work_all += s->cost[u];
    }
    for (int i = 0; i < count; i++)
        if (take(s, b, i) != 0)
            goto oom;
    recent(s, b, count);
    if (parts(s, b, count) != 0)
        goto oom;
    return 0;
oom:
    qcl_error("status", "out of memory");
    return 2;
}

int qcl_status_main(int argc, char **argv)
{
    qcl_status_state s;
    memset(&s, 0, sizeof s);
    int json;
    const char *html = NULL;
    double refresh = 0;
    const int early = options(argc, argv, &s, &json, &html, &refresh);
    if (early >= 0)
        return early;
    const int count = argc - optind;
    qcl_bound *b = calloc((size_t)count, sizeof *b);
    int status = 2;
    if (!b) {
        qcl_error("status", "out of memory");
    } else if (gather(&s, b, count, argv + optind) == 0) {
        int failed = 0;
        if (html) {
            failed = qcl_status_html(&s, b, count, html, refresh);
        } else if (json) {
            print_json(&s, b, count);
        } else {
            print_text_plan(&s, b, count);
            print_text_parts(&s, b, count);
            print_text_groups(&s);
        }
        status = failed ? 2 : s.conflicts ? 1 : 0;
        if (fflush(stdout) != 0 || ferror(stdout)) {
            qcl_error("status", "cannot write to stdout");
            status = 2;
        }
    }
    for (int i = 0; b && i < count; i++)
        qcl_free(&b[i]);
    free(b);
    free(s.cost);
    free(s.have);
    free(s.solutions);
    free(s.from);
    free(s.ledger);
    free(s.group);
    free(s.given);
    free(s.finished);
    return status;
}
