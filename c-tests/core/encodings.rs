//! Every field encoding and format, decoded to the values written
//! (docs/format.md §4.5, §4.6, §5).

use crate::format::{strings as s, FLAGS_EXT};
use testkit::cargo_tests::{decode, Build, Ran};

fn expected_encodings() -> Vec<(&'static str, &'static str, Vec<String>)> {
    vec![
        (
            "CoreEnc_L5K1",
            "Scalars",
            s(&[
                "u8:2/0=200",
                "i8:2/2=-100",
                "x16:3/3=0xBEEF",
                "u16:3/0=65000",
                "i32:4/2=-2000000000",
                "f32:4/8=3.5",
                "b32:4/7=1",
                "errno:4/4=2",
                "pid:4/5=4242",
                "t32:4/6=86400",
                "ip4:4/17=192.168.1.20",
                "port:3/16=8080",
                "u64:5/0=18000000000000000001",
                "i64:5/2=-9000000000000000001",
                "f64:5/8=-6.25",
                "x64:5/3=0x123456789ABCDEF",
                "t64:5/6=1700000000",
                "u32:4/1=4000000000",
                "v128:6/0=00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f",
                "guid:6/15=10325476-98ba-dcfe-0123-456789abcdef",
                "ip6:6/17=2001:db8::1",
                "ch8:2/10=Z",
                "ch16:3/11=\u{e9}",
                "ch32:4/11=\u{1f600}",
            ]),
        ),
        (
            "CoreEnc_L5K1",
            "Strings",
            s(&[
                "z8:7/0=hello",
                "z16:8/0=wide16",
                "z32:9/0=wide32",
                "zjson:7/14={\"a\":1}",
                "s8:10/0=counted",
                "s16:11/0=c16",
                "s32:12/0=c32!",
                "bin:13/0=de ad be ef 00",
                "empty:7/0=",
                "s8empty:10/0=",
                "hexstr:7/9=41 42",
            ]),
        ),
        (
            "CoreEnc_L5K1",
            "Arrays",
            s(&[
                "ca32[c3",
                "ca32:4/0=1",
                "ca32:4/0=2",
                "ca32:4/0=3",
                "]",
                "va16[v4",
                "va16:3/2=-1",
                "va16:3/2=2",
                "va16:3/2=-3",
                "va16:3/2=4",
                "]",
                "vaz[v3",
                "vaz:7/0=a",
                "vaz:7/0=",
                "vaz:7/0=bc",
                "]",
                "ca8hex[c2",
                "ca8hex:2/3=0xA",
                "ca8hex:2/3=0xFF",
                "]",
                "va0[v0",
                "]",
                "cas16[c2",
                "cas16:11/0=xy",
                "cas16:11/0=z",
                "]",
            ]),
        ),
        (
            "CoreEnc_L5K1",
            "Structs",
            s(&[
                "outer{3",
                "a:2/0=7",
                "inner{2",
                "x:3/0=300",
                "s:7/0=in",
                "}",
                "b:4/2=-1",
                "}",
                "after:2/0=9",
                "sarr[v2",
                "sarr{2",
                "k:2/10=A",
                "v:3/0=1",
                "}",
                "sarr{2",
                "k:2/10=B",
                "v:3/0=2",
                "}",
                "]",
                "holder{2",
                "cv[c2",
                "cv:3/0=5",
                "cv:3/0=6",
                "]",
                "vs[v2",
                "vs:7/0=p",
                "vs:7/0=q",
                "]",
                "}",
            ]),
        ),
        (
            "CoreEnc_L4K10",
            "Tags",
            s(&[
                "tagged:4/3#1234=0xCAFE",
                "tstruct{1#beef",
                "m:2/0=1",
                "}",
                "ztag:7/11#1=t",
                "catag[c2#7777",
                "catag:3/1#7777=10",
                "catag:3/1#7777=20",
                "]",
            ]),
        ),
    ]
}

/// `encodings` in capture mode: every field encoding decodes to the values
/// written.
pub fn check(build: &Build, ran: &Ran) {
    let expected = expected_encodings();
    let records = &ran.records;
    assert_eq!(ran.words("written"), ["5"]);
    assert_eq!(
        records.len(),
        expected.len(),
        "{}: records {records:?}",
        build.label
    );
    for (rec, (tp, event, items)) in records.iter().zip(&expected) {
        assert_eq!(rec.name, *tp);
        let d = decode::items(rec);
        assert_eq!(d.event_name, *event);
        assert_eq!(d.provider, "CoreEnc");
        assert_eq!(d.options, "");
        assert_eq!(d.flags, FLAGS_EXT, "{event}: flags");
        assert_eq!(d.activity, None);
        assert_eq!(&d.items, items, "{}: {event}", build.label);
        if *event == "Tags" {
            assert_eq!(
                (d.version, d.id, d.tag, d.opcode, d.level, d.keyword),
                (3, 77, 0xABCD, 1, 4, 0x10)
            );
        } else {
            assert_eq!(
                (d.version, d.id, d.tag, d.opcode, d.level, d.keyword),
                (0, 0, 0, 0, 5, 1)
            );
        }
    }
    let n: usize = expected.iter().map(|(_, _, items)| items.len()).sum();
    eprintln!(
        "encodings ({}): {} events, {n} items decoded",
        build.label,
        records.len()
    );
}
