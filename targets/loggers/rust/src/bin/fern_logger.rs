//! A property gate's driver for fern (0.6.1, Debian 12's librust-fern-dev),
//! for tests/loggers/fern.property.toml:
//!
//!   fern_logger CONFIG workload OP...   (docs/workload.md)
//!
//! CONFIG: stdout (Dispatch::chain(std::io::stdout())) | file
//! (Dispatch::chain(fern::log_file(app.log))). The format is "LEVEL
//! message", the level Debug. A record is log!; `flush` is
//! log::logger().flush().
use std::process::ExitCode;

use flushcheck_rust_loggers::{config, log_path, ops, unknown, LogFacade};

const PROG: &str = "fern_logger";

fn main() -> ExitCode {
    let config = config(PROG);
    let dispatch = fern::Dispatch::new()
        .format(|out, message, record| out.finish(format_args!("{} {}", record.level(), message)))
        .level(log::LevelFilter::Debug);
    let dispatch = match config.as_str() {
        "stdout" => dispatch.chain(std::io::stdout()),
        "file" => dispatch.chain(fern::log_file(log_path()).unwrap_or_else(|e| {
            eprintln!("{}: {}: {}", PROG, log_path().display(), e);
            std::process::exit(2)
        })),
        _ => unknown(PROG, &config, "stdout, file"),
    };
    if let Err(e) = dispatch.apply() {
        eprintln!("{}: {}", PROG, e);
        return ExitCode::from(2);
    }
    let status = flushcheck_workload::run(PROG, ops(), &LogFacade);
    ExitCode::from(status as u8)
}
