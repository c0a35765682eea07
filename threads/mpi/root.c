/* SPDX-License-Identifier: MIT */
/*
 * root.c — rank 0: the books of the units, handing them out, taking the
 * tallies in and passing them to the hooks (see root.h).
 *
 * Rank 0 grants at most remaining/(2 x ranks) per ASK (a guided
 * schedule): batches shrink near the end so that no rank is left holding a
 * long tail while the others idle.  Rank 0 counts too: its counting
 * threads take units from the same list it hands out from, one at a time.
 */
#include <stdio.h>
#include <stdlib.h>

#include "job.h"
#include "protocol.h"
#include "qct_clock.h"
#include "root.h"

void qct_root_open(qct_root *b, qct_rank *s, const qc_run_options *opts, double start)
{
    *b = QCT_ROOT_NONE;
    b->units = qc_plan_unit_count(s->plan);
    s->queue = malloc((b->units ? b->units : 1) * sizeof *s->queue);
    b->seen = calloc(b->units ? b->units : 1, 1);
    if (!s->queue || !b->seen)
        MPI_Abort(MPI_COMM_WORLD, 2);
    s->tail = qct_units_to_do(opts, b->units, s->queue, &b->known, &b->resumed);
    s->cap = b->units;
    s->no_more = 1;
    s->stop = opts ? opts->stop : NULL;
    b->todo = s->tail;
    qct_report_begin(&b->rep, opts, s->plan, s->queue, s->tail, b->resumed, start);
}

void qct_root_close(qct_root *b)
{
    free(b->seen);
    b->seen = NULL;
}

/* Takes in n tallies: each unit once, to the sums and the hooks. */
static void absorb(qct_root *b, const qct_wire_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (r[i].unit >= b->units || b->seen[r[i].unit]) {
            b->bad++;
            continue;
        }
        b->seen[r[i].unit] = 1;
        b->arrived++;
        qc_tally t = qct_wire_tally(&r[i]);
        b->total += t.solutions;
        b->placements += t.placements;
        qct_report_unit(&b->rep, (size_t)r[i].unit, &t);
    }
    if (n)
        qct_report_progress(&b->rep);
}

/* Asked to stop, a hook failed, a unit failed here or on a worker, or the
 * launcher is gone: nothing more for anyone, the counters halt. */
static int must_quit(qct_rank *s, qct_root *b)
{
    if (__atomic_load_n(&s->failed, __ATOMIC_RELAXED) && b->failed_rank < 0)
        b->failed_rank = 0;
    if ((s->stop && __atomic_load_n(s->stop, __ATOMIC_RELAXED)) || b->rep.hook_failed
        || b->failed_rank >= 0 || qct_job_lost_launcher()) {
        omp_set_lock(&s->lock);
        s->head = s->tail;
        omp_unset_lock(&s->lock);
        __atomic_store_n(&s->halt, 1, __ATOMIC_RELAXED);
        return 1;
    }
    return 0;
}

/* Answers an ASK for `want` units: a guided share of what is left. */
static void grant_units(qct_rank *s, int ranks, size_t want, int dest, qct_post *post,
                        size_t **grant, size_t *grant_cap)
{
    omp_set_lock(&s->lock);
    size_t left = s->tail - s->head;
    omp_unset_lock(&s->lock);
    size_t cap = left / (2 * (size_t)ranks);   /* guided: shrink near the end */
    if (want > cap)
        want = cap > 0 ? cap : 1;
    qct_grow_or_abort((void **)grant, grant_cap, want + 1, sizeof **grant);
    (*grant)[0] = qct_rank_take_units(s, want, *grant + 1);
    qct_send_work(post, *grant, dest);
}

/* The buffers and counts of rank 0's messenger. */
typedef struct root_mail {
    qct_post post;            /* transfers to and from the workers */
    size_t *grant;
    size_t grant_cap;
    qct_wire_result *local;   /* this rank's own outbox, taken over */
    size_t local_cap;
    int lasts;                /* workers that sent LAST */
} root_mail;

/* Takes in the next message from a worker, if one waits; returns 1 if so. */
static int take_message(qct_rank *s, qct_root *b, int ranks, root_mail *m)
{
    qct_message in;
    if (!qct_receive_results(&m->post, &in))
        return 0;
    b->bad += (size_t)in.malformed;
    absorb(b, in.results, in.k);
    if (in.tag == QCT_TAG_ASK)
        grant_units(s, ranks, in.want, in.source, &m->post, &m->grant, &m->grant_cap);
    else if (in.tag == QCT_TAG_LAST)
        m->lasts++;
    else if (in.tag == QCT_TAG_FAIL && b->failed_rank < 0)
        b->failed_rank = in.source;   /* quits at the top of the loop */
    return 1;
}

int qct_root_messenger(qct_rank *s, qct_root *b, int ranks, int counters, qct_thread_sum *mine)
{
    root_mail m = {0};
    int quit = 0;
    long pause = 50;
    for (;;) {
        if (must_quit(s, b)) {
            quit = -1;
            break;
        }
        int progressed = take_message(s, b, ranks, &m);
        size_t n = qct_rank_take_outbox(s, &m.local, &m.local_cap);
        if (n) {
            absorb(b, m.local, n);
            progressed = 1;
        }
        omp_set_lock(&s->lock);
        int queued = s->head < s->tail;
        int through = s->counters_running == 0 && s->out_len == 0 && !queued;
        omp_unset_lock(&s->lock);
        if (through && m.lasts == ranks - 1)
            break;
        if (counters == 0 && queued)
            progressed |= qct_rank_count_here(s, mine);
        qct_messenger_nap(progressed, &pause);
    }
    if (quit)
        qct_post_abandon(&m.post);
    else
        qct_post_close(&m.post);
    free(m.grant);
    free(m.local);
    return quit;
}

int qct_root_quit_code(const qct_root *b)
{
    return b->rep.hook_failed ? QC_EHOOK : b->failed_rank >= 0 ? QC_ENOMEM : QC_ESTOP;
}

void qct_root_alone(const qct_root *b, int rc, qct_mpi_result *out, char *err, size_t errlen)
{
    out->alone = 1;
    out->total.total = b->total + b->known.solutions;
    out->total.units = b->arrived + b->resumed;
    if (rc == QC_ENOMEM)
        snprintf(err, errlen, "out of memory counting a work unit on rank %d", b->failed_rank);
}

int qct_root_sum(const qct_root *b, int rc, qct_mpi_result *out, char *err, size_t errlen)
{
    out->total.total = b->total + b->known.solutions;
    out->total.placements = b->placements + b->known.placements;
    out->total.units = b->arrived + b->resumed;
    out->total.units_resumed = b->resumed;
    out->total.placements_resumed = b->known.placements;
    out->total.seconds = qct_now_seconds() - b->rep.start;
    out->total.cpu_seconds = qct_cpu_seconds() - b->rep.cpu_start;
    for (int r = 0; r < out->ranks; r++)
        out->total.threads += out->per_rank[r].threads;
    if (rc == QC_OK && (b->bad || b->arrived != b->todo)) {
        snprintf(err, errlen, "lost track of work units (%zu of %zu came back, %zu stray)",
                 b->arrived, b->todo, b->bad);
        rc = QC_EINVAL;
    }
    return rc;
}
