/*
 * protocol.c — sending and receiving the messages between ranks (see
 * protocol.h), and the growing buffers they travel in.
 */
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

int qct_grow(void **p, size_t *cap, size_t need, size_t elem)
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

void qct_grow_or_abort(void **p, size_t *cap, size_t need, size_t elem)
{
    if (qct_grow(p, cap, need, elem) != 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
}

void qct_send_results(int tag, size_t want, const qct_wire_result *r, size_t k,
                      uint64_t **msg, size_t *msg_cap)
{
    qct_grow_or_abort((void **)msg, msg_cap, 2 + k * QCT_WIRE_WORDS, sizeof **msg);
    (*msg)[0] = want;
    (*msg)[1] = k;
    memcpy(*msg + 2, r, k * sizeof *r);
    MPI_Send(*msg, (int)(2 + k * QCT_WIRE_WORDS), MPI_UINT64_T, 0, tag, MPI_COMM_WORLD);
}

int qct_receive_results(uint64_t **buf, size_t *buf_cap, qct_message *m)
{
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return 0;
    int words = 0;
    MPI_Get_count(&st, MPI_UINT64_T, &words);
    /* two spare words: want and k stay in bounds even in a message too short
     * to hold them (then it is malformed) */
    qct_grow_or_abort((void **)buf, buf_cap, (size_t)words + 2, sizeof **buf);
    MPI_Recv(*buf, words, MPI_UINT64_T, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    m->tag = st.MPI_TAG;
    m->source = st.MPI_SOURCE;
    m->want = (size_t)(*buf)[0];
    m->k = words >= 2 ? (size_t)(*buf)[1] : 0;
    m->malformed = (size_t)words < 2 + m->k * QCT_WIRE_WORDS;
    if (m->malformed)
        m->k = 0;
    m->results = (const qct_wire_result *)(*buf + 2);
    return 1;
}

void qct_send_work(const size_t *grant, int dest)
{
    MPI_Send(grant, (int)(grant[0] + 1), MPI_UINT64_T, dest, QCT_TAG_WORK, MPI_COMM_WORLD);
}

void qct_post_work_receive(uint64_t *reply, size_t most, MPI_Request *req)
{
    MPI_Irecv(reply, (int)(most + 1), MPI_UINT64_T, 0, QCT_TAG_WORK, MPI_COMM_WORLD, req);
}
