#!/usr/bin/env bash
# The documents' references to the repository resolve: README.md, docs/*.md and docs/guides/*.md
# name files, tests and knobs, and a rename that leaves them behind turns the reader away (an
# audit once found a test name the simulator guide cited that did not exist). Checked:
#   1. relative Markdown links `[text](path#anchor)`: the file exists (relative to the document;
#      a leading / is the repository's root; %20 is a space);
#   2. paths in backticks under include/, tests/, tools/, examples/, docs/ or .ci/ exist, as a
#      file or as a ctest test of that name (`file:line` suffixes and placeholders with <, *, {, ..., $ are skipped; bench/ names
#      are build outputs such as bench/policy_bench and are not checked);
#   3. test names in backticks (CamelCase identifiers of 14 characters or more, as gtest names
#      them, alone or as Suite.Name, whose Name is checked) and SCHEDCORE_* macros appear as a
#      word somewhere in the code (tests, include, examples, bench, tools, CMake files).
# Fenced code blocks are not read (a lambda's `[&](int x)` is not a link), and links are looked
# for outside inline code spans.
# Names the kernel or other projects own are not checked (ALL_CAPS and snake_case tokens other
# than SCHEDCORE_*): the documents quote many that the code does not use.
#
#   bash tests/docs/check_references.sh [ROOT]     exit 0 when every reference resolves,
#                                                 1 with one line per broken reference
set -u
root=${1:-.}
cd "$root" || { echo "check_references: no directory $root"; exit 2; }
shopt -s nullglob
docs=(README.md docs/*.md docs/guides/*.md)
[ ${#docs[@]} -gt 0 ] && [ -f README.md ] || { echo "check_references: no README.md or docs/ under $root"; exit 2; }
code_dirs=(tests include examples bench tools)
code_files=(CMakeLists.txt CMakePresets.json)
broken=0
report() { echo "$1"; broken=$((broken + 1)); }

# The document with its fenced blocks blanked (line numbers kept).
prose() { awk '/^[ \t]*(```|~~~)/ { fence = !fence; print ""; next } fence { print ""; next } { print }' "$1"; }

for f in "${docs[@]}"; do
  dir=$(dirname "$f")
  text=$(prose "$f")
  # 1. relative links
  while IFS= read -r m; do
    line=${m%%:*}
    link=${m#*](}
    link=${link%)}
    link=${link%%#*}
    link=${link//%20/ }
    case "$link" in http:* | https:* | mailto:* | '') continue ;; esac
    case "$link" in
      /*) target=".$link" ;;
      *) target="$dir/$link" ;;
    esac
    [ -e "$target" ] || report "$f:$line: link to $link: no such file"
  done < <(sed 's/`[^`]*`//g' <<<"$text" | grep -no '\]([^)]*)')
  # 2. and 3. backticked tokens
  while IFS= read -r m; do
    line=${m%%:*}
    tok=${m#*:}
    tok=${tok#\`}
    tok=${tok%\`}
    case "$tok" in
      include/linux/* | include/uapi/*) continue ;;  # the kernel's headers
      include/* | tests/* | tools/* | examples/* | docs/* | .ci/*)
        case "$tok" in *'<'* | *'*'* | *'{'* | *'...'* | *'$'*) continue ;; esac
        path=${tok%%:*}
        # A ctest name (docs/readme-taste) is as good as a file: add_test(NAME path ...).
        [ -e "$path" ] || grep -rqE -- "NAME ${path}( |\))" --include=CMakeLists.txt tests docs 2>/dev/null ||
          report "$f:$line: \`$tok\`: no such file or ctest test"
        ;;
      SCHEDCORE_*)
        name=$(expr "$tok" : '\(SCHEDCORE_[A-Z0-9_]*\)')  # SCHEDCORE_ENABLE_INVARIANTS=1 names the knob
        grep -rqw -- "$name" "${code_dirs[@]}" "${code_files[@]}" 2>/dev/null ||
          report "$f:$line: \`$tok\`: no such macro or option in the code"
        ;;
      *)
        [[ $tok =~ ^[A-Z][A-Za-z0-9_]*\.([A-Z][A-Za-z0-9_]*)$ ]] && tok=${BASH_REMATCH[1]}  # Suite.Name
        if [[ ${#tok} -ge 14 && $tok =~ ^[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$ ]]; then
          grep -rqw -- "$tok" "${code_dirs[@]}" "${code_files[@]}" 2>/dev/null ||
            report "$f:$line: \`$tok\`: no test or name of that spelling in the code"
        fi
        ;;
    esac
  done < <(grep -no '`[^` ]*`' <<<"$text")
done

if [ "$broken" -ne 0 ]; then
  echo "check_references: $broken broken reference(s) in ${#docs[@]} documents"
  exit 1
fi
echo "check_references: every link, path, test name and SCHEDCORE_ knob in ${#docs[@]} documents resolves"
