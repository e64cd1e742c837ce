// Script.java: flushcheck's script language in Java (docs/script.md, "In other
// runtimes"). Writes go through System.out.print / System.err.print, one call
// per op, as a Java program's do.
//
//   java --add-opens java.base/java.io=ALL-UNNAMED -cp DIR Script SCRIPT...
//   java -cp DIR Script --version          (prints "java 17.0.15")
//
// --add-opens is needed (the harness passes it: the language table, harness/programs/languages.cpp)
// for two private fields of java.io, both reached by reflection: the marker fd
// is an inherited fd number, which public API cannot open, so a
// java.io.FileDescriptor is made with its private int "fd" set; and a
// PrintStream's error flag is read from its private "trouble" field, because
// checkError() would flush. The second is needed by every script, markers or
// not: without the option a script is one line on stderr and exit 70
// (--version needs nothing).
//
// The whole script is parsed first; a bad one, or abort / raise (Java has no
// abort and no kill), is one line on stderr and exit 64. A failed print sets
// the PrintStream's error flag (PrintStream swallows the IOException): it is
// reported once per stream after the op, the script goes on, and it ends with
// System.exit(1) unless an ending op ended it first.
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

public class Script {
  static final String PROG = "Script.java";
  static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  static final long MAX_COUNT = 1_000_000_000L;

  // Argument shapes: N count, n optional count, S optional out|err, F optional
  // out|err|all, M buffer mode, L label. Ops are run by run() below.
  static final Map<String, String> SHAPES = Map.of(
      "write", "NS", "line", "NS", "flush", "F", "marker", "L", "sleep", "N",
      "buffer", "Mn", "exit", "n", "_exit", "n", "throw", "");
  static final Map<String, String> REFUSED = Map.of(
      "abort", "Java has no abort", "raise", "Java has no kill");

  /** One op as parsed: its index (from 0), its text, its arguments. */
  static final class Op {
    int index;
    String text;
    String name;
    long n;
    boolean hasCount; // an optional count was given
    String word = "out"; // stream, buffer mode or label
  }

  @SuppressWarnings("serial")
  static final class BadScript extends Exception {
    BadScript(String why) { super(why); }
  }

  // ---- parsing --------------------------------------------------------------

  static List<Op> parse(String source) throws BadScript {
    List<Op> ops = new ArrayList<>();
    for (String piece : source.split("[;\n]")) {
      Deque<String> tokens = new ArrayDeque<>();
      for (String t : piece.split("[ \t\r]+")) if (!t.isEmpty()) tokens.add(t);
      if (tokens.isEmpty()) continue; // an empty op: "a;;b" or a trailing ';'
      Op op = new Op();
      op.index = ops.size();
      op.text = piece.replaceFirst("^[ \t]+", "");
      op.text = op.text.substring(0, Math.min(op.text.length(), 95));
      op.name = tokens.poll();
      String why = REFUSED.containsKey(op.name) ? REFUSED.get(op.name)
          : SHAPES.containsKey(op.name) ? parseArgs(SHAPES.get(op.name), tokens, op)
          : "unknown operation";
      if (why != null) throw new BadScript("op " + (op.index + 1) + " '" + op.text + "': " + why);
      ops.add(op);
    }
    return ops;
  }

  /** Fills OP from ARGS by SHAPES; why they are wrong, or null. */
  static String parseArgs(String shapes, Deque<String> args, Op op) {
    for (char shape : shapes.toCharArray()) {
      String a = args.peek();
      // An optional count is there when it looks like a number ("exit -1" is a bad count).
      boolean absent = a == null || (shape == 'n' && !a.matches("[-+0-9].*"));
      if ("nSF".indexOf(shape) >= 0 && absent) continue;
      String why = parseArg(shape, args.poll(), op);
      if (why != null) return why;
    }
    if (!args.isEmpty()) return "too many arguments";
    return op.name.equals("buffer") ? checkBuffer(op) : null;
  }

  @SuppressWarnings("fallthrough")
  static String parseArg(char shape, String a, Op op) {
    op.word = shape == 'N' || shape == 'n' ? op.word : a;
    switch (shape) {
      case 'n': op.hasCount = true; // falls through
      case 'N':
        op.n = count(a);
        return op.n >= 0 ? null : "expects a count (0 to " + MAX_COUNT + ")";
      case 'S': return oneOf(a, "out", "err") ? null : "stream must be out or err";
      case 'F': return oneOf(a, "out", "err", "all") ? null : "stream must be out, err or all";
      case 'M': return oneOf(a, "none", "line", "full") ? null : "mode must be full, line or none";
      case 'L':
        if (a == null) return "expects a label";
        return bytes(a).length >= 64 ? "label too long" : null; // bytes, as script.c
      default: throw new IllegalStateException("shape " + shape);
    }
  }

  /** A decimal count from 0 to MAX_COUNT, or -1. */
  static long count(String a) {
    if (a == null || !a.matches("[0-9]+")) return -1;
    String digits = a.replaceFirst("^0+(?=.)", "");
    long n = digits.length() > 10 ? -1 : Long.parseLong(digits);
    return n <= MAX_COUNT ? n : -1;
  }

  // The JVM decodes the arguments in sun.jnu.encoding (under LANG=C, ASCII: each
  // other byte becomes one U+FFFD), so encoding a label back in it gives as many
  // bytes as the argument had (script.c's measure), '?' for such a byte.
  static final Charset ARGS = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));

  static byte[] bytes(String label) {
    return label.getBytes(ARGS);
  }

  static boolean oneOf(String a, String... words) {
    return a != null && List.of(words).contains(a);
  }

  static String checkBuffer(Op op) {
    if (op.word.equals("none") && op.hasCount) return "none takes no size";
    return op.hasCount && op.n == 0 ? "a size must be at least 1" : null;
  }

  // ---- output and its errors --------------------------------------------------

  static final FileOutputStream STDERR_FD = new FileOutputStream(FileDescriptor.err);
  static final Set<PrintStream> reported = Collections.newSetFromMap(new IdentityHashMap<>());
  static Field trouble; // PrintStream's private error flag
  static boolean failed;

  /** One line on fd 2, written raw so that System.err's state stays as it is. */
  static void say(String line) {
    try {
      STDERR_FD.write((PROG + ": " + line + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // fd 2 may be the stream that failed
    }
  }

  static void put(Op op, String end) {
    String s = String.valueOf(ALPHABET.charAt(op.index % 62)).repeat((int) op.n) + end;
    (op.word.equals("err") ? System.err : System.out).print(s);
  }

  static void flush(Op op) {
    if (!op.word.equals("err")) System.out.flush();
    if (!op.word.equals("out")) System.err.flush();
  }

  /** Reports a stream whose error flag the op set, once per stream. */
  static void check(Op op) throws IllegalAccessException {
    check(op, "System.out", System.out);
    check(op, "System.err", System.err);
  }

  static void check(Op op, String name, PrintStream s) throws IllegalAccessException {
    if (reported.contains(s) || !trouble.getBoolean(s)) return;
    reported.add(s);
    failed = true;
    say("op " + (op.index + 1) + " '" + op.text + "': " + name
        + ": error flag set (PrintStream swallows the IOException)");
  }

  // OpenJDK System.java newPrintStream: System.out starts as a PrintStream over
  // a BufferedOutputStream of 128 bytes, autoflush on. The table's replacements.
  // PrintStream javadoc: autoflush flushes whenever a byte array is written, so
  // "line" flushes after every print, not only at '\n'. The old System.out is
  // flushed first (what it holds would be lost), its failure reported.
  static void buffer(Op op) throws IllegalAccessException {
    System.out.flush();
    check(op, "System.out", System.out);
    OutputStream fd = new FileOutputStream(FileDescriptor.out);
    int size = op.hasCount ? (int) op.n : 8192;
    if (op.word.equals("none")) System.setOut(new PrintStream(fd, true));
    else System.setOut(new PrintStream(new BufferedOutputStream(fd, size), op.word.equals("line")));
  }

  // ---- markers and running ------------------------------------------------------

  static FileOutputStream markerOut; // null: no harness, a marker is a no-op
  static FileInputStream releaseIn;

  /** The reflection this runtime needs (see the header), done before any op runs. */
  static void setUp(List<Op> ops) throws ReflectiveOperationException {
    trouble = PrintStream.class.getDeclaredField("trouble");
    trouble.setAccessible(true);
    int m = envFd("FLUSHCHECK_MARKER_FD");
    if (m < 0 || ops.stream().noneMatch(op -> op.name.equals("marker"))) return;
    int r = envFd("FLUSHCHECK_RELEASE_FD", "FLUSHCHECK_GATE_FD");
    markerOut = new FileOutputStream(fd(m));
    releaseIn = r < 0 ? null : new FileInputStream(fd(r));
  }

  /** The fd in the first of NAMES that holds one, or -1: marker.h's rule (ASCII
   *  digits only, nothing else; an empty value is not a number). */
  static int envFd(String... names) {
    for (String name : names) {
      int fd = parseFd(System.getenv(name));
      if (fd >= 0) return fd;
    }
    return -1;
  }

  /** marker.h's flushcheck_parse_fd_: a decimal fd, or -1. */
  static int parseFd(String v) {
    if (v == null || !v.matches("[0-9]+")) return -1;
    int n = 0;
    for (char c : v.toCharArray()) {
      if (n > 100000) return -1;
      n = n * 10 + (c - '0');
    }
    return n;
  }

  static FileDescriptor fd(int n) throws ReflectiveOperationException {
    FileDescriptor d = new FileDescriptor();
    Field f = FileDescriptor.class.getDeclaredField("fd");
    f.setAccessible(true);
    f.setInt(d, n);
    return d;
  }

  /** The marker protocol (docs/markers.md): raw write and read, nothing flushed.
   *  OpenJDK io_util.c, io_util_md.c: writeBytes loops over a partial write(2);
   *  handleWrite and handleRead retry EINTR. With no release fd (marker.h) it
   *  does not wait. */
  static void marker(String label) {
    if (markerOut == null) return;
    try {
      markerOut.write(bytes(label + "\n"));
      if (releaseIn != null) releaseIn.read();
    } catch (IOException e) {
      // the harness is gone: go on, as marker.h's flushcheck_marker does
    }
  }

  static void run(Op op) throws InterruptedException, IllegalAccessException {
    // statements, not switch expressions: Java 11 (bullseye's) has none
    switch (op.name) {
      case "write": put(op, ""); return;
      case "line": put(op, "\n"); return;
      case "flush": flush(op); return;
      case "marker": marker(op.word); return;
      case "sleep": Thread.sleep(op.n); return;
      case "buffer": buffer(op); return;
      case "exit": System.exit((int) op.n); return;
      case "_exit": Runtime.getRuntime().halt((int) op.n); return;
      case "throw": throw new RuntimeException("an uncaught exception");
      default: throw new IllegalStateException(op.name);
    }
  }

  /** The script of ARGS, parsed; none or a bad one ends the program (64). */
  static List<Op> load(String[] args) {
    if (args.length == 0) {
      say("usage: " + PROG + " SCRIPT... (ops separated by ';', see docs/script.md)");
      System.exit(64);
    }
    try {
      return parse(String.join(";", args));
    } catch (BadScript e) {
      say("bad script: " + e.getMessage());
      System.exit(64);
      return null;
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("--version")) {
      System.out.println("java " + Runtime.version().version().stream()
          .map(String::valueOf).collect(Collectors.joining(".")));
      return;
    }
    List<Op> ops = load(args);
    try {
      setUp(ops);
    } catch (ReflectiveOperationException | RuntimeException e) {
      say("needs --add-opens java.base/java.io=ALL-UNNAMED (" + e + ")");
      System.exit(70);
    }
    for (Op op : ops) {
      try {
        run(op);
      } catch (OutOfMemoryError e) {
        say("op " + (op.index + 1) + " '" + op.text + "': out of memory");
        System.exit(70);
      }
      check(op);
    }
    if (failed) System.exit(1);
  }
}
