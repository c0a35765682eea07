#!/usr/bin/env bash
# check.sh — second command of README.md and the whole of CI: the full test
# suite on a Release build, then the quick tests again under ASan+UBSan and
# under TSan (threads).  Installs missing dependencies first.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
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

echo "== Release: the whole suite"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs" >/dev/null
ctest --test-dir build --output-on-failure
