//! script.rs: rust_script, flushcheck's script language in Rust, for the ops that mean
//! something in Rust. The language, byte attribution, exit codes and what each op does
//! here: docs/script.md ("In other runtimes"); the marker protocol: docs/markers.md.
//!
//!     rust_script 'line 3; write 2; marker m; exit 3'
//!
//! std only; builds with rustc 1.63 (edition 2021). The build passes the compiler's
//! version in FLUSHCHECK_RUSTC_VERSION for --version (Rust has no run-time version).

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, LineWriter, Read, Stdout, Write};
use std::mem::ManuallyDrop;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::io::FromRawFd;
use std::process::ExitCode;
use std::time::Duration;

const PROG: &str = "rust_script";
const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BAD_COUNT: &str = "expects a count (0 to 1000000000)";

#[derive(Clone, Copy, PartialEq)]
#[rustfmt::skip]
enum Kind { Line, Write, Flush, Marker, Sleep, Buffer, Exit, UExit, Abort, Throw, Raise }

/// The op table: name, kind and argument shapes ('N' count, 'n' optional count,
/// 'S' optional stream, 'M' buffer mode, 'L' label, 'G' signal).
#[rustfmt::skip]
const OPS: &[(&str, Kind, &str)] = &[
    ("line", Kind::Line, "NS"), ("write", Kind::Write, "NS"), ("flush", Kind::Flush, "S"),
    ("marker", Kind::Marker, "L"), ("sleep", Kind::Sleep, "N"), ("buffer", Kind::Buffer, "Mn"),
    ("exit", Kind::Exit, "n"), ("_exit", Kind::UExit, "n"), ("abort", Kind::Abort, ""),
    ("throw", Kind::Throw, ""), ("raise", Kind::Raise, "G"),
];

#[rustfmt::skip]
const SIGNALS: &[(&str, u64)] = &[
    ("HUP", 1), ("INT", 2), ("ABRT", 6), ("KILL", 9), ("USR1", 10), ("USR2", 12), ("PIPE", 13),
    ("TERM", 15),
];

extern "C" {
    fn kill(pid: i32, sig: i32) -> i32; // std links libc
    fn getpid() -> i32;
}

/// One parsed op; `index` counts from 0 in script order (its payload byte).
struct Op {
    index: usize,
    text: String, // as written, for messages
    kind: Kind,
    n: u64,       // count, size, exit status or signal number
    sized: bool,  // an optional count was given
    word: String, // buffer mode or marker label
    stream: String,
}

fn count(a: &str) -> Option<u64> {
    if !a.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    a.parse::<u64>().ok().filter(|&n| n <= 1_000_000_000)
}

fn signal_number(a: &str) -> Option<u64> {
    let name = a.strip_prefix("SIG").unwrap_or(a);
    match SIGNALS.iter().find(|s| s.0 == name) {
        Some(s) => Some(s.1),
        None => count(name).filter(|&n| n > 0 && n < 65),
    }
}

fn one_of(s: &str, words: &[&str], why: &'static str) -> Result<String, &'static str> {
    if words.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(why)
    }
}

impl Op {
    /// Parses A (None when absent) as SHAPE; Ok(whether it used A) or why A is wrong.
    fn arg(&mut self, shape: char, a: Option<&str>) -> Result<bool, &'static str> {
        let s = a.unwrap_or("");
        match shape {
            'N' => self.n = count(s).ok_or(BAD_COUNT)?,
            // there when it looks like a number: "exit -1" is a bad count
            'n' if !s.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '-') => {
                return Ok(false)
            }
            'n' => (self.n, self.sized) = (count(s).ok_or(BAD_COUNT)?, true),
            'S' if a.is_none() => return Ok(false),
            'S' => {
                self.stream = one_of(s, &["out", "err", "all"], "stream must be out, err or all")?
            }
            'M' => {
                self.word = one_of(
                    s,
                    &["none", "line", "full"],
                    "mode must be none, line or full",
                )?
            }
            'L' if s.len() >= 64 => return Err("label too long"), // bytes, as script.c
            'L' => self.word = a.ok_or("expects a label")?.to_string(),
            _ => self.n = signal_number(s).ok_or("expects a signal name or number")?,
        }
        Ok(true)
    }
}

/// Why this runtime refuses a well-formed op, if it does.
fn refusal(op: &Op) -> Option<&'static str> {
    if op.kind == Kind::Buffer && op.word != "full" && op.sized {
        return Some("a size is only for full");
    }
    if op.kind == Kind::Buffer && op.sized && op.n == 0 {
        return Some("a size must be at least 1");
    }
    if op.stream == "all" && op.kind != Kind::Flush {
        return Some("'all' is only for flush");
    }
    None
}

fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split([' ', '\t', '\r']).filter(|t| !t.is_empty())
}

fn parse_op(index: usize, text: &str) -> Result<Op, &'static str> {
    let mut tok = tokens(text);
    let name = tok.next().unwrap_or("");
    let def = OPS
        .iter()
        .find(|d| d.0 == name)
        .ok_or("unknown operation")?;
    let mut op = Op {
        index,
        text: text.to_string(),
        kind: def.1,
        n: 0,
        sized: false,
        word: String::new(),
        stream: "out".to_string(),
    };
    let mut next = tok.next();
    for shape in def.2.chars() {
        if op.arg(shape, next)? {
            next = tok.next();
        }
    }
    if next.is_some() {
        return Err("too many arguments");
    }
    refusal(&op).map_or(Ok(op), Err)
}

/// Splits the whole script into ops (';' or newline; empty ops skipped).
fn parse(src: &str) -> Result<Vec<Op>, String> {
    let mut script = Vec::new();
    for part in src.split([';', '\n']) {
        let text = part.trim_start_matches([' ', '\t']);
        if tokens(text).next().is_none() {
            continue;
        }
        match parse_op(script.len(), text) {
            Ok(op) => script.push(op),
            Err(why) => return Err(format!("op {} '{}': {}", script.len() + 1, text, why)),
        }
    }
    Ok(script)
}

/// Stdout's current writer, as the `buffer` op chose it.
/// Rust library/std/src/io/stdio.rs: stdout() is a LineWriter already.
enum Out {
    Std(Stdout),
    Line(LineWriter<Stdout>),
    Full(BufWriter<Stdout>),
    Raw(ManuallyDrop<File>), // fd 1, never closed
}

impl Out {
    fn get(&mut self) -> &mut dyn Write {
        match self {
            Out::Std(w) => w,
            Out::Line(w) => w,
            Out::Full(w) => w,
            Out::Raw(f) => &mut **f,
        }
    }
}

/// One line on stderr, in one write.
fn say(op: &Op, what: &str) {
    let line = format!("{}: op {} '{}': {}\n", PROG, op.index + 1, op.text, what);
    let _ = io::stderr().write_all(line.as_bytes());
}

struct State {
    out: Out,
    failed: bool,
    marker: Marker,
}

impl State {
    fn check(&mut self, op: &Op, call: &str, r: io::Result<()>) {
        if let Err(e) = r {
            say(op, &format!("{}: {}", call, e));
            self.failed = true;
        }
    }

    /// One write_all of N payload bytes and END (the '\n' in the same call).
    fn emit(&mut self, op: &Op, end: &str) {
        let mut bytes = vec![ALPHABET[op.index % 62]; op.n as usize];
        bytes.extend_from_slice(end.as_bytes());
        let r = match op.stream.as_str() {
            "err" => io::stderr().write_all(&bytes),
            _ => self.out.get().write_all(&bytes),
        };
        self.check(op, "write_all", r);
    }

    fn flush(&mut self, op: &Op) {
        if op.stream != "err" {
            let r = self.out.get().flush();
            self.check(op, "flush", r);
        }
        if op.stream != "out" {
            let r = io::stderr().flush();
            self.check(op, "flush", r);
        }
    }

    /// The old writer is flushed first, and stdout()'s LineWriter with it: a
    /// partial line it held would otherwise go out at exit (std's rt::cleanup),
    /// after what the new writer wrote. (Rust library/std/src/io/buffered/
    /// bufwriter.rs: BufWriter's Drop flushes too, ignoring errors.)
    fn buffer(&mut self, op: &Op) {
        let r = self.out.get().flush().and_then(|_| io::stdout().flush());
        self.check(op, "flush", r);
        let size = if op.sized { op.n as usize } else { 8192 }; // std's default too
        self.out = match op.word.as_str() {
            "line" => Out::Line(LineWriter::new(io::stdout())),
            "full" => Out::Full(BufWriter::with_capacity(size, io::stdout())),
            _ => Out::Raw(ManuallyDrop::new(unsafe { File::from_raw_fd(1) })),
        };
    }

    /// Runs one op; Some(code) when it ends the script by returning from main.
    fn step(&mut self, op: &Op) -> Option<ExitCode> {
        match op.kind {
            Kind::Line => self.emit(op, "\n"),
            Kind::Write => self.emit(op, ""),
            Kind::Flush => self.flush(op),
            Kind::Marker => self.marker.mark(&op.word),
            Kind::Sleep => std::thread::sleep(Duration::from_millis(op.n)),
            Kind::Buffer => self.buffer(op),
            Kind::Exit => return Some(ExitCode::from(op.n as u8)),
            // Rust library/std/src/process.rs: exit runs no destructors (but flushes stdout())
            Kind::UExit => std::process::exit(op.n as i32),
            Kind::Abort => std::process::abort(),
            Kind::Throw => panic!("flushcheck"),
            Kind::Raise => self.raise(op),
        }
        None
    }

    fn raise(&mut self, op: &Op) {
        if unsafe { kill(getpid(), op.n as i32) } != 0 {
            let r = Err(io::Error::last_os_error());
            self.check(op, "kill", r);
        }
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// The marker protocol (docs/markers.md): raw write(2) and read(2), nothing flushed.
struct Marker {
    fd: Option<i32>,
    release: Option<i32>,
}

/// The fd in variable NAME, by marker.h's rule (flushcheck_parse_fd_): ASCII
/// digits only, nothing else; an empty value is not a number.
fn env_fd(name: &str) -> Option<i32> {
    let v = std::env::var_os(name).filter(|v| !v.is_empty())?;
    let mut fd: i32 = 0;
    for &b in v.as_bytes() {
        if !b.is_ascii_digit() || fd > 100000 {
            return None;
        }
        fd = fd * 10 + i32::from(b - b'0');
    }
    Some(fd)
}

impl Marker {
    /// The release fd: FLUSHCHECK_RELEASE_FD, or its old name FLUSHCHECK_GATE_FD;
    /// with neither, a marker does not wait (marker.h).
    fn from_env() -> Marker {
        let fd = env_fd("FLUSHCHECK_MARKER_FD");
        let release = env_fd("FLUSHCHECK_RELEASE_FD").or_else(|| env_fd("FLUSHCHECK_GATE_FD"));
        Marker { fd, release }
    }

    /// write_all and read_exact retry EINTR and go on after a partial write;
    /// a failure is ignored, as marker.h's (the harness is gone).
    fn mark(&self, label: &str) {
        let fd = match self.fd {
            Some(fd) => fd,
            None => return,
        };
        let mut out = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
        if out.write_all(format!("{}\n", label).as_bytes()).is_err() {
            return;
        }
        if let Some(release) = self.release {
            let mut back = ManuallyDrop::new(unsafe { File::from_raw_fd(release) });
            let _ = back.read_exact(&mut [0u8; 1]);
        }
    }
}

/// Runs the script. The writers are locals here, so "exit N" drops them (and a
/// BufWriter flushes) before main returns.
fn run(script: &[Op]) -> ExitCode {
    let mut state = State {
        out: Out::Std(io::stdout()),
        failed: false,
        marker: Marker::from_env(),
    };
    for op in script {
        if let Some(code) = state.step(op) {
            return code;
        }
    }
    ExitCode::from(if state.failed { 1 } else { 0 })
}

/// The arguments, or the first that is not UTF-8 (its number, from 1).
fn utf8_args() -> Result<Vec<String>, usize> {
    let args = std::env::args_os().skip(1).map(OsString::into_string);
    args.enumerate()
        .map(|(i, a)| a.map_err(|_| i + 1))
        .collect()
}

fn main() -> ExitCode {
    let args = match utf8_args() {
        Ok(args) => args,
        Err(i) => {
            eprintln!("{}: bad script: argument {} is not UTF-8", PROG, i);
            return ExitCode::from(64);
        }
    };
    if args.len() == 1 && args[0] == "--version" {
        let version = option_env!("FLUSHCHECK_RUSTC_VERSION").unwrap_or("unknown");
        let r = io::stdout().write_all(format!("rust {}\n", version).as_bytes());
        return ExitCode::from(if r.is_ok() { 0 } else { 1 });
    }
    if args.is_empty() {
        eprintln!(
            "{}: usage: {} SCRIPT... (ops separated by ';', see docs/script.md)",
            PROG, PROG
        );
        return ExitCode::from(64);
    }
    match parse(&args.join(";")) {
        Ok(script) => run(&script),
        Err(why) => {
            eprintln!("{}: bad script: {}", PROG, why);
            ExitCode::from(64)
        }
    }
}
