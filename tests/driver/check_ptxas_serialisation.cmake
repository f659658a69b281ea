# tilecc_add_kernels' compiler launcher (cmake/tileccCheckPtxas.cmake) fails a compile whose
# wgmma ptxas serialised, removing its object, passes a clean one through (without ptxas'
# resource lines, which it asks for), and warns of a kernel that spills, by name, without failing.
# Inputs: -DNVCC=... -DSCRIPT=<tileccCheckPtxas.cmake> -DBAD=<wgmma_serialised.cu> -DGOOD=<a .cu>
#         -DSPILLS=<spills.cu> -DINCLUDE=<runtime/include> -DWORKDIR=...
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
if(err MATCHES "ptxas info" OR err MATCHES "spills")
  message(FATAL_ERROR "a clean compile printed ptxas' resource usage or a spill:\n${err}")
endif()

# A spill: a warning naming the kernel and the architecture; -Werror all-warnings still builds it.
execute_process(COMMAND "${CMAKE_COMMAND}" -P "${SCRIPT}" -- ${compile} -Werror all-warnings "${SPILLS}" -o "${WORKDIR}/spills.o"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS "${WORKDIR}/spills.o")
  message(FATAL_ERROR "a kernel that spills failed to build through the launcher (exit ${rc}):\n${err}")
endif()
if(NOT err MATCHES "tilecc: warning: kernel 'spilling_kernel' spills registers to local memory on sm_90a: [1-9][0-9]* bytes stored, [0-9]+ loaded, with [0-9]+ registers")
  message(FATAL_ERROR "no spill warning for the kernel:\n${err}")
endif()
if(err MATCHES "ptxas info")
  message(FATAL_ERROR "ptxas' resource lines, which the command did not ask for, were printed:\n${err}")
endif()

# Asked for (-Xptxas -v), ptxas' own lines stay.
execute_process(COMMAND "${CMAKE_COMMAND}" -P "${SCRIPT}" -- ${compile} -Xptxas -v "${GOOD}" -o "${WORKDIR}/good.o"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err MATCHES "ptxas info +: Used [0-9]+ registers")
  message(FATAL_ERROR "-Xptxas -v given, ptxas' resource lines are missing (exit ${rc}):\n${err}")
endif()
