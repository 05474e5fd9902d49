//! Activity ids and extension chaining (docs/format.md §2.5).

use tracepoint_decode::{EventHeaderEnumeratorContext, EventHeaderEnumeratorError};

use crate::format::{cat, ext, hdr, meta, strings as s, FLAGS_EXT, FLAGS_PLAIN};
use testkit::cargo_tests::{decode, decode::hex, Build, Ran};

const ACT_A: [u8; 16] = [
    0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
];
const ACT_R: [u8; 16] = [
    0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf,
];

/// `activity` in capture mode: activity ids chain with the metadata, and
/// empty payloads.
pub fn check(_: &Build, ran: &Ran) {
    let records = &ran.records;
    assert_eq!(ran.words("written"), ["9"]);

    let h = hdr(FLAGS_EXT, 0, 0, 0, 0, 5);
    let act16_chain = cat(&[&ext(16, 0x8002), &ACT_A]);
    let act32_chain = cat(&[&ext(32, 0x8002), &ACT_A, &ACT_R]);
    let expected: Vec<Vec<u8>> = vec![
        // 1 NoAct: metadata only, 0-byte payload.
        cat(&[&h, &meta(b"NoAct\0")]),
        // 2 Act16: activity (chained to the metadata), header fields kept.
        cat(&[
            &hdr(FLAGS_EXT, 2, 5, 0x0102, 1, 5),
            &act16_chain,
            &meta(b"Act16\0v\0\x02"),
            &[0x2a],
        ]),
        // 3 Act32: activity + related, chained to the metadata.
        cat(&[&h, &act32_chain, &meta(b"Act32\0")]),
        // 4 activity only: last extension, no chain flag.
        cat(&[&h, &ext(16, 0x0002), &ACT_A, &[1, 2, 3]]),
        // 5 activity + related only, no payload.
        cat(&[&h, &ext(32, 0x0002), &ACT_A, &ACT_R]),
        // 6 no extension at all.
        cat(&[&hdr(FLAGS_PLAIN, 0, 0, 0, 0, 5), &[9]]),
        // 7 header only.
        hdr(FLAGS_PLAIN, 0, 0, 0, 0, 5),
        // 8 the header announces extensions in the payload: activity chains.
        cat(&[
            &h,
            &act16_chain,
            &meta(b"InPayload\0w\0\x03"),
            &[0x34, 0x12],
        ]),
        // 9 empty payload vectors.
        cat(&[&h, &meta(b"Empty\0")]),
    ];
    assert_eq!(records.len(), expected.len(), "{records:?}");
    for (i, (rec, want)) in records.iter().zip(&expected).enumerate() {
        assert_eq!(rec.name, "CoreAct_L5K1");
        assert_eq!(
            hex(&rec.event),
            hex(want),
            "event {} bytes differ from the format",
            i + 1
        );
    }

    // Decoding: ids and fields.
    let d = decode::items(&records[0]);
    assert_eq!(
        (d.event_name.as_str(), d.activity, d.related),
        ("NoAct", None, None)
    );
    assert!(d.items.is_empty());
    let d = decode::items(&records[1]);
    assert_eq!(d.event_name, "Act16");
    assert_eq!((d.activity, d.related), (Some(ACT_A), None));
    assert_eq!((d.version, d.id, d.tag, d.opcode), (2, 5, 0x0102, 1));
    assert_eq!(d.items, s(&["v:2/0=42"]));
    let d = decode::items(&records[2]);
    assert_eq!(d.event_name, "Act32");
    assert_eq!((d.activity, d.related), (Some(ACT_A), Some(ACT_R)));
    assert!(d.items.is_empty());
    let d = decode::items(&records[7]);
    assert_eq!(d.event_name, "InPayload");
    assert_eq!((d.activity, d.related), (Some(ACT_A), None));
    assert_eq!(d.items, s(&["w:3/0=4660"]));
    let d = decode::items(&records[8]);
    assert_eq!(d.event_name, "Empty");
    assert!(d.items.is_empty());
    // Without metadata the decoder walks the (well-terminated) extension
    // chain and then reports "no metadata".
    for (i, rec) in records.iter().enumerate().take(7).skip(3) {
        let mut ctx = EventHeaderEnumeratorContext::new();
        let err = ctx
            .enumerate_with_name_and_data(&rec.name, &rec.event, 100)
            .err();
        assert_eq!(
            err,
            Some(EventHeaderEnumeratorError::NotSupported),
            "event {}",
            i + 1
        );
    }
}
