# --depfile: one rule per input naming the .cu (or --depfile-target), every non-system file
# read in sorted order, make's escapes for spaces; misuse of the options is a usage error.
#   cmake -DTILECC=<tilecc> -DINPUTS=<tests/driver/inputs> -DWORKDIR=<dir> -P check_depfile.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORKDIR}")
set(inc "${WORKDIR}/dir with space")
file(COPY "${INPUTS}/include/lines_helper.hpp" DESTINATION "${inc}")
file(COPY "${INPUTS}/lines.tile.cpp" DESTINATION "${WORKDIR}")
file(WRITE "${WORKDIR}/other.tile.cpp" "#include <tilecc/tile.hpp>\nTILECC_KERNEL() void other(float* p) { tilecc::store(p, 1.0f); }\n")

execute_process(COMMAND "${TILECC}" "${WORKDIR}/lines.tile.cpp" -o "${WORKDIR}/lines.cu" --depfile "${WORKDIR}/lines.d"
                        -- "-I${inc}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "translation failed: ${err}")
endif()
file(READ "${WORKDIR}/lines.d" d)
string(REPLACE " " "\\ " esc "${WORKDIR}")
string(REPLACE " \\\n  " ";" entries "${d}")
string(STRIP "${entries}" entries)
list(POP_FRONT entries target)
if(NOT target STREQUAL "${esc}/lines.cu:")
  message(FATAL_ERROR "depfile target '${target}', expected ${esc}/lines.cu:\n${d}")
endif()
set(sorted ${entries})
list(SORT sorted)
if(NOT sorted STREQUAL entries)
  message(FATAL_ERROR "depfile entries are not sorted:\n${d}")
endif()
foreach(f "${esc}/dir\\ with\\ space/lines_helper.hpp" "${esc}/lines.tile.cpp")
  if(NOT f IN_LIST entries)
    message(FATAL_ERROR "depfile lacks ${f}:\n${d}")
  endif()
endforeach()
if(NOT entries MATCHES "/tilecc/tile.hpp")
  message(FATAL_ERROR "depfile lacks tilecc/tile.hpp:\n${d}")
endif()
if(d MATCHES "/usr/include|stddef.h|cmath")
  message(FATAL_ERROR "system headers in the depfile:\n${d}")
endif()

execute_process(COMMAND "${TILECC}" "${WORKDIR}/lines.tile.cpp" -o "${WORKDIR}/lines.cu" --depfile "${WORKDIR}/lines.d"
                        --depfile-target "${WORKDIR}/lines.stamp" -- "-I${inc}" RESULT_VARIABLE rc)
file(READ "${WORKDIR}/lines.d" d)
if(NOT rc EQUAL 0 OR NOT d MATCHES "^${esc}/lines.stamp: ")
  message(FATAL_ERROR "--depfile-target: exit ${rc}:\n${d}")
endif()

# Two inputs: a rule each, in one depfile.
execute_process(COMMAND "${TILECC}" "${WORKDIR}/lines.tile.cpp" "${WORKDIR}/other.tile.cpp" --depfile "${WORKDIR}/both.d"
                        -- "-I${inc}" WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc ERROR_VARIABLE err)
file(READ "${WORKDIR}/both.d" d)
if(NOT rc EQUAL 0 OR err OR NOT d MATCHES "^lines.cu: .*lines_helper.hpp.*\nother.cu: \\\\\n[^\n]*other.tile.cpp")
  message(FATAL_ERROR "two inputs: exit ${rc} ${err}:\n${d}")
endif()
if(d MATCHES "other.cu:[^:]*lines_helper")
  message(FATAL_ERROR "other.cu depends on a header only lines.tile.cpp includes:\n${d}")
endif()

foreach(bad "--depfile-target;x.stamp" "--depfile;x.d;--depfile-target;x.stamp;${WORKDIR}/other.tile.cpp"
            "--line-directives-relative-to;.")
  execute_process(COMMAND "${TILECC}" "${WORKDIR}/lines.tile.cpp" ${bad} -- "-I${inc}" WORKING_DIRECTORY "${WORKDIR}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "tilecc: error: ")
    message(FATAL_ERROR "'${bad}': expected a usage error (exit 2), got ${rc}: ${err}")
  endif()
endforeach()
