# SPDX-License-Identifier: MIT
# The layout of the bindings holds: the stdlib's C modules include nothing of vm/ but
# lmodule.h; lsystem.c (the handles) knows none of the files that register methods and entity
# kinds through it (lsys_build.c, lsys_run.c, lfe.c), so that they do not call each other in
# a circle.
use strict;
use warnings;
use Test::More;
use MechTest;

my $src = source_dir();
my %vm_header = map { m{([^/]+)$}; $1 => 1 } glob("$src/vm/*.h");
ok(keys %vm_header > 5, 'the headers of vm/: ' . scalar(keys %vm_header));

for my $f (sort glob("$src/stdlib/*.c")) {
    (my $name = $f) =~ s{^\Q$src\E/}{};
    my @vm = grep { $vm_header{$_} && $_ ne 'lmodule.h' } slurp($f) =~ /^#include "([^"]+)"/mg;
    is("@vm", '', "$name includes no header of vm/ but lmodule.h");
}

my $handles = slurp("$src/vm/lsystem.c");
my @includes = $handles =~ /^#include "([^"]+)"/mg;
is(join(' ', grep { /^(lsys_|lfe)/ } @includes), '', 'lsystem.c includes no header of the files that register through it');
my @calls = $handles =~ /\b(lfe_\w+|lsys_to_body|lsys_read_laws|lsys_scale_check|lmech_open_(?:sys_build|sys_run|fe))\b/g;
is("@calls", '', 'lsystem.c calls nothing of lsys_build.c, lsys_run.c or lfe.c');
for my $h (qw(lsystem.h lmodule.h)) {
    my @in = grep { /^(lsys_|lfe)/ } slurp("$src/vm/$h") =~ /^#include "([^"]+)"/mg;
    is("@in", '', "$h includes none of them either");
}

done_testing();
