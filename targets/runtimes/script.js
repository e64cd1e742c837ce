#!/usr/bin/env node
// script.js: flushcheck's script language in Node.js (docs/script.md, "In other
// runtimes"). Writes go through process.stdout.write / process.stderr.write,
// as a Node program's do.
//
//   node script.js SCRIPT...      (several arguments are joined with ';')
//   node script.js --version      (prints "node v20.20.2")
//
// The whole script is parsed first; a bad one is one line on stderr and exit
// 64. A failed write or flush is one line on stderr (the first failure of each
// stream: Node destroys a stream that failed), the script goes on, and the
// exit status is 1 unless `exit` set it first.
'use strict';
const fs = require('fs');
const { marker } = require('./flushcheck_marker');

const PROG = 'script.js';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const MAX_COUNT = 1000000000;
const STOP = Symbol('stop'); // an op's result: run no more ops
const SIGNALS = ['TERM', 'INT', 'KILL', 'ABRT', 'HUP', 'USR1', 'USR2', 'PIPE'];

class BadScript extends Error {}

// Argument shapes: N count, n optional count, S optional out|err, F optional
// out|err|all, M buffer mode, L label, G signal. `refuse` gives the reason
// this runtime has no such op (checked before anything runs).
const OPS = {
  write: { args: 'NS', run: (op) => put(op, '') },
  line: { args: 'NS', run: (op) => put(op, '\n') },
  flush: { args: 'F', run: flush },
  marker: { args: 'L', run: (op) => marker(op.label) },
  sleep: { args: 'N', run: (op) => delay(op.n) },
  buffer: { args: 'Mn', run: bufferNone, refuse: refuseBuffer },
  exit: { args: 'n', run: exitOp },
  _exit: { args: 'n', run: (op) => process.exit(op.n) },
  abort: { args: '', run: () => process.abort() },
  throw: { args: '', run: throwOp },
  raise: { args: 'G', run: raise },
};

// ---- parsing ----------------------------------------------------------------

function parse(source) {
  const ops = [];
  for (const piece of source.split(/[;\n]/)) {
    const text = piece.replace(/^[ \t]+/, '').slice(0, 95);
    const tokens = piece.split(/[ \t\r]+/).filter((t) => t !== '');
    if (tokens.length === 0) continue; // an empty op: "a;;b" or a trailing ';'
    const op = { index: ops.length, text, name: tokens[0], n: 0, stream: 'out' };
    const def = Object.prototype.hasOwnProperty.call(OPS, op.name) ? OPS[op.name] : null;
    const why = def === null ? 'unknown operation' : parseArgs(def, tokens.slice(1), op);
    if (why) throw new BadScript(`op ${op.index + 1} '${text}': ${why}`);
    ops.push(op);
  }
  return ops;
}

// Fills OP from ARGS by DEF's shapes; the reason they are wrong, or null.
function parseArgs(def, args, op) {
  for (const shape of def.args) {
    const optional = 'nSF'.includes(shape);
    // An optional count is there when it looks like a number ("exit -1" is a bad count).
    if (optional && (args.length === 0 || (shape === 'n' && !/^[-+0-9]/.test(args[0])))) continue;
    const why = parseArg(shape, args.shift(), op);
    if (why) return why;
  }
  if (args.length > 0) return 'too many arguments';
  return def.refuse ? def.refuse(op) : null;
}

function parseArg(shape, a, op) {
  switch (shape) {
    case 'n': op.hasCount = true; // falls through
    case 'N':
      op.n = /^[0-9]+$/.test(a || '') ? Number(a) : -1;
      return op.n >= 0 && op.n <= MAX_COUNT ? null : `expects a count (0 to ${MAX_COUNT})`;
    case 'S': return word(op, 'stream', a, ['out', 'err'], 'stream must be out or err');
    case 'F': return word(op, 'stream', a, ['out', 'err', 'all'], 'stream must be out, err or all');
    case 'M':
      return word(op, 'mode', a, ['none', 'line', 'full'], 'mode must be full, line or none');
    case 'L':
      op.label = a;
      if (a === undefined) return 'expects a label';
      return Buffer.byteLength(a) >= 64 ? 'label too long' : null; // bytes, as script.c
    case 'G':
      op.signal = signal(a);
      return op.signal === null ? 'expects a signal name or number' : null;
  }
  throw new Error(`shape ${shape}`);
}

// Sets op[KEY] to A; WHY unless A is one of WORDS.
function word(op, key, a, words, why) {
  op[key] = a;
  return words.includes(a) ? null : why;
}

// "TERM", "SIGTERM" -> "SIGTERM"; "15" -> 15; anything else -> null.
function signal(a) {
  if (a === undefined) return null;
  const name = a.replace(/^SIG/, '');
  if (SIGNALS.includes(name)) return 'SIG' + name;
  const n = /^[0-9]+$/.test(name) ? Number(name) : 0;
  return n > 0 && n < 65 ? n : null;
}

function refuseBuffer(op) {
  if (op.mode !== 'none') return `Node has no ${op.mode} buffering for stdout`;
  return op.hasCount ? 'none takes no size' : null;
}

// ---- output and its errors ------------------------------------------------------

let exitSet = false; // `exit N` ran: its N is the status
const failed = new Set(); // streams whose failure was reported

// One line on fd 2, written synchronously so that nothing queued goes first
// (a failure to say it is ignored: fd 2 may be the stream that failed).
function say(line) {
  try {
    fs.writeSync(2, `${PROG}: ${line}\n`);
  } catch (e) {}
}

// Node docs: events.md, Error events: with no listener an 'error' is thrown,
// and a plain Node program dies of it ("Unhandled 'error' event"). This
// listener is a choice such a program does not make: it keeps the failure to
// the one line check() says, as the spec's errors are.
function stream(name) {
  const s = name === 'err' ? process.stderr : process.stdout;
  if (s.listenerCount('error') === 0) s.on('error', () => {});
  return s;
}

// The error of a write to stream NAME (op OP), if any: reported once per stream.
function check(op, name, err) {
  if (!err || failed.has(name)) return;
  failed.add(name);
  const errno = typeof err.errno === 'number' ? ` (errno ${Math.abs(err.errno)})` : '';
  say(`op ${op.index + 1} '${op.text}': ${err.message}${errno}`);
  if (!exitSet) process.exitCode = 1;
}

function payload(op, n, end) {
  try {
    return ALPHABET[op.index % 62].repeat(n) + end;
  } catch (e) { // V8 strings stop short of 2^30 characters
    say(`op ${op.index + 1} '${op.text}': out of memory (${e.message})`);
    return process.exit(70);
  }
}

function put(op, end) {
  const s = payload(op, op.n, end);
  stream(op.stream).write(s, (err) => check(op, op.stream, err));
}

// Node has no flush: the callback of '' comes when what was queued before it
// has been handed to the kernel (docs/script.md). The '' is not free: it is a
// write(2) of 0 bytes of its own, on a pipe, a file or a terminal alike (strace).
async function flush(op) {
  for (const name of op.stream === 'all' ? ['out', 'err'] : [op.stream]) {
    await new Promise((resolve) => stream(name).write('', (err) => {
      check(op, name, err);
      resolve();
    }));
  }
}

// Node docs: process.md, A note on process I/O: writes to pipes are
// asynchronous on POSIX (ttys and files synchronous); setBlocking makes each
// write wait for the kernel. A file has no _handle: nothing to do.
function bufferNone() {
  const handle = process.stdout._handle;
  if (handle && typeof handle.setBlocking === 'function') handle.setBlocking(true);
}

// ---- markers, time, endings ----------------------------------------------------

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Node docs: process.md, process.exitCode: the process exits with it once
// the event loop is empty (queued writes still go out).
function exitOp(op) {
  process.exitCode = op.n;
  exitSet = true;
  return STOP;
}

// A throw inside an async function would be a rejected promise; from a tick
// callback it is an uncaught exception (Node docs: process.md, 'uncaughtException').
function throwOp() {
  process.nextTick(() => { throw new Error('an uncaught exception'); });
  return STOP;
}

async function raise(op) {
  process.kill(process.pid, op.signal);
  await delay(1000); // the signal arrives meanwhile
}

// ---- main ---------------------------------------------------------------------

// The script of ARGV, parsed; null (and exit status 64) for none or a bad one.
function load(argv) {
  if (argv.length === 0) {
    say(`usage: ${PROG} SCRIPT... (ops separated by ';', see docs/script.md)`);
    process.exitCode = 64;
    return null;
  }
  try {
    return parse(argv.join(';'));
  } catch (e) {
    if (!(e instanceof BadScript)) throw e;
    say(`bad script: ${e.message}`);
    process.exitCode = 64;
    return null;
  }
}

async function main(argv) {
  if (argv.length === 1 && argv[0] === '--version') {
    process.stdout.write(`node ${process.version}\n`);
    return;
  }
  const ops = load(argv);
  for (const op of ops || []) {
    if ((await OPS[op.name].run(op)) === STOP) return;
  }
}

main(process.argv.slice(2));
