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
# Planted code goes inside the include guard (before the header's last #endif): appended after
# it, a second inclusion redefines it and the build fails for that reason instead.
plant() {
  local body=$1 last
  last=$(grep -n '^#endif' "$victim" | tail -1 | cut -d: -f1)
  { head -n $((last - 1)) "$victim"; printf '%s\n' "$body"; tail -n +"$last" "$victim"; } > "$victim.new"
  mv "$victim.new" "$victim"
}
case "$kind" in
  std-header)  sed -i 's|#include "schedcore/core/types.hpp"|#include "schedcore/core/types.hpp"\n#include <vector>|' "$victim" ;;
  throw)       plant 'namespace schedcore { inline void planted(int x) { if (x) throw x; } }' ;;
  float)       sed -i 's|  const u64 q = a / c;|  const u64 q = static_cast<u64>(static_cast<double>(a) / static_cast<double>(c)); // planted|' "$work/schedcore/core/arith.hpp"
               victim="$work/schedcore/core/arith.hpp" ;;
  static-ctor) plant 'namespace schedcore { struct planted_t { planted_t() noexcept; int v; };
inline planted_t::planted_t() noexcept : v(static_cast<int>(sizeof(void*))) { asm volatile("" ::: "memory"); }
inline planted_t planted_global; }' ;;
  *) echo "unknown violation $kind"; exit 2 ;;
esac
grep -q planted "$victim" || grep -q '<vector>' "$victim" || { echo "could not plant $kind"; exit 2; }
# Each check must fail *because of* the planted violation: its output must name it (a missing
# compiler or an unrelated error would otherwise count as caught).
caught=0
check() {  # PATTERN COMMAND...: caught when COMMAND fails and its output matches PATTERN
  local pattern=$1 out; shift
  if out=$("$@" 2>&1); then return 1; fi
  if grep -Eq -- "$pattern" <<<"$out"; then return 0; fi
  echo "the check failed, but not for the planted $kind (expected /$pattern/):"; tail -n 15 <<<"$out"
  return 1
}
case "$kind" in
  static-ctor)
    # A constructor that is not constexpr compiles fine; only the link check can see it.
    check '\.init_array/\.ctors' bash "$here/check_link.sh" "$work" "$here/all_headers.cpp" host && caught=1 ;;
  float)
    # Floating point compiles on a host; the kernel target (SSE off) refuses it, and on a
    # soft-float target the link check refuses the helper calls by name.
    check 'SSE' bash "$here/check_link.sh" "$work" "$here/all_headers.cpp" kernel-x86_64 && caught=1
    if [ $caught = 1 ] && command -v arm-none-eabi-g++ >/dev/null 2>&1; then
      check 'soft-float helpers' bash "$here/check_link.sh" "$work" "$here/all_headers.cpp" cortex-m3 || caught=0
    fi ;;
  std-header)
    check "'vector' file not found|vector: No such file" bash "$here/check_header.sh" "$work" schedcore/core/time.hpp g++ clang++ && caught=1 ;;
  throw)
    check 'exceptions disabled|-fno-exceptions' bash "$here/check_header.sh" "$work" schedcore/core/time.hpp g++ clang++ && caught=1 ;;
esac
if [ $caught = 1 ]; then echo "ok: planted $kind was caught"; exit 0; fi
echo "FAIL: planted $kind was NOT caught by the freestanding checks"; exit 1
