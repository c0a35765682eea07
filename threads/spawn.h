/* SPDX-License-Identifier: MIT */
/*
 * spawn.h — the counting threads of a run: made with pthreads, as many as
 * the system lets start.  libgomp ends the whole process (its own message,
 * exit 1) when it cannot create a thread of a parallel region, so the runs
 * make their own teams and count on the threads that started.
 */
#ifndef QCT_SPAWN_H
#define QCT_SPAWN_H

/* How many threads (the caller's included) a parallel region of `want`
 * can have: want, or fewer when the system refuses to create more (no
 * memory for their stacks, a process limit).  Creates want - 1 threads
 * with the stack size libgomp gives its own (OMP_STACKSIZE, or the
 * default), holds them until all exist, then joins them.  Returns 1 to
 * want.  Only an estimate for a team created later: other processes may
 * take what it saw free (qct_team_run has no such gap). */
int qct_threads_available(int want);

/* [team] Runs body on a team of up to `want` threads, the caller's
 * included as member 0: creates want - 1 threads (stack size as above),
 * fewer when the system refuses more, holds them until all exist, calls
 * ready(ctx, team) on the caller when ready is not NULL, then runs
 * body(ctx, me, team) on every member, me = 0..team-1, and joins them.
 * The threads that run are the threads that were made, so a refusal
 * never ends the process (as libgomp's own team start does: its message,
 * exit 1); it only makes the team smaller.  Returns team, 1 to want. */
int qct_team_run(int want, void (*ready)(void *ctx, int team),
                 void (*body)(void *ctx, int me, int team), void *ctx);

#endif
