use super::*;

#[test]
fn raw_records_are_valid_json() {
    let mut f = Formatter::new(td::PerfMetaOptions::Default, Filter::default());
    let mut out = String::new();
    assert_eq!(
        f.capture_event(&mut out, "Plain\"Tp", &[0, 0xab, 0x10], None),
        Outcome::Raw
    );
    assert_eq!(out, r#"{ "n": "Plain\"Tp", "raw": "00ab10" }"#);
    out.clear();
    assert_eq!(
        f.capture_event(&mut out, "P_L5K1", &[1, 2], None),
        Outcome::Malformed
    );
    assert!(
        out.starts_with(
            r#"{ "n": "P_L5K1", "raw": "0102", "error": "not a valid EventHeader event: "#
        ),
        "{out}"
    );
}

#[test]
fn eventheader_event_without_fields() {
    // flags 0x03 (64-bit, little-endian), version 0, id 0, tag 0, opcode 0,
    // level 5; no extension: decodes to its identity only if it has a
    // metadata extension, so add one: extension size 2, kind 1, name "E\0".
    let ev = [3u8, 0, 0, 0, 0, 0, 0, 5, 2, 0, 1, 0, b'E', 0];
    let mut ev = ev.to_vec();
    ev[0] |= 4; // extension flag
    let mut f = Formatter::new(td::PerfMetaOptions::Default, Filter::default());
    let mut out = String::new();
    assert_eq!(
        f.capture_event(&mut out, "Prov_L5K1", &ev, None),
        Outcome::Decoded,
        "{out}"
    );
    assert_eq!(
        out,
        r#"{ "n": "Prov:E", "meta": { "level": 5, "keyword": "0x1" } }"#
    );
    out.clear();
    let mut f = Formatter::new(td::PerfMetaOptions::None, Filter::default());
    f.capture_event(&mut out, "Prov_L5K1", &ev, None);
    assert_eq!(out, r#"{ "n": "Prov:E" }"#);
}

/// An EventHeader event `E` of `Prov_L5K1` with u32 fields named `names`
/// holding 1, 2, ...
fn event_with_fields(names: &[&str]) -> Vec<u8> {
    let mut meta = b"E\0".to_vec();
    for name in names {
        meta.extend_from_slice(name.as_bytes());
        meta.extend_from_slice(&[0, 4]); // NUL, encoding Value32
    }
    // flags: 64-bit, little-endian, extension; level 5.
    let mut ev = vec![7u8, 0, 0, 0, 0, 0, 0, 5];
    ev.extend_from_slice(&(meta.len() as u16).to_le_bytes());
    ev.extend_from_slice(&1u16.to_le_bytes()); // kind: metadata
    ev.extend_from_slice(&meta);
    for i in 1..=names.len() as u32 {
        ev.extend_from_slice(&i.to_le_bytes());
    }
    ev
}

#[test]
fn decoder_keys_step_aside_for_fields_of_their_name() {
    let mut f = Formatter::new(td::PerfMetaOptions::Default, Filter::default());
    let mut out = String::new();
    let ev = event_with_fields(&["meta"]);
    assert_eq!(
        f.capture_event(&mut out, "Prov_L5K1", &ev, None),
        Outcome::Decoded
    );
    assert_eq!(
        out,
        r#"{ "n": "Prov:E", "meta": 1, "meta_": { "level": 5, "keyword": "0x1" } }"#
    );
    out.clear();
    let ev = event_with_fields(&["n", "meta_", "x", "meta"]);
    f.capture_event(&mut out, "Prov_L5K1", &ev, None);
    assert_eq!(
        out,
        r#"{ "n_": "Prov:E", "n": 1, "meta_": 2, "x": 3, "meta": 4, "meta__": { "level": 5, "keyword": "0x1" } }"#
    );
    // The next event without such fields gets the plain keys again.
    out.clear();
    let ev = event_with_fields(&["metadata", "nn"]);
    f.capture_event(&mut out, "Prov_L5K1", &ev, None);
    assert_eq!(
        out,
        r#"{ "n": "Prov:E", "metadata": 1, "nn": 2, "meta": { "level": 5, "keyword": "0x1" } }"#
    );
    // Without metadata only the name may need to step aside.
    let mut f = Formatter::new(td::PerfMetaOptions::None, Filter::default());
    out.clear();
    f.capture_event(
        &mut out,
        "Prov_L5K1",
        &event_with_fields(&["n", "meta"]),
        None,
    );
    assert_eq!(out, r#"{ "n_": "Prov:E", "n": 1, "meta": 2 }"#);
}

/// FORK records give a new thread its parent's name; a thread without
/// a name of its own shows its process's; each input starts unnamed.
#[test]
fn forked_threads_inherit_the_name() {
    let mut f = Formatter::new(td::PerfMetaOptions::None, Filter::default());
    f.set_comm(10, "parent");
    f.fork(11, 10);
    f.fork(13, 12);
    f.ev.tid = Some(11);
    assert_eq!(f.comm(), Some("parent"));
    f.ev.tid = Some(13);
    assert_eq!(f.comm(), None);
    f.ev.pid = Some(10);
    assert_eq!(f.comm(), Some("parent"));
    f.begin_input();
    assert_eq!(f.comm(), None);
}
