//! What a recording says about the machine it was made on (tracefs ring
//! headers and printk formats, host, CPUs, the clock), for perf.data files,
//! pipe-mode streams and live decoding alike.

use crate::perfdata::writer::Metadata;
use crate::tracefs::Tracefs;

/// `clock`'s time now, in nanoseconds.
pub fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; clock_gettime has no other
    // preconditions and CLOCK_REALTIME/CLOCK_MONOTONIC always exist.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// (nodename, release, machine) from uname(2).
fn utsname() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    // SAFETY: utsname is plain old data; all-zero is a valid value.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    // SAFETY: `u` is a valid, writable utsname.
    if unsafe { libc::uname(&mut u) } != 0 {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let field = |f: &[libc::c_char]| -> Vec<u8> {
        f.iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect()
    };
    (field(&u.nodename), field(&u.release), field(&u.machine))
}

/// The metadata of a recording of `online` CPUs made now, timestamps on
/// CLOCK_MONOTONIC.
pub fn gather(tracefs: &Tracefs, online: usize) -> Metadata {
    let (header_page, header_event) = tracefs.ring_headers();
    let (hostname, os_release, arch) = utsname();
    // SAFETY: sysconf has no preconditions.
    let page_size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u32;
    // SAFETY: sysconf has no preconditions.
    let configured = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_CONF) }.max(1) as u32;
    let clockid = libc::CLOCK_MONOTONIC as u32;
    Metadata {
        long_size: std::mem::size_of::<usize>() as u8,
        page_size,
        header_page,
        header_event,
        printk: tracefs.printk_formats(),
        hostname,
        os_release,
        arch,
        cpus_available: configured,
        cpus_online: online as u32,
        clockid,
        clock_at: (
            clock_ns(libc::CLOCK_REALTIME),
            clock_ns(libc::CLOCK_MONOTONIC),
        ),
    }
}
