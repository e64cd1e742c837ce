#!/usr/bin/env node
// A property gate's driver for log4js (6.9.1, from the npm registry: ci/setup
// runs `npm ci` here): tests/loggers/log4js.property.toml.
//
//   node log4js_logger.js CONFIG workload OP...   (docs/workload.md,
//   flushcheck_workload on NODE_PATH)
//
// CONFIG: file (a "file" appender on $FLUSHCHECK_LOG_DIR/app.log, opened
// with flags 'a', the default: docs/file.md) | file_sync (a "fileSync"
// appender there: docs/fileSync.md, "the only difference to the normal file
// appender is that all the writes are synchronous"), category default at
// debug, one line a record, "LEVEL MESSAGE" (pattern layout "%p %m"). log4js has no
// flush; its docs/api.md says to call log4js.shutdown(cb) at the end, whose
// callback runs "when log4js has closed all appenders and finished writing
// log events". So `flush` is shutdown(cb), awaited, then configure() again
// (shutdown disables writing until the next configure): the file appender
// reopens app.log for appending, and the workload goes on.
'use strict';
const path = require('path');
const log4js = require('log4js');
const { run } = require('flushcheck_workload');

const TYPES = { file: 'file', file_sync: 'fileSync' };

function configure(config, file) {
  if (!Object.prototype.hasOwnProperty.call(TYPES, config)) {
    throw new Error('log4js_logger.js: unknown CONFIG ' + config);
  }
  log4js.configure({
    appenders: {
      app: { type: TYPES[config], filename: file, layout: { type: 'pattern', pattern: '%p %m' } },
    },
    categories: { default: { appenders: ['app'], level: 'debug' } },
  });
  return log4js.getLogger();
}

function main() {
  const [config, mode] = process.argv.slice(2);
  if (mode !== 'workload') throw new Error('usage: log4js_logger.js CONFIG workload OP...');
  const file = path.join(process.env.FLUSHCHECK_LOG_DIR || '.', 'app.log');
  let logger = configure(config, file);
  run(process.argv.slice(4), {
    log: (level, n, message) => logger[level](message),
    flush: () => new Promise((done) => log4js.shutdown(() => {
      logger = configure(config, file);
      done();
    })),
  }, 'log4js_logger.js');
}

main();
