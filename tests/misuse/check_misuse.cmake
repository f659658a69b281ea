# Compiles one misuse file and checks that the compiler's FIRST error names the broken rule.
# The file marks its line with `// expect-error: REGEX`. The check:
#   1. the file does not compile;
#   2. the first error line of the output (the first line with ": error:") matches REGEX;
#   3. the first diagnostic (everything before the second error line) names the marked line
#      FILE:LINE: as the error's location, or as the instantiation point (GCC's
#      "required from here" comes before its error, Clang's "requested here" note after);
#   4. the first error line is among the first MAX_LINE lines of output (default 6). Clang
#      prints the error first (after two "In file included from" lines: the user's file, then
#      tile.hpp including the sub-header), then its notes. GCC prints its context before the
#      error: the include chain (two lines), "In instantiation of" the rule check, "required
#      from" the operation and "required from here" at the user's line, so the error is on
#      line 6 at most. A longer preamble means a rule is checked one call deeper than needed,
#      which pushes the rule down for every user; the bound makes that a test failure.
# It prints `misuse-report: <file> first-error-line=N user-line-at=U lines=T` for the record.
# Inputs: -DCOMPILER=... -DSOURCE=... -DINCLUDE=... [-DMAX_LINE=6]
if(NOT DEFINED MAX_LINE)
  set(MAX_LINE 6)
endif()
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
  COMMAND "${COMPILER}" -std=c++20 -fsyntax-only -fno-diagnostics-color -I "${INCLUDE}" "${SOURCE}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
get_filename_component(name "${SOURCE}" NAME)
if(rc EQUAL 0)
  message(FATAL_ERROR "${name}: compiled, but it must be rejected")
endif()

# Split into lines (CMake lists: protect ';' first).
string(REPLACE ";" "<semicolon>" text "${out}")
string(REPLACE "\n" ";" out_lines "${text}")
set(n 0)
set(first_error 0)
set(second_error 0)
set(user_at 0)
set(first_error_text "")
foreach(l IN LISTS out_lines)
  math(EXPR n "${n} + 1")
  if(l MATCHES ": (fatal )?error:")
    if(first_error EQUAL 0)
      set(first_error ${n})
      set(first_error_text "${l}")
    elseif(second_error EQUAL 0)
      set(second_error ${n})
    endif()
  endif()
  if(user_at EQUAL 0 AND second_error EQUAL 0 AND l MATCHES "${name}:${expect_line}:[0-9]+:")
    set(user_at ${n})
  endif()
endforeach()
message(STATUS "misuse-report: ${name} first-error-line=${first_error} user-line-at=${user_at} lines=${n}")
if(first_error EQUAL 0)
  message(FATAL_ERROR "${name}: no error line in the output:\n${out}")
endif()
string(REPLACE "<semicolon>" ";" first_error_text "${first_error_text}")
if(NOT first_error_text MATCHES "${expect_regex}")
  message(FATAL_ERROR "${name}: the first error does not name '${expect_regex}':\n  ${first_error_text}\nOutput:\n${out}")
endif()
if(user_at EQUAL 0)
  message(FATAL_ERROR "${name}: the first diagnostic does not point at line ${expect_line} (the user's call site). Output:\n${out}")
endif()
if(first_error GREATER MAX_LINE)
  message(FATAL_ERROR "${name}: the first error is on output line ${first_error}, after the first ${MAX_LINE}. Output:\n${out}")
endif()
