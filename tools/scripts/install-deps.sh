#!/usr/bin/env bash
# install-deps.sh — installs qcount's build and test dependencies from
# Debian 12 packages (run as root).  Does nothing when all are present.
set -euo pipefail
# clang + libomp-dev: the TSan build (LLVM's OpenMP runtime with Archer).
# python3 + librsvg2-bin: the SVG test parses the drawing and renders it to PNG.
packages=(build-essential cmake pkg-config libhwloc-dev libbenchmark-dev clang libomp-dev python3 librsvg2-bin)
# gnuplot-nox: tools/scripts/speedup.py draws the thread-scaling plot.
packages+=(gnuplot-nox)
# man-db: the install test renders the man page (man --warnings).
packages+=(man-db)
# valgrind: the default build runs under it (its CPU lacks AVX-512), which
# proves that nothing outside the kernels' dispatch needs what a CPU lacks.
packages+=(valgrind)
# Open MPI: qcount's MPI support and its mpirun tests (qcount builds without).
packages+=(libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
