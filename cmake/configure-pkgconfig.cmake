# Included by the install script (see CMakeLists.txt): writes tracepoint.pc and
# eventheader-tracepoint.pc for the prefix being installed to, which may be
# the one given to `cmake --install --prefix`. DESTDIR is not part of the
# paths written (it is only where the files are staged).
#
# Variables: PROJECT_VERSION, PC_NATIVE_LIBS, PC_LIBDIR_REL, PC_INCLUDEDIR_REL
# (GNUInstallDirs values, relative or absolute), PC_TEMPLATE_DIR, PC_OUT_DIR;
# CMAKE_INSTALL_PREFIX is the install script's.

get_filename_component(PC_PREFIX "${CMAKE_INSTALL_PREFIX}" ABSOLUTE)

foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${PC_${kind}_REL}")
    set(PC_${kind} "${PC_${kind}_REL}")
  else()
    set(PC_${kind} "\${prefix}/${PC_${kind}_REL}")
  endif()
endforeach()

foreach(pc tracepoint eventheader-tracepoint)
  configure_file("${PC_TEMPLATE_DIR}/${pc}.pc.in" "${PC_OUT_DIR}/${pc}.pc" @ONLY)
endforeach()
