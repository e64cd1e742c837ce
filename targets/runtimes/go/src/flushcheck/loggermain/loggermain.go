// Package loggermain is what the Go logger programs of the property gates
// (targets/loggers/go/*) share in main, as targets/loggers/logger_main.hpp
// is for the C++ ones: their arguments, `PROGRAM CONFIG workload OP...`
// (docs/workload.md), and their log file, app.log in $FLUSHCHECK_LOG_DIR.
// Each program keeps what is its library's own: its CONFIGs, how it logs a
// record at each level, and its flush. With flushcheck/workload:
//
//	func run() int {
//		p, ok := loggermain.Parse("logrus_logger", os.Args[1:])
//		if !ok {
//			return 2
//		}
//		w, done, err := p.Output()
//		if err != nil {
//			return p.Fail(err)
//		}
//		defer done()
//		log := logrus.New()
//		log.SetOutput(w)
//		return workload.Run(p.Name, p.Ops, driver{log})
//	}
//
// Standard library only (Go 1.19), in GOPATH and module mode as
// flushcheck/workload.
package loggermain

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Program is a logger program in its workload mode.
type Program struct {
	Name   string   // the program's name in its messages: "zap_logger"
	Config string   // CONFIG: which of its library's setups to log through
	Ops    []string // the workload's ops, for workload.Run
}

// Parse is program NAME's arguments ARGS (os.Args[1:]) when they are
// `CONFIG workload OP...`; false, after "usage: NAME CONFIG workload OP..."
// on stderr, when they are not (the program exits 2).
func Parse(name string, args []string) (Program, bool) {
	if len(args) < 2 || args[1] != "workload" {
		fmt.Fprintf(os.Stderr, "usage: %s CONFIG workload OP...\n", name)
		return Program{}, false
	}
	return Program{Name: name, Config: args[0], Ops: args[2:]}, true
}

// Fail says "NAME: ERR" on stderr and returns 2: what the program exits
// with when its library cannot start.
func (p Program) Fail(err error) int {
	fmt.Fprintf(os.Stderr, "%s: %v\n", p.Name, err)
	return 2
}

// UnknownConfig is the error for a CONFIG that is none of KNOWN.
func (p Program) UnknownConfig(known ...string) error {
	return fmt.Errorf("unknown CONFIG %q (%s)", p.Config, strings.Join(known, ", "))
}

// LogFile is the path of the log file: app.log in $FLUSHCHECK_LOG_DIR (in
// the working directory without it).
func LogFile() string {
	return filepath.Join(os.Getenv("FLUSHCHECK_LOG_DIR"), "app.log")
}

// OpenLogFile opens LogFile for appending, creating it: every record's
// write(2) lands at its end.
func OpenLogFile() (*os.File, error) {
	return os.OpenFile(LogFile(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
}

// Output is the writer of the two CONFIGs every Go driver has, stderr
// (os.Stderr) and file (OpenLogFile), with what to defer at the end. For
// any other CONFIG, an UnknownConfig error that names OTHERS too: the
// program's own CONFIGs, which it handles before calling Output.
func (p Program) Output(others ...string) (io.Writer, func(), error) {
	switch p.Config {
	case "stderr":
		return os.Stderr, func() {}, nil
	case "file":
		f, err := OpenLogFile()
		if err != nil {
			return nil, nil, err
		}
		return f, func() { _ = f.Close() }, nil
	}
	return nil, nil, p.UnknownConfig(append([]string{"stderr", "file"}, others...)...)
}
