# SPDX-License-Identifier: MIT
# scripts/demo.lua: what it prints, and that its CSV holds consistent kinematics.
use strict;
use warnings;
use Test::More;
use MechTest;

my $dir = scratch_dir();
my $version = project_version();
my $r = run_mechlua(args => [source_dir() . '/scripts/demo.lua', "$dir/out"]);
is($r->{status}, 0, 'the demo runs') or diag($r->{err});
like($r->{out}, qr/^mechlua \Q$version\E: /, 'it prints the mechlua version');
like($r->{out}, qr/ written to \Q$dir\E\/out\/demo_slider_crank\.csv$/m, 'it says where its output went');

my $csv = slurp("$dir/out/demo_slider_crank.csv");
ok(defined $csv, 'the CSV exists');
ok(!-e "$dir/out/demo_slider_crank.csv.tmp", 'no temporary file is left');
my @lines = split /\n/, $csv // '';
like($lines[0], qr/^# mechlua \Q$version\E, scripts\/demo\.lua$/, 'the header names the program version');
like($lines[2], qr/^# crank=0\.05 m, rod=0\.12 m, speed=5000 rpm/, 'the header gives the parameters');
is($lines[3], 't [s],theta [rad],slider.x [m],slider.vx [m/s],slider.ax [m/s^2]', 'column names');

my @rows = map { [split /,/] } grep { !/^[#t]/ } @lines;
is(scalar @rows, 2401, 'two revolutions at 1e-5 s: 2401 rows');

# Checks independent of the script's formulas: the extreme positions r + l and l - r,
# and velocity/acceleration against central differences of the tabulated columns.
my ($r_c, $l) = (0.05, 0.12);
my $omega = 5000 * 2 * 3.14159265358979 / 60;
cmp_ok(abs($rows[0][2] - ($r_c + $l)), '<', 1e-12, 'x = r + l at theta = 0');
my ($imid) = grep { abs($rows[$_][1] - 3.14159265358979) < 0.003 } 0 .. $#rows;
cmp_ok(abs($rows[$imid][2] - ($l - $r_c)), '<', 1e-5, 'x = l - r near theta = pi');
cmp_ok(abs($rows[0][4] + $omega**2 * ($r_c + $r_c**2 / $l)), '<', 1e-6 * $omega**2,
    'a = -omega^2 (r + r^2/l) at theta = 0');

# dt = 1e-5 s is 0.0052 rad of crank: the central difference error is of order
# (omega dt)^2 / 6 ~ 5e-6 of the amplitude, so 1e-4 of the peak value is a safe bound.
my ($worst_v, $worst_a) = (0, 0);
for my $i (1 .. $#rows - 1) {
    my $h = $rows[$i + 1][0] - $rows[$i - 1][0];
    my $dv = ($rows[$i + 1][2] - $rows[$i - 1][2]) / $h - $rows[$i][3];
    my $da = ($rows[$i + 1][3] - $rows[$i - 1][3]) / $h - $rows[$i][4];
    $worst_v = abs($dv) if abs($dv) > $worst_v;
    $worst_a = abs($da) if abs($da) > $worst_a;
}
cmp_ok($worst_v, '<', 1e-4 * $omega * ($r_c + $r_c**2 / $l), 'velocity is the derivative of position');
cmp_ok($worst_a, '<', 1e-4 * $omega**2 * ($r_c + $r_c**2 / $l), 'acceleration is the derivative of velocity');

# An output folder that cannot be created is an error, and nothing is written.
$r = run_mechlua(args => [source_dir() . '/scripts/demo.lua', '/proc/mechlua-cannot-write']);
is($r->{status}, 1, 'an unwritable output folder fails');
like($r->{err}, qr/cannot create '\/proc\/mechlua-cannot-write'/, 'naming the folder');

done_testing();
