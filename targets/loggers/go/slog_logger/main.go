// A property gate's driver for slog, for tests/loggers/go_slog.property.toml:
// log/slog where Go has it (1.21 on: logger_go121.go), else its forerunner
// golang.org/x/exp/slog as Go 1.19 has it (Debian 12's
// golang-golang-x-exp-dev, 0.0~git20221028: logger_x_exp.go), chosen by
// build constraint.
//
//	slog_logger CONFIG workload OP...   (docs/workload.md)
//
// CONFIG: stderr (slog.New(slog.NewTextHandler(os.Stderr, ...))) | file (a
// TextHandler on app.log in $FLUSHCHECK_LOG_DIR, opened O_APPEND), both
// from flushcheck/loggermain. The handler's level is Debug; each record is
// one Debug/Info/Warn/Error call. slog has no flush: `flush` does nothing.
//
//	cd targets/loggers/go/slog_logger && GOPATH=$PWD/../../../runtimes/go:/usr/share/gocode \
//	  GO111MODULE=off go build -o OUT/slog_logger .
package main

import (
	"os"

	"flushcheck/loggermain"
	"flushcheck/workload"
)

func (d driver) Flush() {}

func run() int {
	p, ok := loggermain.Parse("slog_logger", os.Args[1:])
	if !ok {
		return 2
	}
	w, done, err := p.Output()
	if err != nil {
		return p.Fail(err)
	}
	defer done()
	return workload.Run(p.Name, p.Ops, newDriver(w))
}

func main() { os.Exit(run()) }
