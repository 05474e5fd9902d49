//! Where `collect` records to: a perf.data file (`tracepoint_perf`'s writer:
//! headers, attributes, EVENT_DESC and TRACING_DATA with the tracefs
//! formats), or with `-o -` a pipe-mode stream on standard output.

use std::fs::File;
use std::io::{self, BufWriter};
use std::sync::Arc;

use tracepoint_decode as td;
use tracepoint_perf as tp;

use super::outdir::{self, OutDir};
use crate::exit::Error;
use crate::perfdata::writer::{EventInfo, Metadata, PipeWriter};

/// One recorded event: what the file says about it, and its parsed format.
pub struct Recorded {
    pub info: EventInfo,
    pub format: Arc<td::PerfEventFormat>,
}

/// A PERF_RECORD_FINISHED_ROUND record.
pub const FINISHED_ROUND: [u8; 8] = {
    let t = 68u32.to_ne_bytes();
    let n = 8u16.to_ne_bytes();
    [t[0], t[1], t[2], t[3], 0, 0, n[0], n[1]]
};

/// Appends a PERF_RECORD_FINISHED_ROUND (the end of a pass over the ring
/// buffers: readers sort each round by time).
pub fn push_finished_round(batch: &mut Vec<u8>) {
    const FINISHED_ROUND: u32 = 68;
    batch.extend_from_slice(&FINISHED_ROUND.to_ne_bytes());
    batch.extend_from_slice(&0u16.to_ne_bytes());
    batch.extend_from_slice(&8u16.to_ne_bytes());
}

pub enum Recorder {
    File {
        writer: Box<tp::PerfDataFileWriter>,
        path: String,
    },
    Pipe(PipeWriter<BufWriter<io::Stdout>>),
}

impl Recorder {
    /// Creates `path` (`-`: standard output, pipe mode) and writes what is
    /// known before the data. A file or link already at `path` is renamed
    /// to `path.old` ([`OutDir::replace`]): nothing is written through a
    /// link or into an existing file.
    pub fn create(path: &str, meta: &Metadata, events: &[Recorded]) -> Result<Recorder, Error> {
        if path == "-" {
            let infos: Vec<EventInfo> = events.iter().map(|e| e.info.clone()).collect();
            let out = BufWriter::with_capacity(1 << 16, io::stdout());
            return PipeWriter::new(out, meta, &infos)
                .map(Recorder::Pipe)
                .map_err(|e| Error::io(&e, "writing standard output"));
        }
        let creating = |e: io::Error| Error::io(&e, format!("creating {path}"));
        let dir = OutDir::open(path).map_err(creating)?;
        let (file, old) = dir.replace(outdir::split_dir(path).1).map_err(creating)?;
        if let Some(old) = old {
            eprintln!("eventheader: collect: {path} existed: renamed to {old}");
        }
        Recorder::in_file(file, path, meta, events)
    }

    /// Writes what is known before the data into `file`, new and empty,
    /// created as `path`.
    pub fn in_file(
        file: File,
        path: &str,
        meta: &Metadata,
        events: &[Recorded],
    ) -> Result<Recorder, Error> {
        let io_error = |e: io::Error| Error::io(&e, format!("writing {path}"));
        let mut writer = Box::new(tp::PerfDataFileWriter::new());
        // The writer opens by name: the kernel's link to the open file
        // reaches this very file (its truncation of it, empty, is nothing).
        writer
            .create_file(&outdir::reopen_path(&file))
            .map_err(|e| match e.raw_os_error() {
                Some(libc::ENOENT) => Error::io(
                    &e,
                    format!("creating {path} (through /proc/self/fd: is /proc mounted?)"),
                ),
                _ => Error::io(&e, format!("creating {path}")),
            })?;
        for e in events {
            if !writer.add_tracepoint_event_desc(&e.info.ids, &e.info.attr, &e.info.name, &e.format)
            {
                return Err(Error::new(
                    crate::exit::Status::Failure,
                    format!("{}: cannot describe the event in perf.data", e.info.name),
                ));
            }
        }
        writer.set_tracing_data_required(meta.long_size, meta.page_size);
        writer.set_tracing_data_header_page(&meta.header_page);
        writer.set_tracing_data_header_event(&meta.header_event);
        writer.set_tracing_data_printk(&meta.printk);
        writer.set_utsname_headers(&meta.hostname, &meta.os_release, &meta.arch);
        writer.set_nr_cpus_header(meta.cpus_available, meta.cpus_online);
        writer.set_clockid_header(meta.clockid);
        writer.set_clock_data_header(meta.clockid, meta.clock_at.0, meta.clock_at.1);
        writer.write_finished_init().map_err(io_error)?;
        // The writer has its own descriptor of the file now.
        drop(file);
        Ok(Recorder::File {
            writer,
            path: path.to_string(),
        })
    }

    /// The name to show the user.
    pub fn name(&self) -> &str {
        match self {
            Recorder::File { path, .. } => path,
            Recorder::Pipe(_) => "standard output",
        }
    }

    fn error(&self, e: &io::Error) -> Error {
        Error::io(e, format!("writing {}", self.name()))
    }

    /// Records (each header and body), written at once; a pipe-mode stream
    /// is flushed after them (its reader sees each round when complete).
    pub fn write(&mut self, data: &[u8]) -> Result<(), Error> {
        let result = match self {
            Recorder::File { writer, .. } => writer.write_event_data(data),
            Recorder::Pipe(w) => w.write_records(data).and_then(|()| w.flush()),
        };
        result.map_err(|e| self.error(&e))
    }

    /// Records given in pieces (as a ring buffer holds them), written with
    /// as few system calls as the kernel takes them in (`writev`); a
    /// pipe-mode stream is flushed after them.
    pub fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> Result<(), Error> {
        let result = match self {
            Recorder::File { writer, .. } => {
                // The first slice not yet written whole, and how much of it is.
                let (mut i, mut off) = (0, 0);
                let mut result = Ok(());
                while i < bufs.len() {
                    let n = if off == 0 {
                        writer.write_event_data_vectored(&bufs[i..])
                    } else {
                        let rest = &bufs[i][off..];
                        writer.write_event_data(rest).map(|()| rest.len())
                    };
                    match n {
                        Ok(0) => {
                            result = Err(io::ErrorKind::WriteZero.into());
                            break;
                        }
                        Ok(n) => {
                            let mut n = n + off;
                            while i < bufs.len() && n >= bufs[i].len() {
                                n -= bufs[i].len();
                                i += 1;
                            }
                            off = n;
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            result = Err(e);
                            break;
                        }
                    }
                }
                result
            }
            Recorder::Pipe(w) => bufs
                .iter()
                .try_for_each(|b| w.write_records(b))
                .and_then(|()| w.flush()),
        };
        result.map_err(|e| self.error(&e))
    }

    /// Completes the recording; `times`: the first and last sample's.
    pub fn finish(self, times: Option<(u64, u64)>) -> Result<(), Error> {
        let name = self.name().to_string();
        let result = match self {
            Recorder::File { mut writer, .. } => {
                if let Some((first, last)) = times {
                    writer.set_sample_time_header(first, last);
                }
                writer.finalize_and_close()
            }
            Recorder::Pipe(w) => w.finish(),
        };
        result.map_err(|e| Error::io(&e, format!("writing {name}")))
    }
}
