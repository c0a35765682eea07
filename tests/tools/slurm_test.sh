#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# slurm_test.sh — the Slurm scripts (tools/scripts/qcount-parts.slurm,
# qcount.slurm) on a real one-node Slurm cluster of this host, which the
# test starts as root from Debian's slurm-wlm and munge and stops again
# (slurm_cluster.sh):
#   array:   a job array of 3 parts of N=16, merged to the exact total; each
#            part's .out says it holds the part's sum, the .err files empty;
#            qcount status gives the total; task 0, an array of one task
#            without PARTS, and a PARTS the ledgers contradict refused
#   cancel:  a part of N=20 cancelled (scancel) mid-count: its stop line and
#            the resume command, pasted from another directory, resume it
#            from its ledger; merged exact
#   limit:   a part stopped by --signal before its time limit (held mid-way
#            by the qcount_fault build's [paused units]): the stop
#            line, exit 143; requeued (scontrol requeue), it finishes; exact
#   mpi:     srun --mpi=pmix -n 2 exact; srun -n 2 without MPI refused with
#            one line; qcount-mpirun in an allocation exact; qcount.slurm as
#            shown, exact; cancelled with 2 ranks, its stop line without Open
#            MPI's MPI_ABORT banner and the resume command
# Exit 77 when it cannot run: not root, Slurm or munge not installed, or
# the cluster does not start.
# usage: slurm_test.sh QCOUNT KNOWN SCRIPTS_DIR [mpi]
qcount=$(readlink -f "$1") known=$2 scripts=$(readlink -f "$3") mpi=${4:-}
# the qcount_fault test build ([paused units]), from CTest's environment
qcount_fault=$(readlink -f "${QCOUNT_FAULT:?the qcount_fault build, in QCOUNT_FAULT}")
. "$(dirname "$0")/test_lib.sh"
. "$(dirname "$0")/slurm_cluster.sh"

[ "$(id -u)" = 0 ] || { echo "slurm: needs root (skipped)"; exit 77; }
for p in slurmctld slurmd munged sbatch srun scontrol; do
    command -v $p >/dev/null || { echo "slurm: $p not installed (skipped)"; exit 77; }
done
end() { slurm_stop; rm -rf "$tmp"; }
trap end EXIT
trap 'exit 143' TERM INT   # ctest's timeout, ^C: the daemons stopped all the same
# proctrack/cgroup, as clusters run it; proctrack/linuxproc where the
# host's cgroups do not let slurmd make its own
started=
for QC_SLURM_PROCTRACK in cgroup linuxproc; do
    export QC_SLURM_PROCTRACK
    if slurm_start && timeout 60 srun -n 1 -t 1 true 2>"$tmp/srun.err"; then
        started=1
        break
    fi
    echo "slurm: proctrack/$QC_SLURM_PROCTRACK: ${slurm_why:-$(cat "$tmp/srun.err")}"
    slurm_stop
    rm -rf "$tmp/slurm"
done
[ -n "$started" ] || { echo "slurm: the cluster does not start (skipped)"; exit 77; }
echo "slurm: a one-node cluster of $(hostname -s), proctrack/$QC_SLURM_PROCTRACK"

# done_job ID [SECONDS]: waits until job ID (every task of an array) has
# left the queue; 1 after SECONDS (default 120)
done_job() {
    local t
    for t in $(seq $((${2:-120} * 5))); do
        [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    return 1
}
# running ID LEDGER: waits until job ID runs and LEDGER holds a record
running() {
    local t
    for t in $(seq 300); do
        [ "$(squeue -h -j "$1" -o %T 2>/dev/null)" = RUNNING ] \
            && [ "$(stat -c %s "$2" 2>/dev/null || echo 0)" -gt 256 ] && return 0
        sleep 0.2
    done
    return 1
}
state() { scontrol show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
# appears FILE [SECONDS]: waits until FILE is not empty; 1 after SECONDS (200)
appears() {
    local t
    for t in $(seq $((${2:-200} * 5))); do
        [ -s "$1" ] && return 0
        sleep 0.2
    done
    return 1
}
parts=$scripts/qcount-parts.slurm
work=$tmp/work
mkdir -p "$work"
cd "$work" || exit 1

# ---- array: 3 parts of N=16 ------------------------------------------------
want=$(known_total 16)
job=$(sbatch --parsable --array=1-3 --export=ALL,N=16,QCOUNT="$qcount" "$parts")
run=$work/qcount-N16-job$job
if done_job "$job"; then ok; else bad "array of 3 parts: still queued"; fi
got=$("$qcount" merge "$run"/qcount-16.part-*-of-3.ledger 2>"$tmp/err")
[ "$got" = "$want" ] && ok || bad "array of 3 parts merged: '$got', want $want ($(cat "$tmp/err"))"
sum=0
for k in 1 2 3; do
    line=$(cat "$run/part-$k.out" 2>/dev/null)
    s=$(echo "$line" | sed -n "s/^part $k\/3 of N=16: \([0-9]*\) (this part's sum alone, not the total;.*/\1/p")
    [ -n "$s" ] && sum=$((sum + s)) && ok || bad "part-$k.out: '$line'"
    [ -f "$run/part-$k.err" ] && [ ! -s "$run/part-$k.err" ] && ok \
        || bad "part-$k.err not empty: $(cat "$run/part-$k.err" 2>&1)"
done
[ "$sum" = "$want" ] && ok || bad "the parts' .out sums add to $sum, want $want"
[ -z "$(ls "$work" | grep -v '^qcount-N16-job')" ] && ok || bad "files outside the run directory: $(ls "$work")"
"$qcount" status "$run"/qcount-16.part-*-of-3.ledger >"$tmp/out" 2>&1 \
    && grep -q "^total  *$want\$" "$tmp/out" && ok || bad "status of the array: $(cat "$tmp/out")"

# refused up front: task 0 (and every task of its array), an array of one
# task with no ledgers and no PARTS, a PARTS that the ledgers contradict
job=$(sbatch --parsable --array=0-2 --export=ALL,N=12,QCOUNT="$qcount" "$parts")
done_job "$job"
r=$work/qcount-N12-job$job
[ "$(cat "$r"/part-*.err | grep -c '^qcount-parts.slurm: ')" = 3 ] && ! ls "$r"/*.ledger >/dev/null 2>&1 \
    && grep -q "array task 0: parts are numbered from 1" "$r/part-0.err" && ok \
    || bad "--array=0-2: $(cat "$r"/part-*.err 2>&1)"
job=$(sbatch --parsable --array=2 --export=ALL,N=12,QCOUNT="$qcount" "$parts")
done_job "$job"
grep -q "give PARTS=M" "$work/qcount-N12-job$job/part-2.err" && [ "$(state "$job")" = FAILED ] && ok \
    || bad "--array=2 without PARTS: $(cat "$work/qcount-N12-job$job/part-2.err" 2>&1)"
job=$(sbatch --parsable --array=1 --export=ALL,N=16,PARTS=2,RUN="$run",QCOUNT="$qcount" "$parts")
done_job "$job"
grep -q "resubmit with PARTS=3" "$run/part-1.err" && ok || bad "PARTS=2 against ledgers of 3: $(cat "$run/part-1.err")"
# without PARTS, a task of one takes M from the run's ledgers (its part is
# done: it says its sum again, a second line)
job=$(sbatch --parsable --array=2 --export=ALL,N=16,RUN="$run",QCOUNT="$qcount" "$parts")
done_job "$job"
[ "$(grep -c "^part 2/3 of N=16: " "$run/part-2.out")" = 2 ] && ok \
    || bad "--array=2 with the run's ledgers: $(cat "$run/part-2.out" "$run/part-2.err")"
report slurm_array

# ---- cancel: a part of N=20 cancelled mid-count, resumed by its hint --------
want=$(known_total 20)
job=$(sbatch --parsable --array=1-2 --export=ALL,N=20,QCOUNT="$qcount" "$parts")
run=$work/qcount-N20-job$job
cancelled=$run
if running "${job}_1" "$run/qcount-20.part-1-of-2.ledger"; then
    scancel "${job}_1"
    ok
else
    bad "part 1 of N=20 never ran: $(squeue; cat "$run"/part-1.err)"
fi
done_job "$job" 300 || bad "N=20: still queued"
grep -q "^qcount: stopped by SIGTERM: [0-9]* of 2343 work units are saved in ledger '$run/qcount-20.part-1-of-2.ledger'" \
    "$run/part-1.err" && ok || bad "no stop line from the cancelled part: $(cat "$run/part-1.err")"
[ ! -s "$run/part-1.out" ] && ok || bad "the cancelled part printed a sum: $(cat "$run/part-1.out")"
hint=$(sed -n 's/^qcount-parts.slurm: part 1\/2 of N=20 stopped (status 143) .* Resume it on any node with: //p' "$run/part-1.err")
case $hint in "sbatch --array=1 "*) ok ;; *) bad "no resume command: $(cat "$run/part-1.err")" ;; esac
done=$("$qcount" show --json "$run/qcount-20.part-1-of-2.ledger" | python3 -c 'import json, sys; o = json.load(sys.stdin); print(o["records"], o["part_units"])')
[ "${done% *}" -lt "${done#* }" ] && ok || bad "the part was not cancelled mid-count: $done records"
"$qcount" status --json "$run"/qcount-20.part-*-of-2.ledger | python3 -c '
import json, sys
o = json.load(sys.stdin)
assert o["complete"] is False and o["total"] is None and o["parts"] == 2, o
l = {x["part"]: x for x in o["ledgers"]}
assert l["2/2"]["complete"] and not l["1/2"]["complete"], l
assert 0 < o["work_done"] < 1 and o["hosts"][0]["cpu_seconds"] > 0, o' && ok || bad "status of the cancelled run"
job=$(cd / && eval "$hint" | sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p')
[ -n "$job" ] && ok || bad "the resume command, pasted: $hint"
done_job "$job" 300 || bad "the resumed part: still queued"
got=$("$qcount" merge "$run"/qcount-20.part-*-of-2.ledger 2>"$tmp/err")
[ "$got" = "$want" ] && ok || bad "cancelled and resumed: merged '$got', want $want ($(cat "$tmp/err"; cat "$run"/part-*.err))"
grep -q "^part 1/2 of N=20: " "$run/part-1.out" && ok || bad "the resumed part's .out: $(cat "$run/part-1.out")"
report slurm_cancel

# job_log ID: what Slurm said of job ID, for a failure's message
job_log() {
    scontrol show job "$1" | grep -o 'JobState=[A-Z_]*\|Restarts=[0-9]*\|Reason=[^ ]*\|TimeLimit=[^ ]*\|RunTime=[^ ]*\|ExitCode=[^ ]*' | tr '\n' ' '
    grep -h "JobId=$1[ _(]\|job $1[ _]\|JobId=$1\$" "$tmp/slurm/slurmctld.log" 2>/dev/null | tail -n 12
    echo "slurmd:"; tail -n 15 "$tmp/slurm/slurmd.log" 2>/dev/null
    [ ! -s "$run/.part-1.stderr" ] || { echo "qcount's stderr left behind:"; cat "$run/.part-1.stderr"; }
}

# ---- limit: stopped by --signal before its time limit, requeued --------------
# slurmctld checks time limits every 30 s (PERIODIC_TIMEOUT) and sends a
# --signal at the first check less than 30 s before it is due, once; a
# signal sent before slurmd has started the batch step is lost (slurmd:
# "kill for nonexistent ... stepd_connect failed"), and the job runs into
# its limit (state TIMEOUT).  So the signal here is due 45 s after the
# start (--time=3, @135): it is sent 15 to 45 s after the start (later on
# a loaded host), when the batch script has long been trapping TERM, and
# some 135 s before the limit.
# The part must still be counting when the signal comes, however fast the
# machine: it runs the qcount_fault build, whose units after the first 64
# wait while the file $pause exists ([paused units]), so that it is
# mid-way until the signal stops it; the file is removed before the
# requeued run, which counts the rest unpaused.
pause=$tmp/limit.pause
touch "$pause"
job=$(sbatch --parsable --array=1 --time=3 --signal=B:TERM@135 \
      --export=ALL,N=20,PARTS=2,QCOUNT="$qcount_fault",QCOUNT_TEST_PAUSE_WHILE="$pause",QCOUNT_TEST_PAUSE_AFTER=64 "$parts")
run=$work/qcount-N20-job$job
running "$job" "$run/qcount-20.part-1-of-2.ledger" || bad "the limited part never ran"
done_job "$job" 240 || bad "the limited part: still queued after its time limit"
rm -f "$pause"
st=$(state "$job")
grep -q "^qcount: stopped by SIGTERM: [0-9]* of 2343 work units are saved" "$run/part-1.err" \
    && grep -q "stopped (status 143) in job" "$run/part-1.err" && [ "$st" = FAILED ] && ok \
    || bad "no stop line at the time limit (state $st): $(cat "$run/part-1.err"; job_log "$job")"
# requeued held, given time, released: it resumes from its ledger.  Not
# in the second its first run was killed: slurmd revokes a killed job's
# credential and refuses any of that job made in the same second ("Job N
# already killed, do not launch batch job"; the run then fails at once
# with status 1).  Slurm delays a requeued job's start for that, and
# StartTime=now undoes the delay, so the test waits those seconds itself.
sleep 2
scontrol requeuehold "$job" && scontrol update JobId="$job" TimeLimit=10:00 StartTime=now \
    && scontrol show job "$job" | grep -q 'TimeLimit=00:10:00' \
    && scontrol release "$job" && ok || bad "requeue of $job: $(scontrol show job "$job" | grep -o 'JobState=[A-Z_]*\|TimeLimit=[^ ]*')"
appears "$run/part-1.out" && done_job "$job" 30 || bad "the requeued part: not run again ($(job_log "$job"))"
# with the other run's part 2, which is the same part of the same count
got=$("$qcount" merge "$run/qcount-20.part-1-of-2.ledger" "$cancelled/qcount-20.part-2-of-2.ledger" 2>"$tmp/err")
[ "$got" = "$want" ] && ok || bad "stopped at the limit, requeued: merged '$got', want $want ($(cat "$tmp/err"; cat "$run"/part-*.err))"
grep -q "^part 1/2 of N=20: " "$run/part-1.out" && ok || bad "the requeued part's .out: $(cat "$run/part-1.out")"
report slurm_limit

# ---- mpi: srun --mpi=pmix, srun without MPI, qcount.slurm ----------------------
if [ "$mpi" = mpi ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
    want=$(known_total 17)
    got=$(timeout 120 srun --mpi=pmix -n 2 "$qcount" --threads 1 17 2>"$tmp/err")
    [ "$got" = "$want" ] && grep -q "^qcount: 2 ranks" "$tmp/err" && ok \
        || bad "srun --mpi=pmix -n 2: '$got', want $want ($(cat "$tmp/err"))"
    got=$(timeout 60 srun --mpi=none -n 2 "$qcount" 15 2>"$tmp/err")
    [ -z "$got" ] && [ "$(grep -c '^qcount: ' "$tmp/err")" = 1 ] \
        && grep -q "^qcount: srun started 2 tasks without MPI.*srun --mpi=pmix" "$tmp/err" && ok \
        || bad "srun -n 2 without MPI: '$got' ($(cat "$tmp/err"))"
    # Open MPI's own launcher inside an allocation, as qcount.slurm's header shows it
    want=$(known_total 16)
    job=$(sbatch --parsable --exclusive --output="$tmp/mpirun.out" --error="$tmp/mpirun.err" \
          --wrap "$scripts/qcount-mpirun --map-by ppr:1:node --bind-to none $qcount 16")
    done_job "$job" 120
    [ "$(cat "$tmp/mpirun.out")" = "$want" ] && ok \
        || bad "qcount-mpirun in an allocation: '$(cat "$tmp/mpirun.out")', want $want ($(cat "$tmp/mpirun.err"))"
    want=$(known_total 17)
    job=$(sbatch --parsable --export=ALL,N=17,QCOUNT="$qcount" "$scripts/qcount.slurm")
    done_job "$job" 120
    run=$work/qcount-N17-job$job
    [ "$(cat "$run/qcount.out" 2>&1)" = "$want" ] && ok \
        || bad "qcount.slurm as shown: '$(cat "$run/qcount.out" 2>&1)', want $want ($(cat "$run/qcount.err"))"
    job=$(sbatch --parsable --ntasks-per-node=2 --export=ALL,N=20,QCOUNT="$qcount" "$scripts/qcount.slurm")
    run=$work/qcount-N20-job$job
    running "$job" "$run/qcount-20.ledger" && scancel "$job"
    done_job "$job" 60
    grep -q "^qcount: stopped by SIGTERM: " "$run/qcount.err" && ! grep -q "MPI_ABORT" "$run/qcount.err" \
        && grep -q "^qcount.slurm: stopped (status 143) .* with: sbatch --nodes=1 --ntasks-per-node=2 " "$run/qcount.err" \
        && ok || bad "qcount.slurm cancelled: $(cat "$run/qcount.err")"
    report slurm_mpi
else
    echo "slurm: qcount built without MPI: the srun --mpi=pmix cases not run"
fi
report slurm
