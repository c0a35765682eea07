# SPDX-License-Identifier: MIT
# install.cmake — what `cmake --install` puts in place and what `cpack -G
# DEB` packs: the program, libqcount (shared and static) with its public
# headers, the CMake package and the pkg-config file that find it, the man
# page, the bash completion, the Slurm scripts, the licence and, with MPI,
# qcount-mpirun.  Included once, at the end of
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

# ---- files, by component: one Debian package each (below) ---------------
#   program  qcount: the program, its man page and bash completion,
#            qcount-parts.slurm
#   lib      libqcount0: libqcount.so.0
#   dev      libqcount-dev: headers, libqcount.a, the .so link, pkg-config
#            and CMake files
#   mpi      qcount-mpi: the program's MPI module, qcount-mpirun and
#            qcount.slurm
# The program links libqcount.a, not the .so: its MPI module takes the
# library's inner names from it (tools/CMakeLists.txt), which the .so keeps
# local.  Every package carries its own copyright and changelog.
# Two export sets: find_package(qcount) needs hwloc (and OpenMP) only
# for the static library, whose users link them.
install(TARGETS qcount_shared EXPORT qcountTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
install(TARGETS qcount EXPORT qcountStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(TARGETS qcount_bin RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT program)
install(FILES ${PROJECT_SOURCE_DIR}/tools/completion/qcount.bash
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME qcount COMPONENT program)
# the Slurm job scripts, for sbatch (share/qcount/), executable as the
# scripts they are: the parts as a job array with the program, the MPI job
# with the MPI support
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/scripts/qcount-parts.slurm
  DESTINATION ${CMAKE_INSTALL_DATADIR}/qcount COMPONENT program)
if(TARGET qcount_mpi)
  install(TARGETS qcount_mpi LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/qcount COMPONENT mpi)
  # mpirun on which ^C and SIGTERM stop qcount cleanly
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/scripts/qcount-mpirun
    DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mpi)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/scripts/qcount.slurm
    DESTINATION ${CMAKE_INSTALL_DATADIR}/qcount COMPONENT mpi)
endif()

# The man page gzipped (gzip -9n: no name nor time stamp, so the same page
# gives the same bytes), as are the changelogs.
set(QC_MAINTAINER "qcount maintainers <${QC_BUG_ADDRESS}>" CACHE STRING
    "Maintainer of the Debian packages: name <address>")
set(QC_PACKAGE_RELEASE 1 CACHE STRING "Debian revision of the packages")
set(QC_DEB_VERSION ${PROJECT_VERSION}-${QC_PACKAGE_RELEASE})
configure_file(${CMAKE_CURRENT_LIST_DIR}/changelog.in ${PROJECT_BINARY_DIR}/packaging/changelog.Debian @ONLY)
set(qc_gz)
foreach(pair "tools/man/qcount.1|qcount.1.gz" "tools/man/qcount-mpirun.1|qcount-mpirun.1.gz"
    "@changelog.Debian|changelog.Debian.gz")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  string(REGEX REPLACE "^@" "${PROJECT_BINARY_DIR}/packaging/" from "${from}")
  if(NOT IS_ABSOLUTE "${from}")
    set(from ${PROJECT_SOURCE_DIR}/${from})
  endif()
  add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/packaging/${to}
    COMMAND gzip -9nc ${from} > ${PROJECT_BINARY_DIR}/packaging/${to}
    DEPENDS ${from} VERBATIM)
  list(APPEND qc_gz ${PROJECT_BINARY_DIR}/packaging/${to})
endforeach()
add_custom_target(qcount_packaging_files ALL DEPENDS ${qc_gz})
install(FILES ${PROJECT_BINARY_DIR}/packaging/qcount.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
  COMPONENT program)
if(TARGET qcount_mpi)
  install(FILES ${PROJECT_BINARY_DIR}/packaging/qcount-mpirun.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
    COMPONENT mpi)
endif()
set(QC_PACKAGES program:qcount lib:libqcount${PROJECT_VERSION_MAJOR} dev:libqcount-dev)
if(TARGET qcount_mpi)
  list(APPEND QC_PACKAGES mpi:qcount-mpi)
endif()
foreach(pair ${QC_PACKAGES})
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 component)
  list(GET pair 1 package)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/copyright ${PROJECT_BINARY_DIR}/packaging/changelog.Debian.gz
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endforeach()

# find_package(qcount): qcount::qcount (the .so), qcount::qcount_static.
set(QC_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/qcount)
install(EXPORT qcountTargets NAMESPACE qcount:: DESTINATION ${QC_CMAKE_DIR} COMPONENT dev)
install(EXPORT qcountStaticTargets NAMESPACE qcount:: DESTINATION ${QC_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/qcountConfig.cmake.in
  ${PROJECT_BINARY_DIR}/qcountConfig.cmake INSTALL_DESTINATION ${QC_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/qcountConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/qcountConfig.cmake ${PROJECT_BINARY_DIR}/qcountConfigVersion.cmake
  DESTINATION ${QC_CMAKE_DIR} COMPONENT dev)

# pkg-config: paths relative to the .pc file, so that the prefix can move
# (an unpacked .deb, a staged DESTDIR).
file(RELATIVE_PATH QC_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" QC_PC_TO_PREFIX "${QC_PC_TO_PREFIX}")
# A static link takes hwloc's shared library (-lhwloc), not hwloc's own
# static dependencies (Requires.private: hwloc would add -ludev, which
# libhwloc-dev does not bring).
string(STRIP "-lhwloc ${OpenMP_C_FLAGS} ${CMAKE_THREAD_LIBS_INIT}" QC_PC_LIBS_PRIVATE)
configure_file(${CMAKE_CURRENT_LIST_DIR}/qcount.pc.in ${PROJECT_BINARY_DIR}/qcount.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/qcount.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

# ---- cpack -G DEB: the four packages ---------------------------------------
# Build them from a portable configuration (any build without QC_NATIVE:
# its kernels are chosen at run time, core/isa.h) installed in /usr, so
# that the libraries go to Debian's multiarch directory
# (lib/<triplet>, GNUInstallDirs): tools/scripts/deb-check.sh.
set(CPACK_PACKAGE_NAME qcount)
set(CPACK_PACKAGE_VENDOR "the qcount authors")
set(CPACK_PACKAGE_CONTACT "${QC_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${QC_MAINTAINER}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL)
foreach(pair ${QC_PACKAGES})
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 component)
  list(GET pair 1 package)
  list(APPEND CPACK_COMPONENTS_ALL ${component})
  string(TOUPPER ${component} C)
  set(CPACK_DEBIAN_${C}_PACKAGE_NAME ${package})
  set(CPACK_DEBIAN_${C}_FILE_NAME DEB-DEFAULT)
endforeach()
set(CPACK_DEBIAN_PACKAGE_RELEASE ${QC_PACKAGE_RELEASE})
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "")
set(CPACK_STRIP_FILES ON)                       # stripped, as Debian ships binaries
# A build with debug information (RelWithDebInfo, Debug) also gives the
# debug symbols of the program, the library and the MPI module, apart, in
# -dbgsym .ddeb packages; CPack's debug-info step strips the binaries then
# (CPACK_STRIP_FILES would strip them before it sees the symbols).
if(CMAKE_BUILD_TYPE MATCHES "^(RelWithDebInfo|Debug)$")
  set(CPACK_STRIP_FILES OFF)
  foreach(C PROGRAM LIB MPI)
    set(CPACK_DEBIAN_${C}_DEBUGINFO_PACKAGE ON)
  endforeach()
endif()
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)          # Depends: from the ELF files
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# (each line within 80 columns, as lintian asks)
set(qc_common "qcount counts the solutions of the N-Queens problem on boards up to 32 x\n32 over every core (OpenMP, hwloc) and, under mpirun, over the ranks of\nan MPI job; it also lists, draws and verifies solutions.")
set(CPACK_DEBIAN_PROGRAM_PACKAGE_SECTION math)
set(CPACK_DEBIAN_PROGRAM_DESCRIPTION "multithreaded N-Queens solution counter\n${qc_common}\n\nThis package holds the qcount program.")
set(CPACK_DEBIAN_PROGRAM_PACKAGE_SUGGESTS "qcount-mpi")
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_DESCRIPTION "N-Queens solution counting library\n${qc_common}\n\nThis package holds libqcount, the counting library.")
# The shlibs file and the ldconfig trigger by hand (CPack makes neither
# for a library in the multiarch directory; it does add ldconfig calls to
# the maintainer scripts, which the trigger makes redundant:
# tools/packaging/lintian-warnings.txt).
set(qc_control ${PROJECT_BINARY_DIR}/packaging/lib)
file(WRITE ${qc_control}/triggers "activate-noawait ldconfig\n")
file(WRITE ${qc_control}/shlibs
  "libqcount ${PROJECT_VERSION_MAJOR} libqcount${PROJECT_VERSION_MAJOR} (>= ${PROJECT_VERSION})\n")
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${qc_control}/triggers ${qc_control}/shlibs)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION "N-Queens solution counting library (development files)\n${qc_common}\n\nThis package holds the headers, the static library and the pkg-config\nand CMake files to build programs with libqcount.")
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libqcount${PROJECT_VERSION_MAJOR} (= ${QC_DEB_VERSION}), libhwloc-dev")
set(CPACK_DEBIAN_MPI_PACKAGE_SECTION math)
set(CPACK_DEBIAN_MPI_DESCRIPTION "multithreaded N-Queens solution counter (MPI module)\n${qc_common}\n\nThis package holds the module with which qcount counts over the ranks of\nan Open MPI job, and qcount-mpirun.")
set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "qcount (= ${QC_DEB_VERSION}), openmpi-bin")
include(CPack)
