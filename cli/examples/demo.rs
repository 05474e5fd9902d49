//! The newcomer's demo: builds the TraceLogging C sample `samples/c/sample.c`
//! (`TraceLoggingWrite` with a few field kinds and an activity) against the
//! library cargo just built, runs it with the capture backend
//! (`TRACEPOINT_CAPTURE_FILE`, so no kernel user_events support is needed),
//! and prints the events it wrote, decoded as JSON.
//!
//! ```text
//! cargo run -p eventheader-cli --example demo
//! ```
//!
//! Needs a C compiler (`cc`, or the one named by `CC`). The events are read
//! and decoded by the product's decoder, the one of `eventheader decode`
//! (the `eventheader-cli` library): its capture reader and its JSON. The
//! capture file is left in `target/<profile>/demo/events.dat`, for the
//! command-line tool: `cargo run -p eventheader-cli -- decode
//! target/debug/demo/events.dat`.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use eventheader_cli::decode::capture::CaptureReader;
use eventheader_cli::decode::{Formatter, Meta, Outcome};
use eventheader_cli::filter::{Filter, FilterArgs};
use eventheader_cli::perfdata::buffered_input::Buffered;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("demo failed: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The directory of the library cargo built for this example. Building an
/// example builds the library as its dependency into `target/<profile>/deps/`;
/// only a plain `cargo build` also copies it up to `target/<profile>/`, where
/// it may be missing or stale. So `deps/` comes first.
fn library_dir() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .ok_or_else(|| format!("unexpected location {}", exe.display()))?;
    [profile_dir.join("deps"), profile_dir.to_path_buf()]
        .into_iter()
        .find(|dir| dir.join("libeventheader_tracepoint.so").exists())
        .ok_or_else(|| {
            format!(
                "libeventheader_tracepoint.so is neither in {0}/deps nor in {0}",
                profile_dir.display()
            )
        })
}

fn run() -> Result<(), String> {
    // The repository: this example is in cli/.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("no repository above cli/")?
        .to_path_buf();
    let lib_dir = library_dir()?;
    let out_dir = lib_dir
        .parent()
        .filter(|_| lib_dir.ends_with("deps"))
        .unwrap_or(&lib_dir)
        .join("demo");
    std::fs::create_dir_all(&out_dir)
        .map_err(|e| format!("creating {}: {e}", out_dir.display()))?;

    // 1. Build the sample program.
    let source = root.join("samples/c/sample.c");
    let program = out_dir.join("c_sample");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    println!("== Building {} with {cc}", source.display());
    let output = Command::new(&cc)
        .args(["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror"])
        .arg("-I")
        .arg(root.join("include"))
        .arg(&source)
        .arg("-o")
        .arg(&program)
        .arg("-L")
        .arg(&lib_dir)
        // DT_RPATH (not RUNPATH): it outranks the LD_LIBRARY_PATH `cargo run`
        // sets, which may name a stale copy of the library.
        .arg(format!(
            "-Wl,--disable-new-dtags,-rpath,{}",
            lib_dir.display()
        ))
        .arg("-leventheader_tracepoint")
        .output()
        .map_err(|e| {
            format!("running {cc}: {e} (install a C compiler, e.g. apt-get install gcc)")
        })?;
    if !output.status.success() {
        return Err(format!(
            "{cc} failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }

    // 2. Run it in capture mode: events go to the file instead of the kernel.
    let capture = out_dir.join("events.dat");
    match std::fs::remove_file(&capture) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("removing {}: {e}", capture.display())),
    }
    let args = ["alpha", "beta"];
    println!(
        "== Running it with TRACEPOINT_CAPTURE_FILE={}: c_sample {}",
        capture.display(),
        args.join(" ")
    );
    let output = Command::new(&program)
        .args(args)
        .env("TRACEPOINT_CAPTURE_FILE", &capture)
        .output()
        .map_err(|e| format!("running {}: {e}", program.display()))?;
    print!("{}", String::from_utf8_lossy(&output.stdout));
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    if !output.status.success() {
        return Err(format!(
            "{} exited with {}",
            program.display(),
            output.status
        ));
    }

    // 3. Decode what it wrote, as `eventheader decode` does.
    let (events, tracepoints) = decode(&capture)?;
    println!("== {} events in {}:", events.len(), capture.display());
    for event in &events {
        println!("{event}");
    }
    println!(
        "== Without TRACEPOINT_CAPTURE_FILE, on a kernel with user_events (Linux 6.4+), the program\n   \
         writes to the tracepoints {}, which a collector\n   \
         enables, e.g. perf record -e user_events:{}",
        tracepoints.join(", "),
        tracepoints.first().map_or("NAME", String::as_str)
    );
    Ok(())
}

/// The events of a capture file, each as "tracepoint: JSON" (the JSON of
/// `eventheader decode`, with its default metadata), and the tracepoints
/// they were written to, in order of appearance.
fn decode(capture: &Path) -> Result<(Vec<String>, Vec<String>), String> {
    let file = File::open(capture).map_err(|e| format!("opening {}: {e}", capture.display()))?;
    let len = file.metadata().map(|m| m.len()).ok();
    let mut reader = CaptureReader::new(Buffered::new(Box::new(file), &[]), len);
    let mut formatter = Formatter::new(
        Meta::union(&[Meta::Default]),
        Filter::new(&FilterArgs::default()),
    );
    let mut events = Vec::new();
    let mut tracepoints: Vec<String> = Vec::new();
    while reader
        .next_record()
        .map_err(|e| format!("{}: {}", capture.display(), e.0))?
    {
        let name = reader.name();
        let mut json = String::new();
        if formatter.capture_event(&mut json, name, reader.event(), reader.stamp())
            == Outcome::Malformed
        {
            return Err(format!("{}: a malformed event: {json}", capture.display()));
        }
        events.push(format!("{name}: {json}"));
        if !tracepoints.iter().any(|t| t == name) {
            tracepoints.push(name.to_string());
        }
    }
    Ok((events, tracepoints))
}
