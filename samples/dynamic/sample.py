#!/usr/bin/env python3
"""Runtime-defined events from Python, through the C ABI of
eventheader/eventheader-dynamic.h with ctypes (standard library only).

The reference implementation offers runtime-defined events only as a C++
header; this library exports them as C functions, so any language with a C
FFI can write EventHeader events: here a small structured logger that turns
Python values into fields.

    python3 samples/dynamic/sample.py [LIBRARY] [--bench N]

Each shape of event (event name, field names, value types) gets an event
definition the first time (ehd_event_def_new: the names, types and metadata
checked and made once); each event of that shape is then only its values, in
one call (ehd_event_def_write), the way a binding that cannot inline C writes
events cheaply. Other events go as one array of struct ehd_field (one call:
ehd_builder_write_fields); a list of strings takes the per-field functions.
--bench N writes a 5-field event N times each way (a call per field; the
field array; the event definition) and prints the wall time per event.

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
EBADF = 9

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
    "ehd_builder_add_fields": (_int, [_p, _p, _sz]),
    "ehd_builder_write_fields": (_int, [_p, _p, ctypes.c_char_p, _sz, _p, _sz, _p, _p]),
    "ehd_event_def_new": (_p, [ctypes.c_char_p, _sz, _p, _sz, _u16]),
    "ehd_event_def_delete": (None, [_p]),
    "ehd_event_def_write": (_int, [_p, _p, _p, _sz, _p, _p]),
}


class _Value(ctypes.Union):
    """ehd_field's `value`: an address, or the bytes of a string (which
    ctypes then points to, and keeps alive, without a copy)."""
    _fields_ = [("value", _p), ("chars", ctypes.c_char_p)]


class Field(ctypes.Structure):
    """struct ehd_field: one field of ehd_builder_add_fields / _write_fields."""
    _anonymous_ = ("_v",)
    _fields_ = [("name", ctypes.c_char_p), ("name_len", _sz), ("_v", _Value), ("count", _sz),
                ("encoding", _u8), ("format", _u8), ("tag", _u16)]


class Value(ctypes.Structure):
    """struct ehd_value: one value of ehd_event_def_write (a value's bytes,
    or a string's characters)."""
    _anonymous_ = ("_v",)
    _fields_ = [("_v", _Value), ("size", _sz)]


def _field_of(name, address, count, encoding, fmt):
    """An ehd_field of a name (bytes) and a value's address."""
    field = Field(name, len(name))
    field.value, field.count, field.encoding, field.format = address, count, encoding, fmt
    return field


_INT64_MIN, _INT64_END, _UINT64_END = -(1 << 63), 1 << 63, 1 << 64


class _Shape:
    """One event shape (event name, field names and value types): its array
    of ehd_field and its array of ehd_value, made once, and per field how a
    value goes into them: a scalar into a ctypes object both point to, a
    string or bytes by pointing the field (setters, for the field array) or
    the value (value_setters, for the event definition) at its bytes.
    Writing another event of the shape changes only the values. The event
    definition (`definition`) is made by Logger when first needed."""

    def __init__(self, event, fields):
        self.key = event.encode()
        self.array = (Field * len(fields))()
        self.values = (Value * len(fields))()
        self.definition = None
        self.keep = []  # the ctypes objects the fields point into
        self.setters = []
        self.value_setters = []
        for field, slot, (name, value) in zip(self.array, self.values, fields.items()):
            field.name = name.encode()
            field.name_len = len(field.name)
            setter = self._setter(field, name, value)
            if field.encoding in (ENC_STRING8, ENC_BINARY):
                def set_value(v, slot=slot):
                    data = v.encode() if isinstance(v, str) else v
                    slot.chars, slot.size = data, len(data)
                self.value_setters.append(set_value)
            else:
                slot.value, slot.size = field.value, ctypes.sizeof(self.keep[-1])
                self.value_setters.append(setter)
            self.setters.append(setter)

    def _scalar(self, field, ctype, encoding, fmt):
        data = ctype()
        self.keep.append(data)
        field.value, field.encoding, field.format = ctypes.addressof(data), encoding, fmt
        return data

    def _setter(self, field, name, value):
        if isinstance(value, bool):
            data = self._scalar(field, ctypes.c_int32, ENC_VALUE32, FMT_BOOLEAN)

            def set_bool(v, data=data):
                data.value = v
            return set_bool
        if isinstance(value, int):
            # The format depends on the value's range: an integer outside
            # the signed range has a shape of its own.
            if _INT64_MIN <= value < _INT64_END:
                data = self._scalar(field, ctypes.c_int64, ENC_VALUE64, FMT_SIGNED)
                low, end = _INT64_MIN, _INT64_END
            else:
                data = self._scalar(field, ctypes.c_uint64, ENC_VALUE64, FMT_UNSIGNED)
                low, end = _INT64_END, _UINT64_END

            def set_int(v, data=data, low=low, end=end):
                if not low <= v < end:
                    raise _OtherShape
                data.value = v
            return set_int
        if isinstance(value, float):
            data = self._scalar(field, ctypes.c_double, ENC_VALUE64, FMT_FLOAT)

            def set_float(v, data=data):
                data.value = v
            return set_float
        if isinstance(value, (str, bytes)):
            field.encoding = ENC_STRING8 if isinstance(value, str) else ENC_BINARY

            def set_chars(v, field=field):
                data = v.encode() if isinstance(v, str) else v
                field.chars, field.count = data, len(data)
            return set_chars
        if isinstance(value, uuid.UUID):
            data = self._scalar(field, ctypes.c_char * 16, ENC_VALUE128, FMT_UUID)

            def set_uuid(v, data=data):
                data.raw = v.bytes
            return set_uuid
        raise _OtherShape  # structs and lists of strings: Logger._field


class _OtherShape(Exception):
    """A value _Shape has no field for (Logger.log then builds the array)."""


def load(path=None):
    """Loads the library and declares the functions used here."""
    lib = ctypes.CDLL(path or os.environ.get("EHD_LIBRARY") or "libeventheader_tracepoint.so.1",
                      use_errno=True)
    for name, (result, args) in _PROTOTYPES.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = result, args
    return lib


def _set_all(setters, fields):
    """Sets a shape's values from the event's fields; False when one does not
    fit its shape (an integer out of its shape's range: the event then goes
    another way)."""
    try:
        for setter, value in zip(setters, fields.values()):
            setter(value)
    except _OtherShape:
        return False
    return True


def _written(event, err):
    """A write's result: 0, or EBADF once nobody listens any more; any other
    errno raises OSError."""
    if err not in (0, EBADF):
        raise OSError(err, f"{event}: {os.strerror(err)}")
    return err


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
        self.shapes = {}  # (event, field names, value types) -> _Shape or None
        self.definitions = []  # the event definitions made (deleted by close)

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

    def _field(self, name, value, out, keep):
        """Appends value's ehd_field(s) to `out` (a struct: its members
        after it); `keep` holds the ctypes objects the fields point into.
        False for a value the array has no field for (a list of strings:
        ehd_builder_add_strings)."""
        key = name.encode()
        if isinstance(value, bool):
            data = ctypes.c_int32(value)
            keep.append(data)
            out.append(_field_of(key, ctypes.addressof(data), 0, ENC_VALUE32, FMT_BOOLEAN))
        elif isinstance(value, int):
            if -(1 << 63) <= value < (1 << 63):
                data, fmt = ctypes.c_int64(value), FMT_SIGNED
            elif 0 <= value < (1 << 64):
                data, fmt = ctypes.c_uint64(value), FMT_UNSIGNED
            else:
                raise OverflowError(f"{name}: {value} does not fit in 64 bits")
            keep.append(data)
            out.append(_field_of(key, ctypes.addressof(data), 0, ENC_VALUE64, fmt))
        elif isinstance(value, float):
            data = ctypes.c_double(value)
            keep.append(data)
            out.append(_field_of(key, ctypes.addressof(data), 0, ENC_VALUE64, FMT_FLOAT))
        elif isinstance(value, (str, bytes)):
            data = value.encode() if isinstance(value, str) else value
            keep.append(data)
            encoding = ENC_STRING8 if isinstance(value, str) else ENC_BINARY
            address = ctypes.cast(ctypes.c_char_p(data), _p).value
            out.append(_field_of(key, address, len(data), encoding, FMT_DEFAULT))
        elif isinstance(value, uuid.UUID):
            data = ctypes.create_string_buffer(value.bytes, 16)
            keep.append(data)
            out.append(_field_of(key, ctypes.addressof(data), 0, ENC_VALUE128, FMT_UUID))
        elif isinstance(value, dict) and 0 < len(value) < 128:
            out.append(_field_of(key, None, len(value), ENC_STRUCT, 0))
            return all(self._field(m, v, out, keep) for m, v in value.items())
        elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            return False
        else:
            raise TypeError(f"{name}: no field type for {type(value).__name__}")
        return True

    def log(self, level, event, activity=None, opcode=0, **fields):
        """Writes one event; returns 0, or EBADF if nobody listens. An event
        without opcode or activity whose fields have an event definition
        (values, strings, bytes, UUIDs) goes through its shape's definition:
        one call with the values alone. Other events go to the library as
        one array of ehd_field (one call for an event without opcode), or
        field by field for a list of strings."""
        if not self.enabled(level):
            return 0  # nothing to build
        if opcode == 0 and activity is None:
            shape = self._shape(event, fields)
            if (shape is not None and self._definition(shape)
                    and _set_all(shape.value_setters, fields)):
                return _written(event, self.lib.ehd_event_def_write(
                    shape.definition, self.event_set(level), shape.values,
                    len(shape.values), None, None))
        return self.log_array(level, event, activity, opcode, **fields)

    def _definition(self, shape):
        """The shape's event definition, made the first time; None if the
        library refuses it (then the field array is used)."""
        if shape.definition is None:
            shape.definition = self.lib.ehd_event_def_new(
                shape.key, len(shape.key), shape.array, len(shape.array), 0) or False
            if shape.definition:
                self.definitions.append(shape.definition)
        return shape.definition

    def log_array(self, level, event, activity=None, opcode=0, **fields):
        """log() through one array of ehd_field (ehd_builder_write_fields):
        an event of a shape seen before reuses that shape's array."""
        if not self.enabled(level):
            return 0  # nothing to build
        if opcode == 0 and activity is None:
            shape = self._shape(event, fields)
            if shape is not None and _set_all(shape.setters, fields):
                return _written(event, self.lib.ehd_builder_write_fields(
                    self.builder, self.event_set(level), shape.key, len(shape.key),
                    shape.array, len(shape.array), None, None))
        out, keep = [], []
        if not all(self._field(name, value, out, keep) for name, value in fields.items()):
            return self.log_calls(level, event, activity, opcode, **fields)
        array = (Field * len(out))(*out)
        activity_id = ctypes.create_string_buffer(activity.bytes, 16) if activity else None
        event_set = self.event_set(level)
        if opcode == 0:
            key = event.encode()
            err = self.lib.ehd_builder_write_fields(self.builder, event_set, key, len(key), array,
                                                    len(out), activity_id, None)
        else:
            self.lib.ehd_builder_reset(self.builder, event.encode(), NTS, 0)
            self.lib.ehd_builder_set_opcode(self.builder, opcode)
            self.lib.ehd_builder_add_fields(self.builder, array, len(out))
            err = self.lib.ehd_builder_write(self.builder, event_set, activity_id, None)
        if err not in (0, EBADF):  # EBADF: nobody listens any more
            raise OSError(err, f"{event}: {os.strerror(err)}")
        return err

    def _shape(self, event, fields):
        """The _Shape of an event and its fields (made the first time), or
        None for fields it has no array for."""
        key = (event, tuple(fields), tuple(map(type, fields.values())))
        shape = self.shapes.get(key, False)
        if shape is False:
            try:
                shape = _Shape(event, fields)
            except _OtherShape:
                shape = None
            self.shapes[key] = shape
        return shape

    def log_calls(self, level, event, activity=None, opcode=0, **fields):
        """log() through the per-field functions: one call per field."""
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
        if err not in (0, EBADF):  # EBADF: nobody listens any more
            raise OSError(err, f"{event}: {os.strerror(err)}")
        return err

    def close(self):
        for definition in self.definitions:
            self.lib.ehd_event_def_delete(definition)
        self.lib.ehd_builder_delete(self.builder)
        self.lib.ehd_provider_delete(self.provider)  # unregisters the sets


def bench(log, count):
    """Wall time per event of a 5-field event (a string, an int, a float, a
    bool, bytes), `count` times through log_calls() (a call per field),
    log_array() (the field array, one call) and log() (the event
    definition, one call with the values), in alternating rounds of 1000 (a
    load that changes meanwhile falls on every way alike)."""
    import time
    fields = dict(message="hello from Python", count=3, ratio=0.5, ok=True, payload=b"\x00\x01")
    ways = (("per-field calls", log.log_calls), ("field array", log.log_array),
            ("event definition", log.log))
    spent = {label: 0.0 for label, _ in ways}
    done = 0
    while done < count:
        n = min(1000, count - done)
        for label, write in ways:
            start = time.perf_counter()
            for _ in range(n):
                write(LEVEL_INFORMATION, "Bench", **fields)
            spent[label] += time.perf_counter() - start
        done += n
    results = {}
    for label, _ in ways:
        results[label] = spent[label] / count * 1e9
        print(f"{label}: {results[label]:.0f} ns per event ({count} events)")
    return results


def main(argv):
    args = argv[1:]
    count = 0
    if "--bench" in args:
        at = args.index("--bench")
        count = int(args[at + 1])
        del args[at:at + 2]
    lib = load(args[0] if args else None)
    if count:
        log = Logger(lib, "DynSample_Py", group="samples")
        bench(log, count)
        log.close()
        return 0
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
