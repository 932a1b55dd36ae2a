# SPDX-License-Identifier: MIT
# The man page renders without groff warnings and documents what --help lists.
use strict;
use warnings;
use Test::More;
use Cwd ();
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
    spec000 => 'mechlua-fe.3', spec004 => 'mechlua-contact.3', output => 'mechlua.3',
    spec001 => 'mechlua-spatial.3', sweep => 'mechlua-sweep.3', sweepcore => 'mechlua-sweep.3',
    mpi => 'mechlua-sweep.3', (-e build_dir() . '/lib/mechlua/sweepmpi.so' ? (sweepmpi => 'mechlua-sweep.3') : ()));
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

# help() names the page by a command that opens it: from the build tree and from an
# installed copy that is not at the configured prefix (a staged DESTDIR install), man -l
# with the absolute path of the page beside that program.
my $build = Cwd::abs_path(build_dir()); # the program resolves its own path
like(run_mechlua(args => ['-e', 'help()'])->{out},
    qr/mechlua\(3\): man -l \Q$build\E\/share\/man\/man3\/mechlua\.3$/m, 'help() from the build tree: man -l');
SKIP: {
    skip 'cmake is not available', 2 if system('cmake --version >/dev/null 2>&1') != 0;
    my $dest = Cwd::abs_path(scratch_dir());
    is(system("DESTDIR='$dest' cmake --install '$build' >/dev/null 2>&1"), 0, 'a staged install');
    my ($prog) = glob("$dest/*/bin/mechlua $dest/*/*/bin/mechlua");
    my $out = $prog ? run_mechlua(program => $prog, args => ['-e', 'help()'])->{out} : '';
    like($out, qr/mechlua\(3\): man -l \Q$dest\E\/\S+\/man3\/mechlua\.3$/m,
        'help() from a relocated install: man -l and the page beside it');
}

done_testing();
