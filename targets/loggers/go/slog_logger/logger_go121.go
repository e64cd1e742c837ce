//go:build go1.21

// log/slog (Go 1.21 on): the handler's options by pointer, levels LevelX.
package main

import (
	"io"
	"log/slog"

	"flushcheck/workload"
)

type driver struct{ log *slog.Logger }

func newDriver(w io.Writer) driver {
	return driver{slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))}
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
		d.log.Error(message)
	}
}
