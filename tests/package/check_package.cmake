# Installs tilecc from BUILD into a temporary prefix and builds tests/package/project against it
# with GENERATOR, then checks what users rely on:
#   - the project configures (find_package) and builds; an unknown argument is an author warning;
#   - include directories and definitions added to the target reach the translation;
#   - the golden test passes on fresh files, fails with a diff on a stale one, and the update
#     target refreshes it;
#   - a header edit regenerates only the kernel that includes it, and nvcc runs again only
#     when the generated code changed;
#   - #line directives take the PTX line table back to the tile source.
#   cmake -DBUILD=<tilecc build> -DPROJECT=<project dir> -DWORKDIR=<dir> -DGENERATOR=<gen>
#         -DCUDA_COMPILER=<nvcc> -P check_package.cmake

function(run what)
  cmake_parse_arguments(R "FAIL" "OUTPUT" "COMMAND" ${ARGN})
  execute_process(COMMAND ${R_COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(R_FAIL AND rc EQUAL 0)
    message(FATAL_ERROR "${what}: expected a failure, got success\n${out}${err}")
  elseif(NOT R_FAIL AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: failed (${rc})\n${out}${err}")
  endif()
  if(R_OUTPUT)
    set(${R_OUTPUT} "${out}${err}" PARENT_SCOPE)
  endif()
endfunction()

function(expect text regex what)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected to match '${regex}' in:\n${text}")
  endif()
endfunction()

function(expect_not text regex what)
  if(text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected no match of '${regex}' in:\n${text}")
  endif()
endfunction()

cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORKDIR}")
set(prefix "${WORKDIR}/prefix")
set(src "${WORKDIR}/src")
set(bin "${WORKDIR}/build")
file(COPY "${PROJECT}/" DESTINATION "${src}")

run("install" COMMAND "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${prefix}")
foreach(f bin/tilecc include/tilecc/tile.hpp include/tilecc/cuda/tilecc.cuh lib/cmake/tilecc/tileccConfig.cmake
          lib/cmake/tilecc/tileccAddKernels.cmake)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "install: ${prefix}/${f} is missing")
  endif()
endforeach()
run("installed tilecc runs" COMMAND "${prefix}/bin/tilecc" --version)

run("configure" COMMAND "${CMAKE_COMMAND}" -S "${src}" -B "${bin}" -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}"
    "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON OUTPUT log)
expect("${log}" "AUTHOR_WARNING|Warning \\(dev\\)" "unknown argument")
string(REGEX REPLACE "[ \n]+" " " flat "${log}")  # CMake wraps warnings
expect("${flat}" "unknown arguments ignored: NOT_AN_OPTION x" "unknown argument")

# The kernel files are in compile_commands.json (clangd) through user_kernels_sources, which the
# default build leaves out.
file(READ "${bin}/compile_commands.json" commands)
expect("${commands}" "kernels/scale.tile.cpp" "kernel files in compile_commands.json")

run("build" COMMAND "${CMAKE_COMMAND}" --build "${bin}" OUTPUT log)
expect("${log}" "tilecc kernels/scale.tile.cpp" "first build translates scale")
expect_not("${log}" "user_kernels_sources" "the kernels' C++ objects are not built by default")
run("kernels as C++" COMMAND "${CMAKE_COMMAND}" --build "${bin}" --target user_kernels_sources)

# Installed: the launchers' headers in include/, the exported library pointing there.
run("install the user's project" COMMAND "${CMAKE_COMMAND}" --install "${bin}" --prefix "${WORKDIR}/user_prefix")
foreach(f include/scale.h include/add.h lib/cmake/user/user_targets.cmake)
  if(NOT EXISTS "${WORKDIR}/user_prefix/${f}")
    message(FATAL_ERROR "install of the user's project: ${f} is missing")
  endif()
endforeach()
file(READ "${WORKDIR}/user_prefix/lib/cmake/user/user_targets.cmake" exported)
expect("${exported}" "_IMPORT_PREFIX}/include" "the installed kernels' include directory")
run("user_app" COMMAND "${bin}/user_app" OUTPUT log)
message(STATUS "${log}")
run("nothing to do" COMMAND "${CMAKE_COMMAND}" --build "${bin}" OUTPUT log)
expect_not("${log}" "tilecc kernels|Building CUDA" "a second build does nothing")

# Golden files: made by the update target, checked by CTest.
run("update golden" COMMAND "${CMAKE_COMMAND}" --build "${bin}" --target user_kernels_update_golden)
run("golden fresh" COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${bin}" -L golden --output-on-failure OUTPUT log)
expect("${log}" "100% tests passed, 0 tests failed out of 2" "golden tests")
file(READ "${src}/golden/add.cu" golden)
string(REPLACE "store" "stale_store" stale "${golden}")
file(WRITE "${src}/golden/add.cu" "${stale}")
run("golden stale" FAIL COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${bin}" -L golden --output-on-failure OUTPUT log)
expect("${log}" "-[^\n]*stale_store" "the stale test prints a diff")
expect("${log}" "user_kernels_update_golden" "the stale test names the update target")
run("update golden again" COMMAND "${CMAKE_COMMAND}" --build "${bin}" --target tilecc_update_golden)
run("golden fresh again" COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${bin}" -L golden)

# #line directives: relative paths in the files, the tile source in the PTX line table.
set(gen "${bin}/tilecc/user_kernels")
file(READ "${gen}/scale.cu" cu)
expect("${cu}" "#line 10 \"[^\"/][^\"]*kernels/scale.tile.cpp\"" "#line to the first statement of scale.tile.cpp")
expect("${cu}" "#line 10 \"[^\"/][^\"]*include/scale_helpers.hpp\"" "#line to the helper's statement")
expect("${cu}" "#line 12 \"[^\"/][^\"]*kernels/scale.tile.cpp\"" "#line back to the store after the helper")
expect_not("${cu}" "#line [0-9]+ \"/" "#line paths are relative")
file(READ "${src}/golden/scale.cu" cu)
expect("${cu}" "#line 12 \"../kernels/scale.tile.cpp\"" "golden #line relative to the golden file")
# The PTX of scale.cu, compiled by the build's own command (compile_commands.json) with -ptx:
# its line table must name the tile source, resolved from the directory nvcc ran in.
file(READ "${bin}/compile_commands.json" commands)
string(JSON count LENGTH "${commands}")
math(EXPR last "${count} - 1")
set(ptx_command)
foreach(i RANGE ${last})
  string(JSON file GET "${commands}" ${i} file)
  if(file MATCHES "user_kernels/scale\\.cu$")
    string(JSON command GET "${commands}" ${i} command)
    string(JSON directory GET "${commands}" ${i} directory)
    separate_arguments(ptx_command UNIX_COMMAND "${command}")
  endif()
endforeach()
if(NOT ptx_command)
  message(FATAL_ERROR "no compile command for scale.cu in ${bin}/compile_commands.json")
endif()
list(FIND ptx_command -o at)
math(EXPR at "${at} + 1")
list(REMOVE_AT ptx_command ${at})
list(INSERT ptx_command ${at} "${WORKDIR}/scale.ptx")
list(TRANSFORM ptx_command REPLACE "^-c$" "-ptx")
foreach(flag -MF -MT)  # leave the build's own dependency files alone
  list(FIND ptx_command ${flag} at)
  if(at GREATER -1)
    list(REMOVE_AT ptx_command ${at} ${at})
  endif()
endforeach()
list(REMOVE_ITEM ptx_command -MD)
execute_process(COMMAND ${ptx_command} WORKING_DIRECTORY "${directory}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc -ptx failed: ${ptx_command}\n${err}")
endif()
file(READ "${WORKDIR}/scale.ptx" ptx)
string(REGEX MATCH "\\.file[\t ]+[0-9]+ \"[^\"]*scale\\.tile\\.cpp\"" file "${ptx}")
if(NOT file)
  message(FATAL_ERROR "the PTX line table does not name scale.tile.cpp")
endif()
string(REGEX REPLACE ".*\"(.*)\"" "\\1" path "${file}")
file(REAL_PATH "${path}" path)
file(REAL_PATH "${src}/kernels/scale.tile.cpp" expected)
message(STATUS "PTX line table: ${file}")
if(NOT path STREQUAL expected)
  message(FATAL_ERROR "the PTX line table names ${path}, not ${expected}")
endif()
if(NOT ptx MATCHES "\\.loc[\t ]+[0-9]+ 12 ")
  message(FATAL_ERROR "the PTX line table has no entry for line 12 (the store)")
endif()

# A header edit that changes nothing generated: scale is translated again, nvcc does not run.
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1)
file(TOUCH "${src}/include/scale_helpers.hpp")
run("build after touching a header" COMMAND "${CMAKE_COMMAND}" --build "${bin}" OUTPUT log)
expect("${log}" "tilecc kernels/scale.tile.cpp" "touching scale_helpers.hpp retranslates scale")
expect_not("${log}" "tilecc kernels/add.tile.cpp" "touching scale_helpers.hpp leaves add alone")
expect_not("${log}" "Building CUDA" "unchanged generated code is not rebuilt")
# A header edit that changes the generated code: scale.cu is rebuilt, add.cu is not.
# (After a pause, as above: file times here tick every 4 ms, and an edit in the same tick as
# the stamp the last build wrote is not newer than it, so ninja would see nothing to do.)
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1)
file(READ "${src}/include/scale_helpers.hpp" helpers)
string(REPLACE "SCALE_FACTOR 2.0f" "SCALE_FACTOR 3.0f" helpers "${helpers}")
file(WRITE "${src}/include/scale_helpers.hpp" "${helpers}")
run("build after editing a header" COMMAND "${CMAKE_COMMAND}" --build "${bin}" OUTPUT log)
expect("${log}" "Building CUDA object [^\n]*scale\\.cu" "an edit to scale_helpers.hpp rebuilds scale.cu")
expect_not("${log}" "tilecc kernels/add.tile.cpp|Building CUDA object [^\n]*add\\.cu" "add is untouched")
message(STATUS "package test (${GENERATOR}): all checks passed")
