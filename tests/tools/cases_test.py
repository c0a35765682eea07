#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cases_test.py — the units of the join plan as `qcount unit` describes
them, recounted by this program's own backtracking from the JSON alone:
for N=1..10 under the board's own profile and under N=28's, every unit's
recount equals join's tally (`test_cases tallies N P`, which counts by
qc_plan_count_unit) and the units' sum is the known total
(tests/known-counts.tsv).  A unit printed alone (three of each plan of
N=9 and 10: few processes, for the emulated stage) is the line --all
prints for it, and its text lists the same sets.  Mutant descriptions (a case
with solutions dropped, its weight changed), put back into JSON, no
longer recount to join's tally.  Bad input: exit 2, one line on stderr,
nothing on stdout.

usage: cases_test.py QCOUNT TEST_CASES KNOWN_TSV
"""
import json
import re
import subprocess
import sys

failures = 0
passed = 0


def check(cond, what):
    global failures, passed
    if cond:
        passed += 1
    else:
        failures += 1
        print("FAIL", what)


def run(*args):
    p = subprocess.run(list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def known_totals(path):
    totals = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) >= 2:
                totals[int(fields[0])] = int(fields[1])
    return totals


def count_case(n, rows):
    """Solutions of the n-board with row r's queen in the columns of
    rows[r] (bit c: column c+1), by backtracking row by row."""
    full = (1 << n) - 1

    def place(r, cols, left, right):
        if r == n:
            return 1
        free = rows[r] & full & ~(cols | left | right)
        total = 0
        while free:
            bit = free & -free
            free ^= bit
            total += place(r + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    return place(0, 0, 0, 0)


def recount(text):
    """A unit's tally from its JSON text alone."""
    unit = json.loads(text)
    return sum(c["weight"] * count_case(unit["n"], c["rows"]) for c in unit["cases"])


def well_formed(unit, n, plan, u):
    if set(unit) != {"n", "plan", "unit", "cases"}:
        return False
    if unit["n"] != n or unit["plan"] != plan or unit["unit"] != u:
        return False
    for c in unit["cases"]:
        if set(c) != {"weight", "rows"} or not isinstance(c["weight"], int) or c["weight"] < 0:
            return False
        if len(c["rows"]) != n or any(not 0 <= m < 1 << n for m in c["rows"]):
            return False
    return True


def mutants(n, plan, units, tallies):
    """The first unit with a case that has solutions: dropped, or its
    weight raised by one, the JSON no longer recounts to join's tally."""
    for u, unit in enumerate(units):
        for i, c in enumerate(unit["cases"]):
            if c["weight"] == 0 or count_case(n, c["rows"]) == 0:
                continue
            dropped = dict(unit, cases=unit["cases"][:i] + unit["cases"][i + 1:])
            check(recount(json.dumps(dropped)) != tallies[u],
                  f"N={n} plan {plan} unit {u}: case {i} dropped, not caught")
            weighed = json.loads(json.dumps(unit))
            weighed["cases"][i]["weight"] += 1
            check(recount(json.dumps(weighed)) != tallies[u],
                  f"N={n} plan {plan} unit {u}: case {i}'s weight changed, not caught")
            return
    check(n < 4, f"N={n} plan {plan}: no case with solutions")


def columns(mask, n):
    """mask as qcount unit's text writes it: "{1-3,5}"."""
    cols = [c + 1 for c in range(n) if mask >> c & 1]
    runs = []
    for c in cols:
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "{" + ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs) + "}"


def check_one(qcount, n, flags, plan, u, line, units_total):
    """Unit u printed alone: the line of --all, and as text the same sets."""
    rc, out, err = run(qcount, "unit", str(n), str(u), "--json", *flags)
    check(rc == 0 and out == line + "\n" and err == "", f"N={n} plan {plan} unit {u} alone: {err}")
    rc, out, err = run(qcount, "unit", str(n), str(u), *flags)
    unit = json.loads(line)
    lines = out.splitlines()
    head = re.fullmatch(r"N=(\d+), plan profile (\d+) \(([a-z-]+)\), unit (\d+) of (\d+): (\d+) cases?",
                        lines[0] if lines else "")
    check(rc == 0 and head is not None and head.group(1, 2, 4, 5, 6)
          == (str(n), str(plan), str(u), str(units_total), str(len(unit["cases"]))),
          f"N={n} plan {plan} unit {u} text header: {lines[:1]}")
    want = ["weight %d: %s" % (c["weight"], " ".join(columns(m, n) for m in c["rows"]))
            for c in unit["cases"]]
    check(lines[1:] == want, f"N={n} plan {plan} unit {u} text cases: {lines[1:3]} vs {want[:2]}")


def check_plan(qcount, test_cases, n, profile, known):
    flags = [f"--plan={profile}"] if profile else []
    plan = profile or n
    rc, out, err = run(qcount, "unit", str(n), "--all", "--json", *flags)
    check(rc == 0 and err == "", f"N={n} plan {plan} --all: rc {rc} {err}")
    lines = out.splitlines()
    rc, out, err = run(test_cases, "tallies", str(n), str(profile))
    tallies = [int(line.split()[1]) for line in out.splitlines()]
    check(rc == 0 and len(tallies) == len(lines) > 0,
          f"N={n} plan {plan}: {len(lines)} units described, {len(tallies)} tallies ({err})")
    units = [json.loads(line) for line in lines]
    total = 0
    for u, line in enumerate(lines[:len(tallies)]):
        check(well_formed(units[u], n, plan, u), f"N={n} plan {plan} unit {u}: {line[:200]}")
        got = recount(line)
        check(got == tallies[u], f"N={n} plan {plan} unit {u}: recounted {got}, join {tallies[u]}")
        total += got
    check(total == known[n], f"N={n} plan {plan}: total {total}, known {known[n]}")
    mutants(n, plan, units[:len(tallies)], tallies)
    for u in sorted({0, len(lines) // 2, len(lines) - 1}) if n >= 9 else ():
        check_one(qcount, n, flags, plan, u, lines[u], len(lines))


def check_refusals(qcount):
    for args in ([], ["8"], ["0", "1"], ["33", "1"], ["8", "74"], ["8", "x"], ["8", "1", "2"],
                 ["8", "1", "--plan=0"], ["8", "1", "--plan=33"], ["8", "1", "--plan"],
                 ["8", "1", "--bogus"], ["8", "--all", "1"]):
        rc, out, err = run(qcount, "unit", *args)
        check(rc == 2 and out == "" and err.count("\n") == 1 and err.startswith("qcount: unit: "),
              f"qcount unit {' '.join(args)}: rc {rc}, stdout {out!r}, stderr {err!r}")
    rc, out, err = run(qcount, "unit", "8", "1", "--plan", "28", "--json")
    check(rc == 0 and json.loads(out)["plan"] == 28, f"--plan 28 as two words: {rc} {err}")


def main():
    if len(sys.argv) != 4:
        print(__doc__.splitlines()[-1], file=sys.stderr)
        return 2
    qcount, test_cases, known_path = sys.argv[1:]
    known = known_totals(known_path)
    for n in range(1, 11):
        for profile in (0, 28):
            check_plan(qcount, test_cases, n, profile, known)
    check_refusals(qcount)
    print(f"cases_test: {passed} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
