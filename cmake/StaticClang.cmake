# Locates LLVM/Clang 22 and defines `cro_link_clang_static(target)`.
#
# Why not the imported CMake targets: Debian builds LLVM with
# LLVM_LINK_LLVM_DYLIB=ON, so linking `clangTooling` through find_package gives
# a binary that loads libLLVM.so plus libz3/libxml2/libffi/libedit, none of
# which exist on the GPU machine. We take include directories and definitions
# from find_package, and link the static archives explicitly, in one group.

set(CRO_LLVM_ROOT "/usr/lib/llvm-22" CACHE PATH "LLVM 22 installation prefix")
find_package(LLVM REQUIRED CONFIG HINTS "${CRO_LLVM_ROOT}/lib/cmake/llvm"
             NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(FATAL_ERROR "LLVM 22 is required, found ${LLVM_PACKAGE_VERSION} "
                      "(run scripts/install-deps.sh)")
endif()
find_package(Clang REQUIRED CONFIG HINTS "${CRO_LLVM_ROOT}/lib/cmake/clang"
             NO_DEFAULT_PATH)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_INSTALL_PREFIX}")

find_program(CRO_LLVM_CONFIG NAMES llvm-config-22 llvm-config
  HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
if(NOT CRO_LLVM_CONFIG)
  find_program(CRO_LLVM_CONFIG NAMES llvm-config-22 REQUIRED)
endif()

set(CRO_LLVM_COMPONENTS frontendopenmp frontendhlsl option support targetparser
    mc bitreader profiledata core windowsdriver plugins)
execute_process(
  COMMAND "${CRO_LLVM_CONFIG}" --link-static --libs ${CRO_LLVM_COMPONENTS}
  OUTPUT_VARIABLE CRO_LLVM_STATIC_LIBS OUTPUT_STRIP_TRAILING_WHITESPACE
  COMMAND_ERROR_IS_FATAL ANY)
separate_arguments(CRO_LLVM_STATIC_LIBS UNIX_COMMAND "${CRO_LLVM_STATIC_LIBS}")
# -lLLVMFoo -> the archive's full path, so no -L or shared library can win.
list(TRANSFORM CRO_LLVM_STATIC_LIBS REPLACE "^-l(.*)$" "${LLVM_LIBRARY_DIR}/lib\\1.a")

set(CRO_CLANG_STATIC_LIBS)
foreach(lib clangTooling clangFrontend clangDriver clangSerialization clangParse
            clangSema clangAPINotes clangEdit clangAnalysis
            clangAnalysisLifetimeSafety clangASTMatchers clangAST clangRewrite
            clangToolingCore clangLex clangBasic clangSupport clangOptions)
  set(path "${LLVM_LIBRARY_DIR}/lib${lib}.a")
  if(NOT EXISTS "${path}")
    message(FATAL_ERROR "missing static library ${path}: run scripts/install-deps.sh")
  endif()
  list(APPEND CRO_CLANG_STATIC_LIBS "${path}")
endforeach()

find_library(CRO_ZSTD_STATIC NAMES libzstd.a REQUIRED)
find_library(CRO_Z_STATIC NAMES libz.a REQUIRED)

set(CRO_LLVM_INCLUDE_DIRS ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
separate_arguments(CRO_LLVM_DEFINITIONS UNIX_COMMAND "${LLVM_DEFINITIONS}")

# Compile options every target that includes LLVM/Clang headers needs.
function(cro_use_llvm_headers target)
  target_include_directories(${target} SYSTEM PUBLIC ${CRO_LLVM_INCLUDE_DIRS})
  target_compile_options(${target} PUBLIC ${CRO_LLVM_DEFINITIONS})
endfunction()

# Links an executable against the static Clang/LLVM archives.
function(cro_link_clang_static target)
  # --gc-sections drops the parts of LLVM a syntax-only frontend never calls.
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc
                      -fuse-ld=gold -Wl,--gc-sections)
  if(CMAKE_BUILD_TYPE STREQUAL "Release")
    target_link_options(${target} PRIVATE -s)
  endif()
  target_link_libraries(${target} PRIVATE
    -Wl,--start-group ${CRO_CLANG_STATIC_LIBS} ${CRO_LLVM_STATIC_LIBS}
    -Wl,--end-group
    ${CRO_ZSTD_STATIC} ${CRO_Z_STATIC} -lpthread -lrt -ldl -lm)
endfunction()

# Links a small host tool against LLVMSupport only (static).
function(cro_link_llvm_support_static target)
  target_link_options(${target} PRIVATE -fuse-ld=gold)
  target_link_libraries(${target} PRIVATE
    "${LLVM_LIBRARY_DIR}/libLLVMSupport.a" "${LLVM_LIBRARY_DIR}/libLLVMDemangle.a"
    ${CRO_ZSTD_STATIC} ${CRO_Z_STATIC} -lpthread -lrt -ldl -lm)
endfunction()
