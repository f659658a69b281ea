# Prints a GPU-level IR file as CUDA (tilecc-opt --emit=cuda, with the passes its RUN line
# names) and builds it with nvcc for sm_80 and sm_90a, warnings as errors.
# Inputs: -DOPT=... -DNVCC=... -DSOURCE=... -DINCLUDE=... -DWORKDIR=...
file(READ "${SOURCE}" text)
string(REGEX MATCH "// RUN:([^\n]*)" run "${text}")
separate_arguments(args UNIX_COMMAND "${CMAKE_MATCH_1}")
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
get_filename_component(name "${SOURCE}" NAME_WE)
execute_process(COMMAND "${OPT}" ${args} "${SOURCE}" OUTPUT_FILE "${WORKDIR}/${name}.cu" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tilecc-opt failed: ${err}")
endif()
# The launcher's header: a stub declaring nothing beyond what the .cu includes itself.
file(STRINGS "${WORKDIR}/${name}.cu" includes REGEX "^#include \"")
foreach(line IN LISTS includes)
  string(REGEX REPLACE "^#include \"(.*)\"" "\\1" header "${line}")
  file(WRITE "${WORKDIR}/${header}" "#pragma once\n#include <cuda_runtime_api.h>\n#include <cuda.h>\n#include <stdint.h>\n")
endforeach()
execute_process(COMMAND "${NVCC}" -std=c++17 -c -I "${INCLUDE}" -I "${WORKDIR}" -Werror all-warnings
                        -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a
                        "${WORKDIR}/${name}.cu" -o "${WORKDIR}/${name}.o"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed:\n${out}\n${err}")
endif()
