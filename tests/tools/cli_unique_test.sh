#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_unique_test.sh — the acceptance check as a user types it:
# `qcount 17 --unique` prints the total and the fundamental count (OEIS
# A000170 / A002562), each alone on its line, with the default engine.
# Not in the sanitizer runs (label `small`): a few seconds in Release.
# (N=18, the other acceptance check, takes ~20 s on 2 cores.)
# Usage: cli_unique_test.sh QCOUNT
set -u
qcount=$1
out=$("$qcount" 17 --unique 2>&1); rc=$?
want=$'95815104\n11977939'
if [ $rc -eq 0 ] && [ "$out" = "$want" ]; then
    echo "ok: qcount 17 --unique"
else
    echo "FAIL: qcount 17 --unique -> rc=$rc out='$out' (want $want)"
    exit 1
fi
