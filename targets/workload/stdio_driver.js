// stdio_driver.c's twin in Node.js: LEVEL MESSAGE lines by
// process.stdout.write, `flush` by waiting for the write callback of ''
// (docs/workload.md; script.md's flush).
'use strict';
const { run } = require('flushcheck_workload');

run(process.argv.slice(2), {
  log: (level, n, message) => process.stdout.write(`${level.toUpperCase()} ${message}\n`),
  flush: () => new Promise((done) => process.stdout.write('', done)),
}, 'stdio_driver.js');
