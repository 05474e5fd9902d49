//! The structure of `src/` and `cli/src/`: floors point down and there is no
//! circle. The floors are read from the tables of docs/code-layout.md
//! ("Floors of `src/`", "Floors of `cli/src/`"), so the picture there and
//! this check cannot drift apart; every `.rs` file must stand on a floor.
//!
//! A module is one file; its references are the paths that start with
//! `crate::`, `super::`, `self::` or (in the `eventheader` binary) the CLI
//! library's name, read by a small scanner:
//!
//! - comments, string and character literals are skipped, so a path named in
//!   a doc comment is not a reference;
//! - `use` groups (`crate::a::{b, c::d}`) are followed, nested too;
//! - a path names the deepest module file it reaches
//!   (`crate::decode::json::JsonText` is `decode/json.rs`), so an item
//!   re-exported by a parent module counts as the parent's;
//! - `#[cfg(test)] mod NAME { ... }` blocks are left out: unit tests may
//!   reach anything (they are not part of the product);
//! - a module and the modules inside it are one unit: `mod.rs` declares and
//!   re-exports its children and the children use their parent's shared
//!   types, so references between a module and its ancestors are not edges.
//!
//! It fails on (a) a reference from a floor to a floor above it and (b) a
//! circle of references among modules of one floor.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// One floor of a tree: its number (1 is the bottom) and the paths on it
/// (a file, or a folder ending in `/` holding everything below it).
#[derive(Debug)]
struct Floor {
    number: u32,
    paths: Vec<String>,
}

/// The floors of the table under the heading that contains `heading`.
fn floors_from_doc(doc: &str, heading: &str) -> Vec<Floor> {
    let mut lines = doc
        .lines()
        .skip_while(|l| !(l.starts_with('#') && l.contains(heading)));
    assert!(
        lines.next().is_some(),
        "docs/code-layout.md has no heading {heading:?}"
    );
    let mut floors = Vec::new();
    for line in lines
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Ok(number) = cells[1].parse::<u32>() else {
            continue; // the header and its rule
        };
        let paths = cells[2]
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        floors.push(Floor { number, paths });
    }
    assert!(!floors.is_empty(), "no floors under {heading:?}");
    floors
}

/// The text with comments and string/character literals blanked out
/// (replaced by spaces; line breaks kept).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, s: &[u8]| {
        out.extend(s.iter().map(|&c| if c == b'\n' { b'\n' } else { b' ' }))
    };
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            i + rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            loop {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break j;
                    }
                } else if j + 1 >= b.len() {
                    break b.len();
                } else {
                    j += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(rest) {
            // r"..", r#".."#, br#".."#: up to the quote and as many hashes.
            let open = rest.iter().position(|&c| c == b'"').unwrap() + 1;
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let body = &rest[open..];
            i + open + find(body, &close).map_or(body.len(), |p| p + close.len())
        } else if rest[0] == b'"' || rest.starts_with(b"b\"") {
            let mut j = i + rest.iter().position(|&c| c == b'"').unwrap() + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(b.len())
        } else if rest[0] == b'\'' && is_char_literal(rest) {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'\'' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(b.len())
        } else {
            // An identifier (so that a `b` or `r` ending one does not start
            // a literal), or one other byte.
            let n = rest
                .iter()
                .take_while(|&&c| c == b'_' || c.is_ascii_alphanumeric())
                .count();
            out.extend_from_slice(&rest[..n.max(1)]);
            i += n.max(1);
            continue;
        };
        blank(&mut out, &b[i..end]);
        i = end;
    }
    String::from_utf8(out).expect("blanking keeps UTF-8: only ASCII is replaced")
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The number of hashes of a raw string literal starting here.
fn raw_string_start(s: &[u8]) -> Option<usize> {
    let s = s.strip_prefix(b"b").unwrap_or(s).strip_prefix(b"r")?;
    let hashes = s.iter().take_while(|&&c| c == b'#').count();
    (s.get(hashes) == Some(&b'"')).then_some(hashes)
}

/// `'x'`, `'\n'`, `'\u{..}'` (not a lifetime `'a`).
fn is_char_literal(s: &[u8]) -> bool {
    if s.get(1) == Some(&b'\\') {
        return true;
    }
    // One character (up to 4 bytes of UTF-8), then the closing quote.
    let width = match s.get(1) {
        Some(&c) if c < 0x80 => 1,
        Some(&c) if c >= 0xf0 => 4,
        Some(&c) if c >= 0xe0 => 3,
        Some(_) => 2,
        None => return false,
    };
    s.get(1 + width) == Some(&b'\'')
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Punct(char),
    PathSep,
}

fn tokens(code: &str) -> Vec<Token> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'_' || c.is_ascii_alphabetic() {
            let n = b[i..]
                .iter()
                .take_while(|&&c| c == b'_' || c.is_ascii_alphanumeric())
                .count();
            out.push(Token::Ident(code[i..i + n].to_string()));
            i += n;
        } else if b[i..].starts_with(b"::") {
            out.push(Token::PathSep);
            i += 2;
        } else {
            if !c.is_ascii_whitespace() {
                out.push(Token::Punct(c as char));
            }
            i += 1;
        }
    }
    out
}

/// The paths a `use` group or path expression at `t[*at..]` names, each as
/// its segments (after the `::` that follows the first segment).
fn path_tail(t: &[Token], at: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    loop {
        match t.get(*at) {
            Some(Token::Ident(s)) => {
                path.push(s.clone());
                *at += 1;
            }
            Some(Token::Punct('{')) => {
                *at += 1;
                while *at < t.len() && t[*at] != Token::Punct('}') {
                    path_tail(t, at, &path, out);
                    // Past `as NAME` and up to the next item.
                    while *at < t.len() && !matches!(t[*at], Token::Punct(',' | '}')) {
                        *at += 1;
                    }
                    if t.get(*at) == Some(&Token::Punct(',')) {
                        *at += 1;
                    }
                }
                *at += 1;
                return;
            }
            _ => break,
        }
        if t.get(*at) != Some(&Token::PathSep) {
            break;
        }
        *at += 1;
    }
    out.push(path);
}

/// A module's references: each a path from the crate root (for the binary's
/// references into the library, prefixed with `LIB`), `#[cfg(test)]`
/// modules left out.
fn references(text: &str, module: &[String], lib_name: Option<&str>) -> Vec<Vec<String>> {
    let t = tokens(&code_only(text));
    let mut out = Vec::new();
    // The inline modules around the current position, with the brace depth
    // at which each opened.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match &t[i] {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
            }
            Token::Punct('#') if is_cfg_test(&t[i..]) => {
                // `#[cfg(test)] mod NAME {`: skip to its closing brace.
                let mut j = i + 7;
                if let (Some(Token::Ident(m)), Some(Token::Ident(_)), Some(Token::Punct('{'))) =
                    (t.get(j), t.get(j + 1), t.get(j + 2))
                {
                    if m == "mod" {
                        j += 3;
                        let mut d = 1;
                        while j < t.len() && d > 0 {
                            match t[j] {
                                Token::Punct('{') => d += 1,
                                Token::Punct('}') => d -= 1,
                                _ => {}
                            }
                            j += 1;
                        }
                        i = j;
                        continue;
                    }
                }
            }
            Token::Ident(m) if m == "mod" => {
                if let (Some(Token::Ident(name)), Some(Token::Punct('{'))) =
                    (t.get(i + 1), t.get(i + 2))
                {
                    inline.push((name.clone(), depth));
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            Token::Ident(first) if t.get(i + 1) == Some(&Token::PathSep) => {
                // Not the tail of a longer path (`a::crate` is not Rust;
                // `x::super` neither), so only a path's first segment starts one.
                let after_sep = i > 0 && t[i - 1] == Token::PathSep;
                let here: Vec<String> = module
                    .iter()
                    .cloned()
                    .chain(inline.iter().map(|(n, _)| n.clone()))
                    .collect();
                let start: Option<Vec<String>> = match first.as_str() {
                    _ if after_sep => None,
                    "crate" => Some(Vec::new()),
                    "self" => Some(here.clone()),
                    "super" => {
                        // super::super::...: one level per segment.
                        let mut base = here.clone();
                        let mut j = i;
                        while matches!(&t.get(j), Some(Token::Ident(s)) if s == "super")
                            && t.get(j + 1) == Some(&Token::PathSep)
                        {
                            base.pop();
                            j += 2;
                        }
                        let mut at = j;
                        path_tail(&t, &mut at, &base, &mut out);
                        i = at;
                        continue;
                    }
                    name if Some(name) == lib_name => Some(vec!["LIB".to_string()]),
                    _ => None,
                };
                if let Some(base) = start {
                    let mut at = i + 2;
                    path_tail(&t, &mut at, &base, &mut out);
                    i = at;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn is_cfg_test(t: &[Token]) -> bool {
    let want = ["#", "[", "cfg", "(", "test", ")", "]"];
    t.len() >= want.len()
        && t.iter().zip(want).all(|(tok, w)| match tok {
            Token::Ident(s) => s == w,
            Token::Punct(c) => c.to_string() == w,
            Token::PathSep => false,
        })
}

/// One crate's modules: module path -> file (relative to the repository).
type Modules = BTreeMap<Vec<String>, String>;

/// The deepest module `path` reaches.
fn resolve(modules: &Modules, path: &[String]) -> Option<String> {
    (0..=path.len())
        .rev()
        .find_map(|n| modules.get(&path[..n]).cloned())
}

/// What the check finds wrong in a tree: `files` are (path relative to the
/// repository, text); `lib` is the tree's library root (`src/lib.rs`); a
/// `main.rs` beside it is the binary, with the modules it declares, and
/// `lib_name` is the name by which it reaches the library.
fn check(files: &[(String, String)], floors: &[Floor], lib: &str, lib_name: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let dir = lib.strip_suffix("lib.rs").expect("a lib.rs");
    let bin_root = format!("{dir}main.rs");
    let bin_mods: BTreeSet<String> = files
        .iter()
        .filter(|(p, _)| *p == bin_root)
        .flat_map(|(_, text)| {
            let t = tokens(&code_only(text));
            (0..t.len().saturating_sub(2))
                .filter(|&i| t[i] == Token::Ident("mod".into()) && t[i + 2] == Token::Punct(';'))
                .filter_map(|i| match &t[i + 1] {
                    Token::Ident(n) => Some(n.clone()),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
        .collect();
    // The module path of each file, in its crate (`true`: the binary).
    let mut lib_mods = Modules::new();
    let mut bin_modules = Modules::new();
    let mut of_file: BTreeMap<String, (bool, Vec<String>)> = BTreeMap::new();
    for (path, _) in files {
        let rel = path
            .strip_prefix(dir)
            .expect("under the tree")
            .trim_end_matches(".rs");
        let mut segs: Vec<String> = rel.split('/').map(str::to_string).collect();
        if segs.last().is_some_and(|s| s == "mod") || rel == "lib" || rel == "main" {
            segs.pop();
        }
        let in_bin = *path == bin_root || segs.first().is_some_and(|s| bin_mods.contains(s));
        if in_bin {
            bin_modules.insert(segs.clone(), path.clone());
        } else {
            lib_mods.insert(segs.clone(), path.clone());
        }
        of_file.insert(path.clone(), (in_bin, segs));
    }
    // Each file's floor.
    let floor_of = |path: &str| {
        floors
            .iter()
            .flat_map(|f| f.paths.iter().map(move |p| (p, f.number)))
            .filter(|(p, _)| *p == path || (p.ends_with('/') && path.starts_with(p.as_str())))
            .max_by_key(|(p, _)| p.len())
            .map(|(_, n)| n)
    };
    for f in floors {
        for p in &f.paths {
            if !files
                .iter()
                .any(|(path, _)| path == p || (p.ends_with('/') && path.starts_with(p.as_str())))
            {
                problems.push(format!("floor {}: {p} names no file", f.number));
            }
        }
    }
    // The edges, file to file, and the arrows up (one per pair of files).
    let mut up: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in files {
        let Some(from_floor) = floor_of(path) else {
            problems.push(format!("{path} stands on no floor of docs/code-layout.md"));
            continue;
        };
        let (in_bin, module) = &of_file[path];
        let name = in_bin.then_some(lib_name);
        for r in references(text, module, name) {
            let (target, same_crate) = if r.first().is_some_and(|s| s == "LIB") {
                (resolve(&lib_mods, &r[1..]), false)
            } else if *in_bin {
                (resolve(&bin_modules, &r), true)
            } else {
                (resolve(&lib_mods, &r), true)
            };
            let Some(target) = target else { continue };
            let target_module = &of_file[&target].1;
            let related = target_module.starts_with(module) || module.starts_with(target_module);
            if target == *path || (same_crate && related) {
                continue;
            }
            let Some(to_floor) = floor_of(&target) else {
                continue;
            };
            if to_floor > from_floor {
                up.entry((path.clone(), target.clone())).or_insert(format!(
                    "{path} (floor {from_floor}) reaches up to {target} (floor {to_floor}) by `{}`",
                    r.join("::")
                        .replacen("LIB", lib_name, usize::from(!same_crate))
                ));
            } else if to_floor == from_floor {
                edges.entry(path.clone()).or_default().insert(target);
            }
        }
    }
    problems.extend(up.into_values());
    problems.extend(
        cycles(&edges)
            .into_iter()
            .map(|c| format!("a circle on one floor: {}", c.join(" -> "))),
    );
    problems
}

/// The circles of a graph: one per strongly connected component of more
/// than one node, written as a path that closes.
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut found: Vec<Vec<String>> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for start in edges.keys() {
        if seen.contains(start) {
            continue;
        }
        // A path back to `start`, by breadth-first search.
        let mut prev: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        let mut closed = None;
        while let Some(n) = queue.pop_front() {
            for m in edges.get(&n).into_iter().flatten() {
                if m == start {
                    closed = Some(n.clone());
                    break;
                }
                if !prev.contains_key(m) {
                    prev.insert(m.clone(), n.clone());
                    queue.push_back(m.clone());
                }
            }
            if closed.is_some() {
                break;
            }
        }
        if let Some(mut n) = closed {
            let mut circle = vec![start.clone()];
            while n != *start {
                circle.insert(1, n.clone());
                n = prev[&n].clone();
            }
            circle.push(start.clone());
            seen.extend(circle.iter().cloned());
            found.push(circle);
        }
    }
    found
}

fn rust_files(root: &Path, dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.join(dir)];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.expect("directory entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p
                    .strip_prefix(root)
                    .expect("under root")
                    .to_string_lossy()
                    .into_owned();
                let text = fs::read_to_string(&p).unwrap_or_else(|e| panic!("{rel}: {e}"));
                out.push((rel, text));
            }
        }
    }
    out.sort();
    out
}

fn check_tree(dir: &str, heading: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/code-layout.md")).expect("docs/code-layout.md");
    let floors = floors_from_doc(&doc, heading);
    let files = rust_files(root, dir);
    let problems = check(&files, &floors, &format!("{dir}/lib.rs"), "eventheader_cli");
    assert!(
        problems.is_empty(),
        "the structure of {dir}/ (floors: docs/code-layout.md):\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn library_floors_point_down_without_circles() {
    check_tree("src", "Floors of `src/`");
}

#[test]
fn cli_floors_point_down_without_circles() {
    check_tree("cli/src", "Floors of `cli/src/`");
}

// The check on small trees: that it sees what it must and nothing else.

fn tree(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

fn two_floors() -> Vec<Floor> {
    let doc = "### Floors of `x/`\n\n| floor | modules | what |\n|---|---|---|\n\
               | 2 | `x/lib.rs`, `x/main.rs`, `x/top/` | top |\n| 1 | `x/a.rs`, `x/b.rs` | bottom |\n";
    floors_from_doc(doc, "Floors of `x/`")
}

/// The problems of a tree with the floors above (and an empty `main.rs`
/// unless it has one).
fn problems_of(files: &[(&str, &str)]) -> Vec<String> {
    let mut files = tree(files);
    if !files.iter().any(|(p, _)| p == "x/main.rs") {
        files.push(("x/main.rs".into(), String::new()));
    }
    check(&files, &two_floors(), "x/lib.rs", "cli")
}

#[test]
fn the_check_sees_an_arrow_up() {
    let p = problems_of(&[
        ("x/lib.rs", "mod a; mod b; mod top;"),
        ("x/a.rs", "use crate::top::Thing;"),
        ("x/b.rs", ""),
        ("x/top/mod.rs", "use crate::a;"),
    ]);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("x/a.rs (floor 1) reaches up to x/top/mod.rs (floor 2)"),
        "{p:?}"
    );
    // In a group, through super::, and from the binary into the library.
    for (file, text) in [
        ("x/a.rs", "use crate::{b, top::{self, Thing as T}};"),
        ("x/a.rs", "fn f() { super::top::g(); }"),
    ] {
        let p = problems_of(&[
            ("x/lib.rs", ""),
            (file, text),
            ("x/b.rs", ""),
            ("x/top/mod.rs", ""),
        ]);
        assert_eq!(p.len(), 1, "{text}: {p:?}");
    }
}

#[test]
fn the_check_sees_a_circle_on_one_floor() {
    let p = problems_of(&[
        ("x/lib.rs", ""),
        ("x/a.rs", "use super::b::B;"),
        ("x/b.rs", "fn f() { crate::a::g() }"),
        ("x/top/mod.rs", ""),
    ]);
    assert_eq!(
        p,
        ["a circle on one floor: x/a.rs -> x/b.rs -> x/a.rs"],
        "{p:?}"
    );
}

#[test]
fn the_check_ignores_comments_strings_tests_and_parents() {
    let p = problems_of(&[
        ("x/lib.rs", "//! uses [`crate::top`]\n"),
        (
            "x/a.rs",
            "// crate::top::X\n/* crate::top */ const S: &str = \"crate::top::X\";\n\
             const C: char = '{'; fn f<'a>(x: &'a u8) {}\n\
             #[cfg(test)]\nmod tests { use crate::top::X; fn g() { let _ = \"}\"; } }\n\
             mod inner { use super::super::b; }\n",
        ),
        ("x/b.rs", "/// [`crate::top`]\nfn f() {}"),
        (
            "x/top/mod.rs",
            "mod child; pub use child::X; fn g() { crate::a::f() }",
        ),
        ("x/top/child.rs", "use super::g; use crate::top::Y;"),
    ]);
    assert!(p.is_empty(), "{p:?}");
}

#[test]
fn the_check_wants_every_file_on_a_floor() {
    let p = problems_of(&[
        ("x/lib.rs", ""),
        ("x/a.rs", ""),
        ("x/b.rs", ""),
        ("x/top/mod.rs", ""),
        ("x/c.rs", ""),
    ]);
    assert_eq!(p, ["x/c.rs stands on no floor of docs/code-layout.md"]);
    let p = problems_of(&[("x/lib.rs", ""), ("x/a.rs", ""), ("x/top/mod.rs", "")]);
    assert_eq!(p, ["floor 1: x/b.rs names no file"]);
}

#[test]
fn the_binary_reaches_the_library_by_its_name() {
    let p = problems_of(&[
        ("x/lib.rs", ""),
        ("x/main.rs", "mod top; use cli::a::f;"),
        ("x/a.rs", "use cli::top::g;"),
        ("x/b.rs", ""),
        ("x/top/mod.rs", "use crate::a;"),
    ]);
    // `cli::` means the library only in the binary's files (main.rs, top/):
    // a.rs's is some other crate's path, not a reference.
    assert!(p.is_empty(), "{p:?}");
    // The binary's `crate::` is its own root, its `cli::` the library: with
    // the binary below the library, both are seen.
    let doc = "### Floors of `x/`\n\n| floor | modules | what |\n|---|---|---|\n\
               | 2 | `x/lib.rs`, `x/a.rs` | library |\n| 1 | `x/main.rs`, `x/top/` | binary |\n";
    let floors = floors_from_doc(doc, "Floors of `x/`");
    let files = tree(&[
        ("x/lib.rs", ""),
        ("x/main.rs", "mod top; fn main() { cli::a::f() }"),
        ("x/a.rs", ""),
        ("x/top/mod.rs", "use crate::helper; use cli::{self as l};"),
    ]);
    let p = check(&files, &floors, "x/lib.rs", "cli");
    assert_eq!(
        p,
        [
            "x/main.rs (floor 1) reaches up to x/a.rs (floor 2) by `cli::a::f`",
            "x/top/mod.rs (floor 1) reaches up to x/lib.rs (floor 2) by `cli::self`"
        ],
        "{p:?}"
    );
}
