# Loaded by `flushcheck doctor` through PERL5OPT=-Mflushcheck_autoflush to try
# the fix it proposes: `$| = 1` (perlvar: a flush after every print to STDOUT).
$| = 1;
1;
