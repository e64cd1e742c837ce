// script.go: go_script, flushcheck's script language in Go, for the ops that mean
// something in Go. The language, byte attribution, exit codes and what each op does
// here: docs/script.md ("In other runtimes"); the marker protocol: docs/markers.md.
//
//	go_script 'line 3; write 2; marker m; exit 3'
//
// Standard library only; built with Go 1.19.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"flushcheck/marker" // the marker protocol, as the Go workload helper speaks it
)

const (
	prog     = "go_script"
	alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	badCount = "expects a count (0 to 1000000000)"
)

// op is one parsed op: index counts from 0 in script order (its payload byte).
type op struct {
	index  int
	text   string // as written, for messages
	name   string
	n      int    // count, size, exit status or signal number
	sized  bool   // an optional count was given
	word   string // buffer mode or marker label
	stream string // out, err or all
	run    func(*state, *op)
}

// opDef: argument shapes ('N' count, 'n' optional count, 'S' optional stream,
// 'M' buffer mode, 'L' label, 'G' signal) and what the op does.
type opDef struct {
	args string
	run  func(*state, *op)
}

var ops = map[string]opDef{
	"line":   {"NS", func(s *state, o *op) { s.emit(o, "\n") }},
	"write":  {"NS", func(s *state, o *op) { s.emit(o, "") }},
	"flush":  {"S", (*state).flush},
	"marker": {"L", func(s *state, o *op) { marker.Marker(o.word) }},
	"sleep":  {"N", func(s *state, o *op) { time.Sleep(time.Duration(o.n) * time.Millisecond) }},
	"buffer": {"Mn", (*state).buffer},
	// Go os/proc.go: os.Exit runs no deferred functions and flushes nothing; Go has
	// no other exit, so exit and _exit are the same call.
	"exit":  {"n", func(s *state, o *op) { os.Exit(o.n) }},
	"_exit": {"n", func(s *state, o *op) { os.Exit(o.n) }},
	"abort": {"", nil}, // refused below
	"throw": {"", func(s *state, o *op) { panic("flushcheck") }},
	"raise": {"G", raise},
}

var signals = map[string]syscall.Signal{
	"TERM": syscall.SIGTERM, "INT": syscall.SIGINT, "KILL": syscall.SIGKILL,
	"ABRT": syscall.SIGABRT, "HUP": syscall.SIGHUP, "USR1": syscall.SIGUSR1,
	"USR2": syscall.SIGUSR2, "PIPE": syscall.SIGPIPE,
}

// refusal says why this runtime refuses a well-formed op, or "".
func refusal(o *op) string {
	switch {
	case o.name == "abort":
		return "refused in Go, which has no abort"
	case o.name == "buffer" && o.word == "line":
		return "refused in Go: bufio has no line buffering"
	case o.name == "buffer" && o.word == "none" && o.sized:
		return "a size is only for full"
	case o.name == "buffer" && o.sized && o.n == 0:
		return "a size must be at least 1"
	case o.stream == "all" && o.name != "flush":
		return "'all' is only for flush"
	}
	return ""
}

func count(a string) (int, bool) {
	if a == "" || a[0] < '0' || a[0] > '9' {
		return 0, false
	}
	n, err := strconv.Atoi(a)
	return n, err == nil && n <= 1000000000
}

func signalNumber(a string) (int, bool) {
	name := strings.TrimPrefix(a, "SIG")
	if sig, ok := signals[name]; ok {
		return int(sig), true
	}
	n, ok := count(name)
	return n, ok && n > 0 && n < 65
}

// unless is WHY when OK is false, else "".
func unless(ok bool, why string) string {
	if ok {
		return ""
	}
	return why
}

// arg parses A ("" when absent) as SHAPE into o; took says whether it used A.
func (o *op) arg(shape rune, a string) (took bool, why string) {
	ok := true
	switch shape {
	case 'N':
		o.n, ok = count(a)
		return true, unless(ok, badCount)
	case 'n': // there when it looks like a number: "exit -1" is a bad count
		if a == "" || !strings.ContainsAny(a[:1], "0123456789+-") {
			return false, ""
		}
		o.n, ok = count(a)
		o.sized = true
		return true, unless(ok, badCount)
	case 'S':
		o.stream = a
		return a != "", unless(a == "" || a == "out" || a == "err" || a == "all", "stream must be out, err or all")
	case 'M':
		o.word = a
		return true, unless(a == "none" || a == "line" || a == "full", "mode must be none, line or full")
	case 'L':
		o.word = a
		if len(a) >= 64 { // bytes, as script.c
			return true, "label too long"
		}
		return true, unless(a != "", "expects a label")
	}
	o.n, ok = signalNumber(a) // 'G'
	return true, unless(ok, "expects a signal name or number")
}

func isBlank(r rune) bool { return r == ' ' || r == '\t' || r == '\r' }

// parseOp parses one op's text; the error is the reason it is refused.
func parseOp(index int, text string) (*op, string) {
	tok := strings.FieldsFunc(text, isBlank)
	def, ok := ops[tok[0]]
	if !ok {
		return nil, "unknown operation"
	}
	o := &op{index: index, text: text, name: tok[0], run: def.run}
	args := tok[1:]
	for _, shape := range def.args {
		a := ""
		if len(args) > 0 {
			a = args[0]
		}
		if took, why := o.arg(shape, a); why != "" {
			return nil, why
		} else if took {
			args = args[1:]
		}
	}
	if len(args) > 0 {
		return nil, "too many arguments"
	}
	if o.stream == "" {
		o.stream = "out"
	}
	return o, refusal(o)
}

// parse splits the whole script into ops (';' or newline; empty ops skipped).
func parse(src string) ([]*op, error) {
	var script []*op
	for _, part := range strings.FieldsFunc(src, func(r rune) bool { return r == ';' || r == '\n' }) {
		text := strings.TrimLeft(part, " \t")
		if len(strings.FieldsFunc(text, isBlank)) == 0 {
			continue
		}
		o, why := parseOp(len(script), text)
		if why != "" {
			return nil, fmt.Errorf("op %d '%s': %s", len(script)+1, text, why)
		}
		script = append(script, o)
	}
	return script, nil
}

// state: stdout's writer is os.Stdout (out == nil) or the bufio.Writer of "buffer full".
type state struct {
	out    *bufio.Writer
	failed bool
}

// say writes one line on stderr, in one write (fmt formats before it writes).
func say(o *op, what string) {
	fmt.Fprintf(os.Stderr, "%s: op %d '%s': %s\n", prog, o.index+1, o.text, what)
}

func (s *state) report(o *op, call string, err error) {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		say(o, fmt.Sprintf("%s: %v (errno %d)", call, err, int(errno)))
	} else {
		say(o, fmt.Sprintf("%s: %v", call, err))
	}
	s.failed = true
}

// emit: one fmt.Fprint of N payload bytes and END.
// Go os/file.go: File is unbuffered, so on os.Stdout it is one write(2).
// Go os/signal docs: without signal.Notify, a write to a broken pipe on fd 1 or 2
// kills the program with SIGPIPE; that default is kept.
func (s *state) emit(o *op, end string) {
	var w io.Writer = os.Stdout
	if o.stream == "err" {
		w = os.Stderr
	} else if s.out != nil {
		w = s.out
	}
	text := strings.Repeat(alphabet[o.index%62:o.index%62+1], o.n) + end
	if _, err := fmt.Fprint(w, text); err != nil {
		s.report(o, "fmt.Fprint", err)
	}
}

// flush: only a bufio.Writer has something to flush; os.Stdout and os.Stderr have none.
func (s *state) flush(o *op) {
	if o.stream != "err" {
		s.flushOut(o)
	}
}

func (s *state) flushOut(o *op) {
	if s.out != nil {
		if err := s.out.Flush(); err != nil {
			s.report(o, "Flush", err)
		}
	}
}

// buffer: "none" flushes a bufio.Writer and goes back to os.Stdout; "full" does
// the same to the writer it replaces, then takes a new one.
// Go bufio/bufio.go: NewWriterSize takes the default 4096 for a size <= 0.
func (s *state) buffer(o *op) {
	s.flushOut(o)
	s.out = nil
	if o.word == "full" {
		s.out = bufio.NewWriterSize(os.Stdout, o.n)
	}
}

func raise(s *state, o *op) {
	if err := syscall.Kill(os.Getpid(), syscall.Signal(o.n)); err != nil {
		s.report(o, "kill", err)
	}
	time.Sleep(time.Second)
}

func main() {
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		if _, err := fmt.Println("go", runtime.Version()); err != nil {
			os.Exit(1)
		}
		return
	}
	if len(os.Args) < 2 {
		fmt.Fprintf(os.Stderr, "%s: usage: %s SCRIPT... (ops separated by ';', see docs/script.md)\n", prog, prog)
		os.Exit(64)
	}
	script, err := parse(strings.Join(os.Args[1:], ";"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: bad script: %v\n", prog, err)
		os.Exit(64)
	}
	s := &state{}
	for _, o := range script {
		o.run(s, o)
	}
	if s.failed {
		os.Exit(1)
	}
}
