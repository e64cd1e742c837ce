// A property gate's driver for logrus (github.com/sirupsen/logrus 1.9,
// Debian 12's golang-github-sirupsen-logrus-dev), for
// tests/loggers/logrus.property.toml:
//
//	logrus_logger CONFIG workload OP...   (docs/workload.md)
//
// CONFIG: stderr (logrus.New(): TextFormatter, InfoLevel, Out os.Stderr) |
// file (the same with Out on app.log in $FLUSHCHECK_LOG_DIR, opened
// O_APPEND, as the README's "You could set this to any `io.Writer` such as
// a file"), both from flushcheck/loggermain. Each record is one
// Debug/Info/Warn/Error call. logrus has no flush (Entry.write hands each
// record to Out.Write under the logger's mutex): `flush` does nothing.
//
//	cd targets/loggers/go/logrus_logger && GOPATH=$PWD/../../../runtimes/go:/usr/share/gocode \
//	  GO111MODULE=off go build -o OUT/logrus_logger .
package main

import (
	"os"

	"flushcheck/loggermain"
	"flushcheck/workload"

	"github.com/sirupsen/logrus"
)

type driver struct{ log *logrus.Logger }

func (d driver) Log(level workload.Level, n int64, message string) {
	switch level {
	case workload.Debug:
		d.log.Debug(message)
	case workload.Info:
		d.log.Info(message)
	case workload.Warn:
		d.log.Warn(message)
	default:
		d.log.Error(message)
	}
}

func (d driver) Flush() {}

func run() int {
	p, ok := loggermain.Parse("logrus_logger", os.Args[1:])
	if !ok {
		return 2
	}
	w, done, err := p.Output()
	if err != nil {
		return p.Fail(err)
	}
	defer done()
	log := logrus.New()
	log.SetOutput(w)
	return workload.Run(p.Name, p.Ops, driver{log})
}

func main() { os.Exit(run()) }
