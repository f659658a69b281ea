# The golden test of tilecc_add_kernels(GOLDEN_DIR): fails with tilecc's diff when the
# checked-in generated files differ from what tilecc prints now.
#   cmake -DTILECC=<tilecc> -DARGS=<tilecc arguments> -DGOLDEN=<file.cu> -DUPDATE_TARGET=<target> -P tileccCheckGolden.cmake
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND "${TILECC}" --check ${ARGS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tilecc: ${GOLDEN} (or its header) is stale or tilecc failed (exit ${rc}).\n"
                      "To accept the new output: cmake --build <build dir> --target ${UPDATE_TARGET}")
endif()
