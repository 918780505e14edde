#!/usr/bin/env bash
# check_references.sh must see each kind of broken reference and pass the good ones: a small
# repository in a temporary directory with one good and one broken reference of each kind.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs/guides" "$tmp/tests/unit" "$tmp/include" "$tmp/examples" "$tmp/bench" "$tmp/tools"
echo 'TEST(Suite, AnExistingTestNameHere) {}  // SCHEDCORE_REAL_KNOB' > "$tmp/tests/unit/a_test.cpp"
echo 'add_test(NAME docs/some-check COMMAND true)' > "$tmp/tests/CMakeLists.txt"
touch "$tmp/CMakeLists.txt" "$tmp/CMakePresets.json" "$tmp/docs/guides/other.md" "$tmp/docs/guides/with space.md"
# A guide: links relative to docs/guides, a lambda in a code block and in a code span (not links),
# a renamed Suite.Name.
cat > "$tmp/docs/guides/guide.md" <<'MD'
Good: [sibling](other.md), [spaced](with%20space.md), [up](../../README.md), `Suite.AnExistingTestNameHere`.
```cpp
auto f = [&](int x) { return x; };
```
Inline `[&](int y)` is code.
Broken: [gone](missing-sibling.md) and `Suite.ARenamedTestNameThere`
MD
cat > "$tmp/README.md" <<'MD'
Good: [guide](docs/guides/other.md#part), [root](/docs/guides/other.md), `tests/unit/a_test.cpp:1`,
`docs/some-check`, `AnExistingTestNameHere`, `SCHEDCORE_REAL_KNOB=1`, `include/linux/sched.h`,
[web](https://example.org/x), `NOT_CHECKED_KERNEL_NAME`, `snake_case_not_checked`.
Broken: [gone](docs/guides/missing.md)
and `tests/unit/missing_test.cpp`
and `ARenamedTestNameThere`
and `SCHEDCORE_NO_SUCH_KNOB`
MD
out=$(bash "$here/check_references.sh" "$tmp")
rc=$?
echo "$out"
fail=0
[ $rc -eq 1 ] || { echo "selftest: exit $rc, expected 1"; fail=1; }
for want in "README.md:4: link to docs/guides/missing.md" "README.md:5: \`tests/unit/missing_test.cpp\`" \
            "README.md:6: \`ARenamedTestNameThere\`" "README.md:7: \`SCHEDCORE_NO_SUCH_KNOB\`" \
            "docs/guides/guide.md:6: link to missing-sibling.md" "docs/guides/guide.md:6: \`ARenamedTestNameThere\`" \
            "check_references: 6 broken reference(s) in"; do
  grep -qF -- "$want" <<<"$out" || { echo "selftest: missing report: $want"; fail=1; }
done
[ "$(grep -c '' <<<"$out")" -eq 7 ] || { echo "selftest: expected 6 reports and the summary, got the lines above"; fail=1; }
[ $fail -eq 0 ] && echo "selftest: every kind of broken reference reported, the good ones passed"
exit $fail
