#!/usr/bin/env bash
# PELT against the kernel it runs on: a task that runs RUN ms of every PERIOD ms, alone on one
# CPU, its util_avg and runnable_avg read from /proc (se.avg.*) and computed by schedcore's
# smp/pelt.hpp for the same cycle (tools/kernel-check/pelt_native.cpp), side by side (load_avg
# is read too but not shown): the mean and the range over 60 samples spread over 3 s.
# Timing-dependent: a measurement to read, not a test. Needs Linux 5.7+ (se.avg.runnable_avg) with /proc/PID/sched
# (CONFIG_SCHED_DEBUG). Run it on a quiet machine: a task that has to wait for the CPU is
# runnable longer than it runs, which the model's task never is.
#
#   bash tools/kernel_pelt_check.sh [--cpu K] [--hz HZ]
# --hz: the kernel's tick rate (default: CONFIG_HZ from /boot/config-$(uname -r), else 250),
# where the model updates a running task's signal, as scheduler_tick does.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cpu=-1
hz=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu) cpu=$2; shift 2 ;;
    --hz) hz=$2; shift 2 ;;
    *) echo "usage: $0 [--cpu K] [--hz HZ]" >&2; exit 2 ;;
  esac
done
if [ -z "$hz" ]; then
  hz=$(grep -s '^CONFIG_HZ=' "/boot/config-$(uname -r)" | cut -d= -f2 || true)
  [ -n "$hz" ] || hz=250
fi
tool=$here/build/release/examples/pelt_native
[ -x "$tool" ] || cmake --build --preset release --target pelt_native >/dev/null
echo "== PELT of a duty-cycle task: Linux $(uname -r) against smp/pelt.hpp (mean [min-max] of 60 samples; ideal = 1024 x run/period)"
printf '%-14s %6s   %-22s %-22s   %-22s %-22s\n' "run/period ms" ideal "kernel util" "model util" "kernel runnable" "model runnable"
for cycle in 1/10 3/10 5/10 8/10 10/50 20/100 50/100; do
  run=${cycle%/*}; period=${cycle#*/}
  k=$("$tool" kernel --run "$run" --period "$period" --cpu "$cpu" --seconds 4)
  m=$("$tool" model --run "$run" --period "$period" --hz "$hz" --seconds 4)
  echo "$cycle $k | $m" | awk '{
    split($1, rp, "/"); ideal = 1024 * rp[1] / rp[2]
    printf "%-14s %6.0f   %-22s %-22s   %-22s %-22s\n", $1, ideal,
      sprintf("%d [%d-%d]", $3, $4, $5), sprintf("%d [%d-%d]", $16, $17, $18),
      sprintf("%d [%d-%d]", $7, $8, $9), sprintf("%d [%d-%d]", $20, $21, $22) }'
done
