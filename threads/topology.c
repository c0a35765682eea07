/* SPDX-License-Identifier: MIT */
/*
 * topology.c — the allowed CPUs and thread binding through hwloc.  The
 * counting threads share nothing but the work-unit counter, so one thread
 * per physical core, each pinned to its own core, keeps them from migrating
 * and from sharing a core's pipeline with a sibling while another core
 * idles.  Only the cores this process may use count (its binding: taskset,
 * cgroup cpusets, Slurm, mpirun), so two jobs sharing a node each stay on
 * their own cores.
 */
#include <hwloc.h>
#include <stdlib.h>

#include "qcount.h"
#include "topology.h"

struct qct_topology {
    hwloc_topology_t topo;
    hwloc_cpuset_t allowed;   /* the opening thread's binding             */
    int cores;                /* allowed physical cores                   */
    int pus;                  /* allowed processing units                 */
    int *order;               /* [pus] PU OS indexes: every core's first, */
                              /* then every core's second, ...            */
};

/* The r-th allowed PU of core (OS index), or -1. */
static int nth_allowed_pu(const qct_topology *t, hwloc_const_cpuset_t core, int r)
{
    for (int pu = hwloc_bitmap_first(core); pu >= 0; pu = hwloc_bitmap_next(core, pu))
        if (hwloc_bitmap_isset(t->allowed, (unsigned)pu) && r-- == 0)
            return pu;
    return -1;
}

/* [SMT last] Fills t->order round by round over the cores, so that the
 * first `cores` slots are one PU of each allowed core and siblings come
 * after; counts t->cores and t->pus.  Returns 0, or -1 on no memory. */
static int order_pus(qct_topology *t)
{
    hwloc_obj_type_t type = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_CORE) > 0
                            ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    int ncores = hwloc_get_nbobjs_by_type(t->topo, type);
    int max = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PU);
    t->order = malloc(sizeof *t->order * (size_t)(max > 0 ? max : 1));
    if (!t->order || ncores <= 0)
        return -1;
    for (int round = 0, added = 1; added && t->pus < max; round++) {
        added = 0;
        for (int c = 0; c < ncores && t->pus < max; c++) {
            hwloc_obj_t core = hwloc_get_obj_by_type(t->topo, type, (unsigned)c);
            int pu = core && core->cpuset ? nth_allowed_pu(t, core->cpuset, round) : -1;
            if (pu >= 0) {
                t->order[t->pus++] = pu;
                added = 1;
            }
        }
        if (round == 0)
            t->cores = t->pus;
    }
    return t->pus > 0 ? 0 : -1;
}

qct_topology *qct_topology_open(void)
{
    qct_topology *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (hwloc_topology_init(&t->topo) != 0) {
        free(t);
        return NULL;
    }
#if HWLOC_API_VERSION >= 0x00020100
    /* [lean topology] the Linux backend finds the cores and processing
     * units binding needs; the x86 backend would add cpuid on every unit,
     * moving this thread to each in turn (0.9 against 86-106 ms of wall
     * time on a loaded 2-core VM) */
    hwloc_topology_set_components(t->topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
#endif
    t->allowed = hwloc_bitmap_alloc();
    if (hwloc_topology_load(t->topo) != 0 || !t->allowed) {
        qct_topology_close(t);
        return NULL;
    }
    hwloc_const_cpuset_t machine = hwloc_topology_get_allowed_cpuset(t->topo);
    if (hwloc_get_cpubind(t->topo, t->allowed, HWLOC_CPUBIND_THREAD) != 0)
        hwloc_bitmap_copy(t->allowed, machine);   /* binding unknown: the machine */
    hwloc_bitmap_and(t->allowed, t->allowed, machine);
    if (hwloc_bitmap_iszero(t->allowed) || order_pus(t) != 0) {
        qct_topology_close(t);
        return NULL;
    }
    return t;
}

void qct_topology_close(qct_topology *t)
{
    if (!t)
        return;
    hwloc_bitmap_free(t->allowed);
    free(t->order);
    hwloc_topology_destroy(t->topo);
    free(t);
}

int qct_topology_core_count(const qct_topology *t)
{
    return t ? t->cores : 1;
}

int qct_topology_slots(const qct_topology *t, int bind)
{
    return !t ? 1 : bind & QC_BIND_SMT ? t->pus : t->cores;
}

/* [pin or float] The CPUs of thread `index` of a team of `team` threads:
 * its own slot when pinned and there are enough slots, else every slot. */
static hwloc_bitmap_t team_set(const qct_topology *t, int index, int team, int bind)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    int slots = qct_topology_slots(t, bind);
    if (!set)
        return NULL;
    if ((bind & QC_BIND_PIN) && team <= slots && index >= 0) {
        hwloc_bitmap_only(set, (unsigned)t->order[index % slots]);
    } else {
        for (int s = 0; s < slots; s++)
            hwloc_bitmap_set(set, (unsigned)t->order[s]);
    }
    return set;
}

int qct_topology_bind_thread(qct_topology *t, int index, int team, int bind)
{
    if (!t)
        return -1;
    hwloc_bitmap_t set = team_set(t, index, team, bind);
    int rc = set ? hwloc_set_cpubind(t->topo, set, HWLOC_CPUBIND_THREAD) : -1;
    hwloc_bitmap_free(set);
    return rc == 0 ? 0 : -1;
}

void qct_topology_unbind(qct_topology *t)
{
    if (t)
        hwloc_set_cpubind(t->topo, t->allowed, HWLOC_CPUBIND_THREAD);
}

int qct_topology_team_cpus(const qct_topology *t, int team, int bind, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    if (!t)
        return 0;
    hwloc_bitmap_t all = hwloc_bitmap_alloc();
    for (int i = 0; all && i < team; i++) {
        hwloc_bitmap_t set = team_set(t, i, team, bind);
        if (set)
            hwloc_bitmap_or(all, all, set);
        hwloc_bitmap_free(set);
    }
    int count = all ? hwloc_bitmap_weight(all) : 0;
    if (all && len)
        hwloc_bitmap_list_snprintf(buf, len, all);
    hwloc_bitmap_free(all);
    return count > 0 ? count : 0;
}

int qc_topology_cores(void)
{
    qct_topology *t = qct_topology_open();
    int cores = qct_topology_core_count(t);
    qct_topology_close(t);
    return cores;
}

int qc_topology_cpus(int threads, int bind, char *buf, size_t len)
{
    if (threads < 0 || (bind & ~(QC_BIND_PIN | QC_BIND_SMT)) || (!buf && len > 0))
        return -QC_EINVAL;
    qct_topology *t = qct_topology_open();
    if (threads <= 0)
        threads = qct_topology_slots(t, bind);
    int count = qct_topology_team_cpus(t, threads, bind, buf, len);
    qct_topology_close(t);
    return count;
}
