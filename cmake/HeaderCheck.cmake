# Every public header of the floors (not those under detail/, which only
# their own floor includes) compiles on its own: one generated translation
# unit per header, which includes it twice (its guard must hold), built as
# the object library conform_header_check. The libraries compile in unity
# batches, where a header that forgets an include still compiles beside its
# neighbours; here nothing stands beside it. At -O0 without debug
# information, and through ccache, so only the headers a change reaches are
# compiled again (docs/performance.md, "Building").
# The floors are those of cmake/floors.txt (CONFORM_FLOORS, CMakeLists.txt).
set(conform_header_units)
foreach(floor ${CONFORM_FLOORS})
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}
       ${PROJECT_SOURCE_DIR}/${floor}/*.hpp)
  list(FILTER headers EXCLUDE REGEX "/detail/")
  list(SORT headers)
  foreach(header ${headers})
    string(REGEX REPLACE "[/.]" "_" unit ${header})
    set(unit ${CMAKE_BINARY_DIR}/header_check/${unit}.cpp)
    # Written only when its text changes, so a reconfigure rebuilds nothing.
    file(CONFIGURE OUTPUT ${unit} CONTENT "#include \"${header}\"\n#include \"${header}\"\n")
    list(APPEND conform_header_units ${unit})
  endforeach()
endforeach()

add_library(conform_header_check OBJECT ${conform_header_units})
# cli links every floor, so every header finds what it includes.
target_link_libraries(conform_header_check PRIVATE conform_cli)
conform_target_defaults(conform_header_check)
set_target_properties(conform_header_check PROPERTIES UNITY_BUILD OFF)
target_compile_options(conform_header_check PRIVATE -O0 -g0)
