# Compiles one misuse file and checks that it fails at the marked line with the named rule.
# The file marks its line with `// expect-error: REGEX`; the compiler must report an error at
# FILE:LINE and its whole output must match REGEX.
# Inputs: -DCOMPILER=... -DSOURCE=... -DINCLUDE=...
file(STRINGS "${SOURCE}" lines)
set(line_no 0)
set(expect_line "")
foreach(line IN LISTS lines)
  math(EXPR line_no "${line_no} + 1")
  if(line MATCHES "// expect-error: (.*)$")
    set(expect_line ${line_no})
    set(expect_regex "${CMAKE_MATCH_1}")
  endif()
endforeach()
if(expect_line STREQUAL "")
  message(FATAL_ERROR "${SOURCE}: no `// expect-error:` marker")
endif()

execute_process(
  COMMAND "${COMPILER}" -std=c++20 -fsyntax-only -I "${INCLUDE}" "${SOURCE}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
get_filename_component(name "${SOURCE}" NAME)
if(rc EQUAL 0)
  message(FATAL_ERROR "${name}: compiled, but it must be rejected")
endif()
if(NOT out MATCHES "${name}:${expect_line}:[0-9]+: error")
  message(FATAL_ERROR "${name}: no error at line ${expect_line} (the user's call site). Output:\n${out}")
endif()
if(NOT out MATCHES "${expect_regex}")
  message(FATAL_ERROR "${name}: the diagnostics do not mention '${expect_regex}'. Output:\n${out}")
endif()
