// A property gate's driver for zap (go.uber.org/zap 1.23, Debian 12's
// golang-go.uber-zap-dev), for tests/loggers/zap.property.toml:
//
//	zap_logger CONFIG workload OP...   (docs/workload.md)
//
// CONFIG: stderr (zap.NewProduction(): JSON, InfoLevel and above, on
// standard error) | file (the same config, OutputPaths app.log in
// $FLUSHCHECK_LOG_DIR) | buffered_file (a core on a zapcore.BufferedWriteSyncer
// around app.log, its defaults: 256 kB, a flush every 30 s; Stop deferred,
// as its doc comment shows). Each record is one Info, Warn, Error or Debug
// call; `flush` is Logger.Sync. run defers Sync (and Stop), which runs at
// `return N` and `throw`, not at `exit N` (os.Exit runs no deferred call).
//
//	cd targets/loggers/go/zap_logger && GOPATH=$PWD/../../../runtimes/go:/usr/share/gocode \
//	  GO111MODULE=off go build -o OUT/zap_logger .
package main

import (
	"os"

	"flushcheck/loggermain"
	"flushcheck/workload"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

type driver struct{ log *zap.Logger }

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

func (d driver) Flush() { _ = d.log.Sync() }

// open builds the logger P's CONFIG names, and what to undo at the end.
func open(p loggermain.Program) (*zap.Logger, func(), error) {
	switch p.Config {
	case "stderr":
		log, err := zap.NewProduction()
		return log, func() { _ = log.Sync() }, err
	case "file":
		c := zap.NewProductionConfig()
		c.OutputPaths = []string{loggermain.LogFile()}
		log, err := c.Build()
		return log, func() { _ = log.Sync() }, err
	case "buffered_file":
		f, err := loggermain.OpenLogFile()
		if err != nil {
			return nil, nil, err
		}
		ws := &zapcore.BufferedWriteSyncer{WS: f}
		enc := zapcore.NewJSONEncoder(zap.NewProductionEncoderConfig())
		log := zap.New(zapcore.NewCore(enc, ws, zapcore.InfoLevel))
		return log, func() { _ = log.Sync(); _ = ws.Stop() }, nil
	}
	return nil, nil, p.UnknownConfig("stderr", "file", "buffered_file")
}

func run() int {
	p, ok := loggermain.Parse("zap_logger", os.Args[1:])
	if !ok {
		return 2
	}
	log, done, err := open(p)
	if err != nil {
		return p.Fail(err)
	}
	defer done()
	return workload.Run(p.Name, p.Ops, driver{log})
}

func main() { os.Exit(run()) }
