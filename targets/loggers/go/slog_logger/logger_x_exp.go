//go:build !go1.21

// golang.org/x/exp/slog as Debian 12 has it (0.0~git20221028): the
// handler made by its options, levels XLevel, Error with an error argument.
package main

import (
	"io"

	"flushcheck/workload"

	"golang.org/x/exp/slog"
)

type driver struct{ log slog.Logger }

func newDriver(w io.Writer) driver {
	return driver{slog.New(slog.HandlerOptions{Level: slog.DebugLevel}.NewTextHandler(w))}
}

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
