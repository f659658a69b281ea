# tilecc_add_kernels' compiler launcher (cmake/tileccCheckPtxas.cmake) fails a compile whose
# wgmma ptxas serialised, removing its object, and passes a clean one through.
# Inputs: -DNVCC=... -DSCRIPT=<tileccCheckPtxas.cmake> -DBAD=<wgmma_serialised.cu> -DGOOD=<a .cu>
#         -DINCLUDE=<runtime/include> -DWORKDIR=...
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
set(compile "${NVCC}" -std=c++17 -gencode arch=compute_90a,code=sm_90a -I "${INCLUDE}" -c)

file(WRITE "${WORKDIR}/bad.o" "stale")
execute_process(COMMAND "${CMAKE_COMMAND}" -P "${SCRIPT}" -- ${compile} "${BAD}" -o "${WORKDIR}/bad.o"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "a serialised wgmma compiled without error:\n${err}")
endif()
if(NOT err MATCHES "\\(C75[0-9][0-9]\\)" OR NOT err MATCHES "ptxas serialised wgmma in code tilecc generated")
  message(FATAL_ERROR "the failure does not show ptxas' note and the explanation:\n${err}")
endif()
if(EXISTS "${WORKDIR}/bad.o")
  message(FATAL_ERROR "the failed compile left its object behind")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" -P "${SCRIPT}" -- ${compile} "${GOOD}" -o "${WORKDIR}/good.o"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS "${WORKDIR}/good.o")
  message(FATAL_ERROR "a clean compile failed through the launcher (exit ${rc}):\n${err}")
endif()
