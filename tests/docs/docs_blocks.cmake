# The ```cpp blocks of a Markdown file, for the tests that compile the documents' code
# (tests/docs/CMakeLists.txt). Included by extract_nth_block.cmake, check_snippet.cmake and
# every_snippet_has_a_context.cmake, so that all three count blocks the same way, and by
# extract_block.cmake (the README's taste, found by its heading).
#
# A block opens with a line that is exactly ```cpp and closes with the next line that is exactly
# ```. Other fenced blocks (```sh, ```, ~~~, indented fences inside list items, ...) are skipped
# whole, up to the next line that is their own fence alone, so a ```cpp line inside one is not a
# block. The file is split into lines by hand: file(STRINGS) returns a CMake list, which
# joins lines across an unbalanced '[' (`x[` ... `];`), and C++ has those.

# docs_cpp_blocks(<md> <prefix>) sets in the caller:
#   <prefix>_COUNT        number of ```cpp blocks
#   <prefix>_<i>_LINE     line number (1-based) of the first code line of block i (1-based)
#   <prefix>_<i>_TEXT     the code of block i, every line ended by \n
#   <prefix>_ODD          "line:info" of each fence whose info string names C++ but is not
#                         exactly ```cpp at the start of the line (```c++, ```cpp title, ```CPP,
#                         ~~~cpp, an indented ```cpp ...): a block no test counts
function(docs_cpp_blocks md prefix)
  if(NOT EXISTS "${md}")
    message(FATAL_ERROR "${md}: no such file")
  endif()
  file(READ "${md}" content)
  set(count 0)
  set(lineno 0)
  set(state outside)  # outside | cpp | other
  set(other_fence "")  # the fence that closes an `other` block: its opening marks, stripped
  set(odd "")
  set(text "")
  while(NOT content STREQUAL "")
    string(FIND "${content}" "\n" nl)
    if(nl EQUAL -1)
      set(line "${content}")
      set(content "")
    else()
      string(SUBSTRING "${content}" 0 ${nl} line)
      math(EXPR nl "${nl} + 1")
      string(SUBSTRING "${content}" ${nl} -1 content)
    endif()
    math(EXPR lineno "${lineno} + 1")
    string(REGEX REPLACE "\r$" "" line "${line}")
    if(state STREQUAL "outside")
      if(line STREQUAL "```cpp")
        math(EXPR count "${count} + 1")
        math(EXPR first "${lineno} + 1")
        set(${prefix}_${count}_LINE ${first} PARENT_SCOPE)
        set(text "")
        set(state cpp)
      elseif(line MATCHES "^[ \t]*(```+|~~~+)")
        set(other_fence "${CMAKE_MATCH_1}")
        string(TOLOWER "${line}" info)
        if(info MATCHES "^[ \t]*(```+|~~~+) *(cpp|c\\+\\+|cxx|cc|hpp|hxx|h\\+\\+)([^a-z0-9_+-]|$)")
          list(APPEND odd "${lineno}:${line}")
        endif()
        set(state other)
      endif()
    elseif(state STREQUAL "cpp")
      if(line STREQUAL "```")
        set(${prefix}_${count}_TEXT "${text}" PARENT_SCOPE)
        set(state outside)
      else()
        string(APPEND text "${line}\n")
      endif()
    else()  # state other
      string(STRIP "${line}" stripped)
      if(stripped STREQUAL other_fence)
        set(state outside)
      endif()
    endif()
  endwhile()
  if(state STREQUAL "cpp")
    message(FATAL_ERROR "${md}: ```cpp block ${count} is not closed by a ``` line")
  endif()
  set(${prefix}_COUNT ${count} PARENT_SCOPE)
  set(${prefix}_ODD "${odd}" PARENT_SCOPE)
endfunction()

# Writes `content` to `file` only when it differs, so that an unrelated edit of a document
# rebuilds nothing.
function(docs_write_if_changed file content)
  set(old "")
  if(EXISTS "${file}")
    file(READ "${file}" old)
  endif()
  if(NOT old STREQUAL content)
    file(WRITE "${file}" "${content}")
  endif()
endfunction()

# docs_extract_block(<md> <index> <out> [<split_before> <out_tail>])
# Writes block <index> of <md> to <out>, behind a #line directive so that the compiler's
# messages name the Markdown file and its line. With <split_before>, the block is cut before its
# first line that begins with that text: the lines above go to <out>, the rest to <out_tail>
# (for a context that needs the block's declarations at namespace scope and its statements in a
# function). A missing block or split line is an error naming the file and the index.
function(docs_extract_block md index out)
  docs_cpp_blocks("${md}" blk)
  if(NOT index MATCHES "^[1-9][0-9]*$" OR index GREATER blk_COUNT)
    message(FATAL_ERROR "${md}: no ```cpp block number ${index} (the file has ${blk_COUNT})")
  endif()
  set(text "${blk_${index}_TEXT}")
  set(line ${blk_${index}_LINE})
  if(ARGC GREATER 3 AND NOT "${ARGV3}" STREQUAL "")
    set(split_before "${ARGV3}")
    set(out_tail "${ARGV4}")
    set(head "")
    set(tail "")
    set(tail_line "")
    set(n ${line})
    set(rest "${text}")
    while(NOT rest STREQUAL "")
      string(FIND "${rest}" "\n" nl)
      math(EXPR nl1 "${nl} + 1")
      string(SUBSTRING "${rest}" 0 ${nl1} l)
      string(SUBSTRING "${rest}" ${nl1} -1 rest)
      if(tail_line STREQUAL "")
        string(FIND "${l}" "${split_before}" at)
        if(at EQUAL 0)
          set(tail_line ${n})
        endif()
      endif()
      if(tail_line STREQUAL "")
        string(APPEND head "${l}")
      else()
        string(APPEND tail "${l}")
      endif()
      math(EXPR n "${n} + 1")
    endwhile()
    if(tail_line STREQUAL "")
      message(FATAL_ERROR "${md}: ```cpp block ${index} has no line beginning with '${split_before}' "
                          "(the split its context in tests/docs/snippets asks for)")
    endif()
    docs_write_if_changed("${out}" "#line ${line} \"${md}\"\n${head}")
    docs_write_if_changed("${out_tail}" "#line ${tail_line} \"${md}\"\n${tail}")
  else()
    docs_write_if_changed("${out}" "#line ${line} \"${md}\"\n${text}")
  endif()
endfunction()

# The Markdown file a context in tests/docs/snippets names: <stem>-<n>.cpp is block n of
# README.md (stem README) or of the one docs/**/<stem>.md under <root>. Sets <out> to its path,
# or to "" with <out>_ERROR saying why (no such file, or two documents with that stem).
function(docs_markdown_for root stem out)
  set(${out} "" PARENT_SCOPE)
  set(${out}_ERROR "" PARENT_SCOPE)
  if(stem STREQUAL "README")
    if(EXISTS "${root}/README.md")
      set(${out} "${root}/README.md" PARENT_SCOPE)
    else()
      set(${out}_ERROR "no ${root}/README.md" PARENT_SCOPE)
    endif()
    return()
  endif()
  file(GLOB_RECURSE found "${root}/docs/*.md")
  set(matches "")
  foreach(md IN LISTS found)
    get_filename_component(name "${md}" NAME_WE)
    if(name STREQUAL stem)
      list(APPEND matches "${md}")
    endif()
  endforeach()
  list(LENGTH matches n)
  if(n EQUAL 1)
    set(${out} "${matches}" PARENT_SCOPE)
  elseif(n EQUAL 0)
    set(${out}_ERROR "no Markdown file ${stem}.md under ${root}/docs" PARENT_SCOPE)
  else()
    set(${out}_ERROR "two documents are named ${stem}.md (${matches}): a context cannot tell them apart" PARENT_SCOPE)
  endif()
endfunction()

# The settings a context file gives in comment lines of its own (tests/docs/snippets/*.cpp):
#   // snippet: hosted | freestanding     required; freestanding: the ctest compiles it the way
#                                         tests/freestanding does (no C++ standard headers)
#   // snippet-include-dir: <dir>         optional, repeatable; relative to the project root
#   // snippet-split-before: <text>       optional; the block is cut before its first line that
#                                         begins with <text> (no ';'), SNIPPET_HEAD_FILE and
#                                         SNIPPET_TAIL_FILE instead of SNIPPET_FILE
#   // snippet-skip-32-bit: <why>         optional; a 32-bit build (preset m32) does not compile
#                                         it (the simulator is a 64-bit host tool)
#   // snippet-run: <what it checks>      optional; the context is a program (it defines main)
#                                         that the build links and ctest docs/run-<stem>-<n>
#                                         runs: exit 0 when the block does what the document
#                                         says it does
# Sets <prefix>_MODE, <prefix>_INCLUDE_DIRS (a list), <prefix>_SPLIT_BEFORE, <prefix>_SKIP_32_BIT
# (the reason, or ""), <prefix>_RUN (what the run checks, or "") and <prefix>_ERROR when something
# is wrong.
function(docs_context_settings context prefix)
  file(STRINGS "${context}" lines REGEX "^// snippet(-[a-z0-9-]+)?:")
  set(mode "")
  set(dirs "")
  set(split "")
  set(skip32 "")
  set(run "")
  set(error "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^// snippet: *(hosted|freestanding) *$")
      set(mode ${CMAKE_MATCH_1})
    elseif(line MATCHES "^// snippet-include-dir: *([^ ]+) *$")
      list(APPEND dirs "${CMAKE_MATCH_1}")
    elseif(line MATCHES "^// snippet-split-before: (.+)$")
      string(STRIP "${CMAKE_MATCH_1}" split)
    elseif(line MATCHES "^// snippet-skip-32-bit: (.+)$")
      string(STRIP "${CMAKE_MATCH_1}" skip32)
    elseif(line MATCHES "^// snippet-run: (.+)$")
      string(STRIP "${CMAKE_MATCH_1}" run)
    else()
      set(error "${context}: unknown setting line '${line}'")
    endif()
  endforeach()
  if(mode STREQUAL "" AND error STREQUAL "")
    set(error "${context}: no '// snippet: hosted' or '// snippet: freestanding' line")
  endif()
  set(${prefix}_MODE "${mode}" PARENT_SCOPE)
  set(${prefix}_INCLUDE_DIRS "${dirs}" PARENT_SCOPE)
  set(${prefix}_SPLIT_BEFORE "${split}" PARENT_SCOPE)
  set(${prefix}_SKIP_32_BIT "${skip32}" PARENT_SCOPE)
  set(${prefix}_RUN "${run}" PARENT_SCOPE)
  set(${prefix}_ERROR "${error}" PARENT_SCOPE)
endfunction()
