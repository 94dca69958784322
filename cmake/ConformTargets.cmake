# Helpers shared by every target of the project.

# conform_target_defaults(<target>): C++20, warnings (as errors with
# CONFORM_WERROR), sanitizer flags when the preset asks for them. The one
# place compile options are decided.
function(conform_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  set(warnings -Wall -Wextra)
  if(CONFORM_WERROR)
    list(APPEND warnings -Werror)
  endif()
  target_compile_options(${target} PRIVATE ${warnings} -Wpedantic -Wno-missing-field-initializers)
  # GCC 12 at -O2/-O3 reports std::string copies inside libstdc++ as
  # overlapping memcpy (a false positive, GCC bug 105329); keep every other
  # warning an error.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(CONFORM_SANITIZE)
    # The sanitizers' instrumentation makes GCC 12 report libstdc++'s own
    # std::function inside std::regex as maybe-uninitialized at -O1 (a false
    # positive the GCC manual warns of); the dev build keeps the warning.
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
                                             -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
    endif()
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
endfunction()

# conform_test_code_options(<target>): test code is not optimised. The
# libraries (the code under test, where the tests spend their time) keep the
# preset's level; the dev build's test files compile in 15 % less time at
# -O0 than at -O1 and the tests take as long. docs/performance.md,
# "Building" and "The sanitizer build on clang".
function(conform_test_code_options target)
  target_compile_options(${target} PRIVATE -O0)
endfunction()

# conform_add_library(<name> SOURCES ... DEPS ...): a static library of one area.
function(conform_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  # Build time (docs/performance.md, "Building"): a library's sources compile
  # in batches, so shared headers are parsed and their templates generated
  # once per batch rather than once per file.
  set_target_properties(${name} PROPERTIES UNITY_BUILD ${CONFORM_UNITY_BUILD}
                                           UNITY_BUILD_BATCH_SIZE 8)
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  conform_target_defaults(${name})
endfunction()

# conform_add_test(<name> SOURCES ... DEPS ...): one GoogleTest executable,
# registered with CTest test by test. Tests find the shipped specs through
# CONFORM_SPEC_DIR, their own data through CONFORM_TEST_DATA_DIR, and the
# OpenAPI Initiative's public examples through CONFORM_OAI_EXAMPLES_DIR.
function(conform_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  # One executable per folder, its files compiled in batches: the templates
  # the tests share (GoogleTest's, RapidCheck's, the JSON and container
  # ones) are generated once per batch rather than once per file, and there
  # are a few links, not one per file. docs/performance.md, "Building".
  set_target_properties(${name} PROPERTIES UNITY_BUILD ${CONFORM_UNITY_BUILD}
                                           UNITY_BUILD_BATCH_SIZE 4)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} conform_test_headers GTest::gtest_main)
  conform_test_code_options(${name})
  if(CONFORM_PCH)
    target_precompile_headers(${name} REUSE_FROM conform_test_pch)
    # Through a precompiled header, GCC 12 reports libstdc++'s own memcpy in
    # `std::string(...) + "literal"` as out of bounds or overflowing: false
    # positives in a system header, hidden without the precompiled header.
    # Tests only; the libraries, which ship, keep both warnings.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
      target_compile_options(${name} PRIVATE -Wno-array-bounds -Wno-stringop-overflow)
    endif()
  endif()
  target_compile_definitions(${name} PRIVATE
    CONFORM_SPEC_DIR="${CONFORM_SPEC_DIR}"
    CONFORM_TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data"
    CONFORM_OAI_EXAMPLES_DIR="${PROJECT_SOURCE_DIR}/tests/support/oai-examples")
  conform_target_defaults(${name})
  include(GoogleTest)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
endfunction()

# conform_read_floors(): reads cmake/floors.txt, the one list of the floors
# (docs/architecture.md), into CONFORM_FLOORS (the folders, lowest floor
# first) and CONFORM_FLOOR_TARGETS_<folder> (the targets that folder
# defines). When the tidy preset runs clang-tidy (CMAKE_CXX_CLANG_TIDY), its
# diagnostics in headers are kept for the floors' headers alone.
macro(conform_read_floors)
  file(STRINGS ${PROJECT_SOURCE_DIR}/cmake/floors.txt conform_floor_lines REGEX "^[0-9]")
  set(CONFORM_FLOORS)
  foreach(line ${conform_floor_lines})
    string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
    list(GET fields 1 folder)
    list(SUBLIST fields 2 -1 CONFORM_FLOOR_TARGETS_${folder})
    list(APPEND CONFORM_FLOORS ${folder})
  endforeach()
  if(CMAKE_CXX_CLANG_TIDY)
    string(REGEX REPLACE "([][.+*?^$()|\\\\])" "\\\\\\1" source_dir_regex "${PROJECT_SOURCE_DIR}")
    list(JOIN CONFORM_FLOORS "|" floor_alternatives)
    # A normal variable shadows the cache entry: every target made after
    # this takes the filter with it.
    set(CMAKE_CXX_CLANG_TIDY ${CMAKE_CXX_CLANG_TIDY}
                             "--header-filter=^${source_dir_regex}/(${floor_alternatives})/")
  endif()
endmacro()

# conform_check_floor_targets(): every target cmake/floors.txt names exists,
# so the list cannot drift from the folders' CMakeLists.txt.
function(conform_check_floor_targets)
  foreach(folder ${CONFORM_FLOORS})
    foreach(target ${CONFORM_FLOOR_TARGETS_${folder}})
      if(NOT TARGET ${target})
        message(FATAL_ERROR "cmake/floors.txt: ${folder}/ defines no target ${target}")
      endif()
    endforeach()
  endforeach()
endfunction()
