#!/usr/bin/env bash
# Runs every Google Benchmark binary in a directory and prints, for each operation and N, the
# ratio schedcore / baseline of the measured CPU time (same binary, same run, so the ratio is
# meaningful on a noisy machine even when the absolute numbers are not).
#
#   bench_ratios.sh BENCH_DIR [min_time_seconds]
# Benchmarks must be named BM_<op>/<structure>/<N>; structures whose name starts with
# raw_*, boost_*, std_* or baseline* are baselines, every other structure is schedcore's.
# The container suites (rb_tree, prio_array), PELT and the cfs / eevdf cycles carry baselines; an
# operation without one (policy_bench's rows compare policies with each other, sim_bench's are
# whole simulations, eevdf_bench's pick) prints its times with the ratio column left empty.
set -euo pipefail
dir=$1; min_time=${2:-0.1}
csv=$(mktemp); trap 'rm -f "$csv"' EXIT
# Ratios are computed within one binary (one run): names may repeat across binaries.
for bin in "$dir"/*_bench; do
  [ -x "$bin" ] || continue
  echo "== $(basename "$bin")"
  # Benchmark 1.7 prints its context to stderr; CSV rows go to stdout.
  "$bin" --benchmark_format=csv --benchmark_min_time="$min_time" 2>/dev/null |
    awk -F, 'NR > 1 && $1 ~ /^"?BM_/ { gsub(/"/, "", $1); print $1 "," $4 "," $5 }' > "$csv"
awk -F, '
  {
    split($1, part, "/"); op = part[1]; sub(/^BM_/, "", op); structure = part[2]; n = part[3]
    key = op SUBSEP n
    t[key, structure] = $2; unit[key, structure] = $3
    if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
    if (!((op, structure) in known)) { known[op, structure] = 1; structs[op] = structs[op] " " structure }
  }
  END {
    printf "%-8s %-8s %-24s %12s   %s\n", "op", "N", "structure", "cpu time", "schedcore / this"
    for (i = 1; i <= nk; ++i) {
      split(keys[i], kn, SUBSEP); op = kn[1]; n = kn[2]
      ns = split(structs[op], names, " ")
      for (j = 1; j <= ns; ++j) {
        s = names[j]; if (!((keys[i], s) in t)) continue
        ratios = ""
        if (s ~ /^(raw_|boost_|std_|baseline)/) {
          for (k = 1; k <= ns; ++k) {
            ours = names[k]
            if (ours !~ /^(raw_|boost_|std_|baseline)/ && (keys[i], ours) in t && t[keys[i], s] > 0)
              ratios = ratios sprintf("%s %.2fx  ", ours, t[keys[i], ours] / t[keys[i], s])
          }
        }
        printf "%-8s %-8s %-24s %9.2f %-2s   %s\n", op, n, s, t[keys[i], s], unit[keys[i], s], ratios
      }
    }
  }' "$csv"
done
