# CudaRewriteOpt.cmake -- build CUDA sources as tuned by cuda-rewrite-opt.
#
#   find_package(CudaRewriteOpt REQUIRED)   # or include() this file
#   add_executable(app main.cu kernels.cu)
#   cuda_rewrite_opt(TARGET app SOURCES kernels.cu
#                    [RUN "args"]...           # program arguments for tuning
#                    [DB path] [GPU "name"]
#                    [OPTIONS --budget 60 ... [-- compiler flags]])
#
# At build time each named source is replaced by its tuned version, replayed
# from the tuning database with `cuda-rewrite-opt --replay`: no GPU needed,
# deterministic, fast, and rerun only when the source, a file it includes,
# the database or the tool changed. The parse gets the target's include
# directories and compile definitions, and the compiler flags given after
# `--` in OPTIONS (the search gets the same). When the database has no result for the source (as
# it is now, with these arguments), the original is used and the build says
# so. The target `<target>-tune` runs the search on a GPU (the main command,
# one source after another) and records the results in the database; the
# next build picks them up.
#
# Makefiles, the same in two lines per source:
#   kernels.tuned.cu: kernels.cu ; cuda-rewrite-opt $< --replay -o $@ --depfile $@.d
#   -include kernels.tuned.cu.d
#
# Variables: CUDA_REWRITE_OPT_EXECUTABLE (the tool), CUDA_REWRITE_OPT_DB
# (default database for every target; empty = the tool's default,
# ~/.cache/cuda-rewrite-opt/tuning.db).

include_guard(GLOBAL)

if(NOT CUDA_REWRITE_OPT_EXECUTABLE)
  find_program(CUDA_REWRITE_OPT_EXECUTABLE cuda-rewrite-opt
               HINTS "${CMAKE_CURRENT_LIST_DIR}/../../../bin")
endif()
set(CUDA_REWRITE_OPT_DB "" CACHE STRING
    "Tuning database for cuda_rewrite_opt() (empty: the tool's default)")

function(cuda_rewrite_opt)
  cmake_parse_arguments(CRO "" "TARGET;DB;GPU" "SOURCES;RUN;OPTIONS" ${ARGN})
  if(NOT CRO_TARGET OR NOT CRO_SOURCES)
    message(FATAL_ERROR "cuda_rewrite_opt: TARGET and SOURCES are required")
  endif()
  if(NOT TARGET ${CRO_TARGET})
    message(FATAL_ERROR "cuda_rewrite_opt: no target '${CRO_TARGET}'")
  endif()
  if(NOT CUDA_REWRITE_OPT_EXECUTABLE)
    message(FATAL_ERROR "cuda_rewrite_opt: cuda-rewrite-opt not found; set "
                        "CUDA_REWRITE_OPT_EXECUTABLE")
  endif()
  if(NOT CRO_DB)
    set(CRO_DB "${CUDA_REWRITE_OPT_DB}")
  endif()

  # What identifies a result in the database: the same arguments for the
  # replay and for the search.
  set(common)
  if(CRO_DB)
    list(APPEND common --db "${CRO_DB}")
  endif()
  foreach(run IN LISTS CRO_RUN)
    list(APPEND common "--run=${run}")
  endforeach()
  # OPTIONS before `--` are the search's (--budget, --report, ...); after it
  # they are compiler flags, which both the replay and the search are given:
  # flags are part of what a result is for.
  set(tune_options)
  set(user_flags)
  set(in_flags FALSE)
  foreach(o IN LISTS CRO_OPTIONS)
    if(in_flags)
      list(APPEND user_flags "${o}")
    elseif(o STREQUAL "--")
      set(in_flags TRUE)
    else()
      list(APPEND tune_options "${o}")
    endif()
  endforeach()
  # The target's include directories and definitions, as its compile sees
  # them, so that the parse finds its headers and macros (expanded at
  # generation time; COMMAND_EXPAND_LISTS makes each one an argument, and
  # none when there are none).
  set(incs "$<TARGET_PROPERTY:${CRO_TARGET},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${CRO_TARGET},COMPILE_DEFINITIONS>")
  set(flags --
      "$<$<BOOL:${incs}>:-I$<JOIN:${incs},$<SEMICOLON>-I>>"
      "$<$<BOOL:${defs}>:-D$<JOIN:${defs},$<SEMICOLON>-D>>"
      ${user_flags})

  get_target_property(sources ${CRO_TARGET} SOURCES)
  set(tune_commands)
  foreach(src IN LISTS CRO_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(name "${src}" NAME_WE)
    get_filename_component(ext "${src}" EXT)
    set(out "${CMAKE_CURRENT_BINARY_DIR}/cuda-rewrite-opt/${CRO_TARGET}/${name}.tuned${ext}")
    set(replay ${common})
    if(CRO_GPU)
      list(APPEND replay --gpu "${CRO_GPU}")
    endif()
    # The replay reruns when what it read changes: the source and every
    # file it includes, the database (the tool's --depfile names them), the
    # tool itself and this configuration; a no-op build does nothing. It
    # touches the tuned copy only when its text changes, so nothing
    # recompiles needlessly; a stamp records that it ran. A result that
    # rewrites files the source includes (kernels in a .cuh) writes their
    # copies beside the tuned source, named after it (kernels.tuned.cuh),
    # and the tuned source includes those.
    string(MAKE_C_IDENTIFIER "${name}${ext}" id)
    # Ninja creates the directories of a command's outputs, Make does not.
    get_filename_component(out_dir "${out}" DIRECTORY)
    set(stamp "${out}.stamp")
    # Depfile paths as the tool writes them (absolute), whatever the calling
    # project's policy version.
    cmake_policy(PUSH)
    if(POLICY CMP0116)
      cmake_policy(SET CMP0116 NEW)
    endif()
    add_custom_command(
      OUTPUT "${stamp}"
      BYPRODUCTS "${out}"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${out_dir}"
      COMMAND "${CUDA_REWRITE_OPT_EXECUTABLE}" "${abs}" --replay ${replay}
              -o "${out}" --depfile "${out}.d" --depfile-target "${stamp}"
              ${flags}
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS "${abs}" "${CUDA_REWRITE_OPT_EXECUTABLE}"
      DEPFILE "${out}.d"
      COMMENT "cuda-rewrite-opt: replaying the tuned ${src}"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    cmake_policy(POP)
    add_custom_target(${CRO_TARGET}-replay-${id} DEPENDS "${stamp}")
    add_dependencies(${CRO_TARGET} ${CRO_TARGET}-replay-${id})
    # The tuned copy is compiled instead of the original.
    set(replaced FALSE)
    set(new_sources)
    foreach(s IN LISTS sources)
      get_filename_component(s_abs "${s}" ABSOLUTE)
      if(s_abs STREQUAL abs)
        list(APPEND new_sources "${out}")
        set(replaced TRUE)
      else()
        list(APPEND new_sources "${s}")
      endif()
    endforeach()
    if(NOT replaced)
      message(FATAL_ERROR "cuda_rewrite_opt: ${src} is not a source of ${CRO_TARGET}")
    endif()
    set(sources ${new_sources})
    # Relative includes of the original still resolve from the copy.
    get_filename_component(dir "${abs}" DIRECTORY)
    set_source_files_properties("${out}" PROPERTIES INCLUDE_DIRECTORIES "${dir}")
    list(APPEND tune_commands
         COMMAND "${CMAKE_COMMAND}" -E make_directory "${out_dir}"
         COMMAND "${CUDA_REWRITE_OPT_EXECUTABLE}" "${abs}" --require-gpu ${common} ${tune_options}
                 -o "${CMAKE_CURRENT_BINARY_DIR}/cuda-rewrite-opt/${CRO_TARGET}/${name}.search${ext}"
                 ${flags})
  endforeach()
  set_property(TARGET ${CRO_TARGET} PROPERTY SOURCES ${sources})
  add_custom_target(${CRO_TARGET}-tune ${tune_commands}
                    COMMENT "cuda-rewrite-opt: tuning ${CRO_SOURCES} on this machine's GPU"
                    COMMAND_EXPAND_LISTS
                    VERBATIM)
endfunction()
