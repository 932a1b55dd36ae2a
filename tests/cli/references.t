# SPDX-License-Identifier: MIT
# Every reference in the man pages, the README, the stdlib, the scenario scripts and the
# comments of mech/, vm/ and the tests resolves within the repository: no citation of files outside
# it (the project's specification notes "spec 000 Eq. 4", DESIGN.md, the shared folder),
# and every key such as [Zheng & Wang, Eq. 4] names an entry of mechlua-references(7).
use strict;
use warnings;
use File::Find;
use Test::More;
use MechTest;

my $src = source_dir();
my @files = (glob("$src/man/*.[1-9]"), "$src/README.md");
find(sub { push @files, $File::Find::name if -f $_ && /\.(lua|c|h|geo|t|pm)$/ },
    map { "$src/$_" } qw(stdlib scripts mech vm tests));
@files = grep { !m{/tests/cli/references\.t$} } @files; # this test names what it looks for
ok(@files > 20, 'the files to check: ' . scalar @files);

my $refs = slurp("$src/man/mechlua-references.7");
my %entry = map { $_ => 1 } $refs =~ /^\.B (?:\d{3} )?(\[[^\]]+\])$/mg;
ok(keys %entry >= 20, 'mechlua-references(7) lists the papers (' . scalar(keys %entry) . ')');

my (@outside, @unresolved);
for my $f (@files) {
    my $text = slurp($f);
    (my $name = $f) =~ s{^\Q$src\E/}{};
    my $n = 0;
    for my $line (split /\n/, $text) {
        $n++;
        push @outside, "$name:$n: $1" while $line =~ /(spec 0\d*|DESIGN\.md|shared\/)/gi;
        while ($line =~ /\[([A-Z][A-Za-z.&' -]*?(?: \d{4})?)(?:, [^\]]*)?\]/g) {
            my $key = $1;
            next unless $key =~ /&| et al\.|\d{4}|paper/;
            push @unresolved, "$name:$n: [$key]" unless $entry{"[$key]"};
        }
    }
}
is(join("\n", @outside), '', 'no reference to files outside the repository');
is(join("\n", @unresolved), '', 'every [key] is an entry of mechlua-references(7)');

# The page is installed with the others and copied into the build tree, where help() finds it.
like(slurp("$src/CMakeLists.txt"), qr/MECHLUA_MAN7 .*DESTINATION \$\{CMAKE_INSTALL_MANDIR\}\/man7/s,
    'mechlua-references(7) is installed');
ok(-f build_dir() . '/share/man/man7/mechlua-references.7', 'and copied into the build tree');

done_testing();
