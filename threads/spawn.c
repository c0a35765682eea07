/* SPDX-License-Identifier: MIT */
/*
 * spawn.c — the teams of threads that count (see spawn.h), and the probe
 * for how many could start.
 */
#include <pthread.h>
#include <stdlib.h>

#include "spawn.h"

/* OMP_STACKSIZE as libgomp reads it: a size in kilobytes, or with a B, K,
 * M or G suffix; 0 when unset or unreadable (then: the default stack). */
static size_t omp_stack_size(void)
{
    const char *s = getenv("OMP_STACKSIZE");
    if (!s)
        s = getenv("GOMP_STACKSIZE");
    if (!s)
        return 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    while (*end == ' ')
        end++;
    unsigned shift = 10;
    switch (*end) {
    case 'b': case 'B': shift = 0; end++; break;
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (end == s || *end != '\0' || v > (1ULL << 40) >> shift)
        return 0;
    return (size_t)(v << shift);
}

/* Each thread waits until every thread exists (or the try ended). */
typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t open;
    int released;
} gate;

static void gate_wait(gate *g)
{
    pthread_mutex_lock(&g->lock);
    while (!g->released)
        pthread_cond_wait(&g->open, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

static void gate_open(gate *g)
{
    pthread_mutex_lock(&g->lock);
    g->released = 1;
    pthread_cond_broadcast(&g->open);
    pthread_mutex_unlock(&g->lock);
}

static void *wait_at_gate(void *arg)
{
    gate_wait(arg);
    return NULL;
}

/* What a team member needs: the team's gate and body, and its number. */
typedef struct member {
    gate *g;
    void (*body)(void *ctx, int me, int team);
    void *ctx;
    int me;
    const int *team;   /* set before the gate opens */
} member;

static void *run_member(void *arg)
{
    member *m = arg;
    gate_wait(m->g);
    m->body(m->ctx, m->me, *m->team);
    return NULL;
}

int qct_team_run(int want, void (*ready)(void *ctx, int team),
                 void (*body)(void *ctx, int me, int team), void *ctx)
{
    int team = 1;
    pthread_t *ids = want > 1 ? malloc(sizeof *ids * (size_t)(want - 1)) : NULL;
    member *members = want > 1 ? malloc(sizeof *members * (size_t)want) : NULL;
    gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    size_t stack = omp_stack_size();
    if (stack)
        pthread_attr_setstacksize(&attr, stack);
    if (ids && members) {
        while (team < want) {
            member *m = &members[team];
            *m = (member){&g, body, ctx, team, &team};
            if (pthread_create(&ids[team - 1], &attr, run_member, m) != 0)
                break;   /* the system refused: the team is the threads made */
            team++;
        }
    }
    pthread_attr_destroy(&attr);
    if (ready)
        ready(ctx, team);
    gate_open(&g);   /* the mutex orders team's last store before the members read it */
    body(ctx, 0, team);
    for (int i = 1; i < team; i++)
        pthread_join(ids[i - 1], NULL);
    free(ids);
    free(members);
    return team;
}

int qct_threads_available(int want)
{
    if (want <= 1)
        return 1;
    pthread_t *ids = malloc(sizeof *ids * (size_t)(want - 1));
    if (!ids)
        return 1;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    size_t stack = omp_stack_size();
    if (stack)
        pthread_attr_setstacksize(&attr, stack);
    gate g = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    int made = 0;
    while (made < want - 1 && pthread_create(&ids[made], &attr, wait_at_gate, &g) == 0)
        made++;
    gate_open(&g);
    for (int i = 0; i < made; i++)
        pthread_join(ids[i], NULL);
    pthread_attr_destroy(&attr);
    free(ids);
    return made + 1;
}
