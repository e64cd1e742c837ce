#!/bin/sh
# finding: Boost.Log's asynchronous_sink loses queued records at a normal end: its destructor calls stop(), not flush()
# library: boost-log
#
# Needs a C++ compiler, libboost-log-dev and strace: strace delays each
# write(2) by 100 ms so that records are still queued when main returns, on
# any machine (without it, how many are lost depends on the scheduler).
set -eu
cd "$(dirname "$0")"
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
c++ -std=c++17 -O2 -DBOOST_LOG_DYN_LINK -o "$work/repro" repro.cpp -lboost_log -lboost_thread -pthread
cd "$work"
strace -f -o /dev/null -e trace=write -e inject=write:delay_enter=100000 ./repro
kept=$(cat app.log 2>/dev/null | wc -l)
echo "app.log holds $kept of 50 records after main returned"
echo "expected: 50, or the docs to say otherwise; sinks/async_frontend.hpp: the destructor"
echo "  \"Implicitly stops the dedicated feeding thread\", and stop(): \"Returning from this"
echo "  method does not guarantee that there are no records left buffered\" (Boost.Log's own"
echo "  example calls flush() before exit: example/doc/sinks_async.cpp)"
if [ "$kept" -lt 50 ]; then echo "result: shows"; else echo "result: gone"; fi
echo "version: boost $(printf '#include <boost/version.hpp>\nBOOST_LIB_VERSION\n' | c++ -E -P - | tail -1 | tr -d '"' | tr _ .)"
cd "$here"
