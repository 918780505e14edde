#!/usr/bin/env bash
# Builds the schedcore demo kernel for one bare-metal target and policy, reports the scheduler's
# code size, runs it under qemu (with a timeout) and compares its trace with the expected file.
#
#   baremetal.sh TARGET CONFIG SOURCE_ROOT WORK_DIR EXPECTED_FILE
#     TARGET: cm3 (qemu-system-arm -M mps2-an385, semihosting) | rv32 | rv64 (qemu virt, UART)
#     CONFIG: fixed (schedcore rt_policy: SCHED_FIFO/RR) | fair (schedcore eevdf_policy) |
#             stride (examples/custom-policy's stride_policy, a policy written outside the library) |
#             mlfq (examples/custom-policy's mlfq_policy, the second one)
#
# Everything is built -Os -DNDEBUG (a release firmware: schedcore's cheap asserts compiled out,
# its misuse checks still refuse bad calls). The scheduler object is also built once more with
# asserts on, for the log only (its size then includes the check strings).
#
# Fails when: a compile or link fails or warns (-Werror; static constructors are a link error),
# the scheduler object of cm3/fixed is 2048 bytes of text or more (1536 at -Os: see below), qemu exits non-zero (the
# kernel's own checks: every task charged exactly the ticks it burned, stack canaries, the
# shared self-test), qemu times out, or the trace differs from EXPECTED_FILE (the `port:` line,
# the only target-specific one, is dropped first). qemu runs with -icount so that virtual time
# follows the instruction count and a stalled host cannot shift a tick.
set -u
target=$1; config=$2; src=$3; work=$4; expected=$5
mkdir -p "$work"
ex=$src/examples
common=(-std=c++17 -Os -DNDEBUG -ffreestanding -fno-exceptions -fno-rtti -fno-threadsafe-statics
        -fno-use-cxa-atexit -ffunction-sections -fdata-sections
        -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror
        -I"$src/include" -I"$ex/cortex-m")
case "$config" in
  fixed) common+=(-DPORT_SCHED_FAIR=0) ;;
  fair) common+=(-DPORT_SCHED_FAIR=1) ;;
  stride) common+=(-DPORT_SCHED_FAIR=2) ;;
  mlfq) common+=(-DPORT_SCHED_FAIR=3) ;;
  *) echo "unknown config $config"; exit 2 ;;
esac
case "$target" in
  cm3) cxx=arm-none-eabi-g++; size=arm-none-eabi-size; qemu=qemu-system-arm
       arch=(-mcpu=cortex-m3 -mthumb)
       arch_src=("$ex/cortex-m/arch_cm3.cpp"); ld=$ex/cortex-m/link.ld; ldflags=()
       run=(-M mps2-an385 -display none -monitor none -serial null -chardev stdio,id=sh
            -semihosting-config enable=on,target=native,chardev=sh) ;;
  rv32|rv64)
       cxx=riscv64-unknown-elf-g++; size=riscv64-unknown-elf-size
       if [ "$target" = rv64 ]; then arch=(-march=rv64imac -mabi=lp64 -mcmodel=medany); qemu=qemu-system-riscv64
       else arch=(-march=rv32imac -mabi=ilp32 -mcmodel=medany); qemu=qemu-system-riscv32; fi
       arch_src=("$ex/riscv/start.S" "$ex/riscv/arch_rv.cpp"); ld=$ex/riscv/link.ld
       ldflags=(-static -Wl,--no-warn-rwx-segments)
       run=(-machine virt -bios none -display none -monitor none -serial stdio) ;;
  *) echo "unknown target $target"; exit 2 ;;
esac
for tool in "$cxx" "$qemu" timeout; do
  command -v "$tool" >/dev/null || { echo "FAIL: missing $tool (bash tools/test.sh installs it)"; exit 1; }
done

objs=()
build() {  # build SOURCE OBJECT
  if ! "$cxx" "${arch[@]}" "${common[@]}" -c "$1" -o "$2" 2>"$2.log" || [ -s "$2.log" ]; then
    echo "FAIL: compiling $1 (warnings count)"; cat "$2.log"; exit 1
  fi
  objs+=("$2")
}
build "$ex/cortex-m/portable/sched.cpp" "$work/sched.o"
build "$ex/cortex-m/portable/kernel.cpp" "$work/kernel.o"
for s in "${arch_src[@]}"; do b=$(basename "$s"); build "$s" "$work/${b%.*}.o"; done
if ! "$cxx" "${arch[@]}" -nostdlib -Wl,--gc-sections "${ldflags[@]}" -T "$ld" "${objs[@]}" -lgcc \
     -o "$work/kernel.elf" 2>"$work/link.log" || [ -s "$work/link.log" ]; then
  echo "FAIL: link"; cat "$work/link.log"; exit 1
fi

# Code size: the scheduler object alone (run queue + policy), then the whole image.
"$size" "$work/sched.o" "$work/kernel.elf"
sched_text=$("$size" "$work/sched.o" | awk 'NR==2 {print $1}')
echo "scheduler text ($target, $config, -Os): $sched_text bytes"
if "$cxx" "${arch[@]}" "${common[@]}" -UNDEBUG -DSCHEDCORE_ENABLE_ASSERTS=1 -fmacro-prefix-map="$src/"= \
     -c "$ex/cortex-m/portable/sched.cpp" -o "$work/sched-asserts.o" 2>"$work/sched-asserts.log"; then
  echo "scheduler text with SCHEDCORE_ENABLE_ASSERTS=1 (informational): $("$size" "$work/sched-asserts.o" | awk 'NR==2 {print $1}') bytes"
else
  echo "FAIL: the scheduler does not build with asserts on"; cat "$work/sched-asserts.log"; exit 1
fi
calls=$("${cxx%g++}nm" -u "$work/sched.o" | awk '{printf "%s ", $2}')
echo "scheduler object's external calls (libgcc helpers, not in its size): $calls"
# The custom-policy examples promise no 64-bit division (writing-a-policy.md, "Charging": their
# divisions are 32-bit, so a 32-bit kernel without libgcc's division helpers links them).
if [ "$config" = stride ] || [ "$config" = mlfq ]; then
  for helper in $calls; do
    case "$helper" in
      __aeabi_ldivmod|__aeabi_uldivmod|__divdi3|__udivdi3|__moddi3|__umoddi3)
        echo "FAIL: the $config policy calls the 64-bit division helper $helper"; exit 1 ;;
    esac
  done
fi
if [ "$target" = cm3 ] && [ "$config" = fixed ] && [ "$sched_text" -ge 2048 ]; then
  echo "FAIL: the fixed-priority scheduler is $sched_text bytes of text, the budget is < 2048"; exit 1
fi
# -Os leaves inlining to the compiler (SCHEDCORE_ALWAYS_INLINE, core/config.hpp): 1460 bytes
# here, 1934 with the hot paths forced inline as in -O2 builds. 1536 catches that coming back.
if [ "$target" = cm3 ] && [ "$config" = fixed ] && [ "$sched_text" -ge 1536 ]; then
  echo "FAIL: the fixed-priority scheduler is $sched_text bytes at -Os (1460 expected; is the hot path forced inline again?)"; exit 1
fi

start=$(date +%s.%N)
timeout 60 "$qemu" "${run[@]}" -icount shift=5,sleep=off -kernel "$work/kernel.elf" >"$work/trace.txt" 2>"$work/qemu.err"
rc=$?
end=$(date +%s.%N)
echo "qemu: exit status $rc, $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", b - a}') s"
cat "$work/trace.txt"
if [ "$rc" = 124 ]; then echo "FAIL: qemu timed out (hang or HardFault)"; exit 1; fi
if [ "$rc" != 0 ]; then echo "FAIL: the kernel exited with status $rc"; cat "$work/qemu.err"; exit 1; fi
if ! grep -v '^port:' "$work/trace.txt" | diff -u "$expected" - ; then
  echo "FAIL: trace differs from $expected"; exit 1
fi
echo "ok: $target $config trace matches $(basename "$expected")"
