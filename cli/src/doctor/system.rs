//! The machine as `doctor` sees it (its files under a root directory, `/`
//! unless the tests give a fake tree), and the checks that events can be
//! written at all: user_events in the kernel, tracefs mounted, and the
//! caller's access to `user_events_data`.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use super::files;
use super::parse::{self, ConfigValue};
use super::report::Check;
use crate::exit::Status;

pub struct Sys {
    root: PathBuf,
}

impl Sys {
    pub fn new(root: Option<&Path>) -> Sys {
        Sys {
            root: root.unwrap_or(Path::new("/")).to_path_buf(),
        }
    }

    /// Where the machine's absolute path `p` is under the root.
    pub fn path(&self, p: &Path) -> PathBuf {
        self.root.join(p.strip_prefix("/").unwrap_or(p))
    }

    /// A regular file's bytes (at most [`files::TEXT_MAX`]), read in large
    /// reads: tracefs files report size 0 and some answer only the first
    /// read in full. Anything else (a FIFO, a device) is refused without
    /// blocking.
    pub fn read(&self, p: &Path) -> io::Result<Vec<u8>> {
        files::read_bounded(&self.path(p))
    }

    pub fn read_text(&self, p: &Path) -> io::Result<String> {
        self.read(p)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    }

    pub fn metadata(&self, p: &Path) -> io::Result<std::fs::Metadata> {
        std::fs::metadata(self.path(p))
    }

    /// May this process (its effective ids and capabilities) access `p`
    /// with `mode` (`libc::W_OK`, ...)?
    pub fn access(&self, p: &Path, mode: i32) -> io::Result<()> {
        let c = CString::new(self.path(p).as_os_str().as_bytes())
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
        // SAFETY: `c` is a NUL-terminated path that outlives the call.
        let r = unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), mode, libc::AT_EACCESS) };
        if r == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
}

/// "owner root:tracing, mode 0660" for messages.
pub fn describe_mode(m: &std::fs::Metadata) -> String {
    format!(
        "owner {}:{}, mode {:04o}",
        user_name(m.uid()),
        group_name(m.gid()),
        m.mode() & 0o7777
    )
}

/// A user's name, or the number when it has none.
pub fn user_name(uid: u32) -> String {
    // SAFETY: getpwuid returns null or a pointer to a static record that
    // stays valid until the next getpw* call; the name is copied at once
    // and doctor calls it from one thread only.
    let name = unsafe {
        let pw = libc::getpwuid(uid);
        if pw.is_null() || (*pw).pw_name.is_null() {
            None
        } else {
            Some(
                std::ffi::CStr::from_ptr((*pw).pw_name)
                    .to_string_lossy()
                    .into_owned(),
            )
        }
    };
    name.unwrap_or_else(|| uid.to_string())
}

/// A group's name, or the number when it has none.
pub fn group_name(gid: u32) -> String {
    // SAFETY: as in `user_name`, for getgrgid's static record.
    let name = unsafe {
        let gr = libc::getgrgid(gid);
        if gr.is_null() || (*gr).gr_name.is_null() {
            None
        } else {
            Some(
                std::ffi::CStr::from_ptr((*gr).gr_name)
                    .to_string_lossy()
                    .into_owned(),
            )
        }
    };
    name.unwrap_or_else(|| gid.to_string())
}

/// The caller's effective user id.
pub fn euid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Where the kernel's configuration was found, and CONFIG_USER_EVENTS in it.
pub struct KernelConfig {
    pub release: String,
    /// (file, value); None when no configuration could be read.
    pub user_events: Option<(String, ConfigValue)>,
}

/// Reads CONFIG_USER_EVENTS from /proc/config.gz, else from
/// /boot/config-RELEASE (the release from /proc/sys/kernel/osrelease, as
/// `uname -r` prints it).
pub fn kernel_config(sys: &Sys) -> KernelConfig {
    let release = sys
        .read_text(Path::new("/proc/sys/kernel/osrelease"))
        .map(|s| s.trim().chars().take(100).collect::<String>())
        .unwrap_or_default();
    let mut files = vec!["/proc/config.gz".to_string()];
    if !release.is_empty() && !release.contains('/') {
        files.push(format!("/boot/config-{release}"));
    }
    let user_events = files.into_iter().find_map(|f| {
        let bytes = sys.read(Path::new(&f)).ok()?;
        let text = parse::config_text(&bytes)?;
        Some((f, parse::config_value(&text, "CONFIG_USER_EVENTS")))
    });
    KernelConfig {
        release,
        user_events,
    }
}

/// Where tracefs is: its mount point, or why it cannot be used.
pub enum Tracefs {
    /// Mounted at this path (the machine's path), with the other places it
    /// is mounted.
    At(PathBuf, Vec<PathBuf>),
    NotMounted,
}

/// Finds tracefs: /sys/kernel/tracing, else another tracefs mount, else
/// debugfs's tracing directory (which the kernel mounts tracefs on when
/// it is first looked at).
pub fn find_tracefs(sys: &Sys) -> Tracefs {
    let mounts = match sys.read_text(Path::new("/proc/self/mountinfo")) {
        Ok(t) => parse::mountinfo(&t),
        Err(_) => parse::proc_mounts(&sys.read_text(Path::new("/proc/mounts")).unwrap_or_default()),
    };
    let standard = PathBuf::from("/sys/kernel/tracing");
    let mut found: Vec<PathBuf> = Vec::new();
    fn add(found: &mut Vec<PathBuf>, p: PathBuf) {
        if !found.contains(&p) {
            found.push(p);
        }
    }
    if mounts
        .iter()
        .any(|m| m.fstype == "tracefs" && m.point == standard)
    {
        add(&mut found, standard.clone());
    }
    for m in mounts.iter().filter(|m| m.fstype == "tracefs") {
        add(&mut found, m.point.clone());
    }
    // Without the mount table (a container's /proc may hide it), a tracefs
    // that answers is as good.
    if found.is_empty() && probe(sys, &standard) {
        add(&mut found, standard);
    }
    for m in mounts.iter().filter(|m| m.fstype == "debugfs") {
        let t = m.point.join("tracing");
        if !found.contains(&t) && probe(sys, &t) {
            add(&mut found, t);
        }
    }
    match found.split_first() {
        Some((first, rest)) => Tracefs::At(first.clone(), rest.to_vec()),
        None => Tracefs::NotMounted,
    }
}

/// Does `dir` look like tracefs (an `events` directory, or one this user
/// may not look into)?
fn probe(sys: &Sys, dir: &Path) -> bool {
    match sys.metadata(&dir.join("events")) {
        Ok(m) => m.is_dir(),
        Err(e) => e.kind() == io::ErrorKind::PermissionDenied,
    }
}

const KERNEL_FIX: &str = "boot a kernel built with CONFIG_USER_EVENTS=y (it needs \
CONFIG_TRACING; Debian's 6.12 kernels leave it out, so build one from linux-source with it set)";

/// The kernel check: CONFIG_USER_EVENTS from the configuration, confirmed or
/// contradicted by `user_events_data` when tracefs is mounted (`has_data`).
pub fn check_kernel(config: &KernelConfig, has_data: Option<bool>) -> Check {
    let name = "kernel";
    let rel = if config.release.is_empty() {
        String::new()
    } else {
        format!("kernel {}: ", config.release)
    };
    match (&config.user_events, has_data) {
        (_, Some(true)) => Check::ok(
            name,
            format!("{rel}has user_events (tracefs has user_events_data)"),
        ),
        (Some((file, ConfigValue::Yes)), _) => {
            Check::ok(name, format!("{rel}CONFIG_USER_EVENTS=y in {file}"))
        }
        (Some((file, ConfigValue::NotSet)), _) => Check::fail(
            Status::NoUserEvents,
            name,
            format!("{rel}built without user_events (# CONFIG_USER_EVENTS is not set in {file})"),
            KERNEL_FIX,
        ),
        (Some((file, ConfigValue::Absent)), _) => Check::fail(
            Status::NoUserEvents,
            name,
            format!("{rel}built without user_events (no CONFIG_USER_EVENTS in {file})"),
            KERNEL_FIX,
        ),
        (Some((file, v)), Some(false)) => Check::fail(
            Status::NoUserEvents,
            name,
            format!("{rel}CONFIG_USER_EVENTS={v} in {file}, but tracefs has no user_events_data"),
            KERNEL_FIX,
        ),
        (Some((file, v)), None) => Check::warn(
            name,
            format!("{rel}CONFIG_USER_EVENTS={v} in {file}"),
            None,
        ),
        (None, Some(false)) => Check::fail(
            Status::NoUserEvents,
            name,
            format!("{rel}no user_events (tracefs has no user_events_data; CONFIG_USER_EVENTS not set)"),
            KERNEL_FIX,
        ),
        (None, None) => Check::warn(
            name,
            format!("{rel}configuration not readable (no /proc/config.gz, no /boot/config-{}): CONFIG_USER_EVENTS unknown", config.release),
            Some("see the tracefs and user_events_data checks".to_string()),
        ),
    }
}

pub fn check_tracefs(t: &Tracefs) -> Check {
    match t {
        Tracefs::At(p, others) if others.is_empty() => {
            Check::ok("tracefs", format!("mounted at {}", p.display()))
        }
        Tracefs::At(p, others) => Check::ok(
            "tracefs",
            format!(
                "mounted at {} (also at {})",
                p.display(),
                others
                    .iter()
                    .map(|o| o.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        Tracefs::NotMounted => Check::fail(
            Status::NoUserEvents,
            "tracefs",
            "not mounted (not at /sys/kernel/tracing, none in /proc/self/mountinfo)",
            "as root: mount -t tracefs nodev /sys/kernel/tracing (at every boot: the line \
             \"tracefs /sys/kernel/tracing tracefs defaults 0 0\" in /etc/fstab)",
        ),
    }
}

/// How to let a user's programs write events: the group that owns the
/// file, or a new one.
fn grant_fix(data: &Path, group: Option<&str>) -> String {
    let user = user_name(euid());
    let dir = data.parent().unwrap_or(Path::new("/"));
    match group {
        Some(g) if g != "root" => format!(
            "as root, add the user to group {g}, which owns it: usermod -aG {g} {user} \
             (takes effect at the next login); the group needs read and write: \
             chmod g+rw {data}, and to enter tracefs: chmod g+x {dir}",
            data = data.display(),
            dir = dir.display()
        ),
        _ => format!(
            "as root, give a group read and write access and add the user to it: \
             groupadd -f tracing; chgrp tracing {data} {dir}; chmod g+rw {data}; \
             chmod g+x {dir}; usermod -aG tracing {user} (takes effect at the next login; \
             tracefs forgets the mode at reboot, so repeat the chgrp and chmod at boot)",
            data = data.display(),
            dir = dir.display()
        ),
    }
}

/// The checks of `user_events_data`: present, and writable by this process.
/// Returns them and whether the file is there (None: cannot tell).
pub fn check_data(sys: &Sys, tracefs: &Path) -> (Vec<Check>, Option<bool>) {
    let data = tracefs.join("user_events_data");
    let name = "user_events_data";
    let meta = match sys.metadata(&data) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return (
                vec![Check::fail(
                    Status::NoUserEvents,
                    name,
                    format!(
                        "missing: {} has no user_events_data, the kernel has no user_events",
                        tracefs.display()
                    ),
                    KERNEL_FIX,
                )],
                Some(false),
            )
        }
        Err(e) => {
            let dir = sys
                .metadata(tracefs)
                .map(|m| format!(" ({})", describe_mode(&m)))
                .unwrap_or_default();
            let group = sys.metadata(tracefs).ok().map(|m| group_name(m.gid()));
            return (
                vec![Check::fail(
                    Status::PermissionDenied,
                    name,
                    format!("cannot look into {}{dir}: {e}", tracefs.display()),
                    grant_fix(&data, group.as_deref()),
                )],
                None,
            );
        }
    };
    let mut checks = vec![Check::ok(
        name,
        format!("{} ({})", data.display(), describe_mode(&meta)),
    )];
    let who = format!("uid {} ({})", euid(), user_name(euid()));
    match sys.access(&data, libc::W_OK) {
        Ok(()) => checks.push(Check::ok(
            "write access",
            format!("{who} may write user_events_data: its programs can register and write events"),
        )),
        Err(e) => checks.push(Check::fail(
            Status::PermissionDenied,
            "write access",
            format!(
                "{who} may not write user_events_data ({e}): its programs' registrations fail \
                 (TraceLoggingRegister returns EACCES) and their events are dropped"
            ),
            grant_fix(&data, Some(&group_name(meta.gid()))),
        )),
    }
    (checks, Some(true))
}
