#!/usr/bin/env bash
# sim/report/render: `schedsim report` writes one self-contained HTML file (inline SVG, no
# script, nothing fetched from the network, atomically written, byte-identical across runs), and
# headless Chromium renders it to a screenshot that is not blank (png_check decodes the PNG and
# counts colours). A screenshot of an empty page is taken too and must be judged blank, so the
# check itself is shown to work. Without Chromium the test FAILS, saying how to install it
# (tools/deps.sh, SCHEDCORE_DOCS_PACKAGES).
# usage: report_render.sh SCHEDSIM PNG_CHECK SVG_CHECK WORKDIR
set -u
sim=$1 png=$2 svg=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$sim" report --scenario desktop-2007 -o "$work/report.html" >/dev/null || bad "report exited $?"
[ -s "$work/report.html" ] || { echo "FAIL: no report.html"; exit 1; }
mv "$work/report.html" "$work/report1.html"
"$sim" report --scenario desktop-2007 -o "$work/report.html" >/dev/null || bad "second report exited $?"
cmp -s "$work/report.html" "$work/report1.html" || bad "two identical report runs differ"
# output_file.hpp writes the file as a hidden ".report.html.XXXXXX" beside it and renames it.
left=$(find "$work" -maxdepth 1 -name '.*' -type f)
[ -n "$left" ] && bad "temporary file left behind: $left"
head -c 15 "$work/report.html" | grep -q '<!DOCTYPE html>' || bad "not an HTML document"
grep -q '</html>' "$work/report.html" || bad "HTML not complete"
for want in 'id="table"' 'id="latency"' 'id="fps"' 'id="sweep"' 'id="nice"' 'id="timeline"' '<table>' 'Who ran when'; do
  grep -q "$want" "$work/report.html" || bad "report lacks $want"
done
# Self-contained: no script, no external stylesheet, image, font or import.
if grep -Eiq '<script|<link|<img|<iframe|@import|url\(|(src|href)="(https?:)?//' "$work/report.html"; then
  bad "report references something outside the file:"
  grep -Eio '<script|<link|<img|<iframe|@import|url\(|(src|href)="(https?:)?//[^"]*' "$work/report.html" | head -5
fi
"$svg" --html "$work/report.html" || bad "inline SVG not well-formed"

chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
  echo "FAIL: chromium is not installed, so the report cannot be rendered."
  echo "      Install it (as root): . tools/deps.sh && schedcore_install_deps \"\${SCHEDCORE_DOCS_PACKAGES[@]}\""
  exit 1
fi
shot() {  # shot FILE.html OUT.png
  local prof
  prof=$(mktemp -d)
  timeout 180 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
    --screenshot="$2" --window-size=1280,2000 "file://$1" >"$2.log" 2>&1
  local rc=$?
  rm -rf "$prof"
  return $rc
}
shot "$work/report.html" "$work/report.png" || bad "chromium exited with an error (log: $work/report.png.log)"
[ -s "$work/report.png" ] || { echo "FAIL: chromium wrote no screenshot"; tail -5 "$work/report.png.log"; exit 1; }
"$png" "$work/report.png" || bad "the report's screenshot is blank"
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>empty</title></head><body></body></html>\n' >"$work/empty.html"
if shot "$work/empty.html" "$work/empty.png" && [ -s "$work/empty.png" ]; then
  if "$png" "$work/empty.png" >/dev/null 2>&1; then bad "png_check does not recognise an empty page as blank"; fi
else
  bad "chromium could not render an empty page"
fi
[ $fail = 0 ] && echo "report ok: $(wc -c <"$work/report.html") bytes of HTML, screenshot $work/report.png"
exit $fail
