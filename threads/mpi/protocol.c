/* SPDX-License-Identifier: MIT */
/*
 * protocol.c — sending and receiving the messages between ranks (see
 * protocol.h), and the growing buffers they travel in.
 */
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

int qcr_grow(void **p, size_t *cap, size_t need, size_t elem)
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

void qcr_grow_or_abort(void **p, size_t *cap, size_t need, size_t elem)
{
    if (qcr_grow(p, cap, need, elem) != 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
}

void qcr_send_results(int tag, size_t want, const qcr_wire_result *r, size_t k,
                      uint64_t **msg, size_t *msg_cap)
{
    qcr_grow_or_abort((void **)msg, msg_cap, 2 + k * QCR_WIRE_WORDS, sizeof **msg);
    (*msg)[0] = want;
    (*msg)[1] = k;
    if (k)   /* r may be NULL then: an outbox never used */
        memcpy(*msg + 2, r, k * sizeof *r);
    MPI_Send(*msg, (int)(2 + k * QCR_WIRE_WORDS), MPI_UINT64_T, 0, tag, MPI_COMM_WORLD);
}

/* Adds a parcel to *list (grown as needed); ends the job when out of memory. */
static qcr_parcel *add_parcel(qcr_parcel **list, size_t *n, size_t *cap)
{
    qcr_grow_or_abort((void **)list, cap, *n + 1, sizeof **list);
    return &(*list)[(*n)++];
}

/* Starts receiving every message already matched; never blocks. */
static void start_receives(qcr_post *post)
{
    for (;;) {
        int flag = 0;
        MPI_Message handle;
        MPI_Status st;
        MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &handle, &st);
        if (!flag)
            return;
        int words = 0;
        MPI_Get_count(&st, MPI_UINT64_T, &words);
        qcr_parcel *p = add_parcel(&post->in, &post->n_in, &post->cap_in);
        /* two spare words: want and k stay in bounds even in a message too
         * short to hold them (then it is malformed) */
        p->buf = calloc((size_t)words + 2, sizeof *p->buf);
        if (!p->buf)
            MPI_Abort(MPI_COMM_WORLD, 2);
        p->tag = st.MPI_TAG;
        p->source = st.MPI_SOURCE;
        p->words = words;
        MPI_Imrecv(p->buf, words, MPI_UINT64_T, &handle, &p->req);
    }
}

/* Frees the sends that are through. */
static void finish_sends(qcr_post *post)
{
    size_t kept = 0;
    for (size_t i = 0; i < post->n_out; i++) {
        int flag = 0;
        MPI_Test(&post->out[i].req, &flag, MPI_STATUS_IGNORE);
        if (flag)
            free(post->out[i].buf);
        else
            post->out[kept++] = post->out[i];
    }
    post->n_out = kept;
}

int qcr_receive_results(qcr_post *post, qcr_message *m)
{
    free(post->held);
    post->held = NULL;
    finish_sends(post);
    start_receives(post);
    for (size_t i = 0; i < post->n_in; i++) {
        int flag = 0;
        MPI_Test(&post->in[i].req, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            continue;
        /* the oldest complete one; the rest keep their order */
        qcr_parcel p = post->in[i];
        memmove(post->in + i, post->in + i + 1, (post->n_in - i - 1) * sizeof *post->in);
        post->n_in--;
        post->held = p.buf;
        m->tag = p.tag;
        m->source = p.source;
        m->want = (size_t)p.buf[0];
        m->k = p.words >= 2 ? (size_t)p.buf[1] : 0;
        m->malformed = (size_t)p.words < 2 + m->k * QCR_WIRE_WORDS;
        if (m->malformed)
            m->k = 0;
        m->results = (const qcr_wire_result *)(p.buf + 2);
        return 1;
    }
    return 0;
}

void qcr_send_work(qcr_post *post, const size_t *grant, int dest)
{
    size_t words = grant[0] + 1;
    qcr_parcel *p = add_parcel(&post->out, &post->n_out, &post->cap_out);
    p->buf = malloc(words * sizeof *p->buf);
    if (!p->buf)
        MPI_Abort(MPI_COMM_WORLD, 2);
    memcpy(p->buf, grant, words * sizeof *p->buf);
    p->tag = QCR_TAG_WORK;
    p->source = dest;
    p->words = (int)words;
    MPI_Isend(p->buf, p->words, MPI_UINT64_T, dest, QCR_TAG_WORK, MPI_COMM_WORLD, &p->req);
}

void qcr_post_close(qcr_post *post)
{
    for (size_t i = 0; i < post->n_out; i++) {
        MPI_Wait(&post->out[i].req, MPI_STATUS_IGNORE);
        free(post->out[i].buf);
    }
    post->n_out = 0;
    qcr_post_abandon(post);
}

void qcr_post_abandon(qcr_post *post)
{
    /* the buffers under way stay allocated: MPI may still use them, and
     * the job ends soon (the caller aborts it) */
    free(post->held);
    free(post->in);
    free(post->out);
    *post = (qcr_post){0};
}

void qcr_post_work_receive(uint64_t *reply, size_t most, MPI_Request *req)
{
    MPI_Irecv(reply, (int)(most + 1), MPI_UINT64_T, 0, QCR_TAG_WORK, MPI_COMM_WORLD, req);
}
