#!/usr/bin/env bash
# sim/progress: long compare/sweep runs print progress on stderr only when it is a terminal.
# Silent path: stderr redirected to a file stays empty (even with the display delay at 0).
# Terminal path: run under script(1) (util-linux), which gives the command a pseudo-terminal;
# the progress line and its final clear ("\r\033[K") must appear, and SCHEDSIM_PROGRESS=0 must
# turn it off. Without script(1) the terminal part is skipped (exit 77), the silent part still runs.
# usage: progress_test.sh SCHEDSIM WORKDIR
set -u
sim=$1 work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
export SCHEDSIM_PROGRESS_AFTER_MS=0
sweep=(sweep --scenario kernbench-4cpu --policy sd --knob rr_interval=2ms,5ms,10ms,20ms --duration 2s --jobs 2)
compare=(compare --scenario games-renice --duration 1s --jobs 2)

"$sim" "${sweep[@]}" >"$work/out.txt" 2>"$work/err.txt" || bad "sweep exited $?"
[ -s "$work/err.txt" ] && bad "sweep wrote to a non-terminal stderr: $(head -c 200 "$work/err.txt" | od -c | head -3)"
"$sim" "${compare[@]}" >/dev/null 2>"$work/err2.txt" || bad "compare exited $?"
[ -s "$work/err2.txt" ] && bad "compare wrote to a non-terminal stderr"
grep -q "rr_interval=20ms" "$work/out.txt" || bad "sweep output incomplete"

if ! command -v script >/dev/null 2>&1; then
  echo "script(1) not found: the terminal path is not tested (silent path ok)"
  exit $([ $fail = 0 ] && echo 77 || echo 1)
fi
q() { printf '%q ' "$@"; }
script -qec "$(q "$sim" "${sweep[@]}") >/dev/null" /dev/null >"$work/tty.txt" 2>&1 || bad "sweep under script exited $?"
grep -q "schedsim: [0-9]*/4 runs" "$work/tty.txt" || bad "no progress line on a terminal: $(od -c "$work/tty.txt" | head -5)"
# Each progress line starts with "\r\033[K"; the final clear is that sequence alone, last.
[ "$(tail -c 4 "$work/tty.txt" | od -An -c | tr -d ' ')" = '\r033[K' ] || bad "progress line not cleared at the end: $(tail -c 16 "$work/tty.txt" | od -c | head -2)"
script -qec "$(q "$sim" "${compare[@]}") >/dev/null" /dev/null >"$work/tty2.txt" 2>&1 || bad "compare under script exited $?"
grep -q "schedsim: [0-9]*/[0-9]* runs" "$work/tty2.txt" || bad "no progress line for compare on a terminal"
SCHEDSIM_PROGRESS=0 script -qec "$(q "$sim" "${sweep[@]}") >/dev/null" /dev/null >"$work/tty3.txt" 2>&1 ||
  bad "sweep with SCHEDSIM_PROGRESS=0 under script exited $?"
grep -q "runs (" "$work/tty3.txt" && bad "SCHEDSIM_PROGRESS=0 did not silence the terminal"
[ $fail = 0 ] && echo "progress ok: silent off a terminal, shown and cleared on one"
exit $fail
