# Debian packages, built with CPack from an install to /usr:
#   cmake -S . -B build-package -DCMAKE_BUILD_TYPE=Release \
#         -DCMAKE_INSTALL_PREFIX=/usr -DEVTOOL_TESTS=OFF
#   cmake --build build-package && (cd build-package && cpack -G DEB)
# gives three packages, as Debian splits a library and its tool:
#   evtool         the program, its man page and its bash, zsh and fish
#                  completions (component `tool`);
#   libevtool0     the shared library, libevtool.so.0 (component `lib`);
#   libevtool-dev  the headers, libevtool.a, the libevtool.so link,
#                  evtool.pc and the CMake package (component `dev`).
# The shared libraries each links (zlib, libxxhash, libdeflate, ISA-L) are
# declared as dependencies by dpkg-shlibdeps (packages dpkg-dev and file,
# which CPack uses to find the binaries).
# tests/package/check.sh builds, installs, checks and removes them.
set(CPACK_PACKAGE_NAME evtool)
set(CPACK_PACKAGE_VENDOR "evtool")
set(CPACK_PACKAGE_CONTACT "evtool maintainers <evtool@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tool lib dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The library's shared object, so that dpkg-shlibdeps can name the
# package of libevtool.so.0 for the packages that link it.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

set(CPACK_DEBIAN_TOOL_PACKAGE_NAME evtool)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION utils)
string(CONCAT CPACK_DEBIAN_TOOL_DESCRIPTION
  "toolkit for GHC eventlogs (+RTS -l)\n"
  "Reads, checks, repairs, filters, sorts, merges, summarises (+RTS -s),\n"
  "reports (HTML) and exports (perfetto, speedscope, hp2ps) the binary\n"
  "event logs that the GHC runtime writes, of every GHC version, in\n"
  "bounded memory.")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME libevtool${PROJECT_VERSION_MAJOR})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
string(CONCAT CPACK_DEBIAN_LIB_DESCRIPTION
  "library for GHC eventlogs (+RTS -l)\n"
  "The C library under evtool: a streaming reader and writer of GHC's\n"
  "binary event logs, and their filter, sort, merge, statistics, report\n"
  "and export.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libevtool-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DEPENDS lib)
# What evtool.pc's Requires.private and the CMake package look up.
set(evtool_dev_depends "zlib1g-dev, libxxhash-dev, libdeflate-dev, pkg-config")
if(EVTOOL_ISAL)
  string(APPEND evtool_dev_depends ", libisal-dev")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${evtool_dev_depends}")
string(CONCAT CPACK_DEBIAN_DEV_DESCRIPTION
  "library for GHC eventlogs (+RTS -l): development files\n"
  "Headers, static library, pkg-config file (evtool.pc) and CMake package\n"
  "(find_package(evtool)) of libevtool.")

include(CPack)
