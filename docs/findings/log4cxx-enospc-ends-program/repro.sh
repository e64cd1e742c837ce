#!/bin/sh
# finding: one ENOSPC ends a program that logs with log4cxx, contradicting its OnlyOnceErrorHandler docs
# library: log4cxx
#
# Needs a C++ compiler, liblog4cxx-dev (pkg-config liblog4cxx) and strace.
set -eu
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
c++ -std=c++17 -O2 -o "$work/repro" repro.cpp $(pkg-config --cflags --libs liblog4cxx)
cd "$work"
set +e
touch app.log
strace -f -o /dev/null -P "$(pwd -P)/app.log" -e trace=write -e inject=write:error=ENOSPC:when=3 ./repro >out 2>err
status=$?
set -e
cat out err
echo "exit status: $status; app.log holds $(wc -l <app.log) of 10 records"
echo "expected (helpers/onlyonceerrorhandler.h): \"emitting a message for the first error in an"
echo "  appender and ignoring all following errors\": one message, the program goes on"
if [ "$status" -gt 128 ] && ! grep -q "all 10 records logged" out; then echo "result: shows"; else echo "result: gone"; fi
echo "version: log4cxx $(pkg-config --modversion liblog4cxx)"
cd "$here"
