#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# valgrind_test.sh — the default build under valgrind, whose CPU has no
# AVX-512: any instruction outside the kernels' dispatch that this CPU
# lacks ends the program with SIGILL.  --help, qcount 12 with each engine
# that has kernels, --version (a level valgrind's CPU has), a forced
# avx512 refused, and the levels' agreement test (test_isa) at small N.
# Usage: valgrind_test.sh VALGRIND QCOUNT TEST_ISA TSV
set -u
valgrind=$1
qcount=$2
test_isa=$3
known=$4
. "$(dirname "$0")/test_lib.sh"
vg() { "$valgrind" -q --error-exitcode=99 "$@" 2>"$tmp/err"; }

vg "$qcount" --help >"$tmp/out" && grep -q '^Usage: qcount' "$tmp/out" && ok || bad "--help: $(cat "$tmp/err")"
[ "$(vg "$qcount" 12)" = 14200 ] && ok || bad "qcount 12: $(cat "$tmp/err")"
for engine in join eightfold halving; do
    [ "$(vg "$qcount" 12 --engine "$engine")" = 14200 ] && ok || bad "qcount 12 --engine $engine: $(cat "$tmp/err")"
done
vg "$qcount" --version >"$tmp/out" && grep -qE '^  ISA +(portable|avx2) ' "$tmp/out" \
    && ok || bad "--version: $(cat "$tmp/out" "$tmp/err")"
QCOUNT_ISA=avx512 vg "$qcount" 8 >/dev/null; rc=$?
[ $rc -eq 2 ] && grep -q '^qcount: QCOUNT_ISA=avx512: this CPU lacks it' "$tmp/err" \
    && ok || bad "QCOUNT_ISA=avx512 under valgrind: rc=$rc $(cat "$tmp/err")"
vg "$test_isa" "$known" 13 >"$tmp/out" && grep -q '^isa: .* 0 failed' "$tmp/out" \
    && ok || bad "test_isa: $(tail -n 5 "$tmp/out" "$tmp/err")"
report valgrind
