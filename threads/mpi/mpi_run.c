/*
 * mpi_run.c — one plan counted across the ranks of an MPI job.
 *
 * Every rank builds the same plan (same N, same engine: the fingerprints
 * are compared first and the run is refused if any rank differs), so a unit
 * travels as its index alone and a result as (index, tally).
 *
 * Inside a rank: OpenMP thread 0 is the messenger, the only thread that
 * calls MPI (MPI_THREAD_FUNNELED); threads 1..T count, each pinned through
 * hwloc to its own core of the rank's share of the machine.  The messenger
 * sleeps between polls, so it costs a core almost nothing.  The counting
 * threads take units from the rank's queue and leave their tallies in the
 * rank's outbox; both sit behind one OpenMP lock (units take milliseconds
 * to hours, so the lock is never contended for long).
 *
 * Between ranks (pull-based, rank 0 the only owner of unit indices):
 *   worker -> 0  ASK  [want, k, k results]   "here is what I counted,
 *                                             send me `want` more units"
 *   0 -> worker  WORK [m, m unit indices]    m = 0: nothing is left
 *   worker -> 0  LAST [0, k, k results]      its last results: it is done
 *   worker -> 0  FAIL [0, k, k results]      its last results: a unit (or
 *                                             its outbox) ran out of memory
 * A worker keeps one ASK in flight (prefetch) whenever fewer units wait in
 * its queue than its low-water mark, asking enough to fill the queue to
 * twice that, so its threads find the next unit already there instead of
 * waiting for the network.  The mark starts at one unit per thread and
 * doubles whenever a thread found the queue empty, up to 64 per thread:
 * small units (short against a round trip) travel in bigger batches.  Rank 0 grants at most remaining/(2 x ranks) per
 * ASK (a guided schedule): batches shrink near the end so that no rank is
 * left holding a long tail while the others idle.  Rank 0 counts too: its
 * counting threads take units from the same list it hands out from, one at
 * a time.  Results go back with the next ASK, so a checkpoint on rank 0 is
 * at most about one queue behind the work done.
 *
 * Resume and stops use qc_run's hooks, on rank 0 only: unit_known leaves
 * units out of the to-do list (their tallies join the sum), unit_done and
 * progress are called by rank 0's messenger for every tally that arrives
 * (one thread: serialised by construction), and *stop makes rank 0 return
 * QC_ESTOP at once, without waiting for the workers; the caller then ends
 * the job (MPI_Abort), as the other ranks may be deep inside long units.
 *
 * Failures: a unit that runs out of memory (qc_plan_count_unit) is never
 * reported as counted.  Its rank stops counting (its counters' stop flag),
 * a worker sends FAIL and then only waits, and rank 0, on a FAIL or a
 * failure of its own, returns QC_ENOMEM at once, as on a stop: the caller
 * ends the job, so a failed unit ends the run with an error, never with a
 * total short of that unit.  A worker never sends LAST after a failure, so
 * rank 0 cannot finish without hearing of it.
 *
 * Orphans: when the launcher's process on this machine dies (mpirun or
 * orted killed with SIGKILL), Open MPI leaves the ranks running, and a
 * rank 0 left behind would go on appending to the ledger that the next run
 * wants.  So each messenger checks that its parent process is still the
 * one that started it; a worker that finds itself orphaned exits at once,
 * rank 0 stops as on a signal (qct_mpi_orphaned() then says why).
 */
#define _GNU_SOURCE   /* sched_getaffinity */
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi_run.h"
#include "topology.h"

enum { TAG_ASK = 11, TAG_WORK = 12, TAG_LAST = 13, TAG_FAIL = 14 };

/* A unit's tally on the wire: four 64-bit words. */
typedef struct wire_result {
    uint64_t unit, solutions_lo, solutions_hi, placements;
} wire_result;
#define WIRE_WORDS (sizeof(wire_result) / sizeof(uint64_t))

/* ---- small helpers ---------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* An idle counter's pause before it looks at the queue again (it only
 * waits when a batch is late), and the messenger's: from 50 us, doubling
 * while nothing happens up to 2 ms (prefetch makes replies rarely urgent,
 * and each poll costs a system call and MPI progress, with sched_yield when
 * Open MPI runs oversubscribed); back to 50 us on any message. */
static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static void nap(void)
{
    nap_us(200);
}

static void messenger_nap(int progressed, long *us)
{
    if (progressed) {
        *us = 50;
        return;
    }
    nap_us(*us);
    if (*us < 2000)
        *us *= 2;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* ---- MPI lifetime ------------------------------------------------------ */

static pid_t launcher_pid;   /* our parent when we started: mpirun, orted, slurmstepd */
static int orphaned;

static int lost_launcher(void)
{
    if (launcher_pid > 1 && getppid() != launcher_pid)
        orphaned = 1;
    return orphaned;
}

int qct_mpi_orphaned(void)
{
    return orphaned;
}

int qct_mpi_init(int *argc, char ***argv)
{
    launcher_pid = getppid();
    int provided = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return QC_EINVAL;
    return provided >= MPI_THREAD_FUNNELED ? QC_OK : QC_EINVAL;
}

int qct_mpi_rank(void)
{
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int qct_mpi_size(void)
{
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}

void qct_mpi_finalize(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

void qct_mpi_abort(int status)
{
    MPI_Abort(MPI_COMM_WORLD, status);
}

/* ---- the rank's shared state ------------------------------------------ */

typedef struct rank_state {
    omp_lock_t lock;
    const qc_plan *plan;
    const int *stop;          /* rank 0: the caller's stop flag, or NULL */
    int halt;                 /* counters stop: set by rank 0's messenger,
                                 and on any rank by a failure (atomic)    */
    size_t *queue;            /* units waiting on this rank: [head, tail) */
    size_t head, tail, cap;
    int no_more;              /* nothing more will join the queue        */
    wire_result *outbox;      /* tallies waiting to be sent or summed    */
    size_t out_len, out_cap;
    int counters_running;
    size_t starved;           /* times a counter found the queue empty   */
    int failed;               /* out of memory on this rank (atomic)     */
} rank_state;

typedef struct thread_stats {
    _Alignas(64) double busy;
    size_t units;
    qc_u128 placements;
} thread_stats;

/* Out of memory on this rank: its counters stop (a unit under way is cut
 * short through the kernel's stop check and dropped), and its messenger
 * tells rank 0, which ends the run. */
static void rank_failed(rank_state *s)
{
    __atomic_store_n(&s->failed, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&s->halt, 1, __ATOMIC_RELAXED);
}

static void count_one(rank_state *s, size_t unit, thread_stats *mine)
{
    qc_tally t;
    double t0 = now_seconds();
    int rc = qc_plan_count_unit_until(s->plan, unit, &s->halt, &t);
    mine->busy += now_seconds() - t0;
    if (rc == QC_ESTOP)
        return;   /* cut short: drop it */
    if (rc != QC_OK) {
        rank_failed(s);   /* the unit counted nothing: never report it */
        return;
    }
    wire_result w = {unit, (uint64_t)t.solutions, (uint64_t)(t.solutions >> 64), t.placements};
    omp_set_lock(&s->lock);
    int kept = grow((void **)&s->outbox, &s->out_cap, s->out_len + 1, sizeof *s->outbox) == 0;
    if (kept)
        s->outbox[s->out_len++] = w;
    omp_unset_lock(&s->lock);
    if (!kept) {
        rank_failed(s);
        return;
    }
    mine->units++;
    mine->placements += t.placements;
}

/* A counting thread: takes the next queued unit until told nothing more
 * comes and the queue is empty. */
static void counter_loop(rank_state *s, thread_stats *mine)
{
    for (;;) {
        size_t unit = 0;
        int got = 0, finished = 0;
        omp_set_lock(&s->lock);
        if (__atomic_load_n(&s->halt, __ATOMIC_RELAXED)) {
            finished = 1;
            s->counters_running--;
        } else if (s->head < s->tail) {
            unit = s->queue[s->head++];
            got = 1;
        } else if (s->no_more) {
            finished = 1;
            s->counters_running--;
        }
        omp_unset_lock(&s->lock);
        if (finished)
            return;
        if (got)
            count_one(s, unit, mine);
        else {
            omp_set_lock(&s->lock);
            s->starved++;
            omp_unset_lock(&s->lock);
            nap();   /* the messenger's next batch is on its way */
        }
    }
}

/* Takes up to `max` queued units off the front (rank 0 handing out). */
static size_t take_units(rank_state *s, size_t max, size_t *dst)
{
    omp_set_lock(&s->lock);
    size_t n = s->tail - s->head;
    if (n > max)
        n = max;
    memcpy(dst, s->queue + s->head, n * sizeof *dst);
    s->head += n;
    omp_unset_lock(&s->lock);
    return n;
}

/* OpenMP gave this rank no counting thread: its messenger counts the next
 * queued unit itself.  Returns 1 (progress made). */
static int count_here(rank_state *s, thread_stats *mine)
{
    size_t unit;
    if (take_units(s, 1, &unit) == 1)
        count_one(s, unit, mine);
    return 1;
}

/* Moves the outbox into *dst (swapping buffers); returns how many. */
static size_t take_outbox(rank_state *s, wire_result **dst, size_t *dst_cap)
{
    omp_set_lock(&s->lock);
    size_t n = s->out_len;
    wire_result *b = s->outbox;
    size_t c = s->out_cap;
    s->outbox = *dst;
    s->out_cap = *dst_cap;
    s->out_len = 0;
    *dst = b;
    *dst_cap = c;
    omp_unset_lock(&s->lock);
    return n;
}

/* ---- rank 0: hand out, collect, sum ------------------------------------ */

typedef struct root_books {
    const qc_run_options *hooks;   /* unit_done, progress (may be NULL) */
    int hook_failed;
    int failed_rank;          /* the first rank out of memory, or -1     */
    qc_progress where;
    double start;
    size_t units;             /* the plan's */
    unsigned char *seen;      /* [units]: a result arrived for it        */
    size_t arrived, bad;      /* results taken; unknown or repeated ones */
    qc_u128 total, placements;
} root_books;

static void absorb(root_books *b, const wire_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (r[i].unit >= b->units || b->seen[r[i].unit]) {
            b->bad++;
            continue;
        }
        b->seen[r[i].unit] = 1;
        b->arrived++;
        qc_tally t = {(qc_u128)r[i].solutions_hi << 64 | r[i].solutions_lo, r[i].placements};
        b->total += t.solutions;
        b->placements += t.placements;
        const qc_run_options *h = b->hooks;
        if (h && h->unit_done && !b->hook_failed
            && h->unit_done(h->hook_ctx, (size_t)r[i].unit, &t) != 0)
            b->hook_failed = 1;
        b->where.units_done++;
        b->where.placements += t.placements;
    }
    if (n && b->hooks && b->hooks->progress) {
        b->where.seconds = now_seconds() - b->start;
        b->hooks->progress(b->hooks->hook_ctx, &b->where);
    }
}

/* Rank 0's messenger.  Returns 0 when every worker has sent LAST and its
 * own counters are through; -1 at once when asked to stop, when a hook
 * failed, or when a unit failed here or on a worker (FAIL) (its counters
 * then stop within a unit, or a kernel stop check). */
static int root_messenger(rank_state *s, root_books *b, int ranks, int counters,
                           thread_stats *mine)
{
    uint64_t *msg = NULL;
    size_t msg_cap = 0;
    size_t *grant = NULL;
    size_t grant_cap = 0;
    wire_result *local = NULL;
    size_t local_cap = 0;
    int lasts = 0, quit = 0;
    long pause = 50;
    for (;;) {
        if (__atomic_load_n(&s->failed, __ATOMIC_RELAXED) && b->failed_rank < 0)
            b->failed_rank = 0;
        if ((s->stop && __atomic_load_n(s->stop, __ATOMIC_RELAXED)) || b->hook_failed
            || b->failed_rank >= 0 || lost_launcher()) {
            omp_set_lock(&s->lock);
            s->head = s->tail;   /* nothing more for anyone */
            omp_unset_lock(&s->lock);
            __atomic_store_n(&s->halt, 1, __ATOMIC_RELAXED);
            quit = -1;
            break;
        }
        int progressed = 0, flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            progressed = 1;
            int words = 0;
            MPI_Get_count(&st, MPI_UINT64_T, &words);
            if (grow((void **)&msg, &msg_cap, (size_t)words + 2, sizeof *msg) != 0)
                MPI_Abort(MPI_COMM_WORLD, 2);
            MPI_Recv(msg, words, MPI_UINT64_T, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            size_t k = words >= 2 ? (size_t)msg[1] : 0;
            if ((size_t)words < 2 + k * WIRE_WORDS)
                k = 0, b->bad++;
            absorb(b, (const wire_result *)(msg + 2), k);
            if (st.MPI_TAG == TAG_ASK) {
                size_t want = (size_t)msg[0];
                omp_set_lock(&s->lock);
                size_t left = s->tail - s->head;
                omp_unset_lock(&s->lock);
                size_t cap = left / (2 * (size_t)ranks);   /* guided: shrink near the end */
                if (want > cap)
                    want = cap > 0 ? cap : 1;
                if (grow((void **)&grant, &grant_cap, want + 1, sizeof *grant) != 0)
                    MPI_Abort(MPI_COMM_WORLD, 2);
                size_t m = take_units(s, want, grant + 1);
                grant[0] = m;
                MPI_Send(grant, (int)(m + 1), MPI_UINT64_T, st.MPI_SOURCE, TAG_WORK,
                         MPI_COMM_WORLD);
            } else if (st.MPI_TAG == TAG_LAST) {
                lasts++;
            } else if (st.MPI_TAG == TAG_FAIL && b->failed_rank < 0) {
                b->failed_rank = st.MPI_SOURCE;   /* quits at the top of the loop */
            }
        }
        size_t n = take_outbox(s, &local, &local_cap);
        if (n) {
            absorb(b, local, n);
            progressed = 1;
        }
        omp_set_lock(&s->lock);
        int queued = s->head < s->tail;
        int through = s->counters_running == 0 && s->out_len == 0 && !queued;
        omp_unset_lock(&s->lock);
        if (through && lasts == ranks - 1)
            break;
        if (counters == 0 && queued)
            progressed |= count_here(s, mine);
        messenger_nap(progressed, &pause);
    }
    free(msg);
    free(grant);
    free(local);
    return quit;
}

/* ---- workers: ask, count, report --------------------------------------- */

/* A message to rank 0 in *msg: [want, k, the k results of the outbox]. */
static int pack_outbox(rank_state *s, size_t want, uint64_t **msg, size_t *msg_cap,
                       wire_result **sent, size_t *sent_cap)
{
    size_t k = take_outbox(s, sent, sent_cap);
    if (grow((void **)msg, msg_cap, 2 + k * WIRE_WORDS, sizeof **msg) != 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
    (*msg)[0] = want;
    (*msg)[1] = k;
    memcpy(*msg + 2, *sent, k * sizeof **sent);
    return (int)(2 + k * WIRE_WORDS);
}

static void worker_messenger(rank_state *s, int counters, thread_stats *mine)
{
    const size_t threads = counters > 0 ? (size_t)counters : 1;
    const size_t most = 128 * threads;   /* the largest batch ever asked for */
    size_t low = threads, starved = 0;
    uint64_t *reply = malloc((most + 1) * sizeof *reply);
    uint64_t *msg = NULL;
    size_t msg_cap = 0;
    wire_result *sent = NULL;
    size_t sent_cap = 0;
    if (!reply)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Request req = MPI_REQUEST_NULL;
    int in_flight = 0, told = 0;
    long pause = 50;
    for (;;) {
        if (lost_launcher())
            _exit(137);   /* nobody will collect our results: end at once */
        int progressed = 0;
        if (in_flight) {
            int flag = 0;
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
            if (flag) {
                in_flight = 0;
                progressed = 1;
                size_t m = (size_t)reply[0];
                omp_set_lock(&s->lock);
                if (m == 0) {
                    s->no_more = 1;
                } else {
                    if (s->head == s->tail)
                        s->head = s->tail = 0;
                    if (grow((void **)&s->queue, &s->cap, s->tail + m, sizeof *s->queue) != 0)
                        MPI_Abort(MPI_COMM_WORLD, 2);
                    for (size_t i = 0; i < m; i++)
                        s->queue[s->tail++] = (size_t)reply[1 + i];
                }
                omp_unset_lock(&s->lock);
            }
        }
        omp_set_lock(&s->lock);
        /* read under the lock: a counter fails before it leaves, so a rank
         * that sees its counters through sees their failure too */
        int failed = __atomic_load_n(&s->failed, __ATOMIC_RELAXED);
        size_t queued = s->tail - s->head;
        int no_more = s->no_more;
        if (s->starved != starved && !in_flight) {
            /* a thread waited: ask earlier and for more */
            starved = s->starved;
            if (2 * low <= most / 2)
                low *= 2;
        }
        int through = no_more && s->counters_running == 0 && queued == 0;
        omp_unset_lock(&s->lock);
        if (failed) {
            /* out of memory here: send what was counted, then wait for
             * rank 0 to end the job; never LAST, never another ASK */
            if (!told) {
                int words = pack_outbox(s, 0, &msg, &msg_cap, &sent, &sent_cap);
                MPI_Send(msg, words, MPI_UINT64_T, 0, TAG_FAIL, MPI_COMM_WORLD);
                told = 1;
            }
            messenger_nap(0, &pause);
            continue;
        }
        int ask = !in_flight && !no_more && queued < low;
        if (ask || through) {
            int words = pack_outbox(s, ask ? 2 * low - queued : 0, &msg, &msg_cap, &sent,
                                    &sent_cap);
            if (ask) {
                /* post the receive first: the reply may come at once */
                MPI_Irecv(reply, (int)(most + 1), MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, &req);
                in_flight = 1;
            }
            MPI_Send(msg, words, MPI_UINT64_T, 0, ask ? TAG_ASK : TAG_LAST, MPI_COMM_WORLD);
            progressed = 1;
            if (through)
                break;
        }
        if (counters == 0 && queued)
            progressed |= count_here(s, mine);
        messenger_nap(progressed, &pause);
    }
    free(reply);
    free(msg);
    free(sent);
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

/* Runs this rank's messenger and counting threads; fills its stats.  Sets
 * *alone when rank 0 quit at once (a stop, a failed hook or unit): then it
 * returns QC_ESTOP, QC_EHOOK or QC_ENOMEM and the other ranks are not told. */
static int run_rank(rank_state *s, root_books *books, const qc_run_options *opts,
                    int me, int ranks, qct_mpi_rank_stats *stats, int *alone)
{
    *alone = 0;
    int group = 1;
    int share = machine_share(&group);
    qct_topology *topo = qct_topology_open_bound();
    int cores = qct_topology_core_count(topo);
    int threads = opts && opts->threads > 0 ? opts->threads
                  : (cores / group > 0 ? cores / group : 1);
    int first_core = share * threads;
    int bind = opts ? opts->bind : 1;
    thread_stats *ts = aligned_alloc(64, sizeof(thread_stats) * (size_t)(threads + 1));
    if (!ts) {
        qct_topology_close(topo);
        return QC_ENOMEM;
    }
    memset(ts, 0, sizeof(thread_stats) * (size_t)(threads + 1));
    s->counters_running = threads;
    int counters = threads, quit = 0;
    double start = now_seconds();

    #pragma omp parallel num_threads(threads + 1)
    {
        int t = omp_get_thread_num();
        #pragma omp single
        {
            /* OpenMP may grant fewer threads than asked for */
            counters = omp_get_num_threads() - 1;
            omp_set_lock(&s->lock);
            s->counters_running = counters;
            omp_unset_lock(&s->lock);
        }   /* implied barrier: every thread sees the final count */
        if (t == 0) {
            if (me != 0)
                worker_messenger(s, counters, &ts[0]);
            else if (root_messenger(s, books, ranks, counters, &ts[0]) != 0)
                quit = 1;
        } else {
            if (bind && topo)
                qct_topology_pin_thread(topo, first_core + t - 1);
            counter_loop(s, &ts[t]);
        }
    }

    memset(stats, 0, sizeof *stats);
    stats->rank = me;
    stats->threads = counters > 0 ? counters : 1;
    stats->wall_seconds = now_seconds() - start;
    for (int t = 0; t <= threads; t++) {
        stats->busy_seconds += ts[t].busy;
        stats->units += ts[t].units;
        stats->placements += ts[t].placements;
    }
    int len = 0;
    char host[MPI_MAX_PROCESSOR_NAME];
    if (MPI_Get_processor_name(host, &len) != MPI_SUCCESS)
        len = 0;
    host[len < MPI_MAX_PROCESSOR_NAME ? len : MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    snprintf(stats->host, sizeof stats->host, "%.*s", (int)sizeof stats->host - 1, host);
    free(ts);
    qct_topology_close(topo);
    if (quit) {
        *alone = 1;
        return books->hook_failed ? QC_EHOOK : books->failed_rank >= 0 ? QC_ENOMEM : QC_ESTOP;
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

int qct_mpi_count(const qc_plan *plan, const qc_run_options *opts, const char *root_error,
                  qct_mpi_result *out, char *err, size_t errlen)
{
    const int me = qct_mpi_rank(), ranks = qct_mpi_size();
    memset(out, 0, sizeof *out);
    out->ranks = ranks;
    if (errlen)
        err[0] = '\0';
    if (agree(plan, root_error, me, ranks, err, errlen) != QC_OK)
        return QC_EINVAL;

    double start = now_seconds();
    rank_state s;
    memset(&s, 0, sizeof s);
    omp_init_lock(&s.lock);
    s.plan = plan;
    root_books books;
    memset(&books, 0, sizeof books);
    books.failed_rank = -1;
    books.units = qc_plan_unit_count(plan);
    books.start = start;
    qc_tally known = {0, 0};
    size_t resumed = 0;
    int rc = QC_OK;
    if (me == 0) {
        /* the to-do list: every unit, in plan order (big ones first) */
        s.queue = malloc((books.units ? books.units : 1) * sizeof *s.queue);
        books.seen = calloc(books.units ? books.units : 1, 1);
        if (!s.queue || !books.seen)
            MPI_Abort(MPI_COMM_WORLD, 2);
        for (size_t u = 0; u < books.units; u++) {
            qc_tally t;
            if (opts && opts->unit_known && opts->unit_known(opts->hook_ctx, u, &t)) {
                known.solutions += t.solutions;   /* resumed from a ledger */
                known.placements += t.placements;
                resumed++;
            } else {
                s.queue[s.tail++] = u;
            }
        }
        s.cap = books.units;
        s.no_more = 1;
        s.stop = opts ? opts->stop : NULL;
        books.hooks = opts;
        books.where = (qc_progress){.units_done = resumed, .units_total = books.units,
                                    .units_resumed = resumed};
        if (opts && opts->progress)
            opts->progress(opts->hook_ctx, &books.where);
    }
    size_t todo = s.tail;

    qct_mpi_rank_stats mine;
    int alone = 0;
    rc = run_rank(&s, &books, opts, me, ranks, &mine, &alone);
    if (alone) {
        /* rank 0 only: the workers are not told; the caller ends the job */
        out->alone = 1;
        out->total.total = books.total + known.solutions;
        out->total.units = books.arrived + resumed;
        if (rc == QC_ENOMEM)
            snprintf(err, errlen, "out of memory counting a work unit on rank %d",
                     books.failed_rank);
        free(books.seen);
        free(s.queue);
        free(s.outbox);
        omp_destroy_lock(&s.lock);
        return rc;
    }

    /* the imbalance report: every rank's stats to rank 0 */
    if (me == 0) {
        out->per_rank = calloc((size_t)ranks, sizeof *out->per_rank);
        if (!out->per_rank)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, out->per_rank, (int)sizeof mine, MPI_BYTE, 0,
               MPI_COMM_WORLD);
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (worst != QC_OK) {
        snprintf(err, errlen, "a rank ran out of memory");
        rc = worst;
    }

    if (me == 0) {
        out->total.total = books.total + known.solutions;
        out->total.placements = books.placements + known.placements;
        out->total.units = books.arrived + resumed;
        out->total.units_resumed = resumed;
        out->total.placements_resumed = known.placements;
        out->total.seconds = now_seconds() - start;
        for (int r = 0; r < ranks; r++)
            out->total.threads += out->per_rank[r].threads;
        if (rc == QC_OK && (books.bad || books.arrived != todo)) {
            snprintf(err, errlen, "lost track of work units (%zu of %zu came back, %zu stray)",
                     books.arrived, todo, books.bad);
            rc = QC_EINVAL;
        }
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(books.seen);
    free(s.queue);
    free(s.outbox);
    omp_destroy_lock(&s.lock);
    return rc;
}

void qct_mpi_result_free(qct_mpi_result *r)
{
    free(r->per_rank);
    r->per_rank = NULL;
}
