// A property gate's driver for slog as Go 1.19 has it: golang.org/x/exp/slog
// (Debian 12's golang-golang-x-exp-dev, 0.0~git20221028; log/slog is Go
// 1.21's), for tests/loggers/go_slog.property.toml:
//
//	slog_logger CONFIG workload OP...   (docs/workload.md)
//
// CONFIG: stderr (slog.New(slog.NewTextHandler(os.Stderr))) | file (a
// TextHandler on app.log in $FLUSHCHECK_LOG_DIR, opened O_APPEND), both
// from flushcheck/loggermain. The handler's level is Debug
// (HandlerOptions{Level: slog.DebugLevel}); each record is one
// Debug/Info/Warn/Error call. slog has no flush: `flush` does nothing.
//
//	cd targets/loggers/go/slog_logger && GOPATH=$PWD/../../../runtimes/go:/usr/share/gocode \
//	  GO111MODULE=off go build -o OUT/slog_logger .
package main

import (
	"os"

	"flushcheck/loggermain"
	"flushcheck/workload"

	"golang.org/x/exp/slog"
)

type driver struct{ log slog.Logger }

func (d driver) Log(level workload.Level, n int64, message string) {
	switch level {
	case workload.Debug:
		d.log.Debug(message)
	case workload.Info:
		d.log.Info(message)
	case workload.Warn:
		d.log.Warn(message)
	default:
		d.log.Error(message, nil)
	}
}

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
	log := slog.New(slog.HandlerOptions{Level: slog.DebugLevel}.NewTextHandler(w))
	return workload.Run(p.Name, p.Ops, driver{log})
}

func main() { os.Exit(run()) }
