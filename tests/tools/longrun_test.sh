#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# longrun_test.sh — long runs as a user meets them: a checkpointed count
# killed with SIGKILL at several moments resumes to the exact total with
# each unit recorded exactly once; SIGINT/SIGTERM stop cleanly (130/143)
# with the ledger flushed; every bad ledger is refused with exit 2, one
# line naming the file, and the file's bytes unchanged; the progress line
# shows on a terminal only (or with --progress), never on stdout, never
# with --quiet.   Usage: longrun_test.sh QCOUNT LEDGER_DUMP
set -u
qcount=$1
dump=$2
. "$(dirname "$0")/test_lib.sh"

# The engine is pinned so that the run's length does not change when a
# faster default engine arrives: N=16 halving is a few seconds on 2 threads.
N=16 WANT=14772512
run=("$qcount" --engine halving --threads 2 --no-bind "$N")

# check_ledger FILE: every record good, no unit twice; prints "RECORDS SUM"
check_ledger() {
    "$dump" "$1" | awk '
        /^header/ && $2 != "good" { bad = 1 }
        /^bad/ { bad = 1 }
        /^record/ { if (seen[$2]++) dup = 1; n++; s += $3 }
        END { if (bad || dup) print "BROKEN", bad, dup; else print n + 0, s + 0 }'
}

# ---- (a) SIGKILL at several moments, then resume --------------------------
# The moments are chosen by progress, not by the clock, so that they fall
# mid-way on a fast or a loaded machine: each run is killed once the ledger
# has grown past the next share of the units (or at once, for the first).
ck=$tmp/kill.ckpt
units=0                              # read from the header once it exists
prev=0
for share in 0 15 35 60 80; do
    target=$((128 + 128 * units * share / 100))   # share 0: once the header is there
    "${run[@]}" --checkpoint "$ck" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    while kill -0 $pid 2>/dev/null && [ "$(stat -c %s "$ck" 2>/dev/null || echo 0)" -lt $target ]; do
        sleep 0.01
    done
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    [ -f "$ck" ] || continue         # killed before the ledger was created
    [ "$units" -gt 0 ] || units=$("$dump" "$ck" | awk '/^units/ {print $2}')
    read -r records sum < <(check_ledger "$ck")
    if [ "$records" = BROKEN ]; then bad "ledger broken after kill -9 at ${share}%"; continue; fi
    # each run keeps what the ones before it saved
    if [ "$records" -ge "$prev" ]; then ok; else bad "ledger shrank: $prev -> $records"; fi
    prev=$records
done
# the kills must have fallen mid-way, or this test tested nothing
if [ "$prev" -gt 0 ] && [ "$prev" -lt "$units" ]; then ok
else bad "the kills did not fall mid-way ($prev of $units units saved)"; fi
"${run[@]}" --checkpoint "$ck" >"$tmp/out" 2>"$tmp/err"
rc=$?
read -r records sum < <(check_ledger "$ck")
if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$WANT" ] && [ "$records" = "$units" ] \
   && [ "$sum" = "$WANT" ]; then ok
else bad "resume after kill -9: rc=$rc out='$(cat "$tmp/out")' records=$records/$units sum=$sum"; fi
echo "kill -9 test: ledger records before the final resume: $prev of $units"

# a finished ledger answers at once with the stored total and stays as it is
cp "$ck" "$tmp/copy"
if [ "$("${run[@]}" --checkpoint "$ck" 2>"$tmp/err")" = "$WANT" ] && cmp -s "$ck" "$tmp/copy" \
   && [ ! -s "$tmp/err" ]; then ok; else bad "finished ledger: $(cat "$tmp/err")"; fi

# a torn tail (a crash mid-write) is redone, not refused
head -c -17 "$tmp/copy" >"$tmp/torn.ckpt"
if [ "$("${run[@]}" --checkpoint "$tmp/torn.ckpt" 2>"$tmp/err")" = "$WANT" ] \
   && [ "$(check_ledger "$tmp/torn.ckpt")" = "$units $WANT" ]; then ok
else bad "torn tail: $(cat "$tmp/err")"; fi

# ---- (c) SIGINT and SIGTERM: clean stops -----------------------------------
# stop_test SIG STATUS: stop a checkpointed run, check status, message and
# that the ledger holds what the message says; then resume to the total.
stop_test() {
    local sig=$1 want=$2 ck=$tmp/$1.ckpt
    "${run[@]}" --checkpoint "$ck" >"$tmp/out" 2>"$tmp/err" &
    local pid=$!
    sleep 0.8
    kill -"$sig" $pid
    wait $pid
    local rc=$?
    local saved
    saved=$(sed -n "s/.*: \([0-9]*\) of [0-9]* work units are saved in ledger '.*'.*/\1/p" "$tmp/err")
    read -r records sum < <(check_ledger "$ck")
    if [ $rc -eq "$want" ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
       && grep -q "^qcount: stopped by SIG$sig" "$tmp/err" && [ "$saved" = "$records" ]; then ok
    else bad "SIG$sig: rc=$rc (want $want) err='$(cat "$tmp/err")' records=$records"; fi
    "${run[@]}" --checkpoint "$ck" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "$WANT" ] \
       && [ "$(check_ledger "$ck")" = "$units $WANT" ]; then ok
    else bad "resume after SIG$sig: rc=$rc out='$(cat "$tmp/out")'"; fi
}
stop_test INT 130
stop_test TERM 143

# without a ledger: the message says the work is lost
"${run[@]}" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ] && [ ! -s "$tmp/out" ] && grep -q "work done is lost" "$tmp/err"; then ok
else bad "SIGINT without ledger: rc=$rc err='$(cat "$tmp/err")'"; fi

# ---- (b) bad ledgers: exit 2, one line naming the file, bytes unchanged ----
# Ledgers here are made by the halving engine: its N=12 plan has thousands
# of units, so there are records to damage in the middle.
# refused PATTERN FILE [ARGS...]: qcount ARGS (default: halving, 12) on FILE must
# refuse it and leave it untouched
refused() {
    local pattern=$1 file=$2; shift 2
    local before=absent
    [ -f "$file" ] && cp "$file" "$tmp/before" && before=file
    [ $# -eq 0 ] && set -- --engine halving 12
    "$qcount" --checkpoint "$file" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local rc=$?
    local same=yes
    if [ $before = file ]; then cmp -s "$file" "$tmp/before" || same=no
    elif [ -f "$file" ]; then same=no; fi     # must not have created it
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
       && grep -q '^qcount: ' "$tmp/err" && grep -qF "'$file'" "$tmp/err" \
       && grep -qiE "$pattern" "$tmp/err" && [ $same = yes ]; then ok
    else bad "ledger $file: rc=$rc same=$same err='$(cat "$tmp/err")' (want /$pattern/)"; fi
}
good=$tmp/good12.ckpt
"$qcount" --engine halving 12 --checkpoint "$good" >/dev/null
records12=$("$dump" "$good" | grep -c '^record')

refused "cannot create: No such file" "$tmp/no/such/dir/run.ckpt"
mkdir "$tmp/adir"
refused "cannot open for writing: Is a directory" "$tmp/adir"
refused "cannot create" "/proc/qcount-test.ckpt"
head -c 40 "$good" >"$tmp/trunc.ckpt"
refused "truncated header \(40 of 128 bytes\)" "$tmp/trunc.ckpt"
: >"$tmp/empty.ckpt"
refused "empty file" "$tmp/empty.ckpt"
cp "$good" "$tmp/mid.ckpt"
printf '\xff' | dd of="$tmp/mid.ckpt" bs=1 seek=$((128 + 128 * 3 + 10)) conv=notrunc status=none
refused "record 4 of $records12 is corrupted" "$tmp/mid.ckpt"
cp "$good" "$tmp/hdr.ckpt"
printf '\x07' | dd of="$tmp/hdr.ckpt" bs=1 seek=17 conv=notrunc status=none
refused "header is corrupted" "$tmp/hdr.ckpt"
refused "belongs to another count \(N=12, engine [a-z0-9]+\), not to this one \(N=13" \
        "$good" --engine halving --threads 2 13
refused "belongs to another count \(N=12, engine halving\)" "$good" --engine eightfold 12
"$qcount" --engine halving 13 --checkpoint "$tmp/for13.ckpt" >/dev/null
refused "another count \(N=13" "$tmp/for13.ckpt"
printf 'just some text\n' >"$tmp/text.ckpt"
refused "not a qcount ledger" "$tmp/text.ckpt"
# an unwritable (immutable) ledger: root ignores permission bits, not +i
cp "$tmp/for13.ckpt" "$tmp/immutable.ckpt"
if chattr +i "$tmp/immutable.ckpt" 2>/dev/null; then
    refused "cannot open for writing: Operation not permitted" "$tmp/immutable.ckpt"
    chattr -i "$tmp/immutable.ckpt"
else
    echo "note: chattr +i unsupported here; the immutable-ledger case is skipped"
fi
# a ledger in use by another run
"${run[@]}" --checkpoint "$tmp/busy.ckpt" >/dev/null 2>&1 &
pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$tmp/busy.ckpt" ] && break; sleep 0.1; done
"${run[@]}" --checkpoint "$tmp/busy.ckpt" >"$tmp/out" 2>"$tmp/err"
rc=$?
kill -KILL $pid; wait $pid 2>/dev/null
if [ $rc -eq 2 ] && grep -q "in use by another qcount run" "$tmp/err"; then ok
else bad "busy ledger: rc=$rc err='$(cat "$tmp/err")'"; fi
expect_parse() {
    "$qcount" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then ok; else bad "qcount $*: rc=$rc"; fi
}
expect_parse --checkpoint= 8
expect_parse 8 --checkpoint

# ---- (d) progress: a terminal only, never stdout ---------------------------
if command -v script >/dev/null; then
    # script gives the command a terminal on stderr; stdout goes to a file
    script -qec "'$qcount' -t 2 13 >'$tmp/out'" "$tmp/tty" >/dev/null 2>&1
    if [ "$(cat "$tmp/out")" = 73712 ] && grep -q 'units (.*%), elapsed .*, ETA .*steps/s' "$tmp/tty" \
       && grep -q $'\r\033\\[K' "$tmp/tty"; then ok
    else bad "progress on a terminal: out='$(cat "$tmp/out")' tty='$(tr -d '\r\033' <"$tmp/tty" | tail -c 300)'"; fi
    # a narrow terminal: each drawing of the line fits in it (no wrap)
    script -qec "stty cols 30; '$qcount' -t 1 14 >'$tmp/out'" "$tmp/tty" >/dev/null 2>&1
    drawn=$(tr '\r' '\n' <"$tmp/tty" | sed 's/\x1b\[K//g' | grep '^qcount: ')
    if [ "$(cat "$tmp/out")" = 365596 ] && [ -n "$drawn" ] \
       && awk 'length($0) > 29 { exit 1 }' <<<"$drawn"; then ok
    else bad "progress on a 30-column terminal: '$drawn'"; fi
    script -qec "'$qcount' --quiet -t 2 13 >'$tmp/out'" "$tmp/tty" >/dev/null 2>&1
    if [ "$(cat "$tmp/out")" = 73712 ] && ! grep -q 'units (' "$tmp/tty"; then ok
    else bad "--quiet on a terminal still shows progress"; fi
    script -qec "'$qcount' --progress --quiet -t 2 13 >'$tmp/out'" "$tmp/tty" >/dev/null 2>&1
    if ! grep -q 'units (' "$tmp/tty"; then ok; else bad "--quiet must win over --progress"; fi
else
    echo "note: script(1) missing; the terminal cases are skipped"
fi
# not a terminal: nothing on stderr; --progress: plain lines, never on stdout
"$qcount" -t 2 13 >"$tmp/out" 2>"$tmp/err"
if [ "$(cat "$tmp/out")" = 73712 ] && [ ! -s "$tmp/err" ]; then ok; else bad "progress reached a non-terminal"; fi
"$qcount" -t 2 13 --progress >"$tmp/out" 2>"$tmp/err"
if [ "$(cat "$tmp/out")" = 73712 ] && grep -q '^qcount: [0-9]*/[0-9]* units (' "$tmp/err" \
   && ! grep -q $'\033' "$tmp/err"; then ok
else bad "--progress into a file: err='$(head -c 300 "$tmp/err")'"; fi

report
