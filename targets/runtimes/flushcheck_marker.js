// The marker protocol, child side, in Node.js (docs/markers.md): what
// marker.h is to C. Shared by script.js and flushcheck_workload.js. Without
// the harness's variables, marker() does nothing.
'use strict';
const fs = require('fs');

// The fd in the first of NAMES that holds one, or -1: marker.h's rule (ASCII
// digits only, nothing else; an empty value is not a number).
function envFd(...names) {
  for (const name of names) {
    const v = process.env[name] || '';
    if (/^[0-9]+$/.test(v) && Number(v) <= 1000009) return Number(v); // marker.h's limit
  }
  return -1;
}

// CALL's result, again while it fails with EAGAIN or EINTR; null if it fails
// otherwise (the harness is gone: the program goes on, as marker.h's
// flushcheck_marker does).
function retry(call) {
  for (;;) {
    try {
      return call();
    } catch (e) {
      if (e.code !== 'EAGAIN' && e.code !== 'EINTR') return null;
    }
  }
}

// The label on the marker fd, then one byte back. Synchronous calls: the
// event loop waits here, as it does in any busy Node program.
function marker(label) {
  const fd = envFd('FLUSHCHECK_MARKER_FD');
  if (fd < 0) return;
  for (let line = Buffer.from(label + '\n'); line.length > 0;) {
    const n = retry(() => fs.writeSync(fd, line));
    if (!n) return; // failed, or wrote nothing: as marker.h, give up
    line = line.subarray(n);
  }
  const release = envFd('FLUSHCHECK_RELEASE_FD', 'FLUSHCHECK_GATE_FD');
  if (release >= 0) retry(() => fs.readSync(release, Buffer.alloc(1), 0, 1, null));
}

module.exports = { marker };
