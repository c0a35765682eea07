#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deb-check.sh — the Debian packages as a user gets them (run as root, by
# check.sh): cpack packs BUILD_DIR (a portable build configured with
# CMAKE_INSTALL_PREFIX=/usr) into qcount, libqcount0, libqcount-dev and
# qcount-mpi; lintian accepts them (no error; the warnings it may give are
# listed in tools/packaging/lintian-warnings.txt, each with its reason);
# apt-get installs them; the installed qcount counts N=12 alone and under
# qcount-mpirun, the Slurm scripts are in /usr/share/qcount, the embedding
# example builds against the installed files and counts; apt-get removes
# them and nothing of theirs is left.
# Usage: deb-check.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/debs
rm -rf "$out"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$out" >"$out.log" 2>&1 || { cat "$out.log"; exit 1; }
cd "$out"
debs=(./*.deb)
echo "deb-check: ${debs[*]#./}"
packages=(qcount libqcount0 libqcount-dev qcount-mpi)
[ "${#debs[@]}" -eq "${#packages[@]}" ] || { echo "deb-check: ${#debs[@]} packages, not ${#packages[@]}"; exit 1; }

# lintian: errors fail; each warning tag must be one explained in the list
lintian --fail-on error --no-tag-display-limit "${debs[@]}" >lintian.txt 2>&1 \
    || { cat lintian.txt; echo "deb-check: lintian reports errors"; exit 1; }
explained=$(grep -Eo '^[a-z0-9-]+:' "$src/tools/packaging/lintian-warnings.txt" | tr -d : | sort -u)
unexplained=$(grep -E '^W: ' lintian.txt | awk '{ print $3 }' | sort -u | comm -23 - <(echo "$explained"))
[ -z "$unexplained" ] || { cat lintian.txt; echo "deb-check: unexplained lintian warnings: $unexplained"; exit 1; }

export DEBIAN_FRONTEND=noninteractive
cleanup() { apt-get remove -y -qq "${packages[@]}" >/dev/null 2>&1 || true; }
trap cleanup EXIT
apt-get install -y -qq --no-install-recommends "${debs[@]}" >install.log 2>&1 || { cat install.log; exit 1; }

fail() { echo "deb-check: $*"; exit 1; }
[ "$(qcount 12)" = 14200 ] || fail "installed qcount 12 does not print 14200"
[ "$(command -v qcount)" = /usr/bin/qcount ] || fail "qcount is not /usr/bin/qcount"
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
[ -e "/usr/lib/$triplet/libqcount.so.0" ] || fail "libqcount.so.0 is not in /usr/lib/$triplet"
for script in qcount-parts.slurm qcount.slurm; do
    bash -n "/usr/share/qcount/$script" || fail "/usr/share/qcount/$script is not installed or not bash"
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ "$(timeout 120 qcount-mpirun --oversubscribe -np 2 qcount -t 1 12 2>mpi.log)" = 14200 ] \
    || { cat mpi.log; fail "qcount under qcount-mpirun does not print 14200"; }
cp -r "$src/examples" example
make -s -C example >example.log 2>&1 || { cat example.log; fail "the example does not build"; }
[ "$(example/count_progress 12 2 2>/dev/null)" = 14200 ] || fail "the example does not print 14200"
loaded=$(ldd example/count_progress | awk '$1 == "libqcount.so.0" { print $3 }')
[ -n "$loaded" ] && [ "$(readlink -f "$loaded")" = "$(readlink -f "/usr/lib/$triplet/libqcount.so.0")" ] \
    || fail "the example loads '$loaded', not the installed libqcount"

apt-get remove -y -qq "${packages[@]}" >remove.log 2>&1 || { cat remove.log; exit 1; }
trap - EXIT
left=$(dpkg -l "${packages[@]}" 2>/dev/null | awk '/^ii/ { print $2 }' || true)
[ -z "$left" ] && [ ! -e /usr/bin/qcount ] && [ ! -e "/usr/lib/$triplet/libqcount.so.0" ] \
    || fail "left after removal: $left"
echo "deb-check: lintian clean, installed, counted, removed"
