#!/bin/sh
# finding: one ENOSPC on log4js's fileSync appender throws out of logger.info() and ends the program
# library: log4js
#
# Needs node, the log4js package (NODE_PATH, else targets/loggers/node/node_modules,
# where the project's npm ci puts it) and strace.
set -eu
cd "$(dirname "$0")"
here=$PWD
NODE_PATH=${NODE_PATH:-$(cd ../../.. && pwd)/targets/loggers/node/node_modules}
export NODE_PATH
version=$(node -p "require('log4js/package.json').version")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp repro.js "$work/"
cd "$work"
touch app.log
set +e
strace -f -o /dev/null -P "$(pwd -P)/app.log" -e trace=write,pwrite64 \
  -e inject=write,pwrite64:error=ENOSPC:when=3 node repro.js >out 2>err
status=$?
set -e
kept=$(wc -l <app.log)
echo "app.log: $(tr '\n' '|' <app.log) ($kept of 10; the write of record 2 failed with ENOSPC)"
echo "stdout: $(cat out)"
echo "stderr: $(grep -m1 '^Error' err || true) (at $(grep -m1 -o 'fileSync.js:[0-9]*' err || true)); exit status $status"
echo "expected: the program goes on, as with the \"file\" appender (one error message, issue #929"
echo "  closed as fixed in 6.4.0 for the asynchronous appenders); docs/fileSync.md: \"the only"
echo "  difference to the normal file appender is that all the writes are synchronous\""
if [ "$status" -ne 0 ] && ! grep -q "all 10 records logged" out; then echo "result: shows"; else echo "result: gone"; fi
echo "version: log4js $version"
cd "$here"
