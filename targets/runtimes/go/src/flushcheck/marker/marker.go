// Package marker is the marker protocol, child side, in Go (docs/markers.md):
// what flushcheck/marker.h is to C. Without the harness's variables, Marker
// does nothing:
//
//	marker.Marker("after-header") // a no-op alone; under flushcheck it waits there
//
// Standard library only (Go 1.19); raw write(2) and read(2) on the inherited
// fds, nothing flushed.
package marker

import (
	"os"
	"syscall"
)

// The fds, read from the environment once, when the package is initialised
// (marker.h reads it at flushcheck_marker_init). The release fd is
// FLUSHCHECK_RELEASE_FD, or its old name FLUSHCHECK_GATE_FD; with neither, a
// marker does not wait.
var (
	markerFD  = envFD("FLUSHCHECK_MARKER_FD")
	releaseFD = envFD("FLUSHCHECK_RELEASE_FD", "FLUSHCHECK_GATE_FD")
)

// Enabled says whether a harness listens (FLUSHCHECK_MARKER_FD holds an fd).
func Enabled() bool { return markerFD >= 0 }

// Marker writes LABEL and '\n' to the marker fd, then waits for the release
// byte. A failure is ignored, as marker.h's: the harness is gone, the
// program goes on. syscall.Write and syscall.Read are the raw calls: EINTR
// is retried here, a partial write goes on.
func Marker(label string) {
	if markerFD < 0 {
		return
	}
	line := []byte(label + "\n")
	for len(line) > 0 {
		n, err := syscall.Write(markerFD, line)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		line = line[n:]
	}
	if releaseFD < 0 {
		return
	}
	released := make([]byte, 1)
	for {
		if _, err := syscall.Read(releaseFD, released); err != syscall.EINTR {
			return
		}
	}
}

// envFD is the fd in the first of NAMES that holds one, or -1: marker.h's
// rule (ASCII digits only, nothing else; an empty value is not a number).
func envFD(names ...string) int {
	for _, name := range names {
		if fd := parseFD(os.Getenv(name)); fd >= 0 {
			return fd
		}
	}
	return -1
}

// parseFD is marker.h's flushcheck_parse_fd_: a decimal fd, or -1.
func parseFD(s string) int {
	if s == "" {
		return -1
	}
	v := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || v > 100000 {
			return -1
		}
		v = v*10 + int(s[i]-'0')
	}
	return v
}
