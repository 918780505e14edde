#!/usr/bin/env bash
# The policies' O(1) guard: runs policy_o1_guard under callgrind at two run-queue lengths and
# compares the instruction counts of the measured rounds only (--toggle-collect on the
# function that runs them; setup is not counted). Deterministic: instruction counts, never time.
#
#   policy_o1_guard.sh DRIVER POLICY flat COMPILER   Ir(N=16) and Ir(N=65536) differ by under
#                                                    5 %, and Ir(N=16) is within its absolute
#                                                    bound (below)
#   policy_o1_guard.sh DRIVER POLICY grows [COMPILER]  Ir(N=4096) / Ir(N=16) > 100 (the positive
#                                                    control: proves the guard sees an O(n) pick)
#
# The flat check catches a cost that grows with N (the rounds include a sleep/wakeup at a level
# whose length grows with N, policy_o1_guard.cpp); the absolute bound catches a constant-factor
# slowdown, which is flat in N: Ir(N=16) must not exceed the figure measured when the bound was
# set plus 8 %, rounded up. Instruction counts depend on the compiler, its version and the
# target, so the absolute bound applies only when the build's COMPILER key
# (tests/perf/CMakeLists.txt: compiler id, major version, processor, pointer bits, and
# "-customflags" if CMAKE_CXX_FLAGS is set) equals the one the figures were recorded with;
# otherwise the script says it was skipped and the flat check still runs.
# Figures when the bounds were set (g++ 12.2, x86_64, -O2 -g), Ir of the measured rounds,
# identical at N=16 and N=65536: rr 6800027 (20000 rounds, 340.0 per round), o1 11007962 (20000,
# 550.4), sd 1315183 (2500, 526.1); goodness24 668526 at N=16, 127148526 at N=4096 (190x).
set -u
driver=$1; policy=$2; mode=$3; compiler=${4:-unknown}
small=16; limit_pct=5; min_growth=100
recorded_with=GNU-12-x86_64-64  # the COMPILER key the absolute bounds were measured with
case $policy in  # Ir bound of the measured rounds at N=16: measured + 8 %, rounded up
  rr) abs_bound=7344030 ;;   # 6800027 * 1.08
  o1) abs_bound=11888599 ;;  # 11007962 * 1.08
  sd) abs_bound=1420398 ;;   # 1315183 * 1.08
  *) abs_bound= ;;
esac
case $mode in
  flat) large=65536 ;;
  grows) large=4096 ;;
  *) echo "FAIL: unknown mode '$mode' (flat | grows)"; exit 2 ;;
esac
if ! command -v valgrind >/dev/null 2>&1; then
  echo "FAIL: valgrind not found; the policy O(1) guard needs callgrind (tools/deps.sh installs valgrind)"
  exit 1
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
count() {  # N -> total Ir inside the collected function
  local n=$1 out="$work/cg.$1"
  if ! valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
         --toggle-collect="policy_o1_guard_rounds_${policy}" "$driver" "$policy" "$n" \
         >"$work/log.$n" 2>&1; then
    echo "FAIL: $policy N=$n: the driver or valgrind failed:" >&2; cat "$work/log.$n" >&2; return 1
  fi
  grep "^$policy N=" "$work/log.$n" >&2
  local ir
  ir=$(awk '/^totals:/ {t=$2} /^summary:/ {s=$2} END {if (t != "") print t; else if (s != "") print s}' "$out")
  [ -n "$ir" ] && [ "$ir" -gt 0 ] || { echo "FAIL: no instruction count in $out" >&2; return 1; }
  echo "$ir"
}
a=$(count $small) || exit 1
b=$(count $large) || exit 1
if [ "$mode" = flat ]; then
  # |b - a| * 100 < limit * min(a, b), in integers.
  diff=$(( b > a ? b - a : a - b )); lo=$(( a < b ? a : b ))
  pct_x100=$(( diff * 10000 / lo ))
  printf '%s: Ir(N=%s)=%s Ir(N=%s)=%s difference=%d.%02d%% (limit %s%%)\n' "$policy" $small "$a" \
    $large "$b" $((pct_x100 / 100)) $((pct_x100 % 100)) $limit_pct
  status=0
  if [ $(( diff * 100 )) -lt $(( limit_pct * lo )) ]; then
    echo "ok: $policy's cycle is O(1) in N"
  else
    echo "FAIL: $policy's cycle cost depends on N"; status=1
  fi
  . "$(dirname "$0")/absolute_bound.sh"
  check_absolute_bound "$policy" "$small" "$a" "$abs_bound" "$compiler" "$recorded_with" flat || status=1
  exit $status
fi
ratio_x100=$(( b * 100 / a ))
printf '%s: Ir(N=%s)=%s Ir(N=%s)=%s growth=%d.%02dx (must exceed %sx)\n' "$policy" $small "$a" \
  $large "$b" $((ratio_x100 / 100)) $((ratio_x100 % 100)) $min_growth
if [ "$b" -gt $(( a * min_growth )) ]; then
  echo "ok: the guard sees $policy's O(n) pick"; exit 0
fi
echo "FAIL: $policy did not grow with N: the guard could not tell O(n) from O(1)"; exit 1
