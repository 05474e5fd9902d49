//! Field terms against one event's decoded values: the decoder offers each
//! field's value with its path (`a.b` for nested fields), and an event
//! matches when every term held for one of them. A field the event lacks
//! holds no term. Values are read as the field's type says (signed,
//! unsigned, float); strings and other types (GUIDs, addresses, booleans)
//! compare as the text the decoder shows, without JSON.

use eventheader_types::{FieldEncoding as E, FieldFormat as F};
use tracepoint_decode as td;

use super::terms::{FieldTerm, Num, Op};

/// Which terms held so far for the current event (reused event to event).
#[derive(Debug, Default)]
pub struct Matcher {
    held: Vec<bool>,
    left: usize,
    text: String,
}

impl Matcher {
    /// Starts an event: no term held yet.
    pub fn begin(&mut self, terms: &[FieldTerm]) {
        self.held.clear();
        self.held.resize(terms.len(), false);
        self.left = terms.len();
    }

    /// Every term held.
    pub fn all_hold(&self) -> bool {
        self.left == 0
    }

    /// Is the field at `path` named by a term still open? (The decoder
    /// skips the others.)
    pub fn wants(&self, terms: &[FieldTerm], path: &[u8]) -> bool {
        terms
            .iter()
            .zip(&self.held)
            .any(|(t, held)| !held && t.path.as_bytes() == path)
    }

    /// The field at `path` has `value` (a scalar, or an array whose
    /// elements each count).
    pub fn offer(&mut self, terms: &[FieldTerm], path: &[u8], value: &td::PerfItemValue<'_>) {
        for (i, t) in terms.iter().enumerate() {
            if self.held[i] || t.path.as_bytes() != path {
                continue;
            }
            if holds(t, value, &mut self.text) {
                self.held[i] = true;
                self.left -= 1;
            }
        }
    }
}

/// Does `t` hold for `value` (one of its elements, for an array)?
fn holds(t: &FieldTerm, value: &td::PerfItemValue<'_>, text: &mut String) -> bool {
    let m = value.metadata();
    if m.is_scalar() {
        return holds_at(t, value, None, text);
    }
    let size = usize::from(m.type_size());
    if size == 0 {
        return false;
    }
    let count = usize::from(m.element_count()).min(value.bytes().len() / size);
    (0..count).any(|i| holds_at(t, value, Some(i), text))
}

fn holds_at(
    t: &FieldTerm,
    value: &td::PerfItemValue<'_>,
    index: Option<usize>,
    text: &mut String,
) -> bool {
    let num = number(value, index.unwrap_or(0));
    match (t.op, num, t.num) {
        (op, Some(a), Some(b)) => a.compare(op, b),
        (Op::Eq, _, _) => {
            text.clear();
            let convert = td::PerfConvertOptions::None;
            let written = match index {
                Some(i) => value.write_simple_element_to(text, i, convert),
                None if value.metadata().encoding() == E::Struct => return false,
                None => value.write_scalar_to(text, convert),
            };
            written.is_ok() && *text == t.text
        }
        _ => false,
    }
}

/// The number at element `index` of a fixed-size value, read as its
/// format says; None for other types (strings, GUIDs, addresses).
fn number(value: &td::PerfItemValue<'_>, index: usize) -> Option<Num> {
    let m = value.metadata();
    let size = match m.encoding() {
        E::Value8 => 1,
        E::Value16 => 2,
        E::Value32 => 4,
        E::Value64 => 8,
        _ => return None,
    };
    if (index + 1) * size > value.bytes().len() {
        return None;
    }
    let signed = |v: i64| Some(Num::Int(i128::from(v)));
    let unsigned = |v: u64| Some(Num::Int(i128::from(v)));
    match m.format() {
        F::Float => match size {
            4 => Some(Num::Float(f64::from(value.to_f32(index)))),
            8 => Some(Num::Float(value.to_f64(index))),
            _ => None,
        },
        F::SignedInt | F::Errno | F::Pid | F::Time => match size {
            1 => signed(value.to_i8(index).into()),
            2 => signed(value.to_i16(index).into()),
            4 => signed(value.to_i32(index).into()),
            _ => signed(value.to_i64(index)),
        },
        F::Default | F::UnsignedInt | F::HexInt | F::Boolean => match size {
            1 => unsigned(value.to_u8(index).into()),
            2 => unsigned(value.to_u16(index).into()),
            4 => unsigned(value.to_u32(index).into()),
            _ => unsigned(value.to_u64(index)),
        },
        F::Port if size == 2 => unsigned(value.to_port(index).into()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::terms::parse_field_term;
    use super::*;

    fn value(bytes: &[u8], encoding: E, format: F, count: u16) -> td::PerfItemValue<'_> {
        let size = match encoding {
            E::Value8 => 1,
            E::Value16 => 2,
            E::Value32 => 4,
            E::Value64 => 8,
            _ => 0,
        };
        let encoding = if count == 0 {
            encoding
        } else {
            encoding.with_flags(E::CArrayFlag)
        };
        td::PerfItemValue::new(
            bytes,
            td::PerfItemMetadata::new(
                td::PerfByteReader::new(false),
                encoding,
                format,
                count == 0,
                size,
                count.max(1),
                0,
            ),
        )
    }

    fn check(term: &str, v: &td::PerfItemValue<'_>, path: &[u8]) -> bool {
        let terms = [parse_field_term(term).unwrap()];
        let mut m = Matcher::default();
        m.begin(&terms);
        m.offer(&terms, path, v);
        m.all_hold()
    }

    #[test]
    fn typed_comparisons() {
        let minus_one = (-1i32).to_le_bytes();
        let s = value(&minus_one, E::Value32, F::SignedInt, 0);
        assert!(check("x<0", &s, b"x"));
        assert!(check("x=-1", &s, b"x"));
        assert!(!check("x>0", &s, b"x"));
        assert!(!check("y<0", &s, b"x"), "another field");
        let u = value(&minus_one, E::Value32, F::UnsignedInt, 0);
        assert!(check("x>0", &u, b"x"));
        assert!(check("x=4294967295", &u, b"x"));
        assert!(check("x=0xffffffff", &u, b"x"));
        let f = 2.5f64.to_le_bytes();
        let f = value(&f, E::Value64, F::Float, 0);
        assert!(check("a.b>2", &f, b"a.b"));
        assert!(check("a.b=2.5", &f, b"a.b"));
        assert!(!check("a.b<=2", &f, b"a.b"));
        let s = value(b"hello", E::StringLength16Char8, F::Default, 0);
        assert!(check("m=hello", &s, b"m"));
        assert!(!check("m=hell", &s, b"m"));
        assert!(!check("m<5", &s, b"m"), "a string is no number");
        let b = value(&[1, 0, 0, 0], E::Value32, F::Boolean, 0);
        assert!(check("ok=true", &b, b"ok"));
        assert!(check("ok=1", &b, b"ok"));
        let arr = [1u8, 0, 7, 0];
        let a = value(&arr, E::Value16, F::UnsignedInt, 2);
        assert!(check("v=7", &a, b"v"));
        assert!(check("v>6", &a, b"v"));
        assert!(!check("v>7", &a, b"v"));
    }

    #[test]
    fn every_term_must_hold() {
        let terms = [
            parse_field_term("a>1").unwrap(),
            parse_field_term("b=x").unwrap(),
        ];
        let two = [2u8];
        let a = value(&two, E::Value8, F::UnsignedInt, 0);
        let b = value(b"x", E::ZStringChar8, F::Default, 0);
        let mut m = Matcher::default();
        m.begin(&terms);
        assert!(m.wants(&terms, b"a"));
        m.offer(&terms, b"a", &a);
        assert!(!m.wants(&terms, b"a"));
        assert!(!m.all_hold(), "b absent");
        m.offer(&terms, b"b", &b);
        assert!(m.all_hold());
        m.begin(&terms);
        assert!(!m.all_hold());
    }
}
