#!/usr/bin/env bash
# Group scheduling against the kernel it runs on: CPU hogs in cpu cgroups, on the kernel and in
# schedsim (group_policy over the kernel's fair policy, the same groups through rt-app's
# taskgroup), side by side. Needs root and the cpu controller (cgroup v1
# `cpu.shares` or v2 `cpu.weight`). Timing-dependent: a measurement to read, not a test.
#
#   bash tools/kernel_cgroup_check.sh [--cpu K] [--seconds S]
#
# Three experiments, every group at the default weight (1024 shares, cpu.weight 100):
#   flat:   /sc_a holds 1 hog, /sc_b 4 hogs, pinned to CPU K: cgroup weights say 50 % and 12.5 %
#   nested: /sc_a holds 1 hog and /sc_a/x with 2 hogs, /sc_b 1 hog, pinned: 25 %, 12.5 % each, 50 %
#           (cgroup v1 only: v2's no-internal-process rule keeps the cpu controller out of a group
#           that holds tasks itself, so on v2 /sc_a/x has no cpu.weight and the kernel weighs its
#           hogs as /sc_a's own: about 16.7 % each of A's three, against the model's 25 / 12.5)
#   spread: the flat groups on two CPUs (K and K-1), not pinned: the balancer has to put A's hog
#           alone on one CPU for A to get its half of the machine (100 % of a CPU, B's 25 % each)
# Each hog's CPU time comes from /proc/PID/schedstat (ns) over S seconds (default 3) after a
# 0.2 s start. Anything else running on that CPU takes its share from the root, so the ratios
# between the hogs are what to compare on a busy machine.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cpu=1
secs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu) cpu=$2; shift 2 ;;
    --seconds) secs=$2; shift 2 ;;
    *) echo "usage: $0 [--cpu K] [--seconds S]" >&2; exit 2 ;;
  esac
done
if [ -w /sys/fs/cgroup/cpu ] && [ -f /sys/fs/cgroup/cpu/cpu.shares ]; then
  root=/sys/fs/cgroup/cpu; weight_file=cpu.shares; weight=1024
elif [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers; then
  root=/sys/fs/cgroup; weight_file=cpu.weight; weight=100
  echo +cpu > $root/cgroup.subtree_control
else
  echo "$0: no writable cpu cgroup controller (cgroup v1 cpu or v2 with cpu): run as root on a kernel with cgroups" >&2
  exit 1
fi
schedsim=$here/build/release/examples/schedsim
[ -x "$schedsim" ] || cmake --build --preset release --target schedsim >/dev/null
kernel=$(uname -r)
case "$kernel" in
  [0-5].*|6.[0-5].*) policy=cfs ;;
  *) policy=eevdf ;;
esac

# run_kernel "group:count ..." [CPUS] -> "group hog_index cpu_ns" lines (CPUS: taskset list)
run_kernel() {
  local spec=$1 cpus=${2:-$cpu} pids=() groups=()
  for g in $spec; do
    local name=${g%%:*} n=${g##*:}
    mkdir -p "$root/$name"
    [ -f "$root/$name/$weight_file" ] && echo $weight > "$root/$name/$weight_file"
    for ((i = 0; i < n; ++i)); do
      taskset -c "$cpus" sh -c 'while :; do :; done' &
      echo $! > "$root/$name/cgroup.procs"
      pids+=($!)
      groups+=("$name")
    done
  done
  sleep 0.2
  local start=() k
  for k in "${!pids[@]}"; do start[$k]=$(cut -d' ' -f1 /proc/${pids[$k]}/schedstat); done
  sleep "$secs"
  for k in "${!pids[@]}"; do
    echo "${groups[$k]} $k $(( $(cut -d' ' -f1 /proc/${pids[$k]}/schedstat) - ${start[$k]} ))"
  done
  kill "${pids[@]}"
  wait 2>/dev/null || true
  for g in $(echo $spec | tr ' ' '\n' | sed 's/:.*//' | sort -r); do rmdir "$root/$g"; done
}

# run_model "group:count ..." [NCPUS] -> the same lines from schedsim (rt-app taskgroups; one CPU:
# pinned to it, as the kernel's hogs; more: not pinned)
run_model() {
  local spec=$1 ncpus=${2:-1} json=/tmp/schedsim_cgroup_check.$$.json first=1 k=0 pin='"cpus": [0], '
  {
    echo '{ "global": { "duration": '"$secs"' }, "tasks": {'
    for g in $spec; do
      local name=${g%%:*} n=${g##*:}
      for ((i = 0; i < n; ++i)); do
        [ $first = 1 ] || echo ','
        first=0
        [ "$ncpus" = 1 ] || pin=''
        printf '"hog%d": { "taskgroup": "/%s", %s"loop": -1, "run": 100000 }' $k "$name" "$pin"
        k=$((k + 1))
      done
    done
    echo '} }'
  } > "$json"
  "$schedsim" run --rt-app "$json" --policy "$policy" --cpus "$ncpus" --format csv --cs-cost 0 --refill 0 |
    awk -F, 'NR > 1 && $3 != "_total" { print $3, $5 }' |
    while read -r task ns; do
      task=${task%-0}  # rt-app instance names: hogK-0
      echo "$(grep -o "\"$task\": { \"taskgroup\": \"/[^\"]*" "$json" | sed 's/.*"\///') ${task#hog} $ns"
    done
  rm -f "$json"
}

compare() {
  local title=$1 spec=$2 cpus=${3:-$cpu} ncpus=${4:-1}
  echo "== $title (CPUs $cpus, $secs s; kernel $kernel; model: schedsim $policy with group_policy)"
  printf '%-10s %-5s %12s %12s\n' group hog "kernel %" "model %"
  paste <(run_kernel "$spec" "$cpus") <(run_model "$spec" "$ncpus") |
    awk -v s="$secs" '{ printf "%-10s %-5s %12.1f %12.1f\n", $1, $2, 100 * $3 / (s * 1e9), 100 * $6 / (s * 1e9) }'
}

compare "flat: /sc_a 1 hog, /sc_b 4 hogs (weights say 50 and 12.5 each)" "sc_a:1 sc_b:4"
compare "nested: /sc_a 1 hog + /sc_a/x 2 hogs, /sc_b 1 hog (25, 12.5 each, 50)" "sc_a:1 sc_a/x:2 sc_b:1"
if [ "$cpu" -ge 1 ]; then
  compare "spread: the flat groups on 2 CPUs, not pinned (% of one CPU: A's hog 100, B's 25 each)" "sc_a:1 sc_b:4" "$((cpu - 1)),$cpu" 2
fi
