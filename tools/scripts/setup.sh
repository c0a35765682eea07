#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# setup.sh — first command of README.md: installs the dependencies, builds
# qcount (Release, in build/) and counts N=16.
set -euo pipefail
cd "$(dirname "$0")/../.."
tools/scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
build/qcount 16
