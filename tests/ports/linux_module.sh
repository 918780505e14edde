#!/usr/bin/env bash
# Builds examples/linux-module against the installed Debian kernel headers and loads it into the
# matching Debian kernel under qemu-system-x86_64 (TCG), in a busybox initramfs.
#
#   linux_module.sh SOURCE_ROOT WORK_DIR EXPECTED_TRACE CONFIG [EXPECTED_LINE]
#     CONFIG: fixed | fair, the configuration of the shared scheduler and self-test (sched.hpp)
#     EXPECTED_LINE: a file holding the module's whole result line, as dmesg shows it
#
# Fails when: the build prints any warning (g++, gcc, objtool, modpost; the only tolerated
# extra line is kbuild's "Skipping BTF generation", since Debian ships no vmlinux), modinfo
# does not show license GPL, the C++ object has static constructors (.init_array/.ctors: the
# module loader would never run them), insmod or rmmod fails, the dispatcher's order is not
# the one its policy promises (rc != 0), the self-test line is missing from dmesg,
# or its checksum differs from the bare-metal targets' (the selftest line of EXPECTED_TRACE),
# a schedcore check fired during the load (the module's handler WARNs: a refused misuse
# changes nothing, so the result line alone would not show it; the kernel's W taint flag is
# checked too), or the line differs from EXPECTED_LINE (the dispatch is in virtual time, so
# its order and counts are exact: a knob or a hook call that moves them fails here even when
# the shares stay within the tolerance the module itself checks).
# The kernel version is found by glob; the kernel image and busybox-static are fetched with
# `apt-get download` once per WORK_DIR (the mirror only carries the current ABI, which is the
# one linux-headers-amd64 installed).
set -u
src=$1; work=$2; expected=$3; config=${4:-fair}; expected_line=${5:-}
case "$config" in fixed) fair=0 ;; fair) fair=1 ;; *) echo "FAIL: unknown config $config"; exit 1 ;; esac
mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
for tool in make gcc-12 g++-12 modinfo qemu-system-x86_64 dpkg-deb timeout gzip; do
  command -v "$tool" >/dev/null || fail "missing $tool (bash tools/test.sh installs it)"
done
ver=$(ls /usr/src | sed -n 's/^linux-headers-\(.*-amd64\)$/\1/p' | sort -V | tail -n 1)
[ -n "$ver" ] || fail "no /usr/src/linux-headers-*-amd64 (install linux-headers-amd64)"
kdir=/usr/src/linux-headers-$ver
echo "kernel headers: $ver"

# 1. Build a copy of the module (kbuild writes its outputs next to the sources).
rm -rf "$work/mod"; mkdir -p "$work/mod"
cp "$src"/examples/linux-module/{Kbuild,sched_glue.c,sched_cxx.cpp,sched_cxx.h} "$work/mod/"
start=$(date +%s.%N)
make -C "$kdir" M="$work/mod" SCHEDCORE_ROOT="$src" PORT_SCHED_FAIR=$fair modules >"$work/build.log" 2>&1
brc=$?
echo "build: rc $brc, $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
cat "$work/build.log"
[ "$brc" = 0 ] || fail "module build failed"
if grep -v 'Skipping BTF generation' "$work/build.log" | grep -Eiq 'warning|error'; then
  fail "the module build printed warnings"
fi
if objdump -h "$work/mod/sched_cxx.o" | grep -Eq '\.(init_array|ctors)'; then
  fail "sched_cxx.o has static constructors (a global is not constant-initialised)"
fi
size "$work/mod/sched_cxx.o" "$work/mod/sched_glue.o"
ko=$work/mod/schedcore_port.ko
modinfo "$ko" | grep -q '^license: *GPL$' || fail "modinfo shows no GPL license"
modinfo "$ko" | grep -E '^(license|vermagic|depends):'

# 2. The matching kernel image and busybox, downloaded once.
dl=$work/dl
if ! ls "$dl"/linux-image-"$ver"_*.deb >/dev/null 2>&1 || ! ls "$dl"/busybox-static_*.deb >/dev/null 2>&1; then
  mkdir -p "$dl"
  (cd "$dl" && apt-get download "linux-image-$ver" busybox-static) >"$work/download.log" 2>&1 ||
    { cat "$work/download.log"; fail "apt-get download linux-image-$ver busybox-static"; }
fi
rm -rf "$work/img" "$work/bb"
dpkg-deb -x "$(ls "$dl"/linux-image-"$ver"_*.deb | head -n 1)" "$work/img" || fail "unpack kernel image"
dpkg-deb -x "$(ls "$dl"/busybox-static_*.deb | head -n 1)" "$work/bb" || fail "unpack busybox"
vmlinuz=$work/img/boot/vmlinuz-$ver
[ -f "$vmlinuz" ] || fail "no $vmlinuz in the image package"

# 3. A newc cpio initramfs, written here (the cpio tool is not installed on a fresh machine).
root=$work/initrd; rm -rf "$root"; mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev"
cp "$work/bb/bin/busybox" "$root/bin/busybox"
cp "$ko" "$root/schedcore_port.ko"
cat >"$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
echo "tainted before insmod=$(cat /proc/sys/kernel/tainted)"
insmod /schedcore_port.ko
echo "insmod rc=$?"
echo "tainted after insmod=$(cat /proc/sys/kernel/tainted)"
dmesg | grep 'schedcore_port:'
rmmod schedcore_port
echo "rmmod rc=$?"
dmesg | grep 'schedcore_port: unloaded'
poweroff -f
INIT
chmod 755 "$root/init"
ino=1
cpio_entry() {  # cpio_entry NAME MODE_OCTAL FILE_OR_EMPTY
  local name=$1 mode=$2 file=$3 size=0 namesize
  [ -n "$file" ] && size=$(stat -c %s "$file")
  namesize=$(( ${#name} + 1 ))
  printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
    "$ino" "$((8#$mode))" 0 0 1 0 "$size" 0 0 0 0 "$namesize" 0
  printf '%s\0' "$name"
  head -c $(( (4 - (110 + namesize) % 4) % 4 )) /dev/zero
  if [ -n "$file" ]; then cat "$file"; head -c $(( (4 - size % 4) % 4 )) /dev/zero; fi
  ino=$((ino + 1))
}
{
  for d in bin proc sys dev; do cpio_entry "$d" 040755 ""; done
  cpio_entry bin/busybox 100755 "$root/bin/busybox"
  cpio_entry init 100755 "$root/init"
  cpio_entry schedcore_port.ko 100644 "$root/schedcore_port.ko"
  cpio_entry TRAILER!!! 0 ""
} | gzip -1 >"$work/initrd.cpio.gz"

# 4. Boot, insmod, check, rmmod, power off. TCG: KVM hangs at "Probing EDD" here (nested).
start=$(date +%s.%N)
timeout 300 qemu-system-x86_64 -accel tcg -cpu max -m 512 -display none -monitor none \
  -serial stdio -no-reboot -kernel "$vmlinuz" -initrd "$work/initrd.cpio.gz" \
  -append "console=ttyS0 panic=-1 loglevel=4" >"$work/console.log" 2>"$work/qemu.err"
qrc=$?
echo "qemu: rc $qrc, $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
grep -E 'schedcore_port|insmod rc|rmmod rc|tainted' "$work/console.log"
[ "$qrc" = 124 ] && fail "qemu timed out (console: $work/console.log)"
grep -q '^insmod rc=0' "$work/console.log" || fail "insmod failed"
grep -q '^rmmod rc=0' "$work/console.log" || fail "rmmod failed"
line=$(grep -o 'schedcore_port: selftest .*' "$work/console.log" | head -n 1 | tr -d '\r')
[ -n "$line" ] || fail "no self-test line in dmesg"
want=$(grep '^selftest ' "$expected")
case "$line" in
  "schedcore_port: $want eevdf="*" as-expected rc=0") ;;
  *) fail "self-test line '$line' does not start with '$want' and end with 'as-expected rc=0'" ;;
esac
grep -q 'schedcore_port: unloaded' "$work/console.log" || fail "no unload line"
# A check that fired: the handler's WARN line, and the W taint (bit 9) set by the load.
if grep -q 'schedcore_port: check failed' "$work/console.log"; then
  fail "a schedcore check failed during the load: $(grep -m1 -o 'schedcore_port: check failed.*' "$work/console.log")"
fi
t0=$(sed -n 's/^tainted before insmod=\([0-9]*\).*/\1/p' "$work/console.log" | head -n 1)
t1=$(sed -n 's/^tainted after insmod=\([0-9]*\).*/\1/p' "$work/console.log" | head -n 1)
[ -n "$t0" ] && [ -n "$t1" ] || fail "no taint flags in the console log"
if [ $(( t1 & 512 )) != 0 ] && [ $(( t0 & 512 )) = 0 ]; then fail "the load raised a kernel WARN (taint $t0 -> $t1)"; fi
if [ -n "$expected_line" ]; then
  want_line=$(head -n 1 "$expected_line")
  [ "$line" = "$want_line" ] || fail "result line differs from $(basename "$expected_line"):
  got:  $line
  want: $want_line"
fi
echo "ok: module built without warnings, loaded into $ver, self-test matches the other targets"
