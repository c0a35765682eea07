#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_test.sh — the qcount program as a user meets it: good input prints the
# count alone on stdout; every bad input prints one line on stderr naming the
# problem, nothing on stdout, and exits 2.   Usage: cli_test.sh QCOUNT
set -u
qcount=$1
. "$(dirname "$0")/test_lib.sh"

# expect_count "ARGS" WANT: stdout is exactly WANT, stderr empty, status 0
expect_count() {
    local want=$1; shift
    "$qcount" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ] \
       && [ "$(wc -l <"$tmp/out")" -eq 1 ]; then ok
    else bad "qcount $* -> rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want $want)"; fi
}

# expect_lines "LINE1 LINE2" ARGS...: stdout is exactly those lines, stderr empty, status 0
expect_lines() {
    local want; want=$(printf '%s\n' $1); shift
    "$qcount" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ]; then ok
    else bad "qcount $* -> rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want $1)"; fi
}

# expect_error PATTERN ARGS...: status 2, stdout empty, one stderr line matching PATTERN
expect_error() {
    local pattern=$1; shift
    "$qcount" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; local rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
       && grep -qiE "$pattern" "$tmp/err" && grep -q '^qcount: ' "$tmp/err"; then ok
    else bad "qcount $* -> rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want exit 2, /$pattern/)"; fi
}

expect_count 1 1
expect_count 0 2
expect_count 0 3
expect_count 2 4
expect_count 92 8
expect_count 92 --threads 3 8
expect_count 92 8 -t 1
expect_count 92 -t1 8
expect_count 724 --threads=2 --no-bind 10
expect_count 724 --engine halving 10
expect_count 14772512 16
expect_count 95815104 17 --threads 2
expect_count 724 --engine eightfold 10
expect_count 14200 -e eightfold -t 2 12

# --unique: the total, then the fundamental count (A002562), any engine
expect_lines "1 1" 1 --unique
expect_lines "0 0" 3 -u
expect_lines "2 1" 4 --unique
expect_lines "92 12" 8 --unique
expect_lines "92 12" --engine halving 8 --unique
expect_lines "724 92" -u 10 -t 3
expect_lines "14200 1787" --engine halving --unique 12
expect_lines "73712 9233" --unique 13
expect_lines "365596 45752" --unique 14

expect_error 'missing board size'
expect_error "invalid board size 'abc'" abc
expect_error "invalid board size '16x'" 16x
expect_error "invalid board size '-3'|unknown option '-3'" -3
expect_error "invalid board size '-3'" -- -3
expect_error "out of range" 0
expect_error "out of range" 33
expect_error "out of range" 99999999999999999999999999
expect_error "invalid board size ''" ""
expect_error "invalid board size ' 8'" " 8"
expect_error "invalid board size '8 '" "8 "
expect_error "invalid board size '1e3'" 1e3
expect_error "invalid board size '0x10'" 0x10
expect_error "unknown option '--frobnicate'" --frobnicate 8
expect_error "unknown option '-z'" -z 8
expect_error "invalid thread count '0'" --threads 0 8
expect_error "invalid thread count '-2'" --threads -2 8
expect_error "invalid thread count 'many'" --threads many 8
expect_error "invalid thread count '99999999999999999999'" --threads 99999999999999999999 8
expect_error "invalid thread count ''" --threads= 8
expect_error "needs an argument" 8 --threads
expect_error "unknown engine 'warp'" --engine warp 8
expect_error "unexpected argument '9'" 8 9
# a word with a newline in it is quoted on one line, the newline shown as \n
expect_error "invalid board size '1\\\\n2'" "$(printf '1\n2')"
expect_error "invalid board size '1\\\\n0'" --solve "$(printf '1\n0')"

# --help and --version: stdout, status 0
"$qcount" --help >"$tmp/out" 2>"$tmp/err" && grep -q '^Usage: qcount' "$tmp/out" && [ ! -s "$tmp/err" ] && ok || bad "--help"
tail -n 1 "$tmp/out" | grep -Eq '^Report bugs to: [^ @]+@[^ @]+$' && ok || bad "--help's last line: $(tail -n 1 "$tmp/out")"
"$qcount" -h 5 >"$tmp/out" 2>&1 && grep -q -- '--threads' "$tmp/out" && ok || bad "-h"
"$qcount" --version >"$tmp/out" 2>&1 && grep -qE '^qcount [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out" && ok || bad "--version"

# --json: one object with n, total, threads, seconds
"$qcount" 10 --json --threads 2 >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] \
   && grep -qE '^\{"n": 10, "total": 724, .*"threads": 2, "seconds": [0-9.]+,.*\}$' "$tmp/out"; then ok
else bad "--json: $(cat "$tmp/out")"; fi

# --json --unique: a unique field next to the total
"$qcount" 8 --json --unique >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && [ ! -s "$tmp/err" ] \
   && grep -qE '^\{"n": 8, "total": 92, "unique": 12, .*"steps": ([0-9]+), "steps_per_second": ([0-9]+), "placements": \1, "placements_per_second": \2, "peak_rss_kib": [0-9]+, "cpus": "[0-9,-]+", "cpu_count": [0-9]+, "context": \{.*\}\}$' "$tmp/out"; then ok
else bad "--json --unique: $(cat "$tmp/out")"; fi
"$qcount" 8 --json >"$tmp/out" 2>&1
if grep -q '"unique"' "$tmp/out"; then bad "--json without --unique has a unique field"; else ok; fi

# --stats: the total alone on stdout, one line on stderr with the work done
for engine in join eightfold halving; do
    "$qcount" 11 --stats --engine $engine >"$tmp/out" 2>"$tmp/err"
    if [ $? -eq 0 ] && [ "$(cat "$tmp/out")" = 2680 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
       && grep -qE "^qcount: stats: steps [1-9][0-9]*, steps/s [0-9]+, seconds [0-9.]+, units [1-9][0-9]*, engine $engine" "$tmp/err"; then ok
    else bad "--stats --engine $engine: out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"; fi
done
"$qcount" --help >"$tmp/out" 2>&1 && grep -q -- '--unique' "$tmp/out" && grep -q -- '--stats' "$tmp/out" \
    && grep -q 'eightfold' "$tmp/out" && ok || bad "--help lacks --unique/--stats/eightfold"

# a closed stdout is an error, not a silent success
if "$qcount" 8 >/dev/full 2>"$tmp/err"; then bad "writing to /dev/full succeeded"; else ok; fi

report
