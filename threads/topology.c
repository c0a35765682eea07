/*
 * topology.c — core count and thread pinning through hwloc.  The counting
 * threads share nothing but the work-unit counter, so one thread per
 * physical core, each pinned to its own core, keeps them from migrating and
 * from sharing a core's pipeline with a sibling while another core idles.
 */
#include <hwloc.h>
#include <stdlib.h>

#include "qcount.h"
#include "topology.h"

struct qct_topology {
    hwloc_topology_t topo;
    int cores;
};

qct_topology *qct_topology_open(void)
{
    qct_topology *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (hwloc_topology_init(&t->topo) != 0) {
        free(t);
        return NULL;
    }
    if (hwloc_topology_load(t->topo) != 0) {
        hwloc_topology_destroy(t->topo);
        free(t);
        return NULL;
    }
    int cores = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_CORE);
    if (cores <= 0)
        cores = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PU);
    t->cores = cores > 0 ? cores : 1;
    return t;
}

qct_topology *qct_topology_open_bound(void)
{
    qct_topology *t = qct_topology_open();
    if (!t)
        return NULL;
    hwloc_cpuset_t bound = hwloc_bitmap_alloc();
    if (bound && hwloc_get_cpubind(t->topo, bound, HWLOC_CPUBIND_PROCESS) == 0
        && !hwloc_bitmap_iszero(bound)
        && !hwloc_bitmap_isincluded(hwloc_topology_get_topology_cpuset(t->topo), bound)
        && hwloc_topology_restrict(t->topo, bound, HWLOC_RESTRICT_FLAG_REMOVE_CPULESS) == 0) {
        int cores = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_CORE);
        if (cores <= 0)
            cores = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PU);
        t->cores = cores > 0 ? cores : 1;
    }
    hwloc_bitmap_free(bound);
    return t;
}

void qct_topology_close(qct_topology *t)
{
    if (!t)
        return;
    hwloc_topology_destroy(t->topo);
    free(t);
}

int qct_topology_core_count(const qct_topology *t)
{
    return t ? t->cores : 1;
}

int qct_topology_pin_thread(qct_topology *t, int index)
{
    if (!t)
        return -1;
    hwloc_obj_t core = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_CORE, (unsigned)(index % t->cores));
    if (!core)
        core = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PU, (unsigned)(index % t->cores));
    if (!core || !core->cpuset)
        return -1;
    hwloc_cpuset_t set = hwloc_bitmap_dup(core->cpuset);
    if (!set)
        return -1;
    hwloc_bitmap_singlify(set);   /* one PU of the core: no in-core wandering */
    int rc = hwloc_set_cpubind(t->topo, set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(set);
    return rc == 0 ? 0 : -1;
}

int qc_topology_cores(void)
{
    qct_topology *t = qct_topology_open();
    int cores = qct_topology_core_count(t);
    qct_topology_close(t);
    return cores;
}
