#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""speedup.py — thread scaling from qcount_bench's JSON: a table and a plot.

    QCOUNT_BENCH_THREADS=1-16 build/qcount_bench --benchmark_filter='count/join' \\
        --benchmark_out=bench.json --benchmark_out_format=json
    tools/scripts/speedup.py bench.json --plot scaling        # scaling.png, scaling.svg

Reads the count/ENGINE/n:N/threads:T benchmarks (the median when the run
has repetitions), prints a Markdown table (wall and process CPU seconds,
speed-up over the same engine and N on one thread, efficiency) and, with
--plot, draws speed-up against threads, one line per (N, engine) and the
ideal line, with gnuplot (Debian's gnuplot-nox), as PNG and SVG.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

NAME = re.compile(r"^count/(?P<engine>[a-z]+)/n:(?P<n>\d+)/threads:(?P<threads>\d+)(/|$)")
SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load(path):
    """{(engine, n): {threads: (wall s, cpu s)}} from a benchmark JSON file."""
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data.get("benchmarks", []):
        m = NAME.match(b.get("run_name", b["name"]))
        if not m or b.get("error_occurred"):
            continue
        aggregate = b.get("aggregate_name")
        if aggregate not in (None, "median"):
            continue
        key = (m["engine"], int(m["n"]))
        threads = int(m["threads"])
        scale = SECONDS[b.get("time_unit", "ns")]
        entry = (b["real_time"] * scale, b["cpu_time"] * scale)
        # a median overrides the single repetitions it sums up
        if aggregate == "median" or threads not in runs.setdefault(key, {}):
            runs[key][threads] = entry
    return runs


def table(runs):
    lines = ["| N | engine | threads | wall s | CPU s | speed-up | efficiency |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for (engine, n) in sorted(runs, key=lambda k: (k[1], k[0])):
        by_threads = runs[(engine, n)]
        base = by_threads.get(1)
        for t in sorted(by_threads):
            wall, cpu = by_threads[t]
            if base:
                speedup = base[0] / wall
                lines.append(f"| {n} | {engine} | {t} | {wall:.4g} | {cpu:.4g} | "
                             f"{speedup:.2f} | {speedup / t:.2f} |")
            else:
                lines.append(f"| {n} | {engine} | {t} | {wall:.4g} | {cpu:.4g} | | |")
    return "\n".join(lines)


def plot(runs, stem):
    if not shutil.which("gnuplot"):
        sys.exit("speedup.py: gnuplot not found (apt-get install gnuplot-nox)")
    series = [(k, runs[k]) for k in sorted(runs, key=lambda k: (k[1], k[0])) if 1 in runs[k]]
    if not series:
        sys.exit("speedup.py: no one-thread runs to measure speed-up against")
    top = max(t for _, r in series for t in r)
    with tempfile.TemporaryDirectory() as tmp:
        plots = [f"x with lines dashtype 2 lc rgb 'gray' title 'ideal'"]
        for i, ((engine, n), by_threads) in enumerate(series):
            data = os.path.join(tmp, f"s{i}.dat")
            with open(data, "w") as f:
                for t in sorted(by_threads):
                    f.write(f"{t} {by_threads[1][0] / by_threads[t][0]}\n")
            plots.append(f"'{data}' using 1:2 with linespoints title 'N={n} {engine}'")
        body = (f"set xlabel 'threads'\nset ylabel 'speed-up over one thread'\n"
                f"set xrange [1:{top}]\nset yrange [0:{top}]\nset key left top\nset grid\n"
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
        sys.exit(f"speedup.py: {args.json}: no count/ENGINE/n:N/threads:T benchmarks")
    print(table(runs))
    if args.plot:
        plot(runs, args.plot)


if __name__ == "__main__":
    main()
