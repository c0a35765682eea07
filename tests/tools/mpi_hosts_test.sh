#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mpi_hosts_test.sh — qcount under Open MPI across three "hosts" on this
# machine: network namespaces (each with its own host name) joined by veth
# links to a bridge in a fourth, Open MPI launching into them through its
# rsh agent (ip netns exec) and talking TCP between them.  Counts N=16
# exactly; then, with one host's link cut mid-run, the job must finish or
# stop within 60 s (a deadline, not a benchmark), and the ledger it left
# must resume to the exact total on the two hosts left.
#   Usage: mpi_hosts_test.sh MPIEXEC QCOUNT KNOWN_TSV QCOUNT_MPIRUN
# Needs root, iproute2, unshare and mpirun (Open MPI): else "skipped", 77.
# Every namespace made here, and every process in it, goes on any exit.
set -u
mpiexec=$1 qcount=$2 known=$3 wrapper=$4
. "$(dirname "$0")/test_lib.sh"
case $qcount in /*) ;; *) qcount=$PWD/$qcount ;; esac
case $wrapper in /*) ;; *) wrapper=$PWD/$wrapper ;; esac
skip() { echo "mpi_hosts_test: $*, skipped"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "not root"
command -v ip >/dev/null || skip "no ip (iproute2)"
command -v unshare >/dev/null || skip "no unshare"
command -v "$mpiexec" >/dev/null || skip "no $mpiexec"
"$mpiexec" --version 2>/dev/null | grep -Eq "Open ?MPI|OpenRTE" || skip "$mpiexec is not Open MPI's"

# ---- the hosts: qh<pid>a..c on 10.231.7.1..3, a bridge in qh<pid>br -------
pre=qh$$ net=10.231.7
hosts="a b c"
cleanup() {
    for ns in $(ip netns list 2>/dev/null | awk -v p="$pre" 'index($1, p) == 1 { print $1 }'); do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
ip netns add "${pre}br" 2>/dev/null || skip "cannot make network namespaces"
ip -n "${pre}br" link add br0 type bridge && ip -n "${pre}br" link set br0 up || skip "no bridge"
i=0
for h in $hosts; do
    i=$((i + 1))
    ip netns add "$pre$h"
    ip -n "${pre}br" link add "v$h" type veth peer name eth0 netns "$pre$h" || skip "no veth"
    ip -n "${pre}br" link set "v$h" master br0 up
    ip -n "$pre$h" addr add "$net.$i/24" dev eth0
    ip -n "$pre$h" link set eth0 up
    ip -n "$pre$h" link set lo up
done

# the rsh agent: Open MPI runs `AGENT HOST COMMAND...` to start its daemon
# on HOST; here that is a shell in HOST's namespace with HOST's name
agent=$tmp/agent
cat >"$agent" <<EOF
#!/bin/sh
host=\$1; shift
case \$host in
$net.1) ns=${pre}a ;; $net.2) ns=${pre}b ;; $net.3) ns=${pre}c ;;
*) echo "agent: unknown host \$host" >&2; exit 1 ;;
esac
# HIDE_MODULE=DIR: an empty DIR on hosts b and c (their own mounts)
if [ -n "\${HIDE_MODULE:-}" ] && [ "\$ns" != ${pre}a ]; then
    exec ip netns exec "\$ns" unshare --uts --mount sh -c \
        'mount -t tmpfs none "\$1" && hostname "\$0" && eval "\$2"' "\$ns" "\$HIDE_MODULE" "\$*"
fi
exec ip netns exec "\$ns" unshare --uts sh -c 'hostname "\$0"; eval "\$*"' "\$ns" "\$*"
EOF
chmod +x "$agent"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm_rsh_agent=$agent OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=tcp,self
export OMPI_MCA_btl_tcp_if_include=$net.0/24 OMPI_MCA_oob_tcp_if_include=$net.0/24
export MPIRUN=$mpiexec
# on_a SECONDS LAUNCHER HOSTS ARGS...: LAUNCHER (mpirun, or the wrapper)
# started on host a under `timeout SECONDS`, with one rank on each of
# HOSTS (e.g. "1 2 3"), running qcount --threads 1 ARGS
on_a() {
    local secs=$1 launcher=$2 list='' np=0 h
    for h in $3; do list=$list${list:+,}$net.$h:1; np=$((np + 1)); done
    shift 3
    ip netns exec "${pre}a" unshare --uts sh -c 'hostname "$0"; exec "$@"' "${pre}a" \
        timeout "$secs" "$launcher" --host "$list" -np $np "$qcount" --threads 1 "$@"
}

# ---- an exact count on three hosts ----------------------------------------
want=$(known_total 16)
on_a 60 "$mpiexec" "1 2 3" 16 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && grep -q "^qcount: 3 ranks" "$tmp/err" \
   && [ "$(grep -c "^qcount: rank [0-9] (${pre}[abc], " "$tmp/err")" -eq 3 ]; then ok
else bad "N=16 on three hosts: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi

# ---- hosts without the MPI module -----------------------------------------
# [rank's last words] qcount's module hidden on hosts b and c: rank 0 (on
# a) waits in MPI_Init while ranks 1 and 2 cannot join; each of them must
# say why on stderr, naming its rank and host, in each of five trials
module_dir=$(dirname "$qcount")/lib/qcount
said=0
for trial in 1 2 3 4 5; do
    HIDE_MODULE=$module_dir on_a 30 "$mpiexec" "1 2 3" 12 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ ! -s "$tmp/out" ] \
        && grep -q "^qcount: rank 1 (${pre}b): started by an MPI launcher, but its MPI module .* is missing" "$tmp/err" \
        && grep -q "^qcount: rank 2 (${pre}c): started by an MPI launcher, but its MPI module .* is missing" "$tmp/err" \
        && said=$((said + 1))
done
[ $said -eq 5 ] && ok || bad "no module on b and c: both reasons reached stderr in $said of 5 trials: $(cat "$tmp/err")"

# ---- host c's link cut mid-run --------------------------------------------
# cut N SILENCE: a checkpointed count of N (halving) on hosts a, b and c
# through the wrapper (its TCP keepalive defaults), with host c's link cut
# once the ledger holds 250 units.  Rank 0 either finishes without c (the
# exact total on stdout: Open MPI then ends the job, whose status tells of
# the lost host) or is stopped by Open MPI (no total; rank 0's stop line
# when it has the time, but Open MPI kills a rank one second after its
# SIGTERM, so on a loaded host Open MPI's own line may be all there is);
# either within 60 s of the cut.  The ledger then resumes exactly on hosts
# a and b: what a stop must leave.
cut() {
    local n=$1 want; want=$(known_total "$1")
    local ledger=$tmp/ledger.$1 how='' took rc i=0
    QCOUNT_MPI_SILENCE=$2 on_a 120 "$wrapper" "1 2 3" --engine halving --checkpoint "$ledger" "$n" \
        >"$tmp/out" 2>"$tmp/err" &
    local pid=$!
    size() { stat -c %s "$ledger" 2>/dev/null || echo 0; }
    while [ $i -lt 3000 ] && [ "$(size)" -lt 32000 ] && kill -0 $pid 2>/dev/null; do
        sleep 0.01; i=$((i + 1))
    done
    local at; at=$(date +%s)
    ip -n "${pre}br" link set vc down
    wait $pid
    rc=$? took=$(($(date +%s) - at))
    ip -n "${pre}br" link set vc up
    # what the hosts learnt of each other while c was cut (failed
    # neighbour entries) is forgotten before the next job: once, the next
    # job's daemon on c could not connect to a (the likely cause; it did
    # not happen again in four runs)
    for h in $hosts; do ip -n "$pre$h" neigh flush all 2>/dev/null; done
    if [ "$(cat "$tmp/out")" = "$want" ]; then how=finished
    elif [ $rc -ne 0 ] && [ ! -s "$tmp/out" ] \
         && grep -q -e "^qcount: stopped by .* saved in ledger" \
                    -e "^ORTE has lost communication with a remote daemon" "$tmp/err"
    then how=stopped; fi
    if [ -n "$how" ] && [ "$took" -le 60 ]; then ok
    else bad "N=$n, host c cut: rc=$rc after ${took}s out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
    echo "mpi_hosts_test: N=$n, host c cut: the job ${how:-hung or failed} in ${took}s (status $rc)"
    on_a 120 "$wrapper" "1 2" --engine halving --checkpoint "$ledger" "$n" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && grep -q "^qcount: 2 ranks" "$tmp/err"; then ok
    else bad "N=$n resumed on a and b: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
}
# N=16 takes three ranks about 3 s: with a 3 s silence rank 0 finishes
# without c long before Open MPI notices the lost host (about 11 s)
cut 16 3
# N=17 about 20 s: Open MPI stops the job first, or rank 0 finishes
cut 17 10
report mpi_hosts
