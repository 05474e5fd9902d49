/*
EventHeaderDynamic.h: the C++ API for runtime-defined EventHeader events
(namespace ehd), source-compatible with the EventHeaderDynamic.h of Microsoft's
LinuxTracepoints v1.4: code written against that header compiles unchanged and
writes the same bytes.

Use it when the events are only known at run time (e.g. a layer under a
logging or tracing API); for events known when the program is compiled,
TraceLoggingProvider.h is simpler and faster.

    ehd::Provider provider("MyCompany_MyComponent");              // optional 2nd arg: group
    auto set = provider.RegisterSet(event_level_information, 0x1); // MyCompany_MyComponent_L4K1
    ehd::EventBuilder eb;
    if (ehd::Enabled(set)) {                                       // somebody listens
        eb.Reset("Request")
          .AddString<char>("url", url, event_field_format_default)
          .AddValue("status", int32_t(200), event_field_format_signed_int);
        int err = eb.Write(*set);                                  // 0 or an errno
    }

Implementation: the classes are inline code over the C API of
eventheader-dynamic.h (the library's ehd_* functions and that header's inline
fast paths), so C, C++ and other languages write the same bytes. A program
built with this header needs this library (its ehd_* symbols), not the
reference's. An EventBuilder keeps its builder and the storage of a typical
event (256 bytes of metadata, 256 of payload) inside itself: constructing one
allocates nothing, and fields whose names and values fit are appended inline;
larger events grow into the heap once. Differences from the reference, all
for input the reference documents as a precondition violation (it asserts,
and in release builds writes a malformed or incomplete event): here such
input (a name with '\0', a struct field count of 0 or over 127, an invalid
group name, a related id without an activity id) makes the provider fail or
the event's Write return EINVAL, and Write on a builder that was never Reset
returns EINVAL (the reference: ENOMEM). EventBuilder::Tag is an addition.
Provider names of 234 characters or more are cut to 233, and the group name
to what fits after the provider name (provider + group at most 233), as the
reference does, so that both write to the same tracepoints.

Write returns 0 or an errno: EBADF if the event set is disabled (nobody
listens, or its registration failed), ERANGE if the event (metadata + payload)
is over the 64 KiB limit (refused, never truncated), ENOMEM if the builder
could not grow its buffers, EINVAL as above, or the write's error.

Thread safety (as the reference): Provider is not thread-safe (guard
RegisterSet/Unregister against other use, e.g. with a reader-writer lock, or
register every set before other threads start); EventSet is thread-safe;
EventBuilder is used by one thread at a time.
*/

#pragma once
#ifndef _included_EventHeaderDynamic_h
#define _included_EventHeaderDynamic_h 1

#if __cplusplus < 201703L && (!defined(_MSVC_LANG) || _MSVC_LANG < 201703L)
#error EventHeaderDynamic.h requires C++17 or later.
#endif

#include "eventheader-tracepoint.h"
#include "eventheader-dynamic.h"
#include <assert.h>
#include <string.h>
#include <functional>
#include <memory>
#include <new>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

/*
The library's entry points private to this header (an EventBuilder's builder
lives inside it; these grow, copy, move and free it). Programs must not call
them. tests/headers.rs checks these declarations against the library's.
*/
extern "C" {
int _ehd_builder_reserve(struct ehd_builder *builder, size_t meta_capacity, size_t data_capacity);
void _ehd_builder_fini(struct ehd_builder *builder);
int _ehd_builder_copy(struct ehd_builder *dst, const struct ehd_builder *src);
int _ehd_builder_move(struct ehd_builder *dst, struct ehd_builder *src);
}

/* The methods over the inline fast paths of eventheader-dynamic.h are inlined
   into the caller, so that constant names and lengths fold away. */
#if defined(__GNUC__) || defined(__clang__)
#define _EHD_ALWAYS_INLINE __attribute__((__always_inline__))
#else
#define _EHD_ALWAYS_INLINE
#endif

/* Source annotations used by code written for the reference's header; empty here. */
#ifndef _In_opt_
#define _In_opt_
#endif
#ifndef _In_reads_bytes_opt_
#define _In_reads_bytes_opt_(size)
#endif
#ifndef _In_reads_
#define _In_reads_(count)
#endif
#ifndef _Success_
#define _Success_(condition)
#endif
#ifndef _Outptr_result_bytebuffer_
#define _Outptr_result_bytebuffer_(size)
#endif
#ifndef _Out_opt_
#define _Out_opt_
#endif

namespace ehd
{
    /*
    The events of one provider, level and keyword: one tracepoint, named
    "<provider>_L<level>K<keyword><options>" (hex), e.g. "MyCompany_MyComponent_L5K1f".
    Obtained from Provider::RegisterSet / FindSet as shared_ptr<EventSet const>;
    test it with Enabled(), write to it with EventBuilder::Write. Thread-safe.
    It stays usable (disabled) after its provider is unregistered or destroyed.

    A set from a provider is the library's event set itself (so Enabled() is
    one load, as TRACEPOINT_ENABLED); a default-constructed one is a
    placeholder with the same layout, never enabled.
    */
    class EventSet
    {
        friend class Provider;
        friend class EventBuilder;

        _ehd_event_set_state m_state;

        ehd_event_set const*
        Handle() const noexcept
        {
            return reinterpret_cast<ehd_event_set const*>(this);
        }

        // The deleter of a provider's sets: gives up the shared_ptr's reference.
        struct Release
        {
            void
            operator()(EventSet const* set) const noexcept
            {
                ehd_event_set_release(const_cast<ehd_event_set*>(set->Handle()));
            }
        };

    public:

        EventSet(EventSet const&) = delete;
        void operator=(EventSet const&) = delete;

        /*
        A placeholder set that is never enabled: Enabled() is false, Errno()
        is EINVAL, and writing to it returns EBADF.
        */
        constexpr
        EventSet() noexcept
            : m_state{ TRACEPOINT_STATE_INIT, 0, 22 /* EINVAL */, 0, 0, nullptr }
        {
            return;
        }

        /*
        True if a collector listens to this set's tracepoint. One inline load.
        */
        bool
        Enabled() const noexcept
        {
            return __atomic_load_n(&m_state.state.status_word, __ATOMIC_RELAXED) != 0;
        }

        /*
        0 if the set's tracepoint was registered, else why not (the errno of the
        registration or of opening the provider; EINVAL for a placeholder).
        For diagnostics.
        */
        int
        Errno() const noexcept
        {
            return m_state.error;
        }
    };

    /*
    A provider: a name and an optional group, and the event sets registered for
    it. Not thread-safe (see the top of this file). Unregisters its sets when
    destroyed.
    */
    class Provider
    {
        struct EventKey
        {
            uint64_t Keyword;
            uint8_t Level;

            bool
            operator==(EventKey const& other) const noexcept
            {
                return Keyword == other.Keyword && Level == other.Level;
            }
        };

        struct EventKeyHash
        {
            size_t
            operator()(EventKey const& key) const noexcept
            {
                return std::hash<uint64_t>()(key.Keyword ^ (static_cast<uint64_t>(key.Level) << 56));
            }
        };

        using EventSetMap = std::unordered_map<EventKey, std::shared_ptr<EventSet const>, EventKeyHash>;

        // The reference's bound: provider name + group name shorter than
        // EVENTHEADER_NAME_MAX minus the longest "_L<level>K<keyword>G".
        static constexpr size_t NamesMax = EVENTHEADER_NAME_MAX - (sizeof("_LffKffffffffffffffffG") - 1);

        // Declared first, destroyed last: the sets release their references
        // after the provider itself is gone.
        EventSetMap m_eventSets;
        ehd_provider* m_provider; // nullptr only if out of memory.

        // Adds a set created by createSet(m_provider, level, keyword) to the map,
        // or returns the one there. nullptr if out of memory.
        template<class CreateFn>
        std::shared_ptr<EventSet const>
        GetOrCreate(event_level level, uint64_t keyword, CreateFn&& createSet) noexcept
        {
            EventKey const key = { keyword, static_cast<uint8_t>(level) };
            std::pair<EventSetMap::iterator, bool> slot;
            try
            {
                slot = m_eventSets.emplace(key, std::shared_ptr<EventSet const>());
            }
            catch (...)
            {
                return std::shared_ptr<EventSet const>();
            }

            if (!slot.second)
            {
                return slot.first->second;
            }

            ehd_event_set* const set = createSet(m_provider, static_cast<uint8_t>(level), keyword);
            if (set != nullptr)
            {
                try
                {
                    // The library's set is the EventSet (same layout).
                    slot.first->second = std::shared_ptr<EventSet const>(
                        reinterpret_cast<EventSet const*>(ehd_event_set_retain(set)), EventSet::Release());
                    return slot.first->second;
                }
                catch (...)
                {
                    // shared_ptr released the reference.
                }
            }

            m_eventSets.erase(slot.first);
            return std::shared_ptr<EventSet const>();
        }

    public:

        Provider(Provider const&) = delete;
        void operator=(Provider const&) = delete;

        ~Provider()
        {
            ehd_provider_delete(m_provider);
        }

        /*
        Creates and opens a provider.

        - providerName: no '\0', ' ' or ':'; best only ASCII letters, digits and
          '_', e.g. "MyCompany_MyComponent".
        - groupName: "" for none, else ASCII lowercase letters and digits (the
          options string becomes "G<group>").
        - providerName + groupName should be shorter than 234 characters. As the
          reference's header does, a longer provider name is cut to 233
          characters, and the group name to what fits after it (a provider
          name of 233 leaves no group), so that the tracepoint names are the
          reference's. (The C function ehd_provider_new cuts nothing: it
          refuses names too long for a tracepoint name with E2BIG.)

        A provider whose arguments break these rules, or that cannot open (e.g.
        no user_events), still works: Errno() says why and its sets are never
        enabled.
        */
        explicit
        Provider(
            std::string_view providerName,
            std::string_view groupName = std::string_view()) noexcept
            : m_eventSets()
            , m_provider()
        {
            size_t const nameLen = providerName.size() < NamesMax ? providerName.size() : NamesMax - 1;
            size_t const groupRoom = NamesMax - 1 - nameLen;
            size_t const groupLen = groupName.size() < groupRoom ? groupName.size() : groupRoom;
            char options[NamesMax + 1];
            size_t optionsLen = 0;
            if (groupLen != 0)
            {
                options[0] = 'G';
                memcpy(options + 1, groupName.data(), groupLen);
                optionsLen = groupLen + 1;
            }

            options[optionsLen] = '\0';
            m_provider = ehd_provider_new(providerName.data(), nameLen, options, optionsLen);
        }

        /*
        The provider's name.
        */
        std::string_view
        Name() const noexcept
        {
            return ehd_provider_name(m_provider);
        }

        /*
        The options string: "" or "G<group>".
        */
        std::string_view
        Options() const noexcept
        {
            return ehd_provider_options(m_provider);
        }

        /*
        0 if the provider opened, else the errno of opening it (ENOMEM if it
        could not be created). For diagnostics.
        */
        int
        Errno() const noexcept
        {
            return m_provider ? ehd_provider_errno(m_provider) : 12; // ENOMEM
        }

        /*
        Unregisters every event set (they stay valid, disabled for good) and
        empties the list of sets. Destroying the provider does this too.
        */
        void
        Unregister() noexcept
        {
            ehd_provider_unregister(m_provider);
            m_eventSets.clear();
        }

        /*
        The event set of this level and keyword if it was registered (or
        created with CreateUnregistered) since the last Unregister, else nullptr.
        */
        std::shared_ptr<EventSet const>
        FindSet(event_level level, uint64_t keyword) const noexcept
        {
            EventKey const key = { keyword, static_cast<uint8_t>(level) };
            auto const it = m_eventSets.find(key);
            return it == m_eventSets.end() ? std::shared_ptr<EventSet const>() : it->second;
        }

        /*
        The event set of this level and keyword: the existing one, or a new one
        whose tracepoint is registered now. If registration fails, the set is
        still returned (Errno() says why, it is never enabled). nullptr only if
        out of memory.
        */
        std::shared_ptr<EventSet const>
        RegisterSet(event_level level, uint64_t keyword) noexcept
        {
            return GetOrCreate(level, keyword, ehd_provider_register_set);
        }

        /*
        For tests: the existing event set of this level and keyword, or a new
        one that is not registered: Errno() 0, Enabled() == enabled for good,
        writes return EBADF. nullptr only if out of memory.
        */
        std::shared_ptr<EventSet const>
        CreateUnregistered(event_level level, uint64_t keyword, bool enabled = false) noexcept
        {
            return GetOrCreate(level, keyword,
                [enabled](ehd_provider* provider, uint8_t lvl, uint64_t kw) noexcept
                {
                    return ehd_provider_create_unregistered(provider, lvl, kw, enabled);
                });
        }
    };

    /*
    An event or field name for EventBuilder: a std::string_view (or anything
    that converts to one), or a NUL-terminated string, whose length is then
    found once, with no separate scan for a '\0' inside it. Converts
    implicitly; not for storing (it refers to the caller's characters).
    */
    class FieldName
    {
        char const* m_data;
        size_t m_size; // EHD_NTS: NUL-terminated

    public:

        constexpr
        FieldName(char const* name) noexcept
            : m_data(name)
            , m_size(EHD_NTS)
        {
            return;
        }

        constexpr
        FieldName(std::string_view name) noexcept
            : m_data(name.data())
            , m_size(name.size())
        {
            return;
        }

        template<class StrTy, typename std::enable_if<
            std::is_convertible<StrTy const&, std::string_view>::value &&
            !std::is_convertible<StrTy const&, char const*>::value, int>::type = 0>
        FieldName(StrTy const& name) noexcept
            : FieldName(std::string_view(name))
        {
            return;
        }

        constexpr char const*
        data() const noexcept
        {
            return m_data;
        }

        // The length, or EHD_NTS for a NUL-terminated name.
        constexpr size_t
        size() const noexcept
        {
            return m_size;
        }
    };

    /*
    Builds events: Reset(name), then header values and fields, then
    Write(eventSet). Reusable: its buffers keep their memory from event to
    event. One thread at a time.
    */
    class EventBuilder
    {
        // Encodings for values, strings and binary blobs of each element size.
        template<size_t Size>
        struct Encodings
        {
            static constexpr event_field_encoding Value =
                Size == 1 ? event_field_encoding_value8
                : Size == 2 ? event_field_encoding_value16
                : Size == 4 ? event_field_encoding_value32
                : Size == 8 ? event_field_encoding_value64
                : Size == 16 ? event_field_encoding_value128
                : event_field_encoding_invalid;
            static constexpr event_field_encoding Counted =
                Size == 1 ? event_field_encoding_string_length16_char8
                : Size == 2 ? event_field_encoding_string_length16_char16
                : Size == 4 ? event_field_encoding_string_length16_char32
                : event_field_encoding_invalid;
            static constexpr event_field_encoding Zero =
                Size == 1 ? event_field_encoding_zstring_char8
                : Size == 2 ? event_field_encoding_zstring_char16
                : Size == 4 ? event_field_encoding_zstring_char32
                : event_field_encoding_invalid;
            static constexpr event_field_encoding Binary =
                Size == 1 ? event_field_encoding_binary_length16_char8
                : event_field_encoding_invalid;
        };

        template<class T>
        static constexpr bool IsValue =
            std::is_trivially_copyable<T>::value &&
            Encodings<sizeof(T)>::Value != event_field_encoding_invalid;

        template<class T>
        static constexpr bool IsChar =
            std::is_trivially_copyable<T>::value &&
            Encodings<sizeof(T)>::Counted != event_field_encoding_invalid;

        template<class T>
        static constexpr bool IsByte =
            std::is_trivially_copyable<T>::value &&
            Encodings<sizeof(T)>::Binary != event_field_encoding_invalid;

        template<bool Condition>
        using Returns = typename std::enable_if<Condition, EventBuilder&>::type;

        // Inline storage: a typical event's metadata (256 bytes, the
        // extension header and the library's slack) and payload.
        static constexpr size_t MetaRoom = 256 + 16;
        static constexpr size_t DataRoom = 256;

        // The builder (the library's layout) and its first storage: mutable
        // because Write fills in the metadata's extension header.
        mutable _ehd_builder_state m_state;
        mutable unsigned char m_storage[MetaRoom + DataRoom];

        ehd_builder*
        Handle() const noexcept
        {
            return reinterpret_cast<ehd_builder*>(&m_state);
        }

        // An empty builder in this object's storage, never reset (EINVAL).
        void
        Start() noexcept
        {
            m_state.meta = { m_storage, 0, MetaRoom, 0 };
            m_state.data = { m_storage + MetaRoom, 0, DataRoom, 0 };
            m_state.error = 22; // EINVAL
            m_state.id = 0;
            m_state.tag = 0;
            m_state.version = 0;
            m_state.opcode = 0;
            m_state.level = 0;
            m_state.fields_mode = EHD_FIELDS_NORMAL;
            m_state.meta_limit = 0;
            m_state.data_limit = 0;
        }

        // Adds a variable-count array whose elements come from an iterator
        // pair: the field's metadata, a count, then each element's payload
        // from addElement (at most 65535 elements).
        template<class BeginItTy, class EndItTy, class AddElementFn>
        _EHD_ALWAYS_INLINE
        void
        AddRange(
            FieldName fieldName,
            uint8_t encoding,
            event_field_format format,
            uint16_t fieldTag,
            BeginItTy it,
            EndItTy end,
            AddElementFn&& addElement) noexcept
        {
            size_t bookmark = EHD_NO_BOOKMARK;
            ehd_builder_raw_add_meta(Handle(), fieldName.data(), fieldName.size(),
                static_cast<uint8_t>(encoding | event_field_encoding_varray_flag), format, fieldTag, 0);
            ehd_builder_raw_add_count(Handle(), 0, &bookmark);
            uint16_t count = 0;
            for (; it != end && count != UINT16_MAX; ++it)
            {
                addElement(*it);
                count += 1;
            }

            ehd_builder_raw_set_count(Handle(), bookmark, count);
        }

        // One element of a range of strings or blobs (encoding Counted, Zero
        // or Binary): its payload, encoded as the field's.
        template<class CharTy>
        _EHD_ALWAYS_INLINE
        void
        AddStringElement(uint8_t encoding, std::basic_string_view<CharTy> value) noexcept
        {
#ifndef EHD_NO_INLINE
            _ehd_builder_state* const state = _ehd_appendable(Handle());
            if (state != nullptr &&
                _ehd_put_string(state, encoding, sizeof(CharTy), value.data(), value.size()))
            {
                return;
            }
#endif
            ehd_builder_set_fields_mode(Handle(), EHD_FIELDS_PAYLOAD_ONLY);
            ehd_builder_add_string(Handle(), nullptr, 0, encoding, 0, 0, value.data(), value.size());
            ehd_builder_set_fields_mode(Handle(), EHD_FIELDS_NORMAL);
        }

        // Adds a range of strings or blobs (encoding Counted, Zero or Binary).
        template<class CharTy, class BeginItTy, class EndItTy>
        _EHD_ALWAYS_INLINE
        void
        AddStringsRange(
            FieldName fieldName,
            uint8_t encoding,
            event_field_format format,
            uint16_t fieldTag,
            BeginItTy it,
            EndItTy end) noexcept
        {
            AddRange(fieldName, encoding, format, fieldTag, it, end,
                [this, encoding](std::basic_string_view<CharTy> value) noexcept
                {
                    AddStringElement<CharTy>(encoding, value);
                });
        }

    public:

        /*
        A builder whose buffers start with these capacities (they grow as
        needed). Call Reset to start an event.
        */
        explicit
        EventBuilder(uint16_t metaCapacity = 256, uint16_t dataCapacity = 256) noexcept
        {
            Start();
            if (metaCapacity > 256 || dataCapacity > DataRoom)
            {
                _ehd_builder_reserve(Handle(), metaCapacity, dataCapacity);
            }
        }

        EventBuilder(EventBuilder const& other) noexcept
        {
            Start();
            _ehd_builder_copy(Handle(), other.Handle());
        }

        EventBuilder(EventBuilder&& other) noexcept
        {
            Start();
            _ehd_builder_move(Handle(), other.Handle());
        }

        EventBuilder&
        operator=(EventBuilder const& other) noexcept
        {
            if (this != &other)
            {
                _ehd_builder_copy(Handle(), other.Handle());
            }

            return *this;
        }

        EventBuilder&
        operator=(EventBuilder&& other) noexcept
        {
            if (this != &other)
            {
                _ehd_builder_move(Handle(), other.Handle());
            }

            return *this;
        }

        ~EventBuilder()
        {
            if (m_state.meta.owned | m_state.data.owned)
            {
                _ehd_builder_fini(Handle());
            }
        }

        /*
        Starts a new event: clears the previous one, sets its name (no '\0';
        it may carry attributes: "Name;attr=value") and tag (0 for none), opcode
        info, id and version 0.
        */
        _EHD_ALWAYS_INLINE
        EventBuilder&
        Reset(FieldName name, uint16_t tag = 0) noexcept
        {
            ehd_builder_reset(Handle(), name.data(), name.size(), tag);
            return *this;
        }

        /*
        Writes the event to eventSet's tracepoint, with eventSet's level and
        keyword, and with the 16-byte activityId and relatedId (the parent
        activity; needs activityId) if not nullptr. Returns 0 or an errno (see
        the top of this file); the return value is for diagnostics.
        */
        int
        Write(
            EventSet const& eventSet,
            _In_reads_bytes_opt_(16) void const* activityId = nullptr,
            _In_reads_bytes_opt_(16) void const* relatedId = nullptr) const noexcept
        {
            return ehd_builder_write(Handle(), eventSet.Handle(), activityId, relatedId);
        }

        /*
        Sets the event's stable id and version (both 0 after Reset: the event
        is identified by its name). Change the version with the event's schema.
        */
        _EHD_ALWAYS_INLINE
        EventBuilder&
        IdVersion(uint16_t id, uint8_t version) noexcept
        {
            ehd_builder_set_id_version(Handle(), id, version);
            return *this;
        }

        /*
        Sets the event's opcode (info after Reset), e.g. activity_start.
        */
        _EHD_ALWAYS_INLINE
        EventBuilder&
        Opcode(event_opcode opcode) noexcept
        {
            ehd_builder_set_opcode(Handle(), static_cast<uint8_t>(opcode));
            return *this;
        }

        /*
        Sets the event's tag (Reset's tag until then). Not in the reference.
        */
        _EHD_ALWAYS_INLINE
        EventBuilder&
        Tag(uint16_t tag) noexcept
        {
            ehd_builder_set_tag(Handle(), tag);
            return *this;
        }

        /*
        Adds a struct field: the next structFieldCount fields (1 to 127) are its
        members (a nested struct counts as one field of its parent). If the
        count is not known yet, pass 1 and pFieldCountBookmark, then call
        SetStructFieldCount(bookmark, count) after the members.
        */
        _EHD_ALWAYS_INLINE
        EventBuilder&
        AddStruct(
            FieldName fieldName,
            uint8_t structFieldCount,
            uint16_t fieldTag = 0,
            _Out_opt_ size_t* pFieldCountBookmark = nullptr) noexcept
        {
            ehd_builder_add_struct(Handle(), fieldName.data(), fieldName.size(),
                structFieldCount, fieldTag, pFieldCountBookmark);
            return *this;
        }

        /*
        Sets the member count (1 to 127) of the struct whose bookmark AddStruct
        returned since the last Reset.
        */
        _EHD_ALWAYS_INLINE
        EventBuilder&
        SetStructFieldCount(size_t fieldCountBookmark, uint8_t structFieldCount) noexcept
        {
            ehd_builder_set_struct_field_count(Handle(), fieldCountBookmark, structFieldCount);
            return *this;
        }

        /*
        Adds a field holding one value of a trivially-copyable type of 1, 2, 4,
        8 or 16 bytes (value8 ... value128), taken as raw bytes. format tells
        decoders how to show it (default: unsigned for 1-8 bytes, hex for 16;
        signed_int, hex_int, float, boolean, time, errno, pid, port, uuid,
        ip_address, ...). fieldTag: 0 or a provider-defined tag.
        */
        template<class ValTy>
        _EHD_ALWAYS_INLINE
        auto
        AddValue(
            FieldName fieldName,
            ValTy const& fieldValue,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsValue<ValTy>>
        {
            ehd_builder_add_value(Handle(), fieldName.data(), fieldName.size(),
                Encodings<sizeof(ValTy)>::Value, format, fieldTag, std::addressof(fieldValue));
            return *this;
        }

        /*
        Adds a variable-count array of values (as AddValue) from an iterator
        pair, at most 65535 of them. For strings use AddString: an array of
        chars shows as an array of numbers.
        */
        template<class BeginItTy, class EndItTy>
        _EHD_ALWAYS_INLINE
        auto
        AddValueRange(
            FieldName fieldName,
            BeginItTy fieldBeginIterator,
            EndItTy fieldEndIterator,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsValue<typename std::decay<decltype(*fieldBeginIterator)>::type>>
        {
            using ValTy = typename std::decay<decltype(*fieldBeginIterator)>::type;
            constexpr uint8_t encoding = Encodings<sizeof(ValTy)>::Value;
            if constexpr (std::is_pointer<BeginItTy>::value && std::is_same<BeginItTy, EndItTy>::value)
            {
                // Contiguous: one call.
                size_t const count = fieldEndIterator > fieldBeginIterator
                    ? static_cast<size_t>(fieldEndIterator - fieldBeginIterator)
                    : 0;
                ehd_builder_add_values(Handle(), fieldName.data(), fieldName.size(),
                    static_cast<uint8_t>(encoding | event_field_encoding_varray_flag),
                    format, fieldTag, fieldBeginIterator, count);
            }
            else
            {
                AddRange(fieldName, encoding, format, fieldTag, fieldBeginIterator, fieldEndIterator,
                    [this](ValTy const& value) noexcept
                    {
                        ehd_builder_raw_add_data(Handle(), std::addressof(value), sizeof(value));
                    });
            }

            return *this;
        }

        /*
        Adds a counted string (string_length16_char8/16/32) from a
        basic_string_view of 1-, 2- or 4-byte characters (std::string_view,
        u16string_view, u32string_view, wstring_view; or call AddString<char>
        to convert). format: default (UTF), string8 (8-bit only), string_xml,
        string_json, hex_bytes, ...
        */
        template<class CharTy>
        _EHD_ALWAYS_INLINE
        auto
        AddString(
            FieldName fieldName,
            std::basic_string_view<CharTy> fieldValue,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsChar<CharTy>>
        {
            ehd_builder_add_string(Handle(), fieldName.data(), fieldName.size(),
                Encodings<sizeof(CharTy)>::Counted, format, fieldTag, fieldValue.data(), fieldValue.size());
            return *this;
        }

        /*
        Adds a variable-count array of counted strings from an iterator pair
        whose elements convert to basic_string_view<CharTy> (give CharTy:
        AddStringRange<char>(...)).
        */
        template<class CharTy, class BeginItTy, class EndItTy>
        _EHD_ALWAYS_INLINE
        auto
        AddStringRange(
            FieldName fieldName,
            BeginItTy fieldBeginIterator,
            EndItTy fieldEndIterator,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsChar<CharTy> &&
                std::is_convertible<decltype(*fieldBeginIterator), std::basic_string_view<CharTy>>::value>
        {
            AddStringsRange<CharTy>(fieldName, Encodings<sizeof(CharTy)>::Counted, format, fieldTag,
                fieldBeginIterator, fieldEndIterator);
            return *this;
        }

        /*
        Adds a NUL-terminated string (zstring_char8/16/32): the characters of
        fieldValue before its first '\0', then a '\0'. Prefer AddString unless
        the NUL-terminated encoding is needed.
        */
        template<class CharTy>
        _EHD_ALWAYS_INLINE
        auto
        AddNulTerminatedString(
            FieldName fieldName,
            std::basic_string_view<CharTy> fieldValue,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsChar<CharTy>>
        {
            ehd_builder_add_string(Handle(), fieldName.data(), fieldName.size(),
                Encodings<sizeof(CharTy)>::Zero, format, fieldTag, fieldValue.data(), fieldValue.size());
            return *this;
        }

        /*
        Adds a variable-count array of NUL-terminated strings (as
        AddNulTerminatedString) from an iterator pair.
        */
        template<class CharTy, class BeginItTy, class EndItTy>
        _EHD_ALWAYS_INLINE
        auto
        AddNulTerminatedStringRange(
            FieldName fieldName,
            BeginItTy fieldBeginIterator,
            EndItTy fieldEndIterator,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsChar<CharTy> &&
                std::is_convertible<decltype(*fieldBeginIterator), std::basic_string_view<CharTy>>::value>
        {
            AddStringsRange<CharTy>(fieldName, Encodings<sizeof(CharTy)>::Zero, format, fieldTag,
                fieldBeginIterator, fieldEndIterator);
            return *this;
        }

        /*
        Adds a binary blob (binary_length16_char8) from a basic_string_view of
        bytes. format: default (hex bytes), or a string or value format (an
        empty blob then reads as null).
        */
        template<class CharTy>
        _EHD_ALWAYS_INLINE
        auto
        AddBinary(
            FieldName fieldName,
            std::basic_string_view<CharTy> fieldValue,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsByte<CharTy>>
        {
            ehd_builder_add_string(Handle(), fieldName.data(), fieldName.size(),
                Encodings<sizeof(CharTy)>::Binary, format, fieldTag, fieldValue.data(), fieldValue.size());
            return *this;
        }

        /*
        Adds a variable-count array of binary blobs from an iterator pair
        (give CharTy: AddBinaryRange<char>(...)).
        */
        template<class CharTy, class BeginItTy, class EndItTy>
        _EHD_ALWAYS_INLINE
        auto
        AddBinaryRange(
            FieldName fieldName,
            BeginItTy fieldBeginIterator,
            EndItTy fieldEndIterator,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsByte<CharTy> &&
                std::is_convertible<decltype(*fieldBeginIterator), std::basic_string_view<CharTy>>::value>
        {
            AddStringsRange<CharTy>(fieldName, Encodings<sizeof(CharTy)>::Binary, format, fieldTag,
                fieldBeginIterator, fieldEndIterator);
            return *this;
        }

        /*
        Advanced: adds a field's metadata (encoding without array flags) and no
        payload; add the payload with RawAddDataValue(s). Wrong combinations
        make events that do not decode.
        */
        _EHD_ALWAYS_INLINE
        EventBuilder&
        RawAddMetaScalar(
            FieldName fieldName,
            event_field_encoding encoding,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
        {
            ehd_builder_raw_add_meta(Handle(), fieldName.data(), fieldName.size(),
                static_cast<uint8_t>(encoding), static_cast<uint8_t>(format), fieldTag, 0);
            return *this;
        }

        /*
        Advanced: adds the metadata of a variable-count array field (encoding
        without array flags) and no payload: add the uint16_t count and the
        elements with RawAddDataValue(s).
        */
        _EHD_ALWAYS_INLINE
        EventBuilder&
        RawAddMetaVcount(
            FieldName fieldName,
            event_field_encoding encoding,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
        {
            ehd_builder_raw_add_meta(Handle(), fieldName.data(), fieldName.size(),
                static_cast<uint8_t>(encoding | event_field_encoding_varray_flag),
                static_cast<uint8_t>(format), fieldTag, 0);
            return *this;
        }

        /*
        Advanced: appends the bytes of a value to the payload.
        */
        template<class ValTy>
        _EHD_ALWAYS_INLINE
        EventBuilder&
        RawAddDataValue(ValTy const& fieldValue) noexcept
        {
            ehd_builder_raw_add_data(Handle(), std::addressof(fieldValue), sizeof(fieldValue));
            return *this;
        }

        /*
        Advanced: appends the bytes of count values to the payload.
        */
        template<class ValTy>
        _EHD_ALWAYS_INLINE
        EventBuilder&
        RawAddDataValues(_In_reads_(count) ValTy const* values, uint16_t count) noexcept
        {
            ehd_builder_raw_add_data(Handle(), values, sizeof(ValTy) * count);
            return *this;
        }
    };

    /*
    True if eventSet is not null and enabled (RegisterSet returns null only
    when out of memory).
    */
    inline bool
    Enabled(std::shared_ptr<EventSet const> const& eventSet) noexcept
    {
        return eventSet && eventSet->Enabled();
    }

    /*
    True if eventSet is not null and enabled.
    */
    inline bool
    Enabled(EventSet const* eventSet) noexcept
    {
        return eventSet && eventSet->Enabled();
    }

    /*
    A 16-byte value for AddValue / AddValueRange (a GUID, an IPv6 address):
    eb.AddValue("id", *(ehd::Value128 const*)bytes16, event_field_format_uuid).
    */
    struct Value128
    {
        char Data[16];
    };
}
// namespace ehd

#endif // _included_EventHeaderDynamic_h
