#!/bin/sh
# finding: log4cxx warns that ImmediateFlush off loses the last events; without BufferedIO nothing is deferred
# library: log4cxx
#
# Needs a C++ compiler and liblog4cxx-dev (pkg-config liblog4cxx).
set -eu
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
c++ -std=c++17 -O2 -o "$work/repro" repro.cpp $(pkg-config --cflags --libs liblog4cxx)
cd "$work"
set +e
./repro
status=$?
set -e
kept=$(wc -l <app.log)
echo "exit status: $status (137: SIGKILL); app.log holds $kept of 50 records"
echo "expected (writerappender.h, setImmediateFlush): with ImmediateFlush off \"it is likely that"
echo "  the last few log events will not be recorded on disk when the application exits\""
if [ "$kept" -eq 50 ]; then echo "result: shows"; else echo "result: gone"; fi
echo "version: log4cxx $(pkg-config --modversion liblog4cxx)"
cd "$here"
