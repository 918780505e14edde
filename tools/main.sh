#!/usr/bin/env bash
# The main job: builds the simulator (release) and runs `schedsim compare` over the seed
# scenarios, printing seed-style tables (extra arguments go to schedsim, e.g. --format json).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
. tools/deps.sh
schedcore_install_deps "${SCHEDCORE_HOST_PACKAGES[@]}"
jobs=$(nproc 2>/dev/null || echo 2)
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs" --target schedsim
exec build/release/examples/schedsim compare --scenario all "$@"
