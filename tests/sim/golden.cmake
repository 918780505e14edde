# sim/golden/NAME: schedsim's output for one command of golden/commands.txt (the commands the
# documents quote their tables from: the main job, the seed and interbench tables,
# massive-intr, autogroup, eevdf-slices) is byte-identical to golden/NAME.txt. A model change
# that moves any figure there fails here, with the diff, so that the documents quoting it are
# re-measured in the same change; then tools/update_goldens.sh regenerates the files.
# Usage: cmake -DSCHEDSIM=<binary> -DDIR=<golden dir> -DNAME=<name> -DWORK=<dir> -P golden.cmake
file(STRINGS ${DIR}/commands.txt lines REGEX "^${NAME} ")
list(LENGTH lines found)
if(NOT found EQUAL 1)
  message(FATAL_ERROR "golden/commands.txt has ${found} lines for ${NAME}, not 1")
endif()
string(REGEX REPLACE "^${NAME} +" "" command "${lines}")
separate_arguments(args UNIX_COMMAND "${command}")
execute_process(COMMAND ${SCHEDSIM} ${args} --no-host-timing OUTPUT_FILE ${WORK}/golden-${NAME}.txt RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "schedsim ${command} exited with ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DIR}/${NAME}.txt ${WORK}/golden-${NAME}.txt RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  execute_process(COMMAND diff -u ${DIR}/${NAME}.txt ${WORK}/golden-${NAME}.txt OUTPUT_VARIABLE delta)
  message(FATAL_ERROR "the output of `schedsim ${command}` changed (diff golden -> now below). If the "
                      "change is intended, re-measure what docs/results.md, the README and the guides "
                      "quote from it, then run tools/update_goldens.sh.\n${delta}")
endif()
message(STATUS "`schedsim ${command}` matches golden/${NAME}.txt")
