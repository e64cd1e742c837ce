// A property gate's driver for java.util.logging (JDK 17, Debian 12's
// openjdk-17), for tests/loggers/jul.property.toml:
//
//   java --add-opens java.base/java.io=ALL-UNNAMED -cp CLASSES JulLogger CONFIG workload OP...
//
// CONFIG: console (the root logger's ConsoleHandler, on System.err, as
// JUL's default logging.properties sets it up, with its level lowered to
// ALL). The format is SimpleFormatter's, "%4$s %5$s%n" (LEVEL message).
// Records go through logger "app" at FINE (debug), INFO, WARNING and
// SEVERE (error); `flush` is the handler's flush(). JUL's LogManager
// closes its handlers in a shutdown hook (LogManager.Cleaner).
//
// A FileHandler is left out: it keeps a lock file, app.log.lck, beside
// app.log, and a gate's watch = ["app.log"] matches both names.
//
//   javac --release 11 -d CLASSES targets/runtimes/FlushcheckWorkload.java \
//     targets/loggers/java/LoggerMain.java targets/loggers/java/JulLogger.java
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

public final class JulLogger {
  public static void main(String[] args) {
    LoggerMain program = LoggerMain.parse("JulLogger", args);
    if (!program.config().equals("console")) {
      program.fail("unknown CONFIG " + program.config() + " (console)");
    }
    System.setProperty("java.util.logging.SimpleFormatter.format", "%4$s %5$s%n");
    Handler console = null;
    for (Handler h : Logger.getLogger("").getHandlers())
      if (h instanceof ConsoleHandler) console = h;
    if (console == null) program.fail("the root logger has no ConsoleHandler");
    console.setLevel(Level.ALL);
    Logger log = Logger.getLogger("app");
    log.setLevel(Level.ALL);
    program.run(log::fine, log::info, log::warning, log::severe, console::flush);
  }
}
