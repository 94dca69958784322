# Installing and packaging (issue 34): what `cmake --install` puts where,
# and the Debian package CPack makes of it (`bash scripts/package.sh`:
# the `program` preset, then `cpack`). The layout is relative, so an
# installed tree can be moved: bin/conform finds its description in
# ../share/conform/specs (cli/default_spec.hpp).
#
#   bin/conform                               the program
#   lib/conform/conform-partner-client        the example C++ partner client, for
#                                             `conform certify` (docs/certification.md)
#   share/conform/specs/                      the description, the permission matrix,
#                                             the shipped workflows
#   share/doc/conform/                        README.md, docs/, examples' sources,
#                                             copyright, changelog.gz
#   share/man/man1/conform.1.gz               generated from each command's --help
#   share/bash-completion/completions/conform generated from the same
include(GNUInstallDirs)

set(CONFORM_PACKAGE_MAINTAINER
    "Seed 9fc5cb0d maintainers <maintainers@users.noreply.a-seed-9fc5cb0d.example>"
    CACHE STRING "The Maintainer field of the Debian package (name <address>)")

install(TARGETS conform RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS conform-partner-client RUNTIME DESTINATION ${CMAKE_INSTALL_LIBDIR}/conform)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/specs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/conform/specs)

set(conform_doc_dir ${CMAKE_INSTALL_DATADIR}/doc/conform)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/packaging/copyright
        DESTINATION ${conform_doc_dir})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${conform_doc_dir}/docs)
# The example clients' sources, as documentation (never executable there).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION ${conform_doc_dir}/examples
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
        PATTERN CMakeLists.txt EXCLUDE)

# Generated at build time from the program itself, so they never drift from
# its options. Not in a sanitizer build (the program would run instrumented
# inside the build).
if(NOT CONFORM_SANITIZE)
  set(generated ${CMAKE_BINARY_DIR}/generated)
  # A Debian changelog of one entry (a native package needs one); its date
  # follows SOURCE_DATE_EPOCH when set (scripts/package.sh sets it from the
  # last commit), so the package is the same for the same sources.
  string(TIMESTAMP changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
  file(WRITE ${generated}/changelog
       "conform (${PROJECT_VERSION}) unstable; urgency=medium\n\n"
       "  * Built from the Conform repository (scripts/package.sh).\n\n"
       " -- ${CONFORM_PACKAGE_MAINTAINER}  ${changelog_date}\n")
  add_custom_command(
    OUTPUT ${generated}/conform.1.gz
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/man-page.sh $<TARGET_FILE:conform>
            ${generated}/conform.1.gz
    DEPENDS conform ${PROJECT_SOURCE_DIR}/scripts/man-page.sh
    COMMENT "Generating the man page from conform --help")
  add_custom_command(
    OUTPUT ${generated}/conform.bash-completion
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/completion.sh $<TARGET_FILE:conform>
            ${generated}/conform.bash-completion
    DEPENDS conform ${PROJECT_SOURCE_DIR}/scripts/completion.sh
    COMMENT "Generating the bash completion from conform --help")
  add_custom_command(
    OUTPUT ${generated}/changelog.gz
    COMMAND gzip -9n -c ${generated}/changelog > ${generated}/changelog.gz
    DEPENDS ${generated}/changelog)
  add_custom_target(conform-package-files ALL
    DEPENDS ${generated}/conform.1.gz ${generated}/conform.bash-completion
            ${generated}/changelog.gz)
  install(FILES ${generated}/conform.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${generated}/conform.bash-completion
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME conform)
  install(FILES ${generated}/changelog.gz DESTINATION ${conform_doc_dir})
endif()

# The Debian package: conform_<version>_amd64.deb.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME conform)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_CONTACT "${CONFORM_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CONFORM_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "contract testing and conformance checks for HTTP APIs")
# The extended description: lines under 80 characters (Debian's policy).
string(CONCAT CPACK_PACKAGE_DESCRIPTION
       "Conform reads an OpenAPI description of an HTTP API and a permission\n"
       "matrix, generates property-based requests for every operation and auth\n"
       "model, sends them to a target and checks what comes back: statuses,\n"
       "error codes, schemas, scopes and tenants. Every failure comes with the\n"
       "seed that reproduces it.\n"
       "\n"
       "It ships a reference server of the Voice AI Calling Service API, which\n"
       "`conform run` tests when given no target, and `conform certify`, which\n"
       "judges a partner's client.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The shared libraries the binaries link, as dpkg-shlibdeps names them, and
# the CAs for https:// targets (absent on a minimal system).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ca-certificates")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
