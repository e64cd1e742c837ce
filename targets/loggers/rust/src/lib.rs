//! What the Rust loggers' drivers share: the log file's path, the CONFIG
//! argument, and the `log` crate's levels (env_logger and fern are
//! `log` backends).
use std::path::PathBuf;

use flushcheck_workload::Level;

/// $FLUSHCHECK_LOG_DIR/app.log (./app.log outside the harness).
pub fn log_path() -> PathBuf {
    let dir = std::env::var_os("FLUSHCHECK_LOG_DIR").unwrap_or_else(|| ".".into());
    PathBuf::from(dir).join("app.log")
}

/// CONFIG of `PROG CONFIG workload OP...`, or exits 2 with the usage.
pub fn config(prog: &str) -> String {
    let args: Vec<String> = std::env::args().skip(1).take(2).collect();
    if args.len() != 2 || args[1] != "workload" {
        eprintln!("usage: {} CONFIG workload OP...", prog);
        std::process::exit(2);
    }
    args[0].clone()
}

/// The workload's ops: the arguments after `CONFIG workload`.
pub fn ops() -> impl Iterator<Item = std::ffi::OsString> {
    std::env::args_os().skip(3)
}

/// Says CONFIG is none of KNOWN and exits 2.
pub fn unknown(prog: &str, config: &str, known: &str) -> ! {
    eprintln!("{}: unknown CONFIG {:?} ({})", prog, config, known);
    std::process::exit(2);
}

/// The `log` crate's level for a workload's.
pub fn log_level(level: Level) -> log::Level {
    match level {
        Level::Debug => log::Level::Debug,
        Level::Info => log::Level::Info,
        Level::Warn => log::Level::Warn,
        Level::Error => log::Level::Error,
    }
}

/// A driver for any `log` backend: a record is `log!`, `flush` is
/// `log::logger().flush()` ("Flushes any buffered records", log's Log::flush).
pub struct LogFacade;

impl flushcheck_workload::Driver for LogFacade {
    fn log(&self, level: Level, _n: u64, message: &str) {
        log::log!(log_level(level), "{}", message);
    }

    fn flush(&self) {
        log::logger().flush();
    }
}
