#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mpi_test.sh — qcount under mpirun on this one machine: counts on 1, 2 and 3
# ranks (one thread each, oversubscribed: 3 ranks fit 2 cores) against
# known-counts.tsv, more ranks than units, refused runs, a checkpointed
# run killed mid-way and resumed on another number of ranks, and units
# that run out of memory on a worker or on rank 0.
#   Usage: mpi_test.sh MPIEXEC QCOUNT KNOWN_TSV CASE
#   CASE: counts | refuse | join (ranks that differ or never join)
#         | big (N=17 on 3 ranks) | resume
#         | fail (QCOUNT: the qcount_fault test build, see fault_test.sh)
#         | stall (a worker stopped with SIGSTOP holds back only its units)
#         | silent (one stopped past QCOUNT_MPI_SILENCE: its units go to
#           the others, its late tallies are dropped)
#         | stop (SIGINT/SIGTERM to tools/scripts/qcount-mpirun, SIGUSR1/2
#           to mpirun: the stop line, 130/143, and the ledger resumes)
#
# Open MPI inside a container or CI runner needs (all set below):
#   OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  CI runs as root
#   OMPI_MCA_plm=isolated           launch locally; no ssh/rsh agent needed
#   OMPI_MCA_rmaps_base_oversubscribe=1   more ranks than cores
#   OMPI_MCA_hwloc_base_binding_policy=none  no launcher binding (qcount
#                                    spreads ranks sharing a machine itself)
#   OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader  shared memory only: no UCX,
#                                    InfiniBand or TCP probing and warnings
#   OMPI_MCA_btl_vader_single_copy_mechanism=none  no CMA (ptrace) needed
set -u
mpiexec=$1 qcount=$2 known=$3 case=$4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_plm=isolated OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
. "$(dirname "$0")/test_lib.sh"
case $qcount in /*) ;; *) qcount=$PWD/$qcount ;; esac
command -v "$mpiexec" >/dev/null || { echo "mpi_test: no $mpiexec, skipped"; exit 77; }

# expect_mpi NP N [ARGS...]: rank 0 alone prints the known total on stdout,
# and stderr holds the report: a summary line and one line per rank.
expect_mpi() {
    local np=$1 n=$2; shift 2
    local want; want=$(known_total "$n")
    timeout 120 "$mpiexec" -np "$np" "$qcount" --threads 1 "$@" "$n" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] \
       && grep -q "^qcount: $np ranks" "$tmp/err" \
       && [ "$(grep -c '^qcount: rank [0-9]* (' "$tmp/err")" -eq "$np" ]; then ok
    else bad "mpirun -np $np qcount $* $n -> rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want $want)"; fi
}

case $case in
counts)
    for n in 10 13; do expect_mpi 1 "$n"; done
    for n in 1 4 12 14; do expect_mpi 2 "$n"; done
    # N=1 has one unit, N=2 and 3 none, N=4 three: more ranks than units
    for n in 1 2 3 4 5 13 14; do expect_mpi 3 "$n"; done
    # several counting threads per rank, sharing the rank's queue
    expect_mpi 2 14 --threads 2
    # --unique: rank 0 adds the fundamental count, as a plain run does
    timeout 60 "$mpiexec" -np 2 "$qcount" --threads 1 --unique 10 >"$tmp/out" 2>"$tmp/err"
    [ "$(tr '\n' ' ' <"$tmp/out")" = "724 92 " ] && ok || bad "--unique under mpirun: $(cat "$tmp/out")"
    # --json: one object with a ranks array, units summing to the plan's
    timeout 60 "$mpiexec" -np 3 "$qcount" --threads 1 --json 12 >"$tmp/out" 2>"$tmp/err"
    python3 - "$tmp/out" "$(known_total 12)" <<'EOF' && ok || bad "--json under mpirun: $(cat "$tmp/out")"
import json, sys
o = json.load(open(sys.argv[1]))
assert o["total"] == int(sys.argv[2]), o
assert [r["rank"] for r in o["ranks"]] == [0, 1, 2], o
assert sum(r["units"] for r in o["ranks"]) == o["units"], o
assert all(r["threads"] == 1 and r["busy_seconds"] >= 0 for r in o["ranks"]), o
EOF
    ;;
refuse)
    # ranks with different plans (N) are refused: one line from rank 0
    timeout 60 "$mpiexec" -np 1 "$qcount" 12 : -np 1 "$qcount" 13 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] && [ ! -s "$tmp/out" ] && [ "$(grep -c '^qcount: ' "$tmp/err")" -eq 1 ] \
       && grep -q "^qcount: rank 1 was started as 'qcount --engine=eightfold 13'" "$tmp/err"; then ok
    else bad "mismatched plans -> rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
    # bad input under mpirun: exit 2 and one line, from rank 0 only
    timeout 60 "$mpiexec" -np 3 "$qcount" 0 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] && [ ! -s "$tmp/out" ] && [ "$(grep -c '^qcount: ' "$tmp/err")" -eq 1 ] \
       && grep -q "^qcount: board size '0' out of range" "$tmp/err"; then ok
    else bad "bad N under mpirun -> rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
    ;;
join)
    # [join timeout] every rank agrees on the mode and options before
    # counting, or the job ends within seconds with one line from rank 0;
    # a rank that never joins ends it at the timeout (3 s here)
    export QCOUNT_MPI_TIMEOUT=3
    cd "$tmp"
    # one_line PATTERN WHAT: the last job failed fast, said one qcount line
    # matching PATTERN, printed nothing, made no ledger
    one_line() {
        if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ ! -s "$tmp/out" ] && [ ! -e b.l ] \
           && [ "$(grep -c '^qcount: ' "$tmp/err")" -eq 1 ] && grep -qE "^qcount: $1" "$tmp/err"; then ok
        else bad "$2: rc=$rc out='$(head -c 200 "$tmp/out")' err='$(grep qcount "$tmp/err" | head -5)'"; fi
    }
    mpmd() { timeout 30 "$mpiexec" -np 1 "$qcount" 12 -q : -np 1 "$qcount" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
    # a rank 1 that does not count
    while IFS='|' read -r args words; do
        mpmd $args
        one_line "rank 1 was started as 'qcount $words', rank 0 as 'qcount --engine=eightfold 12'" "rank 1: $args"
    done <<'EOF'
--solve 8|--solve 8
--verify 1|--verify 1
12 --list --limit 1|--list --limit=1 12
--help|--help
--version|--version
12 --svg F|--svg=F 12
12 --unique|--engine=eightfold --unique 12
12 --checkpoint b.l|--engine=eightfold --checkpoint=b.l 12
12 -e halving|--engine=halving 12
EOF
    [ ! -e F ] && ok || bad "a refused job drew F"
    # a timeout qcount cannot take: refused on every rank, said once
    QCOUNT_MPI_TIMEOUT=abc timeout 30 "$mpiexec" -np 2 "$qcount" 12 >"$tmp/out" 2>"$tmp/err"; rc=$?
    one_line "invalid QCOUNT_MPI_TIMEOUT 'abc' \\(expected 1 to 3600 seconds\\)$" "QCOUNT_MPI_TIMEOUT=abc"
    for v in 2 3601 1x; do
        QCOUNT_MPI_SILENCE=$v timeout 30 "$mpiexec" -np 2 "$qcount" 12 >"$tmp/out" 2>"$tmp/err"; rc=$?
        one_line "invalid QCOUNT_MPI_SILENCE '$v' \\(expected 3 to 3600 seconds\\)$" "QCOUNT_MPI_SILENCE=$v"
    done
    # words refused on one rank only: that rank's error, named
    mpmd x
    one_line "rank 1: invalid board size 'x'" "rank 1: x"
    mpmd 12 --checkpoint
    one_line "rank 1: option '--checkpoint' needs an argument" "rank 1: --checkpoint"
    # ranks that never join: another program; one that exits at once, or
    # counts alone (QCOUNT_MPI=0), which mpirun itself may notice first:
    # the job ends fast, failed, with rank 0's line or none
    for other in "sleep 60" true "env QCOUNT_MPI=0 $qcount 12"; do
        start=$(date +%s)
        timeout 30 "$mpiexec" -np 1 "$qcount" 12 : -np 1 $other >"$tmp/out" 2>"$tmp/err"; rc=$?
        took=$(($(date +%s) - start))
        lines=$(grep '^qcount: ' "$tmp/err")
        if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $took -lt 20 ] && [ "$(grep -c '^qcount: ' "$tmp/err")" -le 1 ] \
           && { [ -z "$lines" ] || echo "$lines" | grep -q "^qcount: rank 0: the MPI job did not start within 3 s"; }; then ok
        else bad "rank 1 = $other: rc=$rc after $took s, err='$lines'"; fi
    done
    timeout 30 "$mpiexec" -np 1 "$qcount" 12 : -np 1 sleep 60 >"$tmp/out" 2>"$tmp/err"; rc=$?
    one_line "rank 0: the MPI job did not start within 3 s" "rank 1 = sleep 60"
    # ranks that do not agree with themselves stay agreed on what one does:
    # rank 0 alone runs the mode, once
    timeout 30 "$mpiexec" -np 2 "$qcount" --solve 8 >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "2 4 6 8 3 1 7 5" ] && ok \
        || bad "mpirun -np 2 qcount --solve 8: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"
    timeout 30 "$mpiexec" -np 2 "$qcount" --help >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && [ "$(grep -c '^Usage: qcount' "$tmp/out")" -eq 1 ] && ok || bad "mpirun -np 2 qcount --help: rc=$rc"
    timeout 30 "$mpiexec" -np 2 "$qcount" 8 --list --limit 2 >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] && ok || bad "mpirun -np 2 qcount 8 --list: rc=$rc $(cat "$tmp/out")"
    # and counting, the threads free to differ between ranks
    timeout 60 "$mpiexec" -np 1 "$qcount" 12 -t 1 : -np 1 "$qcount" 12 -t 2 --quiet >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$(known_total 12)" ] && ok \
        || bad "ranks on different thread counts: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"
    ;;
big)
    expect_mpi 3 17
    ;;
resume)
    # The halving engine: thousands of units at N=16, so kills land mid-way.
    # A checkpointed run on 2 ranks, mpirun killed with SIGKILL (its ranks
    # are orphaned and must notice and exit); resumed on 3 ranks and
    # stopped with SIGTERM; finished on 1 rank: the exact total, and each
    # run took over what the previous ones had saved.
    ledger=$tmp/ledger
    records() { local sz; sz=$(stat -c %s "$ledger" 2>/dev/null || echo 128); echo $(((sz - 128) / 128)); }
    # start_and_kill SIGNAL NP N: runs mpirun in the background, kills it
    # once the ledger holds 50 more records; returns the run's status
    start_and_kill() {
        local sig=$1 np=$2 n=$3 before; before=$(records)
        "$mpiexec" -np "$np" "$qcount" --engine halving --threads 1 --quiet --checkpoint "$ledger" "$n" \
            >"$tmp/out" 2>"$tmp/err" &
        local pid=$! i=0
        while [ $i -lt 1500 ] && kill -0 $pid 2>/dev/null && [ "$(records)" -lt $((before + 50)) ]; do
            sleep 0.02; i=$((i + 1))
        done
        kill -"$sig" $pid 2>/dev/null
        wait $pid 2>/dev/null
    }
    # the ledger is free once every rank of the killed run is gone
    wait_free() {
        local i=0
        while [ $i -lt 100 ] && ! flock -n -x "$ledger" true 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
        flock -n -x "$ledger" true
    }
    n=16
    want=$(known_total $n)
    start_and_kill KILL 2 $n; rc=$?
    a=$(records)
    if [ $rc -ne 0 ] && [ "$a" -gt 0 ] && wait_free; then ok
    else bad "SIGKILL of mpirun -np 2: rc=$rc, $a records, ledger free: $(wait_free && echo yes || echo no)"; fi
    start_and_kill TERM 3 $n; rc=$?
    b=$(records)
    if [ $rc -ne 0 ] && [ "$b" -gt "$a" ] && wait_free; then ok
    else bad "SIGTERM of mpirun -np 3: rc=$rc, records $a -> $b, err='$(cat "$tmp/err")'"; fi
    timeout 120 "$mpiexec" -np 1 "$qcount" --engine halving --threads 2 --quiet --checkpoint "$ledger" $n \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    resumed=$(sed -n 's/^qcount: 1 ranks, .* units (\([0-9]*\) from the ledger).*/\1/p' "$tmp/err")
    if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ -n "$resumed" ] \
       && [ "$resumed" -gt 0 ] && [ "$resumed" -le "$b" ]; then ok
    else bad "resume on 1 rank: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want $want, resumed 1..$b)"; fi
    # and once more: everything comes from the ledger, same total
    timeout 60 "$mpiexec" -np 2 "$qcount" --engine halving --threads 1 --checkpoint "$ledger" $n >"$tmp/out" 2>"$tmp/err"
    if [ "$(cat "$tmp/out")" = "$want" ] \
       && grep -qE "^qcount: 2 ranks, 2 threads, ([0-9]+) units \(\1 from the ledger\)" "$tmp/err"; then ok
    else bad "rerun of a finished ledger: out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
    ;;
fail)
    # A unit out of memory on one rank (QCOUNT_TEST_FAIL_UNIT=K on that
    # rank alone: its K-th unit fails) ends the whole job at once: status
    # 2, nothing on stdout, one line from rank 0 naming the rank, no hang
    # (the timeout); the ledger keeps what arrived, and a run without the
    # fault resumes to the exact total.
    # The failing rank must get work before the others finish it all:
    # N=16 by halving keeps every rank busy for a second or more, and the
    # trap is set on the rank's first or second unit (at N=13, 13 ms in
    # all, a late rank sometimes got fewer units than K and nothing failed).
    n=16 want=$(known_total 16)
    ledger=$tmp/ledger
    # expect_fail NAME PATTERN MPIRUN-ARGS...
    # mpirun forwards the ranks' stderr and prints its own MPI_ABORT banner
    # (a line of dashes first) in no fixed order with it: the banner can
    # start on the line of qcount's message, before its newline, so the
    # message is read with a banner's dashes cut off its line.
    expect_fail() {
        local what=$1 pattern=$2; shift 2
        timeout 120 "$mpiexec" "$@" >"$tmp/out" 2>"$tmp/err"
        local rc=$?
        sed -E 's/-{20,}$//' "$tmp/err" >"$tmp/err.lines"
        if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ ! -s "$tmp/out" ] \
           && [ "$(grep -c '^qcount: ' "$tmp/err.lines")" -eq 1 ] && grep -qE "^qcount: $pattern" "$tmp/err.lines"; then ok
        else bad "$what: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
    }
    args=(--engine halving --threads 1 "$n")
    expect_fail "a worker's unit fails" "out of memory counting a work unit on rank 1 \\([0-9]+ of [0-9]+ were counted\\); try fewer --threads$" \
        -np 1 "$qcount" "${args[@]}" : -np 1 env QCOUNT_TEST_FAIL_UNIT=2 "$qcount" "${args[@]}"
    expect_fail "rank 0's unit fails" "out of memory counting a work unit on rank 0 \\([0-9]+ of [0-9]+ were counted\\); try fewer --threads$" \
        -np 1 env QCOUNT_TEST_FAIL_UNIT=2 "$qcount" "${args[@]}" : -np 2 "$qcount" "${args[@]}"
    expect_fail "one rank, its unit fails" "out of memory counting a work unit on rank 0" \
        -np 1 env QCOUNT_TEST_FAIL_UNIT=1 "$qcount" "${args[@]}"
    # two threads per rank, a ledger on rank 0, the last of 3 ranks fails
    args=(--engine halving --threads 2 --quiet --checkpoint "$ledger" "$n")
    expect_fail "a worker's unit fails, with a ledger" \
        "out of memory counting a work unit on rank 2: [0-9]+ of [0-9]+ work units are saved in ledger" \
        -np 2 "$qcount" "${args[@]}" : -np 1 env QCOUNT_TEST_FAIL_UNIT=2 "$qcount" "${args[@]}"
    timeout 120 "$mpiexec" -np 2 "$qcount" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] \
       && grep -qE "^qcount: 2 ranks, .* units \([1-9][0-9]* from the ledger\)" "$tmp/err"; then ok
    else bad "resume after a failed unit: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
    ;;
stall)
    # A worker stopped (SIGSTOP) for 1.5 s while rank 0 counts: rank 0
    # must never wait on it, so the ledger keeps growing meanwhile; after
    # SIGCONT the job ends with the exact total.  Four trials, stopped at
    # different points of the run (a stop that lands as rank 0 sends that
    # worker a batch is what once froze the whole job, in about one trial
    # of three).
    n=16 want=$(known_total 16)
    ledger=$tmp/ledger
    size() { stat -c %s "$ledger" 2>/dev/null || echo 0; }
    for trial in 1 2 3 4; do
        rm -f "$ledger"
        timeout 60 "$mpiexec" -np 2 "$qcount" --engine halving --threads 1 --quiet --checkpoint "$ledger" $n \
            >"$tmp/out" 2>"$tmp/err" &
        pid=$! worker= i=0
        # rank 1, once the ledger holds 1000, 2000, ... units
        while [ $i -lt 500 ] && [ "$(size)" -lt $((trial * 128000)) ]; do sleep 0.01; i=$((i + 1)); done
        # timeout -> mpirun -> the ranks
        for p in $(pgrep -P "$(pgrep -P $pid | head -1)"); do
            grep -qz '^OMPI_COMM_WORLD_RANK=1$' /proc/$p/environ 2>/dev/null && worker=$p
        done
        [ -z "$worker" ] && { bad "stall trial $trial: no rank 1 found"; wait $pid; continue; }
        kill -STOP "$worker"
        sleep 0.3; a=$(size); sleep 1.2; b=$(size)
        kill -CONT "$worker"
        wait $pid; rc=$?
        if [ "$b" -gt "$a" ] && [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ]; then ok
        else bad "stall trial $trial: ledger $a -> $b bytes while rank 1 was stopped, rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
    done
    ;;
silent)
    # [silence] A worker stopped (SIGSTOP) past the silence timeout (3 s
    # here): rank 0 hands its units to the others.  Stopped for good, the
    # job ends with the exact total without it (rank 0 ends the job);
    # woken after 6 s, it sends tallies of units already counted again,
    # which must be dropped (never added twice): the exact total, and the
    # report says how many came twice.
    export QCOUNT_MPI_SILENCE=3
    ledger=$tmp/ledger
    size() { stat -c %s "$ledger" 2>/dev/null || echo 0; }
    # stop_rank1 PID: SIGSTOP to rank 1 of the job under `timeout` PID
    stop_rank1() {
        worker=
        for p in $(pgrep -P "$(pgrep -P "$1" | head -1)"); do
            grep -qz '^OMPI_COMM_WORLD_RANK=1$' /proc/$p/environ 2>/dev/null && worker=$p
        done
        [ -n "$worker" ] && kill -STOP "$worker"
    }
    for n in 16 17; do
        want=$(known_total $n)
        rm -f "$ledger"
        timeout 60 "$mpiexec" -np 3 "$qcount" --engine halving --threads 1 --quiet --checkpoint "$ledger" $n \
            >"$tmp/out" 2>"$tmp/err" &
        pid=$! i=0
        while [ $i -lt 500 ] && [ "$(size)" -lt 64000 ]; do sleep 0.01; i=$((i + 1)); done
        stop_rank1 $pid || { bad "silent N=$n: no rank 1 found"; wait $pid; continue; }
        if [ $n = 17 ]; then sleep 6; kill -CONT "$worker"; fi
        wait $pid; rc=$?
        kill -CONT "$worker" 2>/dev/null
        if [ $n = 16 ]; then came='[0-9]+ tallies came twice, the same'
        else came='[1-9][0-9]* tallies came twice, the same'; fi
        if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] \
           && grep -Eq "^qcount: 1 rank \(rank 1 first\) sent nothing for 3 s .*\($came\)" "$tmp/err"; then ok
        else bad "silent N=$n: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want $want)"; fi
        # the ledger holds every unit once: all come from it on a resume
        timeout 60 "$mpiexec" -np 2 "$qcount" --engine halving --threads 1 --checkpoint "$ledger" $n \
            >"$tmp/out" 2>"$tmp/err"
        if [ "$(cat "$tmp/out")" = "$want" ] \
           && grep -Eq "^qcount: 2 ranks, [0-9]+ threads, ([0-9]+) units \(\1 from the ledger\)" "$tmp/err"; then ok
        else bad "silent N=$n resumed: out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
    done
    ;;
stop)
    # SIGINT and SIGTERM to qcount-mpirun, SIGUSR1 and SIGUSR2 to a plain
    # mpirun, once the ledger holds 50 units: status 130 or 143, nothing on
    # stdout, rank 0's stop line naming what the ledger holds, the ledger
    # free and holding just that, and a run resumed from it on 3 ranks
    # gives the exact total.  (A plain mpirun given SIGINT or SIGTERM exits
    # 1 without the line: this fails if qcount-mpirun passes them on so.)
    n=16 want=$(known_total 16)
    launcher=$(dirname "$0")/../../tools/scripts/qcount-mpirun
    records() { local sz; sz=$(stat -c %s "$1" 2>/dev/null || echo 128); echo $(((sz - 128) / 128)); }
    set -m   # each job its own process group, and SIGINT not ignored in it
    free() { local i=0; while [ $i -lt 100 ] && ! flock -n -x "$1" true 2>/dev/null; do sleep 0.05; i=$((i + 1)); done; flock -n -x "$1" true; }
    # expect_stop HOW SIGNAL STATUS NAME COMMAND...
    expect_stop() {
        local how=$1 sig=$2 want_rc=$3 name=$4; shift 4
        local ledger=$tmp/ledger.$sig i=0
        "$@" -np 2 "$qcount" --engine halving --threads 1 --quiet --checkpoint "$ledger" $n \
            >"$tmp/out" 2>"$tmp/err" &
        local pid=$!
        while [ $i -lt 1500 ] && kill -0 $pid 2>/dev/null && [ "$(records "$ledger")" -lt 50 ]; do
            sleep 0.02; i=$((i + 1))
        done
        kill -"$sig" $pid
        i=0   # at most 30 s more, then the whole group goes
        while [ $i -lt 1500 ] && kill -0 $pid 2>/dev/null; do sleep 0.02; i=$((i + 1)); done
        kill -0 $pid 2>/dev/null && kill -KILL -- -$pid
        wait $pid
        local rc=$? saved
        saved=$(sed -n "s/^qcount: stopped by $name: \([0-9]*\) of [0-9]* work units are saved in ledger '.*'; run the same command again to resume\$/\1/p" "$tmp/err")
        if [ $rc -eq "$want_rc" ] && [ ! -s "$tmp/out" ] && [ -n "$saved" ] && [ "$saved" -ge 50 ] \
           && [ "$saved" -eq "$(records "$ledger")" ] && free "$ledger"; then ok
        else bad "$how: rc=$rc (want $want_rc) out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' records $(records "$ledger")"; fi
        timeout 120 "$mpiexec" -np 3 "$qcount" --engine halving --threads 1 --checkpoint "$ledger" $n \
            >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] \
           && grep -q "^qcount: 3 ranks, .* units ($saved from the ledger)" "$tmp/err"; then ok
        else bad "resume after $how: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want $want, $saved resumed)"; fi
    }
    expect_stop "SIGINT to qcount-mpirun" INT 130 SIGINT env MPIRUN="$mpiexec" sh "$launcher"
    expect_stop "SIGTERM to qcount-mpirun" TERM 143 SIGTERM env MPIRUN="$mpiexec" sh "$launcher"
    expect_stop "SIGUSR1 to mpirun" USR1 130 SIGINT "$mpiexec"
    expect_stop "SIGUSR2 to mpirun" USR2 143 SIGTERM "$mpiexec"
    ;;
*)
    echo "mpi_test.sh: unknown case '$case'" >&2
    exit 2
    ;;
esac

report "mpi_test $case"
