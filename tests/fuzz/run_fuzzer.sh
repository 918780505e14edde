#!/usr/bin/env bash
# Builds one libFuzzer target with clang++ (-fsanitize=fuzzer,address,undefined; every UBSan
# finding aborts) and runs it over its committed seed corpus for a fixed number of runs. The main
# build uses g++, so ctest calls this script instead of a CMake target (as
# tests/freestanding/check_link.sh does for the bare-metal links).
#
#   run_fuzzer.sh CXX INCLUDE_ROOT SOURCE WORK_DIR SEED_CORPUS RUNS MAX_SECONDS [-Dextra ...]
#
# Deterministic, as every test of the suite: libFuzzer's random seed is fixed (FUZZ_SEED, 1 by
# default), the scratch corpus starts empty at every run, and address randomisation is off
# (setarch -R, where the kernel allows it: libFuzzer's comparison tracing feeds the operands it
# sees, pointers included, back into its mutations, so with ASLR two runs of one seed diverge).
# A run then explores the same inputs here and on a clean CI clone, and stops after RUNS inputs. MAX_SECONDS is only a safety net
# for a machine far slower than expected (a run that hits it explores fewer inputs; the log
# says so). FUZZ_SEED=0 draws a new seed at each run, for exploration.
#
# The binary and the scratch corpus stay in WORK_DIR (a crash leaves WORK_DIR/crash-<sha1>,
# reproduced by `WORK_DIR/<name> WORK_DIR/crash-<sha1>`); longer campaigns:
#   WORK_DIR/<name> -max_total_time=600 WORK_DIR/corpus SEED_CORPUS
set -u
cxx=$1; root=$2; src=$3; work=$4; seeds=$5; runs=$6; max_time=$7
shift 7
name=$(basename "$src" .cpp)
seed=${FUZZ_SEED:-1}
rm -rf "$work/corpus" "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$work"/slow-unit-* &&
  mkdir -p "$work/corpus" || exit 1
command -v "$cxx" >/dev/null || { echo "missing $cxx"; exit 1; }
# No debug information: at -O1 even line tables cost a third of a build (containers_fuzz: 15.2 s
# of CPU with -gline-tables-only, 9.7 s without; full debug information costs more again). A
# finding's stack still names the functions, UBSan's report its file and line, and the failing
# input is printed below: give this script -gline-tables-only as an extra argument to see lines.
flags=(-std=c++17 -O1 -g0 -fno-omit-frame-pointer
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror
       -DSCHEDCORE_ASSERT_HANDLER=schedcore_fuzz_check_handler
       -DSCHEDCORE_ENABLE_ASSERTS=1 -DSCHEDCORE_ENABLE_INVARIANTS=1
       -I"$root" -I"$(dirname "$src")" "$@")
# Rebuild only when the source, a header or the flags changed.
stamp="$work/$name.flags"
want="${flags[*]}"
if [ ! -x "$work/$name" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] ||
   [ -n "$(find "$src" "$(dirname "$src")"/*.hpp "$root/schedcore" -newer "$work/$name" -print -quit)" ]; then
  echo "building $name with $cxx"
  "$cxx" "${flags[@]}" "$src" -o "$work/$name.tmp" || { echo "FAIL: $name does not compile"; exit 1; }
  mv "$work/$name.tmp" "$work/$name" && printf '%s' "$want" > "$stamp"
fi
# FUZZ_DETECT_LEAKS=0 turns LeakSanitizer off: for targets whose code under test never
# allocates (the freestanding containers and policies), where a leak could only be the
# harness's and the leak checks (ptrace-based, stopping every thread) only add a way to fail
# that does not depend on the input.
leaks=${FUZZ_DETECT_LEAKS:-1}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=$leaks
fixed_layout=()
if setarch "$(uname -m)" -R true 2>/dev/null; then fixed_layout=(setarch "$(uname -m)" -R); fi
"${fixed_layout[@]}" "$work/$name" -runs="$runs" -max_total_time="$max_time" -timeout=10 -seed="$seed" -reload=0 -detect_leaks="$leaks" -print_final_stats=1 \
  -artifact_prefix="$work/" "$work/corpus" "$seeds" 2>"$work/$name.log"
rc=$?
grep -E '^(INFO: Seed|#[0-9]+ +DONE|Done|stat::number_of_executed_units|stat::peak_rss_mb)' "$work/$name.log" || tail -n 5 "$work/$name.log"
done_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
if [ $rc -eq 0 ] && [ -n "$done_runs" ] && [ "$done_runs" -lt "$runs" ]; then
  echo "note: the $max_time s safety limit stopped $name after $done_runs of $runs runs"
fi
if [ $rc -ne 0 ]; then
  echo "FAIL: $name exited with $rc; log: $work/$name.log"
  grep -E 'FUZZ FAILURE|runtime error|ERROR: |==ERROR|fatal error|last check|Test unit written|SUMMARY' "$work/$name.log" | head -n 20
  tail -n 15 "$work/$name.log"
  # The failing input itself, so that a failure seen only in a CI log can be reproduced:
  #   echo '<base64>' | base64 -d > input && WORK_DIR/<name> input
  for artifact in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$work"/slow-unit-*; do
    [ -f "$artifact" ] && echo "input $(basename "$artifact") (base64): $(base64 -w0 "$artifact")"
  done
  exit 1
fi
echo "ok: $name"
