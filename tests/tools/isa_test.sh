#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# isa_test.sh — QCOUNT_ISA as a user meets it: every level this CPU runs,
# forced, gives the published totals N=1..16 with each engine that has
# kernels (--check) and says so in --version and --json; a level the CPU
# lacks and an unknown name are one `qcount:` line and exit status 2; an
# empty QCOUNT_ISA is the automatic choice.  Usage: isa_test.sh QCOUNT TSV
set -u
qcount=$1
known=$2
. "$(dirname "$0")/test_lib.sh"

ran=0
for level in portable avx2 avx512 avx512vbmi neon; do
    QCOUNT_ISA=$level "$qcount" --version >"$tmp/v" 2>"$tmp/e"; rc=$?
    if [ $rc -ne 0 ]; then
        # a level this CPU lacks: one line naming it, status 2
        [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] \
            && grep -q "^qcount: QCOUNT_ISA=$level: this CPU lacks it" "$tmp/e" \
            && ok || bad "$level refused: rc=$rc $(cat "$tmp/e")"
        [ "$level" != portable ] || bad "portable refused"
        continue
    fi
    ran=$((ran + 1))
    grep -qE "^  ISA +$level \(forced by QCOUNT_ISA\)" "$tmp/v" && ok || bad "$level: --version: $(grep ISA "$tmp/v")"
    QCOUNT_ISA=$level "$qcount" 12 --json >"$tmp/j" && grep -q "\"isa\": \"$level\"" "$tmp/j" \
        && ok || bad "$level: --json: $(cat "$tmp/j")"
    for engine in join eightfold halving; do
        QCOUNT_ISA=$level "$qcount" 1-16 -e "$engine" --check >"$tmp/out" 2>"$tmp/err" \
            && [ "$(wc -l <"$tmp/out")" -eq 16 ] && [ "$(awk '$1 == 16 { print $2 }' "$tmp/out")" = "$(known_total 16)" ] \
            && ok || bad "$level $engine 1-16: $(tail -n 2 "$tmp/out" "$tmp/err")"
    done
done
[ $ran -ge 1 ] && ok || bad "no level ran"

QCOUNT_ISA=bogus "$qcount" 8 >"$tmp/out" 2>"$tmp/e"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] \
    && grep -q '^qcount: QCOUNT_ISA=bogus: unknown level' "$tmp/e" && ok || bad "bogus: rc=$rc $(cat "$tmp/e")"
best=$(env -u QCOUNT_ISA "$qcount" 8 --json | sed -n 's/.*"isa": "\([a-z0-9]*\)".*/\1/p')
[ -n "$best" ] && ok || bad "no isa in --json"
[ "$(QCOUNT_ISA= "$qcount" 8 --json | sed -n 's/.*"isa": "\([a-z0-9]*\)".*/\1/p')" = "$best" ] \
    && ok || bad "an empty QCOUNT_ISA is not the automatic $best"
grep -qE "^  ISA +$best \(the best level this CPU has" <(env -u QCOUNT_ISA "$qcount" --version) \
    && ok || bad "--version without QCOUNT_ISA"
report isa_cli
