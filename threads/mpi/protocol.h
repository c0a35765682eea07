/* SPDX-License-Identifier: MIT */
/*
 * protocol.h — the messages between ranks: tags, a tally's wire format,
 * and the helpers that send and receive them.
 *
 * Every rank builds the same plan (the fingerprints are compared first),
 * so a unit travels as its index alone and a result as (index, tally).
 * Between ranks (pull-based, rank 0 the only owner of unit indices):
 *   worker -> 0  ASK  [want, k, k results]   "here is what I counted,
 *                                             send me `want` more units"
 *   0 -> worker  WORK [m, m unit indices]    m = 0: nothing is left
 *   worker -> 0  LAST [0, k, k results]      its last results: it is done
 *   worker -> 0  FAIL [0, k, k results]      its last results: a unit (or
 *                                             its outbox) ran out of memory
 *   worker -> 0  BEAT [0, k, k results]      "still here": sent when it has
 *                                             sent nothing for QCR_HEARTBEAT
 * Every word is a 64-bit unsigned integer (MPI_UINT64_T).
 *
 * [silence] The heartbeat is sent by the worker's messenger, which never
 * counts while the rank has counting threads, so a worker deep in long
 * units still beats; a worker unheard for the silence timeout (root.h) is
 * stopped, swapped out or cut off, and rank 0 hands its units to others.
 */
#ifndef QCR_MPI_PROTOCOL_H
#define QCR_MPI_PROTOCOL_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "qcount.h"

enum {
    QCR_TAG_ASK = 11, QCR_TAG_WORK = 12, QCR_TAG_LAST = 13, QCR_TAG_FAIL = 14, QCR_TAG_BEAT = 15
};

/* [silence] Seconds between a worker's messages at most: a third of the
 * shortest silence timeout (count.h), so a worker must miss at least
 * three beats before it is taken for lost. */
#define QCR_HEARTBEAT 1.0

/* Unit indices travel as they are kept, in size_t words. */
_Static_assert(sizeof(size_t) == sizeof(uint64_t), "a unit index is one 64-bit word");

/* A unit's tally on the wire: four 64-bit words. */
typedef struct qcr_wire_result {
    uint64_t unit, solutions_lo, solutions_hi, steps;
} qcr_wire_result;
#define QCR_WIRE_WORDS (sizeof(qcr_wire_result) / sizeof(uint64_t))

static inline qcr_wire_result qcr_wire_from_tally(size_t unit, const qc_tally *t)
{
    return (qcr_wire_result){unit, (uint64_t)t->solutions, (uint64_t)(t->solutions >> 64),
                             t->steps};
}

static inline qc_tally qcr_wire_tally(const qcr_wire_result *w)
{
    return (qc_tally){.solutions = (qc_u128)w->solutions_hi << 64 | w->solutions_lo,
                      .steps = w->steps};
}

/* Grows *p (of *cap elements of `elem` bytes) to hold at least `need`,
 * doubling from 64; returns 0, or -1 with *p unchanged when out of memory.
 * qcr_grow_or_abort ends the job instead (MPI_Abort, status 2). */
int qcr_grow(void **p, size_t *cap, size_t need, size_t elem);
void qcr_grow_or_abort(void **p, size_t *cap, size_t need, size_t elem);

/* Worker -> 0: sends [want, k, the k results] with `tag` (ASK, LAST,
 * FAIL or BEAT), packed in *msg (grown as needed). */
void qcr_send_results(int tag, size_t want, const qcr_wire_result *r, size_t k,
                      uint64_t **msg, size_t *msg_cap);

/* Rank 0 never waits on one worker: every transfer from or to a worker
 * runs non-blocking in its own buffer (a parcel), and rank 0's messenger
 * only tests them between its other work.  A worker stopped (SIGSTOP,
 * swapped out, a slow link) holds back only the units it holds, and only
 * until it falls silent (root.h).  The parcels in transit are bounded by
 * the protocol: a worker has one ASK in flight, sends LAST or FAIL at most
 * once and a BEAT at most once a second, and rank 0 takes in every message
 * that arrived on each poll, so only a few messages from it and one reply
 * to it are ever in transit. */
typedef struct qcr_parcel {
    MPI_Request req;
    uint64_t *buf;
    int tag, source, words;
} qcr_parcel;

typedef struct qcr_post {
    qcr_parcel *in, *out;           /* receives and sends under way      */
    size_t n_in, n_out, cap_in, cap_out;
    uint64_t *held;                 /* the last message handed out       */
} qcr_post;

/* A message that reached rank 0: [want, k, k results]. */
typedef struct qcr_message {
    int tag, source;
    size_t want;                        /* ASK: more units asked for        */
    const qcr_wire_result *results;     /* [k], valid until the next call   */
    size_t k;
    int malformed;                      /* shorter than its k results: then
                                           k = 0, none taken                */
} qcr_message;

/* Rank 0: starts receiving every message that has arrived, finishes the
 * sends that are through, and hands out one received message: returns 1
 * and fills *m, or 0 when none is complete.  Never blocks. */
int qcr_receive_results(qcr_post *post, qcr_message *m);

/* 0 -> worker: starts sending WORK [m, m unit indices], grant[0] = m, from
 * a copy of grant; returns at once. */
void qcr_send_work(qcr_post *post, const size_t *grant, int dest);

/* Rank 0 at the end of a count every worker finished (each took all its
 * replies): waits for the last sends to complete and frees the post.
 * qcr_post_abandon, when rank 0 quits alone: frees what it can, leaving
 * transfers still under way to the job's end. */
void qcr_post_close(qcr_post *post);
void qcr_post_abandon(qcr_post *post);

/* Worker: posts the receive of the next WORK reply into reply[most + 1]
 * (post it before the ASK goes: the reply may come at once). */
void qcr_post_work_receive(uint64_t *reply, size_t most, MPI_Request *req);

#endif
