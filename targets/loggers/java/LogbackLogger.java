// A property gate's driver for logback (1.2.11, with SLF4J 1.7.32: Debian
// 12's liblogback-java and libslf4j-java), for
// tests/loggers/logback.property.toml:
//
//   java --add-opens java.base/java.io=ALL-UNNAMED -cp CLASSES:DIR:JARS LogbackLogger CONFIG workload OP...
//
// CONFIG names the configuration DIR/logback_CONFIG.xml (on the class path,
// beside this file): file (a FileAppender on $FLUSHCHECK_LOG_DIR/app.log) |
// async_file (that FileAppender behind an AsyncAppender, its defaults, and
// a <shutdownHook/>) | async_file_no_hook (the same without the shutdown
// hook: logback's default). Each record is one Logger.debug/info/warn/error
// on logger "app" through SLF4J. logback has no flush: `flush` does nothing.
//
//   javac --release 11 -d CLASSES -cp /usr/share/java/slf4j-api.jar targets/runtimes/FlushcheckWorkload.java \
//     targets/loggers/java/LoggerMain.java targets/loggers/java/LogbackLogger.java
//   JARS=/usr/share/java/slf4j-api.jar:/usr/share/java/logback-core.jar:/usr/share/java/logback-classic.jar
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public final class LogbackLogger {
  public static void main(String[] args) {
    LoggerMain program = LoggerMain.parse("LogbackLogger", args);
    program.useConfigFile("logback_", "logback.configurationFile");
    Logger log = LoggerFactory.getLogger("app");
    program.run(log::debug, log::info, log::warn, log::error, () -> {});
  }
}
