# SPDX-License-Identifier: MIT
# The layout of libmech holds: its files include each other in no circle (a file and its
# private header count as one), the simulator sees a system only through the model interface,
# and no stage calls the system's life cycle (finalize) back.
use strict;
use warnings;
use Test::More;
use MechTest;

my $src = source_dir();
my (%unit, %uses);
for my $f (glob("$src/mech/*.c"), glob("$src/mech/*.h")) {
    my ($u) = $f =~ m{/(\w+)\.[ch]$} or next;
    $unit{$u} = 1;
    $uses{$u}{$_} = 1 for grep { $_ ne $u } slurp($f) =~ /^#include "(\w+)\.h"/mg;
}
ok(keys %unit > 30, 'the files of mech/: ' . scalar(keys %unit) . ' units');

# depth-first search; a unit met again while still on the path closes a circle
my (%state, @path, @circles);
my $visit;
$visit = sub {
    my ($u) = @_;
    $state{$u} = 1;
    push @path, $u;
    for my $v (sort grep { $unit{$_} } keys %{ $uses{$u} || {} }) {
        if (($state{$v} // 0) == 1) {
            my $i = $#path;
            $i-- while $path[$i] ne $v;
            push @circles, join(' -> ', @path[$i .. $#path], $v);
        } elsif (!$state{$v}) {
            $visit->($v);
        }
    }
    pop @path;
    $state{$u} = 2;
};
$visit->($_) for sort keys %unit;
is(scalar(@circles), 0, 'the files of mech/ include each other in no circle')
    or diag(join("\n", map { "circle: $_" } @circles));

# the simulator and the Lyapunov estimate know a system only through model.h
my @internals = qw(registry dynamics contact clearance assemble fe_impl constraints start kind);
for my $f (qw(sim.c lyapunov.c)) {
    my %in = map { $_ => 1 } slurp("$src/mech/$f") =~ /^#include "(\w+)\.h"/mg;
    ok($in{model}, "$f uses the model interface");
    is(join(' ', grep { $in{$_} } @internals), '', "$f includes none of the system's internals");
}

# finalize (the life cycle) is called by the model that prepares a run, no stage
my @callers;
for my $f (sort glob("$src/mech/*.c")) {
    my ($name) = $f =~ m{/(\w+\.c)$};
    next if $name eq 'system.c';
    push @callers, $name if slurp($f) =~ /\bmech_system_finalize\s*\(/;
}
is("@callers", 'system_model.c', 'only system_model.c calls mech_system_finalize in mech/');

done_testing();
