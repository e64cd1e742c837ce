#!/bin/sh
# finding: after one failed write winston's File transport drops every later record, without an 'error' event
# library: winston
#
# Needs node, the winston package (NODE_PATH, else targets/loggers/node/node_modules,
# where the project's npm ci puts it) and strace.
set -eu
cd "$(dirname "$0")"
here=$PWD
NODE_PATH=${NODE_PATH:-$(cd ../../.. && pwd)/targets/loggers/node/node_modules}
export NODE_PATH
version=$(node -p "require('winston/package.json').version")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp repro.js "$work/"
cd "$work"
touch app.log
# One libuv pool thread does the writes, so strace's per-thread count is the
# count of writes to app.log: the 3rd (record 2) fails.
set +e
UV_THREADPOOL_SIZE=1 strace -f -o /dev/null -P "$(pwd -P)/app.log" -e trace=write,writev,pwrite64 \
  -e inject=write,writev,pwrite64:error=ENOSPC:when=3 node repro.js >out 2>err
status=$?
set -e
kept=$(wc -l <app.log)
echo "app.log: $(tr '\n' '|' <app.log) ($kept of 10; the write of record 2 failed with ENOSPC)"
echo "stdout: $(cat out)"
echo "stderr: $(wc -c <err) bytes; exit status $status"
echo "expected: records 3..9 written (a failed write loses the record it carried), or the failure"
echo "  reported: README.md, \"the logger also emits an 'error' event if an error occurs within the"
echo "  logger itself\". lib/winston/transports/file.js _createStream: the file stream's 'error' goes"
echo "  to debug() only (\"TODO: What should we do with errors here?\"); the pipe into it is broken,"
echo "  and every later record stays in the transport's PassThrough"
if [ "$kept" -le 2 ] && ! grep -q "record 9" app.log && grep -q "'error' events: 0" out; then
  echo "result: shows"
else
  echo "result: gone"
fi
echo "version: winston $version"
cd "$here"
