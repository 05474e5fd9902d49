//! `decode --format trace-event` opened in a real viewer: speedscope (the
//! npm package scripts/install-deps.sh puts in `$EHK_NPM`) in Debian's
//! headless Chromium, served from a local directory by a small HTTP server
//! in this test. A recording with nested activities on two threads is
//! decoded, the file is loaded through speedscope's `#profileURL=`, and
//! a script on the page steps through speedscope's profiles (one per
//! thread: its `n` key, pressed by a `keypress` event) in its sandwich view, whose table lists each
//! profile's slices; the page's text per profile comes back through
//! `--dump-dom`. The test checks that speedscope parsed every slice, on the
//! right thread, and nothing more.
//!
//! A missing Chromium or speedscope fails the test (with what to install),
//! it never skips.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use testkit::trace_event::{check, nested_recording, NESTED_SLICES};

/// Steps through speedscope's profiles and leaves, in a `<pre
/// id="eh-result">`, a JSON array of each profile's page text, hex-encoded
/// (so that nothing in it needs HTML escaping).
const DRIVE_JS: &str = r#"
(async () => {
  const wait = ms => new Promise(r => setTimeout(r, ms));
  const count = () => {
    const m = document.body.innerText.match(/\((\d+)\/(\d+)\)/);
    return m ? [Number(m[1]), Number(m[2])] : null;
  };
  let c = null;
  for (let i = 0; i < 200 && !(c = count()); i++) await wait(100);
  const texts = [];
  const total = c ? c[1] : 0;
  for (let k = 0; k < total; k++) {
    for (let i = 0; i < 50 && (count() || [0])[0] !== k + 1; i++) await wait(100);
    await wait(200);
    texts.push(document.body.innerText);
    window.dispatchEvent(new KeyboardEvent('keypress', { key: 'n' }));
  }
  const bytes = new TextEncoder().encode(JSON.stringify(texts));
  const pre = document.createElement('pre');
  pre.id = 'eh-result';
  pre.textContent = Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('');
  document.body.appendChild(pre);
})();
"#;

/// speedscope's built files, from the npm package install-deps.sh installs.
fn speedscope_dir() -> PathBuf {
    let base = std::env::var_os("EHK_NPM")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache"));
            cache.join("eventheader-tracepoint/npm")
        });
    let dir = base.join("node_modules/speedscope/dist/release");
    assert!(
        dir.join("index.html").is_file(),
        "speedscope is missing: expected {} (the npm package speedscope of scripts/packages.txt; run bash scripts/install-deps.sh)",
        dir.display()
    );
    dir
}

fn chromium() -> &'static str {
    let ok = Command::new("chromium")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "chromium is missing: the Debian package chromium (scripts/packages.txt; run bash scripts/install-deps.sh)"
    );
    "chromium"
}

/// Serves the files of `dir` on 127.0.0.1 (a port of its own) until the
/// test ends: GET only, no directories, nothing outside `dir`.
fn serve(dir: PathBuf) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    return;
                }
                let mut header = String::new();
                while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                    header.clear();
                }
                let path = line.split(' ').nth(1).unwrap_or("/");
                let path = path.split(['?', '#']).next().unwrap_or("/");
                let name = path.trim_start_matches('/');
                let file = (!name.contains("..") && !name.is_empty())
                    .then(|| dir.join(name))
                    .filter(|f| f.is_file());
                let mut stream = &stream;
                match file.and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))) {
                    Some((f, body)) => {
                        let kind = match f.extension().and_then(|e| e.to_str()) {
                            Some("html") => "text/html; charset=utf-8",
                            Some("js") => "text/javascript",
                            Some("css") => "text/css",
                            Some("json") => "application/json",
                            Some("wasm") => "application/wasm",
                            Some("png") => "image/png",
                            Some("woff2") => "font/woff2",
                            _ => "application/octet-stream",
                        };
                        let _ = write!(
                            stream,
                            "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                            body.len()
                        );
                        let _ = stream.write_all(&body);
                    }
                    None => {
                        let _ = stream.write_all(
                            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                        );
                    }
                }
            });
        }
    });
    port
}

/// Copies speedscope into `site` with the page `drive.html` (speedscope's
/// page plus [`DRIVE_JS`]) and the trace `trace.json`.
fn make_site(site: &Path, trace: &[u8]) {
    let from = speedscope_dir();
    for entry in std::fs::read_dir(&from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), site.join(entry.file_name())).unwrap();
        }
    }
    let index = std::fs::read_to_string(from.join("index.html")).unwrap();
    assert!(
        index.contains("</body>"),
        "speedscope's index.html has no </body>"
    );
    let page = index.replace("</body>", "<script src=\"drive.js\"></script></body>");
    std::fs::write(site.join("drive.html"), page).unwrap();
    std::fs::write(site.join("drive.js"), DRIVE_JS).unwrap();
    std::fs::write(site.join("trace.json"), trace).unwrap();
}

/// Runs headless Chromium on `url` with `args`; its standard output.
pub fn run_chromium(profile: &Path, args: &[&str], url: &str) -> String {
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--virtual-time-budget=30000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("running chromium");
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish in 180 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    reader.join().unwrap()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// The frame names of a profile's sandwich table: the lines of its text
/// that start with one of `names` followed by speedscope's ` {args}`.
fn frames<'a>(text: &str, names: &[&'a str]) -> Vec<&'a str> {
    let mut found = Vec::new();
    for line in text.lines().flat_map(|l| l.split('\t')) {
        for name in names {
            if line.trim().starts_with(&format!("{name} {{")) {
                found.push(*name);
            }
        }
    }
    found
}

#[test]
fn speedscope_parses_the_slices_of_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("nested.data");
    nested_recording(&data);
    let out = common::run(&["decode", "--format", "trace-event", data.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let checked = check(&String::from_utf8_lossy(&out.stdout)).unwrap();
    assert_eq!(checked.slices, 5);

    let site = dir.path().join("site");
    std::fs::create_dir(&site).unwrap();
    make_site(&site, &out.stdout);
    let port = serve(site);
    let profile = dir.path().join("chromium-profile");
    let dom = run_chromium(
        &profile,
        &["--dump-dom"],
        &format!("http://127.0.0.1:{port}/drive.html#profileURL=trace.json&view=sandwich"),
    );
    let hex = dom
        .split("<pre id=\"eh-result\">")
        .nth(1)
        .and_then(|s| s.split("</pre>").next())
        .unwrap_or_else(|| {
            panic!("speedscope did not load the trace (no result on the page):\n{dom}")
        });
    let texts: Vec<String> = serde_json_texts(&unhex(hex));
    let all: Vec<&str> = NESTED_SLICES
        .iter()
        .flat_map(|s| s.iter().copied())
        .collect();
    let mut per_profile: Vec<Vec<&str>> = texts.iter().map(|t| frames(t, &all)).collect();
    for p in &mut per_profile {
        p.sort_unstable();
    }
    per_profile.sort();
    let mut expected: Vec<Vec<&str>> = NESTED_SLICES.iter().map(|s| s.to_vec()).collect();
    for e in &mut expected {
        e.sort_unstable();
    }
    expected.sort();
    assert_eq!(
        per_profile, expected,
        "speedscope's profiles and their slices (one profile per thread)"
    );
}

/// The strings of a JSON array of strings (the page's texts).
fn serde_json_texts(bytes: &[u8]) -> Vec<String> {
    let v = testkit::json::parse(std::str::from_utf8(bytes).unwrap());
    v.as_array()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}
