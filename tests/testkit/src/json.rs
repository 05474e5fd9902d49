//! JSON as the decoders write it, for tests and checks: a value that keeps
//! object members in order and with duplicates (EventHeader events may repeat
//! a field name, and the reference's decoder writes them so), which
//! `serde_json::Value` does not.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

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

    /// An integer's value; None for anything else.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            J::Num(n) => n.to_string().parse().ok(),
            _ => None,
        }
    }

    /// The first object key, at any depth, that repeats an earlier key of
    /// its object.
    pub fn repeated_key(&self) -> Option<&str> {
        match self {
            J::Arr(items) => items.iter().find_map(J::repeated_key),
            J::Obj(members) => members
                .iter()
                .enumerate()
                .find(|(i, (k, _))| members[..*i].iter().any(|(earlier, _)| earlier == k))
                .map(|(_, (k, _))| k.as_str())
                .or_else(|| members.iter().find_map(|(_, v)| v.repeated_key())),
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

/// Parses strict JSON (our own output must be valid UTF-8 JSON); panics
/// with the text's beginning when it is not.
pub fn parse(text: &str) -> J {
    try_parse(text).unwrap_or_else(|e| panic!("{e}"))
}

/// Parses strict JSON; Err says why and shows the text's beginning.
pub fn try_parse(text: &str) -> Result<J, String> {
    serde_json::from_str(text).map_err(|e| format!("invalid JSON ({e}):\n{text:.2000}"))
}
