/*
TraceLoggingActivity.h (windows-compat): the TraceLogging activity classes and
macros of the Windows SDK header of this name, for C++ code ported from Windows.
Include it after (or instead of) <TraceLoggingProvider.h>, with
include/windows-compat on the include path. C++11 or later.

An activity is a unit of work whose events share a random 16-byte activity id;
its start event may carry the id of a related (parent) activity. They are
EventHeader activity id extensions, which eventheader decode prints under the
JSON keys "activity" and "relatedActivity".

    TRACELOGGING_DEFINE_PROVIDER(g_hProvider, "MyCompany_MyComponent", (...));

    void Work()
    {
        TraceLoggingActivity<g_hProvider, MY_KEYWORD, WINEVENT_LEVEL_INFO> activity;
        TraceLoggingWriteStart(activity, "WorkStart", TraceLoggingInt32(42, "size"));
        TraceLoggingWriteTagged(activity, "Step", TraceLoggingInt32(1, "step"));
        TraceLoggingWriteStop(activity, "WorkStop", TraceLoggingHResult(S_OK, "result"));
    }

Classes (template parameters: the provider, then UINT64 keyword = 0, UINT8
level = 5 (verbose), and an ignored tag type, TlgReflectorTag, as on Windows):

- TraceLoggingActivity<provider, keyword, level>: an activity whose events name
  it explicitly (TraceLoggingWriteStart, TraceLoggingWriteTagged,
  TraceLoggingWriteStop). Members: Id() (a GUID const*: the activity id, zero
  until the start), IsStarted() (true from the start to the stop), Provider()
  (the TraceLoggingHProvider), SetRelatedActivity(otherActivity),
  SetRelatedActivityId(GUID const&) and SetRelatedActivityId(GUID const*) (the
  related id of the start event; NULL or a zero GUID for none), the constants
  Keyword and Level, the move constructor (the new object takes the activity
  over; the moved-from one is ended and writes nothing).
- TraceLoggingThreadActivity<provider, keyword, level>: the same without the
  SetRelated* methods; while it runs (start to stop) it is the thread's
  activity: every TraceLoggingWrite on this thread, in C or C++, without an
  activity id of its own, carries its id. It nests: its start event's related
  id is the thread's activity id before it, which its stop restores.
- TraceLoggingThreadActivityIdSetter(GUID const&) / (GUID const*): makes the
  GUID the thread's activity id for the object's lifetime (NULL or a zero
  GUID: none), then restores the previous one.

Macros (fields and options as for TraceLoggingWrite; each yields an int: 0 or
the errno of the write, EALREADY for a start of an activity that was started
before, EINVAL for a stop or tagged event of one that is not running, which
then write nothing):

- TraceLoggingWriteStart(activity, "Name", args...): starts the activity, which
  gets a new id (random, never zero), and writes its start event: opcode 1
  (start), the activity's level and keyword, its id and the related id if there
  is one.
- TraceLoggingWriteTagged(activity, "Name", args...): an event with the
  activity's id, and the level, keyword and opcode of its own args (default: 5,
  0, 0).
- TraceLoggingWriteStop(activity, "Name", args...): writes the stop event
  (opcode 2, the activity's level, keyword and id) and ends the activity.
- TraceLoggingFunction(provider, args...): at the top of a function: a
  TraceLoggingThreadActivity whose start event, written here, and stop event,
  written when the enclosing scope ends, are named after the function
  (__func__); a TraceLoggingLevel and TraceLoggingKeyword among the args are
  its level and keyword, the other args go to the start event. One per scope.

An activity destroyed while running writes a stop event named "ActivityStop".
Its events follow the registration and enablement rules of TraceLoggingWrite
with the same provider: a provider symbol's call sites are registered by
TraceLoggingRegister, a handle's when they first run. Writing the events of an
activity costs what TraceLoggingWrite costs; a disabled start creates the id
(no system call: a keyed mix of a counter, the key read from getrandom once
per process).

Differences from Windows:
- The provider template argument is a provider symbol (the name given to
  TRACELOGGING_DEFINE_PROVIDER or TRACELOGGING_DECLARE_PROVIDER); from C++17
  on, also a TraceLoggingHProvider variable (e.g. the handle of a
  TRACELOGGING_DEFINE_PROVIDER_STORAGE provider).
- The thread's activity id is this library's, not the operating system's:
  there is no EventActivityIdControl, and the id is carried by TraceLogging
  events only (TraceLoggingWrite, and TraceLoggingWriteActivity with a NULL
  activity id), not by events written with eventheader_write or
  EventHeaderDynamic.h. The id of a running thread activity stays with the
  thread that started it: a stop on another thread, or out of nesting order,
  leaves that thread's id as it is (Windows asserts in debug builds); the
  thread never gets an ended activity's id back: when an activity stopped
  out of order (the last 8 per thread are remembered) would come back at
  the stop of the one nested in it, or at the end of a
  TraceLoggingThreadActivityIdSetter, the id it replaced comes back instead.
- The thread's activity id is held by the copy of the library the code
  calls: a program linked with the static library and a plugin linked with
  the shared one are two copies, whose events carry each its own (link both
  with the shared library).
- An exception thrown while TraceLoggingWriteStart evaluates its fields
  leaves the activity new (no start event, so no stop event either: its
  destructor writes none) and the thread's activity id as it was.
- Misuse writes nothing instead of asserting (see the macros' results).
- TraceLoggingFunction names its events with __func__, the unqualified
  function name (Windows: __FUNCTION__, qualified by class and namespace).
- The stop event an activity writes when destroyed running is named
  "ActivityStop". A TraceLoggingLevel, TraceLoggingKeyword or
  TraceLoggingOpcode given to TraceLoggingWriteStart or TraceLoggingWriteStop
  (which Windows says not to do) overrides the activity's level and opcode;
  keywords are OR'ed. Levels are 1..255, as for TraceLoggingLevel.
*/
#pragma once
#ifndef _included_windows_compat_TraceLoggingActivity_h
#define _included_windows_compat_TraceLoggingActivity_h 1

#ifndef __cplusplus
#error "TraceLoggingActivity.h is C++ (C code writes activity ids with TraceLoggingWriteActivity)"
#endif

#include "TraceLoggingProvider.h"

/*
The provider template parameter: a reference to the provider symbol (an array
of one provider); from C++17 on, a reference to a provider symbol or to a
TraceLoggingHProvider variable.
*/
#if defined(__cpp_nontype_template_parameter_auto) && __cpp_nontype_template_parameter_auto >= 201606L
#define _tlgACTIVITY_PROVIDER auto& _tlgProviderArg
template<class T>
struct _tlgIsProviderRef {
    static constexpr bool value = false;
};
template<>
struct _tlgIsProviderRef<struct _tlgProvider(&)[1]> {
    static constexpr bool value = true;
};
template<>
struct _tlgIsProviderRef<TraceLoggingHProvider const&> {
    static constexpr bool value = true;
};
template<>
struct _tlgIsProviderRef<TraceLoggingHProvider&> {
    static constexpr bool value = true;
};
#define _tlgACTIVITY_PROVIDER_CHECK \
    static_assert(_tlgIsProviderRef<decltype(_tlgProviderArg)>::value, \
        "TraceLoggingActivity: the provider must be a provider symbol or a TraceLoggingHProvider variable");
#else
#define _tlgACTIVITY_PROVIDER struct _tlgProvider(&_tlgProviderArg)[1]
#define _tlgACTIVITY_PROVIDER_CHECK
#endif

/* The default of the ignored fourth template parameter, as on Windows. */
struct _TlgReflectorTag_Param0IsHProvider;

/*==== The macros ===========================================================*/

/*
As in TraceLoggingProvider.h, the macros take "..." only and pass their
arguments on followed by the sentinel "~" (no variadic macro is invoked
without a variadic argument): "args..." below are the event's options and
fields followed by "~", as _tlgWRITE takes them.
*/
#define TraceLoggingWriteStart(...) _tlgWRITE_START(__VA_ARGS__, ~)
#define TraceLoggingWriteTagged(...) _tlgWRITE_TAGGED(__VA_ARGS__, ~)
#define TraceLoggingWriteStop(...) _tlgWRITE_STOP(__VA_ARGS__, ~)

/* The activity runs once its start event is written: an exception thrown
   while the event's fields are evaluated leaves it new, and the thread's
   activity id as it was (_tlgStarting's destructor), so that no stop event
   follows a start event that was never written. */
#define _tlgWRITE_START(activity, eventName, ...) __extension__ ({ \
    auto& _tlgA = (activity); \
    int _tlgR = EALREADY; \
    if (_tlgA._tlgStart()) { \
        ::_tlgStarting<_tlgACTIVITY_T(_tlgA)> const _tlgS = { _tlgA }; \
        _tlgR = _tlgWRITE(_tlgACTIVITY_T(_tlgA)::_tlgProvider(), eventName, _tlgA.Id(), _tlgA._tlgRelatedId(), \
            _tlgACTIVITY_ARGS(event_opcode_activity_start, _tlgA, __VA_ARGS__)); \
        _tlgA._tlgStarted(); \
    } \
    _tlgR; \
    })

#define _tlgWRITE_TAGGED(activity, eventName, ...) __extension__ ({ \
    auto& _tlgA = (activity); \
    int _tlgR = EINVAL; \
    if (_tlgA.IsStarted()) { \
        _tlgR = _tlgWRITE(_tlgACTIVITY_T(_tlgA)::_tlgProvider(), eventName, _tlgA.Id(), NULL, __VA_ARGS__); \
    } \
    _tlgR; \
    })

#define _tlgWRITE_STOP(activity, eventName, ...) __extension__ ({ \
    auto& _tlgA = (activity); \
    int _tlgR = EINVAL; \
    if (_tlgA.IsStarted()) { \
        _tlgR = _tlgWRITE(_tlgACTIVITY_T(_tlgA)::_tlgProvider(), eventName, _tlgA.Id(), NULL, \
            _tlgACTIVITY_ARGS(event_opcode_activity_stop, _tlgA, __VA_ARGS__)); \
        _tlgA._tlgStop(); \
    } \
    _tlgR; \
    })

/* The start or stop event's args: its opcode, the activity's level and
   keyword, then the args given (and the sentinel). */
#define _tlgACTIVITY_ARGS(opcode, a, ...) \
    TraceLoggingOpcode(opcode), TraceLoggingLevel(_tlgACTIVITY_T(a)::Level), \
    TraceLoggingKeyword(_tlgACTIVITY_T(a)::Keyword), __VA_ARGS__

/*
TraceLoggingFunction: the function's name as a constant (_tlgName), the level
and keyword of the args, the thread activity, an object whose destructor
writes the stop event, and the start event.
*/
#define TraceLoggingFunction(...) _tlgFUNCTION_X(__VA_ARGS__, ~)
#define _tlgFUNCTION_X(hProvider, ...) \
    _tlgFUNCTION_N(hProvider, _tlgNARGS(__VA_ARGS__), _tlgNARGS1(__VA_ARGS__), __VA_ARGS__)
#define _tlgFUNCTION_N(hProvider, n, n1, ...) _tlgFUNCTION_IMPL(hProvider, n, n1, __VA_ARGS__)
#define _tlgFUNCTION_IMPL(hProvider, n, n1, ...) \
    static constexpr auto _tlgFnName = ::_tlgFunctionName(__func__); \
    struct _tlgFnOptions { \
        _tlgOPTIONS_ENUM(n, n1, __VA_ARGS__) \
        enum : uint64_t { _tlgKeyword = _tlgOPTIONS_KEYWORD(n, __VA_ARGS__) }; \
    }; \
    TraceLoggingThreadActivity<hProvider, _tlgFnOptions::_tlgKeyword, _tlgFnOptions::_tlgLv1> _tlgFnActivity; \
    struct __attribute__((visibility("hidden"))) _tlgFnStop { \
        decltype(_tlgFnActivity)& _tlgActivity; \
        ~_tlgFnStop() { (void)TraceLoggingWriteStop(_tlgActivity, (_tlgFnName)); } \
    } const _tlgFnStopper = { _tlgFnActivity }; \
    (void)_tlgWRITE_START(_tlgFnActivity, (_tlgFnName), __VA_ARGS__)

/*
What the two activity classes share: the ids and the state. The members named
_tlg* are for this header's macros.
*/
class _tlgActivityBase {
public:
    /* The activity id: zero until the activity starts. */
    GUID const* Id() const noexcept { return &m_id; }
    /* True while the activity runs: from its start to its stop. */
    bool IsStarted() const noexcept { return m_state == _tlgRunning; }

    _tlgActivityBase(_tlgActivityBase const&) = delete;
    _tlgActivityBase& operator=(_tlgActivityBase const&) = delete;
    _tlgActivityBase& operator=(_tlgActivityBase&&) = delete;

    /* The start: a new id, starting (running once _tlgStarted is called,
       after its start event). False (and nothing changes) unless the
       activity is new. */
    bool _tlgStart() noexcept
    {
        uint8_t id[16];
        if (m_state != _tlgNew) {
            return false;
        }
        _eventheader_tlg_activity_id_create(id);
        _tlgGuidToUuid(reinterpret_cast<uint8_t*>(&m_id), id);
        m_state = _tlgStartingState;
        return true;
    }
    void _tlgStarted() noexcept { m_state = _tlgRunning; }
    /* A start whose event was never written (an exception): new again. */
    void _tlgStartFailed() noexcept
    {
        if (m_state == _tlgStartingState) {
            m_state = _tlgNew;
            m_id = GUID();
        }
    }
    void _tlgStop() noexcept { m_state = _tlgEnded; }
    /* The related id of the start event, or NULL. */
    GUID const* _tlgRelatedId() const noexcept { return m_hasRelated ? &m_related : NULL; }

protected:
    enum _tlgState : unsigned char { _tlgNew, _tlgStartingState, _tlgRunning, _tlgEnded };

    _tlgActivityBase() noexcept
        : m_id(), m_related(), m_hasRelated(false), m_state(_tlgNew)
    {
    }
    /* Takes rhs's activity over; rhs is ended. */
    _tlgActivityBase(_tlgActivityBase&& rhs) noexcept
        : m_id(rhs.m_id), m_related(rhs.m_related), m_hasRelated(rhs.m_hasRelated), m_state(rhs.m_state)
    {
        rhs.m_state = _tlgEnded;
    }
    ~_tlgActivityBase() = default;

    /* Sets the related id to *id (NULL or a zero GUID: none). */
    void _tlgSetRelated(GUID const* id) noexcept
    {
        static GUID const zero = GUID();
        m_hasRelated = id != NULL && memcmp(id, &zero, sizeof(GUID)) != 0;
        m_related = m_hasRelated ? *id : zero;
    }

    GUID m_id;
    GUID m_related;
    bool m_hasRelated;
    _tlgState m_state;
};

/* Undoes a start whose event was not written (see _tlgWRITE_START). */
template<class A>
struct _tlgStarting {
    A& _tlgActivity;
    ~_tlgStarting() { _tlgActivity._tlgStartFailed(); }
};

/*
The ids of thread activities stopped out of nesting order on this thread (an
outer one before an inner one), each with the id its stop would have given
the thread back. The stop of the inner one gives back, instead of the id of
an activity that has ended, the id that one would have: the thread never
carries an ended activity's id. Ids, not pointers: an activity stopped on
another thread, or destroyed, leaves nothing dangling. The last 8 are kept.
*/
struct _tlgEndedThreadIds {
    struct Entry {
        uint8_t id[16];
        uint8_t back[16];
        bool hasBack;
        bool used;
    } entries[8];
    unsigned next;
};

inline _tlgEndedThreadIds& _tlgEndedIds() noexcept
{
    static thread_local _tlgEndedThreadIds ids;
    return ids;
}

/* Remembers that the activity `id` ended out of order, and the id it would
   have given back (NULL: none). */
inline void _tlgThreadIdEnded(uint8_t const* id, uint8_t const* back) noexcept
{
    _tlgEndedThreadIds& ids = _tlgEndedIds();
    _tlgEndedThreadIds::Entry& e = ids.entries[ids.next % 8];
    ids.next += 1;
    memcpy(e.id, id, 16);
    e.hasBack = back != NULL;
    if (back != NULL) {
        memcpy(e.back, back, 16);
    }
    e.used = true;
}

/* Makes `id` (NULL: none) the thread's activity id again, or, if that
   activity ended out of order, the id it would have given back. */
inline void _tlgThreadIdBack(uint8_t const* id) noexcept
{
    _tlgEndedThreadIds& ids = _tlgEndedIds();
    uint8_t current[16];
    bool has = id != NULL;
    if (has) {
        memcpy(current, id, 16);
    }
    for (unsigned hops = 0; has && hops < 8; hops += 1) {
        _tlgEndedThreadIds::Entry* found = NULL;
        for (unsigned i = 0; i < 8 && found == NULL; i += 1) {
            if (ids.entries[i].used && memcmp(ids.entries[i].id, current, 16) == 0) {
                found = &ids.entries[i];
            }
        }
        if (found == NULL) {
            break;
        }
        found->used = false;
        has = found->hasBack;
        memcpy(current, found->back, 16);
    }
    _eventheader_tlg_thread_activity_set(has ? current : NULL);
}

/* The activity class of an activity (reference): its Level, Keyword and provider. */
template<class A>
struct _tlgActivityOf {
    typedef A type;
};
template<class A>
struct _tlgActivityOf<A&> {
    typedef A type;
};
#define _tlgACTIVITY_T(a) ::_tlgActivityOf<decltype(a)>::type

/* The members both class templates add to the base. */
#define _tlgACTIVITY_MEMBERS(className) \
public: \
    _tlgACTIVITY_PROVIDER_CHECK \
    static constexpr UINT64 Keyword = keyword; \
    static constexpr UINT8 Level = level; \
    className() noexcept = default; \
    className(className&& rhs) noexcept : _tlgActivityBase(static_cast<_tlgActivityBase&&>(rhs)) {} \
    /* A running activity writes its stop event. */ \
    ~className() noexcept \
    { \
        if (IsStarted()) { \
            (void)TraceLoggingWriteStop(*this, "ActivityStop"); \
        } \
    } \
    TraceLoggingHProvider Provider() const noexcept { return _tlgProvider(); } \
    static constexpr decltype(_tlgProviderArg)& _tlgProvider() noexcept { return _tlgProviderArg; }

template<_tlgACTIVITY_PROVIDER, UINT64 keyword = 0, UINT8 level = event_level_verbose,
    class TlgReflectorTag = _TlgReflectorTag_Param0IsHProvider>
class TraceLoggingActivity : public _tlgActivityBase {
    _tlgACTIVITY_MEMBERS(TraceLoggingActivity)

    /* The related activity of the start event: relatedActivity's id (none if
       it has not started). */
    template<class RelatedActivity>
    void SetRelatedActivity(RelatedActivity const& relatedActivity) noexcept
    {
        _tlgSetRelated(relatedActivity.Id());
    }
    void SetRelatedActivityId(GUID const& relatedActivityId) noexcept { _tlgSetRelated(&relatedActivityId); }
    void SetRelatedActivityId(GUID const* relatedActivityId) noexcept { _tlgSetRelated(relatedActivityId); }
};

template<_tlgACTIVITY_PROVIDER, UINT64 keyword = 0, UINT8 level = event_level_verbose,
    class TlgReflectorTag = _TlgReflectorTag_Param0IsHProvider>
class TraceLoggingThreadActivity : public _tlgActivityBase {
    _tlgACTIVITY_MEMBERS(TraceLoggingThreadActivity)

    /* The start, then the thread's id: the previous one is the related id. */
    bool _tlgStart() noexcept
    {
        uint8_t id[16];
        if (!_tlgActivityBase::_tlgStart()) {
            return false;
        }
        if (_eventheader_tlg_thread_activity_get(id)) {
            GUID previous;
            _tlgGuidToUuid(reinterpret_cast<uint8_t*>(&previous), id);
            _tlgSetRelated(&previous);
        }
        _tlgGuidToUuid(id, &m_id);
        _eventheader_tlg_thread_activity_set(id);
        return true;
    }
    /* The end: the thread's previous id comes back, if this activity is
       still the thread's; else (stopped out of order) the activity that
       replaced it gives back the previous id instead of this one's. */
    void _tlgStop() noexcept
    {
        _tlgActivityBase::_tlgStop();
        _tlgGiveBack();
    }
    /* A start whose event was not written: the thread's id as before. */
    void _tlgStartFailed() noexcept
    {
        if (m_state == _tlgStartingState) {
            _tlgGiveBack();
            _tlgActivityBase::_tlgStartFailed();
            m_related = GUID();
            m_hasRelated = false;
        }
    }

private:
    void _tlgGiveBack() noexcept
    {
        uint8_t own[16];
        uint8_t current[16];
        uint8_t previous[16];
        _tlgGuidToUuid(own, &m_id);
        _tlgGuidToUuid(previous, &m_related);
        if (_eventheader_tlg_thread_activity_get(current) && memcmp(current, own, sizeof(own)) == 0) {
            _tlgThreadIdBack(m_hasRelated ? previous : NULL);
        } else {
            _tlgThreadIdEnded(own, m_hasRelated ? previous : NULL);
        }
    }
};

#if __cplusplus < 201703L
/* The constants' definitions (inline variables from C++17 on). */
template<_tlgACTIVITY_PROVIDER, UINT64 keyword, UINT8 level, class TlgReflectorTag>
constexpr UINT64 TraceLoggingActivity<_tlgProviderArg, keyword, level, TlgReflectorTag>::Keyword;
template<_tlgACTIVITY_PROVIDER, UINT64 keyword, UINT8 level, class TlgReflectorTag>
constexpr UINT8 TraceLoggingActivity<_tlgProviderArg, keyword, level, TlgReflectorTag>::Level;
template<_tlgACTIVITY_PROVIDER, UINT64 keyword, UINT8 level, class TlgReflectorTag>
constexpr UINT64 TraceLoggingThreadActivity<_tlgProviderArg, keyword, level, TlgReflectorTag>::Keyword;
template<_tlgACTIVITY_PROVIDER, UINT64 keyword, UINT8 level, class TlgReflectorTag>
constexpr UINT8 TraceLoggingThreadActivity<_tlgProviderArg, keyword, level, TlgReflectorTag>::Level;
#endif

class TraceLoggingThreadActivityIdSetter {
public:
    /* The thread's activity id is activityId (a zero GUID: none) until the
       object is destroyed. */
    TraceLoggingThreadActivityIdSetter(GUID const& activityId) noexcept { _tlgSet(&activityId); }
    /* The same; NULL: none. */
    TraceLoggingThreadActivityIdSetter(GUID const* activityId) noexcept { _tlgSet(activityId); }
    /* The thread's previous activity id comes back. */
    ~TraceLoggingThreadActivityIdSetter() noexcept
    {
        _tlgThreadIdBack(m_hadPrevious ? m_previous : NULL);
    }
    TraceLoggingThreadActivityIdSetter(TraceLoggingThreadActivityIdSetter const&) = delete;
    TraceLoggingThreadActivityIdSetter& operator=(TraceLoggingThreadActivityIdSetter const&) = delete;

private:
    void _tlgSet(GUID const* activityId) noexcept
    {
        static GUID const zero = GUID();
        uint8_t id[16];
        m_hadPrevious = _eventheader_tlg_thread_activity_get(m_previous) != 0;
        if (activityId != NULL && memcmp(activityId, &zero, sizeof(GUID)) != 0) {
            _tlgGuidToUuid(id, activityId);
            _eventheader_tlg_thread_activity_set(id);
        } else {
            _eventheader_tlg_thread_activity_set(NULL);
        }
    }

    uint8_t m_previous[16];
    bool m_hadPrevious;
};

/* A function's name (__func__) as a constant, for the event name of the metadata. */
template<size_t N>
struct _tlgName {
    char _tlgChars[N];
};
template<size_t... I>
struct _tlgIndices {
};
template<size_t N, size_t... I>
struct _tlgMakeIndices : _tlgMakeIndices<N - 1, N - 1, I...> {
};
template<size_t... I>
struct _tlgMakeIndices<0, I...> {
    typedef _tlgIndices<I...> type;
};
template<size_t N, size_t... I>
constexpr _tlgName<N> _tlgNameOf(char const (&name)[N], _tlgIndices<I...>) noexcept
{
    return _tlgName<N>{ { name[I]... } };
}
template<size_t N>
constexpr _tlgName<N> _tlgFunctionName(char const (&name)[N]) noexcept
{
    return _tlgNameOf(name, typename _tlgMakeIndices<N>::type());
}

#endif /* _included_windows_compat_TraceLoggingActivity_h */
