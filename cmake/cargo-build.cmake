# Build step of the top-level CMakeLists.txt, run in script mode (cmake -P):
# builds the Rust library with cargo (the shared library by LTO, the static
# library module by module and split into members, see split-archive.cmake),
# records the system libraries the static library needs (the configured ones
# and those rustc reports) for the package files, splits the shared library's debug info
# into a separate file, and stages the installable lib/ tree (real files
# without debug info, SONAME and link-name symlinks).
#
# Variables (-D):
#   CARGO             cargo executable
#   MANIFEST          path of Cargo.toml
#   CARGO_PROFILE     cargo profile (dev, release, ...)
#   CARGO_TARGET_DIR  cargo --target-dir
#   CARGO_OUTPUT_DIR  directory cargo puts the profile's artifacts in
#   CARGO_EXTRA_FLAGS list of extra cargo flags (may be empty)
#   ARCHIVE_RUSTFLAGS list of extra rustc flags of the static library (may be empty)
#   SONAME            SONAME of the shared library (libeventheader_tracepoint.so.1)
#   REAL_NAME         file name of the installed shared library (…so.1.4.0)
#   NATIVE_LIBS       the configured system libraries of the static library (-l
#                     flags); the package files name these and rustc's
#   STAGE_DIR         directory to stage lib/ into
#   DEBUG_DIR         directory for the shared library's debug file (REAL_NAME.debug)
#   OBJCOPY, STRIP, AR, NM, LD  binutils

# Script mode starts with no policies set: IN_LIST below needs 3.3's.
cmake_policy(VERSION 3.20)

foreach(var CARGO MANIFEST CARGO_PROFILE CARGO_TARGET_DIR CARGO_OUTPUT_DIR SONAME REAL_NAME
            NATIVE_LIBS STAGE_DIR DEBUG_DIR OBJCOPY STRIP AR NM LD)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "cargo-build.cmake: ${var} is not set")
  endif()
endforeach()

include("${CMAKE_CURRENT_LIST_DIR}/split-archive.cmake")

# The release profile builds the shared library by LTO, which leaves out the
# unwind tables of Rust's precompiled core and so needs no stand-in
# personality routine (src/lib.rs): the shipped library has none. Its static
# library links no code of core at all (split-archive.cmake checks).
set(lto_cfg "")
set(split FALSE)
if(CARGO_PROFILE STREQUAL "release")
  set(lto_cfg --cfg eventheader_tracepoint_lto)
  set(split TRUE)
endif()

# cargo rustc: the extra rustc arguments after "--" apply to this crate only,
# so the SONAME goes on the cdylib alone (not on build scripts or the tests'
# in-tree builds), and rustc reports the static library's system libraries.
# cargo replays the note when the crate is already up to date.
#
# Release: the shared library by LTO (one object: small and fast); the static
# library module by module, in a target directory of its own (other flags,
# which would otherwise rebuild the crate each time), with ThinLTO across the
# crate's modules, and with the cfg that makes its references to the
# tracepoint.h functions weak (src/tracepoint_layer.rs); then split into members.
# Other profiles: both from one build, the static library as rustc makes it.
#
# The static library's code generation: opt-level 2 without the parts that
# trade bytes for speed (vectorizing, unrolling, inlining beyond what costs
# nothing), which keeps what a TraceLogging program links at 8.3 KiB of code
# (at opt-level 3: 11.5 KiB), while the write path, #[inline(always)] into the
# entry points, compiles to the same instructions as in the shared library
# (opt-level s would save 0.4 KiB more, but its register choices add two
# moves to _eventheader_tlg_write).
set(archive_codegen
    -C lto=thin -C codegen-units=256 -C opt-level=2
    -C no-vectorize-loops -C no-vectorize-slp
    -C llvm-args=-inline-threshold=0 -C llvm-args=-unroll-threshold=0)
set(cdylib_flags -C "link-arg=-Wl,-soname,${SONAME}" ${lto_cfg})
set(staticlib_flags --print native-static-libs)
if(split)
  set(crate_types cdylib)
else()
  set(crate_types cdylib,staticlib)
  list(APPEND cdylib_flags ${staticlib_flags})
endif()
execute_process(
  COMMAND "${CARGO}" rustc
          --manifest-path "${MANIFEST}"
          --lib --crate-type ${crate_types}
          --profile "${CARGO_PROFILE}"
          --target-dir "${CARGO_TARGET_DIR}"
          ${CARGO_EXTRA_FLAGS}
          --
          ${cdylib_flags}
  RESULT_VARIABLE result
  ERROR_VARIABLE cargo_stderr
  ECHO_ERROR_VARIABLE)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cargo failed (${result})")
endif()
# The output directory under the target directory: <profile>, or
# <target>/<profile> with --target.
file(RELATIVE_PATH profile_dir "${CARGO_TARGET_DIR}" "${CARGO_OUTPUT_DIR}")
set(archive "${CARGO_OUTPUT_DIR}/libeventheader_tracepoint.a")
if(split)
  set(archive_target_dir "${CARGO_TARGET_DIR}/archive")
  execute_process(
    COMMAND "${CARGO}" rustc
            --manifest-path "${MANIFEST}"
            --lib --crate-type staticlib
            --profile "${CARGO_PROFILE}"
            --target-dir "${archive_target_dir}"
            ${CARGO_EXTRA_FLAGS}
            --
            ${archive_codegen}
            ${ARCHIVE_RUSTFLAGS}
            --cfg eventheader_tracepoint_archive
            ${lto_cfg}
            ${staticlib_flags}
    RESULT_VARIABLE result
    ERROR_VARIABLE cargo_stderr
    ECHO_ERROR_VARIABLE)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "cargo failed (${result})")
  endif()
  set(archive "${DEBUG_DIR}/split/libeventheader_tracepoint.a")
  split_archive("${archive_target_dir}/${profile_dir}/libeventheader_tracepoint.a"
                "${archive}" "${DEBUG_DIR}/split/work")
endif()

# The system libraries the package files name for the static library: the
# configured list, then every library rustc reports that it lacks (rustc
# leaves the C library to the C toolchain, so the configured list may name
# more). The profile decides what rustc reports: the release build uses core
# and libc only, while the dev profile unwinds and so links the standard
# library, which needs -lgcc_s, -lutil, -lrt, -lm and -ldl too. Written for
# the install step: native-static-libs.txt (-l flags, for pkg-config's
# Libs.private) and tracepoint-native-libs.cmake (the static target's usage
# requirements), each rewritten only when its content changes.
separate_arguments(native_libs UNIX_COMMAND "${NATIVE_LIBS}")
if(cargo_stderr MATCHES "native-static-libs: ([^\r\n]*)")
  separate_arguments(actual_libs UNIX_COMMAND "${CMAKE_MATCH_1}")
  foreach(lib IN LISTS actual_libs)
    if(NOT lib IN_LIST native_libs)
      list(APPEND native_libs "${lib}")
    endif()
  endforeach()
else()
  message(WARNING "cargo did not report the static library's native-static-libs; "
                  "the package files name the configured list alone (${NATIVE_LIBS})")
endif()
list(JOIN native_libs " " native_flags)
set(cmake_libs "")
foreach(flag IN LISTS native_libs)
  if(flag MATCHES "^-l(.+)$")
    list(APPEND cmake_libs "${CMAKE_MATCH_1}")
  else()
    list(APPEND cmake_libs "${flag}")
  endif()
endforeach()
function(write_if_changed file content)
  set(current "")
  if(EXISTS "${file}")
    file(READ "${file}" current)
  endif()
  if(NOT current STREQUAL content)
    file(WRITE "${file}" "${content}")
  endif()
endfunction()
write_if_changed("${DEBUG_DIR}/native-static-libs.txt" "${native_flags}\n")
write_if_changed("${DEBUG_DIR}/tracepoint-native-libs.cmake"
  "# The system libraries the static library needs: the configured ones and\n# those rustc reported (--print native-static-libs) when it was built.\nset(_tracepoint_native_libs \"${cmake_libs}\")\n")
message(STATUS "The static library's system libraries: ${native_flags}")

set(so "${CARGO_OUTPUT_DIR}/libeventheader_tracepoint.so")
foreach(artifact "${so}" "${archive}")
  if(NOT EXISTS "${artifact}")
    message(FATAL_ERROR "cargo did not produce ${artifact}")
  endif()
endforeach()

# The shared library without debug info, naming its debug file in a
# .gnu_debuglink section (name and CRC of the file), and the static library
# without debug info. Made in a work directory under their final names, then
# copied only when the content changed, so that an up-to-date build leaves
# the staged files (and what links against them) alone.
set(work "${DEBUG_DIR}/work")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}" "${STAGE_DIR}")
set(debug_file "${work}/${REAL_NAME}.debug")
foreach(step
    "${OBJCOPY};--only-keep-debug;${so};${debug_file}"
    "${STRIP};--strip-unneeded;-o;${work}/${REAL_NAME};${so}"
    "${OBJCOPY};--add-gnu-debuglink=${debug_file};${work}/${REAL_NAME}"
    "${STRIP};--strip-debug;--remove-section=.comment;--enable-deterministic-archives;-o;${work}/libeventheader_tracepoint.a;${archive}")
  execute_process(COMMAND ${step} RESULT_VARIABLE result ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${step} failed (${result}): ${err}")
  endif()
endforeach()
foreach(pair
    "${work}/${REAL_NAME}=${STAGE_DIR}/${REAL_NAME}"
    "${work}/libeventheader_tracepoint.a=${STAGE_DIR}/libeventheader_tracepoint.a"
    "${debug_file}=${DEBUG_DIR}/${REAL_NAME}.debug")
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${from}" "${to}"
                  RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "copying ${from} to ${to} failed")
  endif()
endforeach()
file(REMOVE_RECURSE "${work}")

# name -> target, all relative to lib/:
#   libeventheader_tracepoint.so.1       -> .so.1.4.0   (SONAME, found at run time)
#   libeventheader_tracepoint.so         -> .so.1       (-leventheader_tracepoint)
#   libeventheader-tracepoint.so, libtracepoint.so -> .so.1
#   libeventheader-tracepoint.a,  libtracepoint.a  -> libeventheader_tracepoint.a
# so the reference's "-leventheader-tracepoint -ltracepoint" links the one
# library: shared by default, the archive under -Wl,-Bstatic.
set(links
  "${SONAME}=${REAL_NAME}"
  "libeventheader_tracepoint.so=${SONAME}"
  "libeventheader-tracepoint.so=${SONAME}"
  "libtracepoint.so=${SONAME}"
  "libeventheader-tracepoint.a=libeventheader_tracepoint.a"
  "libtracepoint.a=libeventheader_tracepoint.a")
foreach(entry IN LISTS links)
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 name)
  list(GET pair 1 target)
  set(link "${STAGE_DIR}/${name}")
  if(IS_SYMLINK "${link}")
    file(READ_SYMLINK "${link}" current)
    if(current STREQUAL target)
      continue()
    endif()
  endif()
  file(REMOVE "${link}")
  file(CREATE_LINK "${target}" "${link}" SYMBOLIC)
endforeach()
