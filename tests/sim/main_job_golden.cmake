# sim/main-job-golden: the main job's output (`schedsim compare --scenario all
# --no-host-timing`, what tools/main.sh runs and docs/results.md and the README quote) is
# byte-identical to tests/sim/golden/compare-all.txt. A model change that moves any figure of
# the seed comparison fails here, with the diff, so that the documents quoting those tables
# are re-measured in the same change; then the golden file is regenerated:
#   build/release/examples/schedsim compare --scenario all --no-host-timing > tests/sim/golden/compare-all.txt
# Usage: cmake -DSCHEDSIM=<binary> -DGOLDEN=<file> -DWORK=<dir> -P main_job_golden.cmake
execute_process(COMMAND ${SCHEDSIM} compare --scenario all --no-host-timing
                OUTPUT_FILE ${WORK}/compare-all.txt RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "schedsim compare --scenario all exited with ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${GOLDEN} ${WORK}/compare-all.txt RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  execute_process(COMMAND diff -u ${GOLDEN} ${WORK}/compare-all.txt OUTPUT_VARIABLE delta)
  message(FATAL_ERROR "the main job's output changed (diff golden -> now below). If the change is "
                      "intended, re-measure the tables docs/results.md and README.md quote from it, then "
                      "regenerate ${GOLDEN} as this script's header says.\n${delta}")
endif()
message(STATUS "the main job's output matches ${GOLDEN}")
