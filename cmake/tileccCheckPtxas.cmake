# Compiler launcher for tilecc's generated CUDA (set by tilecc_add_kernels()): runs the compile
# command given after `--`
# - and fails it when ptxas reports that it serialised wgmma or injected a warpgroup wait (the
#   C75xx "Potential Performance Loss" notes): such code is correct but slow, and tilecc must
#   never generate it;
# - with ptxas' resource usage (-Xptxas -v) added, and a warning printed for each kernel that
#   spills registers to local memory (not an error, so `-Werror all-warnings` still builds it;
#   `-Xptxas -warn-spills` would make it one). ptxas' own lines are printed only where the
#   command asked for them.
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

# Whether the command already asks ptxas for its resource usage (then its lines stay).
set(verbose OFF)
set(prev "")
foreach(arg IN LISTS cmd)
  if(arg MATCHES "^(--resource-usage|-res-usage)$" OR arg MATCHES "^(-Xptxas|--ptxas-options)=(.*,)?(-v|--verbose)(,.*)?$" OR
     (prev MATCHES "^(-Xptxas|--ptxas-options)$" AND arg MATCHES "^((.*,)?(-v|--verbose)(,.*)?)$"))
    set(verbose ON)
  endif()
  set(prev "${arg}")
endforeach()
set(run ${cmd})
if(NOT verbose)
  list(APPEND run -Xptxas=-v)
endif()

execute_process(COMMAND ${run} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(out)
  message(NOTICE "${out}")
endif()
# Spills, from ptxas' resource usage: "Compiling entry function '<mangled>' for 'sm_90a'", its
# "N bytes stack frame, N bytes spill stores, N bytes spill loads" and "Used N registers".
set(entry "ptxas info +: Compiling entry function '([^']+)' for '([^']+)'\nptxas info +: Function properties for [^\n]*\n")
string(REGEX MATCHALL "${entry} +[0-9]+ bytes stack frame, [1-9][0-9]* bytes spill stores[^\n]*\nptxas info +: Used [0-9]+ registers"
       spilled "${err}")
set(spills)
foreach(block IN LISTS spilled)
  string(REGEX MATCH "${entry} +[0-9]+ bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads\nptxas info +: Used ([0-9]+) registers" _ "${block}")
  set(kernel "${CMAKE_MATCH_1}")
  set(arch "${CMAKE_MATCH_2}")
  set(stores "${CMAKE_MATCH_3}")
  set(loads "${CMAKE_MATCH_4}")
  set(registers "${CMAKE_MATCH_5}")
  # tilecc's kernels are in namespace tilecc_kernels: _ZN14tilecc_kernels<length><name>E...
  if(kernel MATCHES "^_ZN14tilecc_kernels([0-9]+)(.*)$")
    string(SUBSTRING "${CMAKE_MATCH_2}" 0 ${CMAKE_MATCH_1} kernel)
  endif()
  string(CONCAT line "tilecc: warning: kernel '${kernel}' spills registers to local memory on ${arch}: ${stores} bytes stored, "
                "${loads} loaded, with ${registers} registers per thread. Local memory is slower: `tilecc --emit=report` lists the "
                "tiles live at its register peak, and smaller tiles, more warps or fewer stages need fewer.")
  list(APPEND spills "${line}")
endforeach()
set(err_text "${err}")
if(NOT verbose)
  string(REGEX REPLACE "ptxas info +: ([0-9]+ bytes gmem|Compiling entry function|Function properties for|Used [0-9]+ registers|Compile time =)[^\n]*\n?" "" err_text
                       "${err_text}")
  string(REGEX REPLACE "(^|\n) +[0-9]+ bytes stack frame, [^\n]*" "\\1" err_text "${err_text}")
endif()
string(REGEX REPLACE "\n+$" "" err_text "${err_text}")
string(REGEX REPLACE "^\n+" "" err_text "${err_text}")
if(err_text)
  message(NOTICE "${err_text}")
endif()
foreach(line IN LISTS spills)
  message(NOTICE "${line}")
endforeach()
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
