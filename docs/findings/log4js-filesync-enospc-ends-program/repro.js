// 10 records to a log4js fileSync appender; strace makes the 3rd write(2) to
// app.log fail with ENOSPC. Does the program reach its last line?
const log4js = require('log4js');

log4js.configure({
  appenders: {
    file: { type: 'fileSync', filename: 'app.log', layout: { type: 'messagePassThrough' } },
  },
  categories: { default: { appenders: ['file'], level: 'info' } },
});
const log = log4js.getLogger();
for (let i = 0; i < 10; ++i) log.info(`record ${i}`);
console.log('all 10 records logged, the program goes on');
