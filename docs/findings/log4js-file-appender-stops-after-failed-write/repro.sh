#!/bin/sh
# finding: after one failed write the log4js file appender drops every later record
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
# One libuv pool thread does the writes, so strace's per-thread count is the
# count of writes to app.log: the 3rd (record 2) fails.
UV_THREADPOOL_SIZE=1 strace -f -o /dev/null -P "$(pwd -P)/app.log" -e trace=write,writev,pwrite64 \
  -e inject=write,writev,pwrite64:error=ENOSPC:when=3 node repro.js >out 2>err
kept=$(wc -l <app.log)
echo "app.log: $(tr '\n' '|' <app.log) ($kept of 10; the write of record 2 failed with ENOSPC)"
echo "stdout: $(cat out)"
echo "stderr: $(grep -c 'error happened' err) line(s) \"$(grep -m1 'error happened' err | cut -c1-60)...\""
echo "expected: records 0, 1 and 3..9 (9 of 10): one failed write loses the record it carried."
echo "  lib/appenders/file.js returns at \`if (!writer.writable)\` for every later record: the"
echo "  stream was destroyed by its error, and nothing reopens it (only SIGHUP or configure())"
if [ "$kept" -le 2 ] && ! grep -q "record 9" app.log; then echo "result: shows"; else echo "result: gone"; fi
echo "version: log4js $version"
cd "$here"
