# -p <dir>: flags from compile_commands.json. A kernel file missing from it takes the flags of
# its nearest entry; the language standard stays C++20 whatever the entry says; a database with
# nothing usable is an error naming the file.
#   cmake -DTILECC=<tilecc> -DINPUTS=<tests/driver/inputs> -DWORKDIR=<dir> -P check_compile_database.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORKDIR}")
file(COPY "${INPUTS}/lines.tile.cpp" DESTINATION "${WORKDIR}/src")
file(COPY "${INPUTS}/include/lines_helper.hpp" DESTINATION "${WORKDIR}/inc")
file(WRITE "${WORKDIR}/src/host_test.cpp" "int main() {}\n")

function(database entries)
  file(WRITE "${WORKDIR}/db/compile_commands.json" "[${entries}]\n")
endfunction()
function(translate expect_rc out_var)
  execute_process(COMMAND "${TILECC}" -p "${WORKDIR}/db" ${ARGN} -o "${WORKDIR}/lines.cu"
                  WORKING_DIRECTORY "${WORKDIR}/src" RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "-p ${ARGN}: exit ${rc}, expected ${expect_rc}:\n${err}")
  endif()
  set(${out_var} "${err}" PARENT_SCOPE)
endfunction()

# The kernel's own entry (with an older -std, which must not win), given by relative path.
database("{\"directory\": \"${WORKDIR}/src\", \"file\": \"lines.tile.cpp\",
  \"command\": \"c++ -std=c++17 -I${WORKDIR}/inc -c lines.tile.cpp -o lines.o\"}")
translate(0 err lines.tile.cpp)
# Only its host test is in the database: the kernel file borrows its flags.
database("{\"directory\": \"${WORKDIR}/src\", \"file\": \"host_test.cpp\",
  \"command\": \"c++ -I${WORKDIR}/inc -c host_test.cpp -o host_test.o\"}")
translate(0 err "${WORKDIR}/src/lines.tile.cpp")
# Flags that lack the include directory: the C++ error, located.
database("{\"directory\": \"${WORKDIR}/src\", \"file\": \"host_test.cpp\", \"command\": \"c++ -c host_test.cpp\"}")
translate(1 err lines.tile.cpp)
if(NOT err MATCHES "lines.tile.cpp:5:10: (fatal )?error: 'lines_helper.hpp' file not found")
  message(FATAL_ERROR "missing include: ${err}")
endif()
# An empty database.
database("")
translate(1 err lines.tile.cpp)
if(NOT err MATCHES "tilecc: error: lines.tile.cpp: no compile command")
  message(FATAL_ERROR "empty database: ${err}")
endif()
