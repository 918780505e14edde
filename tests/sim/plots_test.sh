#!/usr/bin/env bash
# sim/plots: `schedsim plot` writes every expected SVG, each well-formed (svg_check: balanced
# tags, <svg> root with xmlns, a non-empty <path>), byte-identical across two runs; bad command
# lines exit 2, bad --bench files 3.
# usage: plots_test.sh SCHEDSIM SVG_CHECK WORKDIR BENCH_CSV
set -u
sim=$1 check=$2 work=$3 bench=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$sim" plot --scenario desktop-2007 --out "$work/a" --bench "$bench" --jobs 2 >"$work/a.list" || bad "plot desktop-2007 exited $?"
"$sim" plot --scenario desktop-2007 --out "$work/b" --bench "$bench" --jobs 1 >/dev/null || bad "second plot exited $?"
"$sim" plot --scenario kernbench-4cpu --only sweep --out "$work/k" >/dev/null || bad "plot kernbench-4cpu exited $?"
expect=(a/desktop-2007.latency-cdf.svg a/desktop-2007.fps-beryl.svg a/desktop-2007.fps-totem.svg
        a/desktop-2007.fps-gmplayer.svg a/desktop-2007.sweep-cs.svg a/nice-share.svg a/pick-next.svg
        k/kernbench-4cpu.sweep-cs.svg k/kernbench-4cpu.sweep-makespan.svg)
files=()
for f in "${expect[@]}"; do
  if [ -s "$work/$f" ]; then files+=("$work/$f"); else bad "missing or empty: $f"; fi
done
[ ${#files[@]} -gt 0 ] && { "$check" "${files[@]}" || bad "svg_check"; }
if command -v xmllint >/dev/null 2>&1 && [ ${#files[@]} -gt 0 ]; then
  xmllint --noout "${files[@]}" || bad "xmllint"
fi
# output_file.hpp writes each file as a hidden ".NAME.XXXXXX" beside it and renames it.
left=$(find "$work/a" "$work/k" -name '.*' -type f 2>/dev/null)
[ -n "$left" ] && bad "temporary files left behind: $left"
diff -r "$work/a" "$work/b" >/dev/null || bad "two identical plot runs differ (--jobs 2 vs 1)"
grep -q "nice-share.svg" "$work/a.list" || bad "plot did not list the files it wrote"

"$sim" plot --scenario desktop-2007 >/dev/null 2>&1; [ $? = 2 ] || bad "plot without --out: expected exit 2"
"$sim" plot --scenario nosuch --out "$work/x" >/dev/null 2>&1; [ $? = 2 ] || bad "unknown scenario: expected exit 2"
"$sim" plot --scenario desktop-2007 --only bogus --out "$work/x" >/dev/null 2>&1; [ $? = 2 ] || bad "--only bogus: expected exit 2"
"$sim" plot --scenario desktop-2007 --only bench --out "$work/x" >/dev/null 2>&1; [ $? = 2 ] || bad "--only bench without --bench: expected exit 2"
# The timeline is report's: plot refuses it rather than run the scenario and write nothing.
"$sim" plot --scenario desktop-2007 --only timeline --out "$work/t" >/dev/null 2>"$work/err"; rc=$?
[ $rc = 2 ] || bad "plot --only timeline: expected exit 2, got $rc"
grep -q "drawn by report only" "$work/err" || bad "plot --only timeline: message: $(cat "$work/err")"
[ ! -e "$work/t" ] || bad "plot --only timeline created its output directory"
# A --bench file that cannot be read or holds no finite BM_cycle row is a bad input file (exit 3,
# naming the file), refused before any run; a row timed inf or nan is not a timing.
"$sim" plot --scenario desktop-2007 --only bench --out "$work/x" --bench "$work/no-such.csv" >/dev/null 2>"$work/err"
[ $? = 3 ] && grep -q "no-such.csv: cannot read" "$work/err" || bad "missing --bench file: expected exit 3 naming it: $(cat "$work/err")"
printf 'garbage,1,2\n' >"$work/garbage.csv"
"$sim" plot --scenario desktop-2007 --only bench --out "$work/x" --bench "$work/garbage.csv" >/dev/null 2>"$work/err"
[ $? = 3 ] && grep -q "garbage.csv: no BM_cycle/POLICY/N rows" "$work/err" || bad "garbage --bench file: expected exit 3: $(cat "$work/err")"
printf 'name,iterations,real_time,cpu_time,time_unit\n"BM_cycle/cfs/8",100,10,inf,ns\n"BM_cycle/cfs/64",100,10,nan,ns\n' >"$work/inf.csv"
"$sim" plot --scenario desktop-2007 --only bench --out "$work/x" --bench "$work/inf.csv" >/dev/null 2>"$work/err"
[ $? = 3 ] || bad "--bench rows timed inf and nan: expected exit 3: $(cat "$work/err")"
grep -q "usage:" "$work/err" && bad "a bad --bench file printed the usage text"
[ $fail = 0 ] && echo "plots ok: ${#files[@]} SVG files"
exit $fail
