#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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
# lintian and file: the Debian packages checked (tools/scripts/deb-check.sh)
# and their binaries seen stripped (the install test).
packages+=(lintian file)
# valgrind: the default build runs under it (its CPU lacks AVX-512), which
# proves that nothing outside the kernels' dispatch needs what a CPU lacks.
packages+=(valgrind)
# Open MPI: qcount's MPI support and its mpirun tests (qcount builds without).
packages+=(libopenmpi-dev openmpi-bin)
# Slurm and munge: the slurm test runs the job scripts on a one-node
# cluster of this machine (tests/tools/slurm_cluster.sh).
packages+=(slurm-wlm munge)
# 64-bit Arm, cross-built and run under qemu-user (check.sh's aarch64
# stage, tools/cmake/aarch64-linux-gnu.cmake): the cross compilers, the
# arm64 hwloc to link (Debian multiarch), and the arm64 loader and OpenMP
# runtime that qemu-aarch64 runs the tests with.
if [ "$(uname -m)" = x86_64 ]; then
    dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
    packages+=(gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user
               libhwloc-dev:arm64 libc6:arm64 libgomp1:arm64)
fi
missing=()
for p in "${packages[@]}"; do
    # a name that is installed for two architectures (multiarch) needs the host's
    dpkg -s "$p" >/dev/null 2>&1 || dpkg -s "$p:$(dpkg --print-architecture)" >/dev/null 2>&1 \
        || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
