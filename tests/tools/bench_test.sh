#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench_test.sh — the benchmark tools from a user's side: the balance report
# (totals against OEIS, a sane table, bad input) and, when the benchmark is
# built, a small thread-scaling run turned into a table and a plot.
# usage: bench_test.sh QCOUNT_BALANCE KNOWN_TSV [QCOUNT_BENCH]
balance=$1 known=$2 bench=${3:-}
. "$(dirname "$0")/test_lib.sh"
speedup="$(dirname "$0")/../../tools/scripts/speedup.py"

for engine in join eightfold halving; do
    "$balance" 12 $engine --max-threads 8 --units >"$tmp/b.txt" || { bad "balance 12 $engine exit"; continue; }
    want=$(known_total 12)
    grep -q "^# N=12 engine=$engine units=[0-9]* total=$want " "$tmp/b.txt" && ok || bad "balance 12 $engine total"
    # one row per thread count 1..8; one worker is the whole work, by definition
    [ "$(grep -c '^[0-9]' "$tmp/b.txt")" -eq 8 ] && ok || bad "balance 12 $engine rows"
    grep -q '^1 *1.00 *1.000' "$tmp/b.txt" && ok || bad "balance 12 $engine one worker"
    # a unit's share of the work: the shares add up to 100%
    awk '/^unit / { s += $4 } END { exit !(s > 99.9 && s < 100.1) }' "$tmp/b.txt" && ok || bad "balance shares"
done
# the bound never falls as workers are added, and never passes the workers
"$balance" 14 --max-threads 64 | awk '/^[0-9]/ { if ($2 + 1e-9 < prev || $2 > $1 + 1e-9) bad = 1; prev = $2 } END { exit bad }' \
    && ok || bad "balance bound monotone and at most T"
for args in "" "0" "33" "12 nosuch" "12 join extra" "12 --max-threads 0"; do
    "$balance" $args >/dev/null 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -ge 1 ] && ok || bad "balance '$args' rc=$rc"
done

if [ -n "$bench" ]; then
    QCOUNT_BENCH_THREADS=1-2 "$bench" --benchmark_filter='count/(join|halving)/n:12/' --benchmark_min_time=0.01 \
        --benchmark_out="$tmp/bench.json" --benchmark_out_format=json >/dev/null 2>&1 || bad "qcount_bench run"
    grep -q '"name": "count/join/n:12/threads:2' "$tmp/bench.json" && ok || bad "engine names and thread counts in benchmark names"
    python3 "$speedup" "$tmp/bench.json" --plot "$tmp/scaling" >"$tmp/table.md" || bad "speedup.py"
    [ "$(grep -c '^| 12 | ' "$tmp/table.md")" -eq 4 ] && ok || bad "speed-up table rows"
    grep -q '^| 12 | join | 1 | .* | 1.00 | 1.00 |$' "$tmp/table.md" && ok || bad "speed-up table base row"
    head -c 8 "$tmp/scaling.png" | od -An -c | grep -q 'P   N   G' && ok || bad "plot png"
    grep -q '<svg' "$tmp/scaling.svg" && ok || bad "plot svg"
    QCOUNT_BENCH_THREADS=2-1 "$bench" --benchmark_filter=none >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "bad thread list refused"
fi
report bench
