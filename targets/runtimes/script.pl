#!/usr/bin/perl
# script.pl: flushcheck's script language in Perl 5, writing through
# print STDOUT / print STDERR as a Perl program does (docs/script.md, "In
# other runtimes").
#
#   script.pl SCRIPT...      (several arguments are joined with ';')
#   script.pl --version      (one line: "perl 5.36.0")
#
# The whole script is parsed first: a bad op is one line on stderr and exit
# 64. A failed output call is one line on stderr; the script goes on and
# exits 1.
use strict;
use warnings;
use IO::Handle;    # STDOUT->flush, STDOUT->autoflush
use POSIX ();

my $PROG     = 'script.pl';
my $ALPHABET = join '', 'A' .. 'Z', 'a' .. 'z', '0' .. '9';
my @SIGNALS  = qw(TERM INT KILL ABRT HUP USR1 USR2 PIPE);
my $failed   = 0;

# ---- parsing: each argument shape takes the next token (or not) ----------
# A shape returns the value, or dies with the reason; an optional shape
# returns undef for a token that is not its own (it is then left alone).

sub count {
    my ($tok) = @_;
    die "expects a count (0 to 1000000000)\n"
        unless defined $tok && $tok =~ /\A[0-9]+\z/ && $tok <= 1_000_000_000;
    return $tok + 0;
}

# A sign starts a number too: "exit -1" is a bad count, not a stream.
sub optional_count { defined $_[0] && $_[0] =~ /\A[0-9+-]/ ? count($_[0]) : undef }

sub stream_of {
    my ($tok, @allowed) = @_;
    return 'out' unless defined $tok;
    die 'stream must be ' . join(' or ', @allowed) . "\n" unless grep { $_ eq $tok } @allowed;
    return $tok;
}

sub stream       { stream_of($_[0], qw(out err)) }
sub flush_stream { stream_of($_[0], qw(out err all)) }

sub mode {
    my ($tok) = @_;
    die "mode must be none, line or full\n" unless defined $tok && $tok =~ /\A(none|line|full)\z/;
    return $tok;
}

sub label {
    my ($tok) = @_;
    die "expects a label\n" unless defined $tok;
    die "label too long\n" if length $tok >= 64;    # bytes: @ARGV is not decoded
    return $tok;
}

sub signal {
    my ($tok) = @_;
    my $name = defined $tok ? $tok =~ s/\ASIG//r : '';
    return $name if grep { $_ eq $name } @SIGNALS;
    return $name + 0 if $name =~ /\A[0-9]+\z/ && $name > 0 && $name < 65;
    die "expects a signal name (@SIGNALS) or number\n";
}

my %OPTIONAL = map { $_ => 1 } \&optional_count, \&stream, \&flush_stream;

# The values of the op's arguments @TOKS by the shapes @$SHAPES.
sub parse_args {
    my ($shapes, @toks) = @_;
    my @values;
    for my $shape (@$shapes) {
        my $value = $shape->($toks[0]);
        shift @toks if defined $toks[0] && (!$OPTIONAL{$shape} || defined $value);
        push @values, $value;
    }
    die "too many arguments\n" if @toks;
    return @values;
}

# ---- the ops: each returns the name of a call that failed, or '' ---------

sub payload { substr($ALPHABET, $_[0] % 62, 1) x $_[1] }

# perlvar $|: STDOUT is line buffered on a terminal, block buffered
# otherwise; STDERR is unbuffered.
sub op_write {
    my ($k, $n, $stream, $newline) = @_;
    my $s = payload($k, $n) . ($newline // '');
    my $ok = $stream eq 'err' ? print STDERR $s : print STDOUT $s;
    return $ok ? '' : 'print';
}

sub op_line { op_write(@_[0 .. 2], "\n") }

sub op_flush {
    my ($k, $stream) = @_;
    my %handles = (out => [\*STDOUT], err => [\*STDERR], all => [\*STDOUT, \*STDERR]);
    my $failed_call = '';
    for my $fh (@{ $handles{$stream} }) {
        $failed_call = 'flush' unless defined $fh->flush;
    }
    return $failed_call;
}

# IO::Handle autoflush (perlvar $|): on for "none", off for "full".
sub op_buffer { STDOUT->autoflush($_[1] eq 'none' ? 1 : 0); '' }

# The fd in the first of the variables @_ that holds one, or -1: marker.h's
# rule (ASCII digits only, nothing else, up to its limit 1000009; an empty
# value is not a number).
sub env_fd {
    for my $value (map { $ENV{$_} } @_) {
        return $value + 0 if defined $value && $value =~ /\A[0-9]+\z/ && $value <= 1_000_009;
    }
    return -1;
}

# CALL, again while it fails with EINTR: its result, undef on a failure.
sub retry {
    my ($call) = @_;
    for (;;) {
        my $r = $call->();
        return $r if defined $r || !$!{EINTR};
    }
}

# docs/markers.md: the label on the marker fd, then one byte back. A failure
# is ignored, as marker.h's: the harness is gone, the script goes on.
sub op_marker {
    my ($k, $label) = @_;
    my $fd      = env_fd('FLUSHCHECK_MARKER_FD');
    my $release = env_fd(qw(FLUSHCHECK_RELEASE_FD FLUSHCHECK_GATE_FD));
    return '' if $fd < 0;
    for (my $line = "$label\n"; length $line;) {
        my $n = retry(sub { POSIX::write($fd, $line, length $line) }) // 0;
        return '' if $n <= 0;    # "0 but true" too
        substr($line, 0, $n) = '';
    }
    retry(sub { POSIX::read($release, my $byte, 1) }) if $release >= 0;
    return '';
}

sub op_sleep { select(undef, undef, undef, $_[1] / 1000); '' }    # perlfunc select
sub op_exit  { exit($_[1] // 0) }
sub op_uexit { POSIX::_exit($_[1] // 0) }
sub op_abort { POSIX::abort() }
sub op_throw { die "script.pl: throw: an uncaught die\n" }

sub op_raise {
    kill($_[1], $$) or return 'kill';
    select(undef, undef, undef, 1);
    return '';
}

my %OPS = (
    write  => [[\&count, \&stream], \&op_write],
    line   => [[\&count, \&stream], \&op_line],
    flush  => [[\&flush_stream],    \&op_flush],
    buffer => [[\&mode, \&optional_count], \&op_buffer],
    marker => [[\&label],          \&op_marker],
    sleep  => [[\&count],          \&op_sleep],
    exit   => [[\&optional_count], \&op_exit],
    _exit  => [[\&optional_count], \&op_uexit],
    abort  => [[], \&op_abort],
    throw  => [[], \&op_throw],
    raise  => [[\&signal], \&op_raise],
);

# Why Perl refuses a well-formed op (docs/script.md, the buffer table).
sub refused {
    my ($name, @values) = @_;
    return "Perl has no line-buffered switch for STDOUT" if $name eq 'buffer' && $values[0] eq 'line';
    return "Perl's autoflush takes no buffer size" if $name eq 'buffer' && defined $values[1];
    return '';
}

# [k, text, function, values] for every op of $SOURCE; dies with the reason.
sub parse {
    my ($source) = @_;
    my @ops;
    for my $text (split /[;\n]/, $source) {
        $text =~ s/\A[ \t]+//;
        my ($name, @toks) = grep { length } split /[ \t\r]+/, $text;    # as script.c
        next unless defined $name;
        my $where = sprintf "op %d '%s': ", @ops + 1, $text;
        die "${where}unknown operation\n" unless $OPS{$name};
        my ($shapes, $fn) = @{ $OPS{$name} };
        my @values = eval { parse_args($shapes, @toks) };
        die $where . $@ if $@;
        my $why = refused($name, @values);
        die "$where$why\n" if $why;
        push @ops, [scalar @ops, $text, $fn, \@values];
    }
    return @ops;
}

# One line on fd 2, unbuffered, and the script will exit 1.
sub report {
    my ($k, $text, $call, $errno) = @_;
    $failed = 1;
    my $msg = sprintf "%s: op %d '%s': %s: %s (errno %d)\n", $PROG, $k + 1, $text, $call,
        $errno, $errno + 0;
    POSIX::write(2, $msg, length $msg);
}

sub main {
    if (@ARGV == 1 && $ARGV[0] eq '--version') {
        printf "perl %vd\n", $^V;
        return 0;
    }
    unless (@ARGV) {
        print STDERR "$PROG: usage: $PROG SCRIPT... (ops separated by ';', see docs/script.md)\n";
        return 64;
    }
    my @ops = eval { parse(join ';', @ARGV) };
    if ($@) {
        print STDERR "$PROG: bad script: $@";
        return 64;
    }
    for my $op (@ops) {
        my ($k, $text, $fn, $values) = @$op;
        my $call = $fn->($k, @$values);
        report($k, $text, $call, $!) if $call;
    }
    return $failed ? 1 : 0;
}

exit main();
