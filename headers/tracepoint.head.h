/*
The tracepoint layer: open a provider (the process's connection to the
kernel's user_events_data file, or to a capture file), connect tracepoints to
it ("Name arg-spec" registrations), and write events as iovecs.
All functions return 0 or an errno value; none aborts on bad input.
*/
