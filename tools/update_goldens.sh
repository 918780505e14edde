#!/usr/bin/env bash
# Regenerates tests/sim/golden/NAME.txt for every line of tests/sim/golden/commands.txt with the
# built schedsim (tests sim/golden/NAME compare against them). Run it only after re-measuring
# the documents that quote those outputs (docs/results.md, README.md, the simulator guide).
#
#   bash tools/update_goldens.sh [BUILD_DIR]     (default build/release)
set -eu
cd "$(dirname "$0")/.."
sim=${1:-build/release}/examples/schedsim
[ -x "$sim" ] || { echo "no $sim: build schedsim first (cmake --build --preset release --target schedsim)" >&2; exit 1; }
dir=tests/sim/golden
grep -v '^#' "$dir/commands.txt" | while read -r name args; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086  # the arguments are words, as the test splits them
  "$sim" $args --no-host-timing > "$dir/$name.txt"
  echo "wrote $dir/$name.txt ($(wc -c < "$dir/$name.txt") bytes): schedsim $args"
done
