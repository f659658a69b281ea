# tilecc on a past fuzz finding: exit 0 or 1, and no output written on 1. With -DNVCC=..., a
# translated finding must also build for sm_80 and sm_90a with -Werror all-warnings (the
# findings of class nvcc-warning were generated code nvcc warned about), without ptxas's notes
# that it serialised wgmma.
# Inputs: -DTILECC=... -DSOURCE=... -DWORKDIR=... [-DNVCC=... -DINCLUDE=<runtime/include>]
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
execute_process(COMMAND "${TILECC}" "${SOURCE}" -o "${WORKDIR}/out.cu" RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT (rc EQUAL 0 OR rc EQUAL 1))
  message(FATAL_ERROR "tilecc exited '${rc}':\n${err}")
endif()
if(rc EQUAL 1 AND EXISTS "${WORKDIR}/out.cu")
  message(FATAL_ERROR "a failed translation left output behind")
endif()
file(READ "${SOURCE}" text)
if(rc EQUAL 1 AND text MATCHES "Class: false rejection")
  message(FATAL_ERROR "a valid kernel (a past false rejection) is rejected again:\n${err}")
endif()
if(rc EQUAL 0 AND NVCC)
  execute_process(COMMAND "${NVCC}" -std=c++17 -Werror all-warnings -gencode=arch=compute_80,code=sm_80
                          -gencode=arch=compute_90a,code=sm_90a -I "${INCLUDE}" -c out.cu -o out.o
                  WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE nrc OUTPUT_VARIABLE nout ERROR_VARIABLE nerr TIMEOUT 300)
  if(NOT nrc EQUAL 0)
    message(FATAL_ERROR "nvcc -Werror all-warnings failed on the translated finding:\n${nout}${nerr}")
  endif()
  # ptxas's notes that it serialised wgmma or injected warpgroup waits (tileccCheckPtxas.cmake).
  string(REGEX MATCH "[^\n]*\\(C75[0-9][0-9]\\)[^\n]*(wgmma|warpgroup|GMMA|setmaxnreg)[^\n]*" serialised "${nerr}")
  if(serialised)
    message(FATAL_ERROR "ptxas serialised wgmma in the translated finding:\n${serialised}")
  endif()
endif()
