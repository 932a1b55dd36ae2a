# SPDX-License-Identifier: MIT
# The man page renders without groff warnings and documents what --help lists.
use strict;
use warnings;
use Test::More;
use MechTest;

my $page = source_dir() . '/man/mechlua.1';
ok(-f $page, 'man/mechlua.1 exists');

my $out = `groff -man -Tutf8 -ww -z '$page' 2>&1`;
is($?, 0, 'groff renders the page');
is($out, '', 'groff -ww prints no warnings');

my $src = slurp($page);
my $version = project_version();
like($src, qr/^\.TH MECHLUA 1 \S+ "mechlua \Q$version\E"/m, 'the page carries the current version');
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

done_testing();
