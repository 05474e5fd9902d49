//! The perf events `collect` opens: their attribute (what every event
//! shares, and a tracepoint's, forward or backward), the side-band event of
//! the process records, the kernel tracepoint filter, the redirection of an
//! event's records into another's ring, and the errors of perf_event_open.

use std::ffi::CString;
use std::os::fd::AsRawFd;

use perf_event::events::Tracepoint as TracepointEvent;
use perf_event::{Builder, Clock, Counter, ReadFormat, SampleFlag};
use tracepoint_decode as td;

use super::backward::data_bytes;
use super::forward::ForwardRing;
use super::resolve::Tracepoint;
use crate::exit::{Error, Status};

/// The perf ids of one tracepoint's events (one per CPU) and their
/// attribute.
pub type EventIds = (Vec<u64>, td::PerfEventAttr);

/// Sends `from`'s records into `into`'s ring (both perf events of this
/// session on `cpu`), so that one ring per CPU serves every tracepoint.
pub(super) fn redirect(
    from: &impl AsRawFd,
    into: &impl AsRawFd,
    name: &str,
    cpu: usize,
) -> Result<(), Error> {
    // SAFETY: both descriptors are open perf events on the same CPU, owned by
    // the caller's session; SET_OUTPUT only redirects the first's records
    // into the second's ring.
    let rc = unsafe { perf_event_open_sys::ioctls::SET_OUTPUT(from.as_raw_fd(), into.as_raw_fd()) };
    if rc != 0 {
        return Err(Error::kernel(
            &std::io::Error::last_os_error(),
            format!("redirecting {name} on CPU {cpu}"),
        ));
    }
    Ok(())
}

/// How an event's records reach its ring: forward, waking the reader when
/// `wakeup` bytes are waiting; or backward into an overwrite ring (circular
/// mode), which nobody waits for.
#[derive(Clone, Copy)]
pub(super) enum Direction {
    Forward { wakeup: usize },
    Backward,
}

/// What every event of a recording shares: any process, one sample per
/// event with id, tid, time, cpu and raw data on the monotonic clock, the
/// sample id on every record, no hypervisor, disabled until the session
/// enables it.
fn sampled<'b, 'a>(b: &'b mut Builder<'a>, read_format: ReadFormat) -> &'b mut Builder<'a> {
    b.any_pid()
        .sample_period(1)
        .sample(
            SampleFlag::IDENTIFIER
                | SampleFlag::TID
                | SampleFlag::TIME
                | SampleFlag::CPU
                | SampleFlag::RAW,
        )
        .read_format(read_format)
        .sample_id_all(true)
        .exclude_hv(true)
        .clockid(Clock::MONOTONIC)
        .enabled(false)
}

/// The perf attribute of every event `collect` opens, for `tp`: one sample
/// per event with its identifier, pid/tid, time, CPU and raw data, the
/// identifier in every other record too (sample_id_all), the monotonic
/// clock, any process, disabled until the session enables it. The read
/// format and the direction are the caller's.
pub(super) fn event_builder(
    tp: &Tracepoint,
    read_format: ReadFormat,
    direction: Direction,
) -> Builder<'static> {
    let mut b = Builder::new(TracepointEvent::with_id(u64::from(tp.format.id())));
    sampled(&mut b, read_format).include_kernel();
    match direction {
        Direction::Forward { wakeup } => {
            b.wakeup_watermark(wakeup);
        }
        // The kernel's overwrite mode: records written backward into a
        // ring mapped read-only.
        Direction::Backward => b.attrs_mut().set_write_backward(1),
    }
    b
}

/// Bytes of each CPU's ring of process records ([`open_side_band`]): about
/// a thousand records between two passes.
pub(super) const SIDE_BAND_RING_BYTES: usize = 64 << 10;

/// The name the file gives the side-band event (perf record's for its own).
pub(super) const SIDE_BAND_NAME: &str = "dummy:u";

/// Opens (disabled) the side-band event of a recording on each of `cpus`,
/// each into a forward ring of its own of [`SIDE_BAND_RING_BYTES`]: a
/// software event that counts nothing and samples nothing (PERF_COUNT_SW_DUMMY,
/// as perf record's `dummy:u`) but reports the processes of its CPU: their
/// names (COMM, at exec and rename too), starts (FORK) and ends (EXIT), in
/// the clock and with the sample_id trailer of the tracepoints' records.
///
/// Its own ring, not the tracepoints': the kernel counts a record that
/// finds its ring full in that ring's PERF_RECORD_LOST, whatever its kind,
/// so a process record dropped in a burst would count as a lost sample
/// there; and samples never overwrite process records (circular mode).
/// Returns the rings and the event's ids and attribute; the read format is
/// `read_format` (without LOST where the kernel refuses it).
pub(super) fn open_side_band(
    cpus: &[usize],
    read_format: ReadFormat,
) -> Result<(Vec<ForwardRing>, EventIds), Error> {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
    let bytes = data_bytes(SIDE_BAND_RING_BYTES, page);
    let mut b = Builder::new(perf_event::events::Software::DUMMY);
    sampled(&mut b, read_format)
        .exclude_kernel(true)
        .comm(true)
        .task(true)
        .comm_exec(true)
        .wakeup_watermark(bytes / 2);
    let mut rings = Vec::new();
    let mut ids = Vec::new();
    let mut lost = read_format != ReadFormat::ID;
    for &cpu in cpus {
        let counter = match open_on_cpu(&mut b, cpu, &mut lost) {
            Ok(Some(c)) => c,
            Ok(None) => continue,
            Err(e) => return Err(perf_open_error(&e, "the process records")),
        };
        ids.push(counter.id());
        rings.push(ForwardRing::map(cpu, counter, bytes)?);
    }
    Ok((rings, (ids, file_attr(&b, 1, (bytes / 2) as u32))))
}

/// Opens `b` on `cpu`. A kernel before 6.0 refuses PERF_FORMAT_LOST
/// (EINVAL): where `lost` asks for it, `b` is opened again without it, and
/// `lost` becomes false. None: the CPU went offline since it was listed.
pub(super) fn open_on_cpu(
    b: &mut Builder<'_>,
    cpu: usize,
    lost: &mut bool,
) -> std::io::Result<Option<Counter>> {
    b.one_cpu(cpu);
    let built = match b.build() {
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) && *lost => {
            *lost = false;
            b.read_format(ReadFormat::ID);
            b.build()
        }
        other => other,
    };
    match built {
        Ok(c) => Ok(Some(c)),
        Err(e) if e.raw_os_error() == Some(libc::ENODEV) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The kernel tracepoint filter of `--filter`, as a C string.
pub(super) fn kernel_filter(filter: Option<&str>) -> Result<Option<CString>, Error> {
    filter
        .map(CString::new)
        .transpose()
        .map_err(|_| Error::new(Status::Usage, "a filter with a NUL character"))
}

pub(super) fn perf_open_error(e: &std::io::Error, what: &str) -> Error {
    match e.raw_os_error() {
        Some(libc::EACCES) | Some(libc::EPERM) => Error::new(
            Status::PermissionDenied,
            format!(
                "permission denied opening perf events for {what} (needs root or CAP_PERFMON, or kernel.perf_event_paranoid = -1): {e}"
            ),
        ),
        Some(libc::ENOSYS) => Error::new(
            Status::NoUserEvents,
            format!("the kernel has no perf events (perf_event_open: {e})"),
        ),
        _ => Error::new(Status::Failure, format!("perf_event_open for {what}: {e}")),
    }
}

/// The perf.data attribute of an event, from what the kernel was given.
pub(super) fn file_attr(b: &Builder<'_>, sample_period: u64, wakeup: u32) -> td::PerfEventAttr {
    let a = b.attrs();
    td::PerfEventAttr {
        attr_type: td::PerfEventAttrType(a.type_),
        size: td::PerfEventAttrSize(std::mem::size_of::<td::PerfEventAttr>() as u32),
        config: a.config,
        sample_time: sample_period,
        sample_type: td::PerfEventAttrSampleType(a.sample_type),
        read_format: td::PerfEventAttrReadFormat(a.read_format),
        // The C bit-field of options (disabled, ..., use_clockid, ...).
        options: td::PerfEventAttrOptions(a._bitfield_1.get(0, 64)),
        wakeup_value: wakeup,
        clockid: a.clockid as u32,
        ..Default::default()
    }
}

/// Sets a kernel tracepoint filter (ftrace syntax) on a perf event.
pub(super) fn set_filter(
    counter: &Counter,
    filter: &std::ffi::CStr,
    what: &str,
) -> Result<(), Error> {
    // SAFETY: the descriptor is an open perf event owned by the session;
    // `filter` is a NUL-terminated string the kernel copies during the call.
    let rc = unsafe {
        perf_event_open_sys::ioctls::SET_FILTER(counter.as_raw_fd(), filter.as_ptr() as *mut _)
    };
    if rc != 0 {
        let e = std::io::Error::last_os_error();
        return Err(Error::kernel(
            &e,
            format!(
                "setting the filter \"{}\" on {what}",
                filter.to_string_lossy()
            ),
        ));
    }
    Ok(())
}
