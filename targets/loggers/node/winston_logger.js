#!/usr/bin/env node
// A property gate's driver for winston (3.19.0, from the npm registry: ci/setup
// runs `npm ci` here): tests/loggers/winston.property.toml.
//
//   node winston_logger.js CONFIG workload OP...   (docs/workload.md,
//   flushcheck_workload on NODE_PATH)
//
// CONFIG: file (winston.transports.File on $FLUSHCHECK_LOG_DIR/app.log) |
// console (winston.transports.Console: process.stdout). One line a record,
// "LEVEL MESSAGE" (format.printf), the logger at debug. winston has no flush:
// its README's way to wait for the records is logger.end() and the 'finish'
// event ("Awaiting logs to be written in winston"), after which the logger
// takes no more; so `flush` does nothing here.
'use strict';
const path = require('path');
const winston = require('winston');
const { run } = require('flushcheck_workload');

function transport(config, file) {
  switch (config) {
    case 'file': return new winston.transports.File({ filename: file });
    case 'console': return new winston.transports.Console();
    default: throw new Error('winston_logger.js: unknown CONFIG ' + config);
  }
}

function main() {
  const [config, mode] = process.argv.slice(2);
  if (mode !== 'workload') throw new Error('usage: winston_logger.js CONFIG workload OP...');
  const file = path.join(process.env.FLUSHCHECK_LOG_DIR || '.', 'app.log');
  const logger = winston.createLogger({
    level: 'debug',
    format: winston.format.printf((info) => `${info.level} ${info.message}`),
    transports: [transport(config, file)],
  });
  run(process.argv.slice(4), { log: (level, n, message) => logger[level](message) },
    'winston_logger.js');
}

main();
