#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# install_test.sh — qcount as a package: `cmake --install` into a scratch
# prefix puts every file in place and nothing else; the embedding example
# builds against that prefix through pkg-config and through
# find_package(qcount) and counts; `cpack -G DEB` packs the same files and
# the unpacked package counts; the man page renders without a warning and,
# like the bash completion, names every option of `qcount --help`.
# In a build with MPI, the installed and the packaged program also count
# under mpirun, loading their MPI module from lib/qcount/, and the installed
# qcount-mpirun runs them.
# Usage: install_test.sh BUILD_DIR SOURCE_DIR VERSION LIBDIR C_COMPILER
set -u
build=$1 src=$2 version=$3 libdir=$4 cc=$5
. "$(dirname "$0")/test_lib.sh"
prefix=$tmp/prefix
major=${version%%.*}
# the MPI module, in a build with MPI: installed in lib/qcount/, loaded
# from there by the installed program under mpirun
module= launcher=
[ -f "$build/lib/qcount/libqcount_mpi.so" ] && module=$libdir/qcount/libqcount_mpi.so launcher=bin/qcount-mpirun

# ---- the install: every expected file, nothing else
if cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then ok; else
    bad "cmake --install"; cat "$tmp/install.log"; fi
files() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort); }
expected=$(sed '/^$/d' <<EOF2 | sort
bin/qcount
$launcher
include/qcount.h
include/qcount_solutions.h
$libdir/libqcount.a
$libdir/libqcount.so
$libdir/libqcount.so.$major
$libdir/libqcount.so.$version
$libdir/pkgconfig/qcount.pc
$libdir/cmake/qcount/qcountConfig.cmake
$libdir/cmake/qcount/qcountConfigVersion.cmake
$libdir/cmake/qcount/qcountTargets.cmake
$libdir/cmake/qcount/qcountTargets-CONFIG.cmake
$libdir/cmake/qcount/qcountStaticTargets.cmake
$libdir/cmake/qcount/qcountStaticTargets-CONFIG.cmake
$module
share/bash-completion/completions/qcount
share/doc/libqcount$major/changelog.Debian.gz
share/doc/libqcount$major/copyright
share/doc/libqcount-dev/changelog.Debian.gz
share/doc/libqcount-dev/copyright
share/doc/qcount/changelog.Debian.gz
share/doc/qcount/copyright
${module:+share/doc/qcount-mpi/changelog.Debian.gz}
${module:+share/doc/qcount-mpi/copyright}
${module:+share/man/man1/qcount-mpirun.1.gz}
share/man/man1/qcount.1.gz
share/qcount/qcount-parts.slurm
${module:+share/qcount/qcount.slurm}
EOF2
)
got=$(files "$prefix" | sed -E 's/(qcount(Static)?Targets)-[a-z]*\.cmake$/\1-CONFIG.cmake/')
if [ "$got" = "$expected" ]; then ok; else
    bad "installed files differ from the expected list:"; diff <(echo "$expected") <(echo "$got"); fi
for h in qcount.h qcount_solutions.h; do
    cmp -s "$src/core/include/$h" "$prefix/include/$h" && ok || bad "include/$h is not core/include/$h"
done
gzip -dc "$prefix/share/man/man1/qcount.1.gz" | cmp -s "$src/tools/man/qcount.1" - && ok || bad "installed man page differs"
if [ -n "$launcher" ]; then
    [ -x "$prefix/$launcher" ] && cmp -s "$src/tools/scripts/qcount-mpirun" "$prefix/$launcher" \
        && ok || bad "$launcher is not tools/scripts/qcount-mpirun, executable"
fi
for script in qcount-parts.slurm ${module:+qcount.slurm}; do
    cmp -s "$src/tools/scripts/$script" "$prefix/share/qcount/$script" && ok \
        || bad "share/qcount/$script is not tools/scripts/$script"
done
so=$prefix/$libdir/libqcount.so
[ "$(readlink "$so")" = "libqcount.so.$major" ] && [ "$(readlink "$so.$major")" = "libqcount.so.$version" ] \
    && ok || bad "libqcount.so symlinks: $(readlink "$so") $(readlink "$so.$major")"
dyn=$(readelf -d "$so.$version")
grep -q "SONAME.*\[libqcount.so.$major\]" <<<"$dyn" && ok || bad "soname is not libqcount.so.$major"
grep -q "NEEDED.*libmpi" <<<"$dyn" && bad "libqcount.so needs libmpi" || ok
# the engines' inner names (qck_, qcj_, qct_, dlx_) stay inside the library
inner=$(nm -D --defined-only "$so.$version" | awk '$3 !~ /^qc_/ && $2 != "A" { print $3 }')
[ -z "$inner" ] && ok || bad "libqcount.so exports more than qc_*: $inner"
nm "$prefix/$libdir/libqcount.a" 2>/dev/null | grep -q ' T qc_run$' && ok || bad "libqcount.a lacks qc_run"
out=$("$prefix/bin/qcount" 12 2>&1) && [ "$out" = 14200 ] && ok || bad "installed qcount 12 -> '$out'"
out=$("$prefix/bin/qcount" --version 2>&1) && [ "$(head -n 1 <<<"$out")" = "qcount $version" ] \
    && grep -q '^License MIT' <<<"$out" && ok || bad "--version -> '$out'"
ldd "$prefix/bin/qcount" | grep -q libmpi && bad "the installed qcount links libmpi" || ok
# under a launcher the installed program finds its module from its own path
mpirun=$(command -v mpirun)
run_mpi() {   # run_mpi QCOUNT [LAUNCHER]: 2 ranks count N=12
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 60 \
        "${2:-$mpirun}" --oversubscribe -np 2 "$1" -t 1 12 2>"$tmp/mpi.err"
}
if [ -n "$module" ] && [ -n "$mpirun" ]; then
    out=$(run_mpi "$prefix/bin/qcount") && [ "$out" = 14200 ] && ok \
        || bad "installed qcount under mpirun -> '$out' $(cat "$tmp/mpi.err")"
    out=$(MPIRUN=$mpirun run_mpi "$prefix/bin/qcount" "$prefix/$launcher") && [ "$out" = 14200 ] && ok \
        || bad "installed qcount under qcount-mpirun -> '$out' $(cat "$tmp/mpi.err")"
fi

# ---- the embedding example against the prefix, both ways: N=12 and its
# progress lines on stderr
run_example() {   # run_example HOW PROGRAM
    local out
    out=$("$2" 12 2 2>"$tmp/$1.err") && [ "$out" = 14200 ] && grep -q '^progress: 0 of ' "$tmp/$1.err" \
        && grep -Eq '^progress: ([0-9]+) of \1 units' "$tmp/$1.err" && ok \
        || { bad "example built by $1: '$out'"; cat "$tmp/$1.err"; }
    "$2" 33 >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "example built by $1 takes N=33"
}
cp -r "$src/examples" "$tmp/ex-pc"
if PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig make -C "$tmp/ex-pc" CC="$cc" >"$tmp/pc.log" 2>&1; then
    ok; run_example pkg-config "$tmp/ex-pc/count_progress"
else bad "example by pkg-config does not build"; cat "$tmp/pc.log"; fi
if cmake -S "$src/examples" -B "$tmp/ex-cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
       >"$tmp/cmake.log" 2>&1 && cmake --build "$tmp/ex-cmake" >>"$tmp/cmake.log" 2>&1; then
    ok; run_example find_package "$tmp/ex-cmake/count_progress"
else bad "example by find_package(qcount) does not build"; cat "$tmp/cmake.log"; fi
# and statically: pkg-config --static gives what libqcount.a needs
static_libs=$(PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig pkg-config --static --libs qcount 2>&1) \
    && "$cc" -O2 $(PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig pkg-config --cflags qcount) \
        -o "$tmp/ex-static" "$src/examples/count_progress.c" -Wl,-Bstatic -lqcount -Wl,-Bdynamic \
        $(sed 's/-lqcount//' <<<"$static_libs") >"$tmp/static.log" 2>&1 \
    && ! ldd "$tmp/ex-static" | grep -q libqcount && ok \
    && run_example pkg-config-static "$tmp/ex-static" \
    || { bad "example linked statically by pkg-config --static: $static_libs"; cat "$tmp/static.log"; }
# the shared library's users need no hwloc: find_package(qcount) where
# pkg-config finds none still gives qcount::qcount, and refuses the static
# component
nohwloc() { PKG_CONFIG_LIBDIR=$tmp/no-pc PKG_CONFIG_PATH= "$@"; }
if nohwloc cmake -S "$src/examples" -B "$tmp/ex-nohwloc" -DCMAKE_PREFIX_PATH="$prefix" \
       -DCMAKE_C_COMPILER="$cc" >"$tmp/nohwloc.log" 2>&1 \
       && cmake --build "$tmp/ex-nohwloc" >>"$tmp/nohwloc.log" 2>&1; then
    ok; run_example find_package-without-hwloc "$tmp/ex-nohwloc/count_progress"
else bad "find_package(qcount) without hwloc"; cat "$tmp/nohwloc.log"; fi
mkdir -p "$tmp/static-need"
printf 'cmake_minimum_required(VERSION 3.18)\nproject(s LANGUAGES C)\nfind_package(qcount REQUIRED COMPONENTS static)\n' \
    >"$tmp/static-need/CMakeLists.txt"
nohwloc cmake -S "$tmp/static-need" -B "$tmp/static-need/b" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" >"$tmp/static-need.log" 2>&1 \
    && bad "find_package(qcount COMPONENTS static) without hwloc succeeded" || ok
cmake -S "$tmp/static-need" -B "$tmp/static-need/c" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" >"$tmp/static-have.log" 2>&1 \
    && ok || { bad "find_package(qcount COMPONENTS static) with hwloc"; cat "$tmp/static-have.log"; }

# ---- the Debian packages: together the same files (their programs and
# libraries stripped), and their qcount counts.  (tools/scripts/
# deb-check.sh installs them for real and runs lintian.)
if cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1; then ok; else
    bad "cpack -G DEB"; cat "$tmp/cpack.log"; fi
deb=$(ls "$tmp"/pkg/qcount_"$version"-*_*.deb 2>/dev/null | head -n 1)
names=$(for d in "$tmp"/pkg/*.deb; do dpkg-deb -f "$d" Package; done | sort | tr '\n' ' ')
want="libqcount-dev libqcount$major qcount ${module:+qcount-mpi }"
[ "$names" = "$want" ] && ok || bad "packages '$names', not '$want'"
if [ -n "$deb" ] && for d in "$tmp"/pkg/*.deb; do dpkg-deb -x "$d" "$tmp/deb" || exit 1; done; then
    ok
    debfiles=$(files "$tmp/deb/usr")
    [ "$debfiles" = "$(files "$prefix")" ] && ok \
        || { bad "the .debs' files differ from the install:"; diff <(files "$prefix") <(echo "$debfiles"); }
    for f in $debfiles; do
        [ -L "$prefix/$f" ] || head -c 4 "$prefix/$f" | grep -q ELF || cmp -s "$prefix/$f" "$tmp/deb/usr/$f" \
            || bad "$f differs between the .debs and the install"
    done
    file -L "$tmp/deb/usr/bin/qcount" | grep -q 'not stripped' && bad "the packaged qcount is not stripped" || ok
    out=$("$tmp/deb/usr/bin/qcount" 12 2>&1) && [ "$out" = 14200 ] && ok || bad "packaged qcount 12 -> '$out'"
    if [ -n "$module" ] && [ -n "$mpirun" ]; then
        out=$(run_mpi "$tmp/deb/usr/bin/qcount") && [ "$out" = 14200 ] && ok \
            || bad "packaged qcount under mpirun -> '$out' $(cat "$tmp/mpi.err")"
    fi
    dpkg-deb -f "$deb" Depends | grep -q libhwloc && ok || bad "the qcount package does not depend on libhwloc"
    dpkg-deb -f "$tmp"/pkg/libqcount-dev_*.deb Depends | grep -q 'libhwloc-dev' && ok \
        || bad "libqcount-dev does not depend on libhwloc-dev"
    dpkg-deb -f "$deb" Depends | grep -q libmpi && bad "the qcount package depends on MPI" || ok
else bad "no .deb to unpack in $tmp/pkg"; fi

# ---- the man page and the completion name every option of --help
warn=$(MANWIDTH=80 man --warnings -l "$src/tools/man/qcount.1" 2>&1 >"$tmp/man.txt")
[ -z "$warn" ] && [ -s "$tmp/man.txt" ] && ok || bad "man --warnings: $warn"
options=$("$prefix/bin/qcount" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
[ "$(wc -l <<<"$options")" -ge 20 ] && ok || bad "too few options in --help: $options"
complete_words() {   # complete_words WORD...: what the completion offers for the last word
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _qcount; echo "${COMPREPLY[*]}"' \
        _ "$prefix/share/bash-completion/completions/qcount" qcount "$@"
}
offered=" $(complete_words --) "
for o in $options; do
    grep -q -- "$o\b" "$tmp/man.txt" || bad "the man page lacks $o"
    [[ $offered == *" $o "* || $offered == *" $o= "* ]] || bad "the completion does not offer $o"
done
for s in 0 1 2 130 143 QCOUNT_MPI; do
    grep -q "^       $s\b" "$tmp/man.txt" || bad "the man page lacks $s in EXIT STATUS or ENVIRONMENT"
done
[ "$(complete_words --engine = e)" = eightfold ] && ok || bad "completion of --engine=e: $(complete_words --engine = e)"
[ "$(complete_words --form)" = --format= ] && ok || bad "completion of --form: $(complete_words --form)"

report install
