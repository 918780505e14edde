# Writes the INDEX-th (1-based) ```cpp block of the Markdown file IN to OUT, for a context in
# tests/docs/snippets to compile (tests/docs/CMakeLists.txt); only on a change.
#   cmake -DIN=docs/guides/energy.md -DINDEX=2 -DOUT=energy-2.inc -P extract_nth_block.cmake
# With -DSPLIT_BEFORE=<text> -DOUT_TAIL=<file>, the block is cut before its first line that
# begins with <text>, the rest going to OUT_TAIL (docs_blocks.cmake). A missing block is an
# error naming the file and the index: the test must not pass on nothing.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/docs_blocks.cmake)
foreach(var IN ITEMS IN INDEX OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "extract_nth_block.cmake: -D${var}=... is required")
  endif()
endforeach()
if(DEFINED SPLIT_BEFORE AND NOT SPLIT_BEFORE STREQUAL "")
  docs_extract_block("${IN}" "${INDEX}" "${OUT}" "${SPLIT_BEFORE}" "${OUT_TAIL}")
else()
  docs_extract_block("${IN}" "${INDEX}" "${OUT}")
endif()
