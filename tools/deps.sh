#!/usr/bin/env bash
# Installs what the build and tests need and a fresh Debian 12 machine lacks, when run as root.
# Cheap when everything is present (only `dpkg -s` checks). Sourced by tools/test.sh,
# tools/main.sh and tools/kernel_check.sh. Cold, on a fresh Debian 12 machine of the CI's kind: 33 s for the 13
# packages it lacks (measured 2026-12-06); the toolchain recipes are ../shared/design/targets.md.
schedcore_install_deps() {
  local want=("$@") missing=()
  local pkg
  for pkg in "${want[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "schedcore: missing packages: ${missing[*]}" >&2
    echo "schedcore: run as root, or: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    return 1
  fi
  echo "schedcore: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || return 1
  # --no-install-recommends: the cross toolchains and qemu otherwise pull gigabytes (GUI,
  # prebuilt libstdc++ for every multilib) that a header-only freestanding library never uses.
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || return 1
}

# Everything the host build, the unit tests and the benchmarks need.
SCHEDCORE_HOST_PACKAGES=(g++ clang cmake ninja-build libgtest-dev libbenchmark-dev libboost-dev
                         valgrind doxygen g++-multilib libclang-rt-14-dev
                         qemu-user)  # runs the -m32 tests where the kernel has no IA32 emulation
# The freestanding cross-target proofs and the qemu ports.
SCHEDCORE_CROSS_PACKAGES=(gcc-arm-none-eabi binutils-arm-none-eabi gcc-riscv64-unknown-elf
                          qemu-system-arm qemu-system-misc)
# The ports' load test (tests/ports/linux_module.sh): kernel headers and kbuild, modinfo, the x86
# emulator, and gcc-12/g++-12 by name (Debian's header Makefile calls gcc-12). The kernel image
# and busybox-static are fetched by the test itself with `apt-get download`, not installed.
SCHEDCORE_PORT_PACKAGES=(linux-headers-amd64 kmod qemu-system-x86 gcc-12 g++-12)
# The HTML report's rendering test (tests/sim/report_render.sh): headless Chromium takes a
# screenshot of `schedsim report` output; a font so that text renders.
SCHEDCORE_DOCS_PACKAGES=(chromium fonts-dejavu-core zlib1g-dev)
