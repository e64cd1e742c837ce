#!/bin/sh
# finding: since glibc 2.37 a large printf reaches the kernel a buffer at a time (behaviour change)
# library: glibc
# since: 2.37
#
# Needs a C compiler and strace. stdout is a pipe (4096-byte buffer); the write
# calls on fd 1 are listed with their sizes.
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/repro" repro.c
strace -o "$work/trace" -e trace=write "$work/repro" | cat >/dev/null
sizes=$(sed -n 's/^write(1, .*) *= \([0-9]*\)$/\1/p' "$work/trace" | tr '\n' ' ')
calls=$(echo $sizes | wc -w)
echo "write calls on the pipe: $calls ($sizes)"
echo "before 2.37: 2 (16384 3616): the whole blocks of the string in one write(2), the rest buffered"
echo "from 2.37 (stdio-common/printf_buffer_to_file.c, commit e88b9f0e5c): 5 (4096 4096 4096 4096 3616)"
if [ "$calls" -gt 2 ]; then echo "result: shows"; else echo "result: gone"; fi
echo "version: $(getconf GNU_LIBC_VERSION)"
