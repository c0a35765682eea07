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
    # the user's N and worker counts, two repetitions each
    QCOUNT_BENCH_N=11 QCOUNT_BENCH_THREADS=1-2 "$bench" --benchmark_filter='BM_count/(join|halving)/' \
        --benchmark_min_time=0.01 --benchmark_repetitions=2 \
        --benchmark_out="$tmp/bench.json" --benchmark_out_format=json >/dev/null 2>&1 || bad "qcount_bench run"
    python3 - "$tmp/bench.json" "$(known_total 11)" >"$tmp/check.txt" <<'PY' && ok || { bad "benchmark JSON"; cat "$tmp/check.txt"; }
import json, re, sys
from collections import Counter
text = open(sys.argv[1]).read()
data = json.loads(text)
runs = [b for b in data["benchmarks"] if b.get("run_type") == "iteration"]
# Google Benchmark appends its own fields (process_time, real_time)
def base(b):
    return b["run_name"].split("/process_time")[0]
names = sorted({base(b) for b in runs})
want = [f"BM_count/{e}/11/workers:{t}" for e in ("halving", "join") for t in (1, 2)]
assert names == want, names
for b in runs:
    assert b["total"] == int(sys.argv[2]), b
    assert b["n"] == 11 and b["workers"] == int(base(b).split(":")[-1]), b
    # one work counter, the same for every engine
    assert "steps/s" in b and "joins/s" not in b and "placements/s" not in b, b
# one "threads" key per record, Google Benchmark's own
for record in re.findall(r"\{[^{}]*\}", text):
    assert record.count('"threads"') <= 1, record
assert all(b["threads"] == 1 for b in runs)
assert Counter(base(b) for b in runs) == {n: 2 for n in want}
PY
    python3 "$speedup" "$tmp/bench.json" --plot "$tmp/scaling" >"$tmp/table.md" || bad "speedup.py"
    [ "$(grep -c '^| 11 | ' "$tmp/table.md")" -eq 4 ] && ok || bad "speed-up table rows"
    grep -q '^| 11 | join | 1 | 2 | .* | 1.00 | 1.00 |$' "$tmp/table.md" && ok || bad "speed-up table base row"
    head -c 8 "$tmp/scaling.png" | od -An -c | grep -q 'P   N   G' && ok || bad "plot png"
    grep -q '<svg' "$tmp/scaling.svg" && ok || bad "plot svg"
    for var in QCOUNT_BENCH_THREADS=2-1 QCOUNT_BENCH_N=33 QCOUNT_BENCH_N=x; do
        env "$var" "$bench" --benchmark_filter=none >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "$var accepted"
    done
fi
report bench
