# The static library as members a program links only when it calls them,
# included by cargo-build.cmake.
#
# rustc builds the archive's crate module by module (codegen units without
# fat LTO, see cargo-build.cmake), one object per module, and adds the
# object code of Rust's core, libc and compiler_builtins crates. Here the
# crate's objects are gathered by layer into one relocatable object each
# (ld -r), which become the archive's members:
#
#   tracepoint.o           the tracepoint.h functions (and what only they
#                          use: provider/definitions.rs). Its own member, so a
#                          program that defines them itself (a replacement
#                          tracepoint layer, see tracepoint/tracepoint-impl.h)
#                          links none of ours.
#   tracepoint-core.o      providers, tracepoints and user_events: state,
#                          registration, the kernel writes, the library lock.
#   tracepoint-capture.o   the capture backend and tracepoint_set_capture_file
#                          (linked by programs that call it, or link with
#                          -Wl,-u,tracepoint_set_capture_file).
#   tracepoint-diagnostics.o  the reports of EVENTHEADER_DEBUG (linked by
#                          the capture backend, or with
#                          -Wl,-u,_eventheader_diagnostics; the rest of the
#                          library reaches it through a weak reference).
#   eventheader.o          the EventHeader layer and TraceLogging's write
#                          entry points.
#   eventheader-activity.o the activity ids of TraceLoggingActivity.h (a new
#                          id; the thread's id, its thread-local slot and the
#                          write hook that reads it): only programs that use
#                          its classes link them.
#   eventheader-dynamic.o  runtime-defined events (ehd_*, and the _ehd_builder_*
#                          entry points of the C++ header).
#
# Everything else rustc put in the archive is left out: the panic handler
# (nothing can panic: it is never referenced) and the other crates' object
# code, which the crate's objects must not reference (the build fails if they
# do; src/bytes.rs has the usual culprits).
#
# Checks that fail the build: every symbol a member needs from rustc's archive
# is defined by a member; no member references tracepoint.o or
# tracepoint-capture.o or tracepoint-diagnostics.o (weak references aside:
# they pull nothing; the capture backend may reference the diagnostics), nor a layer
# above its own (core < eventheader < eventheader-activity, eventheader-dynamic); tracepoint.o
# defines the six tracepoint.h functions.
#
#   split_archive(<rustc archive> <output archive> <work directory>)
# with AR, NM and LD (binutils) set.

# The member of one of the crate's objects, from the symbols it defines
# (mangled names, which spell each module of the path as <length><name>:
# legacy and v0 mangling alike).
function(_split_archive_member defined out_var)
  set(crate "22eventheader_tracepoint")
  set(member "")
  foreach(sym IN LISTS defined)
    if(sym MATCHES "^(rust_begin_unwind|rust_eh_personality)$|${crate}.*rust_begin_unwind")
      set(this drop)
    elseif(sym STREQUAL "tracepoint_set_capture_file"
           OR sym MATCHES "${crate}3ffi11capture_api|${crate}7backend7capture|${crate}7backend13capture_names")
      set(this tracepoint-capture)
    elseif(sym MATCHES "${crate}11diagnostics6report")
      set(this tracepoint-diagnostics)
    elseif(sym MATCHES "^tracepoint_|${crate}3ffi14tracepoint_api|${crate}8provider11definitions")
      set(this tracepoint)
    elseif(sym MATCHES "^_?ehd_|${crate}7dynamic|${crate}3ffi11dynamic_api")
      set(this eventheader-dynamic)
    elseif(sym MATCHES "^_eventheader_tlg_(activity_id_create|thread_activity_get|thread_activity_set|thread_slot)$|${crate}3ffi12activity_api|${crate}11eventheader11activity_id|${crate}11eventheader15thread_activity")
      set(this eventheader-activity)
    elseif(sym MATCHES "^eventheader_[a-z0-9_]+$|^_eventheader_tlg_|^_tracepoint_layer_probe$|${crate}11eventheader|${crate}16tracepoint_layer|${crate}3ffi15eventheader_api|${crate}3ffi16tracelogging_api")
      set(this eventheader)
    else()
      continue()
    endif()
    if(member STREQUAL "")
      set(member "${this}")
    elseif(NOT member STREQUAL this)
      message(FATAL_ERROR "split_archive: one object defines symbols of ${member} and ${this} (${sym})")
    endif()
  endforeach()
  if(member STREQUAL "")
    # Generic code of other crates instantiated for ours, and the like.
    set(member tracepoint-core)
  endif()
  set(${out_var} "${member}" PARENT_SCOPE)
endfunction()

# nm's symbols of one file: <prefix>_DEFINED (global definitions),
# <prefix>_STRONG (undefined references) and <prefix>_WEAK (weak undefined
# references), mangled.
function(_split_archive_symbols file prefix)
  execute_process(COMMAND "${NM}" -P "${file}"
                  OUTPUT_VARIABLE out RESULT_VARIABLE result ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "split_archive: ${NM} -P ${file} failed: ${err}")
  endif()
  string(REPLACE ";" "\\;" out "${out}")
  string(REPLACE "\n" ";" lines "${out}")
  set(defined "")
  set(strong "")
  set(weak "")
  foreach(line IN LISTS lines)
    # POSIX format: name type [value size]
    if(NOT line MATCHES "^([^ ]+) ([A-Za-z]) ?")
      continue()
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(type "${CMAKE_MATCH_2}")
    if(type STREQUAL "U")
      list(APPEND strong "${name}")
    elseif(type STREQUAL "w" OR type STREQUAL "v")
      list(APPEND weak "${name}")
    elseif(type MATCHES "^[A-TV-Z]$")
      list(APPEND defined "${name}")
    endif()
  endforeach()
  set(${prefix}_DEFINED "${defined}" PARENT_SCOPE)
  set(${prefix}_STRONG "${strong}" PARENT_SCOPE)
  set(${prefix}_WEAK "${weak}" PARENT_SCOPE)
endfunction()

function(split_archive archive output work)
  foreach(var AR NM LD)
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
      message(FATAL_ERROR "split_archive: ${var} is not set")
    endif()
  endforeach()
  set(members tracepoint-core tracepoint tracepoint-capture tracepoint-diagnostics eventheader eventheader-activity eventheader-dynamic)
  # Which member may reference which (strongly): a layer only those below it.
  set(allowed_tracepoint-core tracepoint-core)
  set(allowed_tracepoint tracepoint-core)
  set(allowed_tracepoint-capture tracepoint-core tracepoint-diagnostics)
  set(allowed_tracepoint-diagnostics tracepoint-core)
  set(allowed_eventheader tracepoint-core)
  set(allowed_eventheader-activity tracepoint-core eventheader)
  set(allowed_eventheader-dynamic tracepoint-core eventheader)

  file(REMOVE_RECURSE "${work}")
  file(MAKE_DIRECTORY "${work}/objects")
  execute_process(COMMAND "${AR}" x "${archive}" WORKING_DIRECTORY "${work}/objects"
                  RESULT_VARIABLE result ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "split_archive: ${AR} x ${archive} failed: ${err}")
  endif()
  file(GLOB objects RELATIVE "${work}/objects" "${work}/objects/*.o")
  list(SORT objects)

  # Every object's symbols; the crate's objects by member.
  set(left_out_defined "")
  foreach(member IN LISTS members)
    set(objects_${member} "")
  endforeach()
  foreach(object IN LISTS objects)
    _split_archive_symbols("${work}/objects/${object}" sym)
    if(object MATCHES "^eventheader_tracepoint-[0-9a-f]+\\.eventheader_tracepoint\\.")
      _split_archive_member("${sym_DEFINED}" member)
    else()
      set(member drop)
    endif()
    if(member STREQUAL "drop")
      list(APPEND left_out_defined ${sym_DEFINED})
    else()
      list(APPEND objects_${member} "${work}/objects/${object}")
    endif()
  endforeach()

  # One relocatable object per member.
  set(member_files "")
  foreach(member IN LISTS members)
    if(NOT objects_${member})
      message(FATAL_ERROR "split_archive: no object of ${archive} belongs to ${member}")
    endif()
    set(file "${work}/${member}.o")
    execute_process(COMMAND "${LD}" -r -o "${file}" ${objects_${member}}
                    RESULT_VARIABLE result ERROR_VARIABLE err)
    if(NOT result EQUAL 0)
      message(FATAL_ERROR "split_archive: ${LD} -r for ${member} failed: ${err}")
    endif()
    list(APPEND member_files "${file}")
    _split_archive_symbols("${file}" ${member})
    set(${member}_DEFINED "${${member}_DEFINED}")
  endforeach()

  # The checks.
  foreach(function tracepoint_open_provider tracepoint_close_provider
          tracepoint_open_provider_with_tracepoints tracepoint_connect
          tracepoint_connect2 tracepoint_write)
    if(NOT function IN_LIST tracepoint_DEFINED)
      message(FATAL_ERROR "split_archive: tracepoint.o does not define ${function}")
    endif()
  endforeach()
  foreach(member IN LISTS members)
    foreach(sym IN LISTS ${member}_STRONG ${member}_WEAK)
      if(sym IN_LIST left_out_defined)
        set(found FALSE)
        foreach(other IN LISTS members)
          if(sym IN_LIST ${other}_DEFINED)
            set(found TRUE)
          endif()
        endforeach()
        if(NOT found)
          message(FATAL_ERROR
            "split_archive: ${member}.o needs ${sym}, which only code left out of the archive "
            "defines (Rust's core, libc or compiler_builtins, or the panic handler): the "
            "crate's code must not call it (see src/bytes.rs)")
        endif()
      endif()
    endforeach()
    foreach(sym IN LISTS ${member}_STRONG)
      foreach(other IN LISTS members)
        if(other STREQUAL member OR NOT sym IN_LIST ${other}_DEFINED)
          continue()
        endif()
        if(NOT other IN_LIST allowed_${member})
          message(FATAL_ERROR
            "split_archive: ${member}.o references ${sym} of ${other}.o, which would link "
            "${other}.o into every program that links ${member}.o")
        endif()
      endforeach()
    endforeach()
  endforeach()

  file(REMOVE "${output}")
  execute_process(COMMAND "${AR}" rcD "${output}" ${member_files}
                  RESULT_VARIABLE result ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "split_archive: ${AR} rcD ${output} failed: ${err}")
  endif()
endfunction()
