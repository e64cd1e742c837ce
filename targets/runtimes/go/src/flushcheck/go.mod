// The module of flushcheck's Go helpers (docs/workload.md): flushcheck/marker
// and flushcheck/workload, the same import paths in GOPATH mode (GOPATH=
// targets/runtimes/go) and in module mode, where a driver's go.mod says
//
//	require flushcheck v0.0.0
//	replace flushcheck => /path/to/targets/runtimes/go/src/flushcheck
module flushcheck

go 1.19
