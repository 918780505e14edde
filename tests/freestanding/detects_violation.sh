#!/usr/bin/env bash
# Plants one violation of the freestanding rules into a scratch copy of core/time.hpp and checks
# that the freestanding checks reject it (exit 0 when caught, 1 when the violation slipped by).
#
#   detects_violation.sh std-header|throw|static-ctor|float INCLUDE_ROOT CHECK_DIR
set -u
kind=$1; root=$2; here=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp -r "$root/schedcore" "$work/"
victim="$work/schedcore/core/time.hpp"
case "$kind" in
  std-header)  sed -i 's|#include "schedcore/core/types.hpp"|#include "schedcore/core/types.hpp"\n#include <vector>|' "$victim" ;;
  throw)       printf 'namespace schedcore { inline void planted(int x) { if (x) throw x; } }\n' >> "$victim" ;;
  float)       sed -i 's|  const u64 q = a / c;|  const u64 q = static_cast<u64>(static_cast<double>(a) / static_cast<double>(c)); // planted|' "$work/schedcore/core/arith.hpp"
               victim="$work/schedcore/core/arith.hpp" ;;
  static-ctor) printf 'namespace schedcore { struct planted_t { planted_t() noexcept; int v; };\ninline planted_t::planted_t() noexcept : v(static_cast<int>(sizeof(void*))) { asm volatile("" ::: "memory"); }\ninline planted_t planted_global; }\n' >> "$victim" ;;
  *) echo "unknown violation $kind"; exit 2 ;;
esac
grep -q planted "$victim" || grep -q '<vector>' "$victim" || { echo "could not plant $kind"; exit 2; }
caught=0
if [ "$kind" = static-ctor ]; then
  # A constructor that is not constexpr compiles fine; only the link check can see it.
  bash "$here/check_link.sh" "$work" "$here/all_headers.cpp" host >/dev/null 2>&1 || caught=1
elif [ "$kind" = float ]; then
  # Floating point compiles on a host; the kernel target (SSE off) refuses it, and on a
  # soft-float target the link check refuses the helper calls by name.
  bash "$here/check_link.sh" "$work" "$here/all_headers.cpp" kernel-x86_64 >/dev/null 2>&1 || caught=1
  if [ $caught = 1 ] && command -v arm-none-eabi-g++ >/dev/null 2>&1; then
    bash "$here/check_link.sh" "$work" "$here/all_headers.cpp" cortex-m3 >/dev/null 2>&1 || caught=2
    [ $caught = 2 ] && caught=1 || caught=0
  fi
else
  bash "$here/check_header.sh" "$work" schedcore/core/time.hpp g++ clang++ >/dev/null 2>&1 || caught=1
fi
if [ $caught = 1 ]; then echo "ok: planted $kind was caught"; exit 0; fi
echo "FAIL: planted $kind was NOT caught by the freestanding checks"; exit 1
