/* SPDX-License-Identifier: MIT */
/*
 * qcount.h — the public C API of libqcount, the N-Queens solution counter:
 * totals.  Its companion qcount_solutions.h is the public API for single
 * solutions (listing, symmetries, verifying, constructing); the two are all
 * a program needs to count and to list.  MPI runs are the program's
 * (threads/mpi/count.h, with the launcher checks in
 * threads/include/mpi_run.h), not the library's.
 *
 * The counting is split in two rooms.  core/ (qc_plan_*, qc_engine_*) is
 * pure counting: it divides the board of size N into independent work
 * units and counts any one of them, with no threads and no I/O.  threads/
 * (qc_run_*) schedules those units over cores and sums their tallies.  The
 * CLI and the benchmarks use the public headers, but for two internal tools:
 * the sampler reads the join engine's probe (core/join/probe.h) and the
 * CLI's test-only fault hook; tests of the engines' building blocks link the
 * internal target qcount_core_internal.
 *
 * Arguments: every function checks its pointers and ranges before it uses
 * them.  A NULL pointer where one is needed, N out of QC_N_MIN..QC_N_MAX,
 * an unknown engine or a unit past the plan's gives QC_EINVAL, with any
 * output zeroed or NULL (the accessors of a NULL plan return 0, and for
 * its engine an id that names none: qc_engine_name gives NULL for it; each
 * function says its own).  What no
 * check can see stays the caller's to keep: a plan not yet freed, a buffer
 * of the size asked for.
 */
#ifndef QCOUNT_H
#define QCOUNT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of these headers; the top-level CMakeLists.txt reads it from
 * here, so this is its one place.  The library's own is qc_version(): a
 * program may compare the two (same major: the same ABI). */
#define QC_VERSION_MAJOR 0
#define QC_VERSION_MINOR 1
#define QC_VERSION_PATCH 0
#define QC_VERSION_NUMBER (QC_VERSION_MAJOR * 10000 + QC_VERSION_MINOR * 100 + QC_VERSION_PATCH)
#define QC_VERSION_STR_(x) #x
#define QC_VERSION_STR(x) QC_VERSION_STR_(x)
#define QC_VERSION                                                                             \
    QC_VERSION_STR(QC_VERSION_MAJOR) "." QC_VERSION_STR(QC_VERSION_MINOR) "."                  \
    QC_VERSION_STR(QC_VERSION_PATCH)

/* The running library's version: QC_VERSION_NUMBER and QC_VERSION as it
 * was built, e.g. 100 and "0.1.0". */
unsigned qc_version(void);
const char *qc_version_string(void);

/* Boards are bitmasks in 32-bit words, so N is at most 32.  Totals pass
 * 2^64 from N=29 on, so every total is kept in 128 bits (a GCC and clang
 * type; __extension__ keeps -Wpedantic quiet about it). */
/* QC_ALSO_NAMED(new, old): a struct member declared `new` that code may
 * also reach by its former declaration `old` (an anonymous union of the
 * two, where the language has one: C11, C++, or GNU C). */
#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L)
#define QC_ALSO_NAMED(new_member, old_member) union { new_member; old_member; }
#elif defined(__GNUC__)
#define QC_ALSO_NAMED(new_member, old_member) __extension__ union { new_member; old_member; }
#else
#define QC_ALSO_NAMED(new_member, old_member) new_member
#endif

#define QC_N_MIN 1
#define QC_N_MAX 32

__extension__ typedef unsigned __int128 qc_u128;

/* Writes v in decimal into buf (at least 40 bytes); returns buf (NULL when
 * buf is NULL). */
char *qc_u128_format(qc_u128 v, char *buf);

/* Error codes returned by the API (0 is success). */
enum {
    QC_OK = 0,
    QC_EINVAL = 1,  /* an argument is out of range */
    QC_ENOMEM = 2,  /* an allocation failed */
    QC_ESTOP = 3,   /* a run was asked to stop before it finished */
    QC_EHOOK = 4,   /* a run's unit_done hook failed (e.g. its ledger) */
    QC_ENOTSUP = 5  /* not supported here: a CPU level this CPU lacks
                       (qc_isa_select), an engine without a second path
                       (qc_plan_recount_unit), an option this library
                       does not know (qc_run_options.size) */
};

/* A short English description of an error code ("out of memory"); a
 * static string, "unknown error" for a code not listed above. */
const char *qc_strerror(int code);

/* ---- instruction-set levels (core/isa.c) ---------------------------- */

/* The engines' hot loops are built for several instruction-set levels in
 * one library: "portable" (the compiler's default target, any CPU); on
 * x86-64 "avx2" (x86-64-v3: AVX2, BMI2, POPCNT, LZCNT), "avx512"
 * (x86-64-v4) and "avx512vbmi" (x86-64-v4 with VBMI, VPOPCNTDQ and GFNI);
 * on 64-bit Arm "neon".  The first count runs them at the best level the
 * CPU has, and every count after it at the same level; the rest of the
 * library runs on any CPU of its architecture. */

/* The level the engines run at: one of the names above. */
const char *qc_isa_name(void);
/* Runs the engines at level `name` from now on (NULL: the best level the
 * CPU has), to compare levels or to test them; best called before
 * counting, as a unit counts at the level of its start.  Returns QC_OK;
 * QC_EINVAL for an unknown name; QC_ENOTSUP when this CPU lacks the level
 * (or it is another architecture's). */
int qc_isa_select(const char *name);

/* ---- engines and plans (core/) ------------------------------------- */

typedef enum qc_engine_id {
    QC_ENGINE_HALVING = 0, /* mirror halving over a 2-4 row prefix split */
    QC_ENGINE_EIGHTFOLD,   /* all 8 symmetries over border constellations */
    QC_ENGINE_JOIN,        /* meet in the middle: top halves x bottom halves */
    QC_ENGINE_DLX,         /* oracle: exact cover by dancing links      */
    QC_ENGINE_BRUTE        /* oracle: plain permutation search, no bitmasks */
} qc_engine_id;

/* The engine's short name ("halving", ...); NULL for an unknown id. */
const char *qc_engine_name(qc_engine_id engine);
/* Looks a name up; returns QC_OK and sets *out, or QC_EINVAL (an unknown
 * or NULL name, out NULL). */
int qc_engine_lookup(const char *name, qc_engine_id *out);
/* The engine used for an n-board when none is asked for: the fastest one
 * measured at that size (join from N=14, eightfold below; any n). */
qc_engine_id qc_engine_default(int n);

/* What counting one work unit found.  solutions is already multiplied by
 * the unit's symmetry weight; steps is the work done, counted: for the
 * backtracking engines (halving, eightfold, dlx, brute) the queens the
 * search put on the board (its nodes); for join the queens placed in its
 * bands plus the pairs of band placements and of halves it tested.  (The
 * work a unit is estimated to take before it is counted is its cost,
 * qc_plan_unit_cost.)  steps was called placements, which still names it. */
typedef struct qc_tally {
    qc_u128 solutions;
    QC_ALSO_NAMED(uint64_t steps, uint64_t placements);
} qc_tally;

/* A plan is one engine's division of an N-board into work units.  Units
 * are numbered 0..units-1 in a fixed order, so the same (N, engine) always
 * gives the same units: a ledger or a remote rank may name them by index. */
typedef struct qc_plan qc_plan;

/* Returns QC_OK with *out set; QC_EINVAL (out NULL, n or engine out of
 * range; *out NULL when out is not) or QC_ENOMEM.  qc_plan_free(NULL)
 * does nothing; the accessors below return 0 for a NULL plan. */
int qc_plan_create(qc_plan **out, int n, qc_engine_id engine);
void qc_plan_free(qc_plan *plan);
int qc_plan_n(const qc_plan *plan);
qc_engine_id qc_plan_engine(const qc_plan *plan);
size_t qc_plan_unit_count(const qc_plan *plan);
/* A 64-bit digest of the split (engine, N, depth and every unit's
 * pre-placement): two plans with the same fingerprint have the same units. */
uint64_t qc_plan_fingerprint(const qc_plan *plan);
/* An estimate of the work in unit `unit`, relative to the plan's other
 * units (only ratios mean anything): for the progress line's share done
 * and time left.  1 for every unit of an engine that does not estimate;
 * 0 for a unit out of range or a NULL plan. */
double qc_plan_unit_cost(const qc_plan *plan, size_t unit);
/* Counts unit `unit` (< qc_plan_unit_count) from scratch into *out.  Pure:
 * safe to call from many threads at once on the same plan.  Returns QC_OK;
 * QC_ENOMEM when the unit's working memory could not be allocated;
 * QC_EINVAL when unit is out of range or plan or out is NULL.  On an error
 * *out (when not NULL) is zero and the unit is not counted: it must not
 * join a total nor be recorded as done. */
int qc_plan_count_unit(const qc_plan *plan, size_t unit, qc_tally *out);
/* The same, watching *stop (NULL: never stops): when *stop turns nonzero
 * (an atomic or signal-handler store), the count ends within about a
 * millisecond and returns QC_ESTOP with *out zero, never a partial count.
 * Returns QC_ESTOP too when *stop is already set on entry. */
int qc_plan_count_unit_until(const qc_plan *plan, size_t unit, const int *stop, qc_tally *out);
/* Counts unit `unit` again by a path that shares no pair-counting code
 * with qc_plan_count_unit's, to audit a recorded tally: a join unit by its
 * AND loop (one AND per pair of halves) at the portable level, instead of
 * the byte tables at the running level.  The solutions are the same; the
 * steps are too on even N, and may differ on odd N, whose
 * middle queen the AND loop treats otherwise.  Returns as
 * qc_plan_count_unit, and QC_ENOTSUP for the
 * other engines, which have no second path (recount them at another
 * instruction-set level: qc_isa_select).  *how, when how is not NULL,
 * says which path counted (a static string). */
int qc_plan_recount_unit(const qc_plan *plan, size_t unit, qc_tally *out, const char **how);

/* ---- plan profiles (core/join/profile.c) --------------------------- */

/* [plan profiles] The join engine's plan makes size-dependent choices:
 * how wide a unit's centre of central columns is, how bands are listed,
 * whether a column set is a unit of its own or cut in shares, the memory a
 * unit aims at, the tiles of its sieve.  Each board size gets one named
 * profile of such choices (core/config.h).  A plan may take another board
 * size's profile, scaled to its own board, so that the paths of the
 * record sizes (N=25..28) run on boards whose count is known.  The count
 * is the same under every profile; the units and the fingerprint are
 * not, so that a ledger of one profile is refused by another.  Engines
 * other than join have one plan and no profiles. */
typedef struct qc_plan_options {
    size_t size;          /* sizeof(qc_plan_options): required, as for
                             qc_run_options ([growing options]) */
    int profile;          /* 0: the board's own profile; else a board size
                             QC_N_MIN..QC_N_MAX whose join profile the plan
                             takes (the join engine alone) */
} qc_plan_options;

/* qc_plan_create with options (opts NULL: qc_plan_create).  Returns as
 * qc_plan_create; QC_EINVAL also for a profile out of range or opts->size
 * smaller than this first struct's; QC_ENOTSUP for a profile asked of an
 * engine without profiles (any but join), or a nonzero field past the
 * options this library knows. */
int qc_plan_create_with(qc_plan **out, int n, qc_engine_id engine, const qc_plan_options *opts);
/* The board size whose profile the plan takes: its own n unless another
 * was asked for; 0 for a NULL plan or an engine without profiles. */
int qc_plan_profile(const qc_plan *plan);
/* The profile's name ("set-shares", ...; core/config.h); "" for an engine
 * without profiles or a NULL plan. */
const char *qc_plan_profile_name(const qc_plan *plan);

/* ---- units in plain terms, and their independent recount ----------- */

/* [unit cases] What a unit counts, as weighted cases: a case is, for
 * every row r of the board, the set of columns rows[r] its queen may take
 * (bit c: column c+1; rows past n are 0).  A unit's tally (its
 * solutions) is the sum over its cases of weight x the number of N-Queens
 * solutions whose row-r queen lies in rows[r] for every r.  The
 * description is complete: it needs nothing of the engine to check. */
typedef struct qc_unit_case {
    uint64_t weight;
    uint32_t rows[QC_N_MAX];
} qc_unit_case;

/* Calls each(ctx, &case) for every case of unit `unit`, in a fixed order;
 * the case is the library's, valid during the call.  Returns QC_OK;
 * QC_EINVAL (plan or each NULL, unit out of range); QC_ENOTSUP for an
 * engine that does not describe its units (any but join); QC_EHOOK when
 * each returned nonzero, which ends the walk. */
int qc_plan_unit_describe(const qc_plan *plan, size_t unit,
                          int (*each)(void *ctx, const qc_unit_case *c), void *ctx);

/* [backtrack oracle] The solutions of the n-board whose row-r queen lies
 * in c->rows[r] for every r, by plain backtracking row by row (bitmasks,
 * the rows' sets as constraints; core/oracle/backtrack.c, which shares no
 * code with any engine), into *solutions, not multiplied by the weight;
 * adds the queens it placed (its steps) to *steps when not NULL.  It extends
 * many partial placements a row at a time, eight in a vector where the
 * CPU has AVX2 and the level (qc_isa_select) is not "portable"; either
 * way the same tree and the same queens placed.  Watches *stop
 * as qc_plan_count_unit_until does (NULL: never stops).  Returns QC_OK,
 * QC_EINVAL (n out of range, c or solutions NULL), QC_ENOMEM (its batches,
 * a few MiB) or QC_ESTOP. */
int qc_case_count(int n, const qc_unit_case *c, const int *stop, qc_u128 *solutions,
                  uint64_t *steps);

/* Unit `unit` counted again from its description alone
 * (qc_plan_unit_describe, qc_case_count): out->solutions the sum of the
 * cases' weights times their counts, out->steps the queens the
 * backtracking placed.  Returns as qc_plan_unit_describe, or QC_ENOMEM
 * or QC_ESTOP; *out is zero on an error. */
int qc_plan_backtrack_unit(const qc_plan *plan, size_t unit, const int *stop, qc_tally *out);

/* ---- fundamental solutions ----------------------------------------- */

/* Counts the solutions unchanged by a quarter turn (*r90) and by a half
 * turn (*r180) with two small searches; adds the queens they place to
 * *steps when it is not NULL.  Returns QC_OK, or QC_EINVAL for n out
 * of range or r90 or r180 NULL. */
int qc_symmetric_counts(int n, qc_u128 *r90, qc_u128 *r180, uint64_t *steps);
/* Solutions distinct under rotation and reflection (OEIS A002562), by
 * Burnside's lemma: (total + 2*r90 + r180) / 8 for n > 1 (a solution is
 * never fixed by a reflection, and a quarter turn fixes it exactly when the
 * other quarter turn does).  0 for n out of range. */
qc_u128 qc_fundamental_count(int n, qc_u128 total, qc_u128 r90, qc_u128 r180);

/* ---- runs over threads (threads/) ---------------------------------- */

/* Where a run stands, for a progress display. */
typedef struct qc_progress {
    size_t units_done;    /* of units_total, units_resumed included        */
    size_t units_total;
    size_t units_resumed; /* known before the run (unit_known), not redone */
    /* The same by estimated work (qc_plan_unit_cost): units differ in
     * size, so these give the fraction done and the time left. */
    double work_done;     /* of work_total, work_resumed included           */
    double work_total;
    double work_resumed;
    /* steps (qc_tally) of this run so far (resumed excluded) */
    QC_ALSO_NAMED(qc_u128 steps, qc_u128 placements);
    double seconds;       /* since the run started                         */
} qc_progress;

/* The most threads a run takes (qc_run_options.threads). */
#define QC_THREADS_MAX 4096

/* A run's options.  Set size to sizeof(qc_run_options) (the size the
 * caller was compiled with), and zero what is not used:
 *   qc_run_options o = {.size = sizeof o, .threads = 4};
 * so that a later library with more fields at the end still reads an
 * older caller's struct (the fields past size are taken as zero), and an
 * older library refuses a newer caller's nonzero field it cannot honour
 * (QC_ENOTSUP) instead of ignoring it.  New fields are only ever added at
 * the end.  [growing options] (threads/run.c) */
typedef struct qc_run_options {
    size_t size;          /* sizeof(qc_run_options): required             */
    int threads;          /* 0: one per slot (see QC_BIND_SMT below); at
                             most QC_THREADS_MAX                           */
    int bind;             /* QC_BIND_* flags, below                        */
    /* Resumable, stoppable runs: all optional, zero/NULL is off. */
    void *hook_ctx;       /* passed to the three hooks                     */
    /* Nonzero when `unit` is already counted (a checkpoint ledger): its
     * tally in *out is added to the result and it is not counted again.
     * Called once per unit before counting starts, on the calling thread. */
    int (*unit_known)(void *ctx, size_t unit, qc_tally *out);
    /* Called once per unit counted by this run, one call at a time
     * (serialised), from any worker.  A nonzero return stops the run as
     * *stop does, and qc_run returns QC_EHOOK. */
    int (*unit_done)(void *ctx, size_t unit, const qc_tally *t);
    /* Called once before counting and after each unit_done, serialised. */
    void (*progress)(void *ctx, const qc_progress *p);
    /* When *stop turns nonzero (store it with __atomic_store_n, which is
     * safe in a signal handler), the workers stop promptly, also inside a
     * long unit (qc_plan_count_unit_until); units cut short are dropped,
     * never reported to unit_done, and qc_run returns QC_ESTOP with the
     * result of the units finished. */
    const int *stop;
} qc_run_options;

/* What a run counted, and how and where.  The caller's storage, written
 * whole by the library: unlike qc_run_options it has no size field, so it
 * changes only with the library's major version (its soname). */
typedef struct qc_result {
    qc_u128 total;        /* solutions on the whole board                  */
    QC_ALSO_NAMED(qc_u128 steps, qc_u128 placements);   /* qc_tally's, all units */
    size_t units;         /* work units counted (resumed ones included)    */
    size_t units_resumed; /* of those, taken from unit_known               */
    /* of steps, from unit_known */
    QC_ALSO_NAMED(qc_u128 steps_resumed, qc_u128 placements_resumed);
    int threads;          /* threads that ran                              */
    double seconds;       /* wall-clock time of the run                    */
    double cpu_seconds;   /* CPU time of the calling process (every thread,
                             user and system) over the same interval       */
    int cpu_count;        /* CPUs the threads ran on; 0 when hwloc cannot
                             tell (as qc_topology_cpus for this run)       */
    char cpus[256];       /* their OS numbers, "0-3,8"; "" when unknown    */
} qc_result;

/* qc_run_options.bind.  A run's threads stay on the CPUs the calling
 * thread may use (its affinity: taskset, cgroup cpusets, Slurm), on one
 * processing unit (PU) per physical core, or on every PU with QC_BIND_SMT
 * (SMT siblings after every core's first PU): those are its slots.  With
 * QC_BIND_PIN and no more threads than slots, each thread is pinned to its
 * own slot; otherwise the threads move freely over all the slots.  The
 * calling thread gets its own CPUs back when qc_run returns. */
#define QC_BIND_PIN 1     /* pin each thread to its own slot               */
#define QC_BIND_SMT 2     /* SMT siblings too: one slot per allowed PU     */

/* Physical cores this process may use (its CPU affinity, as hwloc sees
 * the machine); at least 1. */
int qc_topology_cores(void);
/* The CPUs a qc_run with these threads (0: the default) and bind flags
 * runs on, as a list of OS CPU numbers ("0-3,8") in buf; returns how many,
 * or 0 (buf "") when hwloc cannot tell, or -QC_EINVAL for threads < 0,
 * unknown bind flags or buf NULL with len > 0.  buf NULL with len 0: the
 * count alone. */
int qc_topology_cpus(int threads, int bind, char *buf, size_t len);

/* Counts every unit of plan over opts->threads threads (opts NULL: the
 * defaults, one thread per slot, pinned); fills *result.  Returns QC_OK;
 * QC_EINVAL (nothing counted) for plan or result NULL, opts->size smaller
 * than this first release's struct, threads < 0 or past QC_THREADS_MAX,
 * or unknown bind flags; QC_ENOTSUP for a nonzero field past the options
 * this library knows; QC_ESTOP / QC_EHOOK with *result covering the units
 * finished before the stop; or QC_ENOMEM when a unit ran out of memory
 * (qc_plan_count_unit): that unit is dropped, never passed to unit_done,
 * no unit starts after it, and *result covers the units finished (those
 * under way when it failed run to their end and reach unit_done); the
 * total is then incomplete (result->units < qc_plan_unit_count). */
int qc_run(const qc_plan *plan, const qc_run_options *opts, qc_result *result);

#ifdef __cplusplus
}
#endif
#endif
