# SPDX-License-Identifier: MIT
# slurm_cluster.sh — a one-node Slurm cluster of this host for the tests
# (sourced, not run; needs test_lib.sh's $tmp): its own munge key and
# socket, slurm.conf, state and spool directories under $tmp/slurm, and
# slurmctld, slurmd and munged started in the foreground of background
# jobs, so that slurm_stop ends exactly the processes it started (by
# PID).  Debian 12's slurm-wlm and munge, run as root.
#   slurm_start: 0 when the cluster answers and its node is idle, else 1
#                with the reason in $slurm_why
#   slurm_stop:  cancels the cluster's jobs, then ends the daemons (TERM,
#                then KILL after 10 s) and removes the cgroups slurmd made
# The clients (sbatch, srun, squeue, scontrol, scancel) find the cluster
# through SLURM_CONF, which slurm_start exports.
slurm_pids=()
slurm_why=
slurm_cgroups=()   # the cgroup directories slurmd makes that were not there

slurm_daemon() {   # NAME COMMAND...: started in the background, its PID kept
    local name=$1
    shift
    "$@" >"$sd/$name.stdout" 2>&1 &
    slurm_pids+=($!)
}

slurm_start() {
    sd=$tmp/slurm
    mkdir -p "$sd/state" "$sd/spool" "$sd/munge"
    local host cpus mem port
    host=$(hostname -s)
    # the node as slurmd sees it: CPUs, sockets, cores, threads, memory
    local node
    node=$(slurmd -C 2>/dev/null | head -n 1 | sed 's/ UpTime=.*//')
    [ -n "$node" ] || { slurm_why="slurmd -C says nothing"; return 1; }
    port=$((20000 + $$ % 20000))
    local d
    slurm_cgroups=()
    for d in /sys/fs/cgroup/*/ /sys/fs/cgroup/; do
        [ -e "${d}slurm_$host" ] || slurm_cgroups+=("${d}slurm_$host")
    done
    dd if=/dev/urandom of="$sd/munge/key" bs=1024 count=1 2>/dev/null
    chmod 0400 "$sd/munge/key"
    chmod 0700 "$sd/munge"
    slurm_daemon munged munged --foreground --force --key-file="$sd/munge/key" \
        --socket="$sd/munge/sock" --pid-file="$sd/munge/pid" --log-file="$sd/munge/log" \
        --seed-file="$sd/munge/seed"
    cat >"$sd/slurm.conf" <<CONF
ClusterName=qcounttest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sd/munge/sock
CredType=cred/munge
StateSaveLocation=$sd/state
SlurmdSpoolDir=$sd/spool/%n
SlurmctldPidFile=$sd/slurmctld.pid
SlurmdPidFile=$sd/slurmd.pid
SlurmctldLogFile=$sd/slurmctld.log
SlurmdLogFile=$sd/slurmd.log
ProctrackType=proctrack/${QC_SLURM_PROCTRACK:-linuxproc}
TaskPlugin=task/${QC_SLURM_TASK:-none}
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
KillWait=30
MinJobAge=600
JobRequeue=1
SchedulerParameters=bf_interval=1
SlurmctldTimeout=30
SlurmdTimeout=60
$node State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    # read by proctrack/cgroup only
    printf 'CgroupPlugin=autodetect\nCgroupMountpoint=/sys/fs/cgroup\nIgnoreSystemd=yes\n' >"$sd/cgroup.conf"
    export SLURM_CONF=$sd/slurm.conf
    local t
    for t in $(seq 50); do [ -S "$sd/munge/sock" ] && break; sleep 0.1; done
    [ -S "$sd/munge/sock" ] || { slurm_why="munged did not start: $(tail -n 3 "$sd/munged.stdout" "$sd/munge/log" 2>/dev/null)"; return 1; }
    slurm_daemon slurmctld slurmctld -D -i -f "$SLURM_CONF"
    slurm_daemon slurmd slurmd -D -f "$SLURM_CONF"
    for t in $(seq 60); do
        sinfo -h -o %t 2>/dev/null | grep -qx idle && return 0
        sleep 0.5
    done
    slurm_why="the node never became idle: $(sinfo -h -o '%t %E' 2>&1 | head -n 1); $(tail -n 3 "$sd/slurmctld.log" "$sd/slurmd.log" 2>/dev/null | tr '\n' ' ')"
    return 1
}

slurm_stop() {
    local pid t alive d
    [ ${#slurm_pids[@]} -gt 0 ] || return 0
    # the jobs first, so that no slurmstepd outlives slurmd
    scancel --quiet --user=root 2>/dev/null
    for t in $(seq 100); do
        [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
        sleep 0.1
    done
    # slurmd and slurmctld first, munged (which they authenticate with) last
    for pid in "${slurm_pids[@]:1}" "${slurm_pids[0]}"; do kill -TERM "$pid" 2>/dev/null; done
    for t in $(seq 100); do
        alive=0
        for pid in "${slurm_pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive -eq 0 ] && break
        sleep 0.1
    done
    for pid in "${slurm_pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
    wait "${slurm_pids[@]}" 2>/dev/null
    slurm_pids=()
    # slurmd's cgroups (proctrack/cgroup), empty once its jobs are gone
    for d in "${slurm_cgroups[@]}"; do
        [ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
    done
    slurm_cgroups=()
}
