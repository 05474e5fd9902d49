/*
Runtime-defined EventHeader events in C: for programs that learn an event's
name, fields and types only at run time (log exporters, language bindings).
Events whose shape is known when the program is compiled are simpler and
faster with TraceLoggingProvider.h. The C++ API EventHeaderDynamic.h
(namespace ehd) is built on these functions.

    ehd_provider* p = ehd_provider_new("MyCompany_MyComponent", EHD_NTS, "", 0); // or "Gmygroup"
    ehd_event_set* s = ehd_provider_register_set(p, event_level_information, 0x1);
    ehd_builder* b = ehd_builder_new(0, 0);
    if (EHD_EVENT_SET_ENABLED(s)) {            // somebody listens: build and write
        ehd_builder_reset(b, "Request", EHD_NTS, 0);
        ehd_builder_add_string(b, "url", EHD_NTS, event_field_encoding_string_length16_char8,
                               event_field_format_default, 0, url, EHD_NTS);
        ehd_builder_add_value(b, "status", EHD_NTS, event_field_encoding_value32,
                              event_field_format_signed_int, 0, &status);
        ehd_builder_write(b, s, NULL, NULL);   // 0 or an errno
    }
    ehd_builder_delete(b);
    ehd_provider_delete(p);

- Provider: a name and an options string. Creating it opens it (user_events,
  or the capture file of tracepoint-capture.h). Its event sets are found
  again with ehd_provider_find_set, so callers need not keep them.
- Event set: the tracepoint <name>_L<level>K<keyword><options>, shared by all
  events of that provider, level and keyword (e.g. MyCompany_MyComponent_L4K1).
  EHD_EVENT_SET_ENABLED(set) is one inline load: test it before building.
- Builder: reset(name, tag), header values, fields, write(set, activity ids).
  Its buffers are kept from event to event: once they have grown to the
  largest event, building and writing allocates nothing. The field functions
  have inline fast paths in this header (macros of the same names, see its
  end; EHD_NO_INLINE turns them off): a program built with it needs this
  library.

Strings: every name and text argument is a pointer and a length in bytes, or
the length EHD_NTS for a NUL-terminated string; a NULL pointer is only allowed
with length 0. Characters of wider strings are counted in characters.

Errors: every function is safe to call with NULL or invalid arguments and
reports an errno (functions returning a pointer return NULL and set errno).
The builder latches its first error: later calls do nothing and return it,
ehd_builder_write returns it instead of writing, ehd_builder_reset clears it.
So a sequence of adds can be checked once, at the write. An event whose
metadata and payload exceed 65467 bytes (the kernel drops events over 64 KiB)
is refused with ERANGE, never cut short; the buffers never grow beyond that.

Thread safety: a builder is used by one thread at a time (use one per thread).
Event sets are thread-safe: test, write to, retain and release them from any
thread. Functions that change a provider (register_set, create_unregistered,
unregister, delete) must not run concurrently with any other function on the
same provider; lookups (find_set, name, options, errno) may run concurrently
with each other. Register the sets up front, or guard the provider with a
reader-writer lock.

Lifetimes: an event set is valid until its provider is unregistered or
deleted; ehd_event_set_retain keeps it valid (and disabled) longer, until
ehd_event_set_release. Deleting a provider while another thread writes to a
retained set of it is safe: the write returns EBADF.

Arrays of structs: ehd_builder_add_struct_array(b, "points", ..., 3 members, 0,
count, NULL), then the first element's members as ordinary fields, then
ehd_builder_set_fields_mode(b, EHD_FIELDS_PAYLOAD_ONLY), the other elements'
members with the same calls (payload only), and
ehd_builder_set_fields_mode(b, EHD_FIELDS_NORMAL). An empty array's members
are added once in EHD_FIELDS_METADATA_ONLY mode.
*/

/* A provider of runtime-defined events. */
typedef struct ehd_provider ehd_provider;

/*
An event set: the tracepoint of one provider, level and keyword. Opaque, except
that a pointer to it is a pointer to its unsigned status word (see
EHD_EVENT_SET_ENABLED).
*/
typedef struct ehd_event_set ehd_event_set;

/* An event builder. */
typedef struct ehd_builder ehd_builder;

/* An event definition: an event's name, tag and fields, made once. */
typedef struct ehd_event_def ehd_event_def;

/* A string length or character count meaning "NUL-terminated". */
#define EHD_NTS ((size_t)-1)

/* The bookmark a failed (or data-only) ehd_builder_add_struct stores: setting a
   field count through it does nothing. */
#define EHD_NO_BOOKMARK ((size_t)-1)

/* Modes of ehd_builder_set_fields_mode: which parts of their field the
   ehd_builder_add_* functions append. */
#define EHD_FIELDS_NORMAL 0        /* metadata and payload */
#define EHD_FIELDS_PAYLOAD_ONLY 1  /* payload: later elements of an array of structs */
#define EHD_FIELDS_METADATA_ONLY 2 /* metadata: the members of an empty array of structs */
