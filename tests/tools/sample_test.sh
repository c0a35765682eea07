#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sample_test.sh — the sampler of boards too big to count here
# (qcount_sample) from a user's side: [against whole], its sampled joins
# set beside whole units, where every unit is drawn (one stratum holding
# them all), so that the whole units must sum to the published total and
# the sample's estimate must be the sampled units' sum; bad input refused
# with one line and status 2.
# usage: sample_test.sh QCOUNT_SAMPLE KNOWN_TSV
sample=$1 known=$2
. "$(dirname "$0")/test_lib.sh"

# every unit drawn: N=10 under its own plan, N=13 under N=28's profile
# (the record size's joins: tiles, compact runs, paired blocks)
for args in "10" "13 --plan 28"; do
    n=${args%% *}
    units=$("$sample" $args --unit 0 2>/dev/null | sed -n 's/^n [0-9]* units \([0-9]*\) .*/\1/p')
    "$sample" $args --units "$units" --strata 1 --joins 2 --seed 7 --memory-units 1 --against-whole \
        >"$tmp/out" 2>"$tmp/err" || { bad "$args: exit $? ($(tail -n 3 "$tmp/err"))"; continue; }
    [ "$(grep -c '^against_whole unit ' "$tmp/out")" = "$units" ] && ok \
        || bad "$args: $(grep -c '^against_whole unit ' "$tmp/out") unit lines, want $units"
    sum=$(sed -n 's/^against_whole_sum units [0-9]* .* whole_solutions \([0-9]*\) .*/\1/p' "$tmp/out")
    [ "$sum" = "$(known_total "$n")" ] && ok || bad "$args: whole units sum to '$sum', want $(known_total "$n")"
    # the units' whole solutions add to the sum line's
    awk '/^against_whole unit / { for (i = 1; i < NF; i++) if ($i == "whole_solutions") s += $(i + 1) }
         END { print s }' "$tmp/out" | grep -qx "$sum" && ok || bad "$args: unit lines do not add to $sum"
    # the estimate printed is the sampled one, every unit drawn: their sum
    sampled=$(sed -n 's/^against_whole_sum .* sampled_solutions \([^ ]*\) .*/\1/p' "$tmp/out")
    est=$(sed -n 's/^solutions \([^ ]*\) +- .*/\1/p' "$tmp/out")
    awk -v a="$sampled" -v b="$est" 'BEGIN { exit !(a > 0 && (a - b) / a < 1e-3 && (b - a) / a < 1e-3) }' \
        && ok || bad "$args: estimate $est, sampled units $sampled"
done

# one unit given: its line, then its usual line
"$sample" 12 --unit 5 --joins 2 --against-whole >"$tmp/out" 2>/dev/null \
    && grep -q '^against_whole unit 5 sampled_cpu_seconds [0-9.e+-]* whole_cpu_seconds ' "$tmp/out" \
    && grep -q '^unit 5 cpu_seconds ' "$tmp/out" && ok || bad "--unit 5 --against-whole: $(cat "$tmp/out")"

# refused: nothing sampled to set beside, a part of the sets (the whole
# pass could not count the same part)
for args in "12 --against-whole" "12 --joins 1 --against-whole" "12 --joins 4 --sets 2 --against-whole"; do
    "$sample" $args >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q '^qcount_sample: --against-whole ' "$tmp/err" && ok \
        || bad "'$args': status $rc, $(cat "$tmp/err")"
done
report sample
