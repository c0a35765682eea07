#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# audit_test.sh — qcount audit and qcount show on real ledgers: a join
# ledger counted again by the AND loop, an eightfold one at another ISA
# level, both with no mismatch; one tally edited (its checksum written
# again, so only a recount can tell) is found and named; the sample is the
# same for the same seed; bad options and corrupt ledgers are refused; the
# ledgers are never changed.  --by=backtrack recounts a join ledger from
# its units' cases alone (core/oracle), finds the edited tally too, and
# refuses another engine's ledger; --by=levels is the default's report.
# show prints the fingerprint, the coverage
# and every record's log, as text and as JSON.
# usage: audit_test.sh QCOUNT KNOWN LEDGER_EDIT
qcount=$1 known=$2 edit=$3
. "$(dirname "$0")/test_lib.sh"

"$qcount" 14 --checkpoint "$tmp/join" --quiet >/dev/null        # join from N=14
QCOUNT_ISA=portable "$qcount" 12 --checkpoint "$tmp/eight" --quiet >/dev/null   # eightfold
"$qcount" 11 --part 2/3 --checkpoint "$tmp/part" --quiet >/dev/null 2>&1
sums() { md5sum "$tmp/join" "$tmp/eight" "$tmp/part"; }
before=$(sums)

audit() { "$qcount" audit "$@" >"$tmp/out" 2>"$tmp/err"; }
audit --sample 100 --seed 5 "$tmp/join"; rc=$?
[ $rc -eq 0 ] && grep -q "^seed 5$" "$tmp/out" && grep -q "^path join AND loop, portable level: [0-9]* units$" "$tmp/out" \
    && grep -Eq "^path join at the (portable|avx2|avx512|avx512vbmi|neon) level" "$tmp/out" \
    && grep -q " 0 mismatched" "$tmp/out" && ok || bad "join audit: rc=$rc $(cat "$tmp/out" "$tmp/err")"
units=$(awk '/^sample/ { print $NF == "units" ? $(NF-1) : "" }' "$tmp/out")
[ "$units" = "$("$qcount" show "$tmp/join" | awk '/^coverage/ { print $2 }')" ] && ok \
    || bad "100% sample: $units units"
# eightfold has no second path: another ISA level than its records name
audit --sample 100 --seed 5 "$tmp/eight"; rc=$?
if QCOUNT_ISA=avx2 "$qcount" 4 >/dev/null 2>&1 || QCOUNT_ISA=neon "$qcount" 4 >/dev/null 2>&1; then
    grep -Eq "^path eightfold at the (avx512vbmi|avx512|avx2|neon) level: " "$tmp/out" && ok \
        || bad "eightfold audit path: $(cat "$tmp/out")"
else
    grep -q "no other level" "$tmp/out" && ok || bad "eightfold audit on a portable-only CPU: $(cat "$tmp/out")"
fi
[ $rc -eq 0 ] && grep -q " 0 mismatched" "$tmp/out" && ok || bad "eightfold audit: rc=$rc $(cat "$tmp/out" "$tmp/err")"
# the same seed, the same sample; the part's ledger audits its own units
audit --sample 30 --seed 42 "$tmp/part" && cp "$tmp/out" "$tmp/first" && audit --sample 30 --seed 42 "$tmp/part" \
    && cmp -s "$tmp/out" "$tmp/first" && grep -q "part 2/3" "$tmp/out" && ok || bad "seeded sample: $(cat "$tmp/out" "$tmp/err")"
# over 1 thread or 4: the same report
audit --sample 50 --seed 9 --threads 1 "$tmp/join" && cp "$tmp/out" "$tmp/first" \
    && audit --sample 50 --seed 9 --threads 4 "$tmp/join" && cmp -s "$tmp/out" "$tmp/first" && ok \
    || bad "audit on 1 and 4 threads: $(diff "$tmp/first" "$tmp/out" | head -5)"
# no seed: one is drawn, and printed
audit --sample 10 "$tmp/join" && grep -Eq "^seed [0-9]+$" "$tmp/out" && ok || bad "drawn seed: $(cat "$tmp/out")"
# --by=levels: the default, the same report; --by=backtrack: one path, the oracle's
audit --sample 40 --seed 7 "$tmp/join" && cp "$tmp/out" "$tmp/first" && audit --sample 40 --seed 7 --by=levels "$tmp/join" \
    && cmp -s "$tmp/out" "$tmp/first" && ok || bad "--by=levels is not the default: $(diff "$tmp/first" "$tmp/out" | head -5)"
audit --sample 100 --seed 5 --by backtrack "$tmp/join"; rc=$?
[ $rc -eq 0 ] && grep -q "^path backtracking from the unit's cases (core/oracle): $units units$" "$tmp/out" \
    && [ "$(grep -c "^path " "$tmp/out")" -eq 1 ] && grep -q "^$units units checked, 0 mismatched$" "$tmp/out" && ok \
    || bad "join audit by backtracking: rc=$rc $(cat "$tmp/out" "$tmp/err")"
[ "$before" = "$(sums)" ] && ok || bad "audit changed a ledger"

# one tally edited, checksum recomputed: the audit finds that unit
for l in join eight; do
    cp "$tmp/$l" "$tmp/$l-forged"
    unit=$("$qcount" show "$tmp/$l" | awk '/^unit/ { getline; getline; getline; print $1; exit }')
    "$edit" "$tmp/$l-forged" "$unit" 1 || bad "ledger_edit $l"
    [ "$("$qcount" show "$tmp/$l-forged" | grep -c .)" -gt 0 ] && ok || bad "forged $l ledger no longer reads"
    audit --sample 100 --seed 1 "$tmp/$l-forged"; rc=$?
    [ $rc -eq 1 ] && grep -q "^mismatch unit $unit: the ledger says [0-9]* solutions, counted again [0-9]*" "$tmp/out" \
        && grep -q " 1 mismatched" "$tmp/out" && ok || bad "forged $l (unit $unit): rc=$rc $(cat "$tmp/out" "$tmp/err")"
    # join: both paths (tables at another level, the AND loop) find it
    [ $l = eight ] || [ "$(grep -c "^mismatch unit $unit: " "$tmp/out")" -eq 2 ] && ok \
        || bad "forged join unit $unit: not found by both paths: $(cat "$tmp/out")"
done
unit=$("$qcount" show "$tmp/join" | awk '/^unit/ { getline; getline; getline; print $1; exit }')
audit --sample 100 --seed 1 --by=backtrack "$tmp/join-forged"; rc=$?
[ $rc -eq 1 ] && grep -q "^mismatch unit $unit: the ledger says [0-9]* solutions, counted again [0-9]* (backtracking from the unit's cases (core/oracle))$" "$tmp/out" \
    && grep -q " 1 mismatched" "$tmp/out" && ok || bad "forged join unit $unit by backtracking: rc=$rc $(cat "$tmp/out" "$tmp/err")"

# refusals: exit 2, one line
refused() {
    local pattern=$1; shift
    audit "$@"; rc=$?
    [ $rc -eq 2 ] && grep -q -- "$pattern" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok \
        || bad "audit $*: rc=$rc $(cat "$tmp/err") (want /$pattern/)"
}
refused "invalid sample '0'" --sample 0 "$tmp/join"
refused "invalid sample '101'" --sample 101 "$tmp/join"
refused "invalid sample 'x'" --sample x "$tmp/join"
refused "invalid seed '-1'" --seed -1 "$tmp/join"
refused "no ledger given" --sample 5
refused "invalid thread count '0'" --threads 0 "$tmp/join"
refused "invalid path 'oracle'" --by=oracle "$tmp/join"
refused "option '--by' needs an argument" "$tmp/join" --by
refused "engine eightfold, whose units are not described" --by=backtrack "$tmp/eight"
head -c 100 "$tmp/join" >"$tmp/cut"
refused "truncated header" "$tmp/cut"

# show: the plan's fingerprint, the coverage, each record's log
"$qcount" show "$tmp/part" >"$tmp/show" 2>"$tmp/err"; rc=$?
fp=$("$qcount" merge --json "$tmp/join" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["fingerprint"])')
[ $rc -eq 0 ] && grep -q "^part         2/3 (" "$tmp/show" && grep -q "^coverage     [0-9]* of [0-9]* units, complete" "$tmp/show" \
    && grep -Eq "^fingerprint  [0-9a-f]{16}$" "$tmp/show" && ok || bad "show: rc=$rc $(cat "$tmp/show" "$tmp/err")"
"$qcount" show "$tmp/join" | grep -q "^fingerprint  $fp$" && ok || bad "show's fingerprint is not merge's"
"$qcount" show --json "$tmp/eight" >"$tmp/json" && python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['format'] == 2 and d['n'] == 12 and d['engine'] == 'eightfold' and d['complete'], d
assert d['records'] == len(d['units']) == d['part_units'] == d['plan_units'] > 0
assert sum(u['solutions'] for u in d['units']) == d['solutions'] == int(sys.argv[2])
for u in d['units']:
    assert u['engine'] == 'eightfold' and u['isa'] == 'portable' and u['host'], u
    assert u['cpu_seconds'] is not None and u['cpu_seconds'] >= 0 and u['finished'].endswith('Z'), u
assert [u['unit'] for u in d['units']] == sorted(u['unit'] for u in d['units'])
" "$tmp/json" "$(known_total 12)" && ok || bad "show --json: $(head -c 600 "$tmp/json")"
"$qcount" show "$tmp/join" "$tmp/eight" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "more than one ledger given" "$tmp/err" && ok || bad "show of two: $(cat "$tmp/err")"
report audit
