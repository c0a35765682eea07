# SPDX-License-Identifier: MIT
# test_lib.sh — what the shell tests share (sourced, not run): a scratch
# directory removed on exit, pass/fail counters, and the known totals.
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# known_total N: Q(N) from the TSV named by $known
known_total() { awk -v n="$1" '$1 == n { print $2 }' "$known"; }
# report [NAME]: the tally line; its status is the script's
report() { echo "${1:+$1: }$pass passed, $fail failed"; [ $fail -eq 0 ]; }
