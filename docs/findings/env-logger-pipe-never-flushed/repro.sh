#!/bin/sh
# finding: env_logger's Target::Pipe never flushes its writer: a buffered pipe loses every record
# library: env_logger
# fixed in: 0.10.2
#
# Needs Debian's Rust toolchain (/usr/bin/cargo, rustc) and its env_logger crate
# (librust-env-logger-dev, in /usr/share/cargo/registry); builds offline.
set -eu
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp Cargo.toml repro.rs "$work/"
mkdir "$work/cargo"
cat >"$work/cargo/config.toml" <<EOT
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "/usr/share/cargo/registry"
EOT
cd "$work"
export CARGO_HOME="$work/cargo" CARGO_TARGET_DIR="$work/target" RUSTC=/usr/bin/rustc
/usr/bin/cargo build --offline --quiet --release 2>build.err || { cat build.err; exit 1; }
version=$(sed -n '/^name = "env_logger"/{n;s/^version = "\(.*\)"/\1/p}' Cargo.lock)
"$CARGO_TARGET_DIR/release/repro" >out
kept=$(grep -c 'record' app.log || true)
echo "app.log: $(wc -c <app.log) bytes, $kept of 10 records"
echo "stdout: $(cat out)"
echo "expected: 10 of 10. log's Log::flush: \"Flushes any buffered records\"; env_logger 0.9's"
echo "  Logger::flush is empty and Target::Pipe writes with write_all and never flushes; the"
echo "  logger is a static, never dropped, so the BufWriter never flushes either"
echo "  (rust-cli/env_logger#278, fixed by c088820 in 0.10.2: the pipe is flushed after each record)"
if [ "$kept" -eq 0 ]; then echo "result: shows"; else echo "result: gone"; fi
echo "version: env_logger $version"
cd "$here"
