# tilecc_generate(NAME <name> SOURCE <file.tile.cpp> OUTPUT_DIR <dir>)
# Translates SOURCE into <dir>/<name>.cu and .h (target <name>_cuda_source) and, where the CUDA
# toolkit is, builds <dir>/<name>.o for TILECC_CUDA_ARCHS with warnings as errors (target
# <name>_cuda_object, part of ALL). Used by the project's samples and tests.
function(tilecc_generate)
  cmake_parse_arguments(G "" "NAME;SOURCE;OUTPUT_DIR" "" ${ARGN})
  set(cu ${G_OUTPUT_DIR}/${G_NAME}.cu)
  set(h ${G_OUTPUT_DIR}/${G_NAME}.h)
  file(MAKE_DIRECTORY ${G_OUTPUT_DIR})
  file(GLOB runtime_headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/runtime/include/tilecc/*.hpp)
  add_custom_command(
    OUTPUT ${cu} ${h}
    COMMAND tilecc ${G_SOURCE} -o ${cu}
    DEPENDS tilecc ${G_SOURCE} ${runtime_headers}
    COMMENT "tilecc ${G_NAME}.tile.cpp"
    VERBATIM)
  add_custom_target(${G_NAME}_cuda_source DEPENDS ${cu} ${h})
  if(NOT CUDAToolkit_FOUND)
    return()
  endif()
  set(gencode)
  foreach(arch IN LISTS TILECC_CUDA_ARCHS)
    list(APPEND gencode -gencode arch=compute_${arch},code=sm_${arch})
  endforeach()
  add_custom_command(
    OUTPUT ${G_OUTPUT_DIR}/${G_NAME}.o
    COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -std=c++17 -O3 ${gencode} -Werror all-warnings
            -I${PROJECT_SOURCE_DIR}/runtime/include -c ${cu} -o ${G_OUTPUT_DIR}/${G_NAME}.o
    DEPENDS ${cu} ${h} ${PROJECT_SOURCE_DIR}/runtime/include/tilecc/cuda/tilecc.cuh
    COMMENT "nvcc ${G_NAME}.cu (sm_${TILECC_CUDA_ARCHS})"
    VERBATIM)
  add_custom_target(${G_NAME}_cuda_object ALL DEPENDS ${G_OUTPUT_DIR}/${G_NAME}.o)
  set_source_files_properties(${G_OUTPUT_DIR}/${G_NAME}.o PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
endfunction()
