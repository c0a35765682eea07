#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# modes_test.sh — qcount's modes beyond counting, as a user meets them:
# --list (formats, --unique, --limit, closed pipes), --svg, --solve (with
# --random), --verify, and their bad input (exit 2, one stderr line, nothing
# on stdout).   Usage: modes_test.sh QCOUNT KNOWN_TSV [big]
# ("big" runs only the big boards: qcount --solve 10000000 | qcount --verify.)
set -u
qcount=$1 known=$2 big=${3:-}
. "$(dirname "$0")/test_lib.sh"
# want DESCRIPTION GOT EXPECTED
want() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }

# expect_error PATTERN ARGS...: status 2, stdout empty, one stderr line matching PATTERN
expect_error() {
    local pattern=$1; shift
    "$qcount" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; local rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
       && grep -qiE -e "$pattern" "$tmp/err" && grep -q '^qcount: ' "$tmp/err"; then ok
    else bad "qcount $* -> rc=$rc out='$(head -c 200 "$tmp/out")' err='$(cat "$tmp/err")' (want exit 2, /$pattern/)"; fi
}

# verify_says STATUS PATTERN [ARGS...] < input: status and stdout (or stderr for 2)
verify_says() {
    local status=$1 pattern=$2; shift 2
    "$qcount" --verify "$@" >"$tmp/vout" 2>"$tmp/verr"; local rc=$?
    local text; if [ "$status" = 2 ]; then text=$(cat "$tmp/verr"); else text=$(cat "$tmp/vout"); fi
    if [ $rc -eq "$status" ] && [ "$(printf '%s\n' "$text" | wc -l)" -eq 1 ] && printf '%s' "$text" | grep -qE "$pattern"; then ok
    else bad "verify $* -> rc=$rc out='$(cat "$tmp/vout")' err='$(cat "$tmp/verr")' (want $status, /$pattern/)"; fi
}

if [ "$big" = big ]; then
    for n in 10000000 10000001 10000002 10000003 10000004 10000005; do
        want "solve $n | verify" "$("$qcount" --solve $n | "$qcount" --verify)" valid
    done
    want "random 2*10^6" "$("$qcount" --solve 2000000 --random --seed 11 | "$qcount" --verify)" valid
    echo "$pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
fi

# ---- --list: counts, order, validity, classes (N = 1..10 against OEIS) ----
for n in $(seq 1 10); do
    total=$(awk -v n=$n '$1 == n {print $2}' "$known")
    unique=$(awk -v n=$n '$1 == n {print $3}' "$known")
    "$qcount" $n --list >"$tmp/list" 2>"$tmp/err" || bad "list $n failed"
    want "list $n: lines" "$(wc -l <"$tmp/list")" "$total"
    want "list $n: distinct" "$(sort -u "$tmp/list" | wc -l)" "$total"
    # lexicographic order of the column lists: sort by every field numerically
    keys=$(for k in $(seq 1 $n); do printf -- '-k%d,%dn ' $k $k; done)
    want "list $n: order" "$(sort -t' ' $keys "$tmp/list" | cmp -s - "$tmp/list" && echo sorted)" "sorted"
    if [ "$total" -gt 0 ]; then
        want "list $n: all valid" "$("$qcount" --verify <"$tmp/list")" \
             "$([ "$total" -eq 1 ] && echo valid || echo "valid: all $total placements")"
    fi
    "$qcount" $n --list --unique >"$tmp/uniq" 2>>"$tmp/err"
    want "unique $n: classes" "$(wc -l <"$tmp/uniq")" "$unique"
    want "unique $n: sizes sum to the total" "$(awk '{s += $NF} END {print s + 0}' "$tmp/uniq")" "$total"
    [ "$unique" -gt 0 ] && want "unique $n: each canonical one is listed" \
         "$(sed 's/ #.*//' "$tmp/uniq" | grep -cxFf - "$tmp/list")" "$unique"
    [ -s "$tmp/err" ] && bad "list $n: stderr '$(cat "$tmp/err")'"
done
want "list 8: first" "$("$qcount" 8 --list | head -n 1)" "1 5 8 6 3 7 2 4"
want "unique 8: 12 classes" "$("$qcount" 8 --list --unique | wc -l)" 12
want "unique 8: sizes" "$("$qcount" 8 --list --unique | awk '{print $NF}' | sort | uniq -c | tr -s ' ' | xargs)" "1 4 11 8"
want "unique 1: class of 1" "$("$qcount" 1 --list --unique)" "1 # class of 1"
want "list 2: nothing" "$("$qcount" 2 --list; echo "rc=$?")" "rc=0"

# ---- --limit ----
want "limit 5" "$("$qcount" 10 --list --limit 5)" "$("$qcount" 10 --list | head -n 5)"
want "limit past the end" "$("$qcount" 8 --list --limit 1000 | wc -l)" 92
want "limit with unique" "$("$qcount" 8 --list --unique --limit=3 | wc -l)" 3

# ---- board format: N lines of Q and . per board, a blank line between ----
"$qcount" 8 --list --format board --limit 3 >"$tmp/board"
want "board: lines" "$(wc -l <"$tmp/board")" $((3 * 8 + 2))
want "board: one Q per row" "$(grep -c '^\([.] \)*Q\( [.]\)*$' "$tmp/board")" 24
want "board: blank lines" "$(grep -c '^$' "$tmp/board")" 2
# read the boards back as column lists: the same as the default format
want "board: same solutions" \
     "$(awk 'NF == 0 {print line; line = ""; next} {for (i = 1; i <= NF; i++) if ($i == "Q") line = line (line == "" ? "" : " ") i}
             END {print line}' "$tmp/board")" "$("$qcount" 8 --list --limit 3)"
want "board unique: headers" "$("$qcount" 8 --list --unique --format board | grep -c '^# class of')" 12
want "board 1" "$("$qcount" 1 --list --format=board)" "Q"

# ---- a closed pipe ends the stream quietly: killed by SIGPIPE, status 141 ----
for n in 16 32; do
    first=$("$qcount" $n --list 2>"$tmp/err" | head -n 1; echo "status ${PIPESTATUS[0]}")
    want "list $n | head: status" "$(echo "$first" | tail -n 1)" "status 141"   # SIGPIPE
    want "list $n | head: one valid line" "$(echo "$first" | head -n 1 | "$qcount" --verify)" valid
    [ -s "$tmp/err" ] && bad "list $n | head: stderr '$(cat "$tmp/err")'"
done
want "list 16: first" "$("$qcount" 16 --list | head -n 1)" "1 3 5 2 13 9 14 12 15 6 16 7 4 11 8 10"
want "board | head" "$("$qcount" 20 --list --format board 2>&1 | head -c 100 >/dev/null; echo "${PIPESTATUS[0]}")" 141
want "solve | head" "$("$qcount" --solve 3000000 2>&1 | head -c 10 >/dev/null; echo "${PIPESTATUS[0]}")" 141
# other write errors are errors
"$qcount" 8 --list >/dev/full 2>"$tmp/err"; want "list > /dev/full" "$?:$(grep -c '^qcount: cannot write' "$tmp/err")" "2:1"

# ---- --solve: every N from 4 to 200, and big ones, through --verify ----
for n in $(seq 4 200); do "$qcount" --solve $n; done >"$tmp/solved"
want "solve 4..200" "$("$qcount" --verify <"$tmp/solved")" "valid: all 197 placements"
want "solve 4..200: N columns each" "$(awk '{print NF}' "$tmp/solved" | tr '\n' ' ')" "$(seq 4 200 | tr '\n' ' ')"
want "solve 8" "$("$qcount" --solve 8)" "2 4 6 8 3 1 7 5"
want "solve 8 (N first)" "$("$qcount" 8 --solve)" "2 4 6 8 3 1 7 5"
want "solve 1" "$("$qcount" --solve 1)" "1"
for n in 2 3; do
    "$qcount" --solve $n >"$tmp/out" 2>"$tmp/err"; rc=$?
    want "solve $n" "$rc:$(cat "$tmp/out"):$(cat "$tmp/err")" "1::qcount: no solution exists for N=$n"
done
for n in 1000000 1000001 1000002 1000003 1000004 1000005; do
    want "solve $n | verify" "$("$qcount" --solve $n | "$qcount" --verify)" valid
done

# ---- --solve --random: valid, reproducible, different across seeds ----
for n in $(seq 4 40); do for s in 1 2 3; do "$qcount" --solve $n --random --seed $s; done; done >"$tmp/random"
want "random 4..40 x 3 seeds" "$("$qcount" --verify <"$tmp/random")" "valid: all 111 placements"
a=$("$qcount" --solve 1000 --random --seed 7)
want "random: same seed" "$("$qcount" --solve 1000 --random --seed 7)" "$a"
want "random: --seed implies nothing else" "$("$qcount" --solve 1000 --seed=7 --random)" "$a"
b=$("$qcount" --solve 1000 --random --seed 8)
want "random: another seed" "$([ "$a" != "$b" ] && echo differs)" differs
want "random: another seed, valid" "$(echo "$b" | "$qcount" --verify)" valid
want "random: no seed, valid" "$("$qcount" --solve 500 --random | "$qcount" --verify)" valid
want "random 10^6" "$("$qcount" --solve 1000000 --random --seed 3 | "$qcount" --verify)" valid
want "random 1" "$("$qcount" --solve 1 --random)" 1

# ---- --verify ----
verify_says 0 '^valid$' 2 4 1 3
verify_says 0 '^valid$' "2 4 1 3"
verify_says 0 '^valid$' <<<"2 4 1 3"
verify_says 0 '^valid$' < <(printf '2 4 1 3')                # no final newline
verify_says 0 '^valid$' < <(printf '2 4 1 3\r\n')            # CRLF
verify_says 0 '^valid$' < <(printf '# a comment\n\n  2\t4 1 3   # the 4-board\n\n')
verify_says 0 '^valid: all 2 placements$' < <(printf '2 4 1 3\n3 1 4 2\n')
verify_says 0 '^valid$' 1
verify_says 1 '^invalid: the queens of rows 1 and 4 attack each other along column 2$' 2 4 1 2
verify_says 1 '^invalid: the queens of rows 1 and 2 attack each other along a diagonal \(columns 1 and 2\)$' 1 2 3 4
verify_says 1 '^invalid: the queens of rows 3 and 4 attack each other along a diagonal \(columns 3 and 2\)$' 4 1 3 2
# the first pair: the lowest attacked queen's row first (row 3 here), then the highest attacker
verify_says 1 'rows 2 and 3 attack' 5 1 2 8 4 3 6 7
verify_says 1 '^invalid: placement 2 \(line 3\): the queens of rows 1 and 2' < <(printf '2 4 1 3\n\n1 2\n')
verify_says 1 '^invalid: ' 2 1
verify_says 2 "^qcount: line 1: 'x' is not a column number" 1 x 3
verify_says 2 "^qcount: line 1: '3,1' is not a column number" "2 4 3,1"
verify_says 2 "^qcount: line 1: '-1' is not a column number" <<<"2 -1"
verify_says 2 '^qcount: line 1: column 0: columns are numbered from 1' 0 1
verify_says 2 '^qcount: line 1: column 5 of row 2 is off the board \(3 queens: columns 1 to 3\)$' 1 5 3
verify_says 2 '^qcount: line 2: column 99999999999999999999 is off any board' < <(printf '1\n1 99999999999999999999\n')
verify_says 2 '^qcount: no placement to verify' </dev/null
verify_says 2 '^qcount: no placement to verify' <<<"   # only a comment"
verify_says 2 "^qcount: line 1: '\[1,' is not a column number" "[1, 3]"

# ---- --svg: parsed, and rendered to PNG when rsvg-convert is there ----
"$qcount" 8 --svg "$tmp/q8.svg" >"$tmp/out" 2>"$tmp/err"
want "svg 8: quiet" "$?:$(cat "$tmp/out" "$tmp/err")" "0:"
python3 "$(dirname "$0")/svg_check.py" "$tmp/q8.svg" 8 92 && ok || bad "svg 8 check"
"$qcount" 8 --list --unique --svg "$tmp/u8.svg" --svg-per-row 5 --svg-square 30 \
    --svg-colors '#fff,#4a7,#008' >"$tmp/out" && ok || bad "svg unique 8"
want "svg with list: stdout" "$(wc -l <"$tmp/out")" 12
grep -q 'width="1296" height="' "$tmp/u8.svg" && ok || bad "svg per-row/square: $(grep -o 'width="[0-9]*"' "$tmp/u8.svg" | head -1)"
if command -v rsvg-convert >/dev/null; then
    rsvg-convert -o "$tmp/u8.png" "$tmp/u8.svg" && python3 "$(dirname "$0")/svg_check.py" "$tmp/u8.svg" 8 12 "$tmp/u8.png" \
        && ok || bad "svg unique 8 rendered"
    "$qcount" 6 --svg "$tmp/q6.svg" && rsvg-convert -o "$tmp/q6.png" "$tmp/q6.svg" \
        && python3 "$(dirname "$0")/svg_check.py" "$tmp/q6.svg" 6 4 "$tmp/q6.png" && ok || bad "svg 6 rendered"
else
    bad "rsvg-convert missing (tools/scripts/install-deps.sh installs librsvg2-bin)"
fi
"$qcount" 12 --svg "$tmp/q12.svg" --limit 7 && python3 "$(dirname "$0")/svg_check.py" "$tmp/q12.svg" 12 7 \
    && ok || bad "svg 12 limit 7"
# without --limit: 10000 boards drawn and a word on stderr; the listing
# beside it goes on; with --limit, as many as asked
"$qcount" 12 --svg "$tmp/q12u.svg" >"$tmp/out" 2>"$tmp/err"
want "svg 12 unlimited: status" $? 0
python3 "$(dirname "$0")/svg_check.py" "$tmp/q12u.svg" 12 10000 >/dev/null && ok || bad "svg 12: not 10000 boards"
grep -q '^qcount: --svg: drew the first 10000 solutions of more; --limit=K draws K$' "$tmp/err" \
    && [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "svg 12 unlimited: stderr '$(cat "$tmp/err")'"
"$qcount" 12 --svg "$tmp/q12u.svg" --list 2>/dev/null | wc -l | grep -qx "$(known_total 12)" \
    && ok || bad "svg 12 with --list: the listing stopped too"
"$qcount" 12 --svg "$tmp/q12u.svg" --limit 12000 2>"$tmp/err" \
    && python3 "$(dirname "$0")/svg_check.py" "$tmp/q12u.svg" 12 12000 >/dev/null && [ ! -s "$tmp/err" ] \
    && ok || bad "svg 12 --limit 12000"
"$qcount" 3 --svg "$tmp/q3.svg" && python3 "$(dirname "$0")/svg_check.py" "$tmp/q3.svg" 3 0 >/dev/null \
    && grep -q 'No solutions for N=3' "$tmp/q3.svg" && ok || bad "svg 3: no boards"

# ---- bad input: one line, exit 2 ----
expect_error "invalid limit '0'" 8 --list --limit 0
expect_error "invalid limit 'x'" 8 --list --limit x
expect_error "invalid limit '-1'" 8 --list --limit=-1
expect_error "unknown format 'grid'" 8 --list --format grid
expect_error "out of range" 33 --list
expect_error "invalid board size 'x'" x --list
expect_error "missing board size" --list
expect_error "--limit needs --list" 8 --limit 3
expect_error "--unique applies to counting and --list, not to --solve" --solve 8 --unique
expect_error "--unique applies to counting and --list, not to --verify" --verify --unique 1
expect_error "--format needs --list" 8 --format board
expect_error "--format needs --list" 8 --svg "$tmp/x.svg" --format board
expect_error "--svg-square needs --svg" 8 --list --svg-square 10
expect_error "--svg-per-row needs --svg" 8 --list --svg-per-row 10
expect_error "--svg-colors needs --svg" 8 --list --svg-colors red,blue,black
expect_error "invalid colours" 8 --svg "$tmp/x.svg" --svg-colors red,blue
expect_error "invalid colours" 8 --svg "$tmp/x.svg" --svg-colors 'red,blue,"/><script>'
expect_error "invalid colours" 8 --svg "$tmp/x.svg" --svg-colors '#12345,blue,black'
expect_error "invalid square size '1'" 8 --svg "$tmp/x.svg" --svg-square 1
expect_error "invalid boards per row '0'" 8 --svg "$tmp/x.svg" --svg-per-row 0
expect_error "empty file name" 8 --svg ""
expect_error "cannot create '$tmp/nodir/x.svg'" 8 --svg "$tmp/nodir/x.svg"
want "svg to a pipe" "$("$qcount" 8 --svg /dev/stdout 2>&1 | cat)" "qcount: cannot write the SVG to '/dev/stdout': not a regular file"
expect_error "invalid colours" 8 --svg "$tmp/x.svg" --svg-colors 'red,blue,'
expect_error "--list and --solve cannot be used together" 8 --list --solve
expect_error "--solve and --verify cannot be used together" --solve 8 --verify
expect_error "--list and --verify cannot be used together" 8 --list --verify
expect_error "--threads applies to counting, not to --list" 8 --list --threads 2
expect_error "--json applies to counting, not to --solve" --solve 8 --json
expect_error "--engine applies to counting, not to --verify" --verify --engine dlx 1
expect_error "--random needs --solve" 8 --random
expect_error "--seed needs --solve" 8 --seed 3
expect_error "invalid seed 'x'" --solve 8 --random --seed x
expect_error "invalid seed '18446744073709551616'" --solve 8 --random --seed 18446744073709551616
expect_error "missing board size N after --solve" --solve
expect_error "board size '0' out of range for --solve" --solve 0
expect_error "board size '1000000001' out of range for --solve" --solve 1000000001
expect_error "invalid board size '1e6'" --solve 1e6
expect_error "unexpected argument '9'" --solve 8 9
expect_error "needs an argument" 8 --list --limit

"$qcount" --help | grep -q -- '--verify' && ok || bad "--help mentions --verify"

report
