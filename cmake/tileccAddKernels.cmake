# tilecc_add_kernels(): translate tile kernels with tilecc and build the CUDA into a library.
# Installed with tilecc (find_package(tilecc CONFIG)) and used by tilecc's own samples and tests.
#
#   tilecc_add_kernels(<target>
#     SOURCES a.tile.cpp b.tile.cpp    # each name.tile.cpp gives name.cu and name.h
#     ARCHS 80 90a                     # CUDA architectures (CUDA_ARCHITECTURES syntax, 80 and newer;
#                                      # default: CMAKE_CUDA_ARCHITECTURES when it lists only 80 and
#                                      # newer, else 80 90a)
#     [OUTPUT_DIR dir]                 # default: ${CMAKE_CURRENT_BINARY_DIR}/tilecc/<target>
#     [INCLUDE_DIRECTORIES dir...]     # for the translation (added to <target>, PRIVATE)
#     [DEFINES NAME=VALUE...]          # likewise
#     [OPTIONS opt...]                 # extra tilecc options (before --)
#     [GOLDEN_DIR dir]                 # checked-in generated files: a test per source + an update target
#     [LINE_DIRECTIVES]                # #line directives mapping nvcc errors and cuda-gdb to the sources
#     [GENERATE_ONLY]                  # translate only: <target> is a custom target (no CUDA needed)
#     [TUNING_TABLE file]              # kernel families dispatch by this table (tilecc --tuning-table)
#     [TUNER exe-target])              # <target>_retune runs `exe-target <table>` to rewrite the table
#
# <target> is a static library with the generated .cu files; linking it gives the launchers'
# headers (#include "name.h": the output directory in the build tree, <prefix>/include once
# installed) and the CUDA runtime's include directory. Its properties TILECC_GENERATED_SOURCES
# and TILECC_GENERATED_HEADERS list the generated files (absolute paths), for install(FILES)
# and tools. <target>_sources, an object library left out of `all`, compiles the kernel files as
# the plain C++ they are (against tile.hpp, the host twin): it puts them in
# compile_commands.json, so clangd completes and checks kernels while they are edited. Built for sm_90a, a .cu
# whose wgmma ptxas serialised fails to compile (tileccCheckPtxas.cmake). Include directories and
# definitions of <target> (also those added later with target_include_directories() and
# target_compile_definitions()) reach the translation.

cmake_policy(PUSH)
cmake_policy(VERSION 3.20)  # functions keep the policies they were defined under (DEPFILE paths)

set(_TILECC_CHECK_GOLDEN_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/tileccCheckGolden.cmake")
set(_TILECC_CHECK_PTXAS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/tileccCheckPtxas.cmake")

# name.tile.cpp → name (as tilecc names its outputs).
function(_tilecc_stem out_var source)
  get_filename_component(name "${source}" NAME)
  foreach(ext .tile.cpp .tile.cc .cpp .cc .cxx)
    string(LENGTH "${ext}" n)
    string(LENGTH "${name}" len)
    if(len GREATER n)
      math(EXPR start "${len} - ${n}")
      string(SUBSTRING "${name}" ${start} ${n} tail)
      if(tail STREQUAL ext)
        string(SUBSTRING "${name}" 0 ${start} name)
        break()
      endif()
    endif()
  endforeach()
  set(${out_var} "${name}" PARENT_SCOPE)
endfunction()

function(tilecc_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "LINE_DIRECTIVES;GENERATE_ONLY" "OUTPUT_DIR;GOLDEN_DIR;TUNING_TABLE;TUNER"
                        "SOURCES;ARCHS;INCLUDE_DIRECTORIES;DEFINES;OPTIONS")
  set(where "tilecc_add_kernels(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    list(JOIN arg_UNPARSED_ARGUMENTS " " unknown)
    message(AUTHOR_WARNING "${where}: unknown arguments ignored: ${unknown}")
  endif()
  foreach(kw IN LISTS arg_KEYWORDS_MISSING_VALUES)
    message(AUTHOR_WARNING "${where}: ${kw} given without a value")
  endforeach()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "${where}: SOURCES is required (kernel files, name.tile.cpp)")
  endif()
  if(NOT TARGET tilecc::tilecc)
    message(FATAL_ERROR "${where}: the tilecc::tilecc executable target is missing; use find_package(tilecc CONFIG)")
  endif()
  if(NOT arg_GENERATE_ONLY AND NOT CMAKE_CUDA_COMPILER_LOADED)
    message(FATAL_ERROR "${where}: needs the CUDA language: project(<name> LANGUAGES CXX CUDA) or "
                        "enable_language(CUDA) before this call (or GENERATE_ONLY to translate only)")
  endif()
  # Without ARCHS: CMAKE_CUDA_ARCHITECTURES where it lists sm_80 or newer only, else 80 and 90a
  # (CMake fills CMAKE_CUDA_ARCHITECTURES with the compiler's default, sm_75 for nvcc 13, which
  # tilecc does not target: the user never wrote that number).
  set(archs_from "ARCHS")
  if(NOT arg_ARCHS)
    set(usable FALSE)
    if(CMAKE_CUDA_ARCHITECTURES MATCHES "^[0-9]")
      set(usable TRUE)
      foreach(a IN LISTS CMAKE_CUDA_ARCHITECTURES)
        if(NOT a MATCHES "^([0-9]+)" OR CMAKE_MATCH_1 LESS 80)
          set(usable FALSE)
        endif()
      endforeach()
    endif()
    if(usable)
      set(arg_ARCHS ${CMAKE_CUDA_ARCHITECTURES})
      set(archs_from "CMAKE_CUDA_ARCHITECTURES (no ARCHS given)")
    else()
      set(arg_ARCHS 80 90a)
      message(STATUS "${where}: no ARCHS given (CMAKE_CUDA_ARCHITECTURES: ${CMAKE_CUDA_ARCHITECTURES}): sm_80 and sm_90a")
    endif()
  endif()

  # 80, 90a-real, sm_90a → tilecc's --arch sm_80,sm_90a; nvcc gets the CMake spelling.
  set(cuda_archs)
  set(tilecc_archs)
  foreach(a IN LISTS arg_ARCHS)
    string(REGEX REPLACE "^sm_" "" a "${a}")
    if(NOT a MATCHES "^(([0-9]+)a?)(-real|-virtual)?$")
      message(FATAL_ERROR "${where}: ${archs_from} entry '${a}' is not an architecture like 80, 90a or 90a-real")
    endif()
    if(CMAKE_MATCH_2 LESS 80)
      message(FATAL_ERROR "${where}: ${archs_from} entry '${a}': tilecc generates code for sm_80 and newer")
    endif()
    list(APPEND cuda_archs "${a}")
    list(APPEND tilecc_archs "sm_${CMAKE_MATCH_1}")
  endforeach()
  list(REMOVE_DUPLICATES tilecc_archs)
  set(tilecc_options ${arg_OPTIONS})
  set(table_depends)
  if(arg_TUNING_TABLE)
    get_filename_component(table "${arg_TUNING_TABLE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(EXISTS "${table}")
      list(APPEND tilecc_options --tuning-table "${table}")
      set(table_depends "${table}")
    else()
      message(STATUS "${where}: no tuning table ${arg_TUNING_TABLE} yet: families use their default configuration")
    endif()
    if(arg_TUNER)
      add_custom_target(${target}_retune
        COMMAND $<TARGET_FILE:${arg_TUNER}> "${table}"
        DEPENDS ${arg_TUNER}
        COMMENT "${arg_TUNER}: tuning the families of ${target} into ${arg_TUNING_TABLE}"
        USES_TERMINAL VERBATIM)
    endif()
  elseif(arg_TUNER)
    message(FATAL_ERROR "${where}: TUNER needs TUNING_TABLE, the file it writes")
  endif()
  if(tilecc_archs)
    string(REPLACE ";" "," archs_csv "${tilecc_archs}")
    list(PREPEND tilecc_options --arch ${archs_csv})
  endif()

  if(arg_OUTPUT_DIR)
    get_filename_component(out "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(out "${CMAKE_CURRENT_BINARY_DIR}/tilecc/${target}")
  endif()
  file(MAKE_DIRECTORY "${out}")

  if(arg_GENERATE_ONLY)
    add_custom_target(${target} ALL)
    # Custom targets take no target_include_directories(): the properties serve the same purpose.
    set_property(TARGET ${target} PROPERTY INCLUDE_DIRECTORIES ${arg_INCLUDE_DIRECTORIES})
    set_property(TARGET ${target} PROPERTY COMPILE_DEFINITIONS ${arg_DEFINES})
  else()
    add_library(${target} STATIC)
    # C++17 is what the generated code needs (and all CMake versions know nvcc supports).
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${cuda_archs}" POSITION_INDEPENDENT_CODE ON
                                               CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON CUDA_EXTENSIONS OFF)
    # The generated .cu files include tilecc's device helpers; the launchers' headers need only
    # the CUDA runtime's.
    target_include_directories(${target} PRIVATE $<TARGET_PROPERTY:tilecc::runtime,INTERFACE_INCLUDE_DIRECTORIES>)
    target_include_directories(${target} INTERFACE $<BUILD_INTERFACE:${out}> $<INSTALL_INTERFACE:include>)
    target_include_directories(${target} SYSTEM INTERFACE ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
    if(arg_INCLUDE_DIRECTORIES)
      target_include_directories(${target} PRIVATE ${arg_INCLUDE_DIRECTORIES})
    endif()
    if(arg_DEFINES)
      target_compile_definitions(${target} PRIVATE ${arg_DEFINES})
    endif()
    # Through tileccCheckPtxas.cmake: a warning for each kernel that spills registers, and (for
    # sm_90a) the compile fails where ptxas serialised wgmma (correct but slow code tilecc must
    # not generate); a launcher the project already uses (ccache) still runs.
    set_property(TARGET ${target} PROPERTY CUDA_COMPILER_LAUNCHER
                 "${CMAKE_COMMAND}" -P "${_TILECC_CHECK_PTXAS_SCRIPT}" -- ${CMAKE_CUDA_COMPILER_LAUNCHER})
  endif()

  # What the target says at generate time, including later additions and linked usage requirements.
  set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(parser_args -- "$<$<BOOL:${incs}>:-I$<JOIN:${incs},$<SEMICOLON>-I>>"
                     "$<$<BOOL:${defs}>:-D$<JOIN:${defs},$<SEMICOLON>-D>>")
  set(tilecc_exe "$<TARGET_FILE:tilecc::tilecc>")

  # nvcc resolves relative #line paths against the directory it runs in: the build root under
  # Ninja, the current binary directory under Makefiles.
  set(build_line_options)
  set(golden_line_options)
  if(arg_LINE_DIRECTIVES)
    if(CMAKE_GENERATOR MATCHES "Ninja")
      set(build_line_options --line-directives --line-directives-relative-to "${CMAKE_BINARY_DIR}")
    else()
      set(build_line_options --line-directives --line-directives-relative-to "${CMAKE_CURRENT_BINARY_DIR}")
    endif()
    set(golden_line_options --line-directives)  # relative to the golden file itself
  endif()

  set(stamps)
  set(cus)
  set(hs)
  set(kernel_files)
  set(update_commands)
  set(stems)
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(abs "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_source_file_property(generated "${abs}" GENERATED)
    if(NOT EXISTS "${abs}" AND NOT generated)
      message(FATAL_ERROR "${where}: source '${source}' does not exist (a misspelt keyword? keywords: SOURCES "
                          "ARCHS OUTPUT_DIR INCLUDE_DIRECTORIES DEFINES OPTIONS GOLDEN_DIR LINE_DIRECTIVES GENERATE_ONLY TUNING_TABLE TUNER)")
    endif()
    _tilecc_stem(stem "${abs}")
    if(stem IN_LIST stems)
      message(FATAL_ERROR "${where}: two sources would both generate ${stem}.cu; rename one or use another target")
    endif()
    list(APPEND stems ${stem})
    file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${abs}")
    set(cu "${out}/${stem}.cu")
    set(h "${out}/${stem}.h")
    set(stamp "${out}/${stem}.stamp")
    # tilecc rewrites outputs only when they change, so the stamp (not the .cu) records that the
    # translation ran: a header edit that changes nothing does not rebuild the CUDA.
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS "${cu}" "${h}"
      COMMAND ${tilecc_exe} "${abs}" -o "${cu}" --depfile "${out}/${stem}.d" --depfile-target "${stamp}"
              ${build_line_options} ${tilecc_options} ${parser_args}
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS "${abs}" tilecc::tilecc ${tilecc_exe} ${table_depends}
      DEPFILE "${out}/${stem}.d"
      COMMENT "tilecc ${shown}"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND stamps "${stamp}")
    list(APPEND cus "${cu}")
    list(APPEND hs "${h}")
    list(APPEND kernel_files "${abs}")

    if(arg_GOLDEN_DIR)
      get_filename_component(golden_dir "${arg_GOLDEN_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      if(NOT update_commands)
        set(update_commands COMMAND "${CMAKE_COMMAND}" -E make_directory "${golden_dir}")
      endif()
      set(golden "${golden_dir}/${stem}.cu")
      set(golden_args "${abs}" -o "${golden}" ${golden_line_options} ${tilecc_options} ${parser_args})
      # add_test() cannot expand lists: the script receives them as one argument.
      add_test(NAME ${target}.golden.${stem}
        COMMAND "${CMAKE_COMMAND}" "-DTILECC=${tilecc_exe}" "-DARGS=${golden_args}" "-DGOLDEN=${golden}"
                "-DUPDATE_TARGET=${target}_update_golden" -P "${_TILECC_CHECK_GOLDEN_SCRIPT}")
      set_tests_properties(${target}.golden.${stem} PROPERTIES LABELS golden)
      list(APPEND update_commands COMMAND ${tilecc_exe} ${golden_args})
    endif()
  endforeach()

  if(arg_GENERATE_ONLY)
    add_custom_target(${target}_translate DEPENDS ${stamps})
    add_dependencies(${target} ${target}_translate)
  else()
    set_source_files_properties(${cus} PROPERTIES GENERATED TRUE)
    target_sources(${target} PRIVATE ${cus} ${stamps})
  endif()

  set_property(TARGET ${target} PROPERTY TILECC_GENERATED_SOURCES ${cus})
  set_property(TARGET ${target} PROPERTY TILECC_GENERATED_HEADERS ${hs})

  # The kernel files as C++ (tile.hpp's host twin), with the translation's include directories
  # and definitions: in compile_commands.json for clangd, built only when asked for.
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("CXX" IN_LIST languages AND NOT TARGET ${target}_sources)
    add_library(${target}_sources OBJECT EXCLUDE_FROM_ALL ${kernel_files})
    target_link_libraries(${target}_sources PRIVATE tilecc::runtime)
    target_include_directories(${target}_sources PRIVATE $<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>)
    target_compile_definitions(${target}_sources PRIVATE $<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>)
  endif()

  if(update_commands)
    add_custom_target(${target}_update_golden ${update_commands}
      DEPENDS tilecc::tilecc
      COMMENT "tilecc: updating the generated files in ${arg_GOLDEN_DIR}"
      COMMAND_EXPAND_LISTS VERBATIM)
    if(NOT TARGET tilecc_update_golden)
      add_custom_target(tilecc_update_golden)
    endif()
    add_dependencies(tilecc_update_golden ${target}_update_golden)
  endif()
endfunction()

cmake_policy(POP)
