# Compiler launcher for tilecc's generated CUDA (set by tilecc_add_kernels() on targets built for
# sm_90a): runs the compile command given after `--` and fails it when ptxas reports that it
# serialised wgmma or injected a warpgroup wait (the C75xx "Potential Performance Loss" notes):
# such code is correct but slow, and tilecc must never generate it.
#   cmake -P tileccCheckPtxas.cmake -- <compiler> <args>...
set(cmd)
set(after_dashes OFF)
set(object)
set(take_object OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  set(arg "${CMAKE_ARGV${i}}")
  if(after_dashes)
    list(APPEND cmd "${arg}")
    if(take_object)
      set(object "${arg}")
      set(take_object OFF)
    elseif(arg STREQUAL "-o")
      set(take_object ON)
    endif()
  elseif(arg STREQUAL "--")
    set(after_dashes ON)
  endif()
endforeach()
if(NOT cmd)
  message(FATAL_ERROR "usage: cmake -P tileccCheckPtxas.cmake -- <compiler> <args>...")
endif()

execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(out)
  message(NOTICE "${out}")
endif()
if(err)
  string(REGEX REPLACE "\n$" "" err_text "${err}")
  message(NOTICE "${err_text}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the compile command failed (exit ${rc})")
endif()
string(REGEX MATCHALL "[^\n]*\\(C75[0-9][0-9]\\)[^\n]*(wgmma|warpgroup|GMMA|setmaxnreg)[^\n]*" serialised "${err}")
if(serialised)
  if(object)
    file(REMOVE "${object}")  # a failed compile leaves no object to look up to date
  endif()
  message(FATAL_ERROR "ptxas serialised wgmma in code tilecc generated (the C75xx note above). This is a "
                      "tilecc bug: please report it with the kernel. Translating with --no-wgmma "
                      "(tilecc_add_kernels(... OPTIONS --no-wgmma)) avoids wgmma.")
endif()
