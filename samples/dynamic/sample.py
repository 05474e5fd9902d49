#!/usr/bin/env python3
"""Runtime-defined events from Python, through the C ABI of
eventheader/eventheader-dynamic.h with ctypes (standard library only).

The reference implementation offers runtime-defined events only as a C++
header; this library exports them as C functions, so any language with a C
FFI can write EventHeader events: here a small structured logger that turns
Python values into fields.

    python3 samples/dynamic/sample.py [LIBRARY]

LIBRARY is the path of libeventheader_tracepoint.so (default: $EHD_LIBRARY,
else the loader's search for libeventheader_tracepoint.so.1). Run it with
TRACEPOINT_CAPTURE_FILE=/tmp/events.dat to capture the events to a file
(decode: cargo run -p eventheader-cli -- decode /tmp/events.dat), or with perf
listening on user_events:DynSample_Py_L4K1Gsamples.
"""

import ctypes
import os
import sys
import uuid

# Values of eventheader.h used here.
LEVEL_ERROR, LEVEL_INFORMATION = 2, 4
OPCODE_ACTIVITY_START, OPCODE_ACTIVITY_STOP = 1, 2
ENC_STRUCT, ENC_VALUE32, ENC_VALUE64, ENC_VALUE128 = 1, 4, 5, 6
ENC_STRING8, ENC_BINARY = 10, 13
FMT_DEFAULT, FMT_UNSIGNED, FMT_SIGNED, FMT_BOOLEAN, FMT_FLOAT, FMT_UUID = 0, 1, 2, 7, 8, 15
NTS = ctypes.c_size_t(-1).value  # EHD_NTS: "NUL-terminated"

_p, _sz, _u8, _u16, _int = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint8, ctypes.c_uint16, ctypes.c_int
_PROTOTYPES = {
    # name: (result, argument types)
    "ehd_provider_new": (_p, [ctypes.c_char_p, _sz, ctypes.c_char_p, _sz]),
    "ehd_provider_delete": (None, [_p]),
    "ehd_provider_errno": (_int, [_p]),
    "ehd_provider_register_set": (_p, [_p, _u8, ctypes.c_uint64]),
    "ehd_event_set_enabled": (_int, [_p]),
    "ehd_builder_new": (_p, [_sz, _sz]),
    "ehd_builder_delete": (None, [_p]),
    "ehd_builder_reset": (_int, [_p, ctypes.c_char_p, _sz, _u16]),
    "ehd_builder_set_opcode": (_int, [_p, _u8]),
    "ehd_builder_add_value": (_int, [_p, ctypes.c_char_p, _sz, _u8, _u8, _u16, _p]),
    "ehd_builder_add_string": (_int, [_p, ctypes.c_char_p, _sz, _u8, _u8, _u16, _p, _sz]),
    "ehd_builder_add_strings": (_int, [_p, ctypes.c_char_p, _sz, _u8, _u8, _u16, _p, _p, _sz]),
    "ehd_builder_add_struct": (_int, [_p, ctypes.c_char_p, _sz, _u8, _u16, _p]),
    "ehd_builder_write": (_int, [_p, _p, _p, _p]),
}


def load(path=None):
    """Loads the library and declares the functions used here."""
    lib = ctypes.CDLL(path or os.environ.get("EHD_LIBRARY") or "libeventheader_tracepoint.so.1",
                      use_errno=True)
    for name, (result, args) in _PROTOTYPES.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = result, args
    return lib


class Logger:
    """A provider, its event sets, and a builder: log(level, name, **fields)."""

    def __init__(self, lib, provider, group=""):
        self.lib = lib
        options = ("G" + group).encode() if group else b""
        self.provider = lib.ehd_provider_new(provider.encode(), NTS, options, NTS)
        if not self.provider:
            raise OSError(ctypes.get_errno(), "ehd_provider_new")
        self.builder = lib.ehd_builder_new(0, 0)
        if not self.builder:
            raise OSError(ctypes.get_errno(), "ehd_builder_new")
        self.sets = {}

    def errno(self):
        """0 if the provider opened (else why not: no user_events, ...)."""
        return self.lib.ehd_provider_errno(self.provider)

    def event_set(self, level, keyword=1):
        """The event set (tracepoint) of a level and keyword, registered once."""
        key = (level, keyword)
        if key not in self.sets:
            event_set = self.lib.ehd_provider_register_set(self.provider, level, keyword)
            if not event_set:
                raise OSError(ctypes.get_errno(), "ehd_provider_register_set")
            self.sets[key] = event_set
        return self.sets[key]

    def enabled(self, level, keyword=1):
        # ehd_event_set_enabled is the function form of the header's inline
        # EHD_EVENT_SET_ENABLED (a set pointer points to its status word).
        return self.lib.ehd_event_set_enabled(self.event_set(level, keyword)) != 0

    def _add(self, name, value):
        lib, b, key = self.lib, self.builder, name.encode()
        if isinstance(value, bool):
            data = ctypes.c_int32(value)
            lib.ehd_builder_add_value(b, key, NTS, ENC_VALUE32, FMT_BOOLEAN, 0, ctypes.byref(data))
        elif isinstance(value, int):
            # 64 bits: signed, or unsigned above the signed range; a larger
            # integer has no field type (ctypes would silently keep its low
            # 64 bits).
            if -(1 << 63) <= value < (1 << 63):
                data, fmt = ctypes.c_int64(value), FMT_SIGNED
            elif 0 <= value < (1 << 64):
                data, fmt = ctypes.c_uint64(value), FMT_UNSIGNED
            else:
                raise OverflowError(f"{name}: {value} does not fit in 64 bits")
            lib.ehd_builder_add_value(b, key, NTS, ENC_VALUE64, fmt, 0, ctypes.byref(data))
        elif isinstance(value, float):
            data = ctypes.c_double(value)
            lib.ehd_builder_add_value(b, key, NTS, ENC_VALUE64, FMT_FLOAT, 0, ctypes.byref(data))
        elif isinstance(value, str):
            data = value.encode()
            lib.ehd_builder_add_string(b, key, NTS, ENC_STRING8, FMT_DEFAULT, 0, data, len(data))
        elif isinstance(value, bytes):
            lib.ehd_builder_add_string(b, key, NTS, ENC_BINARY, FMT_DEFAULT, 0, value, len(value))
        elif isinstance(value, uuid.UUID):
            data = ctypes.create_string_buffer(value.bytes, 16)
            lib.ehd_builder_add_value(b, key, NTS, ENC_VALUE128, FMT_UUID, 0, data)
        elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            encoded = [v.encode() for v in value]
            strings = (ctypes.c_char_p * len(encoded))(*encoded)
            counts = (ctypes.c_size_t * len(encoded))(*(len(v) for v in encoded))
            lib.ehd_builder_add_strings(b, key, NTS, ENC_STRING8, FMT_DEFAULT, 0, strings, counts,
                                        len(encoded))
        elif isinstance(value, dict) and 0 < len(value) < 128:
            lib.ehd_builder_add_struct(b, key, NTS, len(value), 0, None)
            for member, member_value in value.items():
                self._add(member, member_value)
        else:
            raise TypeError(f"{name}: no field type for {type(value).__name__}")

    def log(self, level, event, activity=None, opcode=0, **fields):
        """Writes one event; returns 0, or EBADF if nobody listens."""
        if not self.enabled(level):
            return 0  # nothing to build
        self.lib.ehd_builder_reset(self.builder, event.encode(), NTS, 0)
        self.lib.ehd_builder_set_opcode(self.builder, opcode)
        for name, value in fields.items():
            self._add(name, value)
        activity_id = ctypes.create_string_buffer(activity.bytes, 16) if activity else None
        # Argument errors, ENOMEM and an event over 64 KiB (ERANGE) are
        # latched by the builder: the write reports them.
        err = self.lib.ehd_builder_write(self.builder, self.event_set(level), activity_id, None)
        if err not in (0, 9):  # EBADF: nobody listens any more
            raise OSError(err, f"{event}: {os.strerror(err)}")
        return err

    def close(self):
        self.lib.ehd_builder_delete(self.builder)
        self.lib.ehd_provider_delete(self.provider)  # unregisters the sets


def main(argv):
    lib = load(argv[1] if len(argv) > 1 else None)
    log = Logger(lib, "DynSample_Py", group="samples")
    print(f"DynSample_Py: open returned {log.errno()}")
    activity = uuid.UUID("a1a2a3a4-a5a6-a7a8-a9aa-abacadaeafb0")
    log.log(LEVEL_INFORMATION, "Started", activity=activity, opcode=OPCODE_ACTIVITY_START)
    log.log(LEVEL_INFORMATION, "Record", activity=activity,
            message="hello from Python", count=3, ratio=0.5, ok=True,
            tags=["python", "ctypes"], source={"module": "sample", "line": 42},
            payload=b"\x00\x01\xfe", id=uuid.UUID("00112233-4455-6677-8899-aabbccddeeff"))
    log.log(LEVEL_INFORMATION, "Stopped", activity=activity, opcode=OPCODE_ACTIVITY_STOP)
    log.log(LEVEL_ERROR, "Failure", detail="no such file", code=-2)
    log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
