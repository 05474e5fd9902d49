/*
exporter.cpp: a model of the OpenTelemetry C++ user_events logs exporter's
record, through the public EventHeaderDynamic.h API: the calls that exporter
makes, in its order, for each attribute type it handles, with its argument
types (names and string values as NUL-terminated `char const*` taken from
string views, spans as pointer ranges). Compiles against any implementation
of EventHeaderDynamic.h (benches/side-by-side.sh builds it against another
one too).

    exporter MODE N [--tracefs-enable]

Runs MODE N times and prints "MODE N NS_PER_ITER" (wall clock around the loop).
Each record, as the exporter's Recordable builds it:
  - the body: Reset(event name), AddValue "__csver__" (uint16), AddStruct
    "PartB" (count 1, bookmarked), AddString<char> "_typeName", AddValue
    "severityNumber" (uint16), AddString<char> "severityText", AddString<char>
    "body" (the SDK's C string alternative, through the attribute function);
  - the attributes (the first adds AddStruct "PartC", bookmarked), each by an
    out-of-line function that tests the value's type among the SDK's 16
    alternatives in the exporter's order and makes the exporter's call for
    each (AddValue for the scalars, AddString<char> of a C string or of a
    string view's data(), AddValueRange over a span's pointers,
    AddStringRange<char> for a span of string views): 2 strings (string
    views), 2 int64, 2 double, 1 bool, 1 span of 4 int;
  - the export: a lock around the exporter's shutdown flag, SetStructFieldCount
    of PartB (4) and PartC (8), a copy of the level's shared_ptr<EventSet>,
    Enabled() and Write.
Modes:
  exporter_fresh   a new record object (holding its EventBuilder) allocated
                   for every record and deleted after the write, as the SDK
                   makes one Recordable per log record
  exporter_reused  one record object, its builder reused

Backends as bench.c: TRACEPOINT_CAPTURE_FILE (use /dev/null), else user_events,
where --tracefs-enable enables the tracepoint EhtBenchExp_L4K1 through tracefs.
Exit status: 0, or 1 if a write fails.
*/
/* Built as the exporter's CMake Release build is: without assertions (an
   implementation's header may assert its preconditions). */
#ifndef NDEBUG
#define NDEBUG 1
#endif

#include <eventheader/EventHeaderDynamic.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <atomic>
#include <memory>
#include <string_view>

#include "bench-common.h"

#define EXP_TRACEPOINT "EhtBenchExp_L4K1"

/* An attribute value as the SDK gives it to the exporter: a tagged union
   whose tag is the index of one of its 16 alternatives (the SDK's variant
   order); a span is a pointer and a count. */
struct AttrValue
{
    enum Kind : size_t {
        Bool, Int, Int64, UInt, Double, CString, String, BoolSpan, IntSpan, Int64Span,
        UIntSpan, DoubleSpan, StringSpan, UInt64, UInt64Span, ByteSpan
    } kind;
    bool b;
    int64_t i; // Int, Int64, UInt, UInt64: the value, converted back by the branch
    double d;
    char const* cs;
    std::string_view s;
    void const* span_data;
    size_t span_size;
};

struct Attr
{
    std::string_view key;
    AttrValue value;
};

static int const g_retries[4] = { 10, 20, 40, 80 };
static char const* const g_severity_text[] = { "", "TRACE", "TRACE2", "TRACE3", "TRACE4", "DEBUG", "DEBUG2",
    "DEBUG3", "DEBUG4", "INFO" };

/* The record: the exporter's Recordable state beside its builder. */
struct Record
{
    Record() noexcept {} // user-provided, as the exporter's: no zero-filling

    ehd::EventBuilder builder;
    size_t part_b = 0;
    size_t part_b_size = 0;
    size_t part_c = 0;
    size_t part_c_size = 0;
};

template<class T>
static T const* span_of(AttrValue const& v)
{
    return static_cast<T const*>(v.span_data);
}

/* A span of string views as an iterator pair, as the exporter passes one. */
struct StringSpanIt
{
    std::string_view const* p;
    bool operator!=(StringSpanIt other) const noexcept { return p != other.p; }
    std::string_view operator*() const noexcept { return *p; }
    StringSpanIt& operator++() noexcept
    {
        ++p;
        return *this;
    }
};

/* Out of line, as the exporter's PopulateAttribute (a function of its own
   translation unit): one field for the value's type, found by testing the
   alternatives one after the other in the exporter's order (bool, int,
   int64, unsigned, uint64, double, C string, string view, then the spans:
   bytes, int, int64, unsigned, uint64, double, bool, string views). Strings
   go in as C strings (a string view's data()), spans as pointer ranges. */
__attribute__((noinline)) static void populate(char const* key, AttrValue const& v, ehd::EventBuilder& eb)
{
    if (v.kind == AttrValue::Bool) {
        eb.AddValue(key, v.b, event_field_format_boolean);
    } else if (v.kind == AttrValue::Int) {
        eb.AddValue(key, static_cast<int>(v.i), event_field_format_signed_int);
    } else if (v.kind == AttrValue::Int64) {
        eb.AddValue(key, v.i, event_field_format_signed_int);
    } else if (v.kind == AttrValue::UInt) {
        eb.AddValue(key, static_cast<unsigned>(v.i), event_field_format_default);
    } else if (v.kind == AttrValue::UInt64) {
        eb.AddValue(key, static_cast<uint64_t>(v.i), event_field_format_default);
    } else if (v.kind == AttrValue::Double) {
        eb.AddValue(key, v.d, event_field_format_float);
    } else if (v.kind == AttrValue::CString) {
        eb.AddString<char>(key, v.cs, event_field_format_default);
    } else if (v.kind == AttrValue::String) {
        eb.AddString<char>(key, v.s.data(), event_field_format_default);
    } else if (v.kind == AttrValue::ByteSpan) {
        uint8_t const* p = span_of<uint8_t>(v);
        eb.AddValueRange(key, p, p + v.span_size, event_field_format_default);
    } else if (v.kind == AttrValue::IntSpan) {
        int const* p = span_of<int>(v);
        eb.AddValueRange(key, p, p + v.span_size, event_field_format_signed_int);
    } else if (v.kind == AttrValue::Int64Span) {
        int64_t const* p = span_of<int64_t>(v);
        eb.AddValueRange(key, p, p + v.span_size, event_field_format_signed_int);
    } else if (v.kind == AttrValue::UIntSpan) {
        unsigned const* p = span_of<unsigned>(v);
        eb.AddValueRange(key, p, p + v.span_size, event_field_format_default);
    } else if (v.kind == AttrValue::UInt64Span) {
        uint64_t const* p = span_of<uint64_t>(v);
        eb.AddValueRange(key, p, p + v.span_size, event_field_format_default);
    } else if (v.kind == AttrValue::DoubleSpan) {
        double const* p = span_of<double>(v);
        eb.AddValueRange(key, p, p + v.span_size, event_field_format_float);
    } else if (v.kind == AttrValue::BoolSpan) {
        bool const* p = span_of<bool>(v);
        eb.AddValueRange(key, p, p + v.span_size, event_field_format_boolean);
    } else if (v.kind == AttrValue::StringSpan) {
        std::string_view const* p = span_of<std::string_view>(v);
        eb.AddStringRange<char>(key, StringSpanIt{ p }, StringSpanIt{ p + v.span_size }, event_field_format_default);
    }
}

__attribute__((noinline)) static void set_body(Record& r, char const* body, uint8_t severity)
{
    ehd::EventBuilder& eb = r.builder;
    eb.Reset("Logs");
    eb.AddValue("__csver__", static_cast<uint16_t>(0x400), event_field_format_unsigned_int);
    eb.AddStruct("PartB", 1, 0, &r.part_b);
    eb.AddString<char>("_typeName", "Log", event_field_format_default);
    eb.AddValue("severityNumber", static_cast<uint16_t>(severity), event_field_format_default);
    eb.AddString<char>("severityText", g_severity_text[severity], event_field_format_default);
    r.part_b_size = 4;
    AttrValue v{};
    v.kind = AttrValue::CString; // the SDK's variant holds the C string given
    v.cs = body;
    populate("body", v, eb);
}

__attribute__((noinline)) static void set_attribute(Record& r, std::string_view key, AttrValue const& v)
{
    if (r.part_c_size == 0) {
        r.builder.AddStruct("PartC", 1, 0, &r.part_c);
    }
    r.part_c_size++;
    populate(key.data(), v, r.builder);
}

/* The export: the member counts, then (as the exporter) a check of its
   shutdown flag under a lock and a copy of the level's set pointer. */
static std::atomic<bool> g_shutdown_lock;
static bool g_shutdown;

__attribute__((noinline)) static int export_record(Record& r, std::shared_ptr<ehd::EventSet const> const& sets)
{
    while (g_shutdown_lock.exchange(true, std::memory_order_acquire)) {
    }
    bool const shutdown = g_shutdown;
    g_shutdown_lock.store(false, std::memory_order_release);
    if (shutdown) {
        return EBADF;
    }
    r.builder.SetStructFieldCount(r.part_b, static_cast<uint8_t>(r.part_b_size));
    if (r.part_c_size > 0) {
        r.builder.SetStructFieldCount(r.part_c, static_cast<uint8_t>(r.part_c_size));
    }
    std::shared_ptr<ehd::EventSet const> const set = sets;
    return set->Enabled() ? r.builder.Write(*set) : 0;
}

/* One log record: the body, 8 attributes, the export. */
static int record(Record& r, std::shared_ptr<ehd::EventSet const> const& set, unsigned i)
{
    static Attr attrs[8] = {
        { "http.method", { AttrValue::String, false, 0, 0, nullptr, "GET", nullptr, 0 } },
        { "http.route", { AttrValue::String, false, 0, 0, nullptr, "/api/v1/orders", nullptr, 0 } },
        { "status", { AttrValue::Int64, false, 200, 0, nullptr, {}, nullptr, 0 } },
        { "bytes", { AttrValue::Int64, false, 0, 0, nullptr, {}, nullptr, 0 } },
        { "duration", { AttrValue::Double, false, 0, 0, nullptr, {}, nullptr, 0 } },
        { "ratio", { AttrValue::Double, false, 0, 0.5, nullptr, {}, nullptr, 0 } },
        { "cache_hit", { AttrValue::Bool, false, 0, 0, nullptr, {}, nullptr, 0 } },
        { "retries", { AttrValue::IntSpan, false, 0, 0, nullptr, {}, g_retries, 4 } },
    };
    attrs[3].value.i = 1234 + i;
    attrs[4].value.d = 0.25 * i;
    attrs[6].value.b = (i & 1u) != 0;
    r.part_b_size = r.part_c_size = 0;
    set_body(r, "request handled", 9);
    for (Attr const& a : attrs) {
        set_attribute(r, a.key, a.value);
    }
    return export_record(r, set);
}

__attribute__((noinline)) static int record_fresh(std::shared_ptr<ehd::EventSet const> const& set, unsigned i)
{
    std::unique_ptr<Record> r(new Record());
    return record(*r, set, i);
}

__attribute__((noinline)) static int run_fresh(Record&, std::shared_ptr<ehd::EventSet const> const& set, unsigned n)
{
    int err = 0;
    for (unsigned i = 0; i <= n; i++) {
        err = record_fresh(set, i);
    }
    return err;
}

__attribute__((noinline)) static int run_reused(Record& r, std::shared_ptr<ehd::EventSet const> const& set, unsigned n)
{
    int err = 0;
    for (unsigned i = 0; i <= n; i++) {
        err = record(r, set, i);
    }
    return err;
}

int main(int argc, char* argv[])
{
    if (argc < 3) {
        fprintf(stderr, "usage: exporter exporter_fresh|exporter_reused N [--tracefs-enable]\n");
        return 2;
    }
    char const* mode = argv[1];
    unsigned const n = (unsigned)strtoul(argv[2], NULL, 10);
    bool const enable = argc > 3 && strcmp(argv[3], "--tracefs-enable") == 0;

    int (*run)(Record&, std::shared_ptr<ehd::EventSet const> const&, unsigned) = NULL;
    if (!strcmp(mode, "exporter_fresh")) {
        run = run_fresh;
    } else if (!strcmp(mode, "exporter_reused")) {
        run = run_reused;
    } else {
        fprintf(stderr, "exporter: unknown mode %s\n", mode);
        return 2;
    }

    ehd::Provider provider("EhtBenchExp");
    Record reused;
    std::shared_ptr<ehd::EventSet const> const set = provider.RegisterSet(event_level_information, 1);
    int err = set ? set->Errno() : ENOMEM;
    if (err == 0 && enable && tracefs_enable(EXP_TRACEPOINT)) {
        err = EIO;
    }
    if (err != 0) {
        fprintf(stderr, "exporter: setup: %s\n", strerror(err));
        return 1;
    }

    double const t0 = now_ns();
    err = run(reused, set, n);
    double const t1 = now_ns();
    if (err != 0) {
        fprintf(stderr, "exporter: %s: write failed: %s\n", mode, strerror(err));
        return 1;
    }
    printf("%s %u %.2f\n", mode, n, n ? (t1 - t0) / n : 0.0);
    return 0;
}
