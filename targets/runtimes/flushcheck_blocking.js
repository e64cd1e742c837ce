// Loaded by `flushcheck doctor` through NODE_OPTIONS=--require to try the fix
// it proposes: stdout and stderr written synchronously (Node docs, process.md
// "A note on process I/O"; the handle's setBlocking is uv_stream_set_blocking).
for (const s of [process.stdout, process.stderr])
  if (s._handle && s._handle.setBlocking) s._handle.setBlocking(true);
