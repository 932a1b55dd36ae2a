# SPDX-License-Identifier: MIT
# Every reproducer the fuzzer kept (tests/fuzz/repro/*.lua) is a regression test: it runs
# to its end (a Lua error is fine: most of them raise one now), with no signal, no hang
# and, on the sanitizer build, no sanitizer report.  Reproducers of findings not fixed yet
# (listed in tests/fuzz/known) are TODO tests.
use strict;
use warnings;
use Test::More;
use MechTest;

my $src = source_dir();
my %known;
for my $line (split /\n/, slurp("$src/tests/fuzz/known") // '') {
    $known{$1} = 1 if $line =~ /^(\w+)\t/;
}
my @repro = sort glob("$src/tests/fuzz/repro/*.lua");
cmp_ok(scalar @repro, '>=', 10, 'the fuzzer kept its reproducers');
for my $file (@repro) {
    my ($name) = $file =~ m{([^/]+)\.lua$};
    my ($id) = $name =~ /^([A-Z]\d+)_/;
    my $r = run_mechlua(args => [$file], cwd => scratch_dir(), timeout => 60);
    my $report = $r->{err} =~ /(ERROR: \w+Sanitizer[^\n]*|runtime error[^\n]*|Direct leak[^\n]*)/ ? $1 : '';
    my $well = !$r->{signal} && !$r->{timed_out} && $report eq '' && $r->{status} <= 1;
    TODO: {
        local $TODO = $id && $known{$id} ? "known finding $id (tests/fuzz/known)" : undef;
        ok($well, "$name ends well") or diag(
            $r->{timed_out} ? 'hangs' : $r->{signal} ? "signal $r->{signal}" : $report || "exit $r->{status}: $r->{err}");
    }
}
done_testing();
