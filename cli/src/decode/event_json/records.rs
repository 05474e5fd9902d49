//! The two kinds of record an input holds, as events: capture-file records
//! (a tracepoint name and its event bytes, with a stamp in the timed
//! layout) and perf samples (EventHeader events, or tracefs events decoded
//! through the format the recording carries).

use tracepoint_decode as td;

use super::*;

impl Formatter {
    /// A capture-file record (tracepoint name + event bytes).
    pub fn capture_event(
        &mut self,
        out: &mut String,
        tracepoint: &str,
        data: &[u8],
        stamp: Option<Stamp>,
    ) -> Outcome {
        self.ev.start(tracepoint);
        self.ev.names_from_tracepoint();
        if let Some(s) = stamp {
            self.ev.time = Some(Time {
                ns: i64::try_from(s.time).unwrap_or(i64::MAX),
                wall: false,
            });
            self.ev.pid = Some(s.pid);
            self.ev.tid = Some(s.tid);
        }
        if !self.in_window() {
            return Outcome::Filtered;
        }
        self.contained(out, tracepoint, data, None, |f, out| {
            f.capture_event_unguarded(out, tracepoint, data)
        })
    }

    /// The pid and tid of a capture record of the timed layout (the
    /// event's metadata has them only from its stamp when it is no perf
    /// sample).
    pub(super) fn stamped(&self) -> Option<(u32, u32)> {
        self.ev.pid.zip(self.ev.tid)
    }

    fn capture_event_unguarded(
        &mut self,
        out: &mut String,
        tracepoint: &str,
        data: &[u8],
    ) -> Outcome {
        match self.push_eventheader(out, tracepoint, data, None) {
            Ok(true) => Outcome::Decoded,
            Ok(false) => Outcome::Filtered,
            Err(_) if crate::spec::check_eventheader_name(tracepoint).is_err() => {
                // Not an EventHeader tracepoint: the capture holds no format.
                if !self.passes(Subject {
                    provider: crate::spec::USER_EVENTS,
                    event: tracepoint.as_bytes(),
                    level_keyword: None,
                    pid: self.ev.pid,
                    tid: self.ev.tid,
                    cpu: None,
                    comm: None,
                }) || !self.filter.field_terms().is_empty()
                {
                    // Without a format it has no fields to hold a term.
                    return Outcome::Filtered;
                }
                self.push_raw(out, tracepoint, data, None, None);
                Outcome::Raw
            }
            Err(e) => {
                self.push_raw(
                    out,
                    tracepoint,
                    data,
                    Some(&format!("not a valid EventHeader event: {e}")),
                    None,
                );
                Outcome::Malformed
            }
        }
    }

    /// A perf sample.
    pub fn perf_sample(
        &mut self,
        out: &mut String,
        sample: &td::PerfSampleEventInfo<'_>,
    ) -> Outcome {
        self.ev.sample(sample);
        if !self.in_window() {
            return Outcome::Filtered;
        }
        self.contained(
            out,
            sample.name(),
            sample.raw_data(),
            Some(sample),
            |f, out| f.perf_sample_unguarded(out, sample),
        )
    }

    fn perf_sample_unguarded(
        &mut self,
        out: &mut String,
        sample: &td::PerfSampleEventInfo<'_>,
    ) -> Outcome {
        let Some(format) = sample.format() else {
            self.push_raw(
                out,
                sample.name(),
                sample.raw_data(),
                Some("no tracefs format for this event in the file"),
                Some(sample),
            );
            return Outcome::Malformed;
        };
        if format.decoding_style() == td::PerfEventDecodingStyle::EventHeader {
            match self.push_eventheader(out, format.name(), sample.user_data(), Some(sample)) {
                Ok(true) => return Outcome::Decoded,
                Ok(false) => return Outcome::Filtered,
                // Well-formed but without metadata (a manifest would be
                // needed): its header fields decode through the format.
                Err(td::EventHeaderEnumeratorError::NotSupported) => {}
                Err(e) => {
                    self.push_raw(
                        out,
                        sample.name(),
                        sample.user_data(),
                        Some(&format!("not a valid EventHeader event: {e}")),
                        Some(sample),
                    );
                    return Outcome::Malformed;
                }
            }
        }
        if !self.passes(Subject {
            provider: format.system_name(),
            event: format.name().as_bytes(),
            level_keyword: None,
            pid: sample_pid(sample),
            tid: sample_tid(sample),
            cpu: sample_cpu(sample),
            comm: comm_of(&self.comms, sample_pid(sample), sample_tid(sample)),
        }) {
            return Outcome::Filtered;
        }
        let terms = self.filter.field_terms();
        if !terms.is_empty()
            && !self
                .walk
                .tracefs_holds(format, sample.raw_data(), sample.byte_reader(), terms)
        {
            return Outcome::Filtered;
        }
        self.push_tracefs(out, sample, format);
        Outcome::Decoded
    }

    /// A tracepoint decoded through its tracefs format.
    fn push_tracefs(
        &mut self,
        out: &mut String,
        sample: &td::PerfSampleEventInfo<'_>,
        format: &td::PerfEventFormat,
    ) {
        let skip = if self.meta.has_flag(td::PerfMetaOptions::Common) {
            0
        } else {
            format.common_field_count()
        };
        self.taken.clear();
        for field in format.fields().iter().skip(skip) {
            self.taken.note(field.name());
        }
        out.push_str("{ ");
        self.taken.push(out, Key::Name);
        out.push('"');
        let _ = sample.json_name_display().write_to(&mut JsonText(out));
        out.push('"');
        let fields_start = out.len();
        fields::push_fields(
            out,
            format,
            skip,
            sample.raw_data(),
            sample.byte_reader(),
            self.convert,
        );
        self.ev.fields = (fields_start, out.len());
        self.push_sample_meta(out, sample);
        out.push_str(" }");
    }
}
