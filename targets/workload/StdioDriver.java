// stdio_driver.c's twin in Java (docs/workload.md): LEVEL MESSAGE lines
// through a 4096-byte BufferedOutputStream (glibc's stdio buffer on a pipe)
// on fd 1, `flush` by its flush(); synchronized, as a logger is: the
// workload's threads log at once after `threads`. A shutdown hook flushes it,
// as Log4j2's and logback's do theirs: at `return N` and `exit N`
// (System.exit) and at `throw` (the JVM's end after an uncaught exception),
// not at `_exit` (Runtime.halt runs no hook) or a kill.
//
//   javac --release 11 -cp RUNTIMES -d OUT StdioDriver.java
//   java -cp OUT StdioDriver WORKLOAD...   (markers: java --add-opens java.base/java.io=ALL-UNNAMED)
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

public final class StdioDriver implements FlushcheckWorkload.Driver {
  private final OutputStream out =
      new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 4096);

  private StdioDriver() {
    Runtime.getRuntime().addShutdownHook(new Thread(this::flush, "StdioDriver flush"));
  }

  @Override
  public synchronized void log(String level, long n, String message) {
    String line = level.toUpperCase(Locale.ROOT) + " " + message + "\n";
    try {
      out.write(line.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // a logger goes on when its output fails
    }
  }

  @Override
  public synchronized void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      // as log()
    }
  }

  public static void main(String[] args) {
    System.exit(FlushcheckWorkload.run("StdioDriver.java", args, new StdioDriver()));
  }
}
