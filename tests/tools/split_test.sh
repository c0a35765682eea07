#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# split_test.sh — a ledger written under an older work split (join N=14
# when each unit was a whole pattern: 6 units) is refused with one line
# naming the split, and left byte for byte as it was.
# usage: split_test.sh QCOUNT
qcount=$1
. "$(dirname "$0")/test_lib.sh"
fixture="$(dirname "$0")/data/join-14-whole-patterns.ledger"

cp "$fixture" "$tmp/old.ledger"
"$qcount" 14 --checkpoint "$tmp/old.ledger" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && ok || bad "old split: exit $rc, want 2"
[ ! -s "$tmp/out" ] && ok || bad "old split: printed a total"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'another work split (6 units' "$tmp/err" && ok \
    || bad "old split: message $(cat "$tmp/err")"
cmp -s "$fixture" "$tmp/old.ledger" && ok || bad "old split: ledger changed"
# the same command on a fresh ledger counts, and a rerun resumes from it
rm -f "$tmp/new.ledger"
[ "$("$qcount" 14 --checkpoint "$tmp/new.ledger")" = 365596 ] && ok || bad "fresh ledger"
[ "$("$qcount" 14 --checkpoint "$tmp/new.ledger")" = 365596 ] && ok || bad "resumed ledger"
report split
