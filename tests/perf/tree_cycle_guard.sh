#!/usr/bin/env bash
# The tree policies' cycle guard: instructions per scheduling cycle of cfs and eevdf, and of the
# raw rb_tree churns they are built on (tree_cycle_guard.cpp), counted by callgrind
# (--toggle-collect on the measured function; setup and warm-up are not counted).
# Deterministic: instruction counts, never time. Three checks, each printed with its bound:
#
# 1. Ratios (any compiler): a policy's instructions per cycle over its baseline's at the same N
#    (N = 8 and 1024), rounded up to 0.001, must not exceed the bound: the ratio measured when
#    the bound was set plus 8 %, rounded up. Catches a policy hot path that gets costlier
#    relative to the tree it runs on. Baselines: cfs_raw and eevdf_raw, the plain tree's churn;
#    eevdf_aug, eevdf's own container (the min-vruntime augmented tree with eevdf's key
#    dynamics), which leaves only the policy's own work in the ratio. A slowdown of the tree
#    itself moves both sides and passes here; checks 2 and 3 cover it. (Issue 5's target of
#    1.2x is in *time*, bench/*_bench.cpp: cfs meets it; these instruction ratios are higher
#    because the policy's arithmetic overlaps the tree's cache misses.)
# 2. Absolute instructions per cycle of all five structures at N = 8 and 1024: measured + 8 %,
#    rounded up to 0.1 instruction. Instruction counts depend on the compiler, its version and
#    the target, so these apply only when the build's COMPILER key (tests/perf/CMakeLists.txt:
#    compiler id, major version, processor, pointer bits, and "-customflags" if CMAKE_CXX_FLAGS
#    is set) equals the one the figures were recorded with; otherwise the script says they were
#    skipped and checks 1 and 3 still run.
# 3. Growth of the raw trees (any compiler): instructions per cycle at N = 65536 over N = 1024
#    must stay below 1.6 = log2(65536) / log2(1024), the growth of a cost that is all tree
#    descent (depth ~ log2 N); a cycle also has a part that does not grow (rebalancing near the
#    leaves, the caches), so an O(log n) tree stays well below it (measured 1.17-1.21), while an
#    O(n) step (an insert that walks the tree) grows ~64x. Such a run at N = 65536 is
#    quadratic in its setup and warm-up too, so every valgrind run is cut off after
#    run_limit_s seconds (a normal run takes ~2 s): a cut-off run is a FAIL, and the later
#    N = 65536 runs are skipped.
#
# Figures when the bounds were set (g++ 12.2, x86_64, -O2 -g, every fixture's cycle() inlined
# into the measured loop), instructions per cycle at N = 8 / 1024 / 65536:
#   cfs 218.3 / 283.9      cfs_raw 144.6 / 219.1 / 262.4     eevdf_aug 185.8 / 264.7 / 308.7
#   eevdf 272.8 / 319.5    eevdf_raw 131.3 / 204.8 / 246.7
# ratios: cfs/cfs_raw 1.510 / 1.296, eevdf/eevdf_raw 2.078 / 1.560, eevdf/eevdf_aug 1.469 /
# 1.207; growth 65536/1024: cfs_raw 1.198, eevdf_raw 1.205, eevdf_aug 1.167. eevdf's figures
# and bounds were set again when its pick and charge were trimmed (284.9 / 331.4 before; the
# others did not move).
#
#   tree_cycle_guard.sh DRIVER COMPILER
set -u
driver=$1; compiler=${2:-unknown}
recorded_with=GNU-12-x86_64-64  # the COMPILER key the absolute bounds were measured with
run_limit_s=60
if ! command -v valgrind >/dev/null 2>&1; then
  echo "FAIL: valgrind not found; the tree cycle guard needs callgrind (tools/deps.sh installs valgrind)"
  exit 1
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
declare -A IR  # "STRUCTURE N" -> instructions of the measured rounds
rounds=
measure() {  # STRUCTURE N -> IR["STRUCTURE N"]; status 2 when the run was cut off
  local out="$work/cg.$1.$2" rc
  timeout -k 5 "$run_limit_s" valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
    --toggle-collect=tree_cycle_guard_rounds "$driver" "$1" "$2" >"$work/log" 2>&1
  rc=$?
  if [ $rc = 124 ] || [ $rc = 137 ]; then
    echo "FAIL: $1 N=$2 did not finish within ${run_limit_s} s (a normal run takes ~2 s): its cost is far beyond an O(log n) tree's"
    return 2
  fi
  if [ $rc != 0 ]; then echo "FAIL: $1 N=$2: the driver or valgrind failed:"; cat "$work/log"; return 1; fi
  local ir r
  ir=$(awk '/^totals:/ {t=$2} /^summary:/ {s=$2} END {if (t != "") print t; else if (s != "") print s}' "$out")
  [ -n "$ir" ] && [ "$ir" -gt 0 ] || { echo "FAIL: no instruction count in $out"; return 1; }
  r=$(sed -n 's/.* rounds=\([0-9][0-9]*\).*/\1/p' "$work/log")
  [ -n "$r" ] && [ "$r" -gt 0 ] || { echo "FAIL: $1 N=$2: the driver did not report its rounds"; return 1; }
  rounds=$r
  IR["$1 $2"]=$ir
}
fmt3() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }  # x1000 integer -> decimal
fmt1() { printf '%d.%d' $(($1 / 10)) $(($1 % 10)); }        # x10 integer -> decimal
status=0
for s in cfs cfs_raw eevdf eevdf_raw eevdf_aug; do
  for n in 8 1024; do measure $s $n || exit 1; done
done

# 1. Ratios: "policy N baseline bound_x1000" (measured + 8 %).
for spec in "cfs 8 cfs_raw 1631" "cfs 1024 cfs_raw 1400" "eevdf 8 eevdf_raw 2245" "eevdf 1024 eevdf_raw 1685" \
            "eevdf 8 eevdf_aug 1587" "eevdf 1024 eevdf_aug 1304"; do
  set -- $spec
  pol=${IR["$1 $2"]}; raw=${IR["$3 $2"]}
  ratio=$(( (pol * 1000 + raw - 1) / raw ))  # x1000, rounded up
  printf '%-6s N=%-5s %s instr/cycle, %-9s %s: ratio %s (bound %s)\n' "$1" "$2" \
    "$(fmt3 $((pol * 1000 / rounds)))" "$3" "$(fmt3 $((raw * 1000 / rounds)))" "$(fmt3 $ratio)" "$(fmt3 $4)"
  if [ "$ratio" -gt "$4" ]; then
    echo "FAIL: $1 at N=$2 costs $(fmt3 $ratio)x $3's instructions per cycle (bound $(fmt3 $4)x)"
    status=1
  fi
done

# 2. Absolute bounds: "structure N bound_x10" in instructions per cycle x 10 (measured + 8 %).
if [ "$compiler" = "$recorded_with" ]; then
  for spec in "cfs_raw 8 1562" "cfs_raw 1024 2367" "eevdf_raw 8 1419" "eevdf_raw 1024 2213" \
              "eevdf_aug 8 2007" "eevdf_aug 1024 2859" "cfs 8 2359" "cfs 1024 3067" \
              "eevdf 8 2947" "eevdf 1024 3451"; do
    set -- $spec
    ir=${IR["$1 $2"]}
    x10=$(( (ir * 10 + rounds - 1) / rounds ))  # instructions per cycle x 10, rounded up
    printf '%-9s N=%-5s %s instr/cycle (bound %s)\n' "$1" "$2" "$(fmt3 $((ir * 1000 / rounds)))" "$(fmt1 $3)"
    if [ "$x10" -gt "$3" ]; then
      echo "FAIL: $1 at N=$2 costs $(fmt1 $x10) instructions per cycle (bound $(fmt1 $3))"
      status=1
    fi
  done
else
  echo "absolute bounds skipped: built with $compiler, the figures were recorded with $recorded_with (the ratio and growth checks still apply)"
fi

# 3. Growth of the raw trees from N = 1024 to N = 65536: bound 1.600 (x1000), rounded up.
growth_bound=1600
for s in cfs_raw eevdf_raw eevdf_aug; do
  measure $s 65536; rc=$?
  if [ $rc = 2 ]; then status=1; echo "FAIL: the remaining N=65536 runs are skipped"; break; fi
  [ $rc = 0 ] || exit 1
  small=${IR["$s 1024"]}; large=${IR["$s 65536"]}
  growth=$(( (large * 1000 + small - 1) / small ))
  printf '%-9s N=65536 %s instr/cycle over N=1024 %s: growth %s (bound %s)\n' "$s" \
    "$(fmt3 $((large * 1000 / rounds)))" "$(fmt3 $((small * 1000 / rounds)))" "$(fmt3 $growth)" "$(fmt3 $growth_bound)"
  if [ "$growth" -ge "$growth_bound" ]; then
    echo "FAIL: $s's cycle grows $(fmt3 $growth)x from N=1024 to N=65536, more than an O(log n) tree can ($(fmt3 $growth_bound)x)"
    status=1
  fi
done
[ $status = 0 ] && echo "PASS: cfs and eevdf cycles and their trees stay within their instruction bounds"
exit $status
