#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# range_test.sh — qcount over ranges of N and the conventions around a
# count: the aligned table of `qcount 1-12` (with and without --unique),
# --format=bfile parsed line by line, --json lines parsed by python3 (every
# field, exact integer totals, the context), --check passing, failing on a
# corrupted reference (qcount_fault's QCOUNT_TEST_KNOWN) and saying when N
# has no known value, the refusals; then --svg=-, the seed of --random,
# --version, and that a plain count never loads libmpi while a missing MPI
# module fails one line.
# Usage: range_test.sh QCOUNT QCOUNT_FAULT KNOWN_TSV [MPI_MODULE]
set -u
qcount=$(realpath "$1") fault=$2 known=$3 module=${4:-}
. "$(dirname "$0")/test_lib.sh"
want() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }
expect_error() {   # expect_error PATTERN ARGS...: status 2, one stderr line, no stdout
    local pattern=$1; shift
    "$qcount" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; local rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
       && grep -qE -e "$pattern" "$tmp/err"; then ok
    else bad "qcount $* -> rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want 2, /$pattern/)"; fi
}

# ---- the table: one line per N, right-aligned to N=12's widths
awk '!/^#/ && $1 <= 12 { printf "%2d %5s\n", $1, $2 }' "$known" >"$tmp/want"
"$qcount" 1-12 -q >"$tmp/out" 2>"$tmp/err"
want "1-12 status" $? 0
cmp -s "$tmp/want" "$tmp/out" && ok || { bad "qcount 1-12:"; diff "$tmp/want" "$tmp/out"; }
awk '!/^#/ && $1 >= 9 && $1 <= 12 { printf "%2d %5s %4s\n", $1, $2, $3 }' "$known" >"$tmp/want"
"$qcount" 9-12 --unique -t 2 >"$tmp/out" 2>"$tmp/err"
cmp -s "$tmp/want" "$tmp/out" && [ ! -s "$tmp/err" ] && ok || { bad "qcount 9-12 -u:"; diff "$tmp/want" "$tmp/out"; }
want "range of one" "$("$qcount" 7-7)" "7 40"
want "one N stays bare" "$("$qcount" 12)" 14200

# ---- --format=bfile: "n a(n)", n consecutive from the first, A000170 or A002562
bfile_ok() {   # bfile_ok FIRST COLUMN FILE: the lines are the b-file of column 2 or 3 of $known
    awk -v first="$1" -v col="$2" 'NR == FNR { if (!/^#/) a[$1] = $col; next }
        !/^[0-9]+ [0-9]+$/ || $1 != first + FNR - 1 || $2 != a[$1] { bad = 1 }
        END { exit bad || FNR == 0 }' "$known" "$3"
}
"$qcount" --format=bfile 1-12 >"$tmp/b" && bfile_ok 1 2 "$tmp/b" && [ "$(wc -l <"$tmp/b")" -eq 12 ] \
    && ok || bad "--format=bfile 1-12: $(cat "$tmp/b")"
"$qcount" --format=bfile -u 4-11 >"$tmp/b" && bfile_ok 4 3 "$tmp/b" && [ "$(wc -l <"$tmp/b")" -eq 8 ] \
    && ok || bad "--format=bfile -u 4-11: $(cat "$tmp/b")"
want "bfile of one N" "$("$qcount" --format=bfile 8)" "8 92"

# ---- --json: one object a line, every field, exact integer totals
"$qcount" --json -u --check --no-bind 1-10 >"$tmp/j" 2>"$tmp/err"
want "--json 1-10 status" $? 0
python3 - "$tmp/j" "$known" <<'PY' && ok || bad "--json lines: $(cat "$tmp/j")"
import json, re, sys
known = {int(l.split()[0]): (int(l.split()[1]), int(l.split()[2]))
         for l in open(sys.argv[2]) if not l.startswith('#')}
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 10, lines
for n, line in enumerate(lines, 1):
    o = json.loads(line)
    for k in ("n", "total", "unique", "check", "engine", "threads", "seconds", "cpu_seconds",
              "units", "steps", "steps_per_second", "placements", "placements_per_second", "peak_rss_kib", "context"):
        assert k in o, (k, line)
    assert o["n"] == n and type(o["total"]) is int and type(o["unique"]) is int, line
    assert (o["total"], o["unique"]) == known[n] and o["check"] == "agree", line
    assert o["seconds"] >= 0 and o["cpu_seconds"] >= 0, line
    c = o["context"]
    for k in ("version", "isa", "march", "bind", "openmp", "hwloc", "mpi", "host", "online_cpus",
              "cpu_model", "load_average", "date"):
        assert k in c, (k, line)
    assert type(c["cpu_model"]) is str, line
    assert len(c["load_average"]) == 3 and all(x >= 0 for x in c["load_average"]), line
    assert re.fullmatch(r"\d+\.\d+\.\d+", c["version"]) and c["bind"] is False, line
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", c["date"]), line
    assert c["isa"] and c["march"] in ("native", "default") and c["online_cpus"] >= 1, line
PY
# the CPU time is the run's, over the same interval as its wall time: one
# thread cannot spend more CPU than wall time (the process's start-up, the
# previous boards' counts and the printing are outside it)
"$qcount" --json -t 1 1-12 >"$tmp/j" 2>"$tmp/err"
python3 - "$tmp/j" <<'PY' && ok || bad "--json cpu_seconds beyond seconds on one thread: $(cat "$tmp/j")"
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["threads"] == 1 and o["cpu_seconds"] <= o["seconds"] * 1.05 + 0.002, line
PY

# ---- --check: agreement, a corrupted reference, no known value
"$qcount" 1-12 -u --check >"$tmp/out" 2>"$tmp/err"
want "--check 1-12 -u status" $? 0
[ ! -s "$tmp/err" ] && [ "$(wc -l <"$tmp/out")" -eq 12 ] && ok || bad "--check 1-12 -u: $(cat "$tmp/err")"
want "--check one N" "$("$qcount" 12 --check 2>&1)" 14200
sed 's/^9\t352\t/9\t353\t/' "$known" >"$tmp/bad-total"
sed 's/^10\t724\t92$/10\t724\t93/' "$known" >"$tmp/bad-unique"
! cmp -s "$known" "$tmp/bad-total" && ! cmp -s "$known" "$tmp/bad-unique" && ok || bad "no corrupted copy made"
QCOUNT_TEST_KNOWN=$tmp/bad-total "$fault" 1-12 --check >"$tmp/out" 2>"$tmp/err"
want "mismatch status" $? 1
want "mismatch: lines up to N=9" "$(tail -n 1 "$tmp/out")" " 9   352"
grep -q '^qcount: --check: N=9: the total 352 differs from the known 353 (OEIS A000170)$' "$tmp/err" \
    && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "mismatch message: $(cat "$tmp/err")"
QCOUNT_TEST_KNOWN=$tmp/bad-unique "$fault" 8-12 --check -u >"$tmp/out" 2>"$tmp/err"
want "unique mismatch status" $? 1
grep -q 'N=10: the unique count 92 differs from the known 93 (OEIS A002562)' "$tmp/err" \
    && ok || bad "unique mismatch message: $(cat "$tmp/err")"
QCOUNT_TEST_KNOWN=$tmp/bad-unique "$fault" 8-12 --check >/dev/null 2>&1
want "unique not compared without -u" $? 0
QCOUNT_TEST_KNOWN=$tmp/bad-total "$fault" 9 --check --json >"$tmp/out" 2>/dev/null
want "mismatch in --json" "$(grep -o '"check": "[a-z]*"' "$tmp/out")" '"check": "differs"'
QCOUNT_TEST_KNOWN=$tmp/bad-total "$fault" 9 >/dev/null 2>&1
want "no --check, no comparison" $? 0
# N >= 28 has no published value: the same path, through a table that ends at 7
head -n 8 "$known" >"$tmp/short"
QCOUNT_TEST_KNOWN=$tmp/short "$fault" 6-9 --check >"$tmp/out" 2>"$tmp/err"
want "no known value: status" $? 0
want "no known value: lines" "$(wc -l <"$tmp/out")" 4
grep -q '^qcount: --check: N=8: no known value to check against (OEIS A000170 and A002562 give N up to 27)$' \
    "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 2 ] && ok || bad "no known value: $(cat "$tmp/err")"
QCOUNT_TEST_KNOWN=$tmp/short "$fault" 9 --check --json 2>/dev/null | grep -q '"check": "unknown"' \
    && ok || bad "no known value in --json"

# ---- refusals
expect_error "invalid range '5-3'" 5-3
expect_error "invalid range '1-33'" 1-33
expect_error "invalid range '4-'" 4-
expect_error "invalid range '4-x'" 4-x
expect_error "invalid board size '1-4'" 1-4 --list
expect_error "--checkpoint takes one board size N, not the range '1-4'" --checkpoint="$tmp/l" 1-4
expect_error "--format=bfile applies to counting, not to --list" 8 --list --format=bfile
expect_error "--json and --format=bfile cannot be used together" 8 --json --format=bfile
expect_error "--check applies to counting, not to --solve" --solve 8 --check
expect_error "--list and --svg=- cannot both write to stdout" 6 --list --svg=-
expect_error "unknown format 'b'" 8 --format=b
PMI_RANK=0 PMI_SIZE=1 "$qcount" 1-3 >"$tmp/out" 2>"$tmp/err"
want "a range under a launcher: status" $? 2
grep -q 'range.*one process' "$tmp/err" && ok || bad "a range under a launcher: $(cat "$tmp/err")"

# ---- --svg=-: the drawing on stdout, no file named '-'
(cd "$tmp" && "$qcount" 6 --svg=- >"$tmp/svg") && [ ! -e "$tmp/-" ] \
    && python3 "$(dirname "$0")/svg_check.py" "$tmp/svg" 6 4 && ok || bad "--svg=-: $(head -c 300 "$tmp/svg")"
"$qcount" 8 --svg=- --unique --limit=3 | python3 "$(dirname "$0")/svg_check.py" /dev/stdin 8 3 \
    && ok || bad "--svg=- --unique --limit=3"

# ---- --random without --seed: the seed on stderr repeats the run
"$qcount" --solve 200 --random >"$tmp/a" 2>"$tmp/err"
seed=$(sed -n 's/^qcount: seed \([0-9]*\) (--seed=\1 repeats this run)$/\1/p' "$tmp/err")
[ -n "$seed" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "--random seed line: $(cat "$tmp/err")"
want "--seed=the printed seed" "$("$qcount" --solve 200 --random --seed="$seed" 2>&1)" "$(cat "$tmp/a")"
"$qcount" --solve 200 --random --seed=5 >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] && ok || bad "--random --seed printed: $(cat "$tmp/err")"

# ---- --version, GNU style: version, licence, features
"$qcount" --version >"$tmp/v" 2>&1
want "--version status" $? 0
grep -qE '^qcount [0-9]+\.[0-9]+\.[0-9]+$' <(head -n 1 "$tmp/v") && grep -q '^License MIT' "$tmp/v" \
    && grep -q 'NO WARRANTY' "$tmp/v" && grep -qE '^  MPI  ' "$tmp/v" && grep -qE '^  ISA +x86-64|^  ISA ' "$tmp/v" \
    && grep -qE '^  OpenMP +[0-9]+' "$tmp/v" && grep -qE '^  hwloc +[0-9]' "$tmp/v" && ok \
    || bad "--version: $(cat "$tmp/v")"

# ---- MPI: a plain count never loads libmpi; a missing module is one line
ldd "$qcount" | grep -q libmpi && bad "qcount links libmpi: $(ldd "$qcount" | grep libmpi)" || ok
LD_DEBUG=libs "$qcount" 8 2>"$tmp/ld" >/dev/null
grep -q libmpi "$tmp/ld" && bad "a plain qcount 8 loads libmpi" || ok
grep -q 'libc.so' "$tmp/ld" && ok || bad "LD_DEBUG=libs showed nothing (cannot tell)"
if [ -n "$module" ]; then
    [ -f "$module" ] && ok || bad "no MPI module at $module"
    mkdir "$tmp/alone" && cp "$qcount" "$tmp/alone/qcount"
    PMI_RANK=0 PMI_SIZE=1 "$tmp/alone/qcount" 8 >"$tmp/out" 2>"$tmp/err"
    want "module missing: status" $? 2
    grep -q '^qcount: started by an MPI launcher, but its MPI module libqcount_mpi.so is missing' "$tmp/err" \
        && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] && ok || bad "module missing: $(cat "$tmp/err")"
fi

report range
