# Writes the first ```cpp block that follows the line HEADING in the Markdown file IN to OUT,
# so that a document's example is compiled and run as written (tests/docs/CMakeLists.txt).
#   cmake -DIN=README.md -DHEADING="## A taste" -DOUT=taste.cpp -P extract_block.cmake
# Blocks are found as every documents test finds them (docs_blocks.cmake: exact ```cpp fences,
# other fenced blocks skipped, lines split by hand) and written behind a #line directive, only
# when the text changes. A missing heading or block is an error naming the file: the test must
# not pass on nothing.
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/docs_blocks.cmake)
if(NOT EXISTS "${IN}")
  message(FATAL_ERROR "${IN}: no such file")
endif()
file(READ "${IN}" content)
string(REPLACE "\r\n" "\n" content "${content}")
string(FIND "\n${content}\n" "\n${HEADING}\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${IN}: no line '${HEADING}'")
endif()
string(SUBSTRING "${content}" 0 ${at} before)
string(REGEX MATCHALL "\n" newlines "${before}")
list(LENGTH newlines heading_line)
math(EXPR heading_line "${heading_line} + 1")
docs_cpp_blocks("${IN}" blk)
foreach(i RANGE 1 ${blk_COUNT})
  if(blk_COUNT GREATER 0 AND blk_${i}_LINE GREATER heading_line)
    docs_extract_block("${IN}" ${i} "${OUT}")
    return()
  endif()
endforeach()
message(FATAL_ERROR "${IN}: no complete ```cpp block after the line '${HEADING}'")
