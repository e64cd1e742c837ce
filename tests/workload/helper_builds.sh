#!/bin/sh
# The Go and Rust workload helpers build offline the way a user's driver
# builds them (docs/workload.md), beyond the build's own GOPATH and rustc:
#   helper_builds.sh go-module SRC OUT   a Go module that requires flushcheck,
#                                        replaced by the helper's directory
#   helper_builds.sh cargo SRC OUT       a cargo crate with a path dependency,
#                                        --offline, crates.io replaced by
#                                        Debian's /usr/share/cargo/registry
# Each builds targets/workload's stdio driver of that language, runs it on a
# workload and checks its records and status. Exit 77 (a skip, its reason
# printed) when the toolchain is not installed.
set -eu
what=$1 src=$2 out=$3
rm -rf "$out" && mkdir -p "$out/driver"

check() {  # the driver's output on `log info 3; log warn 12; return 7`
  set +e
  "$@" 'log info 3' 'log warn 12' 'return 7' > "$out/stdout"
  status=$?
  set -e
  printf 'INFO rec 0\nWARN rec 1 xxxxxx\n' | cmp - "$out/stdout"
  [ "$status" -eq 7 ] || { echo "exit status $status, not 7" >&2; exit 1; }
  echo "helper_builds: $what: built offline, records and status as the workload says"
}

case $what in
  go-module)
    command -v go >/dev/null || { echo "skipped: no go (Debian package golang-go)"; exit 77; }
    cp "$src/targets/workload/stdio_driver.go" "$out/driver/main.go"
    cat > "$out/driver/go.mod" <<EOF
module driver

go 1.19

require flushcheck v0.0.0

replace flushcheck => $src/targets/runtimes/go/src/flushcheck
EOF
    (cd "$out/driver" && env GOCACHE="$out/gocache" GOPATH="$out/gopath" GO111MODULE=on \
      GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local go build -o "$out/stdio_driver_go" .)
    check "$out/stdio_driver_go"
    ;;
  cargo)
    [ -x /usr/bin/cargo ] || { echo "skipped: no /usr/bin/cargo (Debian package cargo)"; exit 77; }
    mkdir -p "$out/driver/src" "$out/cargo"
    cp "$src/targets/workload/stdio_driver.rs" "$out/driver/src/main.rs"
    cat > "$out/driver/Cargo.toml" <<EOF
[package]
name = "stdio_driver"
version = "0.1.0"
edition = "2021"

[dependencies]
flushcheck_workload = { path = "$src/targets/runtimes/rust/flushcheck_workload" }
EOF
    cat > "$out/cargo/config.toml" <<EOF
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"
EOF
    # Debian's rustc and cargo, never another on PATH (a rustup toolchain).
    (cd "$out/driver" && env PATH=/usr/bin:/bin CARGO_HOME="$out/cargo" \
      CARGO_TARGET_DIR="$out/target" RUSTC=/usr/bin/rustc /usr/bin/cargo build --offline -q)
    check "$out/target/debug/stdio_driver"
    ;;
  *) echo "helper_builds.sh: $what: expected go-module or cargo" >&2; exit 2 ;;
esac
