#!/usr/bin/env bash
# schedsim against the kernel it runs on: interbench's benchmarked tasks and CPU loads run as
# real threads (interbench_native, pinned to one CPU) and in schedsim under the policy that
# kernel implements, with its tick and base slice, and the two interbench tables are printed
# side by side. Timing-dependent by nature: this is a measurement to read, not a test.
#
#   bash tools/kernel_check.sh [--duration S] [--runs N] [--cpu K] [--pairs "audio/burn x/burn ..."]
#                              [--policy SPEC] [--trace DIR] [--no-smp]
#
# It builds what it runs in this checkout's build/release (cmake --preset release, then the targets
# schedsim, interbench_native, hogs_native and slices_native: a few minutes on a fresh tree).
# --duration is rounded up to whole 10 s X ramps (at least 10 s), as interbench rounds.
# Defaults: 30 s per pair (interbench's), the first CPU the process may use, the 14 pairs of Audio, Video, X and Gaming under
# None, Video, X and Burn (the disk loads need a disk model). About 8 minutes. Run it on a quiet
# machine: anything else on that CPU is load the model does not have. With --runs N each pair
# runs N times on the kernel; the table shows the run with the median average latency and the
# range of the averages (a periodic task's phase against X's ramp, Video's period or the tick is
# whatever the run started with, so those pairs vary from run to run). The model runs the same
# uncertainty as a grid of 64 runs: 8 tick phases (--tick-phase 0, 1/8, ... 7/8 of a tick: where
# its tick grid sits against the tasks' timers) times 8 start delays of the benchmarked thread
# (the interbench scenario's D= option, schedsim's own: D=0, 2083, ... 14582 us: its phase against Video's 16.7 ms period and X's
# steps, which on the kernel is whatever thread start-up made it). It shows the same two things:
# the run with the median average, and the range of the averages. c/w checks the kernel run's
# work: the benchmarked thread's CPU time per ns of work it was given (1.00 when the work was
# the model's; interbench_native.cpp burn()).
#
# The policy: Linux 6.6 and later schedule SCHED_OTHER with EEVDF, earlier 2.6.23+ with CFS.
# The knobs follow the kernel's defaults: a re-pick of prev keeps its slice protection (no
# set_next_entity for prev, with FAIR_GROUP_SCHED as distributions build; every 6.11+); from
# 6.12 delayed dequeue, PREEMPT_SHORT and PLACE_REL_DEADLINE; from 6.17 slice protection up to
# the shortest queued slice; from 6.18 the yield that forfeits the rest of the request; from
# 6.19, and 6.18.33 on (the May 2026 stable update that took them back), 6.19's wakeup
# preemption and the wakeup pick that finishes delayed dequeues; from 7.0 the lag clamp from
# the longest queued slice (also in 2026's stable updates of 6.12 and 6.18, which the version
# number does not tell: --policy); from 7.1 the floor under a delayed sleeper's lag
# (delayed_lag_floor);
# base slice 0.75 ms (0.70 ms from 6.15), scaled by 1 + ilog2(min(online CPUs, 8)) (`cpus=`);
# the tick from CONFIG_HZ (/proc/config.gz or /boot/config-*; 250 when neither says). The
# kernel's sysctls are not read: a tuned kernel needs the knobs given by hand (--policy SPEC
# overrides the choice).
#
# Then, on a machine with 2 or more CPUs the process may use (unless --no-smp): the balancer
# check. N + 1 CPU hogs run unpinned on N CPUs (hogs_native) for the same duration, and in
# schedsim on N CPUs with the kernel's busy balance interval (32·N ms, the interval a
# sched domain of N CPUs reaches after a failed balance: max_interval 2·N ms times busy_factor
# 16) and balance_failed=1 (nr_balance_failed). Each hog's share of a CPU and its migrations
# are printed side by side, with the default model (balance_failed=0) for contrast.
#
# Last, on Linux 6.12+: the custom-slice check. slices_native runs the eevdf-slices experiment
# (5 massive_intr threads with a 100 ms slice, 5 cyclictest threads with 500 us, set with
# sched_setattr's sched_runtime) unpinned for the same duration, and again without the slices;
# schedsim runs eevdf-slices/custom and /none on as many CPUs. Columns: cyclictest's average and
# summed run-queue delay (the kernel's /proc/thread-self/schedstat; the model's wait), and
# massive_intr's context switches and summed delay. A cyclictest job is 10 us of work, but the
# kernel charges the thread its system calls and wakeup path too (19-23 us a job in this VM);
# slices_native reports that CPU time per run, and the first schedsim column replays the model
# at it (eevdf-slices/VARIANT:J=US, less the 2 us switch the model charges apart), the second
# at the scenario's own 10 us. Both sides start the cyclictest threads' timer grids 100 us apart
# (slices_native --stagger 100, the scenario's S=100): started together, their phases are a few
# us apart by chance, and that chance moves the kernel's delays by 2x from run to run. The model
# balances as the kernel does (the balancer check's --balance 32·N ms --balance-failed 1).
# A kernel thread that runs without preemption (PREEMPT_NONE) delays cyclictest too: when the
# machine runs DAMON's kdamond threads, the script reads their runs from /proc/PID/schedstat
# across the kernel runs, and the first schedsim column adds a thread on CPU 0 with that mean
# run and sleep (scenario options K=US,P=MS).
#
# --trace DIR also writes, per pair, an ftrace text trace (sched_switch, sched_wakeup) of each
# kernel run, DIR/kernel-BENCH-LOAD-RUN.txt (tracefs; needs root), and schedsim's trace of the
# same pair, DIR/schedsim-BENCH-LOAD.txt: both open in Perfetto UI, one task per thread
# (interbench_native names its threads ib-bench-BENCH, ib-load-LOAD, ib-burnI).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"

duration=30 cpu="" policy="" runs=1 tracedir="" smp=1
pairs="audio/none audio/video audio/x audio/burn video/none video/x video/burn x/none x/video x/burn gaming/none gaming/video gaming/x gaming/burn"
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration=${2:?--duration takes seconds}; shift 2 ;;
    --cpu) cpu=${2:?--cpu takes a CPU number}; shift 2 ;;
    --runs) runs=${2:?--runs takes a count}; shift 2 ;;
    --pairs) pairs=${2:?--pairs takes a list like \"audio/burn x/burn\"}; shift 2 ;;
    --policy) policy=${2:?--policy takes a schedsim policy spec}; shift 2 ;;
    --trace) tracedir=${2:?--trace takes a directory}; shift 2 ;;
    --no-smp) smp=0; shift ;;
    *) echo "kernel_check.sh: unknown argument '$1' (--duration S, --runs N, --cpu K, --pairs LIST, --policy SPEC, --trace DIR, --no-smp)" >&2; exit 2 ;;
  esac
done

case "$duration" in ''|*[!0-9]*) echo "kernel_check.sh: --duration takes whole seconds" >&2; exit 2 ;; esac
case "$runs" in ''|*[!0-9]*|0) echo "kernel_check.sh: --runs takes a count >= 1" >&2; exit 2 ;; esac
[ "$duration" -ge 10 ] || duration=10
duration=$(( (duration + 9) / 10 * 10 ))  # whole X ramps, as interbench rounds

tracefs=""
if [ -n "$tracedir" ]; then
  mkdir -p "$tracedir" || { echo "kernel_check.sh: cannot create --trace directory '$tracedir'" >&2; exit 2; }
  for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
    [ -w "$d/tracing_on" ] && { tracefs=$d; break; }
  done
  if [ -z "$tracefs" ] && mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && [ -w /sys/kernel/tracing/tracing_on ]; then
    tracefs=/sys/kernel/tracing
  fi
  [ -n "$tracefs" ] || { echo "kernel_check.sh: --trace needs a writable tracefs (root)" >&2; exit 2; }
fi
# ktrace on|off|save FILE: the kernel's sched_switch and sched_wakeup events around one run.
ktrace() {
  [ -n "$tracefs" ] || return 0
  case "$1" in
    on)
      echo 0 >"$tracefs/tracing_on"; : >"$tracefs/trace"
      echo 1 >"$tracefs/events/sched/sched_switch/enable"; echo 1 >"$tracefs/events/sched/sched_wakeup/enable"
      echo 1 >"$tracefs/tracing_on" ;;
    off)
      echo 0 >"$tracefs/tracing_on"
      echo 0 >"$tracefs/events/sched/sched_switch/enable"; echo 0 >"$tracefs/events/sched/sched_wakeup/enable" ;;
    save)
      echo 0 >"$tracefs/tracing_on"; cat "$tracefs/trace" >"$2"
      ktrace off; : >"$tracefs/trace" ;;
  esac
}

. tools/deps.sh
schedcore_install_deps "${SCHEDCORE_HOST_PACKAGES[@]}"
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc 2>/dev/null || echo 2)" --target schedsim interbench_native hogs_native slices_native >/dev/null
sim=build/release/examples/schedsim
native=build/release/examples/interbench_native

release=$(uname -r)
major=${release%%.*}; rest=${release#*.}; minor=${rest%%[!0-9]*}
case $rest in *.*) patch=${rest#*.}; patch=${patch%%[!0-9]*} ;; *) patch="" ;; esac
[ -n "$patch" ] || patch=0
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
hz=$({ zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$release" 2>/dev/null || true; } | sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p')
hz_note=""
[ -n "$hz" ] || { hz=250; hz_note=" (CONFIG_HZ not readable: assumed)"; }
if [ -z "$policy" ]; then
  if [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 6 ]; }; then
    slice=750us
    # A re-pick of prev skips set_next_entity (FAIR_GROUP_SCHED, as distributions build; every 6.11+).
    features="repick_keeps_vprot=1"
    if [ "$major" -gt 6 ] || [ "$minor" -ge 12 ]; then  # "Complete EEVDF"
      features+=",delay_dequeue=1,preempt_short=1,place_rel_deadline=1,group_min_slice=1"
    fi
    # PICK_BUDDY (6.13, "sched/fair: Untangle NEXT_BUDDY and pick_next_task()"): it acts with
    # cgroups only. 6.12.y took it in a stable update (6.12.20 has it; which release first is
    # not established: --policy).
    if [ "$major" -gt 6 ] || [ "$minor" -ge 13 ]; then features+=",pick_buddy=1"; fi
    if [ "$major" -gt 6 ] || [ "$minor" -ge 15 ]; then slice=700us; fi
    if [ "$major" -gt 6 ] || [ "$minor" -ge 17 ]; then features+=",parity_min_slice=1"; fi
    if [ "$major" -gt 6 ] || [ "$minor" -ge 18 ]; then features+=",yield_forfeit=1"; fi
    if [ "$major" -gt 6 ] || [ "$minor" -ge 19 ] || { [ "$minor" -eq 18 ] && [ "$patch" -ge 33 ]; }; then
      features+=",wakeup_619=1,wakeup_dequeue_delayed=1"
    fi
    if [ "$major" -gt 6 ]; then features+=",max_slice_lag=1"; fi  # upstream in 2026 (stable backports: --policy)
    # 7.1: a delayed sleeper's lag floor (commit 059258b0d424, merged for 7.1).
    if [ "$major" -gt 7 ] || { [ "$major" -eq 7 ] && [ "$minor" -ge 1 ]; }; then features+=",delayed_lag_floor=1"; fi
    policy="eevdf:base_slice=$slice,cpus=$ncpu,$features"
  else
    policy="cfs:cpus=$ncpu"
  fi
fi

cpu_arg=()
[ -z "$cpu" ] || cpu_arg=(--cpu "$cpu")
echo "kernel $release, $ncpu CPUs online, HZ $hz$hz_note; pairs pinned to CPU ${cpu:-(first allowed)}, $duration s each, $runs run(s)"
echo "schedsim: $policy --hz $hz (1 CPU, as interbench measures)"
echo
phases=8 tick_ns=$((1000000000 / hz)) video_us=16666
simtab=$(mktemp) hogjson=""
# On any exit: the temporary files go, and tracing, if --trace turned it on, stops.
trap 'rm -f "$simtab" $hogjson; ktrace off 2>/dev/null || true' EXIT
for j in $(seq 0 $((phases - 1))); do  # one table per (start delay, tick phase), concatenated
  for k in $(seq 0 $((phases - 1))); do
    "$sim" compare --scenario "interbench/all:D=$((j * video_us / phases))" --policies "$policy" --hz "$hz" \
      --duration "$((duration + 1))s" --tick-phase "$((k * tick_ns / phases))" --no-host-timing >>"$simtab"
  done
done
grid=$((phases * phases))

printf '%-6s %-6s | %-58s | %-52s\n' "" "" "kernel (interbench_native; median run of $runs)" "schedsim (median of $grid phases)"
printf '%-6s %-6s | %8s %14s %8s %7s %5s %5s %5s | %8s %14s %8s %7s %5s %5s\n' bench load "avg ms" "avg range" "SD ms" "max ms" "%cpu" "%dl" "c/w" "avg ms" "avg range" "SD ms" "max ms" "%cpu" "%dl"
for pair in $pairs; do
  bench=${pair%/*} load=${pair#*/}
  rows=""
  for r in $(seq "$runs"); do
    ktrace on
    rows+="$("$native" --duration "$duration" "${cpu_arg[@]}" "$bench" "$load")"$'\n'
    ktrace save "$tracedir/kernel-$bench-$load-$r.txt"
  done
  if [ -n "$tracedir" ]; then
    "$sim" run --scenario "interbench/$bench/$load" --policy "$policy" --hz "$hz" --duration "$((duration + 1))s" \
      --no-host-timing --trace "$tracedir/schedsim-$bench-$load.txt" >/dev/null
  fi
  sorted=$(printf '%s' "$rows" | sort -g -k3,3)
  krow=$(printf '%s\n' "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
  range="$(printf '%s\n' "$sorted" | head -n1 | awk '{print $3}')-$(printf '%s\n' "$sorted" | tail -n1 | awk '{print $3}')"
  ssorted=$(awk -v b="$bench" -v l="$load" '$1 == b && $2 == l' "$simtab" | sort -g -k3,3)
  [ "$(printf '%s\n' "$ssorted" | grep -c .)" = "$grid" ] || { echo "kernel_check.sh: schedsim has no row for $pair" >&2; exit 1; }
  srow=$(printf '%s\n' "$ssorted" | sed -n "$(( (grid + 1) / 2 ))p")
  srange="$(printf '%s\n' "$ssorted" | head -n1 | awk '{print $3}')-$(printf '%s\n' "$ssorted" | tail -n1 | awk '{print $3}')"
  set -- $krow; k="$3 $range $4 $5 $6 $7 $8"
  set -- $srow; s="$3 $srange $4 $5 $6 $7"
  printf '%-6s %-6s | %8s %14s %8s %7s %5s %5s %5s | %8s %14s %8s %7s %5s %5s\n' "$bench" "$load" $k $s
done

# ---- the balancer check: N + 1 hogs on the N CPUs this process may use
allowed=$(nproc 2>/dev/null || echo 1)
balance_ms=$((32 * allowed))  # the kernel's busy balance interval on N CPUs (see above)
if [ "$smp" = 1 ] && [ "$allowed" -ge 2 ]; then
  hogs=$((allowed + 1))
  hogjson=$(mktemp --suffix=.json)
  printf '{ "tasks": { "hog": { "instance": %d, "run": 1000000000 } }, "global": { "duration": %d } }\n' \
    "$hogs" "$duration" >"$hogjson"
  echo
  echo "balancer: $hogs CPU hogs on $allowed CPUs for $duration s; schedsim: $policy --cpus $allowed --balance ${balance_ms}ms"
  printf '%-6s | %-24s | %-24s | %-24s\n' "" "kernel" "balance_failed=1" "balance_failed=0"
  printf '%-6s | %10s %13s | %10s %13s | %10s %13s\n' hog "% of a CPU" migrations "% of a CPU" migrations "% of a CPU" migrations
  ktab=$(build/release/examples/hogs_native --duration "$duration" "$hogs")
  model() {  # BALANCE_FAILED -> "hog-I share% migrations", one line per hog
    "$sim" run --rt-app "$hogjson" --policy "$policy" --cpus "$allowed" --hz "$hz" --duration "${duration}s" \
      --balance "${balance_ms}ms" --balance-failed "$1" --no-host-timing --format json |
      sed -n 's/.*"name": "\(hog-[0-9]*\)".*"cpu_ns": \([0-9]*\),.*"migrations": \([0-9]*\),.*/\1 \2 \3/p' |
      awk -v d="$duration" '{ printf "%s %.1f %d\n", $1, $2 / (1e7 * d), $3 }'
  }
  m1=$(model 1); m0=$(model 0)
  rm -f "$hogjson"
  for i in $(seq 0 $((hogs - 1))); do
    set -- $(printf '%s\n' "$ktab" | awk -v h="hog-$i" '$1 == h'); k="$2 $3"
    set -- $(printf '%s\n' "$m1" | awk -v h="hog-$i" '$1 == h'); a="$2 $3"
    set -- $(printf '%s\n' "$m0" | awk -v h="hog-$i" '$1 == h'); b="$2 $3"
    printf '%-6s | %10s %13s | %10s %13s | %10s %13s\n' "hog-$i" $k $a $b
  done
fi

# ---- the custom-slice check (Linux 6.12+): the eevdf-slices experiment, with and without slices
if [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 12 ]; }; then
  echo
  echo "custom slices: 5 massive_intr (100 ms slice) + 5 cyclictest (500 us slice), unpinned on $allowed CPU(s), $duration s;"
  echo "  'none' is the same without sched_runtime; schedsim: eevdf-slices/{custom,none} under $policy --cpus $allowed"
  echo "  --balance ${balance_ms}ms --balance-failed 1 (the kernel's balancer, as in the check above)"
  echo "  schedsim twice: with each cyclictest job costing what the kernel charged it per run, less the model's"
  echo "  2 us switch (eevdf-slices/VARIANT:J=US), and at the scenario's own 10 us; timer grids 100 us apart on both;"
  echo "  where DAMON runs, the first also has a kernel thread with kdamond's mean run and sleep (K=US,P=MS)"
  printf '%-7s | %-52s | %-44s | %-44s\n' "" "kernel (slices_native; median of $runs by cyclictest delay)" \
    "schedsim, the kernel's job cost" "schedsim, 10 us jobs"
  printf '%-7s | %9s %9s %10s %12s %7s | %9s %9s %10s %12s | %9s %9s %10s %12s\n' slices "cyc avg" "cyc sum" "intr sw" \
    "intr sum" "job us" "cyc avg" "cyc sum" "intr sw" "intr sum" "cyc avg" "cyc sum" "intr sw" "intr sum"
  # The model's books, as the kernel's: delay = time runnable but waiting; avg = per time run.
  model_row() {  # SCENARIO [schedsim options...]
    local scenario=$1; shift
    "$sim" run --scenario "$scenario" --policy "$policy" --cpus "$allowed" --hz "$hz" \
      --balance "${balance_ms}ms" --balance-failed 1 --duration "${duration}s" --no-host-timing --format csv "$@" |
      awk -F, 'NR > 1 {gsub(/"[^"]*"/, "quoted")}  # the quoted policy spec (and scenario) have commas in them
               NR > 1 && $3 ~ /^cyclictest-/ {cw += $6; cs += $7} NR > 1 && $3 ~ /^intr-/ {iw += $6; is += $7}
               END {printf "%.3f %.3f %d %.3f\n", cs ? cw / cs / 1e6 : 0, cw / 1e9, is, iw / 1e9}'
  }
  # Steal time of all CPUs so far, ms (/proc/stat, USER_HZ ticks): the hypervisor running
  # something else while a vCPU was runnable; 0 on bare metal.
  steal_ms() { awk -v hz="$(getconf CLK_TCK 2>/dev/null || echo 100)" '/^cpu / {printf "%d\n", $9 * 1000 / hz}' /proc/stat; }
  # Summed CPU ns and runs (schedstat's pcount) of every kdamond thread: "0 0" without DAMON.
  kdamond_stat() {
    local f comm sum=0 cnt=0 a b c
    for f in /proc/[0-9]*/comm; do
      comm=$(cat "$f" 2>/dev/null) || continue
      case $comm in kdamond*) ;; *) continue ;; esac
      read -r a b c < "${f%/comm}/schedstat" 2>/dev/null || continue
      sum=$((sum + a)); cnt=$((cnt + c))
    done
    echo "$sum $cnt"
  }
  for variant in custom none; do
    args=(--duration "$duration" --stagger 100)
    [ "$variant" = none ] && args+=(--intr-slice 0 --cyclic-slice 0)
    rows=""
    read -r kd_ns0 kd_n0 < <(kdamond_stat)
    for r in $(seq "$runs"); do
      steal0=$(steal_ms)
      out=$(build/release/examples/slices_native "${args[@]}")
      steal1=$(steal_ms)
      rows+="$(printf '%s\n' "$out" | awk -v st=$((steal1 - steal0)) '$1 == "cyclictest" {c = $3 " " $4; j = $6}
        $1 == "intr" {i = $2 " " $3} END {print c, i, j, st}')"$'\n'
    done
    read -r kd_ns1 kd_n1 < <(kdamond_stat)
    krow=$(printf '%s' "$rows" | sort -g -k2,2 | sed -n "$(( (runs + 1) / 2 ))p" | cut -d' ' -f1-5)
    # the median run's CPU per cyclictest run, less the model's 2 us switch, in whole us (>= 1)
    job=$(printf '%s\n' "$krow" | awk '{j = int($5 - 2 + 0.5); print (j < 1 ? 1 : j)}')
    # kdamond's mean run (us) and the mean sleep between runs (ms) over these kernel runs
    kthread="" kthread_note=""
    if [ $((kd_n1 - kd_n0)) -gt 0 ]; then
      kthread=$(awk -v ns=$((kd_ns1 - kd_ns0)) -v n=$((kd_n1 - kd_n0)) -v span="$((duration * runs))" 'BEGIN {
        k = int(ns / n / 1000 + 0.5); p = int((span * 1000 - ns / 1e6) / n + 0.5)
        if (k < 1) k = 1; if (k > 100000) k = 100000; if (p < 1) p = 1; if (p > 10000) p = 10000
        printf ",K=%d,P=%d", k, p }')
      kthread_note="  ($variant: kdamond ran $((kd_n1 - kd_n0)) times in $((duration * runs)) s of kernel runs, $(( (kd_ns1 - kd_ns0) / 1000000 )) ms in all; the first model column adds ${kthread#,})"
    fi
    srow=$(model_row "eevdf-slices/$variant:J=$job,S=100$kthread")
    drow=$(model_row "eevdf-slices/$variant:S=100")
    printf '%-7s | %9s %9s %10s %12s %7s | %9s %9s %10s %12s | %9s %9s %10s %12s\n' "$variant" $krow $srow $drow
    [ -z "$kthread_note" ] || echo "$kthread_note"
    if [ "$runs" -gt 1 ]; then
      printf '%s' "$rows" | sort -g -k2,2 |
        awk -v v="$variant" '{c = c sep $2; i = i sep $3; j = j sep $5; t = t sep $6; sep = ", "}
                             END {printf "  (%s, each kernel run: cyc sum %s s; intr sw %s; job us %s; steal %s ms)\n", v, c, i, j, t}'
    fi
  done
fi
