/* SPDX-License-Identifier: MIT */
/*
 * count.c — one plan counted across the ranks of an MPI job (count.h): the
 * ranks agree on the plan, then each runs its messenger and counting
 * threads, and rank 0 gathers the sums and every rank's report.
 *
 * The parts: protocol.h (the messages between ranks), rank.h (a rank's
 * queue, outbox and counting threads), root.h (rank 0: the books, the
 * hand-out, the hooks), worker.h (the other ranks' messenger), job.h (the
 * job's lifetime, the launcher watch), handshake.h (the ranks' agreement
 * on the command, before any plan).
 *
 * Failures: a unit that runs out of memory (qc_plan_count_unit) is never
 * reported as counted.  Its rank stops counting (its counters' stop flag),
 * a worker sends FAIL and then only waits, and rank 0, on a FAIL or a
 * failure of its own, returns QC_ENOMEM at once, as on a stop: the caller
 * ends the job, so a failed unit ends the run with an error, never with a
 * total short of that unit.
 */
#define _GNU_SOURCE   /* sched_getaffinity */
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "job.h"
#include "mpi_run.h"
#include "qct_clock.h"
#include "rank.h"
#include "root.h"
#include "spawn.h"
#include "topology.h"
#include "worker.h"

double qcr_mpi_silence(void)
{
    return qct_launcher_seconds("QCOUNT_MPI_SILENCE", QCR_SILENCE_DEFAULT, 3, 3600);
}

/* ---- threads of one rank ----------------------------------------------- */

/* Ranks that share a machine and the same CPU binding share its cores: the
 * k-th of g such ranks takes cores [k*T, (k+1)*T) with T = cores/g, unless
 * --threads says otherwise.  Returns k and sets *group to g. */
static int machine_share(int *group)
{
    cpu_set_t set;
    unsigned long long h = 1469598103934665603ULL;   /* FNV-1a over the mask */
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        const unsigned char *p = (const unsigned char *)&set;
        for (size_t i = 0; i < sizeof set; i++)
            h = (h ^ p[i]) * 1099511628211ULL;
    }
    MPI_Comm node, same;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_split(node, (int)(h & 0x3fffffff), 0, &same);
    int k = 0, g = 1;
    MPI_Comm_rank(same, &k);
    MPI_Comm_size(same, &g);
    MPI_Comm_free(&same);
    MPI_Comm_free(&node);
    *group = g;
    return k;
}

/* This rank's share of the machine: how many counting threads, bound
 * from which slot (topology.h) in a machine-wide team of how many.
 * Collective (machine_share). */
typedef struct rank_cores {
    qct_topology *topo;       /* the CPUs this process is bound to       */
    int threads, first_core, team, bind;
} rank_cores;

static void open_cores(rank_cores *c, const qc_run_options *opts)
{
    int group = 1;
    int share = machine_share(&group);
    c->topo = qct_topology_open();
    c->bind = opts ? opts->bind : QC_BIND_PIN;
    int slots = qct_topology_slots(c->topo, c->bind);
    c->threads = opts && opts->threads > 0 ? opts->threads
                 : (slots / group > 0 ? slots / group : 1);
    /* the messenger's thread too; with none to spare it counts itself
     * (the probe sizes the share; the team made may still be smaller) */
    c->threads = qct_threads_available(c->threads + 1) - 1;
    c->first_core = share * c->threads;
    c->team = group * c->threads;
}

/* The messenger on thread 0, counters on 1..threads, each with its own
 * ts[t], on a team of this rank's own (spawn.h [team]). */
typedef struct rank_team {
    qcr_rank *s;
    qcr_root *books;
    const rank_cores *c;
    int me, ranks;
    qct_thread_sum *ts;
    int quit;                 /* rank 0's messenger quit at once */
} rank_team;

/* Before any member runs: the counters that started, for the messengers. */
static void team_ready(void *ctx, int team)
{
    rank_team *rt = ctx;
    omp_set_lock(&rt->s->lock);
    rt->s->counters_running = team - 1;
    omp_unset_lock(&rt->s->lock);
}

static void team_member(void *ctx, int t, int team)
{
    rank_team *rt = ctx;
    if (t == 0) {
        if (rt->me != 0)
            qcr_worker_messenger(rt->s, team - 1, &rt->ts[0]);
        else if (qcr_root_messenger(rt->s, rt->books, rt->ranks, team - 1, &rt->ts[0]) != 0)
            rt->quit = 1;
    } else {
        qct_topology_bind_thread(rt->c->topo, rt->c->first_core + t - 1, rt->c->team, rt->c->bind);
        qcr_rank_counter(rt->s, &rt->ts[t]);
    }
}

/* Returns the counters that started (the system may let fewer start than
 * asked for); sets *quit when rank 0's messenger quit at once. */
static int run_threads(qcr_rank *s, qcr_root *books, const rank_cores *c, int me, int ranks,
                       qct_thread_sum *ts, int *quit)
{
    rank_team rt = {s, books, c, me, ranks, ts, 0};
    int counters = qct_team_run(c->threads + 1, team_ready, team_member, &rt) - 1;
    *quit = rt.quit;
    return counters;
}

/* What this rank did, for the imbalance report: ts[0..n) summed. */
static void fill_stats(qcr_mpi_rank_stats *stats, int me, int counters,
                       const qct_thread_sum *ts, int n, double start)
{
    memset(stats, 0, sizeof *stats);
    stats->rank = me;
    stats->threads = counters > 0 ? counters : 1;
    stats->wall_seconds = qct_now_seconds() - start;
    for (int t = 0; t < n; t++) {
        stats->busy_seconds += ts[t].busy;
        stats->units += ts[t].units;
        stats->steps += ts[t].steps;
    }
    int len = 0;
    char host[MPI_MAX_PROCESSOR_NAME];
    if (MPI_Get_processor_name(host, &len) != MPI_SUCCESS)
        len = 0;
    host[len < MPI_MAX_PROCESSOR_NAME ? len : MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    snprintf(stats->host, sizeof stats->host, "%.*s", (int)sizeof stats->host - 1, host);
}

/* Runs this rank's messenger and counting threads; fills its stats.  Sets
 * *alone when rank 0 quit at once (a stop, a failed hook or unit): then it
 * returns QC_ESTOP, QC_EHOOK or QC_ENOMEM and the other ranks are not told. */
static int run_rank(qcr_rank *s, qcr_root *books, const qc_run_options *opts,
                    int me, int ranks, qcr_mpi_rank_stats *stats, int *alone)
{
    *alone = 0;
    rank_cores c;
    open_cores(&c, opts);
    qct_thread_sum *ts = aligned_alloc(64, sizeof(qct_thread_sum) * (size_t)(c.threads + 1));
    if (!ts) {
        qct_topology_close(c.topo);
        return QC_ENOMEM;
    }
    memset(ts, 0, sizeof(qct_thread_sum) * (size_t)(c.threads + 1));
    int quit = 0;
    double start = qct_now_seconds();
    int counters = run_threads(s, books, &c, me, ranks, ts, &quit);
    fill_stats(stats, me, counters, ts, c.threads + 1, start);
    free(ts);
    qct_topology_close(c.topo);
    if (quit) {
        *alone = 1;
        return qcr_root_quit_code(books);
    }
    return __atomic_load_n(&s->failed, __ATOMIC_RELAXED) ? QC_ENOMEM : QC_OK;
}

/* ---- agreement before counting ----------------------------------------- */

typedef struct plan_id {
    uint64_t fingerprint;
    uint64_t units;
    int32_t ok, n, engine, pad;
} plan_id;

/* Every rank shows rank 0 its plan; rank 0 refuses unless all match.
 * Collective; returns QC_OK on every rank or QC_EINVAL on every rank. */
static int agree(const qc_plan *plan, const char *root_error, int me, int ranks,
                 char *err, size_t errlen)
{
    plan_id mine = {0, 0, plan != NULL, 0, 0, 0};
    if (plan) {
        mine.fingerprint = qc_plan_fingerprint(plan);
        mine.units = qc_plan_unit_count(plan);
        mine.n = qc_plan_n(plan);
        mine.engine = (int32_t)qc_plan_engine(plan);
    }
    plan_id *all = me == 0 ? calloc((size_t)ranks, sizeof *all) : NULL;
    if (me == 0 && !all)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0,
               MPI_COMM_WORLD);
    int verdict = QC_OK;
    if (me == 0) {
        if (root_error) {
            snprintf(err, errlen, "%s", root_error);
            verdict = QC_EINVAL;
        }
        for (int r = 0; r < ranks && verdict == QC_OK; r++) {
            if (!all[r].ok) {
                snprintf(err, errlen, "rank %d could not build the work units", r);
                verdict = QC_EINVAL;
            } else if (all[r].fingerprint != all[0].fingerprint || all[r].units != all[0].units) {
                snprintf(err, errlen,
                         "rank %d has different work units than rank 0 (N=%d, %s, fingerprint "
                         "%016llx vs N=%d, %s, %016llx): run the same qcount and options on "
                         "every rank", r, (int)all[r].n, qc_engine_name(all[r].engine) ?
                         qc_engine_name(all[r].engine) : "?",
                         (unsigned long long)all[r].fingerprint, (int)all[0].n,
                         qc_engine_name(all[0].engine) ? qc_engine_name(all[0].engine) : "?",
                         (unsigned long long)all[0].fingerprint);
                verdict = QC_EINVAL;
            }
        }
        free(all);
    }
    MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return verdict;
}

/* ---- the whole count --------------------------------------------------- */

/* The ranks' counting threads into out->total (per_rank gathered). */
static void sum_threads(qcr_mpi_result *out)
{
    for (int r = 0; r < out->ranks && out->per_rank; r++)
        out->total.threads += out->per_rank[r].threads;
}

/* Every rank's stats and code to rank 0, which sums the count; the
 * verdict to every rank.  Collective. */
static int gather(const qcr_root *books, const qcr_mpi_rank_stats *mine, int me, int rc,
                  qcr_mpi_result *out, char *err, size_t errlen)
{
    if (me == 0) {
        out->per_rank = calloc((size_t)out->ranks, sizeof *out->per_rank);
        if (!out->per_rank)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gather(mine, (int)sizeof *mine, MPI_BYTE, out->per_rank, (int)sizeof *mine, MPI_BYTE, 0,
               MPI_COMM_WORLD);
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst != QC_OK) {
        snprintf(err, errlen, "a rank ran out of memory");
        rc = worst;
    }
    if (me == 0) {
        rc = qcr_root_sum(books, rc, &out->total, err, errlen);
        sum_threads(out);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}

/* [silence] Rank 0 finished without silent workers: its own stats and
 * the sum, without the collective calls of gather. */
static int finish_alone(const qcr_root *books, const qcr_mpi_rank_stats *mine, int rc,
                        qcr_mpi_result *out, char *err, size_t errlen)
{
    out->per_rank = calloc((size_t)out->ranks, sizeof *out->per_rank);
    if (!out->per_rank)
        MPI_Abort(MPI_COMM_WORLD, 2);
    out->per_rank[0] = *mine;
    for (int r = 1; r < out->ranks; r++)
        out->per_rank[r].rank = r;
    if (rc != QC_OK)
        snprintf(err, errlen, "a rank ran out of memory");
    rc = qcr_root_sum(books, rc, &out->total, err, errlen);
    sum_threads(out);
    return rc;
}

int qcr_mpi_count(const qc_plan *plan, const qc_run_options *opts, const char *root_error,
                  qcr_mpi_result *out, char *err, size_t errlen)
{
    const int me = qcr_mpi_rank(), ranks = qcr_mpi_size();
    if (!err)
        errlen = 0;   /* no message wanted */
    memset(out, 0, sizeof *out);
    out->ranks = ranks;
    if (errlen)
        err[0] = '\0';
    if (agree(plan, root_error, me, ranks, err, errlen) != QC_OK)
        return QC_EINVAL;

    double start = qct_now_seconds();
    qcr_rank s;
    qcr_rank_open(&s, plan);
    qcr_root books = QCR_ROOT_NONE;
    if (me == 0) {
        double silence = qcr_mpi_silence();
        qcr_root_open(&books, &s, opts, ranks, silence > 0 ? silence : QCR_SILENCE_DEFAULT, start);
    }
    qcr_mpi_rank_stats mine;
    int alone = 0;
    int rc = run_rank(&s, &books, opts, me, ranks, &mine, &alone);
    if (me == 0) {
        out->ever_silent = books.ever_silent;
        out->first_silent = books.first_silent;
        out->handed_again = books.handed_again;
        out->repeats = books.repeats;
        out->silence = books.silence;
    }
    if (alone) {   /* rank 0 only: the workers are not told; the caller ends the job */
        out->alone = 1;
        qcr_root_alone(&books, rc, &out->total, err, errlen);
    } else if (me == 0 && books.silent) {
        /* silent ranks may never reach a collective call: the count is
         * whole here, and the caller ends the job */
        out->alone = 1;
        out->silent = books.silent;
        rc = finish_alone(&books, &mine, rc, out, err, errlen);
    } else {
        rc = gather(&books, &mine, me, rc, out, err, errlen);
    }
    qcr_root_close(&books);
    qcr_rank_close(&s);
    return rc;
}

void qcr_mpi_result_free(qcr_mpi_result *r)
{
    if (!r)
        return;
    free(r->per_rank);
    r->per_rank = NULL;
}
