# SPDX-License-Identifier: MIT
# install.cmake — what `cmake --install` puts in place and what `cpack -G
# DEB` packs: the program, libqcount (shared and static) with its public
# headers, the CMake package and the pkg-config file that find it, the man
# page, the bash completion, the licence and, with MPI, qcount-mpirun.  Included once, at the end of
# the top-level CMakeLists.txt, after the rooms have defined their targets.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# ---- libqcount: the targets qcount (.a) and qcount_shared (.so) ---------
# Both hold the same objects, which core/ and threads/ add to them; not
# threads/mpi/, which stays with the program, so that a library user never
# links nor loads libmpi.
set(QC_PUBLIC_HEADERS
  ${PROJECT_SOURCE_DIR}/core/include/qcount.h
  ${PROJECT_SOURCE_DIR}/core/include/qcount_solutions.h)
set_target_properties(qcount qcount_shared PROPERTIES OUTPUT_NAME qcount
  ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
  LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
# libqcount.so.0 exports the public API alone, each name listed in
# libqcount.map (the ABI check, tests/tools/abi_test.sh, holds the library
# to it); the engines' inner names stay local, so calls among them bind
# directly.
set_target_properties(qcount_shared PROPERTIES EXPORT_NAME qcount
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  PUBLIC_HEADER "${QC_PUBLIC_HEADERS}"
  LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/libqcount.map)
target_link_options(qcount_shared PRIVATE -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/libqcount.map)
if(QC_SANITIZE STREQUAL "")   # clang leaves a sanitizer's runtime to the program
  target_link_options(qcount_shared PRIVATE -Wl,--no-undefined)
endif()
set_target_properties(qcount PROPERTIES EXPORT_NAME qcount_static)

# ---- files ------------------------------------------------------------
# Two export sets: find_package(qcount) needs hwloc (and OpenMP) only
# for the static library, whose users link them.
install(TARGETS qcount_shared EXPORT qcountTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS qcount EXPORT qcountStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/tools/man/qcount.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
if(TARGET qcount_mpi)   # mpirun on which ^C and SIGTERM stop qcount cleanly
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/scripts/qcount-mpirun DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(FILES ${PROJECT_SOURCE_DIR}/tools/completion/qcount.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME qcount)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

# find_package(qcount): qcount::qcount (the .so), qcount::qcount_static.
set(QC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/qcount)
install(EXPORT qcountTargets NAMESPACE qcount:: DESTINATION ${QC_CMAKE_DIR})
install(EXPORT qcountStaticTargets NAMESPACE qcount:: DESTINATION ${QC_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/qcountConfig.cmake.in
  ${PROJECT_BINARY_DIR}/qcountConfig.cmake INSTALL_DESTINATION ${QC_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/qcountConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/qcountConfig.cmake ${PROJECT_BINARY_DIR}/qcountConfigVersion.cmake
  DESTINATION ${QC_CMAKE_DIR})

# pkg-config: paths relative to the .pc file, so that the prefix can move
# (an unpacked .deb, a staged DESTDIR).
file(RELATIVE_PATH QC_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" QC_PC_TO_PREFIX "${QC_PC_TO_PREFIX}")
# A static link takes hwloc's shared library (-lhwloc), not hwloc's own
# static dependencies (Requires.private: hwloc would add -ludev, which
# libhwloc-dev does not bring).
string(STRIP "-lhwloc ${OpenMP_C_FLAGS} ${CMAKE_THREAD_LIBS_INIT}" QC_PC_LIBS_PRIVATE)
configure_file(${CMAKE_CURRENT_LIST_DIR}/qcount.pc.in ${PROJECT_BINARY_DIR}/qcount.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/qcount.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- cpack -G DEB: one package holding exactly the files above ----------
# Build it from a portable configuration (the 'portable' preset, or any
# build without QC_NATIVE): its kernels are chosen at run time (core/isa.h).
set(CPACK_PACKAGE_NAME qcount)
set(CPACK_PACKAGE_VENDOR "the qcount authors")
set(CPACK_PACKAGE_CONTACT "the qcount authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "multithreaded N-Queens solution counter")
set(CPACK_PACKAGE_DESCRIPTION "qcount counts, lists, draws and verifies the solutions of the N-Queens\
 problem on boards up to 32 x 32, over every core (OpenMP, hwloc) and, under\
 mpirun, over the ranks of an MPI job.  libqcount offers the same counting\
 to C programs.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION math)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)          # Depends: from the ELF files
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)    # shlibs: for libqcount.so.0
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libhwloc-dev, pkg-config")
include(CPack)
