# SPDX-License-Identifier: MIT
# The scenario example of the README runs and does what it says.
use strict;
use warnings;
use Test::More;
use MechTest;

my $readme = slurp(source_dir() . '/README.md');
my ($code) = $readme =~ /^```lua\n(.*?)^```$/ms;
ok(defined $code, 'the README has a Lua example');
my $lines = () = ($code // '') =~ /\n/g;
cmp_ok($lines, '<=', 12, 'the example is about ten lines');

my $dir = scratch_dir();
spew("$dir/example.lua", $code // '');
my $r = run_mechlua(args => ['example.lua'], cwd => $dir);
is($r->{status}, 0, 'the example runs') or diag($r->{err});
my $csv = slurp("$dir/out/slider.csv") // '';
my @rows = grep { /^\d/ } split /\n/, $csv;
is(scalar @rows, 73, 'it writes one row per 5 degrees');
is($rows[0], '0,0.170000,0.0000,-19419.4', 'outer dead centre: x = r + l, a = -omega^2 (r + r^2/l)');
like($rows[36], qr/^180,0\.070000,/, 'inner dead centre: x = l - r');

done_testing();
