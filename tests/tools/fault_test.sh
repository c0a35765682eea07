#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fault_test.sh — a work unit that runs out of memory, as a user meets it:
# qcount prints one line on stderr, nothing on stdout (never a total short
# of that unit), and exits 2; with --checkpoint the line says how many
# units the ledger holds, and the same command without the fault resumes
# to the exact total.  QCOUNT_FAULT is the qcount_fault test build, in
# which QCOUNT_TEST_FAIL_UNIT=K makes the K-th unit fail (core/test_hooks/fault_hook.h).
#   Usage: fault_test.sh QCOUNT_FAULT KNOWN_TSV
set -u
qcount=$1 known=$2
. "$(dirname "$0")/test_lib.sh"

# expect_enomem K PATTERN ARGS...: with the K-th unit failing, status 2,
# stdout empty, one stderr line matching PATTERN
expect_enomem() {
    local k=$1 pattern=$2; shift 2
    QCOUNT_TEST_FAIL_UNIT=$k timeout 60 "$qcount" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
       && grep -qE "^qcount: out of memory counting a work unit$pattern" "$tmp/err"; then ok
    else bad "K=$k qcount $* -> rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
}

# every engine, the first unit and a later one, on one and two threads
for engine in halving eightfold dlx brute; do
    for k in 1 5; do
        expect_enomem $k ' \(' --engine $engine --threads 2 --no-bind 9
    done
done
expect_enomem 1 ' \(0 of ' --engine halving --threads 1 --no-bind 12
expect_enomem 4 ' \(3 of ' --engine halving --threads 1 --no-bind 12
expect_enomem 3 ' \(' --engine join --threads 2 --no-bind 14
expect_enomem 3 ' \(' --json --unique --stats --threads 2 --no-bind --engine eightfold 12

# with a ledger: the line says what is saved; the plain rerun finishes it
ledger=$tmp/ledger
expect_enomem 200 ": [0-9]+ of 2040 work units are saved in ledger '$ledger'" \
    --engine halving --threads 2 --no-bind --checkpoint "$ledger" 12
want=$(known_total 12)
timeout 60 "$qcount" --engine halving --threads 2 --no-bind --checkpoint "$ledger" 12 \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ]; then ok
else bad "resume after a failed unit: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi

# disarmed (K=0), the test build counts as qcount does
QCOUNT_TEST_FAIL_UNIT=0 timeout 60 "$qcount" --threads 2 --no-bind 12 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && ok || bad "K=0: '$(cat "$tmp/out")'"

report "fault_test"
