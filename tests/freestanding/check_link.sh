#!/usr/bin/env bash
# Build the all-headers object for one bare-metal target with -nostdlib, link it with only
# libgcc (plus memset/memcpy/memmove, which every port supplies), and check with nm that it
# leaves no undefined symbol outside the allowlist and has no .init_array (no static
# constructors).
#
#   check_link.sh INCLUDE_ROOT SOURCE TARGET
#   (TARGET: cortex-m0 cortex-m3 rv32imac rv64imac host kernel-x86_64)
set -u
root=$1; src=$2; target=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
common=(-std=c++17 -Os -ffreestanding -fno-exceptions -fno-rtti -fno-threadsafe-statics
        -fno-use-cxa-atexit -ffunction-sections -fdata-sections -Wall -Wextra -Wpedantic
        -Wconversion -Wshadow -Werror -I"$root")
case "$target" in
  cortex-m0) cxx=arm-none-eabi-g++; nm=arm-none-eabi-nm; readelf=arm-none-eabi-readelf
             arch=(-mcpu=cortex-m0 -mthumb) ;;
  cortex-m3) cxx=arm-none-eabi-g++; nm=arm-none-eabi-nm; readelf=arm-none-eabi-readelf
             arch=(-mcpu=cortex-m3 -mthumb) ;;
  rv32imac)  cxx=riscv64-unknown-elf-g++; nm=riscv64-unknown-elf-nm; readelf=riscv64-unknown-elf-readelf
             arch=(-march=rv32imac -mabi=ilp32 -mcmodel=medany) ;;
  rv64imac)  cxx=riscv64-unknown-elf-g++; nm=riscv64-unknown-elf-nm; readelf=riscv64-unknown-elf-readelf
             arch=(-march=rv64imac -mabi=lp64 -mcmodel=medany) ;;
  host)      cxx=g++; nm=nm; readelf=readelf; arch=(-nostdinc++ -fno-stack-protector -fno-pie -no-pie) ;;
  # The Linux kernel's x86-64 code model and FPU/SIMD bans (targets.md §5); a kernel module
  # links no libgcc, so here only memset/memcpy/memmove may stay undefined.
  kernel-x86_64) cxx=g++; nm=nm; readelf=readelf
             arch=(-nostdinc++ -fno-stack-protector -fno-pie -no-pie -mcmodel=kernel -mno-red-zone
                   -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx -mno-80387 -mno-fp-ret-in-387
                   -fno-asynchronous-unwind-tables -fno-jump-tables) ;;
  *) echo "unknown target $target"; exit 2 ;;
esac
command -v "$cxx" >/dev/null || { echo "missing $cxx (the README's test command installs it)"; exit 1; }

# 1. The object alone: every undefined symbol must be on the allowlist.
"$cxx" "${arch[@]}" "${common[@]}" -c "$src" -o "$work/all.o" || { echo "FAIL: compile for $target"; exit 1; }
allow='^(memset|memcpy|memmove|__(aeabi|ctz|clz|popcount|u?div|u?mod|ashl|ashr|lshr|mul|udivmod|divmod|udivmoddi|bswap|ffs|parity|cmp|ucmp|neg|gnu_thumb1_case)[a-z0-9_]*)$'
[ "$target" = kernel-x86_64 ] && allow='^(memset|memcpy|memmove)$'
undefined=$("$nm" -u "$work/all.o" | awk '{print $NF}' | sort -u)
bad=$(printf '%s\n' "$undefined" | grep -v '^$' | grep -Ev "$allow" || true)
if [ -n "$bad" ]; then echo "FAIL: $target object references symbols outside the allowlist:"; echo "$bad"; exit 1; fi
# The allowlist's prefixes (__aeabi_*, __mul*, __div*) also admit libgcc's soft-float helpers;
# floating point in freestanding code is refused by name (kernel-x86_64 refuses it at compile
# time: SSE is off there).
deny='^(__aeabi_(d|f|c[df]|u?[il]2[df])[a-z0-9_]*|__(float|fix|extend|trunc|unord)[a-z0-9_]*|__[a-z]+(sf|df|tf|xf)[0-9]*)$'
float=$(printf '%s\n' "$undefined" | grep -E "$deny" || true)
if [ -n "$float" ]; then echo "FAIL: $target object calls soft-float helpers (floating point):"; echo "$float"; exit 1; fi

# 2. No static constructors.
if "$readelf" -S "$work/all.o" | grep -Eq '\.(init_array|ctors)'; then
  echo "FAIL: $target object has .init_array/.ctors: a global with a dynamic initialiser"; exit 1
fi

# 3. A full link against nothing but libgcc (and a three-function mem stub).
cat > "$work/mem.c" <<'C'
typedef __SIZE_TYPE__ size_t;
void* memset(void* d, int c, size_t n) { unsigned char* p = d; while (n--) *p++ = (unsigned char)c; return d; }
void* memcpy(void* d, const void* s, size_t n) { unsigned char* p = d; const unsigned char* q = s; while (n--) *p++ = *q++; return d; }
void* memmove(void* d, const void* s, size_t n) {
  unsigned char* p = d; const unsigned char* q = s;
  if (p < q) { while (n--) *p++ = *q++; } else { p += n; q += n; while (n--) *--p = *--q; }
  return d; }
C
cc=${cxx%++}cc; carch=("${arch[@]}")
case "$target" in host|kernel-x86_64) cc=gcc; carch=(-fno-stack-protector -fno-pie) ;; esac
libgcc=-lgcc; [ "$target" = kernel-x86_64 ] && libgcc=
"$cc" "${carch[@]}" -Os -ffreestanding -fno-builtin -c "$work/mem.c" -o "$work/mem.o" 2>&1 || { echo "FAIL: mem stub"; exit 1; }
if ! "$cxx" "${arch[@]}" -nostdlib -static -Wl,-e,schedcore_freestanding_entry -Wl,--gc-sections \
     -Wl,--no-warn-rwx-segments "$work/all.o" "$work/mem.o" $libgcc -o "$work/all.elf" 2>"$work/link.err"; then
  echo "FAIL: $target does not link with only libgcc:"; cat "$work/link.err"; exit 1
fi
if [ -s "$work/link.err" ]; then echo "FAIL: linker warnings:"; cat "$work/link.err"; exit 1; fi
echo "ok: $target links with -nostdlib ${libgcc:-(no libgcc)}; undefined in object: $(printf '%s ' $undefined)"
