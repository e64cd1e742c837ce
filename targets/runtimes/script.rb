#!/usr/bin/ruby
# script.rb: flushcheck's script language in Ruby, writing through
# $stdout.write / $stderr.write as a Ruby program does (docs/script.md, "In
# other runtimes").
#
#   script.rb SCRIPT...      (several arguments are joined with ';')
#   script.rb --version      (one line: "ruby 3.1.2")
#
# The whole script is parsed first: a bad op is one line on stderr and exit
# 64. A failed output call is one line on stderr; the script goes on and
# exits 1.

PROG = 'script.rb'
ALPHABET = [*'A'..'Z', *'a'..'z', *'0'..'9'].join
SIGNALS = %w[TERM INT KILL ABRT HUP USR1 USR2 PIPE].freeze

class BadScript < StandardError; end

# ---- parsing: each argument shape takes the next token (or not) ----------
# A shape returns the value or raises BadScript; an optional shape returns
# nil for a token that is not its own (it is then left alone).
module Shapes
  module_function

  def count(tok)
    ok = tok&.match?(/\A[0-9]+\z/) && tok.to_i <= 1_000_000_000
    raise BadScript, 'expects a count (0 to 1000000000)' unless ok

    tok.to_i
  end

  # A sign starts a number too: "exit -1" is a bad count, not a stream.
  def optional_count(tok)
    tok&.match?(/\A[0-9+-]/) ? count(tok) : nil
  end

  def stream(tok, allowed = %w[out err])
    return 'out' if tok.nil?
    raise BadScript, "stream must be #{allowed.join(' or ')}" unless allowed.include?(tok)

    tok
  end

  def flush_stream(tok)
    stream(tok, %w[out err all])
  end

  def mode(tok)
    raise BadScript, 'mode must be none, line or full' unless %w[none line full].include?(tok)

    tok
  end

  def label(tok)
    raise BadScript, 'expects a label' if tok.nil?
    raise BadScript, 'label too long' if tok.bytesize >= 64 # bytes, as script.c

    tok
  end

  def signal(tok)
    name = tok&.delete_prefix('SIG')
    return name if SIGNALS.include?(name)
    return name.to_i if name&.match?(/\A[0-9]+\z/) && name.to_i.between?(1, 64)

    raise BadScript, "expects a signal name (#{SIGNALS.join(' ')}) or number"
  end
end

OPTIONAL = %i[optional_count stream flush_stream].freeze

# The values of TOKS (the op's arguments) by SHAPES.
def parse_args(shapes, toks)
  toks = toks.dup
  values = shapes.map do |shape|
    value = Shapes.send(shape, toks.first)
    toks.shift if !toks.empty? && (!OPTIONAL.include?(shape) || !value.nil?)
    value
  end
  raise BadScript, 'too many arguments' unless toks.empty?

  values
end

# ---- the ops ---------------------------------------------------------------

def io(stream)
  stream == 'err' ? $stderr : $stdout
end

# Ruby IO#sync: $stdout starts with sync false (Ruby's own buffer; on a
# terminal every write goes out at once); $stderr starts with sync true.
def op_write(k, n, stream, newline = '')
  io(stream).write(ALPHABET[k % 62] * n + newline)
end

def op_line(k, n, stream)
  op_write(k, n, stream, "\n")
end

def op_flush(_k, stream)
  (stream == 'all' ? [$stdout, $stderr] : [io(stream)]).each(&:flush)
end

# Ruby IO#sync=: true for "none", false for "full".
def op_buffer(_k, how, _size)
  $stdout.sync = (how == 'none')
end

# The fd in the first of NAMES that holds one, or -1: marker.h's rule (ASCII
# digits only, nothing else; an empty value is not a number).
def env_fd(*names)
  fds = names.map { |name| ENV[name]&.match?(/\A[0-9]+\z/) ? ENV[name].to_i : -1 }
  fds.find { |fd| fd.between?(0, 1_000_009) } || -1 # marker.h's limit
end

# docs/markers.md: the label on the marker fd, then one byte back. A failure
# is ignored, as marker.h's: the harness is gone, the script goes on
# (IO.for_fd raises ArgumentError for an fd that is not open).
def op_marker(_k, label)
  fd = env_fd('FLUSHCHECK_MARKER_FD')
  return if fd.negative?

  line = "#{label}\n".b
  out = IO.for_fd(fd, 'w', autoclose: false)
  line = line.byteslice(again { out.syswrite(line) }..) until line.empty?
  release = env_fd('FLUSHCHECK_RELEASE_FD', 'FLUSHCHECK_GATE_FD')
  again { IO.for_fd(release, 'r', autoclose: false).sysread(1) } unless release.negative?
rescue SystemCallError, IOError, ArgumentError
  nil
end

# The block, again while it fails with EINTR.
def again
  yield
rescue Errno::EINTR
  retry
end

def op_sleep(_k, ms)
  sleep(ms / 1000.0)
end
def op_exit(_k, code)
  exit(code || 0)
end
def op_uexit(_k, code)
  exit!(code || 0)
end
def op_throw(_k)
  raise('throw: an uncaught exception')
end

# Ruby has no abort that raises SIGABRT (Kernel#abort exits 1): the spec's
# Process.kill(:ABRT), and the same wait for it as raise.
def op_abort(k)
  op_raise(k, 'ABRT')
end

def op_raise(_k, sig)
  Process.kill(sig, Process.pid)
  sleep 1
end

OPS = {
  'write' => [%i[count stream], :op_write],
  'line' => [%i[count stream], :op_line],
  'flush' => [%i[flush_stream], :op_flush],
  'buffer' => [%i[mode optional_count], :op_buffer],
  'marker' => [%i[label], :op_marker],
  'sleep' => [%i[count], :op_sleep],
  'exit' => [%i[optional_count], :op_exit],
  '_exit' => [%i[optional_count], :op_uexit],
  'abort' => [[], :op_abort],
  'throw' => [[], :op_throw],
  'raise' => [%i[signal], :op_raise]
}.freeze

# Why Ruby refuses a well-formed op (docs/script.md, the buffer table).
def refused(name, values)
  return 'Ruby has no line-buffered switch for $stdout' if name == 'buffer' && values[0] == 'line'
  return "Ruby's IO#sync= takes no buffer size" if name == 'buffer' && values[1]

  nil
end

# [k, text, function, values] for every op of SOURCE, or BadScript.
def parse(source)
  ops = []
  source.split(/[;\n]/).each do |text|
    text = text.sub(/\A[ \t]+/, '')
    name, *toks = text.split(/[ \t\r]+/).reject(&:empty?) # as script.c
    next if name.nil?

    where = "op #{ops.size + 1} '#{text}': "
    raise BadScript, "#{where}unknown operation" unless OPS.key?(name)

    shapes, fn = OPS[name]
    begin
      values = parse_args(shapes, toks)
    rescue BadScript => e
      raise BadScript, where + e.message
    end
    why = refused(name, values)
    raise BadScript, where + why if why

    ops << [ops.size, text, fn, values]
  end
  ops
end

# One line on fd 2, unbuffered ($stderr is sync).
def say(k, text, what)
  $stderr.syswrite("#{PROG}: op #{k + 1} '#{text}': #{what}\n")
rescue SystemCallError, IOError
  nil
end

# One line on fd 2, and the script will exit 1.
def report(k, text, err)
  $failed = true
  say(k, text, "#{err.class}: #{err.message}")
end

def main
  if ARGV == ['--version']
    puts "ruby #{RUBY_VERSION}"
    return 0
  end
  if ARGV.empty?
    warn "#{PROG}: usage: #{PROG} SCRIPT... (ops separated by ';', see docs/script.md)"
    return 64
  end
  begin
    ops = parse(ARGV.join(';'))
  rescue BadScript => e
    warn "#{PROG}: bad script: #{e.message}"
    return 64
  end
  ops.each do |k, text, fn, values|
    send(fn, k, *values)
  rescue SystemCallError, IOError => e
    report(k, text, e)
  rescue NoMemoryError # docs/script.md: 70, out of memory
    say(k, text, 'out of memory')
    return 70
  end
  $failed ? 1 : 0
end

exit main
