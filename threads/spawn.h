/* SPDX-License-Identifier: MIT */
/*
 * spawn.h — how many threads the system lets a run start now.  libgomp
 * ends the whole process (its own message, exit 1) when it cannot create
 * a thread of a parallel region, so the runs ask first and take fewer.
 */
#ifndef QCT_SPAWN_H
#define QCT_SPAWN_H

/* How many threads (the caller's included) a parallel region of `want`
 * can have: want, or fewer when the system refuses to create more (no
 * memory for their stacks, a process limit).  Creates want - 1 threads
 * with the stack size libgomp gives its own (OMP_STACKSIZE, or the
 * default), holds them until all exist, then joins them.  Returns 1 to
 * want. */
int qct_threads_available(int want);

#endif
