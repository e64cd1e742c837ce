//! The marker protocol, child side, in Rust (docs/markers.md): what
//! flushcheck/marker.h is to C. Without the harness's variables, `marker`
//! does nothing:
//!
//! ```no_run
//! flushcheck_workload::marker::marker(b"after-header"); // a no-op alone
//! ```
//!
//! Raw write(2) and read(2) on the inherited fds (through a `File` that is
//! never closed), nothing flushed.

use std::fs::File;
use std::io::{Read, Write};
use std::mem::ManuallyDrop;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::io::FromRawFd;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Once;

static INIT: Once = Once::new();
static MARKER_FD: AtomicI32 = AtomicI32::new(-1);
static RELEASE_FD: AtomicI32 = AtomicI32::new(-1);

/// The fd in variable NAME by marker.h's rule (flushcheck_parse_fd_): ASCII
/// digits only, nothing else; an empty value is not a number. -1 otherwise.
fn env_fd(name: &str) -> i32 {
    let value = match std::env::var_os(name) {
        Some(v) if !v.is_empty() => v,
        _ => return -1,
    };
    let mut fd: i32 = 0;
    for &b in value.as_bytes() {
        if !b.is_ascii_digit() || fd > 100_000 {
            return -1;
        }
        fd = fd * 10 + i32::from(b - b'0');
    }
    fd
}

/// The marker fd and the release fd (FLUSHCHECK_RELEASE_FD, or its old name
/// FLUSHCHECK_GATE_FD), read from the environment once; -1 when unset (with
/// no release fd a marker does not wait).
fn fds() -> (i32, i32) {
    INIT.call_once(|| {
        MARKER_FD.store(env_fd("FLUSHCHECK_MARKER_FD"), Ordering::Relaxed);
        let release = match env_fd("FLUSHCHECK_RELEASE_FD") {
            -1 => env_fd("FLUSHCHECK_GATE_FD"),
            fd => fd,
        };
        RELEASE_FD.store(release, Ordering::Relaxed);
    });
    (
        MARKER_FD.load(Ordering::Relaxed),
        RELEASE_FD.load(Ordering::Relaxed),
    )
}

/// Reads the environment now: call it before anything changes it (`run` does).
pub fn init() {
    fds();
}

/// Whether a harness listens (FLUSHCHECK_MARKER_FD holds an fd).
pub fn enabled() -> bool {
    fds().0 >= 0
}

/// Writes LABEL and '\n' to the marker fd, then waits for the release byte.
/// A failure is ignored, as marker.h's: the harness is gone, the program goes
/// on. (write_all and read_exact retry EINTR; write_all goes on after a
/// partial write.)
pub fn marker(label: &[u8]) {
    let (fd, release) = fds();
    if fd < 0 {
        return;
    }
    let mut line = Vec::with_capacity(label.len() + 1);
    line.extend_from_slice(label);
    line.push(b'\n');
    // SAFETY: the harness's fds stay open for the program's life; ManuallyDrop
    // never closes them.
    let mut out = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
    if out.write_all(&line).is_err() || release < 0 {
        return;
    }
    let mut back = ManuallyDrop::new(unsafe { File::from_raw_fd(release) });
    let _ = back.read_exact(&mut [0u8; 1]);
}
