#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check.sh — second command of README.md and the whole of CI: the quick
# tests under ASan+UBSan and under TSan (threads), the fuzzers briefly, the
# quick tests of a 64-bit Arm build under qemu, and the full test suite on
# a Release build, and the Debian packages made from it.  Installs missing
# dependencies first.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/scripts/install-deps.sh
jobs=$(nproc)

# The sanitizer stages run their tests nproc at a time, as the aarch64 stage
# below does under qemu: no test of label 'small' depends on running alone.
# The Release stage runs the whole suite nproc at a time, but every test
# outside label 'small' and the few long counts tests/CMakeLists.txt names
# runs alone (RUN_SERIAL).
# ASan+UBSan with clang: GCC takes four times as long over the level
# kernels' many inlined cases (5 minutes of the build, against 2 with
# clang), and the GCC build is the Release stage's.  The same build holds
# the fuzz targets.
echo "== sanitizers: ASan+UBSan, clang (label 'small')"
CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DQC_SANITIZE=address -DQC_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
ctest --test-dir build-asan -L small -j"$jobs" --output-on-failure

# TSan needs an OpenMP runtime it can see into: clang with LLVM's libomp and
# its Archer tool, which tells TSan about OpenMP's barriers and hand-offs.
# (GCC's libgomp is uninstrumented and reports false races.)  Not the
# tests that run on one thread alone (the joiners', the unit cases', the
# record profile's, and the program's modes and option checks, which start
# no count), where there is no race to find.
echo "== sanitizers: TSan, clang + libomp + Archer (label 'small', threads)"
CC=clang CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DQC_SANITIZE=thread -DQC_BENCH=OFF >/dev/null
cmake --build build-tsan -j"$jobs" >/dev/null
archer=$(ls /usr/lib/llvm-*/lib/libarcher.so | tail -n 1)
OMP_TOOL_LIBRARIES=$archer TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1" \
    ctest --test-dir build-tsan -L small -E '^(join_joiners|unit_cases|profile_28_small|modes|harden_options)$' -j"$jobs" --output-on-failure

# libFuzzer, briefly: the ledger reader and the argument parser, side by
# side (each target builds its own ASan+UBSan-instrumented copy of what it
# fuzzes, in the ASan build).  The corpora stay in build-asan/ so that
# local runs keep what they found.
echo "== fuzz: ledger reader and argument parser, ${QC_FUZZ_SECONDS:=20} s each"
for target in fuzz_ledger fuzz_options; do
    mkdir -p "build-asan/corpus-$target"
    build-asan/$target -max_total_time="$QC_FUZZ_SECONDS" -timeout=10 -print_final_stats=0 -artifact_prefix=build-asan/ \
        "build-asan/corpus-$target" 2>"build-asan/$target.log" &
done
fuzz_failed=
for target in fuzz_ledger fuzz_options; do
    wait -n || fuzz_failed=1
done
for target in fuzz_ledger fuzz_options; do
    if ! grep -E '^Done [0-9]+ runs' "build-asan/$target.log" | sed "s/^/$target: /" | grep .; then
        tail -n 40 "build-asan/$target.log"
        fuzz_failed=1
    fi
done
[ -z "$fuzz_failed" ] || exit 1

# 64-bit Arm: the portable build, cross-compiled, its quick tests run
# through qemu-aarch64 (the C tests by ctest, the programs the shell tests
# run by a wrapper).  All of label 'small' but: counts_halving_small, whose
# thousands of threads (more threads than units) take a minute to start
# under qemu (engines_small checks halving against the other engines);
# harden_input, whose pipes, signals and full-disk cases take minutes
# under qemu and test the program's I/O, not its arithmetic, as do modes,
# harden_options and mask (options, output formats, CPU masks: the same C
# on every architecture); and bench_tools, which runs the benchmark tools
# directly.
if [ "$(uname -m)" = x86_64 ]; then
    echo "== aarch64: portable cross build, quick tests under qemu-aarch64"
    cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=tools/cmake/aarch64-linux-gnu.cmake \
        -DCMAKE_BUILD_TYPE=Release -DQC_NATIVE=OFF -DQC_BENCH=OFF \
        -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >/dev/null
    cmake --build build-aarch64 -j"$jobs" >/dev/null
    ctest --test-dir build-aarch64 -L small -E '^(counts_halving_small|harden_input|modes|harden_options|mask|bench_tools)$' \
        -j"$jobs" --output-on-failure
fi

echo "== Release: the whole suite but label 'long' (label 'valgrind': the default build under valgrind)"
# installed in /usr, as the Debian packages made from it are
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
cmake --build build -j"$jobs" >/dev/null
ctest --test-dir build -LE long -j"$jobs" --output-on-failure

echo "== Debian packages: lintian, installed, run, removed"
tools/scripts/deb-check.sh build
