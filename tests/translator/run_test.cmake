# Runs tilecc on one test file and checks its output with FileCheck.
# The file says how: `// ARGS: ...` (tilecc arguments before the file, %S its directory; default --emit=ir),
# `// INPUT: path` (the file tilecc translates, %S the test's directory; default the test file itself),
# `// EXIT: N` (expected exit status, default 0). Lines `// CHECK...:` are matched against
# stdout, `// DIAG...:` against stderr. A failing run must leave no output file behind.
# Inputs: -DTILECC=... -DFILECHECK=... -DSOURCE=... -DWORKDIR=...
file(READ "${SOURCE}" text)
set(args "--emit=ir")
if(text MATCHES "// ARGS:([^\n]*)")
  get_filename_component(source_dir "${SOURCE}" DIRECTORY)
  string(REPLACE "%S" "${source_dir}" arg_text "${CMAKE_MATCH_1}")  # %S: the test file's directory
  separate_arguments(args UNIX_COMMAND "${arg_text}")
endif()
set(input_file "${SOURCE}")
if(text MATCHES "// INPUT: ([^\n]*)")
  get_filename_component(source_dir "${SOURCE}" DIRECTORY)
  string(REPLACE "%S" "${source_dir}" input_file "${CMAKE_MATCH_1}")
endif()
set(expect_exit 0)
if(text MATCHES "// EXIT: ([0-9]+)")
  set(expect_exit ${CMAKE_MATCH_1})
endif()
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
execute_process(COMMAND "${TILECC}" ${args} "${input_file}"
  WORKING_DIRECTORY "${WORKDIR}"
  RESULT_VARIABLE rc OUTPUT_FILE "${WORKDIR}/stdout.txt" ERROR_FILE "${WORKDIR}/stderr.txt")
file(READ "${WORKDIR}/stderr.txt" err)
if(NOT rc EQUAL expect_exit)
  file(READ "${WORKDIR}/stdout.txt" out)
  message(FATAL_ERROR "tilecc exited ${rc}, expected ${expect_exit}.\nstderr:\n${err}\nstdout:\n${out}")
endif()
if(NOT expect_exit EQUAL 0)
  file(GLOB produced "${WORKDIR}/*.cu" "${WORKDIR}/*.h" "${WORKDIR}/*.tmp-tilecc")
  if(produced)
    message(FATAL_ERROR "a failing run left output behind: ${produced}")
  endif()
endif()
foreach(kind CHECK DIAG)
  if(text MATCHES "// ${kind}(-NEXT|-NOT|-SAME|-DAG)?:")
    set(input "${WORKDIR}/stdout.txt")
    set(empty "")
    if(kind STREQUAL "DIAG")
      set(input "${WORKDIR}/stderr.txt")
      set(empty "--allow-empty")  # a test of DIAG-NOT lines only expects nothing on stderr
    endif()
    execute_process(COMMAND "${FILECHECK}" "${SOURCE}" --check-prefix=${kind} ${empty} --input-file "${input}"
      RESULT_VARIABLE fc ERROR_VARIABLE fcerr)
    if(NOT fc EQUAL 0)
      message(FATAL_ERROR "FileCheck (${kind}) failed:\n${fcerr}")
    endif()
  endif()
endforeach()
