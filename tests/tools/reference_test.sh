#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/scripts/against-reference.py against stand-in references: a table
# row per level when the totals agree, status 1 when a reference's total
# differs, status 2 (and no run) when a size has no reference.  Its
# timings are not checked: only what it reads and refuses.
set -u
qcount=$1
script=$(dirname "$0")/../../tools/scripts/against-reference.py
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
mkdir -p "$dir/native" "$dir/x86-64-v3"
printf '#!/bin/sh\necho "Result: 2680"\n' > "$dir/native/kluev-11"
printf '#!/bin/sh\necho "Result: 2680"\n' > "$dir/x86-64-v3/kluev-11"
chmod +x "$dir"/*/kluev-11

out=$("$script" --reference "$dir" --sizes 11 --rounds 2 --levels portable "$qcount" 2>&1)
rc=$?
if [ $rc -ne 0 ] || ! grep -q '^| 11 | portable | x86-64-v3 |' <<<"$out"; then
  echo "FAIL: agreeing totals: status $rc, output:"; echo "$out"; fail=1
fi

printf '#!/bin/sh\necho "Result: 2681"\n' > "$dir/x86-64-v3/kluev-11"
out=$("$script" --reference "$dir" --sizes 11 --rounds 2 --levels portable "$qcount" 2>&1)
rc=$?
if [ $rc -ne 1 ] || ! grep -q 'qcount counted 2680' <<<"$out"; then
  echo "FAIL: a differing total: status $rc (want 1), output:"; echo "$out"; fail=1
fi

out=$("$script" --reference "$dir" --sizes 12 --rounds 2 --levels portable "$qcount" 2>&1)
rc=$?
if [ $rc -ne 2 ] || grep -q '^| 12' <<<"$out"; then
  echo "FAIL: no reference for N=12: status $rc (want 2), output:"; echo "$out"; fail=1
fi

out=$("$script" --reference "$dir" --sizes 11 --levels bogus "$qcount" 2>&1)
rc=$?
if [ $rc -ne 2 ]; then
  echo "FAIL: an unknown level: status $rc (want 2), output:"; echo "$out"; fail=1
fi
[ $fail -eq 0 ] && echo "reference_test: ok"
exit $fail
