
/* Initializer for a tracepoint_provider_state: closed, no tracepoints. */
#define TRACEPOINT_PROVIDER_STATE_INIT { -1, 0, { NULL, NULL } }

/* Initializer for a tracepoint_state: disabled, not connected. */
#define TRACEPOINT_STATE_INIT { 0, -1, NULL, { NULL, NULL } }

/*
TRACEPOINT_ENABLED(tp_state): non-zero if at least one collector listens to the
tracepoint. One relaxed atomic load: cheap enough to guard every write.
*/
#define TRACEPOINT_ENABLED(tp_state) __atomic_load_n(&(tp_state)->status_word, __ATOMIC_RELAXED)
