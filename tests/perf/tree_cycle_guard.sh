#!/usr/bin/env bash
# The tree policies' cycle guard: instructions per scheduling cycle of cfs and eevdf against the
# raw rb_tree churn they are built on (tree_cycle_guard.cpp), and eevdf's against its augmented
# container's churn (eevdf_aug), at N = 8 and N = 1024, counted by
# callgrind (--toggle-collect on the measured function; setup and warm-up are not counted).
# Deterministic: instruction counts, never time. It fails when a policy's ratio to its raw tree
# exceeds its bound: the ratios measured when the guard was written (g++ 12 -O2, cfs 1.52 and
# 1.30, eevdf 2.24 and 1.69) plus 8 %, so a change that makes the hot path costlier relative to
# the tree it runs on shows up here. (Issue 5's target of 1.2x is in *time*, bench/*_bench.cpp:
# cfs meets it; these instruction ratios are higher because the policy's arithmetic overlaps the
# tree's cache misses.)
#
#   tree_cycle_guard.sh DRIVER
set -u
driver=$1
if ! command -v valgrind >/dev/null 2>&1; then
  echo "FAIL: valgrind not found; the tree cycle guard needs callgrind (tools/deps.sh installs valgrind)"
  exit 1
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
per_cycle() {  # STRUCTURE N -> instructions per cycle x 1000 (integer)
  local out="$work/cg.$1.$2"
  if ! valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
         --toggle-collect=tree_cycle_guard_rounds "$driver" "$1" "$2" >"$work/log" 2>&1; then
    echo "FAIL: $1 N=$2: the driver or valgrind failed:" >&2; cat "$work/log" >&2; return 1
  fi
  local ir
  ir=$(awk '/^totals:/ {t=$2} /^summary:/ {s=$2} END {if (t != "") print t; else if (s != "") print s}' "$out")
  [ -n "$ir" ] && [ "$ir" -gt 0 ] || { echo "FAIL: no instruction count in $out" >&2; return 1; }
  echo $(( ir * 1000 / 20000 ))
}
status=0
# policy N baseline bound_x100. The baselines: cfs_raw and eevdf_raw, the plain tree's churn;
# eevdf_aug, eevdf's own container (the min-vruntime augmented tree with eevdf's key dynamics),
# which leaves the policy's own work in the ratio (1.53 and 1.26 when written).
for spec in "cfs 8 cfs_raw 165" "cfs 1024 cfs_raw 142" "eevdf 8 eevdf_raw 242" "eevdf 1024 eevdf_raw 183" \
            "eevdf 8 eevdf_aug 165" "eevdf 1024 eevdf_aug 136"; do
  set -- $spec
  pol=$(per_cycle "$1" "$2") || exit 1
  raw=$(per_cycle "$3" "$2") || exit 1
  ratio_x100=$(( pol * 100 / raw ))
  printf '%-6s N=%-5s %8d.%03d instr/cycle, %-9s %8d.%03d: ratio %d.%02d (bound %d.%02d)\n' \
    "$1" "$2" $((pol / 1000)) $((pol % 1000)) "$3" $((raw / 1000)) $((raw % 1000)) \
    $((ratio_x100 / 100)) $((ratio_x100 % 100)) $(($4 / 100)) $(($4 % 100))
  if [ "$ratio_x100" -gt "$4" ]; then
    echo "FAIL: $1 at N=$2 costs ${ratio_x100}% of $3's instructions per cycle (bound $4%)"
    status=1
  fi
done
[ $status = 0 ] && echo "PASS: cfs and eevdf cycles stay within their instruction bounds against the raw tree"
exit $status
