# Sourced by the O(1) guards (o1_guard.sh, policy_o1_guard.sh): their one absolute check.
# Instruction counts depend on the compiler, its version and the target, so a bound recorded
# with one build applies only when the build's COMPILER key (tests/perf/CMakeLists.txt) equals
# the one it was recorded with; otherwise the check says it was skipped.
# check_absolute_bound NAME N IR BOUND COMPILER RECORDED_WITH OTHER_CHECK
#   prints the verdict; returns 1 only when the bound applies and IR exceeds it.
check_absolute_bound() {
  local name=$1 n=$2 ir=$3 bound=$4 compiler=$5 recorded_with=$6 other=$7
  if [ -z "$bound" ]; then
    echo "no absolute bound recorded for $name"
  elif [ "$compiler" != "$recorded_with" ]; then
    echo "absolute bound skipped: built with $compiler, the figures were recorded with $recorded_with (the $other check still applies)"
  elif [ "$ir" -gt "$bound" ]; then
    echo "FAIL: $name: Ir(N=$n)=$ir exceeds its bound $bound (measured + 8 %)"
    return 1
  else
    echo "ok: $name: Ir(N=$n)=$ir within its bound $bound (measured + 8 %)"
  fi
  return 0
}
