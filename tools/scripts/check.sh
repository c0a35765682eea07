#!/usr/bin/env bash
# check.sh — second command of README.md and the whole of CI: the full test
# suite on a Release build, then the quick tests again under ASan+UBSan and
# under TSan (threads).  Installs missing dependencies first.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/scripts/install-deps.sh
jobs=$(nproc)

echo "== sanitizers: ASan+UBSan (label 'small')"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DQC_SANITIZE=address -DQC_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
ctest --test-dir build-asan -L small --output-on-failure

# TSan needs an OpenMP runtime it can see into: clang with LLVM's libomp and
# its Archer tool, which tells TSan about OpenMP's barriers and hand-offs.
# (GCC's libgomp is uninstrumented and reports false races.)
echo "== sanitizers: TSan, clang + libomp + Archer (label 'small')"
CC=clang CXX=clang++ cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DQC_SANITIZE=thread -DQC_BENCH=OFF >/dev/null
cmake --build build-tsan -j"$jobs" >/dev/null
archer=$(ls /usr/lib/llvm-*/lib/libarcher.so | tail -n 1)
OMP_TOOL_LIBRARIES=$archer TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1" \
    ctest --test-dir build-tsan -L small --output-on-failure

# libFuzzer, briefly: the ledger reader and the argument parser (clang;
# each target builds its own ASan+UBSan-instrumented copy of what it fuzzes).
# The corpora stay in build-fuzz/ so that local runs keep what they found.
echo "== fuzz: ledger reader and argument parser, ${QC_FUZZ_SECONDS:=20} s each"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQC_BENCH=OFF >/dev/null
cmake --build build-fuzz -j"$jobs" --target fuzz_ledger fuzz_options >/dev/null
for target in fuzz_ledger fuzz_options; do
    mkdir -p "build-fuzz/corpus-$target"
    build-fuzz/$target -max_total_time="$QC_FUZZ_SECONDS" -timeout=10 -print_final_stats=0 -artifact_prefix=build-fuzz/ \
        "build-fuzz/corpus-$target" 2>"build-fuzz/$target.log" \
        || { tail -n 40 "build-fuzz/$target.log"; exit 1; }
    grep -E '^Done [0-9]+ runs' "build-fuzz/$target.log" | sed "s/^/$target: /"
done

echo "== Release: the whole suite (label 'valgrind': the default build under valgrind)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs" >/dev/null
ctest --test-dir build --output-on-failure
