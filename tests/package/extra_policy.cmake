# Script mode: schedsim's SCHEDSIM_EXTRA_POLICY_SOURCES (docs/guides/writing-a-policy.md §5), the
# way a user names a policy file kept in their own tree:
#   - a path that is not absolute, or names no file, stops the configure with a message naming it;
#   - a valid file becomes one of schedsim's sources, compiled with the project's warning flags
#     but not -Werror: a warning in the user's file shows and the object still builds.
# Only the user's object is compiled (the rest of schedsim is the release build's own), so the
# test costs one configure and one translation unit. Ninja generators only (the object is built
# by its path).
file(REMOVE_RECURSE "${SCRATCH}")
file(MAKE_DIRECTORY "${SCRATCH}")
set(common -S "${SOURCE_DIR}" -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX} -DSCHEDCORE_BUILD_TESTS=OFF
           -DSCHEDCORE_BUILD_BENCH=OFF -DSCHEDCORE_BUILD_DOCS=OFF -DSCHEDCORE_BUILD_EXAMPLES=ON
           -DSCHEDCORE_INSTALL=OFF)

# 1. Refused: a relative path, then an absolute path to nothing.
foreach(bad IN ITEMS "policy_mine.cpp" "${SCRATCH}/no_such_policy.cpp")
  execute_process(COMMAND ${CMAKE_COMMAND} ${common} -B "${SCRATCH}/refused"
                          "-DSCHEDSIM_EXTRA_POLICY_SOURCES=${bad}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "SCHEDSIM_EXTRA_POLICY_SOURCES=${bad} was accepted")
  endif()
  string(REGEX REPLACE "[ \n]+" " " flat "${err}")  # CMake wraps a message's lines
  string(FIND "${flat}" "'${bad}' is not an existing file given by an absolute path" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "SCHEDSIM_EXTRA_POLICY_SOURCES=${bad}: the message does not name it:\n${err}")
  endif()
  file(REMOVE_RECURSE "${SCRATCH}/refused")
endforeach()

# 2. Accepted: the stride example under another name, plus one narrowing conversion.
file(READ "${SOURCE_DIR}/examples/schedsim/policy_stride.cpp" text)
string(REPLACE "SCHEDSIM_NAMED_POLICY(\"stride\"" "SCHEDSIM_NAMED_POLICY(\"stride-extra\"" text "${text}")
string(FIND "${text}" "\"stride-extra\"" renamed)
if(renamed EQUAL -1)
  message(FATAL_ERROR "policy_stride.cpp no longer registers \"stride\" with SCHEDSIM_NAMED_POLICY: update this test")
endif()
string(APPEND text "\nint extra_policy_narrows(long x);\nint extra_policy_narrows(long x) { return x; }\n")
file(WRITE "${SCRATCH}/policy_extra.cpp" "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} ${common} -B "${SCRATCH}/build"
                        "-DSCHEDSIM_EXTRA_POLICY_SOURCES=${SCRATCH}/policy_extra.cpp"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure with a valid extra policy failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${MAKE_PROGRAM} -C "${SCRATCH}/build" -t targets all OUTPUT_VARIABLE targets RESULT_VARIABLE rc)
string(REGEX MATCH "[^\n:]*policy_extra\\.cpp\\.o" object "${targets}")
if(NOT rc EQUAL 0 OR object STREQUAL "")
  message(FATAL_ERROR "the extra policy is not one of schedsim's objects:\n${targets}")
endif()
execute_process(COMMAND ${MAKE_PROGRAM} -C "${SCRATCH}/build" "${object}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the extra policy did not compile (a warning must not stop it):\n${out}\n${err}")
endif()
string(FIND "${out}${err}" "-Wconversion" warned)
if(warned EQUAL -1)
  message(FATAL_ERROR "the extra policy's narrowing conversion was not reported (the project's warnings must show):\n${out}\n${err}")
endif()
message(STATUS "an extra policy file is refused when misnamed, and compiles with the project's warnings shown, not fatal")
