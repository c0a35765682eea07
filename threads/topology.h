/* SPDX-License-Identifier: MIT */
/*
 * topology.h — the CPUs this process may use, as hwloc sees them, and
 * binding the counting threads inside them.
 *
 * Allowed CPUs: the calling thread's binding when the topology is opened
 * (taskset, a cgroup cpuset, Slurm, mpirun --bind-to), never the whole
 * machine behind it.  Slots: one per allowed physical core (its first
 * allowed processing unit), or with QC_BIND_SMT one per allowed processing
 * unit, siblings after every core's first; a run's threads only ever run
 * on its slots.
 */
#ifndef QCT_TOPOLOGY_H
#define QCT_TOPOLOGY_H

#include <stddef.h>

typedef struct qct_topology qct_topology;

/* Loads the topology restricted to the calling thread's allowed CPUs;
 * NULL if hwloc cannot (then nothing is bound). */
qct_topology *qct_topology_open(void);
void qct_topology_close(qct_topology *topo);
/* Allowed physical cores (at least 1; 1 for NULL). */
int qct_topology_core_count(const qct_topology *topo);
/* Slots for these QC_BIND_* flags: cores, or processing units with
 * QC_BIND_SMT (at least 1; 1 for NULL). */
int qct_topology_slots(const qct_topology *topo, int bind);
/* Binds the calling thread, thread `index` of `team` threads: with
 * QC_BIND_PIN and team <= slots, to slot `index` alone; otherwise (more
 * threads than slots, or no pinning) to all the slots, where the OS moves
 * it freely — never two threads pinned to one processing unit.  Returns 0,
 * or -1 if the OS refused. */
int qct_topology_bind_thread(qct_topology *topo, int index, int team, int bind);
/* The calling thread back on the CPUs it had when topo was opened. */
void qct_topology_unbind(qct_topology *topo);
/* The CPUs that bind_thread gives a team of `team` threads, as a list of
 * OS indexes ("0-3,8") in buf; returns how many (0 for NULL, buf ""). */
int qct_topology_team_cpus(const qct_topology *topo, int team, int bind, char *buf, size_t len);

#endif
