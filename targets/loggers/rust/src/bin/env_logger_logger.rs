//! A property gate's driver for env_logger (0.9.3, Debian 12's
//! librust-env-logger-dev), for tests/loggers/env_logger.property.toml:
//!
//!   env_logger_logger CONFIG workload OP...   (docs/workload.md)
//!
//! CONFIG: stderr (Builder's default Target::Stderr) | stdout
//! (Target::Stdout) | pipe_file (Target::Pipe of app.log's File) |
//! pipe_bufwriter (Target::Pipe of a BufWriter on app.log: a writer that
//! needs flush). The level is Debug (Builder::filter_level), the format
//! env_logger's default. A record is log!; `flush` is log::logger().flush().
use std::fs::File;
use std::io::BufWriter;
use std::process::ExitCode;

use env_logger::{Builder, Target};
use flushcheck_rust_loggers::{config, log_path, ops, unknown, LogFacade};

const PROG: &str = "env_logger_logger";

fn main() -> ExitCode {
    let config = config(PROG);
    let target = match config.as_str() {
        "stderr" => Target::Stderr,
        "stdout" => Target::Stdout,
        "pipe_file" | "pipe_bufwriter" => {
            let file = File::create(log_path()).unwrap_or_else(|e| {
                eprintln!("{}: {}: {}", PROG, log_path().display(), e);
                std::process::exit(2)
            });
            if config == "pipe_file" {
                Target::Pipe(Box::new(file))
            } else {
                Target::Pipe(Box::new(BufWriter::new(file)))
            }
        }
        _ => unknown(PROG, &config, "stderr, stdout, pipe_file, pipe_bufwriter"),
    };
    Builder::new()
        .filter_level(log::LevelFilter::Debug)
        .target(target)
        .init();
    let status = flushcheck_workload::run(PROG, ops(), &LogFacade);
    ExitCode::from(status as u8)
}
