// 10 records to a winston File transport, 20 ms apart (one write(2) each);
// strace makes the 3rd write to app.log fail with ENOSPC. The program listens
// for 'error' on the logger and on the transport, as winston's README says to.
const winston = require('winston');

const file = new winston.transports.File({
  filename: 'app.log',
  format: winston.format.printf((info) => info.message),
});
const logger = winston.createLogger({ transports: [file] });
let errors = 0;
logger.on('error', (err) => { errors += 1; console.log(`logger 'error' event: ${err.code}`); });
file.on('error', (err) => { errors += 1; console.log(`transport 'error' event: ${err.code}`); });

let i = 0;
const timer = setInterval(() => {
  logger.info(`record ${i}`);
  if (++i === 10) {
    clearInterval(timer);
    setTimeout(() => {
      console.log(`all 10 records logged; 'error' events: ${errors}; ` +
                  `bytes held by the transport, not written: ${file._stream.readableLength}`);
    }, 200);
  }
}, 20);
