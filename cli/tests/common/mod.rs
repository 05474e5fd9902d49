//! Helpers shared by the CLI's integration tests: where the binary and the
//! shared reference data are, running the binary, and a JSON value that keeps
//! object members in order and with duplicates (EventHeader events may repeat
//! a field name), which `serde_json::Value` does not.
#![allow(dead_code)]

use std::fmt;
use std::path::PathBuf;
use std::process::{Command, Output};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// The `eventheader` binary cargo built for these tests.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_eventheader"))
}

/// Runs `eventheader ARGS` and returns its output.
pub fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .output()
        .expect("running the eventheader binary")
}

/// `../shared/testdata/reference` beside the repository; the tests fail (not
/// skip) without it.
pub fn reference_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata/reference");
    assert!(
        dir.join("perf.data").is_file(),
        "the shared reference data is missing: expected {} (the repository's ../shared/testdata/reference)",
        dir.display()
    );
    dir
}

/// A JSON value with ordered, possibly repeated object members.
#[derive(Clone, Debug, PartialEq)]
pub enum J {
    Null,
    Bool(bool),
    Num(serde_json::Number),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    pub fn get(&self, key: &str) -> Option<&J> {
        match self {
            J::Obj(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            J::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> &[J] {
        match self {
            J::Arr(items) => items,
            other => panic!("expected a JSON array, got {other:?}"),
        }
    }
}

struct JVisitor;

impl<'de> Visitor<'de> for JVisitor {
    type Value = J;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<J, E> {
        Ok(J::Null)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<J, E> {
        Ok(J::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<J, E> {
        Ok(J::Num(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<J, E> {
        Ok(J::Num(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<J, E> {
        serde_json::Number::from_f64(v)
            .map(J::Num)
            .ok_or_else(|| E::custom("non-finite number"))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<J, E> {
        Ok(J::Str(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<J, E> {
        Ok(J::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<J, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(J::Arr(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<J, A::Error> {
        let mut members = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, J>()? {
            members.push((k, v));
        }
        Ok(J::Obj(members))
    }
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<J, D::Error> {
        d.deserialize_any(JVisitor)
    }
}

/// Parses strict JSON (our own output must be valid UTF-8 JSON).
pub fn parse(text: &str) -> J {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{text:.2000}"))
}

/// Parses a stream of JSON values (one array per input).
pub fn parse_stream(text: &str) -> Vec<J> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<J>()
        .map(|v| v.unwrap_or_else(|e| panic!("invalid JSON ({e})")))
        .collect()
}

/// Writes a capture file record: u32 size, name, NUL, event bytes.
pub fn capture_record(out: &mut Vec<u8>, name: &str, event: &[u8]) {
    let size = (4 + name.len() + 1 + event.len()) as u32;
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out.push(0);
    out.extend_from_slice(event);
}

/// The records of a capture file as (name, event bytes).
pub fn capture_records(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let size = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        let body = &bytes[pos + 4..pos + size];
        let nul = body.iter().position(|&b| b == 0).unwrap();
        out.push((
            String::from_utf8(body[..nul].to_vec()).unwrap(),
            body[nul + 1..].to_vec(),
        ));
        pos += size;
    }
    out
}
