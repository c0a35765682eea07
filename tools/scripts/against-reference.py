#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""against-reference.py — qcount's time against a reference counter's, as
the ratios docs/PERFORMANCE.md records: one table, the two alternating.

    ../shared/anchors/build-kluev.sh ref/native 17 18
    KLUEV_MARCH=x86-64-v3 ../shared/anchors/build-kluev.sh ref/x86-64-v3 17 18
    tools/scripts/against-reference.py --reference ref build/qcount

For each board size and ISA level, the two programs run in turn, ROUNDS
times each (qcount forced to the level by QCOUNT_ISA, both on the same
core with taskset, THREADS threads each), and every round's two totals
must agree: a total that differs stops the run with status 1.  Prints a
Markdown table: each program's median seconds, the ratio of the medians,
and the median with the quartiles of the rounds' own ratios (a round's
two runs share the machine's state of the moment, which on a shared
machine wanders from minute to minute).

The reference directory holds one program per size, named kluev-N, under
native/ (built for this CPU) and x86-64-v3/ (built for an AVX2 CPU): the
AVX-512 levels are set beside the native build, avx2 and portable beside
the x86-64-v3 one (each reference built for the class of CPU the level
is for); where one of the two is missing, the other serves.  A reference
program takes its thread count as its one argument and prints
"Result: TOTAL".

Seconds are CPU seconds of the process (user and system, from the
kernel's accounting of each finished child) with one thread, wall
seconds with more (--clock says otherwise).
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time

LEVELS = ["avx512vbmi", "avx512", "avx2", "neon", "portable"]
NATIVE_LEVELS = {"avx512vbmi", "avx512", "neon"}


def die(message, status=2):
    print(f"against-reference.py: {message}", file=sys.stderr)
    sys.exit(status)


def levels_of(qcount):
    """The levels this CPU runs: those qcount accepts in QCOUNT_ISA."""
    found = []
    for level in LEVELS:
        run = subprocess.run([qcount, "--version"], env=dict(os.environ, QCOUNT_ISA=level),
                             capture_output=True, text=True)
        if run.returncode == 0 and re.search(rf"ISA\s+{level}\b", run.stdout):
            found.append(level)
    return found


def timed(argv, env, clock):
    """Runs argv; returns (seconds, standard output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    run = subprocess.run(argv, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        die(f"{' '.join(argv)}: exit status {run.returncode}: {run.stderr.strip()}", 1)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (cpu if clock == "cpu" else wall), run.stdout


def quartiles(values):
    ordered = sorted(values)
    q = len(ordered) // 4
    return ordered[q], ordered[-1 - q]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("qcount", help="the qcount program")
    ap.add_argument("--reference", required=True,
                    help="directory of the reference programs (native/, x86-64-v3/)")
    ap.add_argument("--sizes", default="17,18", help="board sizes, comma-separated (17,18)")
    ap.add_argument("--levels", help="ISA levels, comma-separated (all this CPU runs)")
    ap.add_argument("--rounds", type=int, default=11, help="runs of each program (11)")
    ap.add_argument("--threads", type=int, default=1, help="threads of each program (1)")
    ap.add_argument("--cpu", type=int,
                    help="with one thread, the core both run on (the last this process may use)")
    ap.add_argument("--clock", choices=["cpu", "wall"],
                    help="cpu: process CPU seconds (default with one thread); wall")
    args = ap.parse_args()

    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        die(f"--sizes: not a list of numbers: '{args.sizes}'")
    if args.rounds < 1 or args.threads < 1:
        die("--rounds and --threads take a number of at least 1")
    if not os.access(args.qcount, os.X_OK):
        die(f"{args.qcount}: not an executable program")
    clock = args.clock or ("cpu" if args.threads == 1 else "wall")
    levels = args.levels.split(",") if args.levels else levels_of(args.qcount)
    runnable = levels_of(args.qcount) if args.levels else levels
    for level in levels:
        if level not in runnable:
            die(f"level '{level}': this qcount does not run it here ({', '.join(runnable)})")
    pin = []
    if args.threads == 1:
        cores = sorted(os.sched_getaffinity(0))
        core = args.cpu if args.cpu is not None else cores[-1]
        if core not in cores:
            die(f"--cpu {core}: not among this process's cores {cores}")
        pin = ["taskset", "-c", str(core)]

    def reference(n, level):
        kinds = ["native", "x86-64-v3"] if level in NATIVE_LEVELS else ["x86-64-v3", "native"]
        for kind in kinds:
            path = os.path.join(args.reference, kind, f"kluev-{n}")
            if os.access(path, os.X_OK):
                return kind, path
        die(f"no reference program for N={n} under {args.reference} (native/ or x86-64-v3/)")

    refs = {(n, level): reference(n, level) for n in sizes for level in levels}
    print(f"| N | level | reference | qcount s | reference s | ratio of medians "
          f"| round ratios: median (quartiles) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        for level in levels:
            kind, ref = refs[n, level]
            env = dict(os.environ, QCOUNT_ISA=level)
            ours, theirs = [], []
            for _ in range(args.rounds):
                t, out = timed(pin + [args.qcount, str(n), "-t", str(args.threads)], env, clock)
                ours.append(t)
                total = out.strip()
                t, out = timed(pin + [ref, str(args.threads)], dict(os.environ), clock)
                theirs.append(t)
                match = re.search(r"Result:\s*(\d+)", out)
                if not match:
                    die(f"{ref}: no 'Result: TOTAL' in its output", 1)
                if match.group(1) != total:
                    die(f"N={n} {level}: qcount counted {total}, {ref} {match.group(1)}", 1)
            ratios = [a / b for a, b in zip(ours, theirs) if b > 0]
            mine, ref_median = statistics.median(ours), statistics.median(theirs)
            lo, hi = quartiles(ratios) if ratios else (float("nan"), float("nan"))
            print(f"| {n} | {level} | {kind} | {mine:.3f} | {ref_median:.3f} "
                  f"| {mine / ref_median if ref_median else float('nan'):.3f} "
                  f"| {statistics.median(ratios) if ratios else float('nan'):.3f} "
                  f"({lo:.3f}-{hi:.3f}) |", flush=True)
    print(f"\n{args.rounds} rounds a row, {args.threads} thread(s) each, {clock} seconds"
          + (f", both on core {pin[-1]}" if pin else "") + ".")


if __name__ == "__main__":
    main()
