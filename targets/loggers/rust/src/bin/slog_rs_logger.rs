//! A property gate's driver for slog (2.5.2) with slog-term (2.6.0) and
//! slog-async (2.7.0), Debian 12's librust-slog-dev, -slog-term-dev and
//! -slog-async-dev, for tests/loggers/slog_rs.property.toml:
//!
//!   slog_rs_logger CONFIG workload OP...   (docs/workload.md)
//!
//! CONFIG: sync_file (slog_term::PlainSyncDecorator on app.log's File,
//! FullFormat, fuse: records written on the logging thread) | async_file
//! (slog_term::PlainDecorator on the File, FullFormat, fuse, then
//! slog_async::Async::new(..).build(): the defaults, a 128-record channel,
//! OverflowStrategy::DropAndReport). The Logger is main's local: dropped at
//! `return N` and at `throw` (the panic unwinds main), where Async's drop
//! waits for its worker. slog 2.5 has no flush: `flush` does nothing.
use std::fs::File;
use std::process::ExitCode;

use flushcheck_rust_loggers::{config, log_path, ops, unknown};
use flushcheck_workload::{Driver, Level};
use slog::{o, Drain};

const PROG: &str = "slog_rs_logger";

struct Slog(slog::Logger);

impl Driver for Slog {
    fn log(&self, level: Level, _n: u64, message: &str) {
        match level {
            Level::Debug => slog::debug!(self.0, "{}", message),
            Level::Info => slog::info!(self.0, "{}", message),
            Level::Warn => slog::warn!(self.0, "{}", message),
            Level::Error => slog::error!(self.0, "{}", message),
        }
    }

    fn flush(&self) {}
}

fn main() -> ExitCode {
    let config = config(PROG);
    let file = File::create(log_path()).unwrap_or_else(|e| {
        eprintln!("{}: {}: {}", PROG, log_path().display(), e);
        std::process::exit(2)
    });
    let logger = match config.as_str() {
        "sync_file" => {
            let decorator = slog_term::PlainSyncDecorator::new(file);
            let drain = slog_term::FullFormat::new(decorator).build().fuse();
            slog::Logger::root(drain, o!())
        }
        "async_file" => {
            let decorator = slog_term::PlainDecorator::new(file);
            let drain = slog_term::FullFormat::new(decorator).build().fuse();
            let drain = slog_async::Async::new(drain).build().fuse();
            slog::Logger::root(drain, o!())
        }
        _ => unknown(PROG, &config, "sync_file, async_file"),
    };
    let driver = Slog(logger);
    let status = flushcheck_workload::run(PROG, ops(), &driver);
    drop(driver);
    ExitCode::from(status as u8)
}
