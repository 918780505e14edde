#!/usr/bin/env bash
# Compile one public header alone, as its own translation unit, in every freestanding
# configuration schedcore promises. Fails (exit 1) at the first configuration that rejects it.
#
#   check_header.sh INCLUDE_ROOT HEADER [CXX...]
#
# -nostdinc++ removes every C++ standard header from the search path on the host compilers, so
# an `#include <vector>` (or <cstdint>, <type_traits> ...) fails here just as it does for
# riscv64-unknown-elf or inside a kernel build; -fno-exceptions rejects `throw`, -fno-rtti
# rejects typeid/dynamic_cast.
set -u
root=$1; header=$2; shift 2
compilers=("$@")
[ ${#compilers[@]} -gt 0 ] || compilers=(g++ clang++)
flags=(-ffreestanding -fno-exceptions -fno-rtti -nostdinc++ -Wall -Wextra -Wpedantic -Wconversion
       -Wshadow -Werror -fsyntax-only -I"$root" -x c++ -)
status=0
for cxx in "${compilers[@]}"; do
  for std in c++17 c++20; do
    extra=()
    case "$cxx" in
      riscv64-unknown-elf-*) extra=(-march=rv64imac -mabi=lp64) ;;
      arm-none-eabi-*) extra=(-mcpu=cortex-m3 -mthumb) ;;
    esac
    if ! command -v "$cxx" >/dev/null 2>&1; then
      echo "missing compiler: $cxx (the README's test command installs it)"; exit 1
    fi
    if ! out=$(printf '#include "%s"\n#include "%s"\n' "$header" "$header" |
               "$cxx" -std=$std "${extra[@]}" "${flags[@]}" 2>&1); then
      echo "FAIL: $header with $cxx -std=$std"; echo "$out" | head -n 30; status=1
    fi
  done
done
[ $status = 0 ] && echo "ok: $header (${compilers[*]}; c++17 and c++20)"
exit $status
