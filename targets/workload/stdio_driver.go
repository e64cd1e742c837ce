// stdio_driver.c's twin in Go (docs/workload.md): LEVEL MESSAGE lines through
// a bufio.Writer on os.Stdout (4096 bytes, glibc's stdio buffer on a pipe),
// `flush` by its Flush. A mutex around it, as a logger takes one: the
// workload's goroutines log at once after `threads`. Go has no atexit: the
// buffer is flushed by run's deferred call, at `return N` and at `throw` (a
// panic runs deferred calls), not at `exit N` (os.Exit runs none), nor at
// `_exit`, `abort` or a kill.
//
//	GOPATH=targets/runtimes/go GO111MODULE=off go build -o stdio_driver_go stdio_driver.go
package main

import (
	"bufio"
	"os"
	"strings"
	"sync"

	"flushcheck/workload"
)

type stdout struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (s *stdout) Log(level workload.Level, n int64, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.w.WriteString(strings.ToUpper(level.String()) + " " + message + "\n")
}

func (s *stdout) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.w.Flush()
}

// run holds the deferred flush, so that it runs before main's os.Exit.
func run() int {
	s := &stdout{w: bufio.NewWriterSize(os.Stdout, 4096)}
	defer s.Flush()
	return workload.Run("stdio_driver.go", os.Args[1:], s)
}

func main() { os.Exit(run()) }
