// What the Java logger programs of the property gates share in main, as
// targets/loggers/logger_main.hpp is for the C++ ones: their arguments,
// `PROGRAM CONFIG workload OP...` (docs/workload.md), the configuration file
// a CONFIG names, and the workload's levels mapped to the library's four
// calls. Each program keeps what is its library's own: its CONFIGs, its
// logger and its flush:
//
//   LoggerMain program = LoggerMain.parse("LogbackLogger", args);
//   program.useConfigFile("logback_", "logback.configurationFile");
//   Logger log = LoggerFactory.getLogger("app");
//   program.run(log::debug, log::info, log::warn, log::error, () -> {});
import java.util.Arrays;
import java.util.function.Consumer;

final class LoggerMain {
  private final String name;
  private final String config;
  private final String[] ops;

  private LoggerMain(String name, String config, String[] ops) {
    this.name = name;
    this.config = config;
    this.ops = ops;
  }

  /** Program NAME's arguments ARGS when they are `CONFIG workload OP...`; otherwise exits 2
   *  after "usage: NAME CONFIG workload OP..." on stderr. */
  static LoggerMain parse(String name, String[] args) {
    if (args.length < 2 || !args[1].equals("workload")) {
      System.err.println("usage: " + name + " CONFIG workload OP...");
      System.exit(2);
    }
    return new LoggerMain(name, args[0], Arrays.copyOfRange(args, 2, args.length));
  }

  /** CONFIG: which of its library's setups the program logs through. */
  String config() {
    return config;
  }

  /** Exits 2 after "NAME: WHY" on stderr: the library cannot start. */
  void fail(String why) {
    System.err.println(name + ": " + why);
    System.exit(2);
  }

  /** Sets system property PROPERTY, where the library looks for its configuration, to
   *  PREFIX + CONFIG + ".xml", a resource on the class path; fails when there is none. Before
   *  the library's first logger: it reads the property once. */
  void useConfigFile(String prefix, String property) {
    String file = prefix + config + ".xml";
    if (LoggerMain.class.getClassLoader().getResource(file) == null) {
      fail("unknown CONFIG " + config + ": no " + file + " on the class path");
    }
    System.setProperty(property, file);
  }

  /** Runs the workload and exits with its status (FlushcheckWorkload.run): each record
   *  through the library's call for its level, DEBUG, INFO, WARN or ERROR, each `flush`
   *  through FLUSH. */
  void run(Consumer<String> debug, Consumer<String> info, Consumer<String> warn,
           Consumer<String> error, Runnable flush) {
    System.exit(FlushcheckWorkload.run(name, ops, new Levels(debug, info, warn, error, flush)));
  }

  /** A driver that logs through one call a level. */
  private static final class Levels implements FlushcheckWorkload.Driver {
    private final Consumer<String> debug;
    private final Consumer<String> info;
    private final Consumer<String> warn;
    private final Consumer<String> error;
    private final Runnable flush;

    Levels(Consumer<String> debug, Consumer<String> info, Consumer<String> warn,
           Consumer<String> error, Runnable flush) {
      this.debug = debug;
      this.info = info;
      this.warn = warn;
      this.error = error;
      this.flush = flush;
    }

    @Override
    public void log(String level, long n, String message) {
      switch (level) {
        case "debug": debug.accept(message); break;
        case "info": info.accept(message); break;
        case "warn": warn.accept(message); break;
        default: error.accept(message);
      }
    }

    @Override
    public void flush() {
      flush.run();
    }
  }
}
