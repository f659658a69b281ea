# Finds what tilecc builds against. Each failure names the Debian package that provides it.

# Clang/LLVM 19 (libTooling). "19.1" and CONFIG matter: plain "19" fails and an unversioned
# search picks up whichever Clang is first (clang 14 on Debian bookworm).
find_package(Clang 19.1 CONFIG QUIET HINTS /usr/lib/llvm-19/lib/cmake/clang)
if(NOT Clang_FOUND)
  message(FATAL_ERROR
    "tilecc: Clang 19 development files not found.\n"
    "  Install: apt-get install libclang-19-dev libclang-cpp19-dev llvm-19-dev clang-19\n"
    "  or point Clang_DIR at the directory holding ClangConfig.cmake.")
endif()
message(STATUS "tilecc: Clang ${LLVM_PACKAGE_VERSION} from ${Clang_DIR}")

find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  message(FATAL_ERROR "tilecc: CLI11 not found. Install: apt-get install libcli11-dev")
endif()

if(TILECC_BUILD_TESTS)
  find_package(doctest CONFIG QUIET)
  if(NOT doctest_FOUND)
    message(FATAL_ERROR "tilecc: doctest not found (needed for tests). Install: apt-get install doctest-dev"
                        " or configure with -DTILECC_BUILD_TESTS=OFF")
  endif()
  include(doctest)  # doctest_discover_tests
endif()

# The CUDA toolkit builds and runs the generated code. Not a Debian package: NVIDIA's
# toolkit, looked for on PATH and in /usr/local/cuda. Without it the translator still builds.
if(NOT DEFINED CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
  set(CUDAToolkit_ROOT /usr/local/cuda)
endif()
find_package(CUDAToolkit QUIET)
# The CUDA language builds the generated code (tilecc_add_kernels); nvcc found as above.
if(CUDAToolkit_FOUND AND NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  set(ENV{CUDACXX} "${CUDAToolkit_NVCC_EXECUTABLE}")
endif()
include(CheckLanguage)
check_language(CUDA)
if(CUDAToolkit_FOUND AND CMAKE_CUDA_COMPILER)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES ${TILECC_CUDA_ARCHS})
  endif()
  enable_language(CUDA)
  set(TILECC_HAVE_CUDA ON)
  message(STATUS "tilecc: CUDA toolkit ${CUDAToolkit_VERSION} (nvcc: ${CUDAToolkit_NVCC_EXECUTABLE})")
else()
  set(TILECC_HAVE_CUDA OFF)
  message(STATUS "tilecc: CUDA toolkit not found (set CUDAToolkit_ROOT; NVIDIA's installer puts it in "
                 "/usr/local/cuda). Tests that build generated CUDA are skipped.")
endif()
