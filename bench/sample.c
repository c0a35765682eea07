/* SPDX-License-Identifier: MIT */
/*
 * sample.c — what a board too big to count here costs, from a random
 * sample of its plan's units (bench/sampling.h: stratified by estimated
 * cost, seeded): the whole board's solutions and CPU time, CPU time per
 * solution and a unit's memory, each with its 95% interval, and the
 * largest units' CPU time.
 *
 *   qcount_sample N [--units U] [--strata H] [--seed S] [--sets K]
 *                   [--joins P] [--memory-units M] [--largest L]
 *                   [--key-bits B] [--plan P] [--unit U]... [--against-whole]
 *
 * --units U units in all (default 64), over H strata (default 8); --seed
 * S draws the same sample again (default: from the clock; printed);
 * --sets K counts, of each unit drawn, one part of about K column sets
 * picked at random and scales it by the unit's parts (default: the whole
 * unit); --joins P joins one random part of P of those sets' top blocks
 * (of their joins' tiles, where the bottoms are cut into tiles: [sampled
 * tiles]) and scales it ([sampled joins]), so that a unit of N=28 takes
 * minutes where one column set takes an hour (the part's time is scaled
 * by P, and its noise with it: at N=28, eight parts of 16 came to 0.94-0.96
 * of a whole unit's joins a solution on average; parts of 64, measured
 * before the layout was timed warm, scattered from 0.30 to 0.96 of it;
 * performance-log.md, "2026-11-29 — the sampler's joined parts made like a
 * whole join; the record plan again");
 * --memory-units M measures the memory of M of the units drawn, evenly
 * spread over the sample (default: all; at N=28 that pass builds a set's
 * halves again, minutes a unit); --largest L also measures the L units
 * of largest estimated cost (their CPU time: the longest a checkpoint
 * waits); --key-bits B (1..18) plans with B group key bits in place
 * of config.h's (another plan, another fingerprint: for tuning); --plan P
 * plans with the profile of board size P, scaled to N, as qcount --plan
 * does (core/join/profile.c); --unit U
 * (up to 64 times) measures unit U of the plan, as --largest measures
 * its own (with --sets and --joins as given), and alone draws no sample
 * unless --units is given too.  QCOUNT_ISA picks the level, as for qcount.
 * [against whole] --against-whole (with --joins P, not --sets) counts
 * each unit of the sample, and each given with --unit, whole at once
 * after its sampled estimate, on the same thread, so that both meet the
 * same machine: a line a unit (`against_whole unit U ...`: both CPU
 * times and solutions, their ratios, and the whole unit's steps a
 * solution, at N=27 and 28 nearly all of them pairs tested) and the sums
 * of the drawn sample (`against_whole_sum ...`), whose time ratio says
 * how far the sampled joins' estimate is from the whole units' time.
 * The estimates printed are the sampled ones, as without it.
 *
 * [listing charged] A join unit's work is timed in two steps, listing its
 * bands and counting its sets (probe.h, [probe]).  The listing is charged
 * as a whole run charges it: to a unit that lists its own bands wholly, to
 * a slice of k sharing its pattern's lists 1/k of it, to a slice whose
 * pattern's pieces' units list them (and are sampled with their own cost)
 * nothing; from N=26 ([own lists]) a unit lists its bands set by set,
 * in its sets' time.  The working memory is kept from unit to unit, as in
 * a run.
 * [joins timed] With --joins P the part's joins are timed inside the
 * count (probe.h, the probe's join_seconds) and scaled by P, and the rest
 * of the sets' time (their halves, their grouping, the joiner's layout of
 * the bottoms and its loop over the blocks it skips) taken once: the
 * halves are built once, where timing a count with no joins apart built
 * them twice.
 * A line per unit measured goes to stderr, so a long sample shows how it
 * goes.
 * [run memory] The timed pass keeps or frees the working memory from unit
 * to unit as a run does ([fresh scratch], join/scratch.h), one unit after
 * another on one thread: its peak resident size above the plan's, the
 * run_memory_mib line, is what a thread holds counting those units (less
 * with --sets, which lists and builds only some of a unit's sets).
 * [unit memory] A second, untimed pass lists each unit's bands again with
 * the plan's kept memory freed and the peak resident size reset
 * (/proc/self/clear_refs), so each unit's peak is its own: its band lists
 * and every column set's halves, none joined.
 *
 * stdout: one `key value...` line per figure; intervals as `value +- hw`.
 * Exit 2 on bad input, 1 when a unit fails.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "join/probe.h"
#include "join/settings.h"
#include "qcount.h"
#include "sampling.h"

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A field of /proc/self/status in KiB, or -1. */
static long status_kib(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    const size_t len = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, key, len))
            v = atol(line + len);
    if (f)
        fclose(f);
    return v;
}

/* [unit memory] the peak resident size starts again from the current. */
static void reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

static int usage(const char *why)
{
    fprintf(stderr, "qcount_sample: %s\nusage: qcount_sample N [--units U] [--strata H] "
                    "[--seed S] [--sets K] [--joins P] [--memory-units M] [--largest L] "
                    "[--key-bits B] [--plan P] [--unit U]... [--against-whole]\n", why);
    return 2;
}

/* A positive count from text, or 0. */
static unsigned long long count_of(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    return errno || *end || end == s || s[0] == '-' ? 0 : v;
}

/* The command line. */
typedef struct sample_options {
    int n;
    unsigned long long units_wanted, strata, seed, sets, joins, largest, key_bits, memory_units,
        profile;
    int units_given;      /* --units given (else with --unit: no sample) */
    int against_whole;    /* [against whole] */
    size_t given[64], given_count;
} sample_options;

/* The largest peak resident size seen (KiB): one thread's process. */
static long process_peak;

/* What one unit measured: its estimated solutions, CPU seconds and peak
 * memory (MiB) above the plan. */
typedef struct unit_measure {
    double solutions, cpu, memory;
    double steps;     /* the steps counted (qc_tally.steps): of a sampled part, not scaled */
} unit_measure;

/* Counts unit u, of about `sets` column sets a part (0: whole) and one of
 * `joins` parts of their joins (0 or 1: whole), into m: its solutions and
 * CPU time, with the working memory kept or freed from unit to unit as a
 * run does.  [sampled joins] [joins timed] With joins > 1 one part of the
 * top blocks is joined; the joins' time is scaled by `joins`, the rest of
 * the sets' work (their halves) counted once.  Where so few are joined
 * that their time, less the joiner's layout timed apart, falls below
 * zero, a warning goes to stderr: the estimate is then not to be
 * trusted (--joins too large). */
static int measure_unit(const qc_plan *plan, size_t u, unsigned long long sets,
                        unsigned long long joins, uint64_t *state, unit_measure *m)
{
    qcj_probe pr;
    const double t0 = thread_cpu_seconds();
    int rc = qcj_probe_start(plan, u, &pr);
    if (rc != QC_OK)
        return rc;
    const double t1 = thread_cpu_seconds();
    /* one of `parts` equal parts of its sets, picked at random, times parts */
    const uint64_t parts = sets && pr.keys > sets ? (pr.keys + sets - 1) / sets : 1;
    const uint64_t j = parts > 1 ? qcb_next(state) % parts : 0;
    const uint64_t lo = pr.keys * j / parts, hi = pr.keys * (j + 1) / parts;
    const uint32_t jp = joins > 1 ? (uint32_t)joins : 0;
    const uint32_t jpart = jp ? (uint32_t)(qcb_next(state) % jp) : 0;
    qc_tally t;
    rc = qcj_probe_sets(&pr, lo, hi, jp, jpart, &t);
    const double t2 = thread_cpu_seconds();
    const double joined = pr.join_seconds;            /* [joins timed] */
    const double rest = t2 - t1 - joined - pr.timing_seconds;
    qcj_probe_end(&pr);
    if (rc != QC_OK)
        return rc;
    m->solutions = (double)parts * (jp ? jp : 1) * (double)t.solutions;
    m->steps = (double)t.steps;
    m->cpu = (t1 - t0) * pr.list_share + (double)parts * ((rest > 0 ? rest : 0) + (jp ? jp : 1) * joined);
    fprintf(stderr, "qcount_sample: unit %zu keys %llu-%llu of %llu, joins part %u of %u: "
                    "listing %.3g s, halves %.3g s, joins %.3g s; estimate %.4g s, %.4g solutions\n",
            u, (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)pr.keys, jpart,
            jp ? jp : 1, t1 - t0, rest, joined, m->cpu, m->solutions);
    if (joined < 0)
        fprintf(stderr, "qcount_sample: warning: unit %zu's joins timed below zero: too few "
                        "joined to time at --joins %u; its CPU estimate is not to be trusted\n",
                u, jp);
    return QC_OK;
}

/* [unit memory] Unit u's peak memory above the plan's (MiB) into m: with
 * nothing kept from other units, its bands listed and every column set's
 * halves built and laid out for the joiner, none joined ([sampled joins]
 * part 2 of 2: joining adds no memory, and one set's join at N=28 takes
 * an hour).  Untimed. */
static int measure_memory(const qc_plan *plan, size_t u, unit_measure *m)
{
    qcj_plan_trim(plan);
    malloc_trim(0);
    const long base = status_kib("VmRSS:");
    reset_peak();
    qcj_probe pr;
    int rc = qcj_probe_start(plan, u, &pr);
    qc_tally t;
    if (rc == QC_OK)
        rc = qcj_probe_sets(&pr, 0, pr.keys, 2, 2, &t);
    if (pr.sc)
        qcj_probe_end(&pr);
    const long peak = status_kib("VmHWM:");
    if (peak > process_peak)
        process_peak = peak;
    m->memory = peak > base && base > 0 ? (double)(peak - base) / 1024.0 : 0;
    qcj_plan_trim(plan);
    return rc;
}

/* [against whole] Units' sampled estimates and whole counts, added up. */
typedef struct whole_sums {
    double sampled_cpu, whole_cpu, sampled_solutions, whole_solutions, whole_steps;
    size_t units;
} whole_sums;

/* [against whole] The rest of a line after its unit or units: both CPU
 * times and solutions, their ratios, the whole units' steps a solution. */
static void print_against(const whole_sums *w)
{
    const double time = w->whole_cpu > 0 ? w->sampled_cpu / w->whole_cpu : 0;
    const double sols = w->whole_solutions > 0 ? w->sampled_solutions / w->whole_solutions : 0;
    printf("sampled_cpu_seconds %.4g whole_cpu_seconds %.4g time_ratio %.3f sampled_solutions %.4g "
           "whole_solutions %.17g solutions_ratio %.3f per_solution_ratio %.3f "
           "whole_steps_per_solution %.1f\n",
           w->sampled_cpu, w->whole_cpu, time, w->sampled_solutions, w->whole_solutions, sols,
           sols > 0 ? time / sols : 0, w->whole_solutions > 0 ? w->whole_steps / w->whole_solutions : 0);
    fflush(stdout);
}

/* [against whole] Unit u, whose sampled estimate is *sampled, counted
 * whole at once on this thread; its line on stdout, and both added to
 * *sums unless NULL.  Returns QC_OK or the count's error. */
static int against_whole(const qc_plan *plan, size_t u, const unit_measure *sampled,
                         uint64_t *state, whole_sums *sums)
{
    unit_measure whole;
    const int rc = measure_unit(plan, u, 0, 0, state, &whole);
    if (rc != QC_OK)
        return rc;
    const whole_sums one = {.sampled_cpu = sampled->cpu, .whole_cpu = whole.cpu,
                            .sampled_solutions = sampled->solutions,
                            .whole_solutions = whole.solutions, .whole_steps = whole.steps,
                            .units = 1};
    printf("against_whole unit %zu ", u);
    print_against(&one);
    if (sums) {
        sums->sampled_cpu += one.sampled_cpu;
        sums->whole_cpu += one.whole_cpu;
        sums->sampled_solutions += one.sampled_solutions;
        sums->whole_solutions += one.whole_solutions;
        sums->whole_steps += one.whole_steps;
        sums->units++;
    }
    return QC_OK;
}

/* --unit: each unit given measured, a line each on stdout.  Returns 0,
 * or 1 when one fails. */
static int measure_given(const qc_plan *plan, const size_t *given, size_t count,
                         const sample_options *o)
{
    uint64_t state = o->seed ^ 0x9e3779b97f4a7c15ULL;
    for (size_t g = 0; g < count; g++) {
        unit_measure m;
        if (measure_unit(plan, given[g], o->sets, o->joins, &state, &m) != QC_OK
            || (o->against_whole && against_whole(plan, given[g], &m, &state, NULL) != QC_OK)
            || measure_memory(plan, given[g], &m) != QC_OK) {
            fprintf(stderr, "qcount_sample: unit %zu failed\n", given[g]);
            return 1;
        }
        printf("unit %zu cpu_seconds %.4g solutions %.4g memory_mib %.1f\n", given[g], m.cpu,
               m.solutions, m.memory);
        fflush(stdout);
    }
    return 0;
}

static void print_estimate(const char *key, qcb_estimate e, double scale)
{
    printf("%s %.6g +- %.3g (df %d)\n", key, e.value * scale, e.half_width * scale, e.df);
}

/* Reads argv into *o; 0, or usage()'s status on a bad argument. */
static int parse_options(int argc, char **argv, sample_options *o)
{
    *o = (sample_options){.units_wanted = 64, .strata = 8};
    int seed_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--against-whole")) {
            o->against_whole = 1;
            continue;
        }
        if (!strcmp(a, "--unit")) {
            char *end;
            errno = 0;
            if (i + 1 >= argc || o->given_count == 64)
                return usage("--unit takes a unit number, at most 64 times");
            const unsigned long long u = strtoull(argv[++i], &end, 10);
            if (errno || *end || end == argv[i] || argv[i][0] == '-')
                return usage("--unit takes a unit number");
            o->given[o->given_count++] = (size_t)u;
            continue;
        }
        unsigned long long *opt = !strcmp(a, "--units") ? &o->units_wanted
                                : !strcmp(a, "--strata") ? &o->strata
                                : !strcmp(a, "--seed") ? &o->seed
                                : !strcmp(a, "--sets") ? &o->sets
                                : !strcmp(a, "--joins") ? &o->joins
                                : !strcmp(a, "--largest") ? &o->largest
                                : !strcmp(a, "--memory-units") ? &o->memory_units
                                : !strcmp(a, "--plan") ? &o->profile
                                : !strcmp(a, "--key-bits") ? &o->key_bits : NULL;
        if (opt) {
            if (i + 1 >= argc)
                return usage("a count must follow");
            *opt = count_of(argv[++i]);
            o->units_given |= opt == &o->units_wanted;
            if (opt == &o->seed)
                seed_given = 1;
            else if (*opt == 0 && opt != &o->largest)
                return usage("a positive count must follow");
        } else if (!o->n) {
            unsigned long long v = count_of(a);
            if (v < 1 || v > 32)
                return usage("N must be 1..32");
            o->n = (int)v;
        } else {
            return usage("unexpected argument");
        }
    }
    if (!o->n)
        return usage("N is missing");
    if (o->strata > 4096 || o->units_wanted < o->strata)
        return usage("--units must be at least --strata, which is at most 4096");
    if (o->profile > 32)
        return usage("--plan takes a board size, 1..32");
    if (o->key_bits > 18)
        return usage("cannot plan this board");
    if (o->against_whole && (o->joins < 2 || o->sets))
        return usage("--against-whole compares --joins P (at least 2) with whole units, "
                     "and takes no --sets");
    if (!seed_given)
        o->seed = (unsigned long long)time(NULL) ^ ((unsigned long long)clock() << 32);
    return 0;
}

/* The sampled units measured, and their estimates printed: time as in a
 * run, then memory (untimed) of every unit or of --memory-units of them
 * spread evenly over the sample (which lists its strata in turn).
 * Returns 0, or 1 when one fails. */
static int sample_units(const qc_plan *plan, const sample_options *o, const qcb_sample *s,
                        uint64_t *state)
{
    unit_measure *m = calloc(s->count + 1, sizeof *m);
    double *sol = calloc(s->count + 1, sizeof *sol), *cpu = calloc(s->count + 1, sizeof *cpu);
    double *mem = calloc(s->count + 1, sizeof *mem);
    int rc = !m || !sol || !cpu || !mem;
    const long run_base = status_kib("VmRSS:");
    reset_peak();
    whole_sums sums = {0};
    for (size_t i = 0; !rc && i < s->count; i++)   /* timed, memory kept as in a run */
        if (measure_unit(plan, s->unit[i], o->sets, o->joins, state, &m[i]) != QC_OK
            || (o->against_whole && against_whole(plan, s->unit[i], &m[i], state, &sums) != QC_OK)) {
            fprintf(stderr, "qcount_sample: unit %zu failed\n", s->unit[i]);
            rc = 1;
        }
    if (!rc && o->against_whole) {                 /* [against whole] */
        printf("against_whole_sum units %zu ", sums.units);
        print_against(&sums);
    }
    const long run_peak = status_kib("VmHWM:");     /* [run memory] */
    const size_t mem_count = o->memory_units && o->memory_units < s->count ? (size_t)o->memory_units
                                                                           : s->count;
    double mem_max = 0;
    size_t mem_max_unit = 0;
    for (size_t r = 0; !rc && r < mem_count; r++) {   /* [unit memory], untimed */
        const size_t i = r * s->count / mem_count;
        if (measure_memory(plan, s->unit[i], &m[i]) != QC_OK) {
            fprintf(stderr, "qcount_sample: unit %zu failed\n", s->unit[i]);
            rc = 1;
        }
        mem[i] = m[i].memory;
        if (mem[i] > mem_max) {
            mem_max = mem[i];
            mem_max_unit = s->unit[i];
        }
    }
    for (size_t i = 0; !rc && i < s->count; i++) {
        sol[i] = m[i].solutions;
        cpu[i] = m[i].cpu;
    }
    if (!rc) {
        printf("n %d units %zu sampled %zu strata %d seed %llu sets %llu joins %llu isa %s\n", o->n,
               qc_plan_unit_count(plan), s->count, s->strata, o->seed, o->sets, o->joins,
               qc_isa_name());
        print_estimate("solutions", qcb_total(s, sol), 1);
        print_estimate("cpu_seconds", qcb_total(s, cpu), 1);
        print_estimate("core_days", qcb_total(s, cpu), 1.0 / 86400);
        print_estimate("ns_per_solution", qcb_ratio(s, cpu, sol), 1e9);
        print_estimate("unit_cpu_seconds_mean", qcb_mean(s, cpu), 1);
        if (mem_count == s->count)
            print_estimate("unit_memory_mib_mean", qcb_mean(s, mem), 1);
        printf("unit_memory_mib_max %.1f unit %zu of %zu measured\n", mem_max, mem_max_unit,
               mem_count);
        printf("run_memory_mib %.1f\n",
               run_peak > run_base && run_base > 0 ? (double)(run_peak - run_base) / 1024.0 : 0);
    }
    free(m);
    free(sol);
    free(cpu);
    free(mem);
    return rc;
}

/* --largest: the units of largest estimated cost (cost[], spent: set to
 * -1 as each is taken), measured.  Returns 0, or 1 when one fails. */
static int measure_largest(const qc_plan *plan, const sample_options *o, double *cost,
                           uint64_t *state)
{
    const size_t units = qc_plan_unit_count(plan);
    for (size_t r = 0; r < o->largest && r < units; r++) {
        size_t best = 0;
        for (size_t u = 1; u < units; u++)
            if (cost[u] > cost[best])
                best = u;
        unit_measure lm;
        if (measure_unit(plan, best, o->sets, o->joins, state, &lm) != QC_OK
            || measure_memory(plan, best, &lm) != QC_OK)
            return 1;
        printf("largest_unit %zu cpu_seconds %.4g memory_mib %.1f\n", best, lm.cpu, lm.memory);
        cost[best] = -1;                     /* the next largest */
    }
    return 0;
}

/* The sample drawn by cost, measured and estimated, the largest units and
 * the units given after it.  Returns 0, or 1 when one fails. */
static int run_sample(const qc_plan *plan, const sample_options *o)
{
    const size_t units = qc_plan_unit_count(plan);
    double *cost = malloc(units * sizeof *cost);
    if (!cost)
        return 1;
    for (size_t u = 0; u < units; u++)
        cost[u] = qc_plan_unit_cost(plan, u);
    qcb_sample s;
    const size_t per = (size_t)((o->units_wanted + o->strata - 1) / o->strata);
    if (qcb_draw(cost, units, (int)o->strata, per < 2 ? 2 : per, o->seed, &s) != 0) {
        free(cost);
        return 1;
    }
    uint64_t state = o->seed ^ 0x5851f42d4c957f2dULL;
    int rc = sample_units(plan, o, &s, &state);
    if (!rc)
        rc = measure_largest(plan, o, cost, &state);
    if (!rc)
        rc = measure_given(plan, o->given, o->given_count, o);
    if (!rc)
        printf("process_peak_rss_mib %.1f\n", (double)process_peak / 1024.0);
    qcb_sample_free(&s);
    free(cost);
    return rc;
}

int main(int argc, char **argv)
{
    const char *level = getenv("QCOUNT_ISA");
    if (level && *level && qc_isa_select(level) != QC_OK) {
        fprintf(stderr, "qcount_sample: QCOUNT_ISA=%s: unknown here or not on this CPU\n", level);
        return 2;
    }
    sample_options o;
    const int bad = parse_options(argc, argv, &o);
    if (bad)
        return bad;
    /* [unit memory] large blocks always mapped, so that freeing them gives
     * the memory back and the next unit's peak is its own */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    qc_plan *plan;
    qcj_settings settings = qcj_settings_for(o.n, (int)o.profile);   /* [plan profiles] */
    if (o.key_bits)
        settings.key_bits = (int)o.key_bits;  /* a plan of its own, for tuning */
    if (qcj_plan_create_with(&plan, o.n, &settings) != QC_OK)
        return usage("cannot plan this board");
    const size_t units = qc_plan_unit_count(plan);
    int rc = 0;
    for (size_t g = 0; g < o.given_count; g++)
        if (o.given[g] >= units)
            rc = usage("--unit past the plan's units");
    if (!rc && o.given_count && !o.units_given) {  /* the units given, and no sample */
        printf("n %d units %zu isa %s\n", o.n, units, qc_isa_name());
        rc = measure_given(plan, o.given, o.given_count, &o);
    } else if (!rc) {
        rc = run_sample(plan, &o);
    }
    qc_plan_free(plan);
    return rc;
}
