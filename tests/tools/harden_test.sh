#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# harden_test.sh — qcount under hostile conditions: every failure is one
# clean "qcount:" line (no terminal control bytes, no garbage numbers, no
# libgomp message), the right status, and nothing read or waited for
# forever.   Usage: harden_test.sh QCOUNT CASE
#   CASE: options (every option fed =values, control bytes, long words)
#         | input (escaping, endless --verify input, launcher variables,
#           write errors and closed pipes, a ^C at once, stale temporaries)
#         | combos (every combination the man page calls an error, refused
#           with one line; the harmless ones accepted; words that mislead)
#         | streams (closed stdin, stdout or stderr: never one of qcount's
#           files; an SVG not written whole is not left behind)
#         | limits (ulimit -v: out of memory, threads that cannot start;
#           not in the sanitizer builds, whose shadow memory needs more)
set -u
qcount=$1 case=$2
. "$(dirname "$0")/test_lib.sh"
case $qcount in /*) ;; *) qcount=$PWD/$qcount ;; esac
cd "$tmp"   # --svg=VALUE writes the file VALUE: here, never in the tree

# one_clean_line STATUS PATTERN WHAT: the last run ($tmp/out, $tmp/err, $rc)
# ended with STATUS and one stderr line matching PATTERN, free of control
# bytes (ESC, BEL, C1 0x80-0x9f raw or in UTF-8, any C0 but the newline)
one_clean_line() {
    local status=$1 pattern=$2 what=$3
    if [ "$rc" -eq "$status" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] \
       && grep -qE "^qcount: $pattern" "$tmp/err" \
       && ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f\x80-\x9f]' <(sed 's/\xc2[\xa0-\xbf]//g' "$tmp/err"); then ok
    else bad "$what: rc=$rc (want $status) err='$(head -c 400 "$tmp/err" | od -c | head -5)' (want /$pattern/)"; fi
}
run() { timeout 20 "$qcount" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }

case $case in
options)
    # the long options, from --help
    longs=$("$qcount" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
    long_word=$(head -c 5000 /dev/zero | tr '\0' 'x')
    values=("" "=" "=1" "=yes" $'=\e[31mX\a' $'=a\nb' $'=\x9b' $'=\xc2\x9b' "=$long_word" "=-1" "=99999999999999999999999")
    for o in $longs; do
        for v in "${values[@]}"; do
            timeout 20 "$qcount" "$o$v" 8 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
            # accepted (a count, a list, help...) or refused with one clean line
            if [ $rc -eq 0 ]; then ok   # --stats and --progress speak on stderr
            elif [ $rc -eq 1 ]; then one_clean_line $rc '' "qcount $o<value> 8"
            else one_clean_line 2 '' "qcount $(printf %q "$o$v") 8"; fi
        done
    done
    # options that take no value, given one: named as typed
    for o in --no-bind --list --json --progress --solve --verify --random --unique --stats --quiet; do
        run "$o=1" 8
        one_clean_line 2 "option '$o' takes no value$" "$o=1"
    done
    run --jso=1 8;  one_clean_line 2 "option '--jso' takes no value$" "--jso=1 (abbreviated)"
    run --s 8;      one_clean_line 2 "ambiguous option '--s'" "--s"
    run --frob=x 8; one_clean_line 2 "unknown option '--frob' \\(see --help\\)$" "--frob=x"
    run -qz 8;      one_clean_line 2 "unknown option '-z'" "-qz"
    run $'-\e' 8;   one_clean_line 2 "unknown option '-\\\\x1b'" "-ESC"
    run 8 --threads; one_clean_line 2 "option '--threads' needs an argument$" "--threads at the end"
    run 8 -t;       one_clean_line 2 "option '-t' needs an argument$" "-t at the end"
    # control bytes and long words where a value or N is expected
    run "$long_word";   one_clean_line 2 "invalid board size 'x+" "a 5000-letter N"
    run $'8\e[2J';      one_clean_line 2 "invalid board size '8\\\\x1b\\[2J'" "N with ESC"
    run -e $'\x9bq' 8;  one_clean_line 2 "unknown engine '\\\\x9bq'" "a raw C1 byte"
    run -e $'\xc2\x9b' 8; one_clean_line 2 "unknown engine '\\\\xc2\\\\x9b'" "C1 in UTF-8"
    run -e 'été' 8;     one_clean_line 2 "unknown engine 'été'" "UTF-8 text passes unchanged"
    ;;
input)
    # ---- quoted input is escaped ----
    printf '\e[31mRED\x07\n' | "$qcount" --verify >"$tmp/out" 2>"$tmp/err"; rc=$?
    one_clean_line 2 "line 1: '\\\\x1b\\[31mRED\\\\x07' is not a column number" "verify: ESC and BEL on stdin"
    run --verify $'\e]0;title\a'; one_clean_line 2 "line 1: '\\\\x1b\\]0;title\\\\x07'" "verify: OSC in a word"
    run --verify $'\x9b'; one_clean_line 2 "line 1: '\\\\x9b'" "verify: a raw C1 byte"
    run 8 --svg $'/nonexistent/\e[31mX.svg'; one_clean_line 2 "cannot create '/nonexistent/\\\\x1b\\[31mX.svg'" "svg: ESC in the name"
    run 8 --svg $'/nonexistent/a\nb.svg'; one_clean_line 2 "cannot create '/nonexistent/a\\\\nb.svg'" "svg: a newline in the name"
    run 8 --checkpoint $'/nonexistent/a\nb\e'; one_clean_line 2 "ledger '/nonexistent/a\\\\nb\\\\x1b'" "ledger: control bytes in the name"
    # ---- endless or binary --verify input: refused at once ----
    timeout 10 "$qcount" --verify </dev/zero >"$tmp/out" 2>"$tmp/err"; rc=$?
    one_clean_line 2 "line 1: a NUL byte" "verify </dev/zero"
    timeout 10 bash -c 'yes 7 | tr -d "\n" | "$1" --verify' _ "$qcount" >"$tmp/out" 2>"$tmp/err"; rc=$?
    one_clean_line 2 "line 1: column 7{28}\\.\\.\\. is off any board" "verify: endless digits"
    timeout 10 bash -c 'yes x | tr -d "\n" | "$1" --verify' _ "$qcount" >"$tmp/out" 2>"$tmp/err"; rc=$?
    one_clean_line 2 "line 1: 'x{28}\\.\\.\\.' is not a column number" "verify: an endless word"
    # ---- launcher variables without their job size: a plain count ----
    for v in OMPI_COMM_WORLD_RANK=3 OMPI_COMM_WORLD_RANK=1 PMI_RANK=abc PMIX_RANK=2 \
             "OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=1" "PMI_RANK=0 PMI_SIZE=x"; do
        env $v "$qcount" 0 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
        one_clean_line 2 "board size '0' out of range" "$v qcount 0"
        env $v timeout 20 "$qcount" 12 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
        [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 14200 ] && [ ! -s "$tmp/err" ] && ok \
            || bad "$v qcount 12: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"
    done
    # ---- srun's variables for a step of several tasks without MPI: task 0
    # refuses with one line, the others silently; QCOUNT_MPI=0 or one task counts
    env SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0 "$qcount" 12 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
    one_clean_line 2 "srun started 2 tasks without MPI, .*srun --mpi=pmix" "srun task 0 of 2"
    env SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=1 "$qcount" 12 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
    [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] && ok \
        || bad "srun task 1 of 2: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"
    for v in "SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0 QCOUNT_MPI=0" "SLURM_STEP_NUM_TASKS=1 SLURM_PROCID=0"; do
        env $v timeout 20 "$qcount" 12 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
        [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 14200 ] && [ ! -s "$tmp/err" ] && ok \
            || bad "$v qcount 12: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"
    done
    # ---- write errors: one line, status 2 ----
    for args in --help --version 8 "8 --list" "--solve 50" "--verify 2 4 1 3"; do
        "$qcount" $args >/dev/full 2>"$tmp/err" </dev/null; rc=$?
        one_clean_line 2 "cannot write" "qcount $args >/dev/full"
    done
    "$qcount" --version >&- 2>"$tmp/err"; rc=$?
    one_clean_line 2 "cannot write to stdout: Bad file descriptor" "--version >&-"
    # ---- a closed pipe: killed by SIGPIPE, silently, in every mode ----
    for args in "14 --list" "--solve 3000000"; do
        "$qcount" $args 2>"$tmp/err" </dev/null | head -c 1 >/dev/null; status=${PIPESTATUS[0]}
        [ "$status" -eq 141 ] && [ ! -s "$tmp/err" ] && ok \
            || bad "qcount $args | head -c 1: status $status err='$(cat "$tmp/err")' (want 141, silent)"
    done
    # --verify writes once, at the end: the reader is gone by then
    (sleep 0.3; echo 2 4 1 3) | "$qcount" --verify 2>"$tmp/err" | true; status=${PIPESTATUS[1]}
    [ "$status" -eq 141 ] && [ ! -s "$tmp/err" ] && ok \
        || bad "qcount --verify | true: status $status err='$(cat "$tmp/err")' (want 141, silent)"
    # ---- SIGINT at once: the handlers are there before the plan ----
    # (a background job starts with SIGINT ignored: env gives it back)
    for i in 1 2 3; do
        env --default-signal=INT "$qcount" --engine halving -t 1 17 >"$tmp/out" 2>"$tmp/err" & pid=$!
        until [ "$(cat /proc/$pid/comm 2>/dev/null)" = qcount ] || ! kill -0 $pid 2>/dev/null; do :; done   # exec'd
        sleep 0.00$i; kill -INT $pid; wait $pid; rc=$?
        if [ $rc -eq 130 ] && grep -q "^qcount: stopped by SIGINT" "$tmp/err"; then ok
        elif [ $rc -eq 130 ] && [ ! -s "$tmp/err" ]; then ok   # before main: the default action
        else bad "SIGINT ${i} ms in: rc=$rc err='$(cat "$tmp/err")'"; fi
    done
    # ---- a ledger's stale temporaries are swept, fresh ones kept ----
    mkdir "$tmp/d"; : >"$tmp/d/L.new-123"; : >"$tmp/d/L.new-99"; : >"$tmp/d/L.new-1x"; : >"$tmp/d/M.new-7"
    touch -d '-2 min' "$tmp/d/L.new-123" "$tmp/d/L.new-1x" "$tmp/d/M.new-7"
    run 8 --checkpoint "$tmp/d/L"
    [ $rc -eq 0 ] && [ "$(cd "$tmp/d" && echo *)" = "L L.new-1x L.new-99 M.new-7" ] && ok \
        || bad "stale ledger temporaries: rc=$rc left: $(cd "$tmp/d" && echo *)"
    # ---- a long file name: shown cut in the middle, the reason kept ([brief paths]) ----
    long=$tmp/$(printf 'ddddddddd/%.0s' $(seq 300))L      # 3,000 bytes, under PATH_MAX
    run 8 --checkpoint "$long"
    one_clean_line 2 "ledger '$tmp/[d/]+\.\.\.[d/]+/L': cannot [a-z ]+: No such file or directory$" \
        "a 3,000-byte ledger name"
    [ "$(wc -c <"$tmp/err")" -lt 300 ] && ok || bad "a 3,000-byte ledger name: $(wc -c <"$tmp/err") bytes"
    run status "$tmp/$(printf 'x\001x\001/%.0s' $(seq 600))L.ledger"
    one_clean_line 2 "ledger '.*[\\]x01.*\.\.\..*[\\]x01/L\.ledger': cannot open: No such file or directory$" \
        "a 3,000-byte ledger name of control bytes"
    # ---- an SVG that cannot be written whole is removed (root: a tmpfs) ----
    mkdir "$tmp/full"
    if mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
        run 10 --svg "$tmp/full/a.svg"
        one_clean_line 2 "cannot write '.*a.svg': No space left on device" "svg on a full disk"
        [ ! -e "$tmp/full/a.svg" ] && ok || bad "a partial SVG was left: $(ls -l "$tmp/full")"
        umount "$tmp/full"
    else
        echo "harden_test: not root, the full-disk SVG case skipped"
    fi
    ;;
combos)
    # ---- options of a count given to another mode: one line, status 2,
    # nothing made (no ledger, no output) ----
    while IFS='|' read -r pattern args; do
        rm -f L; run $args
        one_clean_line 2 "$pattern" "qcount $args"
        [ ! -e L ] && [ ! -s "$tmp/out" ] && ok || bad "qcount $args: made L or wrote stdout"
    done <<'EOF'
--checkpoint applies to counting, not to --list$|8 --list --checkpoint L
--checkpoint applies to counting, not to --svg$|8 --svg x.svg --checkpoint L
--checkpoint applies to counting, not to --solve$|--solve 8 --checkpoint L
--checkpoint applies to counting, not to --verify$|--verify --checkpoint L 2 4 1 3
--checkpoint applies to counting, not to --verify$|--checkpoint=L --verify
--stats applies to counting, not to --solve$|--stats --solve 8
--stats applies to counting, not to --list$|-s 8 --list
--stats applies to counting, not to --verify$|--verify -s 1
--progress applies to counting, not to --list$|8 --list --progress
--progress applies to counting, not to --solve$|--progress --solve 8
--progress applies to counting, not to --verify$|--quiet --progress --verify 1
--threads applies to counting, not to --list$|-t 2 8 --list
--json applies to counting, not to --solve$|--json --solve 8
--engine applies to counting, not to --verify$|-e join --verify 1
--check applies to counting, not to --svg$|-c 8 --svg x.svg
--smt applies to counting, not to --list$|--smt 8 --list
--no-bind applies to counting, not to --solve$|--no-bind --solve 8
--seed needs --random|--solve 8 --seed 3
--seed needs --solve$|8 --seed 3
--random needs --solve$|8 --random
--unique applies to counting and --list, not to --solve$|-u --solve 8
--list and --solve cannot be used together$|8 --list --solve
--svg and --verify cannot be used together$|--svg x.svg --verify
--limit needs --list or --svg$|8 --limit 3
--format needs --list$|8 --format board
--format=bfile applies to counting, not to --list$|8 --list --format bfile
--json and --format=bfile cannot be used together$|--json --format bfile 8
--checkpoint takes one board size N, not the range '4-6'$|--checkpoint L 4-6
EOF
    [ ! -e x.svg ] && ok || bad "a refused --svg made x.svg"
    # ---- harmless redundancy, accepted: --progress and --quiet, the last wins ----
    run 8 --list --quiet --limit 1
    [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = "1 5 8 6 3 7 2 4" ] && ok || bad "--list --quiet: rc=$rc"
    run --quiet --solve 8 --progress --quiet
    [ $rc -eq 0 ] && [ -s "$tmp/out" ] && ok || bad "--progress --quiet with --solve: rc=$rc $(cat "$tmp/err")"
    run 12 --quiet --progress
    [ $rc -eq 0 ] && grep -q 'units' "$tmp/err" && ok || bad "--quiet --progress: the last (--progress) must win"
    run 12 --progress --quiet
    [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && ok || bad "--progress --quiet: the last (--quiet) must win"
    # ---- words that must not mislead ----
    run -u-8;   one_clean_line 2 "unknown option '-' in '-u-8' \\(see --help\\)$" "-u-8"
    run -u- 8;  one_clean_line 2 "unknown option '-' in '-u-'" "-u- 8"
    run - 8;    one_clean_line 2 "invalid board size '-'" "- 8 (the '-' is at fault)"
    run x 8;    one_clean_line 2 "invalid board size 'x'" "x 8"
    run 8 9;    one_clean_line 2 "unexpected argument '9'" "8 9"
    QCOUNT_ISA=garbage timeout 20 "$qcount" --help >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && grep -q '^Usage: qcount' "$tmp/out" && ok || bad "QCOUNT_ISA=garbage --help: rc=$rc"
    QCOUNT_ISA=garbage timeout 20 "$qcount" 8 >"$tmp/out" 2>"$tmp/err"; rc=$?
    one_clean_line 2 "QCOUNT_ISA=garbage: unknown level" "QCOUNT_ISA=garbage qcount 8"
    # ---- OpenMP variables qcount cannot take: its own line, never libgomp's ----
    while IFS='|' read -r var value; do
        env "$var=$value" timeout 20 "$qcount" 8 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
        one_clean_line 2 "invalid $var '" "$var='$value' qcount 8"
        # other modes do not use them: said nothing, by libgomp either
        env "$var=$value" timeout 20 "$qcount" --solve 8 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
        [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && ok || bad "$var='$value' qcount --solve 8: rc=$rc err='$(cat "$tmp/err")'"
    done <<'EOF'
OMP_PROC_BIND|bogus
OMP_PROC_BIND|close,,spread
OMP_PROC_BIND|true,close
OMP_WAIT_POLICY|sometimes
OMP_STACKSIZE|12Q
OMP_STACKSIZE|0
OMP_STACKSIZE|99999999999999999999G
OMP_NUM_THREADS|-3
EOF
    for v in "OMP_PROC_BIND=spread, close" OMP_PROC_BIND=TRUE OMP_WAIT_POLICY=Passive \
             "OMP_STACKSIZE= 4 M " OMP_STACKSIZE=65536 OMP_PROC_BIND= OMP_STACKSIZE=; do
        env "$v" timeout 20 "$qcount" 8 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
        [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 92 ] && [ ! -s "$tmp/err" ] && ok \
            || bad "$v qcount 8: rc=$rc err='$(cat "$tmp/err")'"
    done
    OMP_NUM_THREADS=x timeout 20 "$qcount" 8 -t 2 >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
    [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 92 ] && [ ! -s "$tmp/err" ] && ok || bad "OMP_NUM_THREADS=x with -t 2: rc=$rc"
    ln -s /nonexistent/ledger dangling; run 8 --checkpoint dangling
    one_clean_line 2 "ledger 'dangling': a symbolic link to a missing file" "a dangling link as the ledger"
    [ -L dangling ] && [ ! -e /nonexistent/ledger ] && ok || bad "the dangling ledger link was changed"
    ;;
streams)
    # ---- a closed stderr: the ledger never becomes fd 2 ----
    is_ledger() { [ "$(head -c 8 "$1")" = QCLEDGER ]; }
    rm -f L; "$qcount" 12 --checkpoint L --progress 2>&- >"$tmp/out"; rc=$?
    [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 14200 ] && is_ledger L && ok \
        || bad "12 --checkpoint L --progress 2>&-: rc=$rc out='$(cat "$tmp/out")' L starts '$(head -c 20 L | od -c | head -1)'"
    run 12 --checkpoint L
    [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 14200 ] && [ ! -s "$tmp/err" ] && ok \
        || bad "the ledger of a run with stderr closed, read back: rc=$rc err='$(cat "$tmp/err")'"
    rm -f L; OMP_THREAD_LIMIT=1 "$qcount" 12 -t 4 --checkpoint L 2>&- >"$tmp/out"; rc=$?
    [ $rc -eq 0 ] && is_ledger L && ok || bad "the thread warning with stderr closed landed in the ledger (rc=$rc)"
    # stopped half-way with stderr closed: the rerun resumes the same ledger
    rm -f L; "$qcount" 15 -e halving -t 1 --checkpoint L --progress 2>&- >/dev/null & pid=$!
    sleep 0.5; kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
    run 15 -e halving --checkpoint L
    [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 2279184 ] && ok \
        || bad "a killed run with stderr closed, resumed: rc=$rc err='$(cat "$tmp/err")'"
    # ---- a closed stdout: the SVG's temporary never becomes fd 1 ----
    "$qcount" 8 --svg - --limit 1 >&- 2>"$tmp/err"; rc=$?
    one_clean_line 2 "cannot write to stdout: Bad file descriptor" "--svg - --limit 1 >&-"
    [ ! -e "standard output" ] && ok || bad "--svg - >&- made a file 'standard output'"
    rm -f x.svg; "$qcount" 8 --list --limit 3 --svg x.svg >&- 2>"$tmp/err"; rc=$?
    one_clean_line 2 "cannot write to stdout: Bad file descriptor" "--list --svg x.svg >&-"
    [ ! -e x.svg ] && ok || bad "--list --svg x.svg >&- left x.svg: $(head -c 80 x.svg)"
    # an SVG already there is kept when the new one fails
    echo old >x.svg; "$qcount" 8 --list --svg x.svg >&- 2>/dev/null
    [ "$(cat x.svg)" = old ] && [ "$(echo x.svg*)" = x.svg ] && ok || bad "a failed --svg replaced x.svg: $(echo x.svg*)"
    # through a symbolic link (to a file still missing): the file it names
    ln -s pic.svg link.svg; run 6 --svg link.svg
    [ $rc -eq 0 ] && [ -L link.svg ] && grep -q '</svg>' pic.svg && [ -z "$(ls | grep '\.new-')" ] && ok \
        || bad "--svg through a link: rc=$rc $(ls -l)"
    # ---- a closed stdin: --verify says so; a count does not care ----
    "$qcount" --verify <&- >"$tmp/out" 2>"$tmp/err"; rc=$?
    one_clean_line 2 "cannot read stdin: Bad file descriptor" "--verify <&-"
    "$qcount" 10 <&- >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 724 ] && ok || bad "qcount 10 <&-: rc=$rc"
    # all three closed: nothing to say, the ledger still whole
    rm -f L; "$qcount" 11 --checkpoint L --progress <&- >&- 2>&-; rc=$?
    [ $rc -eq 2 ] && is_ledger L && ok || bad "all closed: rc=$rc (want 2: stdout unwritable)"
    ;;
limits)
    # out of memory for the books or a unit: 0..units counted, never garbage
    for i in 1 2 3 4 5 6; do
        (ulimit -v 8000; exec "$qcount" 16 --engine halving -t 1) >"$tmp/out" 2>"$tmp/err"; rc=$?
        k=$(sed -n 's/.*(\([0-9]*\) of 9844 were counted).*/\1/p' "$tmp/err")
        if [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 14772512 ]; then ok
        elif [ -n "$k" ] && [ "$k" -le 9844 ]; then one_clean_line 2 "out of memory" "ulimit -v 8000 qcount 16"
        else bad "ulimit -v 8000 qcount 16: rc=$rc err='$(cat "$tmp/err")'"; fi
    done
    # threads that cannot start: fewer threads, said, or one clean line
    for lim in 15000 30000 60000; do
        for t in "" "-t 8"; do
            (ulimit -v $lim; exec "$qcount" 16 $t) >"$tmp/out" 2>"$tmp/err"; rc=$?
            if grep -q libgomp "$tmp/err"; then bad "ulimit -v $lim qcount 16 $t: libgomp spoke: $(cat "$tmp/err")"
            elif [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 14772512 ]; then ok
            else
                # the note on fewer threads, then the error
                sed -i '/^qcount: the system let only [0-9]* of the 8 threads start; counted on [0-9]*$/d' "$tmp/err"
                one_clean_line 2 "out of memory" "ulimit -v $lim qcount 16 $t"
            fi
        done
    done
    # ten at once, each short of room for its threads: each counts on the
    # threads that started (qcount's note) or stops with one line, never
    # with libgomp's message and status 1
    for round in 1 2; do
        pids=()
        for i in 0 1 2 3 4 5 6 7 8 9; do
            (ulimit -v $((30000 + 3000 * i)); exec "$qcount" 10 -t 4096) >"$tmp/out$i" 2>"$tmp/err$i" &
            pids[i]=$!
        done
        for i in 0 1 2 3 4 5 6 7 8 9; do
            wait "${pids[i]}"; rc=$?
            cp "$tmp/err$i" "$tmp/err"
            if grep -q libgomp "$tmp/err"; then bad "ten at once, -t 4096: libgomp spoke: $(cat "$tmp/err")"
            elif [ $rc -eq 0 ] && [ "$(cat "$tmp/out$i")" = 724 ]; then
                grep -qv "^qcount: the system let only [0-9]* of the 4096 threads start; counted on [0-9]*$" "$tmp/err" \
                    && bad "ten at once, -t 4096: $(cat "$tmp/err")" || ok
            else
                sed -i '/^qcount: the system let only [0-9]* of the 4096 threads start; counted on [0-9]*$/d' "$tmp/err"
                one_clean_line 2 "out of memory" "ten at once: ulimit -v $((30000 + 3000 * i)) qcount 10 -t 4096"
            fi
        done
    done
    (ulimit -v 40000; exec "$qcount" 14 -t 64) >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 0 ] && [ "$(cat "$tmp/out")" = 365596 ] && grep -q "^qcount: the system let only [0-9]* of the 64 threads start" "$tmp/err" \
        && ok || bad "ulimit -v 40000 qcount 14 -t 64: rc=$rc out='$(cat "$tmp/out")' err='$(cat "$tmp/err")'"
    ;;
*)
    echo "harden_test.sh: unknown case '$case'" >&2
    exit 2
    ;;
esac
report "harden_test $case"
