# ctest docs/snippet-<stem>-<n>: compiles the context tests/docs/snippets/<stem>-<n>.cpp around
# block n of the document as it is now (extracted again here, so the test never reads a stale
# copy), with each compiler of COMPILERS, -fsyntax-only, the project's warnings as errors. A
# context marked `// snippet: freestanding` is compiled as tests/freestanding compiles headers
# (-ffreestanding -fno-exceptions -fno-rtti -nostdinc++: no C++ standard header exists); a
# hosted one as the rest of the tests are. The build compiles the same context too (an OBJECT
# library, the configured compiler at the build type's optimisation): this adds the second
# compiler and the freestanding flags.
#   cmake -DROOT=<project> -DCONTEXT=<context.cpp> -DWORK=<dir> "-DCOMPILERS=g++|clang++"
#         "-DWARNINGS=-Wall|-Wextra|..." -P check_snippet.cmake
cmake_minimum_required(VERSION 3.21)
include(${CMAKE_CURRENT_LIST_DIR}/docs_blocks.cmake)
get_filename_component(name "${CONTEXT}" NAME_WE)
if(NOT name MATCHES "^(.+)-([1-9][0-9]*)$")
  message(FATAL_ERROR "${CONTEXT}: a context is named <document stem>-<block number>.cpp")
endif()
set(stem ${CMAKE_MATCH_1})
set(index ${CMAKE_MATCH_2})
docs_markdown_for("${ROOT}" ${stem} md)
if(md STREQUAL "")
  message(FATAL_ERROR "${CONTEXT}: ${md_ERROR}")
endif()
docs_context_settings("${CONTEXT}" ctx)
if(NOT ctx_ERROR STREQUAL "")
  message(FATAL_ERROR "${ctx_ERROR}")
endif()

file(MAKE_DIRECTORY "${WORK}")
set(defines "")
if(ctx_SPLIT_BEFORE STREQUAL "")
  docs_extract_block("${md}" ${index} "${WORK}/${name}.inc")
  list(APPEND defines "-DSNIPPET_FILE=\"${WORK}/${name}.inc\"")
else()
  docs_extract_block("${md}" ${index} "${WORK}/${name}.head.inc" "${ctx_SPLIT_BEFORE}" "${WORK}/${name}.tail.inc")
  list(APPEND defines "-DSNIPPET_HEAD_FILE=\"${WORK}/${name}.head.inc\""
                      "-DSNIPPET_TAIL_FILE=\"${WORK}/${name}.tail.inc\"")
endif()

set(flags -std=c++17)
if(ctx_MODE STREQUAL "freestanding")
  list(APPEND flags -ffreestanding -fno-exceptions -fno-rtti -nostdinc++)
endif()
string(REPLACE "|" ";" warnings "${WARNINGS}")
list(APPEND flags ${warnings} -fsyntax-only "-I${ROOT}/include")
foreach(dir IN LISTS ctx_INCLUDE_DIRS)
  list(APPEND flags "-I${ROOT}/${dir}")
endforeach()

string(REPLACE "|" ";" compilers "${COMPILERS}")
set(failed "")
foreach(cxx IN LISTS compilers)
  unset(cxx_path)  # find_program keeps a value already set: the previous compiler's
  find_program(cxx_path ${cxx} NO_CACHE)
  if(NOT cxx_path)  # a machine without it, not a broken block (tools/deps.sh installs both)
    message(FATAL_ERROR "missing compiler ${cxx}: cannot check ${md} block ${index} with it")
  endif()
  execute_process(COMMAND ${cxx_path} ${flags} ${defines} "${CONTEXT}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(STATUS "ok: ${md} block ${index} with ${cxx} (${ctx_MODE})")
  else()
    message("FAIL: ${md} block ${index} with ${cxx} (${ctx_MODE}, context ${CONTEXT}):\n${out}")
    list(APPEND failed ${cxx})
  endif()
endforeach()
if(NOT failed STREQUAL "")
  message(FATAL_ERROR "${md}: ```cpp block ${index} does not compile with ${failed}")
endif()
