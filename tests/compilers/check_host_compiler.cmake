# Builds the unit tests and the vector_add and softmax host tests with one compiler, then runs
# them. Inputs: -DCOMPILER= (empty: not installed) -DTAG= -DSOURCE_DIR= -DDOCTEST_INCLUDE= -DWORK_DIR=
if(COMPILER STREQUAL "" OR NOT EXISTS "${COMPILER}")
  message("SKIPPED: no compiler for '${TAG}' on this machine (.ci/install-deps installs it)")
  return()
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND "${COMPILER}" --version OUTPUT_VARIABLE version ERROR_QUIET)
string(REGEX MATCH "^[^\n]*" version "${version}")
message(STATUS "${TAG}: ${version}")

set(flags -std=c++20 -O1 -Wall -Wextra -Werror -I "${SOURCE_DIR}/runtime/include")
foreach(d IN LISTS DOCTEST_INCLUDE)
  list(APPEND flags -isystem "${d}")
endforeach()

function(build_and_run what)
  cmake_parse_arguments(A "" "" "SOURCES;ARGS" ${ARGN})
  execute_process(COMMAND "${COMPILER}" ${flags} ${A_SOURCES} -o "${WORK_DIR}/${what}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${TAG}: building ${what} failed:\n${out}")
  endif()
  execute_process(COMMAND "${WORK_DIR}/${what}" ${A_ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${TAG}: ${what} failed:\n${out}")
  endif()
  string(REGEX MATCH "[^\n]*\n?[^\n]*$" tail "${out}")
  message(STATUS "${TAG}: ${what} passed: ${tail}")
endfunction()

file(GLOB unit_sources "${SOURCE_DIR}/tests/unit/*.cpp")
build_and_run(unit SOURCES ${unit_sources})
foreach(sample vector_add softmax)
  build_and_run(${sample}_host_test SOURCES "${SOURCE_DIR}/samples/${sample}/${sample}_host_test.cpp"
                "-I${SOURCE_DIR}/samples")
endforeach()
