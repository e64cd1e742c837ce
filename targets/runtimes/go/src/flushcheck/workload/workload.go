// Package workload is flushcheck's workload helper for Go drivers
// (docs/workload.md): what flushcheck/workload.h is to C. A driver gives Run
// how its library logs a record and flushes; sleeps, markers, threads and the
// ends are done here. A driver is about 20 lines:
//
//	type driver struct{ log *zap.Logger }
//
//	func (d driver) Log(level workload.Level, n int64, message string) {
//		d.log.Check(zapLevels[level], message).Write()
//	}
//	func (d driver) Flush() { _ = d.log.Sync() }
//
//	// run holds what must be undone at `return N`: its deferred calls run
//	// when Run returns (and when `throw` panics), not at `exit N`.
//	func run() int {
//		log := zap.New(core(os.Getenv("FLUSHCHECK_LOG_DIR")))
//		defer log.Sync()
//		return workload.Run("zap_driver", os.Args[1:], driver{log})
//	}
//
//	func main() { os.Exit(run()) }
//
// The ends, each Go's own (Go has no atexit: nothing of a library runs at an
// exit unless the program calls it):
//   - `return N`: Run returns N; main's os.Exit(run()) runs after run's
//     deferred calls. A driver whose main calls Run directly and defers in
//     main loses them: os.Exit runs no deferred calls.
//   - `exit N`: os.Exit(N) from Run: "The program terminates immediately;
//     deferred functions are not run" (https://pkg.go.dev/os#Exit).
//   - `_exit N`: syscall.Exit(N), the exit_group call without os.Exit's
//     check for the race detector: for a logger the same as `exit N`.
//   - `abort`: Go has no abort(3). The runtime's crash is used: traceback
//     level "crash" (runtime/debug.SetTraceback, the GOTRACEBACK=crash of
//     https://pkg.go.dev/runtime: "crashes in an operating system-specific
//     manner instead of exiting ... raises SIGABRT to trigger a core dump"),
//     then SIGABRT to this thread: Go prints "SIGABRT: abort" and the
//     goroutines, and the program dies by SIGABRT, no deferred call run.
//   - `raise SIG`: SIG to this thread (tgkill, as raise(3) does), with the
//     dispositions the Go runtime set (https://pkg.go.dev/os/signal,
//     "Default behavior of signals in Go programs"): HUP, INT and TERM kill
//     the program by that signal; QUIT, ILL, TRAP, ABRT, SEGV, BUS, FPE and
//     SYS make it print a stack dump and exit 2; 32 and 34 keep the system's
//     default (they end it); the others (USR1, USR2, PIPE, ALRM, CHLD, 35 to
//     64, ...) are caught and do nothing, unless the program asked for them
//     with signal.Notify, whose channel gets them. If the program lives on,
//     Run waits a second (as script.go does: a Notify'd signal is handled on
//     another goroutine) and returns 0.
//   - `throw`: an unrecovered panic("flushcheck workload: throw") on the
//     calling goroutine, after the threads are joined. Run's caller's
//     deferred calls run (so run's `defer log.Sync()` does), then Go prints
//     "panic: flushcheck workload: throw" and the goroutine's stack and exits
//     2 (the Go spec, "Handling panics"; runtime/panic.go, fatalpanic).
//
// `threads K` runs the rest on K goroutines: Log and Flush must be safe for
// concurrent use then. Go's os.Stdout is unbuffered (one write(2) a call):
// a driver brings its library's own buffering.
//
// Standard library only (Go 1.19). The package is flushcheck/workload in
// GOPATH mode (GOPATH=targets/runtimes/go, GO111MODULE=off) and in module
// mode (module flushcheck, ../go.mod).
package workload

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"flushcheck/marker"
)

// Level is a record's level in `log LEVEL BYTES`, lowest first.
type Level int

// The levels, as workload.h's enum flushcheck_level.
const (
	Debug Level = iota
	Info
	Warn
	Error
)

var levelNames = [...]string{"debug", "info", "warn", "error"}

// String is the level's name in a workload: "debug", "info", "warn" or "error".
func (l Level) String() string { return levelNames[l] }

// Driver is what only the driver knows: how its library logs record N at
// LEVEL with MESSAGE, and how it flushes. After `threads K` both are called
// from K goroutines at once.
type Driver interface {
	Log(level Level, n int64, message string)
	Flush()
}

// The bounds: what a workload may ask (a bigger one is refused, not truncated).
const (
	MaxOps     = 100000
	MaxBytes   = 1 << 20
	MaxSleepMS = 600000
	MaxThreads = 64
)

// kind is an op, in an order the code relies on: steps, then threads, then ends.
type kind int

const (
	opLog kind = iota
	opFlush
	opSleep
	opMarker
	opThreads
	opReturn
	opExit
	opUExit
	opAbort
	opRaise
	opThrow
)

type op struct {
	kind   kind
	n      int64 // BYTES, MS, K, an exit status or a signal number
	level  Level
	record int64 // log: its record number
	label  string
}

// An op's arguments when they are not one number (whose bound, > 0, stands
// for them in opDefs).
const (
	noArgument    = 0
	levelAndBytes = -1
	labelArgument = -2
	signalName    = -3
)

var opDefs = map[string]struct {
	kind kind
	max  int64
}{
	"log": {opLog, levelAndBytes}, "flush": {opFlush, noArgument},
	"sleep": {opSleep, MaxSleepMS}, "marker": {opMarker, labelArgument},
	"threads": {opThreads, MaxThreads}, "return": {opReturn, 255}, "exit": {opExit, 255},
	"_exit": {opUExit, 255}, "abort": {opAbort, noArgument}, "raise": {opRaise, signalName},
	"throw": {opThrow, noArgument},
}

// The signals SignalNumber knows by name.
var signals = map[string]syscall.Signal{
	"HUP": syscall.SIGHUP, "INT": syscall.SIGINT, "QUIT": syscall.SIGQUIT,
	"ILL": syscall.SIGILL, "TRAP": syscall.SIGTRAP, "ABRT": syscall.SIGABRT,
	"BUS": syscall.SIGBUS, "FPE": syscall.SIGFPE, "KILL": syscall.SIGKILL,
	"USR1": syscall.SIGUSR1, "SEGV": syscall.SIGSEGV, "USR2": syscall.SIGUSR2,
	"PIPE": syscall.SIGPIPE, "ALRM": syscall.SIGALRM, "TERM": syscall.SIGTERM,
	"CHLD": syscall.SIGCHLD, "CONT": syscall.SIGCONT, "STOP": syscall.SIGSTOP,
	"TSTP": syscall.SIGTSTP, "TTIN": syscall.SIGTTIN, "TTOU": syscall.SIGTTOU,
	"XCPU": syscall.SIGXCPU, "XFSZ": syscall.SIGXFSZ, "SYS": syscall.SIGSYS,
}

// SignalNumber is SIG's number from a name with or without "SIG" (TERM,
// SIGKILL) or a number from 1 to 64; -1 for anything else.
func SignalNumber(name string) int {
	if len(name) >= 3 && name[:3] == "SIG" {
		name = name[3:]
	}
	if sig, ok := signals[name]; ok {
		return int(sig)
	}
	if name == "" || len(name) > 3 {
		return -1
	}
	v := 0
	for i := 0; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' {
			return -1
		}
		v = v*10 + int(name[i]-'0')
	}
	if v < 1 || v > 64 {
		return -1
	}
	return v
}

// count is TEXT's value if it is ASCII digits no larger than MAX (leading
// zeros too, however many), checked digit by digit so that no length
// overflows.
func count(text string, max int64) (int64, bool) {
	if text == "" {
		return 0, false
	}
	var v int64
	for i := 0; i < len(text); i++ {
		if text[i] < '0' || text[i] > '9' {
			return 0, false
		}
		if v = v*10 + int64(text[i]-'0'); v > max {
			return 0, false
		}
	}
	return v, true
}

func level(text string) (Level, bool) {
	for i, name := range levelNames {
		if text == name {
			return Level(i), true
		}
	}
	return 0, false
}

// logArgs: `log LEVEL BYTES` into o; "", or why not.
func logArgs(tokens []string, o *op) string {
	var ok bool
	if o.level, ok = level(tokens[1]); !ok {
		return "expects a level: debug, info, warn or error"
	}
	if o.n, ok = count(tokens[2], MaxBytes); !ok {
		return "expects a size in bytes, at most 1048576"
	}
	return ""
}

// signalArgs: `raise SIG` into o; "", or why not. A signal whose default
// action stops the program would stop the driver for good.
func signalArgs(sig string, o *op) string {
	if o.n = int64(SignalNumber(sig)); o.n <= 0 {
		return "expects a signal name or number"
	}
	switch syscall.Signal(o.n) {
	case syscall.SIGSTOP, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU:
		return "expects a signal that ends or is ignored, not one that stops the program " +
			"(STOP, TSTP, TTIN, TTOU)"
	}
	return ""
}

// args: the arguments tokens[1:] of an op whose argument is MAX (as in
// opDefs) into o; "", or why not.
func args(max int64, tokens []string, o *op) string {
	switch max {
	case levelAndBytes:
		return logArgs(tokens, o)
	case labelArgument:
		if len(tokens[1]) >= 64 {
			return "expects a label under 64 bytes"
		}
		o.label = tokens[1]
		return ""
	case signalName:
		return signalArgs(tokens[1], o)
	case noArgument:
		return ""
	}
	var ok bool
	if o.n, ok = count(tokens[1], max); !ok {
		return "expects a number in range"
	}
	if o.kind == opThreads && o.n < 2 {
		return "expects 2 to 64 threads"
	}
	return ""
}

// parseOp: the op TOKENS spell into o; "", or why not.
func parseOp(tokens []string, o *op) string {
	def, ok := opDefs[tokens[0]]
	if !ok {
		return "unknown operation"
	}
	o.kind = def.kind
	switch {
	case def.max == noArgument && len(tokens) != 1:
		return "takes no argument"
	case def.max == levelAndBytes && len(tokens) != 3:
		return "expects a level (debug, info, warn, error) and a size in bytes"
	case def.max != noArgument && def.max != levelAndBytes && len(tokens) != 2:
		return "expects one argument"
	}
	return args(def.max, tokens, o)
}

// workload is the ops parsed so far.
type workload struct {
	ops      []op
	records  int64 // log ops
	threaded bool  // a `threads` op is among them
}

// order: why w cannot take o (an end not last, a marker after threads, two
// threads ops), or "". In constant time: only the last op can be an end.
func (w *workload) order(o *op) string {
	if len(w.ops) > 0 && w.ops[len(w.ops)-1].kind >= opReturn {
		return "comes after the workload's end"
	}
	if w.threaded && o.kind == opThreads {
		return "a second threads"
	}
	if w.threaded && o.kind == opMarker {
		return "a marker after threads (every thread would stop at it)"
	}
	return ""
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// tokens cuts TEXT into its tokens (4 at most) into buf; nil and false when
// there are more.
func tokens(text string, buf []string) ([]string, bool) {
	out := buf[:0]
	for i := 0; ; {
		for i < len(text) && isBlank(text[i]) {
			i++
		}
		if i == len(text) {
			return out, true
		}
		if len(out) == 4 {
			return nil, false
		}
		start := i
		for i < len(text) && !isBlank(text[i]) {
			i++
		}
		out = append(out, text[start:i])
	}
}

// add: the op TEXT spells appended to w (an empty one skipped); "", or why not.
func (w *workload) add(text string) string {
	var buf [4]string
	toks, ok := tokens(text, buf[:])
	if ok && len(toks) == 0 {
		return "" // an empty op: "a;;b"
	}
	if len(w.ops) == MaxOps {
		return "more than 100000 ops"
	}
	if !ok {
		return "too many arguments"
	}
	var o op
	if why := parseOp(toks, &o); why != "" {
		return why
	}
	if why := w.order(&o); why != "" {
		return why
	}
	if o.kind == opLog {
		o.record = w.records
		w.records++
	}
	w.threaded = w.threaded || o.kind == opThreads
	w.ops = append(w.ops, o)
	return ""
}

// shown is an op as written, without its leading blanks: at most 79 bytes.
func shown(text string) string {
	for len(text) > 0 && isBlank(text[0]) {
		text = text[1:]
	}
	if len(text) > 79 {
		text = text[:79]
	}
	return text
}

// parse: TEXT's ops (separated by ';' or newlines); or "op K 'TEXT': WHY"
// for the first bad one, K its place among the ops before it.
func parse(text string) (*workload, string) {
	w := &workload{ops: make([]op, 0, min(len(text)/2+1, MaxOps))}
	start := 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && text[i] != ';' && text[i] != '\n' {
			continue
		}
		if why := w.add(text[start:i]); why != "" {
			return nil, "op " + strconv.Itoa(len(w.ops)) + " '" + shown(text[start:i]) + "': " + why
		}
		start = i + 1
	}
	return w, ""
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// Message is record N's message for `log LEVEL BYTES`: "rec N", padded
// with " xxx..." to BYTES.
func Message(n, bytes int64) string {
	buf := make([]byte, 0, max64(bytes, 24))
	buf = strconv.AppendInt(append(buf, "rec "...), n, 10)
	if int64(len(buf)) < bytes {
		buf = append(buf, ' ')
	}
	for int64(len(buf)) < bytes {
		buf = append(buf, 'x')
	}
	return string(buf)
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// share runs one thread's share of OPS (up to `threads` or the end): every
// flush, sleep and marker, and the records whose place among OPS's logs is
// THREAD mod THREADS.
func share(ops []op, d Driver, thread, threads int64) {
	var place int64
	for i := range ops {
		o := &ops[i]
		if o.kind >= opThreads {
			return
		}
		switch o.kind {
		case opLog:
			if place%threads == thread {
				d.Log(o.level, o.record, Message(o.record, o.n))
			}
			place++
		case opFlush:
			d.Flush()
		case opSleep:
			time.Sleep(time.Duration(o.n) * time.Millisecond)
		case opMarker:
			marker.Marker(o.label)
		}
	}
}

// onThreads runs OPS on K goroutines and waits for them.
func onThreads(ops []op, d Driver, k int64) {
	var wg sync.WaitGroup
	for t := int64(0); t < k; t++ {
		wg.Add(1)
		go func(t int64) {
			defer wg.Done()
			share(ops, d, t, k)
		}(t)
	}
	wg.Wait()
}

// runOps: w's ops before `threads` on this goroutine, then the rest on K goroutines.
func runOps(w *workload, d Driver) {
	share(w.ops, d, 0, 1)
	for i := range w.ops {
		if w.ops[i].kind == opThreads {
			onThreads(w.ops[i+1:], d, w.ops[i].n)
			return
		}
	}
}

// thisThread sends SIG to the calling OS thread, as raise(3) does.
func thisThread(sig syscall.Signal) {
	runtime.LockOSThread()
	_ = syscall.Tgkill(syscall.Getpid(), syscall.Gettid(), sig)
}

// abort crashes the program by SIGABRT, running no deferred call.
func abort() {
	debug.SetTraceback("crash")
	thisThread(syscall.SIGABRT)
	// Here only when the program took SIGABRT with signal.Notify. abort(3)
	// ends the program all the same: a panic on another goroutine does
	// (with the "crash" level, by SIGABRT) and runs none of this one's
	// deferred calls.
	go func() { panic("flushcheck workload: abort") }()
	select {}
}

// end ends the program as END (a workload's end op) says; returns the status
// for `return N` (0 for a raised signal that did not end it).
func end(o op) int {
	switch o.kind {
	case opExit:
		os.Exit(int(o.n))
	case opUExit:
		syscall.Exit(int(o.n))
	case opAbort:
		abort()
	case opRaise:
		thisThread(syscall.Signal(o.n))
		runtime.UnlockOSThread()
		time.Sleep(time.Second)
		return 0
	case opThrow:
		panic("flushcheck workload: throw")
	}
	return int(o.n)
}

// Run runs the workload ARGS spell (joined with ';') with driver D: its Log
// for each record, its Flush for each flush. Returns what main should exit
// with: N for `return N`, 0 without an end, 64 for a bad workload (one line on
// stderr naming NAME, "NAME: bad workload: op 2 'log loud 3': expects a
// level: ...", before anything ran); `exit`, `_exit`, `abort` and `raise`
// end the program here, and `throw` panics from here after every op ran.
func Run(name string, args []string, d Driver) int {
	w, bad := parse(strings.Join(args, ";"))
	if bad != "" {
		_, _ = os.Stderr.WriteString(name + ": bad workload: " + bad + "\n")
		return 64
	}
	runOps(w, d)
	if n := len(w.ops); n > 0 && w.ops[n-1].kind >= opReturn {
		return end(w.ops[n-1])
	}
	return 0
}
