#!/usr/bin/env bash
# The main job: builds schedcore (release) and runs its headline program. Until the simulator
# lands this is the container benchmark with its std/Boost baselines and ratios; once
# `schedsim` exists it is `schedsim compare` over the seed scenarios.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
. tools/deps.sh
schedcore_install_deps "${SCHEDCORE_HOST_PACKAGES[@]}"
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release -DSCHEDCORE_CROSS_TESTS=OFF >/dev/null
cmake --build --preset release -j "$jobs"
if [ -x build/release/examples/schedsim ]; then
  exec build/release/examples/schedsim compare --scenario all "$@"
elif [ -x tools/bench_ratios.sh ] && ls build/release/bench/*_bench >/dev/null 2>&1; then
  exec bash tools/bench_ratios.sh build/release/bench "$@"
else
  exec build/release/examples/example_quickstart
fi
