#!/usr/bin/env bash
# SCHEDCORE_PORTABLE_BITOPS=1's promise: the bit scans and population counts call no libgcc
# helper (__clzsi2, __ctzsi2, __ctzdi2, __popcountsi2, __ffs*, __parity*). Compiles the
# all-headers object for one 32-bit target at -Os and -O2 with the knob set and lists what nm
# finds undefined. 64-bit shifts, multiplies and divisions may still call libgcc there
# (__aeabi_llsl, __ashldi3, __aeabi_uldivmod ...), as any 64-bit code does on a 32-bit CPU.
# With --expect-helpers the knob is left unset and the check must find a scan helper instead
# (the test of the test: without the knob these targets do call them; at -Os only, 6 s saved).
#
#   check_no_scan_helpers.sh INCLUDE_ROOT SOURCE TARGET [--expect-helpers]
#   (TARGET: cortex-m0 rv32imac)
set -u
root=$1; src=$2; target=$3; mode=${4:-}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
case "$target" in
  cortex-m0) cxx=arm-none-eabi-g++; nm=arm-none-eabi-nm; arch=(-mcpu=cortex-m0 -mthumb) ;;
  rv32imac)  cxx=riscv64-unknown-elf-g++; nm=riscv64-unknown-elf-nm; arch=(-march=rv32imac -mabi=ilp32) ;;
  *) echo "unknown target $target"; exit 2 ;;
esac
command -v "$cxx" >/dev/null || { echo "missing $cxx (the README's test command installs it)"; exit 1; }
knob=(-DSCHEDCORE_PORTABLE_BITOPS=1)
[ "$mode" = --expect-helpers ] && knob=()
scan='^__(clz|ctz|popcount|ffs|parity)[a-z0-9_]*$'
status=0
# The test of the test needs one level that calls a helper; the promise itself covers both.
levels=(-Os -O2)
[ "$mode" = --expect-helpers ] && levels=(-Os)
for opt in "${levels[@]}"; do
  "$cxx" "${arch[@]}" -std=c++17 "$opt" -ffreestanding -nostdinc++ -fno-exceptions -fno-rtti "${knob[@]}" \
    -I"$root" -c "$src" -o "$work/all.o" || { echo "FAIL: compile for $target $opt"; exit 1; }
  found=$("$nm" -u "$work/all.o" | awk '{print $NF}' | grep -E "$scan" | tr '\n' ' ')
  if [ "$mode" = --expect-helpers ]; then
    if [ -z "$found" ]; then echo "FAIL: $target $opt without the knob calls no scan helper: the check sees nothing"; status=1
    else echo "ok: $target $opt without the knob calls $found"; fi
  elif [ -n "$found" ]; then
    echo "FAIL: $target $opt with SCHEDCORE_PORTABLE_BITOPS=1 calls libgcc's $found"; status=1
  else
    echo "ok: $target $opt with SCHEDCORE_PORTABLE_BITOPS=1 calls no scan helper"
  fi
done
exit $status
