// flushcheck workloads, driver side, in Java (docs/workload.md): what
// flushcheck/workload.h is to C, with the marker protocol (docs/markers.md).
// A driver gives run() how its library logs a record and flushes; sleeps,
// markers, threads and the ends are done here. A driver is about 20 lines:
//
//   import org.slf4j.Logger;
//   import org.slf4j.LoggerFactory;
//
//   public final class LogbackDriver implements FlushcheckWorkload.Driver {
//     private static final Logger LOG = LoggerFactory.getLogger("app");
//
//     @Override public void log(String level, long n, String message) {
//       switch (level) {
//         case "debug": LOG.debug(message); break;
//         case "info": LOG.info(message); break;
//         case "warn": LOG.warn(message); break;
//         default: LOG.error(message);
//       }
//     }
//
//     @Override public void flush() { /* logback has no flush: an appender's immediateFlush */ }
//
//     public static void main(String[] args) {
//       System.exit(FlushcheckWorkload.run("logback_driver", args, new LogbackDriver()));
//     }
//   }
//
// The ends, each Java's own:
// - `return N`: run() returns N and main ends with System.exit(N), after its
//   own finally blocks: a Java main cannot return a status (returning from it
//   gives 0, once no non-daemon thread is left). System.exit runs the shutdown
//   hooks (java.lang.Runtime#exit), where Log4j2 and logback stop and flush.
// - `exit N`: System.exit(N) from run(): the hooks run, main's finally blocks
//   do not.
// - `_exit N`: Runtime.getRuntime().halt(N): "does not cause shutdown hooks to
//   be started" (java.lang.Runtime#halt).
// - `abort` and `raise SIG`: Java has neither (no API raises a signal in the
//   running JVM; sun.misc.Signal.raise is unsupported and the JVM uses some
//   signals itself). Each is refused, once its arguments are checked as in
//   every helper: "expects a native driver: Java has no abort". A signal from
//   outside is the harness's kill plan (--kill=TERM@marker:1).
// - `throw`: a RuntimeException("flushcheck workload: throw") out of run() on
//   the calling thread, after the threads are joined. Uncaught in main, the
//   JVM prints it ("Exception in thread "main" java.lang.RuntimeException:
//   flushcheck workload: throw" and the stack), the launcher's exit status is
//   1 once no non-daemon thread is left, and the shutdown hooks run.
//
// `threads K` runs the rest on K platform threads (new Thread): log() and
// flush() are called concurrently then.
//
// Markers: the harness's fds (FLUSHCHECK_MARKER_FD, FLUSHCHECK_RELEASE_FD)
// are inherited fds, one end of a socket pair, which public API cannot open
// (open(2) of /proc/self/fd/N fails on a socket with ENXIO). As Script.java,
// a java.io.FileDescriptor is made with its private int "fd" set, which needs
// `java --add-opens java.base/java.io=ALL-UNNAMED`: a workload with a marker
// run under flushcheck without it is refused with exit status 70, before
// anything runs. No other op needs it.
//
// JDK 11 or later, no dependencies: javac --release 11 FlushcheckWorkload.java
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

public final class FlushcheckWorkload {
  /** What only the driver knows: how its library logs record N at LEVEL ("debug", "info",
   *  "warn" or "error") with MESSAGE, and how it flushes. Called from K threads after
   *  `threads K`. */
  public interface Driver {
    void log(String level, long n, String message);

    void flush();
  }

  /** The bounds: what a workload may ask (a bigger one is refused, not truncated). */
  public static final int MAX_OPS = 100000;
  public static final int MAX_BYTES = 1 << 20;
  public static final int MAX_SLEEP_MS = 600000;
  public static final int MAX_THREADS = 64;

  private FlushcheckWorkload() {}

  // The ops, in an order the code relies on: steps, then threads, then ends.
  private enum Kind { LOG, FLUSH, SLEEP, MARKER, THREADS, RETURN, EXIT, UEXIT, ABORT, RAISE, THROW }

  // An op's arguments when they are not one number (whose bound, > 0, stands for them).
  private static final int NO_ARGUMENT = 0;
  private static final int LEVEL_AND_BYTES = -1;
  private static final int LABEL = -2;
  private static final int SIGNAL = -3;

  private static final class Def {
    final Kind kind;
    final int max;

    Def(Kind kind, int max) {
      this.kind = kind;
      this.max = max;
    }
  }

  private static final Map<String, Def> OPS = Map.ofEntries(
      Map.entry("log", new Def(Kind.LOG, LEVEL_AND_BYTES)),
      Map.entry("flush", new Def(Kind.FLUSH, NO_ARGUMENT)),
      Map.entry("sleep", new Def(Kind.SLEEP, MAX_SLEEP_MS)),
      Map.entry("marker", new Def(Kind.MARKER, LABEL)),
      Map.entry("threads", new Def(Kind.THREADS, MAX_THREADS)),
      Map.entry("return", new Def(Kind.RETURN, 255)),
      Map.entry("exit", new Def(Kind.EXIT, 255)),
      Map.entry("_exit", new Def(Kind.UEXIT, 255)),
      Map.entry("abort", new Def(Kind.ABORT, NO_ARGUMENT)),
      Map.entry("raise", new Def(Kind.RAISE, SIGNAL)),
      Map.entry("throw", new Def(Kind.THROW, NO_ARGUMENT)));

  private static final List<String> LEVELS = List.of("debug", "info", "warn", "error");

  // Linux's numbers (asm-generic/signal.h; Java has no table of them).
  private static final Map<String, Integer> SIGNALS = Map.ofEntries(
      Map.entry("HUP", 1), Map.entry("INT", 2), Map.entry("QUIT", 3), Map.entry("ILL", 4),
      Map.entry("TRAP", 5), Map.entry("ABRT", 6), Map.entry("BUS", 7), Map.entry("FPE", 8),
      Map.entry("KILL", 9), Map.entry("USR1", 10), Map.entry("SEGV", 11), Map.entry("USR2", 12),
      Map.entry("PIPE", 13), Map.entry("ALRM", 14), Map.entry("TERM", 15), Map.entry("CHLD", 17),
      Map.entry("CONT", 18), Map.entry("STOP", 19), Map.entry("TSTP", 20), Map.entry("TTIN", 21),
      Map.entry("TTOU", 22), Map.entry("XCPU", 24), Map.entry("XFSZ", 25), Map.entry("SYS", 31));
  // Signals whose default action stops the program: a driver stopped for good.
  private static final List<Integer> STOPS = List.of(19, 20, 21, 22);

  // The JVM decodes the arguments in sun.jnu.encoding (under LANG=C, ASCII: each other byte
  // becomes one U+FFFD), so encoding them back in it gives as many bytes as the argument had
  // (workload.h's measure of a label, and of the 79 bytes of an op it shows).
  private static final Charset ARGS =
      Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));

  private static final class Op {
    Kind kind;
    int n; // BYTES, MS, K, an exit status or a signal number
    String level; // log
    long record; // log: its record number
    String label; // marker
  }

  private static final class BadOp extends Exception {
    private static final long serialVersionUID = 1L;

    BadOp(String why) {
      super(why, null, false, false);
    }
  }

  /** SIG's number from a name with or without "SIG" (TERM, SIGKILL) or a number from 1 to
   *  64; -1 for anything else. */
  public static int signalNumber(String sig) {
    String name = sig.startsWith("SIG") ? sig.substring(3) : sig;
    Integer known = SIGNALS.get(name);
    if (known != null) return known;
    if (name.length() > 3) return -1;
    long v = count(name, 64);
    return v >= 1 ? (int) v : -1;
  }

  /** TEXT's value if it is ASCII digits no larger than MAX (leading zeros too, however
   *  many), checked digit by digit; -1 otherwise. */
  private static long count(String text, long max) {
    if (text.isEmpty()) return -1;
    long v = 0;
    for (int i = 0; i < text.length(); ++i) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') return -1;
      v = v * 10 + (c - '0');
      if (v > max) return -1;
    }
    return v;
  }

  /** `log LEVEL BYTES` into OP. */
  private static void logArgs(List<String> tokens, Op op) throws BadOp {
    if (!LEVELS.contains(tokens.get(1))) {
      throw new BadOp("expects a level: debug, info, warn or error");
    }
    op.level = tokens.get(1);
    long bytes = count(tokens.get(2), MAX_BYTES);
    if (bytes < 0) throw new BadOp("expects a size in bytes, at most 1048576");
    op.n = (int) bytes;
  }

  /** `raise SIG` into OP; a signal whose default action stops the program would stop the
   *  driver for good. Then refused: Java has no raise. */
  private static void signalArgs(String sig, Op op) throws BadOp {
    if ((op.n = signalNumber(sig)) <= 0) throw new BadOp("expects a signal name or number");
    if (STOPS.contains(op.n)) {
      throw new BadOp("expects a signal that ends or is ignored, not one that stops the program"
          + " (STOP, TSTP, TTIN, TTOU)");
    }
    throw new BadOp("expects a native driver: Java has no raise");
  }

  /** The arguments TOKENS[1..] of an op whose argument is MAX (as in OPS) into OP. */
  private static void args(int max, List<String> tokens, Op op) throws BadOp {
    if (max == LEVEL_AND_BYTES) {
      logArgs(tokens, op);
    } else if (max == LABEL) {
      if (tokens.get(1).getBytes(ARGS).length >= 64) {
        throw new BadOp("expects a label under 64 bytes");
      }
      op.label = tokens.get(1);
    } else if (max == SIGNAL) {
      signalArgs(tokens.get(1), op);
    } else if (op.kind == Kind.ABORT) {
      throw new BadOp("expects a native driver: Java has no abort");
    } else if (max != NO_ARGUMENT) {
      long v = count(tokens.get(1), max);
      if (v < 0) throw new BadOp("expects a number in range");
      if (op.kind == Kind.THREADS && v < 2) throw new BadOp("expects 2 to 64 threads");
      op.n = (int) v;
    }
  }

  /** The op TOKENS spell. */
  private static Op parseOp(List<String> tokens) throws BadOp {
    Def def = OPS.get(tokens.get(0));
    if (def == null) throw new BadOp("unknown operation");
    Op op = new Op();
    op.kind = def.kind;
    if (def.max == NO_ARGUMENT && tokens.size() != 1) throw new BadOp("takes no argument");
    if (def.max == LEVEL_AND_BYTES && tokens.size() != 3) {
      throw new BadOp("expects a level (debug, info, warn, error) and a size in bytes");
    }
    if (def.max != NO_ARGUMENT && def.max != LEVEL_AND_BYTES && tokens.size() != 2) {
      throw new BadOp("expects one argument");
    }
    args(def.max, tokens, op);
    return op;
  }

  /** The ops parsed so far. */
  private static final class Workload {
    final List<Op> ops;
    long records; // log ops
    boolean threaded; // a `threads` op is among them

    Workload(int room) {
      ops = new ArrayList<>(room);
    }

    /** Why the ops so far cannot take OP (an end not last, a marker after threads, two
     *  threads ops). In constant time: only the last op can be an end. */
    void order(Op op) throws BadOp {
      if (!ops.isEmpty() && ops.get(ops.size() - 1).kind.compareTo(Kind.RETURN) >= 0) {
        throw new BadOp("comes after the workload's end");
      }
      if (threaded && op.kind == Kind.THREADS) throw new BadOp("a second threads");
      if (threaded && op.kind == Kind.MARKER) {
        throw new BadOp("a marker after threads (every thread would stop at it)");
      }
    }

    /** The op TEXT spells appended (an empty one skipped). */
    void add(String text) throws BadOp {
      List<String> tokens = tokens(text);
      if (tokens.isEmpty()) return; // an empty op: "a;;b"
      if (ops.size() == MAX_OPS) throw new BadOp("more than 100000 ops");
      if (tokens.size() > 4) throw new BadOp("too many arguments");
      Op op = parseOp(tokens);
      order(op);
      if (op.kind == Kind.LOG) op.record = records++;
      threaded |= op.kind == Kind.THREADS;
      ops.add(op);
    }
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
  }

  /** TEXT's tokens, 5 at most: a fifth says there are too many. */
  private static List<String> tokens(String text) {
    List<String> out = new ArrayList<>(4);
    int i = 0;
    while (out.size() < 5) {
      while (i < text.length() && isBlank(text.charAt(i))) ++i;
      if (i == text.length()) break;
      int start = i;
      while (i < text.length() && !isBlank(text.charAt(i))) ++i;
      out.add(text.substring(start, i));
    }
    return out;
  }

  /** An op as written, without its leading blanks: at most 79 bytes, as the arguments
   *  had them. */
  private static byte[] shown(String text) {
    int i = 0;
    while (i < text.length() && isBlank(text.charAt(i))) ++i;
    byte[] bytes = text.substring(i).getBytes(ARGS);
    return Arrays.copyOf(bytes, Math.min(bytes.length, 79));
  }

  /** TEXT's ops (separated by ';' or newlines); BadOp "op K 'TEXT': WHY" for the first
   *  bad one, K its place among the ops before it, TEXT in the arguments' bytes. */
  private static Workload parse(String text, ByteArrayOutputStream why) {
    Workload w = new Workload(Math.min(text.length() / 2 + 1, MAX_OPS));
    int start = 0;
    for (int i = 0; i <= text.length(); ++i) {
      if (i < text.length() && text.charAt(i) != ';' && text.charAt(i) != '\n') continue;
      String piece = text.substring(start, i);
      try {
        w.add(piece);
      } catch (BadOp e) {
        why.writeBytes(("op " + w.ops.size() + " '").getBytes(StandardCharsets.UTF_8));
        why.writeBytes(shown(piece));
        why.writeBytes(("': " + e.getMessage()).getBytes(StandardCharsets.UTF_8));
        return null;
      }
      start = i + 1;
    }
    return w;
  }

  /** Record N's message for `log LEVEL BYTES`: "rec N", padded with " xxx..." to BYTES. */
  public static String message(long n, int bytes) {
    String head = "rec " + n;
    if (head.length() >= bytes) return head;
    char[] text = new char[bytes];
    head.getChars(0, head.length(), text, 0);
    text[head.length()] = ' ';
    Arrays.fill(text, head.length() + 1, bytes, 'x');
    return new String(text);
  }

  private static void sleep(long ms) {
    long deadline = System.nanoTime() + ms * 1_000_000L;
    for (long left = ms; left > 0; left = (deadline - System.nanoTime() + 999_999) / 1_000_000) {
      try {
        Thread.sleep(left);
      } catch (InterruptedException e) {
        // a sleep op sleeps its time: go on sleeping
      }
    }
  }

  /** One thread's share of OPS from FROM up to `threads` or the end: every flush, sleep and
   *  marker, and the records whose place among those ops' logs is THREAD mod THREADS. */
  private static void share(List<Op> ops, int from, Driver d, int thread, int threads) {
    long place = 0;
    for (int i = from; i < ops.size() && ops.get(i).kind.compareTo(Kind.THREADS) < 0; ++i) {
      Op op = ops.get(i);
      switch (op.kind) {
        case LOG:
          if (place++ % threads == thread) d.log(op.level, op.record, message(op.record, op.n));
          break;
        case FLUSH: d.flush(); break;
        case SLEEP: sleep(op.n); break;
        case MARKER: marker(op.label); break;
        default: break;
      }
    }
  }

  private static void join(Thread t) {
    for (;;) {
      try {
        t.join();
        return;
      } catch (InterruptedException e) {
        // the program ends after every thread is done: wait on
      }
    }
  }

  /** W's ops before `threads` on this thread, then the rest on its K threads, joined. */
  private static void runOps(Workload w, Driver d) {
    share(w.ops, 0, d, 0, 1);
    for (int at = 0; at < w.ops.size(); ++at) {
      if (w.ops.get(at).kind != Kind.THREADS) continue;
      int k = w.ops.get(at).n;
      int from = at + 1;
      Thread[] threads = new Thread[k];
      for (int t = 0; t < k; ++t) {
        final int thread = t;
        threads[t] = new Thread(() -> share(w.ops, from, d, thread, k), "flushcheck-" + t);
        threads[t].start();
      }
      for (Thread t : threads) join(t);
      return;
    }
  }

  /** Ends the program as OP (a workload's end) says; the status for `return N`. */
  private static int end(Op op) {
    switch (op.kind) {
      case EXIT: System.exit(op.n); return op.n;
      case UEXIT: Runtime.getRuntime().halt(op.n); return op.n;
      case THROW: throw new RuntimeException("flushcheck workload: throw");
      default: return op.n; // RETURN (ABORT and RAISE are refused)
    }
  }

  /** One line on fd 2 in one write, as the arguments' bytes. */
  private static void say(String name, byte[] what) {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    line.writeBytes(name.getBytes(ARGS));
    line.writeBytes(what);
    line.write('\n');
    try {
      new FileOutputStream(FileDescriptor.err).write(line.toByteArray());
    } catch (IOException e) {
      // stderr is gone: the status says it
    }
  }

  /** Runs the workload ARGS spell (joined with ';') with driver D: its log() for each
   *  record, its flush() for each flush. Returns what main should exit with (by
   *  System.exit): N for `return N`, 0 without an end, 64 for a bad workload (one line on
   *  stderr naming NAME, "NAME: bad workload: op 2 'log loud 3': expects a level: ...",
   *  before anything ran), 70 for a marker without --add-opens; `exit` and `_exit` end the
   *  program here, and `throw` throws a RuntimeException from here after every op ran. */
  public static int run(String name, String[] args, Driver d) {
    ByteArrayOutputStream why = new ByteArrayOutputStream();
    why.writeBytes(": bad workload: ".getBytes(StandardCharsets.UTF_8));
    Workload w = parse(String.join(";", args), why);
    if (w == null) {
      say(name, why.toByteArray());
      return 64;
    }
    if (w.ops.stream().anyMatch(op -> op.kind == Kind.MARKER)) {
      String missing = openMarkerFds();
      if (missing != null) {
        say(name, (": " + missing).getBytes(StandardCharsets.UTF_8));
        return 70;
      }
    }
    runOps(w, d);
    Op last = w.ops.isEmpty() ? null : w.ops.get(w.ops.size() - 1);
    return last != null && last.kind.compareTo(Kind.RETURN) >= 0 ? end(last) : 0;
  }

  // ---- the marker protocol (docs/markers.md) ----------------------------------------------

  private static FileOutputStream markerOut; // null: no harness, a marker is a no-op
  private static FileInputStream releaseIn; // null: a marker does not wait
  private static boolean opened;

  /** Opens the harness's fds, once; why it cannot (no --add-opens), or null. */
  private static synchronized String openMarkerFds() {
    if (opened) return null;
    int m = envFd("FLUSHCHECK_MARKER_FD");
    int r = envFd("FLUSHCHECK_RELEASE_FD");
    if (r < 0) r = envFd("FLUSHCHECK_GATE_FD");
    try {
      if (m >= 0) markerOut = new FileOutputStream(fd(m));
      if (m >= 0 && r >= 0) releaseIn = new FileInputStream(fd(r));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return "markers need java --add-opens java.base/java.io=ALL-UNNAMED (" + e + ")";
    }
    opened = true;
    return null;
  }

  /** The fd in variable NAME by marker.h's rule (flushcheck_parse_fd_): ASCII digits only,
   *  nothing else; an empty value is not a number. -1 otherwise. */
  private static int envFd(String name) {
    String v = System.getenv(name);
    if (v == null || v.isEmpty()) return -1;
    int fd = 0;
    for (int i = 0; i < v.length(); ++i) {
      char c = v.charAt(i);
      if (c < '0' || c > '9' || fd > 100000) return -1;
      fd = fd * 10 + (c - '0');
    }
    return fd;
  }

  /** A FileDescriptor for inherited fd N: its private field set (needs --add-opens). */
  private static FileDescriptor fd(int n) throws ReflectiveOperationException {
    FileDescriptor d = new FileDescriptor();
    Field f = FileDescriptor.class.getDeclaredField("fd");
    f.setAccessible(true);
    f.setInt(d, n);
    return d;
  }

  /** Writes LABEL and '\n' to the marker fd, then waits for the release byte; a no-op
   *  without the harness. A failure is ignored, as marker.h's: the harness is gone, the
   *  program goes on (OpenJDK's io_util_md.c: write loops over a partial write(2), and
   *  write and read retry EINTR). Without --add-opens, under the harness, it throws
   *  IllegalStateException. */
  public static synchronized void marker(String label) {
    String missing = openMarkerFds();
    if (missing != null) throw new IllegalStateException(missing);
    if (markerOut == null) return;
    try {
      markerOut.write((label + "\n").getBytes(ARGS));
      if (releaseIn != null) releaseIn.read();
    } catch (IOException e) {
      // the harness is gone: go on
    }
  }
}
