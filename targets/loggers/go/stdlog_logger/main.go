// A property gate's driver for Go's standard log package (Go 1.19, Debian
// 12's golang-go), for tests/loggers/stdlog.property.toml:
//
//	stdlog_logger CONFIG workload OP...   (docs/workload.md)
//
// CONFIG: stderr (the package's standard logger, log.Print: os.Stderr,
// LstdFlags) | file (the same logger, log.SetOutput on app.log in
// $FLUSHCHECK_LOG_DIR, opened O_APPEND), both from flushcheck/loggermain.
// log has no levels: each record is one Print of "LEVEL message". log has
// no flush: `flush` does nothing.
//
//	cd targets/loggers/go/stdlog_logger && GOPATH=$PWD/../../../runtimes/go \
//	  GO111MODULE=off go build -o OUT/stdlog_logger .
package main

import (
	"log"
	"os"
	"strings"

	"flushcheck/loggermain"
	"flushcheck/workload"
)

type driver struct{ log *log.Logger }

func (d driver) Log(level workload.Level, n int64, message string) {
	d.log.Print(strings.ToUpper(level.String()), " ", message)
}

func (d driver) Flush() {}

func run() int {
	p, ok := loggermain.Parse("stdlog_logger", os.Args[1:])
	if !ok {
		return 2
	}
	w, done, err := p.Output()
	if err != nil {
		return p.Fail(err)
	}
	defer done()
	log.SetOutput(w)
	return workload.Run(p.Name, p.Ops, driver{log.Default()})
}

func main() { os.Exit(run()) }
