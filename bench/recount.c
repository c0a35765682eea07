/* SPDX-License-Identifier: MIT */
/*
 * recount.c — what the independent recount of a join unit costs beside the
 * join ([backtrack oracle], qc_plan_backtrack_unit): each unit given is
 * counted by join, whole, then by backtracking from its cases
 * (qc_plan_unit_describe, qc_case_count), whole or, with --cases C, on C
 * of its cases drawn at random (seeded), whose time is scaled up by the
 * cases' count to estimate the whole recount's.  Times are this thread's
 * CPU seconds.
 *
 *   qcount_recount N [--plan P] [--cases C] [--seed S] [--descents K --depth D] UNIT...
 *
 * [random descents] Where a case alone takes hours (N=27, 28), --descents
 * K --depth D estimates each case's recount instead of making it: K times
 * a random path through the case's first D rows, each row's queen drawn
 * evenly from the columns the rows above leave it, and the rest of the
 * case counted whole below that path (qc_case_count on the case with the
 * path's D rows fixed), its time and solutions multiplied by the product
 * of the choices the path had (Knuth's estimator of a search tree: an
 * unbiased estimate of the whole case's time and count).  The solutions
 * estimated beside join's exact ones say how good the time's estimate is.
 *
 * QCOUNT_ISA=LEVEL runs both at that level (the recount's scalar kernel
 * at "portable").
 *
 * UNIT may be "last" (the plan's last unit) or "last-K".  stdout: one line
 * per unit: its cases, join's seconds, solutions and nanoseconds a
 * solution, the recount's (estimated where sampled), their ratio, and
 * whether the tallies are equal (whole recounts) or the sampled cases'
 * share of them.  Exit 2 on bad input, 1 when a whole recount differs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qcount.h"

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The unit's cases, copied. */
typedef struct case_list {
    qc_unit_case *at;
    size_t count, room;
} case_list;

static int keep_case(void *ctx, const qc_unit_case *c)
{
    case_list *l = ctx;
    if (l->count == l->room) {
        const size_t room = l->room ? 2 * l->room : 64;
        qc_unit_case *at = realloc(l->at, room * sizeof *at);
        if (!at)
            return 1;
        l->at = at;
        l->room = room;
    }
    l->at[l->count++] = *c;
    return 0;
}

/* [random descents] One path's estimate of case c's backtracking: *t
 * the seconds, *found the solutions (weighted), both scaled by the
 * path's choices; 0, or 2 on an error. */
static int descend(int n, const qc_unit_case *c, int depth, uint64_t *seed, double *t,
                   double *found, uint64_t *nodes)
{
    qc_unit_case sub = *c;
    const uint32_t full = n == 32 ? UINT32_MAX : (1u << n) - 1u;
    uint32_t cols = 0, left = 0, right = 0;
    double scale = 1;
    *t = *found = 0;
    for (int r = 0; r < depth && r < n; r++) {
        const uint32_t open = c->rows[r] & full & ~(cols | left | right);
        const int k = __builtin_popcount(open);
        if (k == 0)
            return 0;                       /* no solution below: counts 0 */
        uint32_t pick = open;
        for (uint64_t skip = splitmix64(seed) % (uint64_t)k; skip; skip--)
            pick &= pick - 1;
        pick &= -pick;
        sub.rows[r] = pick;
        scale *= k;
        cols |= pick;
        left = (left | pick) << 1;
        right = (right | pick) >> 1;
    }
    qc_u128 got;
    const double t0 = thread_cpu_seconds();
    uint64_t placed = 0;
    if (qc_case_count(n, &sub, NULL, &got, &placed) != QC_OK)
        return 2;
    *t = (thread_cpu_seconds() - t0) * scale;
    *found = (double)got * (double)c->weight * scale;
    *nodes += (uint64_t)((double)placed * scale);
    return 0;
}

static int usage(const char *why)
{
    fprintf(stderr, "qcount_recount: %s\nusage: qcount_recount N [--plan P] [--cases C] "
                    "[--seed S] UNIT...\n", why);
    return 2;
}

/* One unit: join, then the backtracking over all its cases or `sample`
 * of them.  Returns 0, 1 when a whole recount differs, 2 on an error. */
static int measure(const qc_plan *plan, size_t unit, size_t sample, int descents, int depth,
                   uint64_t *seed)
{
    case_list l = {0};
    if (qc_plan_unit_describe(plan, unit, keep_case, &l) != QC_OK) {
        free(l.at);
        return 2;
    }
    qc_tally t;
    double t0 = thread_cpu_seconds();
    if (qc_plan_count_unit(plan, unit, &t) != QC_OK) {
        free(l.at);
        return 2;
    }
    const double join_s = thread_cpu_seconds() - t0;
    const int whole = sample == 0 || sample >= l.count;
    const size_t take = whole ? l.count : sample;
    qc_u128 found = 0;
    uint64_t nodes = 0;
    double bt_s = 0, estimated = 0;
    t0 = thread_cpu_seconds();
    for (size_t i = 0; i < take; i++) {
        const qc_unit_case *c = &l.at[whole ? i : splitmix64(seed) % l.count];
        if (descents) {                     /* [random descents] */
            for (int k = 0; k < descents; k++) {
                double t, f;
                if (descend(qc_plan_n(plan), c, depth, seed, &t, &f, &nodes) != 0) {
                    free(l.at);
                    return 2;
                }
                bt_s += t / descents;
                estimated += f / descents;
            }
            continue;
        }
        qc_u128 got;
        if (qc_case_count(qc_plan_n(plan), c, NULL, &got, &nodes) != QC_OK) {
            free(l.at);
            return 2;
        }
        found += got * c->weight;
    }
    if (descents)
        nodes /= (uint64_t)descents;
    else
        bt_s = thread_cpu_seconds() - t0;
    bt_s = take ? bt_s * (double)l.count / (double)take : 0;
    estimated = take ? estimated * (double)l.count / (double)take : 0;
    const double solutions = (double)t.solutions;
    char js[48], bs[48];
    printf("unit %zu cases %zu join %.3f s %s solutions %.3f ns/solution; backtrack%s %.3f s "
           "%.3f ns/solution %.1f queens/solution; ratio %.1f; ", unit, l.count, join_s,
           qc_u128_format(t.solutions, js), join_s * 1e9 / solutions,
           whole && !descents ? "" : " (estimated)", bt_s, bt_s * 1e9 / solutions,
           take ? (double)nodes * (double)l.count / (double)take / solutions : 0, bt_s / join_s);
    if (descents)
        printf("solutions estimated %.4g, %.3f of join's\n", estimated, estimated / solutions);
    else
        printf("%s %s\n", whole ? (found == t.solutions ? "equal" : "DIFFER")
                               : "sampled cases' solutions", qc_u128_format(found, bs));
    fflush(stdout);
    free(l.at);
    return whole && !descents && found != t.solutions;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage("N and a unit are needed");
    const char *level = getenv("QCOUNT_ISA");   /* as qcount takes it: join's and the recount's */
    if (level && *level && qc_isa_select(level) != QC_OK)
        return usage("QCOUNT_ISA names no level this CPU has");
    char *end;
    errno = 0;
    const long n = strtol(argv[1], &end, 10);
    if (errno || *end || n < QC_N_MIN || n > QC_N_MAX)
        return usage("N must be 1..32");
    long profile = 0;
    unsigned long long sample = 0, seed = 1, descents = 0, depth = 0;
    int first_unit = 2;
    for (; first_unit + 1 < argc && strncmp(argv[first_unit], "--", 2) == 0; first_unit += 2) {
        const char *opt = argv[first_unit], *v = argv[first_unit + 1];
        const unsigned long long x = strtoull(v, &end, 10);
        if (*end || end == v)
            return usage("a number must follow the option");
        if (!strcmp(opt, "--plan") && x <= QC_N_MAX)
            profile = (long)x;
        else if (!strcmp(opt, "--cases"))
            sample = x;
        else if (!strcmp(opt, "--seed"))
            seed = x;
        else if (!strcmp(opt, "--descents") && x <= 1000000)
            descents = x;
        else if (!strcmp(opt, "--depth") && x <= QC_N_MAX)
            depth = x;
        else
            return usage("unknown option");
    }
    qc_plan *plan;
    const qc_plan_options o = {.size = sizeof o, .profile = (int)profile};
    if (qc_plan_create_with(&plan, (int)n, QC_ENGINE_JOIN, &o) != QC_OK)
        return usage("cannot plan this board");
    const size_t units = qc_plan_unit_count(plan);
    if (descents && !depth)
        return usage("--descents needs --depth");
    printf("n %ld plan %d (%s) units %zu isa %s\n", n, qc_plan_profile(plan),
           qc_plan_profile_name(plan), units, qc_isa_name());
    int status = 0;
    uint64_t state = seed;
    for (int i = first_unit; i < argc && status < 2; i++) {
        const char *a = argv[i];
        unsigned long long u = 0;
        if (!strncmp(a, "last", 4)) {
            const unsigned long long back = a[4] == '-' ? strtoull(a + 5, &end, 10) : 0;
            u = back < units ? units - 1 - back : units;
        } else {
            u = strtoull(a, &end, 10);
            if (*end || end == a)
                u = units;
        }
        if (u >= units) {
            qc_plan_free(plan);
            return usage("a unit past the plan's");
        }
        const int rc = measure(plan, (size_t)u, (size_t)sample, (int)descents, (int)depth, &state);
        status = rc > status ? rc : status;
    }
    qc_plan_free(plan);
    return status;
}
