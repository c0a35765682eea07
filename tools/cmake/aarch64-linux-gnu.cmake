# SPDX-License-Identifier: MIT
# aarch64-linux-gnu.cmake — cross-building qcount for 64-bit Arm on a
# Debian x86-64 host (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu,
# libhwloc-dev:arm64, qemu-user: tools/scripts/install-deps.sh), with ctest
# running the test programs through qemu-aarch64.  Use with the portable
# build: -DQC_NATIVE=OFF -DQC_BENCH=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Debian's multiarch: the arm64 libraries and pkg-config files live beside
# the host's, under the aarch64-linux-gnu triplet.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# libc6:arm64 puts the arm64 loader at /lib/ld-linux-aarch64.so.1, where
# qemu-aarch64 finds it; the loader then finds the multiarch libraries.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
