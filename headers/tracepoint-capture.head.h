/*
Capture mode (an addition of this library, not in the reference API).

When the environment variable TRACEPOINT_CAPTURE_FILE names a file (read with
secure_getenv), or after tracepoint_set_capture_file(path), providers opened
from then on write their events to that file instead of the kernel, and every
connected tracepoint reports enabled. This makes events visible on machines
without user_events and in tests.

File format: records of { uint32_t record_size (little-endian, including
these 4 bytes); char tracepoint_name[] (nul-terminated); event bytes exactly
as they follow the write index in a user_events write }.
*/
