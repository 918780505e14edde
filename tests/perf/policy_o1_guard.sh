#!/usr/bin/env bash
# The policies' O(1) guard: runs policy_o1_guard under callgrind at two run-queue lengths and
# compares the instruction counts of the measured rounds only (--toggle-collect on the
# function that runs them; setup is not counted). Deterministic: instruction counts, never time.
#
#   policy_o1_guard.sh DRIVER POLICY flat     Ir(N=16) and Ir(N=65536) differ by under 5 %
#   policy_o1_guard.sh DRIVER POLICY grows    Ir(N=4096) / Ir(N=16) > 100 (the positive
#                                             control: proves the guard sees an O(n) pick)
set -u
driver=$1; policy=$2; mode=$3
small=16; limit_pct=5; min_growth=100
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
  if [ $(( diff * 100 )) -lt $(( limit_pct * lo )) ]; then
    echo "ok: $policy's cycle is O(1) in N"; exit 0
  fi
  echo "FAIL: $policy's cycle cost depends on N"; exit 1
fi
ratio_x100=$(( b * 100 / a ))
printf '%s: Ir(N=%s)=%s Ir(N=%s)=%s growth=%d.%02dx (must exceed %sx)\n' "$policy" $small "$a" \
  $large "$b" $((ratio_x100 / 100)) $((ratio_x100 % 100)) $min_growth
if [ "$b" -gt $(( a * min_growth )) ]; then
  echo "ok: the guard sees $policy's O(n) pick"; exit 0
fi
echo "FAIL: $policy did not grow with N: the guard could not tell O(n) from O(1)"; exit 1
