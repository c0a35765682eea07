#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# parts_test.sh — a count split into parts run apart, with unlike thread
# counts and ISA levels, merged (qcount merge):
#   sweep:    N=1..16, every M of 1..7, the exact total; other engines.
#   refusals: merge's refusals (a missing part, an overlapping part with a
#             changed tally, a part of another N, a truncated or corrupt
#             part, another split), each with its message and every
#             ledger left byte for byte; a whole ledger merged with parts;
#             a part cut short and finished on another "machine" (other
#             threads, other level); --json; the options --part refuses.
#   17:       N=17 in 7 parts.
#   mpi:      an MPI job's ledger merges as a part's does, alone or with
#             parts; show and audit read it; --part is refused under mpirun.
# usage: parts_test.sh QCOUNT KNOWN LEDGER_EDIT QCOUNT_FAULT sweep|refusals|17
#        parts_test.sh QCOUNT KNOWN LEDGER_EDIT QCOUNT_FAULT mpi MPIEXEC
qcount=$1 known=$2 edit=$3 fault=$4 mode=$5
. "$(dirname "$0")/test_lib.sh"

# the ISA levels this CPU runs
levels=()
for l in portable avx2 avx512 avx512vbmi neon; do
    QCOUNT_ISA=$l "$qcount" 4 >/dev/null 2>&1 && levels+=("$l")
done
[ ${#levels[@]} -ge 1 ] && ok || bad "no ISA level runs"

# split N M: part k of M on ((k + N) % 3) + 1 threads at a level in turn,
# into $tmp/N-M-k; prints the sum of the parts' own outputs
split() {
    local n=$1 m=$2 k sum=0 out
    for k in $(seq 1 "$m"); do
        rm -f "$tmp/$n-$m-$k"
        out=$(QCOUNT_ISA=${levels[$(((k + m) % ${#levels[@]}))]} "$qcount" "$n" --part "$k/$m" \
              --checkpoint "$tmp/$n-$m-$k" -t $(((k + n) % 3 + 1)) --quiet 2>/dev/null) || return 1
        sum=$((sum + out))
    done
    echo "$sum"
}
ledgers() { local k; for k in $(seq 1 "$3"); do echo "$tmp/$1-$3-$k"; done; }

if [ "$mode" = mpi ]; then
    mpiexec=$6
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_plm=isolated OMPI_MCA_rmaps_base_oversubscribe=1
    export OMPI_MCA_hwloc_base_binding_policy=none
    export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
    want=$(known_total 13)
    timeout 120 "$mpiexec" -np 2 "$qcount" --threads 1 --quiet --checkpoint "$tmp/mpi" 13 \
        >"$tmp/out" 2>"$tmp/err" && [ "$(cat "$tmp/out")" = "$want" ] && ok \
        || bad "mpirun: $(cat "$tmp/out" "$tmp/err")"
    [ "$("$qcount" merge "$tmp/mpi" 2>/dev/null)" = "$want" ] && ok || bad "MPI ledger alone"
    split 13 2 >/dev/null
    [ "$("$qcount" merge "$tmp/13-2-1" "$tmp/mpi" 2>/dev/null)" = "$want" ] && ok || bad "MPI ledger with a part"
    "$qcount" show "$tmp/mpi" | awk 'NR > 10 && $6 !~ /^mpi@/ { bad = 1 } END { exit bad }' && ok \
        || bad "MPI ledger's hosts: $("$qcount" show "$tmp/mpi" | sed -n 11p)"
    "$qcount" audit --sample 100 --seed 3 "$tmp/mpi" >"$tmp/out" 2>&1 && grep -q "the record does not name its level" "$tmp/out" \
        && grep -q " 0 mismatched" "$tmp/out" && ok || bad "audit of the MPI ledger: $(cat "$tmp/out")"
    timeout 120 "$mpiexec" -np 2 "$qcount" --threads 1 --part 1/2 --checkpoint "$tmp/mpi-part" 13 \
        >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -ne 0 ] && [ ! -s "$tmp/out" ] && grep -q "^qcount: --part counts in one process" "$tmp/err" && ok \
        || bad "--part under mpirun: rc=$rc $(cat "$tmp/out" "$tmp/err")"
    report parts_mpi
    exit
fi

if [ "$mode" = 17 ]; then
    want=$(known_total 17)
    sum=$(split 17 7) && [ "$sum" = "$want" ] && ok || bad "N=17 M=7: parts add to '$sum', want $want"
    got=$("$qcount" merge $(ledgers 17 x 7) 2>"$tmp/err")
    [ "$got" = "$want" ] && ok || bad "N=17 M=7: merge '$got' ($(cat "$tmp/err")), want $want"
    report parts_17
    exit
fi

if [ "$mode" = sweep ]; then
for n in $(seq 1 16); do
    want=$(known_total "$n")
    for m in $(seq 1 7); do
        sum=$(split "$n" "$m") && [ "$sum" = "$want" ] && ok || bad "N=$n M=$m: parts add to '$sum', want $want"
        got=$("$qcount" merge $(ledgers "$n" x "$m") 2>"$tmp/err"); rc=$?
        [ $rc -eq 0 ] && [ "$got" = "$want" ] && ok \
            || bad "N=$n M=$m: merge rc=$rc '$got' ($(cat "$tmp/err")), want $want"
    done
done
# other engines split alike
for e in halving eightfold; do
    for k in 1 2 3 4; do
        QCOUNT_ISA=${levels[$((k % ${#levels[@]}))]} "$qcount" 12 -e $e --part $k/4 \
            --checkpoint "$tmp/$e-$k" -t $k --quiet >/dev/null 2>&1
    done
    got=$("$qcount" merge "$tmp/$e"-[1-4] 2>/dev/null)
    [ "$got" = "$(known_total 12)" ] && ok || bad "$e N=12 in 4 parts: merge '$got'"
done
report parts_sweep
exit
fi

for nm in "12 3" "12 2" "13 3"; do
    split $nm >/dev/null || bad "split $nm"
done

# refused CMD... WANT_RC PATTERN: merge exits WANT_RC with one line
# matching PATTERN, prints nothing on stdout, changes no ledger
refused() {
    local rc_want=$1 pattern=$2; shift 2
    local before after
    before=$(cat "$tmp"/12-* "$tmp"/13-* "$tmp"/x-* 2>/dev/null | md5sum)
    "$qcount" merge "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    after=$(cat "$tmp"/12-* "$tmp"/13-* "$tmp"/x-* 2>/dev/null | md5sum)
    [ $rc -eq "$rc_want" ] && [ ! -s "$tmp/out" ] && grep -Eq "$pattern" "$tmp/err" \
        && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok \
        || bad "merge $*: rc=$rc (want $rc_want) out='$(cat "$tmp/out")' err='$(cat "$tmp/err")' (want /$pattern/)"
    [ "$before" = "$after" ] && ok || bad "merge $*: a ledger changed"
}
p1=$tmp/12-3-1 p2=$tmp/12-3-2 p3=$tmp/12-3-3
want12=$(known_total 12)
# a missing part: its units named, and which part they are
first=$("$qcount" show "$p2" | awk '/^unit/ { getline; print $1; exit }')
refused 1 "[0-9]+ of [0-9]+ units are in none of the ledgers, no total: units $first-[0-9]+; of part 2/3$" "$p1" "$p3"
# an overlapping part (1/2 holds unit 0, as 1/3 does) with a changed tally
cp "$tmp/12-2-1" "$tmp/x-over"
"$edit" "$tmp/x-over" 0 1 && ok || bad "ledger_edit"
refused 1 "unit 0 has two tallies: [0-9]+ solutions in ledger '.*12-3-1', [0-9]+ in ledger '.*x-over'" \
    "$p1" "$p2" "$p3" "$tmp/x-over"
# ... and with the same tallies: accepted once
got=$("$qcount" merge "$p1" "$p2" "$p3" "$tmp/12-2-1" 2>"$tmp/err")
[ "$got" = "$want12" ] && grep -q "units found twice agree" "$tmp/err" && ok \
    || bad "overlapping parts that agree: '$got' $(cat "$tmp/err")"
# a part of another N
refused 2 "ledger '.*13-3-2': belongs to another count \(N=13, engine [a-z]+\), not to this one \(N=12" \
    "$p1" "$tmp/13-3-2" "$p3"
# a truncated part: mid-record, and at a record's end
head -c -50 "$p2" >"$tmp/x-cut"
refused 2 "ledger '.*x-cut': truncated or damaged after its last whole record" "$p1" "$tmp/x-cut" "$p3"
head -c -128 "$p2" >"$tmp/x-short"
refused 1 "1 of [0-9]+ units are in none of the ledgers, no total: units [0-9]+; of part 2/3" \
    "$p1" "$tmp/x-short" "$p3"
# a corrupt record before good ones
cp "$p2" "$tmp/x-bad"
printf '\xff' | dd of="$tmp/x-bad" bs=1 seek=$((128 + 10)) conv=notrunc status=none
refused 2 "ledger '.*x-bad': record 1 of [0-9]+ is corrupted" "$p1" "$tmp/x-bad" "$p3"
# not a ledger; a ledger of another split (an older join plan, format 1)
echo hello >"$tmp/x-text"
refused 2 "not a qcount ledger" "$p1" "$tmp/x-text"
cp "$(dirname "$0")/data/join-14-whole-patterns.ledger" "$tmp/x-old"
refused 2 "ledger '.*x-old': was written for another work split" "$tmp/x-old"
refused 2 "no ledger given"

# a whole count's ledger (one process or an MPI job: the same file)
# merges alone, and with parts
"$qcount" 12 --checkpoint "$tmp/x-whole" >/dev/null
[ "$("$qcount" merge "$tmp/x-whole" 2>/dev/null)" = "$want12" ] && ok || bad "whole ledger alone"
[ "$("$qcount" merge "$p1" "$tmp/x-whole" 2>/dev/null)" = "$want12" ] && ok || bad "whole ledger with a part"

# a part's own --json says it is a part
"$qcount" 12 --part 3/3 --checkpoint "$p3" --json 2>/dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin)
assert d['part'] == '3/3' and d['n'] == 12 and d['units'] > 0, d
" && ok || bad "--part --json"

# --json: the total and the coverage, or null and what is missing
"$qcount" merge --json "$p1" "$p2" "$p3" >"$tmp/json" 2>/dev/null
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['total'] == int(sys.argv[2]) and d['covered'] == d['units'] and d['missing'] == 0, d
assert [l['part'] for l in d['ledgers']] == ['1/3', '2/3', '3/3'], d
" "$tmp/json" "$want12" && ok || bad "merge --json: $(cat "$tmp/json")"
"$qcount" merge "$p1" "$p3" --json >"$tmp/json" 2>/dev/null; rc=$?   # options after the files too
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['total'] is None and d['missing'] > 0 and d['covered'] + d['missing'] == d['units'], d
" "$tmp/json" && [ $rc -eq 1 ] && ok || bad "merge --json, a part missing: rc=$rc $(cat "$tmp/json")"

# a machine dies mid-part: the part's ledger, moved anywhere, finishes it
# (other threads, other level), and the parts merge exactly
rm -f "$tmp"/14-3-*
for k in 1 3; do "$qcount" 14 --part $k/3 --checkpoint "$tmp/14-3-$k" --quiet >/dev/null; done
QCOUNT_TEST_FAIL_UNIT=40 "$fault" 14 --part 2/3 --checkpoint "$tmp/14-3-2" -t 2 --quiet >/dev/null 2>&1
kept=$("$qcount" show "$tmp/14-3-2" | awk '/^coverage/ { print $2 }')
[ -n "$kept" ] && [ "$kept" -gt 0 ] && ! "$qcount" merge "$(ledgers 14 x 3)" >/dev/null 2>&1 && ok \
    || bad "a part cut short: $kept units kept"
QCOUNT_ISA=${levels[0]} "$qcount" 14 --part 2/3 --checkpoint "$tmp/14-3-2" -t 1 --quiet >/dev/null
[ "$("$qcount" merge $(ledgers 14 x 3) 2>/dev/null)" = "$(known_total 14)" ] && ok || bad "resumed part"
# the part's ledger will not count another part, nor the whole
"$qcount" 14 --part 2/4 --checkpoint "$tmp/14-3-2" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "holds part 2/3 of the count, not part 2/4" "$tmp/err" && ok || bad "other part: $(cat "$tmp/err")"
"$qcount" 14 --checkpoint "$tmp/14-3-2" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "holds part 2/3 of the count, not the whole count (add --part 2/3)" "$tmp/err" \
    && ok || bad "whole on a part: $(cat "$tmp/err")"

# the Slurm job array's script, its tasks run here one after another with
# the variables Slurm sets (tests/tools/slurm_test.sh runs it under Slurm)
script=$(dirname "$0")/../../tools/scripts/qcount-parts.slurm
mkdir "$tmp/array"
for k in 1 2 3; do
    SLURM_ARRAY_JOB_ID=7 SLURM_JOB_ID=$((7 + k)) SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_MIN=1 \
        SLURM_ARRAY_TASK_MAX=3 SLURM_ARRAY_TASK_COUNT=3 SLURM_SUBMIT_DIR=$tmp/array N=13 QCOUNT=$qcount \
        bash "$script" >>"$tmp/array/out" 2>&1 || bad "qcount-parts.slurm task $k: $(cat "$tmp/array/out")"
done
run=$tmp/array/qcount-N13-job7
[ "$("$qcount" merge "$run"/qcount-13.part-*-of-3.ledger 2>/dev/null)" = "$(known_total 13)" ] \
    && [ ! -s "$tmp/array/out" ] && ok || bad "qcount-parts.slurm: merged '$(cat "$tmp/array/out")'"

# what --part refuses
bad_part() {
    "$qcount" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    local pattern=${!#}
    [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok \
        || bad "qcount $*: rc=$rc err='$(cat "$tmp/err")'"
}
for p in 0/3 4/3 3 1/0 /3 1/ a/b 1/3x 1/1000001; do
    "$qcount" 10 --part "$p" --checkpoint "$tmp/x-p" >"$tmp/out" 2>"$tmp/err"
    [ $? -eq 2 ] && grep -q "invalid part '$p'" "$tmp/err" && [ ! -e "$tmp/x-p" ] && ok \
        || bad "--part $p: $(cat "$tmp/err")"
done
check_refusal() {
    local pattern=$1; shift
    "$qcount" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q -- "$pattern" "$tmp/err" && ok \
        || bad "qcount $*: rc=$rc err='$(cat "$tmp/err")' (want /$pattern/)"
}
check_refusal "--part needs --checkpoint" 10 --part 1/2
check_refusal "--part takes one board size" 8-10 --part 1/2
check_refusal "--check compares whole counts" 10 --part 1/2 --checkpoint "$tmp/x-p" --check
check_refusal "--unique needs the whole count" 10 --part 1/2 --checkpoint "$tmp/x-p" --unique
report parts
