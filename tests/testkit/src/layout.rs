//! Plain (non-EventHeader) tracepoint payloads against a layout written in
//! the kernel's user_events syntax (`u16 port; u8[16] id; __rel_loc u8[]
//! blob; struct T name 8; ...`): fields are packed in declaration order; a
//! `__rel_loc` field is a u32 `size << 16 | offset` whose offset counts from
//! the end of that word. Written from the kernel's documentation, not from
//! tracepoint-provider.h.

use std::collections::BTreeMap;
use std::fmt;

/// A decoded field value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    U(u64),
    S(i64),
    Bytes(Vec<u8>),
}

impl fmt::Display for Value {
    /// Numbers in decimal, bytes as `[hex]` (longer than 32 bytes: the first
    /// 32, then `... (N bytes)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::U(v) => write!(f, "{v}"),
            Value::S(v) => write!(f, "{v}"),
            Value::Bytes(b) if b.len() > 32 => {
                write!(f, "[{}... ({} bytes)]", hex(&b[..32]), b.len())
            }
            Value::Bytes(b) => write!(f, "[{}]", hex(b)),
        }
    }
}

/// Bytes as lowercase hex digits.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// How a field is stored in the fixed part of the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Unsigned(usize),
    Signed(usize),
    /// Fixed-size bytes: char[N], unsigned char[N], u8[N], struct T name N.
    Fixed(usize),
    RelLoc,
}

impl Kind {
    /// Bytes in the fixed part of the event.
    pub fn size(self) -> usize {
        match self {
            Kind::Unsigned(n) | Kind::Signed(n) | Kind::Fixed(n) => n,
            Kind::RelLoc => 4,
        }
    }
}

/// One declared field.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    /// The declared type ("u16", "char[4]", "struct ta_point", "u8[]" for
    /// __rel_loc u8[]).
    pub ty: String,
    pub kind: Kind,
}

/// Parses the argument part of a registration string.
pub fn parse(args: &str) -> Result<Vec<Field>, String> {
    let mut fields = Vec::new();
    for decl in args.split(';').map(str::trim).filter(|d| !d.is_empty()) {
        let words: Vec<&str> = decl.split_whitespace().collect();
        let field = match words.as_slice() {
            ["__rel_loc", ty @ .., name] if !ty.is_empty() => Field {
                name: name.to_string(),
                ty: ty.join(" "),
                kind: Kind::RelLoc,
            },
            ["struct", ty, name, size] => Field {
                name: name.to_string(),
                ty: format!("struct {ty}"),
                kind: Kind::Fixed(size.parse().map_err(|_| format!("bad size in '{decl}'"))?),
            },
            [ty @ .., name] if !ty.is_empty() => {
                let ty = ty.join(" ");
                let kind = match ty.as_str() {
                    "u8" => Kind::Unsigned(1),
                    "u16" => Kind::Unsigned(2),
                    "u32" => Kind::Unsigned(4),
                    "u64" => Kind::Unsigned(8),
                    "s8" | "char" => Kind::Signed(1),
                    "s16" => Kind::Signed(2),
                    "s32" => Kind::Signed(4),
                    "s64" => Kind::Signed(8),
                    _ => {
                        let count = ty
                            .strip_suffix(']')
                            .and_then(|t| t.split_once('['))
                            .filter(|(elem, _)| matches!(*elem, "char" | "unsigned char" | "u8"))
                            .and_then(|(_, n)| n.parse::<usize>().ok())
                            .ok_or_else(|| format!("unknown type in '{decl}'"))?;
                        Kind::Fixed(count)
                    }
                };
                Field {
                    name: name.to_string(),
                    ty,
                    kind,
                }
            }
            _ => return Err(format!("cannot parse field '{decl}'")),
        };
        fields.push(field);
    }
    Ok(fields)
}

/// Name -> declared fields, from registration strings, each `name args` or
/// `flags<TAB>name args` (the reference's `tpp_all.cmd`).
pub fn layouts_of<'a>(
    lines: impl IntoIterator<Item = &'a str>,
) -> Result<BTreeMap<String, Vec<Field>>, String> {
    lines
        .into_iter()
        .map(|line| {
            let name_args = line.split_once('\t').map_or(line, |(_, r)| r);
            let (name, args) = name_args.split_once(' ').unwrap_or((name_args, ""));
            let fields = parse(args).map_err(|e| format!("{line}: {e}"))?;
            Ok((name.to_string(), fields))
        })
        .collect()
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")))
}

/// The data a `__rel_loc` word at `at` points to: `size << 16 | offset`,
/// the offset counted from the end of the word.
pub fn rel_loc(bytes: &[u8], at: usize) -> Result<&[u8], String> {
    let word = u32_at(bytes, at)
        .ok_or_else(|| format!("__rel_loc word at {at} beyond {} bytes", bytes.len()))?;
    let size = (word >> 16) as usize;
    let start = at + 4 + (word & 0xffff) as usize;
    bytes.get(start..start + size).ok_or_else(|| {
        format!(
            "__rel_loc word {word:#010x} at {at} points beyond {} bytes",
            bytes.len()
        )
    })
}

/// Reads a little-endian field of `kind` at `at`.
pub fn read(kind: Kind, bytes: &[u8], at: usize) -> Result<Value, String> {
    let get = |n: usize| {
        bytes
            .get(at..at + n)
            .ok_or_else(|| format!("field at {at}+{n} beyond {} bytes", bytes.len()))
    };
    Ok(match kind {
        Kind::Unsigned(n) => {
            let mut v = [0u8; 8];
            v[..n].copy_from_slice(get(n)?);
            Value::U(u64::from_le_bytes(v))
        }
        Kind::Signed(n) => {
            let mut v = [0u8; 8];
            v[..n].copy_from_slice(get(n)?);
            let shift = 64 - 8 * n as u32;
            Value::S((i64::from_le_bytes(v) << shift) >> shift)
        }
        Kind::Fixed(n) => Value::Bytes(get(n)?.to_vec()),
        Kind::RelLoc => Value::Bytes(rel_loc(bytes, at)?.to_vec()),
    })
}

/// Decodes `payload`: the value of each field, and the end of the bytes the
/// fields use (the fixed part, or the end of the furthest __rel_loc data).
pub fn decode(fields: &[Field], payload: &[u8]) -> Result<(Vec<(String, Value)>, usize), String> {
    let mut values = Vec::new();
    let mut pos = 0;
    let mut end = 0;
    for f in fields {
        let value = read(f.kind, payload, pos)?;
        if let (Kind::RelLoc, Value::Bytes(data), Some(word)) =
            (f.kind, &value, u32_at(payload, pos))
        {
            end = end.max(pos + 4 + (word & 0xffff) as usize + data.len());
        }
        pos += f.kind.size();
        values.push((f.name.clone(), value));
    }
    Ok((values, end.max(pos)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_loc_counts_from_the_end_of_its_word() {
        let fields = parse("u16 port; __rel_loc char[] path; s8 x").unwrap();
        // port 8080, word: 3 bytes 1 after the word's end, x = -1, "hi\0"
        let payload = [0x90, 0x1f, 0x01, 0x00, 0x03, 0x00, 0xff, b'h', b'i', 0];
        let (values, end) = decode(&fields, &payload).unwrap();
        assert_eq!(
            values,
            vec![
                ("port".into(), Value::U(8080)),
                ("path".into(), Value::Bytes(b"hi\0".to_vec())),
                ("x".into(), Value::S(-1)),
            ]
        );
        assert_eq!(end, payload.len());
        assert!(decode(&fields, &payload[..8]).is_err());
    }

    #[test]
    fn layouts_take_flags_and_bare_names() {
        let l = layouts_of(["0\tA u8 a; struct T t 8;", "B"]).unwrap();
        assert_eq!(l["A"][1].kind, Kind::Fixed(8));
        assert!(l["B"].is_empty());
        assert!(layouts_of(["C u9 x"]).is_err());
    }
}
