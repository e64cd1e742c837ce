#!/bin/sh
# finding: glibc's fwrite returns the full count for a line whose line flush failed; the line is lost
# library: glibc
# fixed in: 2.42
#
# Needs a C compiler and strace (its -e inject makes write #2 fail with ENOSPC).
# Prints what happened, then "result: shows" or "result: gone" and the version.
set -eu
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/repro" repro.c
strace -o /dev/null -e trace=write -e inject=write:error=ENOSPC:when=2 \
  "$work/repro" "$work/log" >"$work/out"
cat "$work/out"
echo "the file holds: $(tr '\n' '|' <"$work/log")"
echo "expected: less than 7 for line 2 (POSIX fwrite: \"the number of elements successfully"
echo "  written, which may be less than nitems if a write error is encountered\")"
if grep -q "line 2: fwrite returned 7 of 7" "$work/out"; then echo "result: shows"; else echo "result: gone"; fi
echo "version: $(getconf GNU_LIBC_VERSION)"
