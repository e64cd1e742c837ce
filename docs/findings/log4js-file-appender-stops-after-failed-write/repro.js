// 10 records to a log4js file appender, 20 ms apart (one write(2) each);
// strace makes the 3rd write to app.log fail with ENOSPC. Which of the other
// 9 reach the file?
const log4js = require('log4js');

log4js.configure({
  appenders: {
    file: { type: 'file', filename: 'app.log', layout: { type: 'messagePassThrough' } },
  },
  categories: { default: { appenders: ['file'], level: 'info' } },
});
const log = log4js.getLogger();
let i = 0;
const timer = setInterval(() => {
  log.info(`record ${i}`);
  if (++i === 10) {
    clearInterval(timer);
    log4js.shutdown(() => console.log('all 10 records logged, shutdown called back'));
  }
}, 20);
