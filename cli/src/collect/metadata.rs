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

/// The value of the first `key` line of a /proc/cpuinfo text.
fn cpuinfo_value<'a>(cpuinfo: &'a str, key: &str) -> Option<&'a str> {
    cpuinfo.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

/// (CPUDESC, CPUID) as perf writes them on x86 ("model name"; "vendor,
/// family,model,stepping"), from a /proc/cpuinfo text; empty where it says
/// nothing of the kind (other architectures).
fn cpu_strings(cpuinfo: &str) -> (Vec<u8>, Vec<u8>) {
    let desc = cpuinfo_value(cpuinfo, "model name").unwrap_or_default();
    let id =
        match ["vendor_id", "cpu family", "model", "stepping"].map(|k| cpuinfo_value(cpuinfo, k)) {
            [Some(v), Some(f), Some(m), Some(s)] => format!("{v},{f},{m},{s}"),
            _ => String::new(),
        };
    (desc.as_bytes().to_vec(), id.into_bytes())
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
    let cpuinfo = std::fs::File::open("/proc/cpuinfo")
        .and_then(|f| {
            use std::io::Read;
            let mut text = String::new();
            f.take(1 << 16).read_to_string(&mut text).map(|_| text)
        })
        .unwrap_or_default();
    let (cpu_desc, cpuid) = cpu_strings(&cpuinfo);
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
        version: concat!("eventheader ", env!("CARGO_PKG_VERSION")).into(),
        cpu_desc,
        cpuid,
        cmdline: std::env::args_os()
            .map(std::os::unix::ffi::OsStringExt::into_vec)
            .collect(),
        processes: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_strings_as_perf_writes_them() {
        let x86 = "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\nmodel name\t: Intel(R) Xeon(R)\nstepping\t: 4\n";
        assert_eq!(
            cpu_strings(x86),
            (
                b"Intel(R) Xeon(R)".to_vec(),
                b"GenuineIntel,6,85,4".to_vec()
            )
        );
        assert_eq!(
            cpu_strings("processor : 0\nBogoMIPS : 50\n"),
            (vec![], vec![])
        );
    }
}
