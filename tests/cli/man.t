# SPDX-License-Identifier: MIT
# The man page renders without groff warnings and documents what --help lists.
use strict;
use warnings;
use Test::More;
use MechTest;

my $page = source_dir() . '/man/mechlua.1';
ok(-f $page, 'man/mechlua.1 exists');

my $version = project_version();
for my $p (glob(source_dir() . '/man/*.[1-9]')) {
    my $out = `groff -man -Tutf8 -ww -z '$p' 2>&1`;
    is($?, 0, "groff renders $p");
    is($out, '', "groff -ww prints no warnings for $p");
    like(slurp($p), qr/^\.TH MECHLUA \d \S+ "mechlua \Q$version\E"/m, "$p carries the current version");
}

my $src = slurp($page);
for my $section ('NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS', 'THE REPL', 'ENVIRONMENT', 'FILES',
    'EXIT STATUS', 'EXAMPLES', 'SEE ALSO') {
    like($src, qr/^\.SH "?\Q$section\E"?$/m, "section $section");
}

# Every option --help lists is described in the page.
my $help = run_mechlua(args => ['--help'])->{out};
my @opts = map { split /, / } $help =~ /^  (-[^\s,]*(?:, -\S+)?)/mg;
is(scalar @opts, 11, 'help lists eleven option spellings');
my $text = `groff -man -Tascii -P-c -P-b -P-u '$page' 2>/dev/null`;
for my $opt (@opts) {
    like($text, qr/^\s+(?:-\S+, )?\Q$opt\E(?=[\s,])/m, "the page documents $opt");
}
like($text, qr/MECHLUA_HISTORY/, 'the page documents MECHLUA_HISTORY');

# Every field of the mech module and of the stdlib modules is documented on its page.
my %page_of = (mech => 'mechlua.3', slidercrank => 'mechlua.3', benchmarks => 'mechlua.3', tap => 'mechlua.3',
    plot => 'mechlua-plot.3', analysis => 'mechlua-analysis.3', fft => 'mechlua-analysis.3',
    spec000 => 'mechlua-fe.3');
for my $module (sort keys %page_of) {
    my $page = $page_of{$module};
    my $text = `groff -man -Tascii -P-c -P-b -P-u '${\ source_dir()}/man/$page' 2>/dev/null`;
    my $names = run_mechlua(args => ['-e', "local out = {} for k in pairs(require('$module')) do "
        . "out[#out + 1] = '$module.' .. k end table.sort(out) print(table.concat(out, '\\n'))"])->{out};
    my @names = split /\n/, $names;
    ok(@names >= 1, "module $module has fields to document");
    for my $n (@names) {
        like($text, qr/^\s+\Q$n\E\b/m, "$page documents $n");
    }
}

done_testing();
