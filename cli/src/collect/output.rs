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

/// One recorded event: what the file says about it, and its parsed format
/// (None: not a tracepoint, the process records' event).
pub struct Recorded {
    pub info: EventInfo,
    pub format: Option<Arc<td::PerfEventFormat>>,
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
            let added = match &e.format {
                Some(f) => {
                    writer.add_tracepoint_event_desc(&e.info.ids, &e.info.attr, &e.info.name, f)
                }
                None => writer.add_event_desc(&e.info.ids, &e.info.attr, &e.info.name),
            };
            if !added {
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
        writer.set_string_header(tp::PerfHeaderIndex::Version, &meta.version);
        writer.set_string_header(tp::PerfHeaderIndex::CpuDesc, &meta.cpu_desc);
        writer.set_string_header(tp::PerfHeaderIndex::CpuId, &meta.cpuid);
        writer.set_header(
            tp::PerfHeaderIndex::Cmdline,
            &crate::perfdata::writer::cmdline(&meta.cmdline),
        );
        writer.set_nr_cpus_header(meta.cpus_available, meta.cpus_online);
        writer.set_clockid_header(meta.clockid);
        writer.set_clock_data_header(meta.clockid, meta.clock_at.0, meta.clock_at.1);
        writer.write_finished_init().map_err(io_error)?;
        writer.write_event_data(&meta.processes).map_err(io_error)?;
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

/// perf's own tools (the machine's `perf`, scripts/packages.txt) on files
/// this module writes: one event, one sample of process 4242, which only a
/// COMM record in `Metadata::processes` names.
#[cfg(test)]
mod perf_reads {
    use super::*;
    use crate::collect::processes::{comm_record, Stamp};
    use std::path::{Path, PathBuf};
    use std::process::Command;

    const ID: u64 = 77;
    const FORMAT: &str = "name: CliPerf_L5K1\nID: 1234\nformat:\n\
        \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\
        \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n\
        \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n\
        \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n\
        \tfield:u32 value;\toffset:8;\tsize:4;\tsigned:0;\n\n\
        print fmt: \"value=%u\", REC->value\n";
    const HEADER_PAGE: &str = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n\
        \tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n\
        \tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n\
        \tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";
    const HEADER_EVENT: &str = "# compressed entry header\n\ttype_len    :    5 bits\n\
        \ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n\tpadding     : type == 29\n\
        \ttime_extend : type == 30\n\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";

    fn recorded() -> Vec<Recorded> {
        let format = td::PerfEventFormat::parse(true, "user_events", FORMAT).unwrap();
        let attr = td::PerfEventAttr {
            attr_type: td::PerfEventAttrType::Tracepoint,
            size: td::PerfEventAttrSize(std::mem::size_of::<td::PerfEventAttr>() as u32),
            config: 1234,
            sample_time: 1,
            // IDENTIFIER | TID | TIME | CPU | RAW
            sample_type: td::PerfEventAttrSampleType((1 << 16) | 2 | 4 | (1 << 7) | (1 << 10)),
            read_format: td::PerfEventAttrReadFormat(4),
            // comm | task | sample_id_all
            options: td::PerfEventAttrOptions((1 << 9) | (1 << 13) | (1 << 18)),
            ..Default::default()
        };
        // The process records' event, as collect opens it.
        let side = td::PerfEventAttr {
            attr_type: td::PerfEventAttrType(1),
            config: 9,
            // exclude_kernel | exclude_hv | comm | task | sample_id_all
            options: td::PerfEventAttrOptions(
                (1 << 5) | (1 << 6) | (1 << 9) | (1 << 13) | (1 << 18),
            ),
            ..attr
        };
        vec![
            Recorded {
                info: EventInfo {
                    ids: vec![ID],
                    attr,
                    name: "user_events:CliPerf_L5K1".into(),
                    system: "user_events".into(),
                    format: FORMAT.into(),
                },
                format: Some(Arc::new(format)),
            },
            Recorded {
                info: EventInfo {
                    ids: vec![ID + 1],
                    attr: side,
                    name: crate::collect::perf_events::SIDE_BAND_NAME.into(),
                    system: String::new(),
                    format: String::new(),
                },
                format: None,
            },
        ]
    }

    fn meta() -> Metadata {
        let stamp = Stamp {
            id: ID,
            cpu: 0,
            time: 1_000,
        };
        let mut processes = Vec::new();
        comm_record(&mut processes, 4242, 4242, b"ehtest", stamp);
        Metadata {
            long_size: 8,
            page_size: 4096,
            header_page: HEADER_PAGE.into(),
            header_event: HEADER_EVENT.into(),
            hostname: b"host".to_vec(),
            os_release: b"6.12".to_vec(),
            arch: b"x86_64".to_vec(),
            cpus_available: 1,
            cpus_online: 1,
            clockid: 1,
            clock_at: (1_700_000_000_000_000_000, 500),
            version: b"eventheader test".to_vec(),
            cmdline: vec![b"eventheader".to_vec(), b"collect".to_vec()],
            processes,
            ..Default::default()
        }
    }

    /// A sample of process 4242 at 2000 ns with value 7, then a round's end.
    fn data() -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(&9u32.to_ne_bytes());
        b.extend_from_slice(&0u16.to_ne_bytes());
        b.extend_from_slice(&56u16.to_ne_bytes());
        b.extend_from_slice(&ID.to_ne_bytes());
        b.extend_from_slice(&4242u32.to_ne_bytes());
        b.extend_from_slice(&4242u32.to_ne_bytes());
        b.extend_from_slice(&2000u64.to_ne_bytes());
        b.extend_from_slice(&0u64.to_ne_bytes());
        b.extend_from_slice(&12u32.to_ne_bytes());
        b.extend_from_slice(&1234u16.to_ne_bytes());
        b.extend_from_slice(&[0, 0]);
        b.extend_from_slice(&4242i32.to_ne_bytes());
        b.extend_from_slice(&7u32.to_ne_bytes());
        push_finished_round(&mut b);
        b
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("eh-perf-reads-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// perf script and perf report --stats on `file` exit 0, perf script
    /// names process 4242; with `convert`, perf data convert --to-json too.
    /// (perf 6.1's converter crashes on every pipe-mode input, perf
    /// record's own included: it prints the headers before it reads them
    /// from the stream.)
    fn perf_reads(file: &Path, convert: bool) {
        let perf = |args: &[&str]| {
            Command::new("perf")
                .args(args)
                .output()
                .expect("perf (scripts/packages.txt) runs")
        };
        let f = file.to_str().unwrap();
        let script = perf(&["script", "-i", f]);
        let text = String::from_utf8_lossy(&script.stdout);
        assert!(
            script.status.success(),
            "perf script: {:?}: {}",
            script.status,
            String::from_utf8_lossy(&script.stderr)
        );
        assert!(
            text.trim_start().starts_with("ehtest"),
            "perf script does not name the process: {text}"
        );
        let stats = perf(&["report", "--stats", "-i", f]);
        assert!(
            stats.status.success(),
            "perf report --stats: {:?}",
            stats.status
        );
        let evlist = perf(&["evlist", "-i", f]);
        let names = String::from_utf8_lossy(&evlist.stdout);
        assert!(evlist.status.success(), "perf evlist: {:?}", evlist.status);
        // perf names a pipe stream's events itself (dummy:u there too).
        assert!(
            names.lines().any(|l| l == "dummy:u"),
            "perf evlist: {names}"
        );
        if !convert {
            return;
        }
        let json = file.with_extension("json");
        let convert = perf(&[
            "data",
            "convert",
            "--force",
            "--to-json",
            json.to_str().unwrap(),
            "-i",
            f,
        ]);
        assert!(
            convert.status.success(),
            "perf data convert --to-json: {:?}: {}",
            convert.status,
            String::from_utf8_lossy(&convert.stderr)
        );
        let out = std::fs::read_to_string(&json).unwrap();
        assert!(out.contains("\"comm\": \"ehtest\""), "{out}");
    }

    #[test]
    fn perf_reads_a_file() {
        let dir = scratch("file");
        let path = dir.join("f.data");
        let file = File::create(&path).unwrap();
        let mut r = Recorder::in_file(file, path.to_str().unwrap(), &meta(), &recorded()).unwrap();
        r.write(&data()).unwrap();
        r.finish(Some((2000, 2000))).unwrap();
        perf_reads(&path, true);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn perf_reads_a_pipe_stream() {
        let dir = scratch("pipe");
        let path = dir.join("p.data");
        let infos: Vec<EventInfo> = recorded().into_iter().map(|r| r.info).collect();
        let file = File::create(&path).unwrap();
        let mut w = PipeWriter::new(file, &meta(), &infos).unwrap();
        w.write_records(&data()).unwrap();
        w.finish().unwrap();
        perf_reads(&path, false);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
