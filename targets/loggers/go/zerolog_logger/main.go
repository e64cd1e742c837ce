// A property gate's driver for zerolog (github.com/rs/zerolog 1.26, Debian
// 12's golang-github-rs-zerolog-dev), for tests/loggers/zerolog.property.toml:
//
//	zerolog_logger CONFIG workload OP...   (docs/workload.md)
//
// CONFIG: stderr (zerolog.New(os.Stderr), where zerolog's global logger
// writes) | file (zerolog.New on app.log in $FLUSHCHECK_LOG_DIR, opened
// O_APPEND; both from flushcheck/loggermain) | diode (the README's
// diode.NewWriter(os.Stdout, 1000, 10*time.Millisecond, alert): a ring of
// 1000 records that a goroutine polls every 10 ms; the alert reports drops
// on stderr; Close deferred).
// Each record is one Debug/Info/Warn/Error().Msg. zerolog has no flush:
// `flush` does nothing. run's deferred Close runs at `return N` and `throw`.
//
//	cd targets/loggers/go/zerolog_logger && GOPATH=$PWD/../../../runtimes/go:/usr/share/gocode \
//	  GO111MODULE=off go build -o OUT/zerolog_logger .
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"flushcheck/loggermain"
	"flushcheck/workload"

	"github.com/rs/zerolog"
	"github.com/rs/zerolog/diode"
)

type driver struct{ log zerolog.Logger }

func (d driver) Log(level workload.Level, n int64, message string) {
	switch level {
	case workload.Debug:
		d.log.Debug().Msg(message)
	case workload.Info:
		d.log.Info().Msg(message)
	case workload.Warn:
		d.log.Warn().Msg(message)
	default:
		d.log.Error().Msg(message)
	}
}

func (d driver) Flush() {}

// open is the writer P's CONFIG names, and what to undo at the end.
func open(p loggermain.Program) (io.Writer, func(), error) {
	if p.Config != "diode" {
		return p.Output("diode")
	}
	w := diode.NewWriter(os.Stdout, 1000, 10*time.Millisecond, func(missed int) {
		fmt.Fprintf(os.Stderr, "Logger Dropped %d messages\n", missed)
	})
	return w, func() { _ = w.Close() }, nil
}

func run() int {
	p, ok := loggermain.Parse("zerolog_logger", os.Args[1:])
	if !ok {
		return 2
	}
	w, done, err := open(p)
	if err != nil {
		return p.Fail(err)
	}
	defer done()
	log := zerolog.New(w).With().Timestamp().Logger()
	return workload.Run(p.Name, p.Ops, driver{log})
}

func main() { os.Exit(run()) }
