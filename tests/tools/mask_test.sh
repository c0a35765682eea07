#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mask_test.sh — qcount inside a CPU mask: under taskset every thread stays
# on the allowed CPUs (read from /proc while a count runs), the default is
# one thread per allowed core, more threads than cores still count exactly,
# OMP_NUM_THREADS gives the thread count unless --threads does, and a bad
# value is one qcount line (not libgomp's).   Usage: mask_test.sh QCOUNT KNOWN
set -u
qcount=$1 known=$2
. "$(dirname "$0")/test_lib.sh"

# the CPUs this test may use, expanded ("0-2,5" -> "0 1 2 5")
expand() { local IFS=,; for r in $1; do seq "${r%-*}" "${r#*-}"; done | tr '\n' ' '; }
cpus=($(expand "$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status)"))
first=${cpus[0]}

# allowed_lists WANT_THREADS ARGS...: runs qcount ARGS (a long count) in
# the background until it has WANT_THREADS threads (5 s at most), then
# prints each thread's Cpus_allowed_list, sorted, and stops it.
allowed_lists() {
    local want=$1; shift
    "$@" -q >/dev/null 2>&1 &
    local pid=$! i
    for i in $(seq 50); do
        [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge "$want" ] && break
        sleep 0.1
    done
    sleep 0.3   # the threads bind themselves as the team starts
    awk '/^Cpus_allowed_list/ { print $2 }' /proc/$pid/task/*/status 2>/dev/null | sort -n | tr '\n' ' '
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
}

# expect_lists THREADS ALLOWED "PINNED" ARGS...: with at least THREADS
# threads running, every thread's list is ALLOWED (the whole mask: threads
# left free, and the runtime's own, such as TSan's) but for those pinned to
# one CPU, which are exactly PINNED (sorted, one per thread)
expect_lists() {
    local threads=$1 allowed=$2 want=$3; shift 3
    local got pinned= l; got=$(allowed_lists "$threads" "$@")
    local n=0 stray=
    for l in $got; do
        n=$((n + 1))
        if [ "$l" != "$allowed" ]; then
            case $l in *[,-]*) stray="$stray $l" ;; *) pinned="$pinned $l" ;; esac
        fi
    done
    [ $n -ge "$threads" ] && [ -z "$stray" ] && [ "${pinned# }" = "$want" ] && ok \
        || bad "$* -> thread CPU lists '$got' (want $threads+ threads on $allowed, pinned '$want')"
}

# expect_json "THREADS CPUS COUNT TOTAL" COMMAND...: the command (qcount
# --json ..., perhaps under taskset or env) reports those fields, alone
expect_json() {
    local want=$1; shift
    local got; got=$("$@" 2>"$tmp/err" | sed -E \
        's/.*"total": ([0-9]+),.*"threads": ([0-9]+),.*"cpus": "([^"]*)", "cpu_count": ([0-9]+)[,}].*/\2 \3 \4 \1/')
    [ "$got" = "$want" ] && [ ! -s "$tmp/err" ] && ok || bad "$* -> '$got' (want '$want') $(cat "$tmp/err")"
}

# expect_refused PATTERN COMMAND...: exit 2, one 'qcount:' line, no stdout
expect_refused() {
    local pattern=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
       && grep -q "^qcount: .*$pattern" "$tmp/err"; then ok
    else bad "$* -> rc=$rc err='$(cat "$tmp/err")' (want exit 2, one line /$pattern/)"; fi
}

long=(18 -e eightfold)   # seconds of counting: long enough to look at
q12=$(known_total 12) q14=$(known_total 14) q16=$(known_total 16)

# A cross build's qcount is a script that runs it under an emulator
# (tests/CMakeLists.txt), whose own threads would be in /proc too: there,
# only what qcount reports is checked.
emulated=; [ "$(head -c 2 "$qcount")" = "#!" ] && emulated=yes

# one allowed CPU: every thread on it, pinned or not, whatever -t says
if [ -z "$emulated" ]; then
    expect_lists 1 "$first" "" taskset -c "$first" "$qcount" "${long[@]}"
    expect_lists 2 "$first" "" taskset -c "$first" "$qcount" "${long[@]}" -t 2
    expect_lists 3 "$first" "" taskset -c "$first" "$qcount" "${long[@]}" -t 3 --no-bind
fi
expect_json "1 $first 1 $q12" taskset -c "$first" "$qcount" --json 12
expect_json "3 $first 1 $q12" taskset -c "$first" "$qcount" --json 12 -t 3
expect_json "1 $first 1 $q12" taskset -c "$first" "$qcount" --json 12 --smt

if [ ${#cpus[@]} -ge 2 ]; then
    a=${cpus[0]} b=${cpus[1]}
    ab="$a,$b"; [ "$b" -eq $((a + 1)) ] && ab="$a-$b"   # as Linux lists them
    # two CPUs: two threads, each pinned to its own; three float over both
    if [ -z "$emulated" ]; then
        expect_lists 2 "$ab" "$a $b" taskset -c "$a,$b" "$qcount" "${long[@]}" -t 2
        expect_lists 3 "$ab" "" taskset -c "$a,$b" "$qcount" "${long[@]}" -t 3
    fi
    expect_json "3 $ab 2 $q16" taskset -c "$a,$b" "$qcount" --json 16 -t 3
    for e in halving eightfold; do
        expect_json "3 $ab 2 $q14" taskset -c "$a,$b" "$qcount" --json 14 -t 3 -e $e
    done
else
    echo "mask: one CPU only, the two-CPU cases are skipped"
fi
expect_json "1 ${cpus[0]} 1 $q12" "$qcount" --json 12 -t 1

# OMP_NUM_THREADS: the thread count unless --threads gives one
expect_json "1 $first 1 $q12" env OMP_NUM_THREADS=1 "$qcount" --json 12
expect_json "1 $first 1 $q12" env OMP_NUM_THREADS=1 taskset -c "$first" "$qcount" --json 12
expect_json "3 $first 1 $q12" env OMP_NUM_THREADS=3 taskset -c "$first" "$qcount" --json 12
expect_json "1 $first 1 $q12" env OMP_NUM_THREADS=3 "$qcount" --json 12 -t 1
expect_json "1 $first 1 $q12" env OMP_NUM_THREADS= taskset -c "$first" "$qcount" --json 12
for v in abc 0 -1 4,2 " 3" 4097 99999999999999999999; do
    expect_refused "invalid OMP_NUM_THREADS '$v'" env OMP_NUM_THREADS="$v" "$qcount" 8
done
# ... ignored where no count runs, or when --threads overrides it, and
# libgomp is never heard
env OMP_NUM_THREADS=abc "$qcount" 8 -t 2 >"$tmp/out" 2>"$tmp/err"
[ "$(cat "$tmp/out")" = 92 ] && [ ! -s "$tmp/err" ] && ok || bad "OMP_NUM_THREADS=abc -t 2: $(cat "$tmp/out" "$tmp/err")"
env OMP_NUM_THREADS=abc "$qcount" --help >/dev/null 2>"$tmp/err" && [ ! -s "$tmp/err" ] && ok \
    || bad "OMP_NUM_THREADS=abc --help: $(cat "$tmp/err")"
env OMP_NUM_THREADS=0 "$qcount" 6 --list --limit 1 >"$tmp/out" 2>"$tmp/err"
[ "$(cat "$tmp/out")" = "2 4 6 1 3 5" ] && [ ! -s "$tmp/err" ] && ok || bad "OMP_NUM_THREADS=0 --list: $(cat "$tmp/err")"

# a machine with 2 cores of 2 hardware threads, as hwloc is told to see it
# (HWLOC_SYNTHETIC: nothing can be bound there, but --json says which CPUs
# the threads would be on): SMT siblings only with --smt, and then only
# after one hardware thread of every core
smt=(env HWLOC_SYNTHETIC="core:2 pu:2" "$qcount" --json 12)
expect_json "2 0,2 2 $q12" "${smt[@]}"
expect_json "3 0,2 2 $q12" "${smt[@]}" -t 3
expect_json "4 0-3 4 $q12" "${smt[@]}" --smt
expect_json "2 0,2 2 $q12" "${smt[@]}" --smt -t 2
expect_json "3 0-2 3 $q12" "${smt[@]}" --smt -t 3
expect_json "5 0-3 4 $q12" "${smt[@]}" --smt -t 5
expect_json "2 0-3 4 $q12" "${smt[@]}" --smt -t 2 --no-bind

# --smt applies to counting alone
expect_refused "--smt" "$qcount" 6 --list --smt

report mask
