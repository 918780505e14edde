#!/usr/bin/env bash
# Regenerates the plots of docs/results.md (docs/img/results-*.svg) with the simulator's own SVG
# writer (include/schedcore/sim/svg.hpp): no Python, no gnuplot. Deterministic: the same tree
# gives the same files, except the pick-next plot, which is host timing.
#
# usage: tools/make_plots.sh [--check] [BUILD_DIR]        (default build/release)
#   --check: write nothing; compare the deterministic plots with docs/img and exit 1 naming any
#   that differ (the test sim/plots-current runs this, so a model change that moves a plot
#   fails until the plots are regenerated). The pick-next plot is not checked.
#   needs BUILD_DIR/examples/schedsim (cmake --build BUILD_DIR --target schedsim);
#   pick-next cost: BENCH_CSV=FILE (a `policy_bench --benchmark_format=csv` output), else
#   BUILD_DIR/bench/policy_bench is run (BM_cycle rows, about 20 s), else the sample
#   tests/sim/plots-bench-sample.csv is plotted (and the script says so).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
build=${1:-build/release}
sim=$build/examples/schedsim
if [ ! -x "$sim" ]; then
  echo "make_plots: $sim not found; build it first: cmake --build $build --target schedsim" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seed_rows=cfs2007:granularity=5ms,cfs2007:granularity=0,sd:rr_interval=2ms,sd,o1,cfs,eevdf
"$sim" plot --scenario desktop-2007 --policies "$seed_rows" --only latency,fps --out "$tmp/d" >/dev/null
"$sim" plot --scenario desktop-2007 --only sweep,nice --out "$tmp/d" >/dev/null
"$sim" plot --scenario kernbench-4cpu --only sweep --out "$tmp/k" >/dev/null
# What each deterministic plot of the documents is, in the plot command's output.
plots=(
  "d/desktop-2007.latency-cdf.svg results-latency-cdf.svg"
  "d/desktop-2007.fps-totem.svg results-fps-totem.svg"
  "d/desktop-2007.sweep-cs.svg results-sweep-cs-desktop.svg"
  "k/kernbench-4cpu.sweep-cs.svg results-sweep-cs-kernbench.svg"
  "k/kernbench-4cpu.sweep-makespan.svg results-sweep-makespan-kernbench.svg"
  "d/nice-share.svg results-nice-share.svg"
)
if [ "$check" = 1 ]; then
  stale=0
  for p in "${plots[@]}"; do
    set -- $p
    if ! cmp -s "$tmp/$1" "docs/img/$2"; then
      echo "make_plots: docs/img/$2 is not what this tree plots: run tools/make_plots.sh, then re-read what docs/results.md says about it" >&2
      stale=1
    fi
  done
  [ "$stale" = 0 ] && echo "make_plots: the ${#plots[@]} deterministic plots in docs/img are current"
  exit "$stale"
fi
csv=${BENCH_CSV:-}
if [ -z "$csv" ] && [ -x "$build/bench/policy_bench" ]; then
  echo "make_plots: running $build/bench/policy_bench (BM_cycle only)"
  "$build/bench/policy_bench" --benchmark_filter='BM_cycle/.*/(8|64|1024|16384|262144)$' --benchmark_min_time=0.05 \
    --benchmark_format=csv >"$tmp/bench.csv" 2>/dev/null
  csv=$tmp/bench.csv
fi
if [ -z "$csv" ]; then
  csv=tests/sim/plots-bench-sample.csv
  echo "make_plots: no BENCH_CSV and no $build/bench/policy_bench: plotting the sample $csv"
fi
"$sim" plot --only bench --bench "$csv" --out "$tmp/b" >/dev/null
mkdir -p docs/img
for p in "${plots[@]}"; do
  set -- $p
  cp "$tmp/$1" "docs/img/$2"
done
cp "$tmp/b/pick-next.svg" docs/img/results-pick-next.svg
ls -1 docs/img/results-*.svg
