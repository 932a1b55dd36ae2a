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

# Every function of the mech module and of the stdlib modules is in mechlua(3).
my $api = `groff -man -Tascii -P-c -P-b -P-u '${\ source_dir()}/man/mechlua.3' 2>/dev/null`;
my $names = run_mechlua(args => ['-e', <<'LUA'])->{out};
local out = {}
for _, m in ipairs{ "mech", "slidercrank", "tap" } do
  for k in pairs(require(m)) do out[#out + 1] = m .. "." .. k end
end
table.sort(out)
print(table.concat(out, "\n"))
LUA
my @names = split /\n/, $names;
ok(@names >= 10, 'the modules have functions to document');
for my $n (@names) {
    like($api, qr/^\s+\Q$n\E\b/m, "mechlua(3) documents $n");
}

done_testing();
