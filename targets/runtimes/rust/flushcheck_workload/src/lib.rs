//! flushcheck workloads, driver side, in Rust (docs/workload.md): what
//! flushcheck/workload.h is to C. A driver gives [`run`] how its library logs
//! a record and flushes; sleeps, markers, threads and the ends are done here.
//! A driver is about 20 lines:
//!
//! ```ignore
//! use flushcheck_workload::{Driver, Level};
//! use std::process::ExitCode;
//!
//! struct Logs(minilog::Logger);
//!
//! impl Driver for Logs {
//!     fn log(&self, level: Level, _n: u64, message: &str) {
//!         self.0.write(level as u8, message);
//!     }
//!     fn flush(&self) {
//!         self.0.flush();
//!     }
//! }
//!
//! fn main() -> ExitCode {
//!     let logs = Logs(minilog::Logger::open(std::env::var_os("FLUSHCHECK_LOG_DIR")));
//!     let status = flushcheck_workload::run("minilog_driver", std::env::args_os().skip(1), &logs);
//!     ExitCode::from(status as u8) // after `logs` is dropped: `return N`
//! }
//! ```
//!
//! The ends, each Rust's own:
//! - `return N`: `run` returns N. `main` returns `ExitCode::from(N as u8)`
//!   (stable since 1.61), so that its locals are dropped (a `BufWriter`
//!   flushes in its `Drop`) and std's runtime flushes `stdout()` before the
//!   process exits. A `main` that ends with `std::process::exit(N)` must
//!   drop its logger first, in an inner block: exit runs no destructors.
//! - `exit N`: `std::process::exit(N)`: "no destructors on the current stack
//!   or any other thread's stack will be run"
//!   (<https://doc.rust-lang.org/std/process/fn.exit.html>), so a library's
//!   `BufWriter` is not flushed; std's own `stdout()` is (library/std/src/
//!   process.rs: `exit` calls `rt::cleanup`, which flushes it, then libc's
//!   `exit`, which runs C's atexit handlers).
//! - `_exit N`: libc's `_exit(N)`, declared here (no libc crate): nothing runs.
//! - `abort`: `std::process::abort()`: SIGABRT, no destructors, "Rust IO
//!   buffers (eg, from BufWriter) will not be flushed"
//!   (<https://doc.rust-lang.org/std/process/fn.abort.html>).
//! - `raise SIG`: libc's `raise(SIG)`, with the dispositions the program has.
//!   std's runtime sets two before `main`: SIGPIPE ignored (`raise PIPE` does
//!   nothing), and a handler for SIGSEGV and SIGBUS that reports a stack
//!   overflow and otherwise restores the default and returns, so a raised
//!   one is swallowed once (library/std/src/sys/unix/stack_overflow.rs). If
//!   the program lives on, `run` waits a second (a handler may hand the
//!   signal to a thread, as signal-hook's and ctrlc's do) and returns 0.
//! - `throw`: `panic!("flushcheck workload: throw")` out of `run` on the
//!   calling thread, after the threads are joined. With panic=unwind,
//!   rustc's and Cargo's default (this crate sets no profile: the driver's
//!   build decides), the stack unwinds through `main`, dropping its locals
//!   (the logger's `Drop` runs), std prints "thread 'main' panicked at
//!   'flushcheck workload: throw', ..." and the process exits 101. Built with
//!   panic=abort it aborts instead (SIGABRT), nothing dropped.
//!
//! `threads K` runs the rest on K scoped threads (`std::thread::scope`, 1.63),
//! so a [`Driver`] is `Sync`. std only; rustc 1.63, edition 2021.

use std::ffi::OsStr;
use std::io::Write;
use std::os::raw::c_int;
use std::os::unix::ffi::OsStrExt;
use std::time::Duration;

pub mod marker;

/// A record's level in `log LEVEL BYTES`, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    Debug,
    Info,
    Warn,
    Error,
}

const LEVELS: [(&str, Level); 4] = [
    ("debug", Level::Debug),
    ("info", Level::Info),
    ("warn", Level::Warn),
    ("error", Level::Error),
];

impl Level {
    /// The level's name in a workload: "debug", "info", "warn" or "error".
    pub fn as_str(self) -> &'static str {
        LEVELS[self as usize].0
    }
}

/// What only the driver knows: how its library logs record N at LEVEL with
/// MESSAGE, and how it flushes. After `threads K`, called from K threads.
pub trait Driver: Sync {
    fn log(&self, level: Level, n: u64, message: &str);
    fn flush(&self);
}

/// The bounds: what a workload may ask (a bigger one is refused, not truncated).
pub const MAX_OPS: usize = 100_000;
pub const MAX_BYTES: u64 = 1 << 20;
pub const MAX_SLEEP_MS: u64 = 600_000;
pub const MAX_THREADS: u64 = 64;

/// The ops, in an order the code relies on: steps, then threads, then ends.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Log,
    Flush,
    Sleep,
    Marker,
    Threads,
    Return,
    Exit,
    UExit,
    Abort,
    Raise,
    Throw,
}

/// An op's arguments: one number up to its bound, or another shape.
#[derive(Clone, Copy, PartialEq)]
enum Args {
    None,
    LevelAndBytes,
    Label,
    Signal,
    Number(u64),
}

#[rustfmt::skip]
const OPS: [(&[u8], Kind, Args); 11] = [
    (b"log", Kind::Log, Args::LevelAndBytes), (b"flush", Kind::Flush, Args::None),
    (b"sleep", Kind::Sleep, Args::Number(MAX_SLEEP_MS)), (b"marker", Kind::Marker, Args::Label),
    (b"threads", Kind::Threads, Args::Number(MAX_THREADS)),
    (b"return", Kind::Return, Args::Number(255)), (b"exit", Kind::Exit, Args::Number(255)),
    (b"_exit", Kind::UExit, Args::Number(255)), (b"abort", Kind::Abort, Args::None),
    (b"raise", Kind::Raise, Args::Signal), (b"throw", Kind::Throw, Args::None),
];

// Linux's numbers, which every Linux architecture but alpha, mips, parisc and
// sparc shares (asm-generic/signal.h).
#[rustfmt::skip]
const SIGNALS: [(&[u8], u64); 24] = [
    (b"HUP", 1), (b"INT", 2), (b"QUIT", 3), (b"ILL", 4), (b"TRAP", 5), (b"ABRT", 6), (b"BUS", 7),
    (b"FPE", 8), (b"KILL", 9), (b"USR1", 10), (b"SEGV", 11), (b"USR2", 12), (b"PIPE", 13),
    (b"ALRM", 14), (b"TERM", 15), (b"CHLD", 17), (b"CONT", 18), (b"STOP", 19), (b"TSTP", 20),
    (b"TTIN", 21), (b"TTOU", 22), (b"XCPU", 24), (b"XFSZ", 25), (b"SYS", 31),
];
/// Signals whose default action stops the program: a driver stopped for good.
const STOPS: [u64; 4] = [19, 20, 21, 22];

struct Op {
    kind: Kind,
    n: u64, // BYTES, MS, K, an exit status or a signal number
    level: Level,
    record: u64, // log: its record number
    label: Vec<u8>,
}

/// SIG's number from a name with or without "SIG" (TERM, SIGKILL) or a number
/// from 1 to 64; None for anything else.
pub fn signal_number(sig: &[u8]) -> Option<u64> {
    let name = sig.strip_prefix(b"SIG").unwrap_or(sig);
    if let Some(&(_, n)) = SIGNALS.iter().find(|s| s.0 == name) {
        return Some(n);
    }
    if name.len() > 3 {
        return None;
    }
    count(name, 64).filter(|&n| n >= 1)
}

/// TEXT's value if it is ASCII digits no larger than MAX (leading zeros too,
/// however many), checked digit by digit so that no length overflows.
fn count(text: &[u8], max: u64) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for &c in text {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u64::from(c - b'0');
        if v > max {
            return None;
        }
    }
    Some(v)
}

/// `log LEVEL BYTES` into OP.
fn log_args(tokens: &[&[u8]], op: &mut Op) -> Result<(), &'static str> {
    op.level = LEVELS
        .iter()
        .find(|l| l.0.as_bytes() == tokens[1])
        .ok_or("expects a level: debug, info, warn or error")?
        .1;
    op.n = count(tokens[2], MAX_BYTES).ok_or("expects a size in bytes, at most 1048576")?;
    Ok(())
}

/// `raise SIG` into OP. A signal whose default action stops the program
/// would stop the driver for good.
fn signal_args(sig: &[u8], op: &mut Op) -> Result<(), &'static str> {
    op.n = signal_number(sig).ok_or("expects a signal name or number")?;
    if STOPS.contains(&op.n) {
        return Err(
            "expects a signal that ends or is ignored, not one that stops the program \
                    (STOP, TSTP, TTIN, TTOU)",
        );
    }
    Ok(())
}

/// The arguments TOKENS[1..] of an op whose arguments are ARGS into OP.
fn args(args: Args, tokens: &[&[u8]], op: &mut Op) -> Result<(), &'static str> {
    match args {
        Args::None => Ok(()),
        Args::LevelAndBytes => log_args(tokens, op),
        Args::Label if tokens[1].len() >= 64 => Err("expects a label under 64 bytes"),
        Args::Label => {
            op.label = tokens[1].to_vec();
            Ok(())
        }
        Args::Signal => signal_args(tokens[1], op),
        Args::Number(max) => {
            op.n = count(tokens[1], max).ok_or("expects a number in range")?;
            if op.kind == Kind::Threads && op.n < 2 {
                return Err("expects 2 to 64 threads");
            }
            Ok(())
        }
    }
}

/// The op TOKENS spell.
fn parse_op(tokens: &[&[u8]]) -> Result<Op, &'static str> {
    let &(_, kind, shape) = OPS
        .iter()
        .find(|d| d.0 == tokens[0])
        .ok_or("unknown operation")?;
    let mut op = Op {
        kind,
        n: 0,
        level: Level::Debug,
        record: 0,
        label: Vec::new(),
    };
    match shape {
        Args::None if tokens.len() != 1 => return Err("takes no argument"),
        Args::LevelAndBytes if tokens.len() != 3 => {
            return Err("expects a level (debug, info, warn, error) and a size in bytes")
        }
        Args::Label | Args::Signal | Args::Number(_) if tokens.len() != 2 => {
            return Err("expects one argument")
        }
        _ => {}
    }
    args(shape, tokens, &mut op)?;
    Ok(op)
}

/// The ops parsed so far.
#[derive(Default)]
struct Workload {
    ops: Vec<Op>,
    records: u64,   // log ops
    threaded: bool, // a `threads` op is among them
}

impl Workload {
    /// Why the ops so far cannot take OP (an end not last, a marker after
    /// threads, two threads ops). In constant time: only the last op can be
    /// an end.
    fn order(&self, op: &Op) -> Result<(), &'static str> {
        if self
            .ops
            .last()
            .map_or(false, |last| last.kind >= Kind::Return)
        {
            return Err("comes after the workload's end");
        }
        if self.threaded && op.kind == Kind::Threads {
            return Err("a second threads");
        }
        if self.threaded && op.kind == Kind::Marker {
            return Err("a marker after threads (every thread would stop at it)");
        }
        Ok(())
    }

    /// The op TEXT spells appended (an empty one skipped).
    fn add(&mut self, text: &[u8]) -> Result<(), &'static str> {
        let mut tokens = text.split(|&c| is_blank(c)).filter(|t| !t.is_empty());
        let mut spelt: [&[u8]; 4] = [b""; 4];
        let mut n = 0;
        for token in tokens.by_ref().take(4) {
            spelt[n] = token;
            n += 1;
        }
        if n == 0 {
            return Ok(()); // an empty op: "a;;b"
        }
        if self.ops.len() == MAX_OPS {
            return Err("more than 100000 ops");
        }
        if tokens.next().is_some() {
            return Err("too many arguments");
        }
        let mut op = parse_op(&spelt[..n])?;
        self.order(&op)?;
        if op.kind == Kind::Log {
            op.record = self.records;
            self.records += 1;
        }
        self.threaded |= op.kind == Kind::Threads;
        self.ops.push(op);
        Ok(())
    }
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\r'
}

/// An op as written, without its leading blanks: at most 79 bytes.
fn shown(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .position(|&c| !is_blank(c))
        .unwrap_or(text.len());
    &text[start..text.len().min(start + 79)]
}

/// TEXT's ops (separated by ';' or newlines); or "op K 'TEXT': WHY" for the
/// first bad one, K its place among the ops before it.
fn parse(text: &[u8]) -> Result<Workload, Vec<u8>> {
    let mut w = Workload {
        ops: Vec::with_capacity((text.len() / 2 + 1).min(MAX_OPS)),
        ..Default::default()
    };
    for piece in text.split(|&c| c == b';' || c == b'\n') {
        if let Err(why) = w.add(piece) {
            let mut line = format!("op {} '", w.ops.len()).into_bytes();
            line.extend_from_slice(shown(piece));
            line.extend_from_slice(b"': ");
            line.extend_from_slice(why.as_bytes());
            return Err(line);
        }
    }
    Ok(w)
}

/// Record N's message for `log LEVEL BYTES`: "rec N", padded with " xxx..."
/// to BYTES.
pub fn message(n: u64, bytes: usize) -> String {
    let mut text = format!("rec {}", n);
    if text.len() < bytes {
        text.reserve(bytes - text.len());
        text.push(' ');
        while text.len() < bytes {
            text.push('x');
        }
    }
    text
}

/// One thread's share of OPS (up to `threads` or the end): every flush, sleep
/// and marker, and the records whose place among OPS's logs is THREAD mod
/// THREADS.
fn share(ops: &[Op], driver: &dyn Driver, thread: u64, threads: u64) {
    let mut place = 0;
    for op in ops.iter().take_while(|op| op.kind < Kind::Threads) {
        match op.kind {
            Kind::Log => {
                if place % threads == thread {
                    driver.log(op.level, op.record, &message(op.record, op.n as usize));
                }
                place += 1;
            }
            Kind::Flush => driver.flush(),
            Kind::Sleep => std::thread::sleep(Duration::from_millis(op.n)),
            Kind::Marker => marker::marker(&op.label),
            _ => {}
        }
    }
}

/// OPS's ops before `threads` on this thread, then the rest on its K threads,
/// joined before it returns.
fn run_ops(ops: &[Op], driver: &dyn Driver) {
    share(ops, driver, 0, 1);
    if let Some(at) = ops.iter().position(|op| op.kind == Kind::Threads) {
        let (rest, k) = (&ops[at + 1..], ops[at].n);
        std::thread::scope(|scope| {
            for thread in 0..k {
                scope.spawn(move || share(rest, driver, thread, k));
            }
        });
    }
}

mod libc {
    use std::os::raw::c_int;
    extern "C" {
        // std links the C library: its _exit(2) and raise(3).
        pub fn _exit(status: c_int) -> !;
        pub fn raise(sig: c_int) -> c_int;
    }
}

/// Ends the program as OP (a workload's end) says; the status for `return N`
/// (0 for a raised signal that did not end it).
fn end(op: &Op) -> i32 {
    match op.kind {
        Kind::Exit => std::process::exit(op.n as i32),
        // SAFETY: _exit takes any status and does not return.
        Kind::UExit => unsafe { libc::_exit(op.n as c_int) },
        Kind::Abort => std::process::abort(),
        Kind::Raise => {
            // SAFETY: raise takes any signal number; a bad one returns -1.
            unsafe { libc::raise(op.n as c_int) };
            std::thread::sleep(Duration::from_secs(1));
            0
        }
        Kind::Throw => panic!("flushcheck workload: throw"),
        _ => op.n as i32,
    }
}

/// Runs the workload ARGS spell (joined with ';') with DRIVER: its `log` for
/// each record, its `flush` for each flush. Returns what `main` should exit
/// with: N for `return N`, 0 without an end, 64 for a bad workload (one line
/// on stderr naming NAME, "NAME: bad workload: op 2 'log loud 3': expects a
/// level: ...", before anything ran); `exit`, `_exit`, `abort` and `raise`
/// end the program here, and `throw` panics from here after every op ran.
pub fn run<I, S>(name: &str, args: I, driver: &dyn Driver) -> i32
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut text = Vec::new();
    for (i, arg) in args.into_iter().enumerate() {
        if i > 0 {
            text.push(b';');
        }
        text.extend_from_slice(arg.as_ref().as_bytes());
    }
    let workload = match parse(&text) {
        Ok(w) => w,
        Err(why) => {
            let mut line = format!("{}: bad workload: ", name).into_bytes();
            line.extend_from_slice(&why);
            line.push(b'\n');
            let _ = std::io::stderr().write_all(&line);
            return 64;
        }
    };
    marker::init();
    run_ops(&workload.ops, driver);
    match workload.ops.last() {
        Some(last) if last.kind >= Kind::Return => end(last),
        _ => 0,
    }
}
