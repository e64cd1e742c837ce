#!/bin/sh
# finding: Easylogging++ counts its flush threshold per level, not over all records as its README reads
# library: easyloggingpp
#
# Needs a C++ compiler and libeasyloggingpp-dev (its source, /usr/include/easylogging++.cc).
set -eu
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
c++ -std=c++17 -O2 -DELPP_NO_DEFAULT_LOG_FILE -o "$work/repro" repro.cpp /usr/include/easylogging++.cc -pthread
cd "$work"
set +e
./repro
set -e
kept=$(cat app.log 2>/dev/null | wc -l)
echo "app.log holds $kept of 50 records at SIGKILL (40 INFO, 10 WARNING, threshold 16)"
echo "expected from README.md (\"LOG_FLUSH_THRESHOLD = 100 ## Flush after every 100 logs\"):"
echo "  a flush at the 16th, 32nd and 48th record, so 48 kept. Logger::isFlushNeeded"
echo "  (easylogging++.h) counts per level: INFO flushes at its 16th and 32nd, WARNING never"
if [ "$kept" -ne 48 ]; then echo "result: shows"; else echo "result: gone"; fi
echo "version: easyloggingpp $(pkg-config --modversion easyloggingpp 2>/dev/null || echo unknown)"
cd "$here"
