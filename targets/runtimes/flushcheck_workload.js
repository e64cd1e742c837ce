// flushcheck workloads, driver side, in Node.js (docs/workload.md): what
// flushcheck/workload.h is to C. A driver gives run() how its library logs a
// record and flushes (a flush may return a promise: it is awaited); the rest
// is done here:
//
//   const pino = require('pino');
//   const dest = pino.destination(process.env.FLUSHCHECK_LOG_DIR + '/app.log');
//   const log = pino({ level: 'debug' }, dest);
//   require('./flushcheck_workload').run(process.argv.slice(2), {
//     log: (level, n, message) => log[level](message),
//     flush: () => new Promise((done) => log.flush(done)),
//   });
//
// A malformed workload is one line on stderr and exit 64, before anything
// runs. JavaScript runs on one thread: `threads` is refused.
//
// run() does the ops synchronously until one must wait (a `sleep`, or a
// `flush` whose function returns a promise), and the rest from that op's
// callback (a timer's, or setImmediate's once the promise settled). So
// `throw` is an uncaught exception where it is reached, never a promise
// rejection: `log info 0; throw` throws out of run() to the driver's top
// level, `log info 0; sleep 0; throw` from a callback. Node prints it and
// exits 1 (doc/api/process.md, "Exit codes"). `return N` and `exit N` set
// process.exitCode and let the event loop drain; `_exit N` is what Node
// users call exit: process.exit(N).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { marker } = require('./flushcheck_marker');

const LEVELS = ['debug', 'info', 'warn', 'error'];
const ENDS = ['return', 'exit', '_exit', 'abort', 'raise', 'throw'];
const SHAPES = { log: 2, flush: 0, sleep: 1, marker: 1, threads: 1, return: 1, exit: 1,
  _exit: 1, abort: 0, raise: 1, throw: 0 };
const MAX_OPS = 100000;
const SIGNALS = ['HUP', 'INT', 'QUIT', 'ILL', 'TRAP', 'ABRT', 'BUS', 'FPE', 'KILL', 'USR1',
  'SEGV', 'USR2', 'PIPE', 'ALRM', 'TERM', 'CHLD', 'CONT', 'STOP', 'TSTP', 'TTIN', 'TTOU', 'XCPU',
  'XFSZ', 'SYS'];
// Signals whose default action stops the program: a driver stopped for good.
const STOPS = ['SIGSTOP', 'SIGTSTP', 'SIGTTIN', 'SIGTTOU'].map((s) => os.constants.signals[s]);

class BadWorkload extends Error {}

function count(token, most) {
  if (!/^[0-9]+$/.test(token) || Number(token) > most) {
    throw new BadWorkload('expects a number in range');
  }
  return Number(token);
}

// A signal's number for process.kill, from a name with or without SIG or a number 1-64.
function signal(token) {
  const name = token.startsWith('SIG') ? token.slice(3) : token;
  let sig;
  if (SIGNALS.includes(name)) sig = os.constants.signals['SIG' + name];
  else if (/^[0-9]{1,3}$/.test(name) && Number(name) >= 1 && Number(name) <= 64) sig = Number(name);
  else throw new BadWorkload('expects a signal name or number');
  if (STOPS.includes(sig)) {
    throw new BadWorkload('expects a signal that ends or is ignored, not one that stops the '
      + 'program (STOP, TSTP, TTIN, TTOU)');
  }
  return sig;
}

// One op's tokens: { name, arg } as workload.h takes them.
function parseOp(tokens) {
  const [name, ...args] = tokens;
  if (!Object.prototype.hasOwnProperty.call(SHAPES, name)) {
    throw new BadWorkload('unknown operation');
  }
  if (args.length !== SHAPES[name]) {
    throw new BadWorkload(SHAPES[name] === 0 ? 'takes no argument'
      : name === 'log' ? 'expects a level (debug, info, warn, error) and a size in bytes'
        : 'expects one argument');
  }
  if (name === 'log') {
    if (!LEVELS.includes(args[0])) {
      throw new BadWorkload('expects a level: debug, info, warn or error');
    }
    if (!/^[0-9]+$/.test(args[1]) || Number(args[1]) > 1 << 20) {
      throw new BadWorkload('expects a size in bytes, at most 1048576');
    }
    return { name, arg: [args[0], Number(args[1])] };
  }
  if (name === 'marker') {
    if (Buffer.byteLength(args[0]) >= 64) throw new BadWorkload('expects a label under 64 bytes');
    return { name, arg: args[0] };
  }
  if (name === 'raise') return { name, arg: signal(args[0]) };
  if (name === 'threads') throw new BadWorkload('JavaScript runs on one thread: no threads');
  const most = name === 'sleep' ? 600000 : 255;
  return { name, arg: args.length ? count(args[0], most) : null };
}

function parse(text) {
  const ops = [];
  for (const piece of text.split(/[;\n]/)) {
    const tokens = piece.split(/[ \t\r]+/).filter((t) => t);
    if (tokens.length === 0) continue;
    try {
      if (ops.length === MAX_OPS) throw new BadWorkload('more than 100000 ops');
      if (tokens.length > 4) throw new BadWorkload('too many arguments');
      const op = parseOp(tokens);
      if (ops.length && ENDS.includes(ops[ops.length - 1].name)) {
        throw new BadWorkload("comes after the workload's end");
      }
      ops.push(op);
    } catch (e) {
      if (!(e instanceof BadWorkload)) throw e;
      const shown = piece.replace(/^[ \t\r]+/, '').slice(0, 79);
      return { error: `op ${ops.length} '${shown}': ${e.message}` };
    }
  }
  return { ops };
}

// Record N's message: "rec N", padded with " xxx..." to SIZE bytes.
function message(n, size) {
  const text = `rec ${n}`;
  return text.length >= size ? text : text + ' ' + 'x'.repeat(size - text.length - 1);
}

// Ends the program as OP says. As script.js: return and exit set
// process.exitCode and let the event loop drain; _exit is process.exit;
// throw throws, from where the workload is (not an async function: a throw
// there would be a promise rejection).
function end(op) {
  if (op.name === 'throw') throw new Error('flushcheck workload: throw');
  if (op.name === '_exit') process.exit(op.arg);
  if (op.name === 'abort') process.abort();
  if (op.name === 'raise') {
    process.kill(process.pid, op.arg);
    setTimeout(() => {}, 1000); // the loop lives on while the signal arrives
    return;
  }
  process.exitCode = op.arg;
}

// Calls NEXT from setImmediate's callback once PROMISE settles, and throws
// its rejection there: what goes wrong after it is an uncaught exception,
// as in a callback, not an unhandled rejection.
function after(promise, next) {
  promise.then(() => setImmediate(next), (e) => setImmediate(() => { throw e; }));
}

// W's ops from the FROM-th on, synchronously until one must wait; the rest
// from that op's callback. W: { ops, log, flush, n }, n the next record's number.
function steps(w, from) {
  const { ops, log, flush } = w;
  for (let i = from; i < ops.length; ++i) {
    const op = ops[i];
    if (op.name === 'log') {
      log(op.arg[0], w.n, message(w.n, op.arg[1]));
      w.n += 1;
    } else if (op.name === 'flush' && flush) {
      const done = flush();
      if (done && typeof done.then === 'function') {
        after(done, () => steps(w, i + 1));
        return;
      }
    } else if (op.name === 'sleep') {
      setTimeout(() => steps(w, i + 1), op.arg);
      return;
    } else if (op.name === 'marker') {
      marker(op.arg);
    } else if (ENDS.includes(op.name)) {
      end(op);
    }
  }
}

// Runs the workload PARTS spell (joined with ';'): LOG(level, n, message)
// for each record, FLUSH() for each flush (a promise it returns is awaited);
// then ends as it says. Returns when the workload is done or waits: what
// follows a wait runs from callbacks.
function run(parts, { log, flush }, prog = path.basename(process.argv[1] || 'node')) {
  const { ops, error } = parse(parts.join(';'));
  if (error) {
    fs.writeSync(2, `${prog}: bad workload: ${error}\n`);
    process.exitCode = 64;
    return;
  }
  steps({ ops, log, flush, n: 0 }, 0);
}

module.exports = { run };
