"""stdio_driver.c's twin in Python: LEVEL MESSAGE lines by sys.stdout.write,
`flush` by sys.stdout.flush (docs/workload.md)."""
import sys

import flushcheck_workload

flushcheck_workload.run(
    sys.argv[1:],
    lambda level, n, message: sys.stdout.write(f"{level.upper()} {message}\n"),
    sys.stdout.flush,
    prog="stdio_driver.py")
