#!/usr/bin/env bash
# Must-fail compile test: compiles SOURCE with CXX (-std=STD) and passes only when compilation
# fails AND the diagnostics contain the text on the source's `// expect-error: TEXT` line(s).
# A file whose `// expect-error:` is `NONE` is a positive control that must compile.
#   expect_fail.sh CXX STD INCLUDE_ROOT SOURCE
set -u
cxx=$1; std=$2; root=$3; src=$4
out=$("$cxx" -std="$std" -fsyntax-only -ffreestanding -fno-exceptions -fno-rtti -I"$root" "$src" 2>&1)
rc=$?
mapfile -t wants < <(sed -n 's|^// expect-error: ||p' "$src")
# Without an expected message any compile error would pass, a typo included.
[ ${#wants[@]} -gt 0 ] || { echo "FAIL: $src has no '// expect-error:' line"; exit 1; }
if [ "${wants[0]:-}" = NONE ]; then
  [ $rc = 0 ] && { echo "ok: positive control compiles"; exit 0; }
  echo "FAIL: positive control does not compile:"; echo "$out" | head -20; exit 1
fi
if [ $rc = 0 ]; then echo "FAIL: $src compiled, but it must not"; exit 1; fi
for want in "${wants[@]}"; do
  if ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL: compilation failed, but without the readable message: $want"; echo "$out" | head -30; exit 1
  fi
done
echo "ok: rejected with: ${wants[*]}"
