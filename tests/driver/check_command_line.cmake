# The command line is honest: options may come before the input; a bad command line prints one
# line naming the problem (exit 2) before anything else; an output can overwrite neither an
# input nor another output; a file without kernels is an error; a run writes all its outputs or
# none (an unwritable header or depfile leaves an existing .cu as it was).
# Inputs: -DTILECC=... -DTILECC_OPT=... -DSOURCE=<a valid kernel file> -DWORKDIR=...
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}/a" "${WORKDIR}/b")
file(READ "${SOURCE}" kernel)
file(WRITE "${WORKDIR}/k.tile.cpp" "${kernel}")
file(WRITE "${WORKDIR}/a/k.tile.cpp" "${kernel}")
file(WRITE "${WORKDIR}/b/k.tile.cpp" "${kernel}")
file(WRITE "${WORKDIR}/empty.tile.cpp" "")
file(WRITE "${WORKDIR}/decl.tile.cpp" "#include <tilecc/tile.hpp>\nTILECC_KERNEL(num_warps = 4) void k(float* x);\n")

# run(<expected exit> <regex the first stderr line matches> args...)
function(run expect first)
  execute_process(COMMAND "${TILECC}" ${ARGN} WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expect)
    message(FATAL_ERROR "tilecc ${ARGN}: exit ${rc}, expected ${expect}\n${err}")
  endif()
  string(REGEX REPLACE "\n.*" "" line "${err}")
  if(NOT line MATCHES "${first}")
    message(FATAL_ERROR "tilecc ${ARGN}: first stderr line\n  ${line}\ndoes not match\n  ${first}")
  endif()
endfunction()

function(expect_content path content)
  file(READ "${path}" got)
  if(NOT got STREQUAL content)
    message(FATAL_ERROR "${path} was changed by a run that failed")
  endif()
endfunction()

# Options first, as most users type them.
run(0 "^$" --arch sm_90a k.tile.cpp -o first.cu)
if(NOT EXISTS "${WORKDIR}/first.cu" OR NOT EXISTS "${WORKDIR}/first.h")
  message(FATAL_ERROR "--arch sm_90a k.tile.cpp -o first.cu wrote no output")
endif()

# Bad command lines: one line naming the problem, exit 2.
run(2 "^tilecc: error: no input files$")
run(2 "^tilecc: error: .*--bogus" --bogus k.tile.cpp)
run(2 "^tilecc: error: --emit: foo" --emit foo k.tile.cpp)
run(2 "^tilecc: error: no such file: 'missing.tile.cpp'$" missing.tile.cpp)
run(2 "^tilecc: error: no such file: 'sm_90a' \\(for several architectures write --arch sm_80,sm_90a\\)$" --arch sm_80 sm_90a k.tile.cpp)
run(2 "^tilecc: error: input 'a' is a directory$" a)

# Outputs that would destroy an input or each other.
run(2 "^tilecc: error: the CUDA output 'k.tile.cpp' is the input 'k.tile.cpp'" k.tile.cpp -o k.tile.cpp)
run(2 "^tilecc: error: the CUDA output '../[^']*/k.tile.cpp' is the input" k.tile.cpp -o ../${WORKDIR_NAME}/k.tile.cpp)
run(2 "^tilecc: error: the output 'k.tile.cpp' is the input" --emit=ir k.tile.cpp -o k.tile.cpp)
run(2 "^tilecc: error: the header 'k.tile.cpp' is the input" k.tile.cpp -o x.cu --header k.tile.cpp)
run(2 "^tilecc: error: the header 'k.tune' is the tuning table 'k.tune'" k.tile.cpp -o k.cu --header k.tune --tuning-table k.tune)
run(2 "^tilecc: error: the CUDA output and the header are both 'same.cu'$" k.tile.cpp -o same.cu --header same.cu)
run(2 "^tilecc: error: the CUDA output and the depfile are both 'd.cu'$" k.tile.cpp -o d.cu --depfile d.cu)
run(2 "^tilecc: error: the CUDA output of 'a/k.tile.cpp' and the CUDA output of 'b/k.tile.cpp' are both 'k.cu'" a/k.tile.cpp b/k.tile.cpp)
expect_content("${WORKDIR}/k.tile.cpp" "${kernel}")
foreach(f same.cu d.cu k.cu x.cu)
  if(EXISTS "${WORKDIR}/${f}")
    message(FATAL_ERROR "a rejected command line wrote ${f}")
  endif()
endforeach()

# Files without a kernel: an error at the file, no empty .cu.
run(1 "empty.tile.cpp:1:1: error: no kernel in this file" empty.tile.cpp -o e.cu)
run(1 "decl.tile.cpp:2:[0-9]+: warning: kernel 'k' is declared but not defined" decl.tile.cpp -o e.cu)
if(EXISTS "${WORKDIR}/e.cu" OR EXISTS "${WORKDIR}/e.h")
  message(FATAL_ERROR "a file without kernels produced output")
endif()

# All outputs or none: an unwritable header or depfile leaves the existing .cu as it was.
file(WRITE "${WORKDIR}/z.cu" "previous\n")
run(1 "^tilecc: error: cannot write '${WORKDIR}/missing-dir/z.h'" k.tile.cpp -o z.cu --header ${WORKDIR}/missing-dir/z.h)
run(1 "^tilecc: error: cannot write '${WORKDIR}/missing-dir/z.d'" k.tile.cpp -o z.cu --depfile ${WORKDIR}/missing-dir/z.d)
expect_content("${WORKDIR}/z.cu" "previous\n")
file(GLOB stray "${WORKDIR}/*.tmp-tilecc")
if(stray OR EXISTS "${WORKDIR}/z.h")
  message(FATAL_ERROR "a failed run left ${stray} z.h")
endif()

# tilecc-opt explains itself.
execute_process(COMMAND "${TILECC_OPT}" --help RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "usage: tilecc-opt")
  message(FATAL_ERROR "tilecc-opt --help: exit ${rc}\n${out}")
endif()
