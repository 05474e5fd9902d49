//! The providers a program file declares, read from its ELF sections
//! without running it: each TraceLogging call site (a pointer in section
//! `_tlgSites`) points at its provider, whose `eventheader_provider.name`
//! is the provider's name; each tracepoint-provider.h tracepoint (a pointer
//! in a section `_tppEvts_*`) points at its `tracepoint_definition`, whose
//! registration string starts with the tracepoint's name.
//!
//! 64-bit little-endian ELF only (x86_64, aarch64, riscv64); other files
//! declare nothing here. A pointer's value is its dynamic relocation's
//! (RELATIVE, or a symbol's value plus addend), else the bytes in the file
//! (RELR relocations and position-dependent programs keep it there). Every
//! offset and count read from the file is checked; reads are positioned,
//! so memory stays small whatever the file's size.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fs::File;
use std::os::unix::fs::FileExt;

/// The most call sites and tracepoints looked at (a program has hundreds).
const MAX_POINTERS: u64 = 1 << 16;
/// The most relocation entries looked through.
const MAX_RELOCATIONS: u64 = 1 << 24;

struct Section {
    name: String,
    kind: u32,
    flags: u64,
    addr: u64,
    offset: u64,
    size: u64,
    link: u32,
}

const SHT_RELA: u32 = 4;
const SHT_NOBITS: u32 = 8;
const SHF_ALLOC: u64 = 2;

struct Elf<'a> {
    file: &'a File,
    len: u64,
    sections: Vec<Section>,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or([0; 4]))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]))
}

impl Elf<'_> {
    fn read(&self, offset: u64, n: usize) -> Option<Vec<u8>> {
        if offset.checked_add(n as u64)? > self.len {
            return None;
        }
        let mut buf = vec![0u8; n];
        self.file.read_exact_at(&mut buf, offset).ok()?;
        Some(buf)
    }

    /// The file bytes at virtual address `addr` (zeros in `.bss`).
    fn read_addr(&self, addr: u64, n: usize) -> Option<Vec<u8>> {
        let s = self.sections.iter().find(|s| {
            s.flags & SHF_ALLOC != 0
                && addr >= s.addr
                && addr
                    .checked_add(n as u64)
                    .is_some_and(|end| end <= s.addr + s.size)
        })?;
        if s.kind == SHT_NOBITS {
            return Some(vec![0; n]);
        }
        self.read(s.offset + (addr - s.addr), n)
    }

    /// The values of the pointers at `addrs`, after the dynamic relocations.
    fn pointers(&self, addrs: &[u64]) -> HashMap<u64, u64> {
        let wanted: HashSet<u64> = addrs.iter().copied().collect();
        let mut out = HashMap::new();
        let mut looked = 0u64;
        for rela in self
            .sections
            .iter()
            .filter(|s| s.kind == SHT_RELA && s.flags & SHF_ALLOC != 0)
        {
            let symtab = self.sections.get(rela.link as usize);
            for i in 0..rela.size / 24 {
                looked += 1;
                if looked > MAX_RELOCATIONS {
                    break;
                }
                let Some(e) = self.read(rela.offset + i * 24, 24) else {
                    break;
                };
                let (at, info, addend) = (u64_at(&e, 0), u64_at(&e, 8), u64_at(&e, 16));
                if !wanted.contains(&at) {
                    continue;
                }
                let (kind, sym) = ((info & 0xffff_ffff) as u32, info >> 32);
                let value = match kind {
                    // RELATIVE (x86_64, aarch64, riscv64)
                    8 | 1027 | 3 if sym == 0 => Some(addend),
                    // 64-bit absolute and GOT entries against a symbol
                    1 | 6 | 257 | 1025 | 2 => symtab.and_then(|t| {
                        let v = self.read(t.offset.checked_add(sym.checked_mul(24)?)?, 24)?;
                        Some(u64_at(&v, 8).wrapping_add(addend))
                    }),
                    _ => None,
                };
                if let Some(v) = value {
                    out.insert(at, v);
                }
            }
        }
        for &a in addrs {
            if let std::collections::hash_map::Entry::Vacant(slot) = out.entry(a) {
                if let Some(b) = self.read_addr(a, 8) {
                    slot.insert(u64_at(&b, 0));
                }
            }
        }
        out
    }

    /// The NUL-terminated printable string at `addr` (at most 256 bytes).
    fn string(&self, addr: u64) -> Option<String> {
        let s = self.sections.iter().find(|s| {
            s.flags & SHF_ALLOC != 0
                && s.kind != SHT_NOBITS
                && addr >= s.addr
                && addr < s.addr + s.size
        })?;
        let n = (s.addr + s.size - addr).min(257) as usize;
        let b = self.read(s.offset + (addr - s.addr), n)?;
        let end = b.iter().position(|&c| c == 0)?;
        let text = std::str::from_utf8(&b[..end]).ok()?;
        (!text.is_empty() && !text.chars().any(char::is_control)).then(|| text.to_owned())
    }
}

fn sections(file: &File, len: u64) -> Option<Vec<Section>> {
    let mut head = [0u8; 64];
    file.read_exact_at(&mut head, 0).ok()?;
    // ELF, 64-bit, little-endian.
    if head[..4] != *b"\x7fELF" || head[4] != 2 || head[5] != 1 {
        return None;
    }
    let shoff = u64_at(&head, 0x28);
    let (entsize, count, names) = (
        u16_at(&head, 0x3a) as u64,
        u16_at(&head, 0x3c) as u64,
        u16_at(&head, 0x3e) as usize,
    );
    if entsize < 64 || count == 0 || shoff.checked_add(entsize * count)? > len {
        return None;
    }
    let mut table = vec![0u8; (entsize * count) as usize];
    file.read_exact_at(&mut table, shoff).ok()?;
    let raw: Vec<(u32, Section)> = (0..count as usize)
        .map(|i| {
            let h = &table[i * entsize as usize..];
            (
                u32_at(h, 0),
                Section {
                    name: String::new(),
                    kind: u32_at(h, 4),
                    flags: u64_at(h, 8),
                    addr: u64_at(h, 16),
                    offset: u64_at(h, 24),
                    size: u64_at(h, 32),
                    link: u32_at(h, 40),
                },
            )
        })
        .collect();
    let strtab = &raw.get(names)?.1;
    if strtab.offset.checked_add(strtab.size)? > len || strtab.size > 16 << 20 {
        return None;
    }
    let mut strings = vec![0u8; strtab.size as usize];
    file.read_exact_at(&mut strings, strtab.offset).ok()?;
    Some(
        raw.into_iter()
            .map(|(name_at, mut s)| {
                let tail = strings.get(name_at as usize..).unwrap_or(&[]);
                let end = tail.iter().position(|&c| c == 0).unwrap_or(0);
                s.name = String::from_utf8_lossy(&tail[..end]).into_owned();
                s
            })
            .collect(),
    )
}

/// The providers `file` declares (sorted): TraceLogging provider names and
/// the names of tracepoint-provider.h tracepoints. Empty for a file that is
/// not 64-bit little-endian ELF or declares none.
pub fn providers(file: &File) -> Vec<String> {
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let Some(sections) = sections(file, len) else {
        return Vec::new();
    };
    let elf = Elf {
        file,
        len,
        sections,
    };
    let mut out = BTreeSet::new();
    let slots = |prefix: &str, exact: bool| -> Vec<u64> {
        elf.sections
            .iter()
            .filter(|s| {
                if exact {
                    s.name == prefix
                } else {
                    s.name.starts_with(prefix)
                }
            })
            .flat_map(|s| (0..(s.size / 8).min(MAX_POINTERS)).map(move |i| s.addr + i * 8))
            .collect()
    };
    // TraceLogging: site -> provider (at site + 64: after its
    // tracepoint_state and eventheader_tracepoint) -> name (at + 16).
    let sites = slots("_tlgSites", true);
    let site_of = elf.pointers(&sites);
    let fields: Vec<u64> = site_of
        .values()
        .filter(|&&p| p != 0)
        .map(|p| p + 64)
        .collect();
    let provider_of = elf.pointers(&fields);
    let names: Vec<u64> = provider_of
        .values()
        .filter(|&&p| p != 0)
        .map(|p| p + 16)
        .collect();
    for name in elf.pointers(&names).values() {
        if let Some(n) = elf.string(*name) {
            out.insert(n);
        }
    }
    // tracepoint-provider.h: definition -> registration string (at + 8).
    let defs = slots("_tppEvts_", false);
    let fields: Vec<u64> = elf
        .pointers(&defs)
        .values()
        .filter(|&&p| p != 0)
        .map(|p| p + 8)
        .collect();
    for args in elf.pointers(&fields).values() {
        if let Some(n) = elf.string(*args) {
            if let Some(first) = n.split([' ', ':']).next().filter(|f| !f.is_empty()) {
                out.insert(first.to_owned());
            }
        }
    }
    out.into_iter().collect()
}
