// A property gate's driver for Log4j 2 (2.19, Debian 12's liblog4j2-java),
// for tests/loggers/log4j2.property.toml:
//
//   java --add-opens java.base/java.io=ALL-UNNAMED -cp CLASSES:DIR:JARS Log4j2Logger CONFIG workload OP...
//
// CONFIG names the configuration DIR/log4j2_CONFIG.xml (on the class path,
// beside this file): console (a Console appender on SYSTEM_OUT) | file (a
// File appender on $FLUSHCHECK_LOG_DIR/app.log) | async_file (that File
// appender behind an Async appender). Each record is one Logger.debug/info/
// warn/error on logger "app"; Log4j's shutdown hook stops the appenders at
// System.exit (`return N`, `exit N`, `throw`) and at SIGTERM. Log4j 2 has no
// flush on a Logger: `flush` does nothing.
//
//   javac --release 11 -d CLASSES -cp /usr/share/java/log4j-api.jar targets/runtimes/FlushcheckWorkload.java \
//     targets/loggers/java/LoggerMain.java targets/loggers/java/Log4j2Logger.java
//   JARS=/usr/share/java/log4j-api.jar:/usr/share/java/log4j-core.jar
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

public final class Log4j2Logger {
  public static void main(String[] args) {
    LoggerMain program = LoggerMain.parse("Log4j2Logger", args);
    program.useConfigFile("log4j2_", "log4j2.configurationFile");
    Logger log = LogManager.getLogger("app");
    program.run(log::debug, log::info, log::warn, log::error, () -> {});
  }
}
