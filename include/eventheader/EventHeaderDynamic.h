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

Implementation: every class is a thin inline wrapper over the C API of
eventheader-dynamic.h (the library's ehd_* functions), so C, C++ and other
languages share one encoder. Differences from the reference, all for input the
reference documents as a precondition violation (it asserts, and in release
builds writes a malformed or incomplete event): here such input (a name with
'\0', a struct field count of 0 or over 127, an invalid group name, a related
id without an activity id) makes the provider fail or the event's Write return
EINVAL, and Write on a builder that was never Reset returns EINVAL (the
reference: ENOMEM). EventBuilder::Tag is an addition.

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
    */
    class EventSet
    {
        friend class Provider;
        friend class EventBuilder;

        ehd_event_set* m_set; // One reference held; nullptr for a placeholder.

        explicit
        EventSet(ehd_event_set* retainedSet) noexcept
            : m_set(retainedSet)
        {
            return;
        }

    public:

        EventSet(EventSet const&) = delete;
        void operator=(EventSet const&) = delete;

        /*
        A placeholder set that is never enabled: Enabled() is false, Errno()
        is EINVAL, and writing to it returns EBADF.
        */
        constexpr
        EventSet() noexcept
            : m_set(nullptr)
        {
            return;
        }

        ~EventSet()
        {
            ehd_event_set_release(m_set);
        }

        /*
        True if a collector listens to this set's tracepoint. One inline load.
        */
        bool
        Enabled() const noexcept
        {
            return EHD_EVENT_SET_ENABLED(m_set) != 0;
        }

        /*
        0 if the set's tracepoint was registered, else why not (the errno of the
        registration or of opening the provider; EINVAL for a placeholder).
        For diagnostics.
        */
        int
        Errno() const noexcept
        {
            return ehd_event_set_errno(m_set);
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
            EventSet* const wrapper = set == nullptr
                ? nullptr
                : new (std::nothrow) EventSet(ehd_event_set_retain(set));
            if (wrapper != nullptr)
            {
                try
                {
                    slot.first->second = std::shared_ptr<EventSet const>(wrapper);
                    return slot.first->second;
                }
                catch (...)
                {
                    // shared_ptr deleted the wrapper, which released the set.
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
        - providerName + groupName must be shorter than 234 characters.

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
            char options[EVENTHEADER_NAME_MAX];
            size_t optionsLen = 0;
            if (!groupName.empty())
            {
                // Longer groups cannot fit a tracepoint name: the provider fails
                // with E2BIG either way.
                size_t const groupLen = groupName.size() < sizeof(options) - 2
                    ? groupName.size()
                    : sizeof(options) - 2;
                options[0] = 'G';
                memcpy(options + 1, groupName.data(), groupLen);
                optionsLen = groupLen + 1;
            }

            options[optionsLen] = '\0';
            m_provider = ehd_provider_new(providerName.data(), providerName.size(), options, optionsLen);
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

        ehd_builder* m_builder; // nullptr if out of memory (or moved from).

        // Adds a variable-count array whose elements come from an iterator
        // pair: the field's metadata, a count, then each element's payload
        // from addElement (at most 65535 elements).
        template<class BeginItTy, class EndItTy, class AddElementFn>
        void
        AddRange(
            std::string_view fieldName,
            uint8_t encoding,
            event_field_format format,
            uint16_t fieldTag,
            BeginItTy it,
            EndItTy end,
            AddElementFn&& addElement) noexcept
        {
            size_t bookmark;
            ehd_builder_raw_add_meta(m_builder, fieldName.data(), fieldName.size(),
                static_cast<uint8_t>(encoding | event_field_encoding_varray_flag), format, fieldTag, 0);
            ehd_builder_raw_add_count(m_builder, 0, &bookmark);
            uint16_t count = 0;
            for (; it != end && count != UINT16_MAX; ++it)
            {
                addElement(*it);
                count += 1;
            }

            ehd_builder_raw_set_count(m_builder, bookmark, count);
        }

        // Adds a range of strings or blobs (encoding Counted, Zero or Binary).
        template<class CharTy, class BeginItTy, class EndItTy>
        void
        AddStringsRange(
            std::string_view fieldName,
            uint8_t encoding,
            event_field_format format,
            uint16_t fieldTag,
            BeginItTy it,
            EndItTy end) noexcept
        {
            ehd_builder* const builder = m_builder;
            AddRange(fieldName, encoding, format, fieldTag, it, end,
                [builder, encoding](std::basic_string_view<CharTy> value) noexcept
                {
                    // The element's payload, encoded as the field's.
                    ehd_builder_set_fields_mode(builder, EHD_FIELDS_PAYLOAD_ONLY);
                    ehd_builder_add_string(builder, nullptr, 0, encoding, 0, 0, value.data(), value.size());
                    ehd_builder_set_fields_mode(builder, EHD_FIELDS_NORMAL);
                });
        }

    public:

        /*
        A builder whose buffers start with these capacities (they grow as
        needed). Call Reset to start an event.
        */
        explicit
        EventBuilder(uint16_t metaCapacity = 256, uint16_t dataCapacity = 256) noexcept
            : m_builder(ehd_builder_new(metaCapacity, dataCapacity))
        {
            return;
        }

        EventBuilder(EventBuilder const& other) noexcept
            : m_builder(ehd_builder_clone(other.m_builder))
        {
            return;
        }

        EventBuilder(EventBuilder&& other) noexcept
            : m_builder(other.m_builder)
        {
            other.m_builder = nullptr;
        }

        EventBuilder&
        operator=(EventBuilder const& other) noexcept
        {
            if (this != &other)
            {
                ehd_builder* const copy = ehd_builder_clone(other.m_builder);
                ehd_builder_delete(m_builder);
                m_builder = copy;
            }

            return *this;
        }

        EventBuilder&
        operator=(EventBuilder&& other) noexcept
        {
            std::swap(m_builder, other.m_builder);
            return *this;
        }

        ~EventBuilder()
        {
            ehd_builder_delete(m_builder);
        }

        /*
        Starts a new event: clears the previous one, sets its name (no '\0';
        it may carry attributes: "Name;attr=value") and tag (0 for none), opcode
        info, id and version 0.
        */
        EventBuilder&
        Reset(std::string_view name, uint16_t tag = 0) noexcept
        {
            ehd_builder_reset(m_builder, name.data(), name.size(), tag);
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
            return m_builder
                ? ehd_builder_write(m_builder, eventSet.m_set, activityId, relatedId)
                : 12; // ENOMEM
        }

        /*
        Sets the event's stable id and version (both 0 after Reset: the event
        is identified by its name). Change the version with the event's schema.
        */
        EventBuilder&
        IdVersion(uint16_t id, uint8_t version) noexcept
        {
            ehd_builder_set_id_version(m_builder, id, version);
            return *this;
        }

        /*
        Sets the event's opcode (info after Reset), e.g. activity_start.
        */
        EventBuilder&
        Opcode(event_opcode opcode) noexcept
        {
            ehd_builder_set_opcode(m_builder, static_cast<uint8_t>(opcode));
            return *this;
        }

        /*
        Sets the event's tag (Reset's tag until then). Not in the reference.
        */
        EventBuilder&
        Tag(uint16_t tag) noexcept
        {
            ehd_builder_set_tag(m_builder, tag);
            return *this;
        }

        /*
        Adds a struct field: the next structFieldCount fields (1 to 127) are its
        members (a nested struct counts as one field of its parent). If the
        count is not known yet, pass 1 and pFieldCountBookmark, then call
        SetStructFieldCount(bookmark, count) after the members.
        */
        EventBuilder&
        AddStruct(
            std::string_view fieldName,
            uint8_t structFieldCount,
            uint16_t fieldTag = 0,
            _Out_opt_ size_t* pFieldCountBookmark = nullptr) noexcept
        {
            ehd_builder_add_struct(m_builder, fieldName.data(), fieldName.size(),
                structFieldCount, fieldTag, pFieldCountBookmark);
            return *this;
        }

        /*
        Sets the member count (1 to 127) of the struct whose bookmark AddStruct
        returned since the last Reset.
        */
        EventBuilder&
        SetStructFieldCount(size_t fieldCountBookmark, uint8_t structFieldCount) noexcept
        {
            ehd_builder_set_struct_field_count(m_builder, fieldCountBookmark, structFieldCount);
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
        auto
        AddValue(
            std::string_view fieldName,
            ValTy const& fieldValue,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsValue<ValTy>>
        {
            ehd_builder_add_value(m_builder, fieldName.data(), fieldName.size(),
                Encodings<sizeof(ValTy)>::Value, format, fieldTag, std::addressof(fieldValue));
            return *this;
        }

        /*
        Adds a variable-count array of values (as AddValue) from an iterator
        pair, at most 65535 of them. For strings use AddString: an array of
        chars shows as an array of numbers.
        */
        template<class BeginItTy, class EndItTy>
        auto
        AddValueRange(
            std::string_view fieldName,
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
                ehd_builder_add_values(m_builder, fieldName.data(), fieldName.size(),
                    static_cast<uint8_t>(encoding | event_field_encoding_varray_flag),
                    format, fieldTag, fieldBeginIterator, count);
            }
            else
            {
                ehd_builder* const builder = m_builder;
                AddRange(fieldName, encoding, format, fieldTag, fieldBeginIterator, fieldEndIterator,
                    [builder](ValTy const& value) noexcept
                    {
                        ehd_builder_raw_add_data(builder, std::addressof(value), sizeof(value));
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
        auto
        AddString(
            std::string_view fieldName,
            std::basic_string_view<CharTy> fieldValue,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsChar<CharTy>>
        {
            ehd_builder_add_string(m_builder, fieldName.data(), fieldName.size(),
                Encodings<sizeof(CharTy)>::Counted, format, fieldTag, fieldValue.data(), fieldValue.size());
            return *this;
        }

        /*
        Adds a variable-count array of counted strings from an iterator pair
        whose elements convert to basic_string_view<CharTy> (give CharTy:
        AddStringRange<char>(...)).
        */
        template<class CharTy, class BeginItTy, class EndItTy>
        auto
        AddStringRange(
            std::string_view fieldName,
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
        auto
        AddNulTerminatedString(
            std::string_view fieldName,
            std::basic_string_view<CharTy> fieldValue,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsChar<CharTy>>
        {
            ehd_builder_add_string(m_builder, fieldName.data(), fieldName.size(),
                Encodings<sizeof(CharTy)>::Zero, format, fieldTag, fieldValue.data(), fieldValue.size());
            return *this;
        }

        /*
        Adds a variable-count array of NUL-terminated strings (as
        AddNulTerminatedString) from an iterator pair.
        */
        template<class CharTy, class BeginItTy, class EndItTy>
        auto
        AddNulTerminatedStringRange(
            std::string_view fieldName,
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
        auto
        AddBinary(
            std::string_view fieldName,
            std::basic_string_view<CharTy> fieldValue,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
            -> Returns<IsByte<CharTy>>
        {
            ehd_builder_add_string(m_builder, fieldName.data(), fieldName.size(),
                Encodings<sizeof(CharTy)>::Binary, format, fieldTag, fieldValue.data(), fieldValue.size());
            return *this;
        }

        /*
        Adds a variable-count array of binary blobs from an iterator pair
        (give CharTy: AddBinaryRange<char>(...)).
        */
        template<class CharTy, class BeginItTy, class EndItTy>
        auto
        AddBinaryRange(
            std::string_view fieldName,
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
        EventBuilder&
        RawAddMetaScalar(
            std::string_view fieldName,
            event_field_encoding encoding,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
        {
            ehd_builder_raw_add_meta(m_builder, fieldName.data(), fieldName.size(),
                static_cast<uint8_t>(encoding), static_cast<uint8_t>(format), fieldTag, 0);
            return *this;
        }

        /*
        Advanced: adds the metadata of a variable-count array field (encoding
        without array flags) and no payload: add the uint16_t count and the
        elements with RawAddDataValue(s).
        */
        EventBuilder&
        RawAddMetaVcount(
            std::string_view fieldName,
            event_field_encoding encoding,
            event_field_format format,
            uint16_t fieldTag = 0) noexcept
        {
            ehd_builder_raw_add_meta(m_builder, fieldName.data(), fieldName.size(),
                static_cast<uint8_t>(encoding | event_field_encoding_varray_flag),
                static_cast<uint8_t>(format), fieldTag, 0);
            return *this;
        }

        /*
        Advanced: appends the bytes of a value to the payload.
        */
        template<class ValTy>
        EventBuilder&
        RawAddDataValue(ValTy const& fieldValue) noexcept
        {
            ehd_builder_raw_add_data(m_builder, std::addressof(fieldValue), sizeof(fieldValue));
            return *this;
        }

        /*
        Advanced: appends the bytes of count values to the payload.
        */
        template<class ValTy>
        EventBuilder&
        RawAddDataValues(_In_reads_(count) ValTy const* values, uint16_t count) noexcept
        {
            ehd_builder_raw_add_data(m_builder, values, sizeof(ValTy) * count);
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
