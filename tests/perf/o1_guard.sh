#!/usr/bin/env bash
# The O(1) guard: runs the driver under callgrind at two run-queue lengths and asserts that the
# instruction counts of the measured rounds (only: --toggle-collect) differ by under 5%.
# Deterministic (instruction counts, never time).
#
#   o1_guard.sh DRIVER STRUCTURE [expect-fail]
#
# With expect-fail the structure must FAIL the guard (negative control: proves the guard can
# see an O(n) pick).
set -u
driver=$1; structure=$2; mode=${3:-expect-pass}
small=16; large=65536; limit_pct=5
if ! command -v valgrind >/dev/null 2>&1; then
  echo "FAIL: valgrind not found; the O(1) guard needs callgrind (tools/deps.sh installs valgrind)"
  exit 1
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
count() {  # N -> total Ir inside the collected function
  local n=$1 out="$work/cg.$1"
  if ! valgrind --tool=callgrind --callgrind-out-file="$out" \
         --toggle-collect="o1_guard_rounds_${structure}" "$driver" "$structure" "$n" \
         >"$work/log.$n" 2>&1; then
    echo "FAIL: valgrind run failed for $structure N=$n:" >&2; cat "$work/log.$n" >&2; return 1
  fi
  local ir
  ir=$(awk '/^totals:/ {print $2} /^summary:/ {s=$2} END {if (s != "") print s}' "$out" | tail -n 1)
  [ -n "$ir" ] && [ "$ir" -gt 0 ] || { echo "FAIL: no instruction count in $out" >&2; return 1; }
  echo "$ir"
}
a=$(count $small) || exit 1
b=$(count $large) || exit 1
# |b - a| * 100 < limit * min(a, b), in integers.
diff=$(( b > a ? b - a : a - b )); lo=$(( a < b ? a : b ))
pct_x100=$(( diff * 10000 / lo ))
printf '%s: Ir(N=%s)=%s Ir(N=%s)=%s difference=%d.%02d%% (limit %s%%)\n' "$structure" $small "$a" \
  $large "$b" $((pct_x100 / 100)) $((pct_x100 % 100)) $limit_pct
if [ $(( diff * 100 )) -lt $(( limit_pct * lo )) ]; then
  [ "$mode" = expect-fail ] && { echo "FAIL: the negative control passed: the guard cannot see O(n)"; exit 1; }
  echo "ok: $structure is O(1) in N"
else
  [ "$mode" = expect-fail ] && { echo "ok: the guard detects the O(n) negative control"; exit 0; }
  echo "FAIL: $structure's cost depends on N"; exit 1
fi
