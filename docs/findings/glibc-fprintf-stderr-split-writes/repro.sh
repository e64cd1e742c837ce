#!/bin/sh
# finding: since glibc 2.37 one fprintf to the unbuffered stderr is split into 128-byte write(2) calls
# library: glibc
# since: 2.37
#
# Needs a C compiler and strace. Several processes that log to one stderr pipe
# (a service under a supervisor, `make -j` jobs) relied on one fprintf being one
# write(2), so that records under PIPE_BUF never interleave (POSIX write():
# writes of at most PIPE_BUF bytes to a pipe are atomic). Split, they can.
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/repro" repro.c
strace -o "$work/trace" -e trace=write "$work/repro" 2>&1 | cat >/dev/null
sizes=$(sed -n 's/^write(2, .*) *= \([0-9]*\)$/\1/p' "$work/trace" | tr '\n' ' ')
calls=$(echo $sizes | wc -w)
echo "write calls for one 1,009-byte fprintf to stderr: $calls ($sizes)"
echo "before 2.37: 1 (the record in one write). From 2.37: printf's output to an unbuffered"
echo "  stream goes through a 128-byte stage (stdio-common/printf_buffer_to_file.c,"
echo "  PRINTF_BUFFER_SIZE_TO_FILE_STAGE in include/printf_buffer.h; commit e88b9f0e5c)"
if [ "$calls" -gt 1 ]; then echo "result: shows"; else echo "result: gone"; fi
echo "version: $(getconf GNU_LIBC_VERSION)"
