"""The marker protocol, child side, in Python (docs/markers.md): what
marker.h is to C. Shared by script.py and flushcheck_workload.py. Without
the harness's variables, marker() does nothing."""
import os


def env_fd(*names):
    """The fd in the first of NAMES that holds one, or -1: marker.h's rule
    (ASCII digits only, nothing else; an empty value is not a number)."""
    for name in names:
        value = os.environ.get(name, "")
        if value.isascii() and value.isdigit() and int(value) <= 1000009:  # marker.h's limit
            return int(value)
    return -1


def marker(text):
    """The label on the marker fd, then one byte back. A failure is ignored,
    as marker.h's: the harness is gone, the program goes on (PEP 475:
    os.write and os.read retry EINTR themselves)."""
    fd = env_fd("FLUSHCHECK_MARKER_FD")
    if fd < 0:
        return
    line = os.fsencode(text) + b"\n"
    try:
        while line:
            n = os.write(fd, line)
            if n <= 0:
                return
            line = line[n:]
        release = env_fd("FLUSHCHECK_RELEASE_FD", "FLUSHCHECK_GATE_FD")
        if release >= 0:
            os.read(release, 1)
    except OSError:
        pass
