#!/bin/sh
# finding: Easylogging++'s README says ImmediateFlush is "Disabled by default", yet its default configuration flushes every record
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
set +e
strace -f -o trace -e trace=write ./repro
set -e
kept=$(wc -l <app.log)
writes=$(grep -c '^[0-9]* *write(' trace || true)
echo "app.log holds $kept of 50 records at SIGKILL, written in $writes write(2) calls"
echo "expected from README.md (the ImmediateFlush row of the logging flags): \"Disabled by default\":"
echo "  records held in a buffer, some lost at SIGKILL. In the code, setToDefault() sets"
echo "  LogFlushThreshold to 0 (easylogging++.cc) and isFlushNeeded (++count >= threshold) holds"
echo "  at every record"
if [ "$kept" -eq 50 ] && [ "$writes" -ge 50 ]; then echo "result: shows"; else echo "result: gone"; fi
echo "version: easyloggingpp $(pkg-config --modversion easyloggingpp 2>/dev/null || echo unknown)"
cd "$here"
