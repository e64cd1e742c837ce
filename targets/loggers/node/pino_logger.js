#!/usr/bin/env node
// A program that logs with pino (10.4.0, from the npm registry: ci/setup runs
// `npm ci` here) the way an application would, for the gate file
// tests/loggers/pino.gate.toml.
//
//   node pino_logger.js CONFIG RECORDS DEATH
//   node pino_logger.js CONFIG workload OP...   (a property gate's driver:
//   docs/workload.md, flushcheck_workload on NODE_PATH; `flush` is
//   logger.flush(cb), awaited)
//
// Logs RECORDS records "rec N" (every 5th with warn, the rest info; pino
// writes one JSON line each, the message in "msg"), then a marker "logged"
// (the gate may cut it there), then DEATH: return | process_exit
// (process.exit(0)) | throw (an uncaught exception) | flush_sync (the
// destination's flushSync() before the marker, then return; not with
// CONFIG default, whose destination pino keeps to itself).
// CONFIG: default (pino(): its destination is pino.destination(1), sync:
// false, "Asynchronous logging, the default", docs/api.md) | sync
// (pino.destination({dest: 1, sync: true})) | file_sync / file_async
// (pino.destination({dest: app.log, sync: true / false})) | buffered
// (pino.destination({dest: 1, minLength: 4096}): sonic-boom holds 4 KiB).
'use strict';
const fs = require('fs');
const path = require('path');
const pino = require('pino');

// The marker protocol (docs/markers.md): a line on fd 3, then wait for the
// harness's byte. readSync blocks the event loop, as a busy program would.
function marker(label) {
  const fd = process.env.FLUSHCHECK_MARKER_FD;
  if (fd === undefined) return;
  fs.writeSync(Number(fd), label + '\n');
  fs.readSync(Number(process.env.FLUSHCHECK_RELEASE_FD || fd), Buffer.alloc(1), 0, 1, null);
}

function destination(config, file) {
  switch (config) {
    case 'default': return undefined;
    case 'sync': return pino.destination({ dest: 1, sync: true });
    case 'file_sync': return pino.destination({ dest: file, sync: true });
    case 'file_async': return pino.destination({ dest: file, sync: false });
    case 'buffered': return pino.destination({ dest: 1, minLength: 4096 });
    default: throw new Error('pino_logger.js: unknown CONFIG ' + config);
  }
}

function die(death) {
  switch (death) {
    case 'return': case 'flush_sync': return;
    case 'process_exit': process.exit(0);
    case 'throw': throw new Error('an uncaught exception');
    default: throw new Error('pino_logger.js: unknown DEATH ' + death);
  }
}

function workload(config, parts, file) {
  const { run } = require('flushcheck_workload');
  const dest = destination(config, file);
  const logger = dest === undefined ? pino() : pino(dest);
  return run(parts, {
    log: (level, n, message) => logger[level](message),
    flush: () => new Promise((resolve) => logger.flush(() => resolve())),
  });
}

function main() {
  const [config, records, death] = process.argv.slice(2);
  if (records === 'workload') {
    workload(config, process.argv.slice(4), path.join(process.env.FLUSHCHECK_LOG_DIR || '.', 'app.log'));
    return;
  }
  if (death === undefined) throw new Error('usage: pino_logger.js CONFIG RECORDS DEATH');
  const file = path.join(process.env.FLUSHCHECK_LOG_DIR || '.', 'app.log');
  const dest = destination(config, file);
  const logger = dest === undefined ? pino() : pino(dest);
  for (let i = 0; i < Number(records); ++i) {
    if (i % 5 === 4) logger.warn('rec %d warn', i);
    else logger.info('rec %d info', i);
  }
  if (death === 'flush_sync') dest.flushSync();
  marker('logged');
  die(death);
}

main();
