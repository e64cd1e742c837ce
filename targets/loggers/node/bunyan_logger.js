#!/usr/bin/env node
// A property gate's driver for bunyan (2.0.5, from the npm registry: ci/setup
// runs `npm ci` here): tests/loggers/bunyan.property.toml.
//
//   node bunyan_logger.js CONFIG workload OP...   (docs/workload.md,
//   flushcheck_workload on NODE_PATH)
//
// CONFIG: file (a "file" stream, {path: $FLUSHCHECK_LOG_DIR/app.log}: bunyan
// opens it with fs.createWriteStream, flags 'a') | stdout (a "stream" stream,
// process.stdout). One JSON line a record, the message in "msg", the stream
// at debug. bunyan has no flush (nor close: trentm/node-bunyan issue #37,
// "Ensuring writable stream is flushed on exception", is open), so `flush`
// does nothing here.
'use strict';
const path = require('path');
const bunyan = require('bunyan');
const { run } = require('flushcheck_workload');

function stream(config, file) {
  switch (config) {
    case 'file': return { path: file, level: 'debug' };
    case 'stdout': return { stream: process.stdout, level: 'debug' };
    default: throw new Error('bunyan_logger.js: unknown CONFIG ' + config);
  }
}

function main() {
  const [config, mode] = process.argv.slice(2);
  if (mode !== 'workload') throw new Error('usage: bunyan_logger.js CONFIG workload OP...');
  const file = path.join(process.env.FLUSHCHECK_LOG_DIR || '.', 'app.log');
  const log = bunyan.createLogger({ name: 'app', streams: [stream(config, file)] });
  run(process.argv.slice(4), { log: (level, n, message) => log[level](message) },
    'bunyan_logger.js');
}

main();
