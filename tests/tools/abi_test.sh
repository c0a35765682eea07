#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# abi_test.sh — libqcount.so's ABI: the names it exports (nm -D) are
# exactly those listed in tools/packaging/libqcount.map, which are exactly
# the functions the public headers declare; its soname is libqcount.so.MAJOR;
# and the public headers compile clean under -Wpedantic -Werror as C99,
# C17 and C++11, where the renamed members answer to their former names.
# Usage: abi_test.sh LIBQCOUNT_SO SOURCE_DIR NM C_COMPILER CXX_COMPILER VERSION_MAJOR
set -u
so=$1 src=$2 nm=$3 cc=$4 cxx=$5 major=$6
. "$(dirname "$0")/test_lib.sh"
map=$src/tools/packaging/libqcount.map
include=$src/core/include

# the exported functions and data, defined here (not the version node)
exported=$("$nm" -D --defined-only "$so" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u)
listed=$(sed -n '/global:/,/local:/p' "$map" | grep -Eo '^ *qc_[a-z0-9_]+;' | tr -d ' ;' | sort)
# functions declared in the public headers, comments removed
declared=$(cat "$include"/qcount.h "$include"/qcount_solutions.h \
    | perl -0pe 's{/\*.*?\*/}{}gs' | grep -Eo '\bqc_[a-z0-9_]+ *\(' | tr -d ' (' | sort -u)
[ "$(wc -l <<<"$listed")" -ge 30 ] && ok || bad "too few names in libqcount.map: $listed"
[ "$exported" = "$listed" ] && ok \
    || { bad "exported names differ from libqcount.map (< map, > library):"; diff <(echo "$listed") <(echo "$exported"); }
[ "$listed" = "$declared" ] && ok \
    || { bad "libqcount.map differs from the public headers (< headers, > map):"; diff <(echo "$declared") <(echo "$listed"); }
# every exported name in the version node QCOUNT_0
unversioned=$("$nm" -D --defined-only --with-symbol-versions "$so" 2>/dev/null \
    | awk '$2 != "A" && $3 !~ /@@?QCOUNT_0$/ { print $3 }')
[ -z "$unversioned" ] && ok || bad "exported outside QCOUNT_0: $unversioned"
soname=$(readelf -d "$so" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libqcount.so.$major" ] && ok || bad "soname '$soname', not libqcount.so.$major"

# compiles_everywhere FILE.c WHAT: FILE compiles clean under -Wpedantic
# -Werror as C99, C17 and (a copy) C++11; one check each
compiles_everywhere() {
    local std
    for std in c99 c17; do
        "$cc" -std=$std -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$include" "$1" 2>"$tmp/c.err" \
            && ok || { bad "$2 under $cc -std=$std -Wpedantic:"; cat "$tmp/c.err"; }
    done
    cp "$1" "${1%.c}.cpp"
    "$cxx" -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$include" "${1%.c}.cpp" 2>"$tmp/cxx.err" \
        && ok || { bad "$2 under $cxx -std=c++11 -Wpedantic:"; cat "$tmp/cxx.err"; }
}

# the headers under -Wpedantic, alone and together, in C and C++
printf '#include <qcount.h>\n#include <qcount_solutions.h>\nint main(void) { return qc_version() == 0; }\n' >"$tmp/h.c"
compiles_everywhere "$tmp/h.c" "the headers"
# the members' former names (QC_ALSO_NAMED) are the same storage as their
# names (the same offset and size: members of one union), in each of those
# languages, and leave the layout as it was; checked as the code compiles
# (so also in a cross build, whose programs cannot run here)
cat >"$tmp/alias.c" <<'C'
#include <stddef.h>
#include <qcount.h>
#define SAME(t, a, b) (offsetof(t, a) == offsetof(t, b) && sizeof(((t *)0)->a) == sizeof(((t *)0)->b))
typedef char tally_ok[SAME(qc_tally, steps, placements) && sizeof(qc_tally) == 32 ? 1 : -1];
typedef char progress_ok[SAME(qc_progress, steps, placements) ? 1 : -1];
typedef char result_ok[SAME(qc_result, steps, placements) && SAME(qc_result, steps_resumed, placements_resumed) ? 1 : -1];
int main(void)
{
    qc_tally t;
    t.solutions = 0;
    t.steps = 7;
    return t.placements != 7;
}
C
compiles_everywhere "$tmp/alias.c" "the former member names"
report abi
