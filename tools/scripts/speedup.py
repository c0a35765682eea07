#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""speedup.py — thread scaling from qcount_bench's JSON: a table and a plot.

    QCOUNT_BENCH_N=16 QCOUNT_BENCH_THREADS=1-16 build/qcount_bench \\
        --benchmark_filter='BM_count/join/' --benchmark_repetitions=5 \\
        --benchmark_out=bench.json --benchmark_out_format=json
    tools/scripts/speedup.py bench.json --plot scaling        # scaling.png, scaling.svg

Reads the BM_count/ENGINE/N/workers:T benchmarks (T: qc_run's threads),
each repetition of each; prints a Markdown table (the median wall and
process CPU seconds of the repetitions, the speed-up of the medians over
the same engine and N on one worker, the efficiency) and, with --plot,
draws speed-up against workers, one line per (N, engine) and the ideal
line, with error bars from the repetitions: from the slowest one-worker
run over the fastest T-worker run to the fastest over the slowest.  The
axes follow the data, the worker ticks are whole numbers.

The plot is gnuplot's (Debian's gnuplot-nox): one small package with no
Python libraries, driven by a script on its standard input.
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

NAME = re.compile(r"^BM_count/(?P<engine>[a-z]+)/(?P<n>\d+)/workers:(?P<workers>\d+)(/|$)")
SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load(path):
    """{(engine, n): {workers: [(wall s, cpu s), ...]}}: every repetition,
    aggregates (mean, median, ...) left out, as they are recomputed here."""
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data.get("benchmarks", []):
        m = NAME.match(b.get("run_name", b["name"]))
        if not m or b.get("error_occurred") or b.get("run_type") == "aggregate":
            continue
        scale = SECONDS[b.get("time_unit", "ns")]
        key = (m["engine"], int(m["n"]))
        runs.setdefault(key, {}).setdefault(int(m["workers"]), []).append(
            (b["real_time"] * scale, b["cpu_time"] * scale))
    return runs


def median_wall(reps):
    return statistics.median(w for w, _ in reps)


def table(runs):
    lines = ["| N | engine | workers | repetitions | wall s | CPU s | speed-up | efficiency |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for (engine, n) in sorted(runs, key=lambda k: (k[1], k[0])):
        by_workers = runs[(engine, n)]
        base = median_wall(by_workers[1]) if 1 in by_workers else None
        for t in sorted(by_workers):
            reps = by_workers[t]
            wall = median_wall(reps)
            cpu = statistics.median(c for _, c in reps)
            row = f"| {n} | {engine} | {t} | {len(reps)} | {wall:.4g} | {cpu:.4g} | "
            if base:
                speedup = base / wall
                row += f"{speedup:.2f} | {speedup / t:.2f} |"
            else:
                row += " | |"
            lines.append(row)
    return "\n".join(lines)


def plot(runs, stem):
    if not shutil.which("gnuplot"):
        sys.exit("speedup.py: gnuplot not found (apt-get install gnuplot-nox)")
    series = [(k, runs[k]) for k in sorted(runs, key=lambda k: (k[1], k[0])) if 1 in runs[k]]
    if not series:
        sys.exit("speedup.py: no one-worker runs to measure speed-up against")
    top_workers = max(t for _, r in series for t in r)
    top_speedup = 1.0
    with tempfile.TemporaryDirectory() as tmp:
        plots = []
        for i, ((engine, n), by_workers) in enumerate(series):
            base = [w for w, _ in by_workers[1]]
            data = os.path.join(tmp, f"s{i}.dat")
            with open(data, "w") as f:
                for t in sorted(by_workers):
                    walls = [w for w, _ in by_workers[t]]
                    speedup = statistics.median(base) / statistics.median(walls)
                    low, high = min(base) / max(walls), max(base) / min(walls)
                    top_speedup = max(top_speedup, high)
                    f.write(f"{t} {speedup} {low} {high}\n")
            plots.append(f"'{data}' using 1:2:3:4 with yerrorlines title 'N={n} {engine}'")
        plots.append(f"x with lines dashtype 2 lc rgb 'gray' title 'ideal'")
        step = max(1, math.ceil(top_workers / 16))
        body = (f"set xlabel 'workers (threads of each count)'\nset ylabel 'speed-up over one worker'\n"
                f"set xrange [0.5:{top_workers + 0.5}]\nset xtics {step}\nset format x '%.0f'\n"
                f"set yrange [0:{top_speedup * 1.05:.3f}]\nset key left top\nset grid\n"
                f"plot {', '.join(plots)}\n")
        for term, ext in (("pngcairo size 900,600", "png"), ("svg size 900,600", "svg")):
            script = f"set terminal {term}\nset output '{stem}.{ext}'\n" + body
            subprocess.run(["gnuplot"], input=script, text=True, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", help="qcount_bench --benchmark_out=FILE --benchmark_out_format=json")
    ap.add_argument("--plot", metavar="STEM", help="write STEM.png and STEM.svg")
    args = ap.parse_args()
    try:
        runs = load(args.json)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"speedup.py: {args.json}: {e}")
    if not runs:
        sys.exit(f"speedup.py: {args.json}: no BM_count/ENGINE/N/workers:T benchmarks")
    print(table(runs))
    if args.plot:
        plot(runs, args.plot)


if __name__ == "__main__":
    main()
