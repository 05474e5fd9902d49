
/*
EHD_EVENT_SET_ENABLED(set): non-zero if a collector listens to the event set
(0 for NULL). One relaxed atomic load of the set's status word, inline: the
set's first member is its tracepoint_state, whose first member is the status
word (the same test as TRACEPOINT_ENABLED). Evaluates `set` once.
*/
static inline int
ehd_event_set_enabled_inline(ehd_event_set const* set)
{
    return set != NULL &&
        __atomic_load_n((unsigned const*)(void const*)set, __ATOMIC_RELAXED) != 0;
}
#define EHD_EVENT_SET_ENABLED(set) ehd_event_set_enabled_inline(set)
