#!/bin/sh
# finding: after one failed write Easylogging++ drops every later record without a word
# library: easyloggingpp
#
# Needs a C++ compiler, libeasyloggingpp-dev (its source, /usr/include/easylogging++.cc) and strace.
set -eu
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
c++ -std=c++17 -O2 -DELPP_NO_DEFAULT_LOG_FILE -o "$work/repro" repro.cpp /usr/include/easylogging++.cc -pthread
cd "$work"
touch app.log
strace -f -o /dev/null -P "$(pwd -P)/app.log" -e trace=write -e inject=write:error=ENOSPC:when=3 ./repro 2>err
kept=$(wc -l <app.log)
echo "app.log: $(tr '\n' '|' <app.log) ($kept of 10; the write of record 2 failed with ENOSPC,"
echo "  and its bytes, still in the stream's buffer, came out at close); on stderr: $(wc -c <err) bytes"
echo "expected: records 3..9 written, or the failure reported. The stream keeps its error state"
echo "  (nothing clears it) and the error message is compiled out without ELPP_DEBUG_ERRORS"
echo "  (easylogging++.h); open upstream: easyloggingpp#262"
if ! grep -q "record 9" app.log && [ ! -s err ]; then echo "result: shows"; else echo "result: gone"; fi
echo "version: easyloggingpp $(pkg-config --modversion easyloggingpp 2>/dev/null || echo unknown)"
cd "$here"
