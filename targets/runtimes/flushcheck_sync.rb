# Loaded by `flushcheck doctor` through RUBYOPT=-rflushcheck_sync to try the
# fix it proposes: `$stdout.sync = true` (Ruby docs, IO#sync=).
$stdout.sync = true
