//! The capture path end to end through the C API: arbitrary provider names,
//! options, levels, keywords, metadata blocks and iovec lengths go through
//! eventheader_open_provider / eventheader_connect / eventheader_write (and
//! tracepoint_connect / tracepoint_write with arbitrary "name args"); every
//! call must return the errno of the contract, and every successful write
//! must append exactly one record with the expected name and bytes.
#![no_main]

use std::ffi::CString;
use std::io::{Read, Seek, SeekFrom};
use std::sync::OnceLock;

use eventheader_tracepoint::abi::{
    EventHeader, EventHeaderExtension, EventHeaderProvider, EventHeaderTracepoint,
    TracepointProviderState, TracepointState,
};
use eventheader_tracepoint::eventheader::names::{
    format_tracepoint_name, validate_provider, CommandBuf,
};
use eventheader_tracepoint::ffi::capture_api::tracepoint_set_capture_file;
use eventheader_tracepoint::ffi::eventheader_api::{
    eventheader_close_provider, eventheader_connect, eventheader_open_provider, eventheader_write,
};
use eventheader_tracepoint::ffi::tracepoint_api::{
    tracepoint_close_provider, tracepoint_connect, tracepoint_open_provider, tracepoint_write,
};
use libc::iovec;
use libfuzzer_sys::fuzz_target;

struct Capture {
    _dir: tempfile::TempDir,
    file: std::fs::File,
}

fn capture() -> &'static std::sync::Mutex<Capture> {
    static CAPTURE: OnceLock<std::sync::Mutex<Capture>> = OnceLock::new();
    CAPTURE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fuzz.dat");
        let c = CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string.
        assert_eq!(unsafe { tracepoint_set_capture_file(c.as_ptr()) }, 0);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        std::sync::Mutex::new(Capture { _dir: dir, file })
    })
}

/// Empties the capture file before a call, returns what was appended after.
fn take(c: &mut Capture) -> Vec<u8> {
    let mut out = Vec::new();
    c.file.seek(SeekFrom::Start(0)).unwrap();
    c.file.read_to_end(&mut out).unwrap();
    c.file.set_len(0).unwrap();
    out
}

/// Input reader that yields zeros once exhausted.
struct Input<'a>(&'a [u8]);
impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let n = n.min(self.0.len());
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        a.to_vec()
    }
    fn text(&mut self) -> Vec<u8> {
        // Length byte, then that many bytes (NULs dropped: C strings).
        let n = usize::from(self.byte());
        let n = if n == 255 {
            200 + usize::from(self.byte())
        } else {
            n
        };
        self.bytes(n).into_iter().filter(|&b| b != 0).collect()
    }
}

fn record(bytes: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let size = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    assert_eq!(size, bytes.len(), "exactly one record");
    let nul = bytes[4..].iter().position(|&b| b == 0).unwrap();
    (bytes[4..4 + nul].to_vec(), bytes[4 + nul + 1..].to_vec())
}

fuzz_target!(|data: &[u8]| {
    let mut guard = capture().lock().unwrap();
    let cap = &mut *guard;
    take(cap);
    let mut input = Input(data);
    let selector = input.byte();
    let name = input.text();
    let options = input.text();
    let level = input.byte();
    let keyword = u64::from_le_bytes(input.bytes(8).try_into().unwrap_or([0; 8]));
    let with_meta = selector & 1 != 0;
    let meta_body = input.text();
    let vec_count = usize::from(input.byte() % 8);
    let lengths: Vec<usize> = (0..vec_count)
        .map(|_| usize::from(input.byte()) * 3)
        .collect();
    let pool: Vec<u8> = (0..1024u32)
        .map(|i| (i * 7 + u32::from(selector)) as u8)
        .collect();

    let name_c = CString::new(name.clone()).unwrap();
    let options_c = CString::new(options.clone()).unwrap();
    let mut state = TracepointProviderState {
        data_file: -1,
        ref_count: 0,
        // SAFETY: a list link is two pointers; all zero is an unlinked link.
        tracepoint_list_head: unsafe { core::mem::zeroed() },
    };
    let provider = EventHeaderProvider {
        state: &mut state,
        options: if selector & 2 != 0 {
            core::ptr::null()
        } else {
            options_c.as_ptr()
        },
        name: name_c.as_ptr(),
    };
    let options = if selector & 2 != 0 {
        Vec::new()
    } else {
        options
    };
    let mut tp = TracepointState {
        status_word: 0,
        write_index: -1,
        provider_state: core::ptr::null(),
        // SAFETY: a list link is two pointers; all zero is an unlinked link.
        tracepoint_list_link: unsafe { core::mem::zeroed() },
    };

    // SAFETY: all pointers are valid for the calls below.
    unsafe {
        if selector & 4 != 0 {
            // Plain tracepoints: "name args" straight from the input.
            let mut args = name.clone();
            args.push(b' ');
            args.extend_from_slice(&options);
            let args_c = CString::new(args).unwrap();
            assert_eq!(tracepoint_open_provider(&mut state), 0);
            let err = tracepoint_connect(&mut tp, &mut state, args_c.as_ptr());
            let tp_name: Vec<u8> = name
                .split(|&b| b == b' ')
                .next()
                .unwrap_or_default()
                .to_vec();
            // The tracepoint name rules (docs/bad-input.md#tracepoint-names):
            // an empty name, invalid UTF-8, a control character (C0, DEL,
            // C1), ' ', ':', '/', or the names "enable" and "filter" are
            // EINVAL, else over 255 bytes E2BIG.
            let chars_ok = std::str::from_utf8(&tp_name)
                .is_ok_and(|s| s.chars().all(|c| !c.is_control() && !" :/".contains(c)));
            let reserved = tp_name == b"enable" || tp_name == b"filter";
            let expected = if tp_name.is_empty() || !chars_ok || reserved {
                libc::EINVAL
            } else if tp_name.len() > 255 {
                libc::E2BIG
            } else {
                0
            };
            if err == libc::ENOSPC {
                tracepoint_close_provider(&mut state);
                return; // the capture name table is full (1 << 20 names)
            }
            assert_eq!(err, expected);
            let mut vecs = vec![iovec {
                iov_base: core::ptr::null_mut(),
                iov_len: 0,
            }];
            let mut payload = Vec::new();
            for &len in &lengths {
                vecs.push(iovec {
                    iov_base: pool.as_ptr() as *mut _,
                    iov_len: len,
                });
                payload.extend_from_slice(&pool[..len]);
            }
            let werr = tracepoint_write(&tp, vecs.len() as u32, vecs.as_mut_ptr());
            let written = take(cap);
            if expected == 0 {
                assert_eq!(werr, 0);
                let (rname, event) = record(&written);
                assert_eq!(rname, tp_name);
                // A 0-byte event gets one padding byte, however many (empty)
                // payload vectors it was given.
                if payload.is_empty() {
                    payload.push(0);
                }
                assert_eq!(event, payload);
            } else {
                assert_eq!(werr, libc::EBADF);
                assert!(written.is_empty());
            }
            tracepoint_close_provider(&mut state);
            assert_eq!(tp.status_word, 0);
            return;
        }

        let valid = validate_provider(&name, &options);
        let err = eventheader_open_provider(&provider);
        assert_eq!(err, valid.err().unwrap_or(0));
        let mut meta_block: Vec<u64> = vec![0; (4 + meta_body.len()).div_ceil(8)];
        let meta_bytes = core::slice::from_raw_parts_mut(
            meta_block.as_mut_ptr().cast::<u8>(),
            4 + meta_body.len(),
        );
        meta_bytes[..2].copy_from_slice(&(meta_body.len() as u16).to_ne_bytes());
        meta_bytes[2..4].copy_from_slice(&1u16.to_ne_bytes());
        meta_bytes[4..].copy_from_slice(&meta_body);
        let event = EventHeaderTracepoint {
            state: &mut tp,
            metadata: if with_meta {
                meta_block.as_ptr().cast::<EventHeaderExtension>()
            } else {
                core::ptr::null()
            },
            header: EventHeader {
                flags: 3,
                version: 0,
                id: 0,
                tag: 0,
                opcode: 0,
                level,
            },
            keyword,
        };
        let cerr = eventheader_connect(&event, &provider);
        let mut expected_name = CommandBuf::default();
        let formatted = format_tracepoint_name(&mut expected_name, &name, level, keyword, &options);
        let expected = match (valid, level, formatted) {
            (Err(e), _, _) => e,
            (_, 0, _) => libc::EINVAL,
            (_, _, Err(e)) => e,
            _ => 0,
        };
        if cerr == libc::ENOSPC {
            eventheader_close_provider(&provider);
            return;
        }
        assert_eq!(cerr, expected);

        let fixed = if with_meta { 3 } else { 2 };
        let mut vecs = vec![
            iovec {
                iov_base: core::ptr::null_mut(),
                iov_len: 0
            };
            fixed
        ];
        let mut payload = Vec::new();
        for &len in &lengths {
            vecs.push(iovec {
                iov_base: pool.as_ptr() as *mut _,
                iov_len: len,
            });
            payload.extend_from_slice(&pool[..len]);
        }
        let werr = eventheader_write(
            &event,
            core::ptr::null(),
            core::ptr::null(),
            vecs.len() as u32,
            vecs.as_mut_ptr(),
        );
        let written = take(cap);
        if expected == 0 {
            assert_eq!(werr, 0);
            let (rname, ev) = record(&written);
            assert_eq!(rname, expected_name.as_bytes());
            let mut model = vec![if with_meta { 7 } else { 3 }, 0, 0, 0, 0, 0, 0, level];
            if with_meta {
                model.extend_from_slice(meta_bytes);
            }
            model.extend_from_slice(&payload);
            assert_eq!(ev, model);
        } else {
            assert_eq!(werr, libc::EBADF);
            assert!(written.is_empty());
        }
        eventheader_close_provider(&provider);
        assert_eq!(tp.status_word, 0);
        assert_eq!(tp.write_index, -1);
    }
});
