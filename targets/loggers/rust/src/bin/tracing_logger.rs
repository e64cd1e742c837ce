//! A property gate's driver for tracing (0.1.37) with tracing-subscriber's
//! fmt subscriber (0.3.16), Debian 12's librust-tracing-dev and
//! librust-tracing-subscriber-dev (features fmt, std), for
//! tests/loggers/tracing.property.toml:
//!
//!   tracing_logger CONFIG workload OP...   (docs/workload.md)
//!
//! CONFIG: stdout (tracing_subscriber::fmt(), whose writer is
//! std::io::stdout) | file (fmt().with_writer(Mutex<File>) on app.log). No
//! ANSI colours (the crate's "ansi" feature is off), the level DEBUG. A record is one event (debug!, info!,
//! warn!, error!); tracing has no flush: `flush` does nothing.
use std::fs::File;
use std::process::ExitCode;
use std::sync::Mutex;

use flushcheck_rust_loggers::{config, log_path, ops, unknown};
use flushcheck_workload::{Driver, Level};

const PROG: &str = "tracing_logger";

struct Tracing;

impl Driver for Tracing {
    fn log(&self, level: Level, _n: u64, message: &str) {
        match level {
            Level::Debug => tracing::debug!("{}", message),
            Level::Info => tracing::info!("{}", message),
            Level::Warn => tracing::warn!("{}", message),
            Level::Error => tracing::error!("{}", message),
        }
    }

    fn flush(&self) {}
}

fn main() -> ExitCode {
    let config = config(PROG);
    let builder = tracing_subscriber::fmt().with_max_level(tracing::Level::DEBUG);
    match config.as_str() {
        "stdout" => builder.init(),
        "file" => {
            let file = File::create(log_path()).unwrap_or_else(|e| {
                eprintln!("{}: {}: {}", PROG, log_path().display(), e);
                std::process::exit(2)
            });
            builder.with_writer(Mutex::new(file)).init()
        }
        _ => unknown(PROG, &config, "stdout, file"),
    }
    let status = flushcheck_workload::run(PROG, ops(), &Tracing);
    ExitCode::from(status as u8)
}
