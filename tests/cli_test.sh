#!/usr/bin/env bash
# cli_test.sh — the qcount program as a user meets it: good input prints the
# count alone on stdout; every bad input prints one line on stderr naming the
# problem, nothing on stdout, and exits 2.   Usage: cli_test.sh QCOUNT
set -u
qcount=$1
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_count "ARGS" WANT: stdout is exactly WANT, stderr empty, status 0
expect_count() {
    local want=$1; shift
    "$qcount" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] && [ ! -s "$tmp/err" ] \
       && [ "$(wc -l <"$tmp/out")" -eq 1 ]; then ok
    else bad "qcount $* -> rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want $want)"; fi
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

# --help and --version: stdout, status 0
"$qcount" --help >"$tmp/out" 2>"$tmp/err" && grep -q '^Usage: qcount' "$tmp/out" && [ ! -s "$tmp/err" ] && ok || bad "--help"
"$qcount" -h 5 >"$tmp/out" 2>&1 && grep -q -- '--threads' "$tmp/out" && ok || bad "-h"
"$qcount" --version >"$tmp/out" 2>&1 && grep -qE '^qcount [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out" && ok || bad "--version"

# --json: one object with n, total, threads, seconds
"$qcount" 10 --json --threads 2 >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] \
   && grep -qE '^\{"n": 10, "total": 724, .*"threads": 2, "seconds": [0-9.]+,.*\}$' "$tmp/out"; then ok
else bad "--json: $(cat "$tmp/out")"; fi

# a closed stdout is an error, not a silent success
if "$qcount" 8 >/dev/full 2>"$tmp/err"; then bad "writing to /dev/full succeeded"; else ok; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
