# Kernel templates defined in an included header: every explicit instantiation in the translated
# file is a kernel (with its launcher); one in the header is not; a file that only includes
# the header has no kernel and is an error, not an empty output.
# Inputs: -DTILECC=... -DINPUTS=<tests/driver/inputs> -DWORKDIR=...
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
file(WRITE "${WORKDIR}/two.tile.cpp"
     "#include \"scale_template.hpp\"\n"
     "template void scale_in_header<128>(const float*, float*, int);\n"
     "template void scale_in_header<256>(const float*, float*, int);\n")
file(WRITE "${WORKDIR}/none.tile.cpp" "#include \"scale_template.hpp\"\n")

execute_process(COMMAND "${TILECC}" two.tile.cpp -o two.cu -- -I "${INPUTS}/include"
                WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR err)
  message(FATAL_ERROR "two.tile.cpp: exit ${rc}\n${err}")
endif()
file(READ "${WORKDIR}/two.h" header)
file(READ "${WORKDIR}/two.cu" cuda)
foreach(b 128 256)
  if(NOT header MATCHES "launch_scale_in_header_${b}\\(" OR NOT cuda MATCHES "__global__[^\n]*scale_in_header_${b}\\(")
    message(FATAL_ERROR "the instantiation <${b}> in two.tile.cpp is not a kernel:\n${header}")
  endif()
endforeach()
if(header MATCHES "scale_in_header_64" OR cuda MATCHES "scale_in_header_64")
  message(FATAL_ERROR "the header's own instantiation <64> became a kernel of two.tile.cpp")
endif()

execute_process(COMMAND "${TILECC}" none.tile.cpp -o none.cu -- -I "${INPUTS}/include"
                WORKING_DIRECTORY "${WORKDIR}" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "none.tile.cpp:1:1: error: no kernel in this file" OR EXISTS "${WORKDIR}/none.cu")
  message(FATAL_ERROR "none.tile.cpp: exit ${rc}, expected 1 and 'no kernel in this file', no output\n${err}")
endif()
