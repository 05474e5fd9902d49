//! Criterion micro-benchmarks of the Rust packing paths:
//! - `pack_prefix`: the EventHeader header (+ activity id extension) that
//!   `eventheader_write` builds for every event;
//! - `format_command`: the "Name_LxKx[Options] arg-spec" registration string
//!   built for every `eventheader_connect` (registration path);
//! - `eventheader_write` end to end through the C ABI, in capture mode to
//!   /dev/null (library cost + one writev syscall).
//!
//! Run: `cargo bench --bench packing` (the C benchmarks in benches/c measure
//! the C-facing hot path; see docs/performance.md).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use eventheader_tracepoint::abi::{EventHeader, EventHeaderExtension, TracepointProviderState};
use eventheader_tracepoint::abi::{EventHeaderProvider, EventHeaderTracepoint};
use eventheader_tracepoint::abi::{TracepointListNode, TracepointState};
use eventheader_tracepoint::eventheader::names::{format_command, CommandBuf};
use eventheader_tracepoint::eventheader::prefix::{pack_prefix, PREFIX_MAX};
use eventheader_tracepoint::ffi::capture_api::tracepoint_set_capture_file;
use eventheader_tracepoint::ffi::eventheader_api::{
    eventheader_close_provider, eventheader_connect, eventheader_open_provider, eventheader_write,
};

const HEADER: EventHeader = EventHeader {
    flags: 0x07,
    version: 0,
    id: 0,
    tag: 0,
    opcode: 0,
    level: 5,
};

fn bench_pack_prefix(c: &mut Criterion) {
    let mut group = c.benchmark_group("pack_prefix");
    let id = [0x11u8; 16];
    let related = [0x22u8; 16];
    let mut out = [0u8; PREFIX_MAX];
    group.bench_function("header+metadata", |b| {
        b.iter(|| {
            pack_prefix(
                black_box(&mut out),
                black_box(&HEADER),
                None,
                black_box(true),
            )
        })
    });
    group.bench_function("header+activity", |b| {
        b.iter(|| {
            pack_prefix(
                black_box(&mut out),
                black_box(&HEADER),
                Some((black_box(&id), None)),
                black_box(true),
            )
        })
    });
    group.bench_function("header+activity+related", |b| {
        b.iter(|| {
            pack_prefix(
                black_box(&mut out),
                black_box(&HEADER),
                Some((black_box(&id), Some(black_box(&related)))),
                black_box(true),
            )
        })
    });
    group.finish();
}

fn bench_format_command(c: &mut Criterion) {
    let mut group = c.benchmark_group("format_command");
    let mut buf = CommandBuf::default();
    group.bench_function("short", |b| {
        b.iter(|| {
            format_command(
                black_box(&mut buf),
                black_box(b"EhtBench"),
                black_box(5),
                black_box(1),
                black_box(b""),
            )
        })
    });
    group.bench_function("long keyword + group", |b| {
        b.iter(|| {
            format_command(
                black_box(&mut buf),
                black_box(b"MyCompany_MyComponent_Subsystem"),
                black_box(4),
                black_box(0x8000_0000_0000_00ff),
                black_box(b"Gmygroup"),
            )
        })
    });
    group.finish();
}

/// A metadata block: extension header + "Bench5\0" + 5 field descriptors.
#[repr(C)]
struct Meta {
    ext: EventHeaderExtension,
    body: [u8; 37],
}

static META: Meta = Meta {
    ext: EventHeaderExtension { size: 37, kind: 1 },
    body: *b"Bench5\0i32\0\x84\x02u64\0\x05str\0\x87\x0af64\0\x85\x08flag\0\x82\x07",
};

fn bench_write(c: &mut Criterion) {
    const NODE: TracepointListNode = TracepointListNode {
        next: std::ptr::null_mut(),
        prev: std::ptr::null_mut(),
    };
    let provider_state = Box::leak(Box::new(TracepointProviderState {
        data_file: -1,
        ref_count: 0,
        tracepoint_list_head: NODE,
    }));
    let tp_state = Box::leak(Box::new(TracepointState {
        status_word: 0,
        write_index: -1,
        provider_state: std::ptr::null(),
        tracepoint_list_link: NODE,
    }));
    let provider = EventHeaderProvider {
        state: provider_state,
        options: c"".as_ptr(),
        name: c"EhtCriterion".as_ptr(),
    };
    let event = EventHeaderTracepoint {
        state: tp_state,
        metadata: &META.ext,
        header: HEADER,
        keyword: 1,
    };
    // SAFETY: valid C string, provider and event that outlive their use
    // (both are closed below, before they go out of scope).
    unsafe {
        assert_eq!(tracepoint_set_capture_file(c"/dev/null".as_ptr()), 0);
        assert_eq!(eventheader_open_provider(&provider), 0);
        assert_eq!(eventheader_connect(&event, &provider), 0);
    }

    let i32v: i32 = -5;
    let u64v: u64 = 3;
    let s = b"hello, world\0";
    let f64v: f64 = 0.5;
    let boolv: u8 = 1;
    let vec = |p: *const u8, n: usize| libc::iovec {
        iov_base: p as *mut _,
        iov_len: n,
    };
    c.bench_function("eventheader_write/capture-devnull/5 fields", |b| {
        b.iter(|| {
            let mut vecs = [
                vec(std::ptr::null(), 0),
                vec(std::ptr::null(), 0),
                vec(std::ptr::null(), 0),
                vec((&i32v as *const i32).cast(), 4),
                vec((&u64v as *const u64).cast(), 8),
                vec(s.as_ptr(), s.len()),
                vec((&f64v as *const f64).cast(), 8),
                vec(&boolv, 1),
            ];
            // SAFETY: the event is connected; every vector is readable.
            let r = unsafe {
                eventheader_write(
                    &event,
                    std::ptr::null(),
                    std::ptr::null(),
                    vecs.len() as u32,
                    vecs.as_mut_ptr(),
                )
            };
            assert_eq!(r, 0);
        })
    });

    // SAFETY: as above.
    unsafe { eventheader_close_provider(&provider) };
}

criterion_group!(
    benches,
    bench_pack_prefix,
    bench_format_command,
    bench_write
);
criterion_main!(benches);
