//! stdio_driver.c's twin in Rust (docs/workload.md): LEVEL MESSAGE lines
//! through a 4096-byte BufWriter (glibc's stdio buffer on a pipe) on
//! std::io::stdout(), one write_all per line, so that stdout()'s own
//! LineWriter only ever passes whole lines on; `flush` by its flush. A mutex
//! around it, as a logger takes one: the workload's threads log at once after
//! `threads`. The BufWriter is flushed when it is dropped, at `return N` and
//! at `throw` (the panic unwinds through main), not at `exit N` (no
//! destructors run), `_exit`, `abort` or a kill.
//!
//!   rustc --edition 2021 -O --extern flushcheck_workload=libflushcheck_workload.rlib stdio_driver.rs
use std::io::{BufWriter, Stdout, Write};
use std::process::ExitCode;
use std::sync::Mutex;

use flushcheck_workload::{Driver, Level};

struct StdoutLines(Mutex<BufWriter<Stdout>>);

impl Driver for StdoutLines {
    fn log(&self, level: Level, _n: u64, message: &str) {
        let line = format!("{} {}\n", level.as_str().to_ascii_uppercase(), message);
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = out.write_all(line.as_bytes());
    }

    fn flush(&self) {
        let _ = self.0.lock().unwrap_or_else(|e| e.into_inner()).flush();
    }
}

fn main() -> ExitCode {
    let out = StdoutLines(Mutex::new(BufWriter::with_capacity(
        4096,
        std::io::stdout(),
    )));
    let status = flushcheck_workload::run("stdio_driver.rs", std::env::args_os().skip(1), &out);
    ExitCode::from(status as u8)
}
