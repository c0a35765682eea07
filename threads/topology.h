/*
 * topology.h — the machine's cores as hwloc sees them, and pinning the
 * calling thread to one of them.
 */
#ifndef QC_TOPOLOGY_H
#define QC_TOPOLOGY_H

typedef struct qct_topology qct_topology;

/* Loads the topology; NULL if hwloc cannot (then nothing is pinned). */
qct_topology *qct_topology_open(void);
/* The same, restricted to the cores this process is bound to (mpirun
 * --bind-to numa, taskset): an MPI rank then counts and pins inside the
 * share its launcher gave it.  Unbound, it is the whole machine. */
qct_topology *qct_topology_open_bound(void);
void qct_topology_close(qct_topology *topo);
/* Physical cores (at least 1). */
int qct_topology_core_count(const qct_topology *topo);
/* Pins the calling thread to core `index` modulo the core count, on one
 * processing unit of it; returns 0 on success, -1 if the OS refused. */
int qct_topology_pin_thread(qct_topology *topo, int index);

#endif
