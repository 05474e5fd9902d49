//! The builder's unit tests: metadata and payload bytes of every kind of
//! field, errors, limits, memory reuse.
use super::*;

const ENC_VALUE32: u8 = 4;
const ENC_VALUE64: u8 = 5;
const ENC_ZSTR16: u8 = 8;
const ENC_STR8: u8 = 10;
const ENC_STR32: u8 = 12;
const ENC_BIN: u8 = 13;

fn started(name: &str) -> Builder {
    let mut b = Builder::new(0, 0).unwrap();
    assert_eq!(b.reset(n(name.as_bytes()), 0), 0);
    b
}

fn n(bytes: &[u8]) -> Name<'_> {
    Name::new(bytes).expect("a name without NUL")
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

#[test]
fn a_new_builder_must_be_reset_first() {
    let mut b = Builder::new(16, 16).unwrap();
    assert_eq!(b.error(), libc::EINVAL);
    assert_eq!(b.add_value(n(b"x"), 2, 0, 0, &[1]), libc::EINVAL);
    assert!(matches!(b.finish(), Err(libc::EINVAL)));
    assert_eq!(b.reset(n(b"Ev"), 7), 0);
    assert_eq!(b.header().tag, 7);
    let (meta, data) = b.finish().unwrap();
    assert_eq!(meta, &[3, 0, 1, 0, b'E', b'v', 0]);
    assert!(data.is_empty());
}

#[test]
fn metadata_encoding_matches_the_format_and_tag_rules() {
    let mut b = started("E");
    b.add_value(n(b"a"), 2, 0, 0, &[1]);
    b.add_value(n(b"b"), 3, 2, 0, &[2, 0]);
    b.add_value(n(b"c"), ENC_VALUE32, 0, 0x1234, &[3, 0, 0, 0]);
    b.add_value(n(b"d"), ENC_VALUE64, 8, 5, &7f64.to_ne_bytes());
    assert_eq!(b.error(), 0);
    let t = 0x1234u16.to_ne_bytes();
    assert_eq!(
        b.metadata(),
        cat(&[
            b"E\0",
            b"a\0\x02",
            b"b\0\x83\x02",
            &[b'c', 0, 0x84, 0x80, t[0], t[1]],
            &[b'd', 0, 0x85, 0x88, 5, 0],
        ])
    );
    assert_eq!(
        b.payload(),
        cat(&[&[1, 2, 0, 3, 0, 0, 0], &7f64.to_ne_bytes()])
    );
}

#[test]
fn strings_counted_and_nul_terminated() {
    let mut b = started("S");
    b.add_string(n(b"s8"), ENC_STR8, 0, 0, b"abc");
    b.add_string(
        n(b"z16"),
        ENC_ZSTR16,
        0,
        0,
        &[b'h', 0, b'i', 0, 0, 0, b'x', 0],
    );
    b.add_string(n(b"s32"), ENC_STR32, 0, 0, &[b'Q', 0, 0, 0]);
    b.add_string(n(b"bin"), ENC_BIN, 9, 0, &[0xff, 0]);
    b.add_string(n(b"z8"), 7, 0, 0, b"no-nul");
    assert_eq!(b.error(), 0);
    assert_eq!(
        b.payload(),
        cat(&[
            &[3, 0],
            b"abc",
            &[b'h', 0, b'i', 0, 0, 0],
            &[1, 0, b'Q', 0, 0, 0],
            &[2, 0, 0xff, 0],
            b"no-nul\0",
        ])
    );
    assert_eq!(
        b.add_string(n(b"odd"), ENC_ZSTR16, 0, 0, &[1, 2, 3]),
        libc::EINVAL
    );
}

#[test]
fn arrays_constant_and_variable() {
    let mut b = started("A");
    let v = [1u16, 2, 3];
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_ne_bytes()).collect();
    b.add_values(n(b"va"), 3, 0, 0, &bytes, 3);
    b.add_values(n(b"ca"), 3 | enc::CARRAY, 0, 0, &bytes, 3);
    let strings: [&[u8]; 2] = [b"ab", b"c"];
    b.add_strings(n(b"ss"), ENC_STR8, 0, 0, 2, |i| Ok(strings[i]));
    b.add_strings(n(b"zs"), 7 | enc::CARRAY, 0, 0, 2, |i| Ok(strings[i]));
    assert_eq!(b.error(), 0);
    assert_eq!(
        b.metadata(),
        cat(&[
            b"A\0",
            b"va\0\x43",
            b"ca\0\x23\x03\x00",
            b"ss\0\x4a",
            b"zs\0\x27\x02\x00"
        ])
    );
    assert_eq!(
        b.payload(),
        cat(&[
            &[3, 0],
            &bytes,
            &bytes,
            &[2, 0, 2, 0],
            b"ab",
            &[1, 0],
            b"c",
            b"ab\0c\0"
        ])
    );
    // Constant count 0 (decoders refuse it).
    let mut b = started("A");
    assert_eq!(
        b.add_values(n(b"x"), 3 | enc::CARRAY, 0, 0, &[], 0),
        libc::EINVAL
    );
    let mut b = started("A");
    assert_eq!(
        b.add_strings(n(b"x"), 7 | enc::CARRAY, 0, 0, 0, |_| Ok(&[])),
        libc::EINVAL
    );
    let mut b = started("A");
    assert_eq!(
        b.raw_add_meta(n(b"x"), 2 | enc::CARRAY, 0, 0, 0),
        libc::EINVAL
    );
    // Wrong byte count for the count, both flags, string callback error.
    assert_eq!(b.add_values(n(b"x"), 3, 0, 0, &bytes, 2), libc::EINVAL);
    let mut b = started("A");
    assert_eq!(
        b.add_values(n(b"x"), 3 | 0x60, 0, 0, &bytes, 3),
        libc::EINVAL
    );
    let mut b = started("A");
    assert_eq!(
        b.add_strings(n(b"x"), ENC_STR8, 0, 0, 1, |_| Err(libc::EFAULT)),
        libc::EFAULT
    );
}

#[test]
fn nested_structs_with_bookmarks_and_struct_arrays() {
    let mut b = started("N");
    let (e, outer) = b.add_struct(n(b"outer"), 1, 0);
    assert_eq!(e, 0);
    b.add_value(n(b"a"), 2, 0, 0, &[1]);
    let (_, inner) = b.add_struct(n(b"inner"), 1, 0x55);
    b.add_value(n(b"b"), 2, 0, 0, &[2]);
    b.add_value(n(b"c"), 2, 0, 0, &[3]);
    assert_eq!(b.set_struct_field_count(inner, 2), 0);
    assert_eq!(b.set_struct_field_count(outer, 2), 0);
    let (_, arr) = b.add_struct_array(n(b"pts"), 1, 0, 2);
    b.add_value(n(b"x"), 2, 0, 0, &[10]);
    b.add_value(n(b"y"), 2, 0, 0, &[11]);
    b.set_parts(Parts::PayloadOnly);
    b.add_value(n(b"x"), 2, 0, 0, &[20]);
    b.add_value(n(b"y"), 2, 0, 0, &[21]);
    b.set_parts(Parts::Both);
    assert_eq!(b.set_struct_field_count(arr, 2), 0);
    b.add_struct_array(n(b"none"), 1, 0x66, 0);
    b.set_parts(Parts::MetadataOnly);
    b.add_value(n(b"z"), 2, 0, 0, &[9]);
    b.add_string(n(b"s"), ENC_STR8, 0, 0, b"ignored");
    b.set_parts(Parts::Both);
    b.add_value(n(b"after"), 2, 0, 0, &[8]);
    assert_eq!(b.error(), 0);
    let t = 0x55u16.to_ne_bytes();
    assert_eq!(
        b.metadata(),
        cat(&[
            b"N\0",
            b"outer\0\x81\x02",
            b"a\0\x02",
            &cat(&[b"inner\0\x81\x82", &t]),
            b"b\0\x02c\0\x02",
            b"pts\0\xc1\x02x\0\x02y\0\x02",
            &cat(&[b"none\0\xc1\x81", &0x66u16.to_ne_bytes(), b"z\0\x02s\0\x0a"]),
            b"after\0\x02",
        ])
    );
    // An empty array of structs still describes its members; the
    // payload has no element for them.
    assert_eq!(b.payload(), &[1, 2, 3, 2, 0, 10, 11, 20, 21, 0, 0, 8]);
    // Bookmarks that are not a struct's, NO_BOOKMARK, bad counts.
    assert_eq!(b.set_struct_field_count(NO_BOOKMARK, 3), 0);
    assert_eq!(b.set_struct_field_count(outer, 0), libc::EINVAL);
    let mut b = started("N");
    b.add_value(n(b"v"), 2, 3, 0, &[1]);
    assert_eq!(b.set_struct_field_count(EXT_HEADER + 4, 1), libc::EINVAL);
    let mut b = started("N");
    assert_eq!(b.add_struct(n(b"s"), 128, 0).0, libc::EINVAL);
    let mut b = started("N");
    assert_eq!(b.set_struct_field_count(1_000_000, 1), libc::EINVAL);
}

#[test]
fn raw_meta_data_and_counts() {
    let mut b = started("R");
    assert_eq!(b.raw_add_meta(n(b"v"), 2 | enc::VARRAY, 1, 0, 0), 0);
    let (e, at) = b.raw_add_count(0);
    assert_eq!(e, 0);
    b.raw_add_data(&[5, 6, 7]);
    assert_eq!(b.raw_set_count(at, 3), 0);
    assert_eq!(b.raw_add_meta(n(b"c"), 2 | enc::CARRAY, 0, 0, 2), 0);
    b.raw_add_data(&[8, 9]);
    assert_eq!(b.metadata(), b"R\0v\0\xc2\x01c\0\x22\x02\x00");
    assert_eq!(b.payload(), &[3, 0, 5, 6, 7, 8, 9]);
    assert_eq!(b.raw_set_count(6, 1), libc::EINVAL);
    let mut b = started("R");
    assert_eq!(b.raw_add_meta(n(b"v"), 14, 0, 0, 0), libc::EINVAL);
    let mut b = started("R");
    assert_eq!(b.raw_add_meta(n(b"v"), 2 | 0x80, 0, 0, 0), libc::EINVAL);
}

#[test]
fn the_first_error_is_latched_until_reset() {
    let mut b = started("L");
    assert_eq!(Name::new(b"bad\0name"), None);
    assert_eq!(
        b.add_value(n(b"x"), 2, 0x80, 0, &[1]),
        libc::EINVAL,
        "format over 127"
    );
    assert_eq!(b.add_value(n(b"ok"), 2, 0, 0, &[1]), libc::EINVAL);
    assert_eq!(b.set_opcode(1), libc::EINVAL);
    assert!(matches!(b.finish(), Err(libc::EINVAL)));
    assert_eq!(b.reset(n(b"L"), 0), 0);
    assert_eq!(
        b.add_value(n(b"x"), 2, 0, 0, &[1, 2]),
        libc::EINVAL,
        "size mismatch"
    );
}

#[test]
fn oversize_is_erange_and_the_buffers_stay_bounded() {
    let mut b = started("Big");
    let big = vec![b'x'; EVENT_SIZE_LIMIT];
    assert_eq!(b.add_string(n(b"s"), ENC_BIN, 0, 0, &big[..60000]), 0);
    assert_eq!(
        b.add_string(n(b"t"), ENC_BIN, 0, 0, &big[..6000]),
        libc::ERANGE
    );
    assert!(matches!(b.finish(), Err(libc::ERANGE)));
    let (meta_cap, data_cap) = b.capacities();
    assert!(data_cap < 2 * 65536 && meta_cap < 4096);
    // Exactly at the limit is fine; one byte more is not.
    let mut b = started("");
    let meta = 1 + 2 + 1; // "" NUL, "b" NUL, encoding
    let room = EVENT_SIZE_LIMIT - meta - 2;
    assert_eq!(b.add_string(n(b"b"), ENC_BIN, 0, 0, &big[..room]), 0);
    assert!(b.finish().is_ok());
    let mut b = started("");
    assert_eq!(
        b.add_string(n(b"b"), ENC_BIN, 0, 0, &big[..room + 1]),
        libc::ERANGE
    );
    // A counted string over 65535 characters can never fit.
    let mut b = started("");
    let huge = vec![b'h'; 70000];
    assert_eq!(b.add_string(n(b"s"), ENC_STR8, 0, 0, &huge), libc::ERANGE);
    let mut b = started("");
    assert_eq!(
        b.add_strings(n(b"s"), 7, 0, 0, 2, |_| Ok(&huge[..40000])),
        libc::ERANGE
    );
}

#[test]
fn reset_reuses_memory() {
    let mut b = started("W");
    for i in 0..50u8 {
        b.add_value(n(b"field"), 2, 0, 0, &[i]);
        b.add_string(n(b"text"), ENC_STR8, 0, 0, b"hello world");
    }
    b.finish().unwrap();
    let caps = b.capacities();
    let ptrs = (b.meta.as_ptr(), b.data.as_ptr());
    for _ in 0..100 {
        b.reset(n(b"W"), 0);
        for i in 0..50u8 {
            b.add_value(n(b"field"), 2, 0, 0, &[i]);
            b.add_string(n(b"text"), ENC_STR8, 0, 0, b"hello world");
        }
        b.finish().unwrap();
    }
    assert_eq!(b.capacities(), caps);
    assert_eq!((b.meta.as_ptr(), b.data.as_ptr()), ptrs);
}

#[test]
fn boxed_copies_and_moves_keep_the_event() {
    let mut b = started("C");
    b.set_id_version(3, 4);
    b.add_value(n(b"v"), 2, 0, 0, &[1]);
    let mut boxed = Builder::boxed_copy(&b).unwrap();
    // SAFETY: just allocated, owned by the test.
    let c = unsafe { boxed.as_mut() };
    assert_eq!(c.metadata(), b.metadata());
    assert_eq!(c.payload(), b.payload());
    assert_eq!(c.header(), b.header());
    assert!(!c.allocated(), "the copy fits its own block");
    c.add_value(n(b"w"), 2, 0, 0, &[2]);
    assert_ne!(c.metadata(), b.metadata());

    // Moving a builder whose buffers are its own takes them; moving one
    // whose buffers are in its storage copies them.
    let mut d = Builder::new(0, 0).unwrap();
    let (meta, data) = (b.meta.as_ptr(), b.data.as_ptr());
    let want = (b.metadata().to_vec(), b.payload().to_vec(), b.header());
    assert_eq!(d.take_from(&mut b), 0);
    assert_eq!((d.meta.as_ptr(), d.data.as_ptr()), (meta, data));
    assert_eq!(
        (d.metadata().to_vec(), d.payload().to_vec(), d.header()),
        want
    );
    assert_eq!(b.error(), libc::EINVAL, "moved from: as if never reset");
    assert_eq!(b.capacities(), (0, 0));
    assert_eq!(b.reset(n(b"Again"), 0), 0, "and usable again");
    let mut e = Builder::new(0, 0).unwrap();
    assert_eq!(e.take_from(c), 0);
    assert_ne!(e.meta.as_ptr(), c.meta.as_ptr());
    assert_eq!(e.metadata(), c.metadata());
    assert_eq!(e.payload(), c.payload());
    // SAFETY: from boxed_copy, freed once.
    unsafe { Builder::free_boxed(boxed) };
}

#[test]
fn a_builder_grows_out_of_its_storage() {
    let mut boxed = Builder::boxed(0, 0).unwrap();
    // SAFETY: just allocated, owned by the test.
    let b = unsafe { boxed.as_mut() };
    assert_eq!(b.capacities(), (BOXED_META_ROOM, BOXED_DATA_ROOM));
    assert_eq!(b.reset(n(b"Grow"), 0), 0);
    let big = vec![7u8; 1000];
    assert_eq!(b.add_string(n(b"s"), ENC_BIN, 0, 0, &big), 0);
    assert!(b.allocated());
    assert_eq!(&b.payload()[..2], &1000u16.to_ne_bytes());
    assert_eq!(&b.payload()[2..], &big[..]);
    // SAFETY: from boxed, freed once (with the buffer it allocated).
    unsafe { Builder::free_boxed(boxed) };
    let big = Builder::boxed(5000, 7000).unwrap();
    // SAFETY: just allocated.
    let caps = unsafe { big.as_ref() }.capacities();
    assert!(caps.0 >= 5000 + EXT_HEADER && caps.1 >= 7000, "{caps:?}");
    // SAFETY: from boxed, freed once.
    unsafe { Builder::free_boxed(big) };
    assert_eq!(Builder::boxed(usize::MAX, 0).err(), Some(libc::ENOMEM));
}
