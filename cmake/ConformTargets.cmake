# Helpers shared by every target of the project.

# conform_target_defaults(<target>): C++20, warnings as errors, sanitizer flags
# when the preset asks for them. The one place compile options are decided.
function(conform_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wpedantic
                                           -Wno-missing-field-initializers)
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
                                             -fno-sanitize-recover=undefined -fno-omit-frame-pointer
                                             -Wno-maybe-uninitialized)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
endfunction()

# conform_add_library(<name> SOURCES ... DEPS ...): a static library of one area.
function(conform_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
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
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  target_compile_definitions(${name} PRIVATE
    CONFORM_SPEC_DIR="${CONFORM_SPEC_DIR}"
    CONFORM_TEST_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data"
    CONFORM_OAI_EXAMPLES_DIR="${PROJECT_SOURCE_DIR}/tests/support/oai-examples")
  conform_target_defaults(${name})
  include(GoogleTest)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300)
endfunction()
