
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

/*
Private: the layouts of a builder and of an event set, for the inline fast
paths below and for EventHeaderDynamic.h (which keeps a builder, and the
state of a placeholder event set, inside its objects). Not part of the API:
programs use the functions. The library's own definitions must match them
(tests/abi-layout checks).

The inline code may: append a field while each buffer's `len` stays within
its `limit`, updating `len`; append raw bytes within a buffer's capacity while
metadata and payload stay within the event size limit, and only while `error`
is 0; start an event as ehd_builder_reset does when the name fits (setting
the limits to the capacities, whose sum is within the size limit); set the
header values; set the member count of a struct at a valid bookmark; and
initialize a builder in storage of its own (EventHeaderDynamic.h), its
limits 0. Growth, errors and the other modes are the library's.

The limits make a field's append one comparison per buffer: the library
keeps each at most its buffer's capacity, their sum within the event size
limit, and both at most the lengths (so that every append goes to the
library) while an error is latched or `fields_mode` is not
EHD_FIELDS_NORMAL. It sets them again whenever it changes the builder.

A struct field the inline code appends is also counted in the metadata's
first byte (the extension header's, 0 from the reset until the write fills it
in; saturating at 255): past 8 structs the write checks the event's shape
(nesting and top-level field count, which decoders limit) instead of skipping
that.
*/
typedef struct _ehd_builder_buffer {
    unsigned char* ptr; /* storage of `cap` bytes */
    size_t len;         /* bytes in use */
    size_t cap;
    unsigned char owned; /* 1: `ptr` is the library's allocation */
} _ehd_builder_buffer;

typedef struct _ehd_builder_state {
    _ehd_builder_buffer meta; /* 4 bytes for the extension header, name, NUL, fields */
    _ehd_builder_buffer data; /* the payload */
    int error;                /* the latched errno */
    uint16_t id;
    uint16_t tag;
    uint8_t version;
    uint8_t opcode;
    uint8_t level;
    uint8_t fields_mode; /* EHD_FIELDS_* */
    size_t meta_limit;   /* how far a field may take meta.len inline */
    size_t data_limit;   /* how far a field may take data.len inline */
} _ehd_builder_state;

typedef struct _ehd_event_set_state {
    tracepoint_state state; /* first: the status word */
    uint64_t keyword;
    int error; /* ehd_event_set_errno */
    uint8_t level;
    size_t refs;
    void* provider;
} _ehd_event_set_state;

/* The inline paths are meant to be inlined (so that constant names, lengths
   and encodings fold away). */
#if defined(__GNUC__) || defined(__clang__)
#define _EHD_INLINE static inline __attribute__((__always_inline__))
#else
#define _EHD_INLINE static inline
#endif

/* Every bound the inline paths give memcpy, memchr and memset is checked
   before the call; GCC's -Wstringop-* and -Warray-bounds analysis follows
   inlined paths that cannot run (e.g. a length of EHD_NTS, a count over
   65535, which go to the library, or a copy of over 16 bytes from a 16-byte
   value whose count is only known at run time) and warns about them, so those
   warnings are off in this code. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#if __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
#define _EHD_DIAGNOSTICS_PUSHED 1
#endif

/* Metadata + payload bytes an event may have; the extension header's bytes. */
#define _EHD_SIZE_LIMIT ((size_t)65467)
#define _EHD_EXT_HEADER ((size_t)4)
#define _EHD_LENGTH_MAX ((size_t)PTRDIFF_MAX / 4)

/* Bytes of one value of a value encoding (no flags); 0 for another. */
_EHD_INLINE size_t
_ehd_value_size(uint8_t encoding)
{
    switch (encoding) {
    case event_field_encoding_value8: return 1;
    case event_field_encoding_value16: return 2;
    case event_field_encoding_value32: return 4;
    case event_field_encoding_value64: return 8;
    case event_field_encoding_value128: return 16;
    default: return 0;
    }
}

/* Bytes of one character of a string or binary encoding (no flags); 0 for another. */
_EHD_INLINE size_t
_ehd_char_size(uint8_t encoding)
{
    switch (encoding) {
    case event_field_encoding_zstring_char8:
    case event_field_encoding_string_length16_char8:
    case event_field_encoding_binary_length16_char8:
        return 1;
    case event_field_encoding_zstring_char16:
    case event_field_encoding_string_length16_char16:
        return 2;
    case event_field_encoding_zstring_char32:
    case event_field_encoding_string_length16_char32:
        return 4;
    default:
        return 0;
    }
}

/* The builder's state, for a field's inline append (its limits stop the
   append if an error is latched or the mode is not normal). */
_EHD_INLINE _ehd_builder_state*
_ehd_appendable(ehd_builder* builder)
{
    return (_ehd_builder_state*)(void*)builder;
}

/* Copies n bytes: up to 16 as two overlapping fixed-size moves (names and
   values are short; a memcpy call with a length only known at run time costs
   more than the copy), longer ones by memcpy. */
_EHD_INLINE void
_ehd_copy(void* dst, void const* src, size_t n)
{
    unsigned char* const d = (unsigned char*)dst;
    unsigned char const* const s = (unsigned char const*)src;
    if (n >= 8 && n <= 16) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n < 4) {
        if (n != 0) {
            unsigned char const first = s[0], mid = s[n / 2], last = s[n - 1];
            d[0] = first;
            d[n / 2] = mid;
            d[n - 1] = last;
        }
    } else {
        memcpy(d, s, n);
    }
}

/* Non-zero if the n bytes at p hold a zero byte: up to 16 bytes by the
   "has a zero byte" test on two overlapping words, longer ones by memchr. */
_EHD_INLINE int
_ehd_has_nul(char const* p, size_t n)
{
    if (n >= 8 && n <= 16) {
        uint64_t a, b;
        memcpy(&a, p, 8);
        memcpy(&b, p + n - 8, 8);
        return (((a - 0x0101010101010101u) & ~a) | ((b - 0x0101010101010101u) & ~b)) &
            0x8080808080808080u ? 1 : 0;
    }
    if (n >= 4 && n < 8) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return (((a - 0x01010101u) & ~a) | ((b - 0x01010101u) & ~b)) & 0x80808080u ? 1 : 0;
    }
    if (n < 4) {
        return n != 0 && (p[0] == 0 || p[n / 2] == 0 || p[n - 1] == 0);
    }
    return memchr(p, 0, n) != NULL;
}

/* Non-zero if (name, *len) is a valid name (no NUL; NULL only with length 0);
   resolves EHD_NTS into *len. */
_EHD_INLINE int
_ehd_name_ok(char const* name, size_t* len)
{
    if (*len == EHD_NTS) {
        if (name == NULL) {
            return 0;
        }
        *len = strlen(name);
        return 1;
    }
    return *len == 0 || (name != NULL && *len <= _EHD_LENGTH_MAX && !_ehd_has_nul(name, *len));
}

/* Bytes of a field's metadata: name, NUL, encoding, [format, [tag]], [count]. */
_EHD_INLINE size_t
_ehd_meta_size(size_t name_len, uint8_t format, uint16_t tag, int carray)
{
    return name_len + (tag != 0 ? 5u : format != 0 ? 3u : 2u) + (carray ? 2u : 0u);
}

/* Non-zero if `meta` more metadata and `data` more payload bytes fit the
   buffers and the event size limit. */
_EHD_INLINE int
_ehd_room(_ehd_builder_state const* s, size_t meta, size_t data)
{
    return meta <= s->meta.cap - s->meta.len && data <= s->data.cap - s->data.len &&
        s->meta.len + s->data.len + meta + data <= _EHD_SIZE_LIMIT + _EHD_EXT_HEADER;
}

/* Where a field's bytes go: the ends of the metadata and of the payload, and
   the metadata's length before them (for a bookmark). */
typedef struct _ehd_spot {
    unsigned char* meta;
    unsigned char* data;
    size_t meta_len;
} _ehd_spot;

/* Non-zero if a field of `meta` more metadata and `data` more payload bytes
   may be appended inline (within the limits, which keep it within the
   capacities and the event size limit, and stop it while an error is latched
   or in another mode); then *at tells where they go. Neither sum can wrap: a
   length is at most the size limit, a field's size at most PTRDIFF_MAX. */
_EHD_INLINE int
_ehd_reserve(_ehd_builder_state const* s, size_t meta, size_t data, _ehd_spot* at)
{
    size_t const meta_len = s->meta.len;
    size_t const data_len = s->data.len;
    if (meta_len + meta <= s->meta_limit && data_len + data <= s->data_limit) {
        at->meta = s->meta.ptr + meta_len;
        at->data = data != 0 ? s->data.ptr + data_len : NULL;
        at->meta_len = meta_len;
        return 1;
    }
    return 0;
}

/* Makes the bytes reserved last part of the event, after they are written:
   each length grows by an increment in place (one instruction for a
   constant size; a length kept from before the byte stores would cost more,
   as those stores may alias the builder). */
_EHD_INLINE void
_ehd_commit(_ehd_builder_state* s, size_t meta, size_t data)
{
    s->meta.len += meta;
    s->data.len += data;
}

/* Writes a field's metadata at m (room reserved): name, NUL, encoding,
   [format, [tag]], [count]. A format byte, if any, is at m + name_len + 2.
   terminated: the name was given NUL-terminated (its NUL is copied with it). */
_EHD_INLINE void
_ehd_write_meta(unsigned char* m, char const* name, size_t name_len, int terminated,
                uint8_t encoding, uint8_t format, uint16_t tag, int carray, uint16_t count)
{
    size_t at = name_len + 1;
    if (terminated) {
        _ehd_copy(m, name, name_len + 1);
    } else {
        _ehd_copy(m, name, name_len);
        m[name_len] = 0;
    }
    if (tag != 0) {
        m[at++] = (unsigned char)(encoding | 0x80u);
        m[at++] = (unsigned char)(format | 0x80u);
        memcpy(m + at, &tag, 2);
        at += 2;
    } else if (format != 0) {
        m[at++] = (unsigned char)(encoding | 0x80u);
        m[at++] = format;
    } else {
        m[at++] = encoding;
    }
    if (carray) {
        memcpy(m + at, &count, 2);
    }
}

/* Appends a field's metadata (room checked); returns the offset of its format
   byte, or EHD_NO_BOOKMARK if it has none. */
_EHD_INLINE size_t
_ehd_put_meta(_ehd_builder_state* s, char const* name, size_t name_len, uint8_t encoding,
              uint8_t format, uint16_t tag, int carray, uint16_t count)
{
    size_t const meta_len = s->meta.len;
    _ehd_write_meta(s->meta.ptr + meta_len, name, name_len, 0, encoding, format, tag, carray,
                    count);
    s->meta.len = meta_len + _ehd_meta_size(name_len, format, tag, carray);
    return tag != 0 || format != 0 ? meta_len + name_len + 2 : EHD_NO_BOOKMARK;
}

/* Appends `size` payload bytes (room checked). */
_EHD_INLINE void
_ehd_put_data(_ehd_builder_state* s, void const* bytes, size_t size)
{
    if (size != 0) {
        _ehd_copy(s->data.ptr + s->data.len, bytes, size);
        s->data.len += size;
    }
}

/* Appends a u16 count to the payload (room checked). */
_EHD_INLINE void
_ehd_put_count(_ehd_builder_state* s, size_t count)
{
    uint16_t const count16 = (uint16_t)count;
    _ehd_put_data(s, &count16, 2);
}

/* The characters of a zstring element before its first zero character, of the
   `count` given; (size_t)-1 for invalid arguments. */
_EHD_INLINE size_t
_ehd_zstring_count(void const* chars, size_t count, size_t unit)
{
    size_t i;
    if (count == 0 || chars == NULL || count > _EHD_LENGTH_MAX) {
        return count == 0 ? 0 : (size_t)-1;
    }
    if (unit == 1) {
        void const* const zero = memchr(chars, 0, count);
        return zero == NULL ? count : (size_t)((char const*)zero - (char const*)chars);
    }
    for (i = 0; i != count; i += 1) {
        uint32_t ch = 0;
        memcpy(&ch, (char const*)chars + i * unit, unit);
        if (ch == 0) {
            break;
        }
    }
    return i;
}

/* The character count of a string argument for the inline paths: resolves
   EHD_NTS (8-bit only: the library finds the end of wider ones) and cuts a
   zstring at its first zero character. Non-zero if done, 0 if the argument
   must go through the library. */
_EHD_INLINE int
_ehd_string_count(int zstring, size_t unit, void const* chars, size_t* count)
{
    if (*count == EHD_NTS) {
        if (unit != 1 || chars == NULL) {
            return 0;
        }
        *count = strlen((char const*)chars);
    } else if (zstring) {
        *count = _ehd_zstring_count(chars, *count, unit);
        if (*count == (size_t)-1) {
            return 0;
        }
    }
    return (zstring || *count <= 65535) && (*count == 0 || chars != NULL);
}

/* Writes a string's payload (count characters of `unit` bytes) at d: the
   characters and a zero character (zstring), or a u16 count and the
   characters. */
_EHD_INLINE void
_ehd_write_string(unsigned char* d, int zstring, size_t unit, void const* chars, size_t count)
{
    size_t const body = count * unit;
    if (zstring) {
        uint32_t const zero = 0;
        if (body != 0) {
            _ehd_copy(d, chars, body);
        }
        memcpy(d + body, &zero, unit);
    } else {
        uint16_t const count16 = (uint16_t)count;
        memcpy(d, &count16, 2);
        if (body != 0) {
            _ehd_copy(d + 2, chars, body);
        }
    }
}

/* Appends one string element's payload, as ehd_builder_add_string would
   (payload only): non-zero if done, 0 if it must go through the library. */
_EHD_INLINE int
_ehd_put_string(_ehd_builder_state* s, uint8_t encoding, size_t unit, void const* chars,
                size_t count)
{
    int const zstring = encoding <= event_field_encoding_zstring_char32;
    size_t data;
    _ehd_spot at;
    if (!_ehd_string_count(zstring, unit, chars, &count)) {
        return 0;
    }
    data = count * unit + (zstring ? unit : 2u);
    if (!_ehd_reserve(s, 0, data, &at)) {
        return 0;
    }
    _ehd_write_string(at.data, zstring, unit, chars, count);
    _ehd_commit(s, 0, data);
    return 1;
}

_EHD_INLINE int
_ehd_inline_reset(ehd_builder* builder, char const* name, size_t name_len, uint16_t tag)
{
    _ehd_builder_state* const s = (_ehd_builder_state*)(void*)builder;
    size_t len = name_len;
    /* Inline only when the capacities together are within the size limit
       (the builder's first storage): then they are the limits. */
    if (s != NULL && _ehd_name_ok(name, &len) && len < s->meta.cap &&
        s->meta.cap - len >= _EHD_EXT_HEADER + 1 &&
        s->meta.cap <= _EHD_SIZE_LIMIT + _EHD_EXT_HEADER &&
        s->data.cap <= _EHD_SIZE_LIMIT + _EHD_EXT_HEADER - s->meta.cap) {
        unsigned char* const m = s->meta.ptr;
        memset(m, 0, _EHD_EXT_HEADER);
        _ehd_copy(m + _EHD_EXT_HEADER, name, len);
        m[_EHD_EXT_HEADER + len] = 0;
        s->meta.len = _EHD_EXT_HEADER + len + 1;
        s->data.len = 0;
        s->error = 0;
        s->id = 0;
        s->tag = tag;
        s->version = 0;
        s->opcode = 0;
        s->level = 0;
        s->fields_mode = EHD_FIELDS_NORMAL;
        s->meta_limit = s->meta.cap;
        s->data_limit = s->data.cap;
        return 0;
    }
    return (ehd_builder_reset)(builder, name, name_len, tag);
}

_EHD_INLINE int
_ehd_inline_add_value(ehd_builder* builder, char const* name, size_t name_len, uint8_t encoding,
                      uint8_t format, uint16_t field_tag, void const* value)
{
    _ehd_builder_state* const s = _ehd_appendable(builder);
    size_t const size = _ehd_value_size(encoding);
    size_t len = name_len;
    _ehd_spot at;
    if (s != NULL && size != 0 && value != NULL && format <= 127 && _ehd_name_ok(name, &len)) {
        size_t const meta = _ehd_meta_size(len, format, field_tag, 0);
        if (_ehd_reserve(s, meta, size, &at)) {
            _ehd_write_meta(at.meta, name, len, name_len == EHD_NTS, encoding, format, field_tag, 0,
                            0);
            _ehd_copy(at.data, value, size);
            _ehd_commit(s, meta, size);
            return 0;
        }
    }
    return (ehd_builder_add_value)(builder, name, name_len, encoding, format, field_tag, value);
}

_EHD_INLINE int
_ehd_inline_add_values(ehd_builder* builder, char const* name, size_t name_len, uint8_t encoding,
                       uint8_t format, uint16_t field_tag, void const* values, size_t count)
{
    _ehd_builder_state* const s = _ehd_appendable(builder);
    size_t const size = _ehd_value_size((uint8_t)(encoding & 0x1fu));
    unsigned const flags = encoding & 0xe0u;
    int const carray = flags == event_field_encoding_carray_flag;
    size_t len = name_len;
    _ehd_spot at;
    if (s != NULL && size != 0 &&
        (flags == 0 || flags == event_field_encoding_varray_flag || (carray && count != 0)) &&
        count <= 65535 && (values != NULL || count == 0) && format <= 127 &&
        _ehd_name_ok(name, &len)) {
        size_t const meta = _ehd_meta_size(len, format, field_tag, carray);
        size_t const body = count * size;
        size_t const data = (carray ? 0u : 2u) + body;
        if (_ehd_reserve(s, meta, data, &at)) {
            uint8_t const array =
                (uint8_t)(carray ? event_field_encoding_carray_flag : event_field_encoding_varray_flag);
            unsigned char* d = at.data;
            _ehd_write_meta(at.meta, name, len, name_len == EHD_NTS,
                            (uint8_t)((encoding & 0x1fu) | array), format, field_tag, carray,
                            (uint16_t)count);
            if (!carray) {
                uint16_t const count16 = (uint16_t)count;
                memcpy(d, &count16, 2);
                d += 2;
            }
            if (body != 0) {
                _ehd_copy(d, values, body);
            }
            _ehd_commit(s, meta, data);
            return 0;
        }
    }
    return (ehd_builder_add_values)(builder, name, name_len, encoding, format, field_tag, values,
                                    count);
}

_EHD_INLINE int
_ehd_inline_add_string(ehd_builder* builder, char const* name, size_t name_len, uint8_t encoding,
                       uint8_t format, uint16_t field_tag, void const* chars, size_t count)
{
    _ehd_builder_state* const s = _ehd_appendable(builder);
    size_t const unit = _ehd_char_size(encoding);
    int const zstring = encoding <= event_field_encoding_zstring_char32;
    size_t len = name_len;
    size_t n = count;
    _ehd_spot at;
    if (s != NULL && unit != 0 && format <= 127 && _ehd_name_ok(name, &len) &&
        _ehd_string_count(zstring, unit, chars, &n)) {
        size_t const meta = _ehd_meta_size(len, format, field_tag, 0);
        size_t const data = n * unit + (zstring ? unit : 2u);
        if (_ehd_reserve(s, meta, data, &at)) {
            _ehd_write_meta(at.meta, name, len, name_len == EHD_NTS, encoding, format, field_tag, 0,
                            0);
            _ehd_write_string(at.data, zstring, unit, chars, n);
            _ehd_commit(s, meta, data);
            return 0;
        }
    }
    return (ehd_builder_add_string)(builder, name, name_len, encoding, format, field_tag, chars,
                                    count);
}

_EHD_INLINE int
_ehd_inline_add_struct(ehd_builder* builder, char const* name, size_t name_len,
                       uint8_t field_count, uint16_t field_tag, size_t* bookmark)
{
    _ehd_builder_state* const s = _ehd_appendable(builder);
    size_t len = name_len;
    _ehd_spot at;
    if (s != NULL && field_count != 0 && field_count <= 127 && _ehd_name_ok(name, &len)) {
        size_t const meta = _ehd_meta_size(len, field_count, field_tag, 0);
        if (_ehd_reserve(s, meta, 0, &at)) {
            unsigned char* const structs = at.meta - at.meta_len;
            _ehd_write_meta(at.meta, name, len, name_len == EHD_NTS, event_field_encoding_struct,
                            field_count, field_tag, 0, 0);
            /* one more struct: past 8 the write checks the event's shape */
            structs[0] = (unsigned char)(structs[0] + (structs[0] != 255u));
            _ehd_commit(s, meta, 0);
            if (bookmark != NULL) {
                *bookmark = at.meta_len + len + 2;
            }
            return 0;
        }
    }
    return (ehd_builder_add_struct)(builder, name, name_len, field_count, field_tag, bookmark);
}

_EHD_INLINE int
_ehd_inline_raw_add_meta(ehd_builder* builder, char const* name, size_t name_len, uint8_t encoding,
                         uint8_t format, uint16_t field_tag, uint16_t const_count)
{
    _ehd_builder_state* const s = (_ehd_builder_state*)(void*)builder;
    unsigned const value = encoding & 0x1fu;
    unsigned const flags = encoding & 0xe0u;
    int const carray = flags == event_field_encoding_carray_flag;
    size_t len = name_len;
    if (s != NULL && s->error == 0 && value >= event_field_encoding_struct &&
        value <= event_field_encoding_binary_length16_char8 &&
        (flags == 0 || flags == event_field_encoding_varray_flag || (carray && const_count != 0)) &&
        format <= 127 && _ehd_name_ok(name, &len) &&
        _ehd_room(s, _ehd_meta_size(len, format, field_tag, carray), 0)) {
        _ehd_put_meta(s, name, len, encoding, format, field_tag, carray, const_count);
        if (value == event_field_encoding_struct) {
            /* counted as in _ehd_inline_add_struct */
            s->meta.ptr[0] = (unsigned char)(s->meta.ptr[0] + (s->meta.ptr[0] != 255u));
        }
        return 0;
    }
    return (ehd_builder_raw_add_meta)(builder, name, name_len, encoding, format, field_tag,
                                      const_count);
}

_EHD_INLINE int
_ehd_inline_raw_add_data(ehd_builder* builder, void const* data, size_t size)
{
    _ehd_builder_state* const s = (_ehd_builder_state*)(void*)builder;
    if (s != NULL && s->error == 0 && (data != NULL || size == 0) && _ehd_room(s, 0, size)) {
        _ehd_put_data(s, data, size);
        return 0;
    }
    return (ehd_builder_raw_add_data)(builder, data, size);
}

_EHD_INLINE int
_ehd_inline_raw_add_count(ehd_builder* builder, uint16_t count, size_t* bookmark)
{
    _ehd_builder_state* const s = (_ehd_builder_state*)(void*)builder;
    if (s != NULL && s->error == 0 && _ehd_room(s, 0, 2)) {
        size_t const mark = s->data.len;
        _ehd_put_count(s, count);
        if (bookmark != NULL) {
            *bookmark = mark;
        }
        return 0;
    }
    return (ehd_builder_raw_add_count)(builder, count, bookmark);
}

_EHD_INLINE int
_ehd_inline_raw_set_count(ehd_builder* builder, size_t bookmark, uint16_t count)
{
    _ehd_builder_state* const s = (_ehd_builder_state*)(void*)builder;
    if (s != NULL && s->error == 0 && bookmark <= s->data.len && s->data.len - bookmark >= 2) {
        memcpy(s->data.ptr + bookmark, &count, 2);
        return 0;
    }
    return (ehd_builder_raw_set_count)(builder, bookmark, count);
}

_EHD_INLINE int
_ehd_inline_set_struct_field_count(ehd_builder* builder, size_t bookmark, uint8_t field_count)
{
    _ehd_builder_state* const s = (_ehd_builder_state*)(void*)builder;
    /* A bookmark is the offset of a struct field's format byte (its encoding
       byte, with the chain bit, before it). */
    if (s != NULL && s->error == 0 && field_count != 0 && field_count <= 127 &&
        bookmark > _EHD_EXT_HEADER && bookmark < s->meta.len &&
        (s->meta.ptr[bookmark - 1] & 0x9fu) == (0x80u | event_field_encoding_struct)) {
        unsigned char* const format = s->meta.ptr + bookmark;
        *format = (unsigned char)((*format & 0x80u) | field_count);
        return 0;
    }
    return (ehd_builder_set_struct_field_count)(builder, bookmark, field_count);
}

_EHD_INLINE int
_ehd_inline_set_id_version(ehd_builder* builder, uint16_t id, uint8_t version)
{
    _ehd_builder_state* const s = (_ehd_builder_state*)(void*)builder;
    if (s == NULL) {
        return (ehd_builder_set_id_version)(builder, id, version);
    }
    s->id = id;
    s->version = version;
    return s->error;
}

_EHD_INLINE int
_ehd_inline_set_opcode(ehd_builder* builder, uint8_t opcode)
{
    _ehd_builder_state* const s = (_ehd_builder_state*)(void*)builder;
    if (s == NULL) {
        return (ehd_builder_set_opcode)(builder, opcode);
    }
    s->opcode = opcode;
    return s->error;
}

_EHD_INLINE int
_ehd_inline_set_tag(ehd_builder* builder, uint16_t tag)
{
    _ehd_builder_state* const s = (_ehd_builder_state*)(void*)builder;
    if (s == NULL) {
        return (ehd_builder_set_tag)(builder, tag);
    }
    s->tag = tag;
    return s->error;
}

#ifdef _EHD_DIAGNOSTICS_PUSHED
#pragma GCC diagnostic pop
#undef _EHD_DIAGNOSTICS_PUSHED
#endif

/*
Inline fast paths: unless EHD_NO_INLINE is defined before this header is
included, each of these functions is also a macro of the same name that does
the common case inline (the builder's buffers have room, no error, normal
fields mode, valid arguments; constant names and lengths fold at compile
time) and calls the exported function for everything else, with the same
result. Define EHD_NO_INLINE to call the exported functions only (as
programs in other languages do). Taking a function's address, or calling
(ehd_builder_add_value)(...), always reaches the export.
*/
#ifndef EHD_NO_INLINE
#define ehd_builder_reset(b, name, name_len, tag) _ehd_inline_reset(b, name, name_len, tag)
#define ehd_builder_add_value(b, name, name_len, encoding, format, field_tag, value) \
    _ehd_inline_add_value(b, name, name_len, encoding, format, field_tag, value)
#define ehd_builder_add_values(b, name, name_len, encoding, format, field_tag, values, count) \
    _ehd_inline_add_values(b, name, name_len, encoding, format, field_tag, values, count)
#define ehd_builder_add_string(b, name, name_len, encoding, format, field_tag, chars, count) \
    _ehd_inline_add_string(b, name, name_len, encoding, format, field_tag, chars, count)
#define ehd_builder_add_struct(b, name, name_len, field_count, field_tag, bookmark) \
    _ehd_inline_add_struct(b, name, name_len, field_count, field_tag, bookmark)
#define ehd_builder_set_struct_field_count(b, bookmark, field_count) \
    _ehd_inline_set_struct_field_count(b, bookmark, field_count)
#define ehd_builder_raw_add_meta(b, name, name_len, encoding, format, field_tag, const_count) \
    _ehd_inline_raw_add_meta(b, name, name_len, encoding, format, field_tag, const_count)
#define ehd_builder_raw_add_data(b, data, size) _ehd_inline_raw_add_data(b, data, size)
#define ehd_builder_raw_add_count(b, count, bookmark) _ehd_inline_raw_add_count(b, count, bookmark)
#define ehd_builder_raw_set_count(b, bookmark, count) _ehd_inline_raw_set_count(b, bookmark, count)
#define ehd_builder_set_id_version(b, id, version) _ehd_inline_set_id_version(b, id, version)
#define ehd_builder_set_opcode(b, opcode) _ehd_inline_set_opcode(b, opcode)
#define ehd_builder_set_tag(b, tag) _ehd_inline_set_tag(b, tag)
#endif /* EHD_NO_INLINE */
