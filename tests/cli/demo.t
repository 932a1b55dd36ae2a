# SPDX-License-Identifier: MIT
# scripts/demo.lua: what it prints, and that its CSV holds the simulated slider-crank
# consistent with the closed form and with itself.
use strict;
use warnings;
use Test::More;
use MechTest;

my $dir = scratch_dir();
my $version = project_version();
my $r = run_mechlua(args => [source_dir() . '/scripts/demo.lua', "$dir/out"]);
is($r->{status}, 0, 'the demo runs') or diag($r->{err});
unlike($r->{err}, qr/mechlua: warning/, 'the demo gives no plausibility warning');
like($r->{out}, qr/^mechlua \Q$version\E: ideal slider-crank/, 'it prints the mechlua version');
like($r->{out}, qr/ written to \Q$dir\E\/out\/slider_crank_ideal\.csv$/m, 'it says where its output went');
my ($dx) = $r->{out} =~ /position within (\S+) m/;
check_figures($r->{out}, 4, 'the demo');
cmp_ok($dx // 1, '<', 1e-8, 'the simulated slider follows the closed form');

my $csv = slurp("$dir/out/slider_crank_ideal.csv");
ok(defined $csv, 'the CSV exists');
ok(!grep({ /\.tmp/ } glob("$dir/out/*")), 'no temporary file is left');
my @lines = split /\n/, $csv // '';
like($lines[0], qr/^# mechlua \Q$version\E, script .*demo\.lua$/, 'the header names the program version');
like($csv, qr/^# parameter speed_rpm = 5000$/m, 'the header gives the parameters');
like($csv, qr/^# driver motor: body angle of crank, from 0 at constant speed 523\.5987756$/m,
    'and the model');
my ($names) = grep { /^t \[s\]/ } @lines;
is($names, 't [s],crank.phi [rad],slider.x [m],slider.vx [m/s],slider.ax [m/s^2],motor.torque [N m],'
    . 'piston_pin.f [N],guide.fn [N],system.energy [J]', 'column names with units');

my @rows = map { [split /,/] } grep { /^[0-9]/ } @lines;
is(scalar @rows, 2401, 'two revolutions at 1e-5 s: 2401 rows');

# Checks independent of the script: the extreme positions r + l and l - r, and velocity
# and acceleration against central differences of the tabulated columns.
my ($rc, $l) = (0.05, 0.12);
my $omega = 5000 * 2 * 3.14159265358979 / 60;
cmp_ok(abs($rows[0][2] - ($rc + $l)), '<', 1e-12, 'x = r + l at theta = 0');
my ($imid) = grep { abs($rows[$_][1] - 3.14159265358979) < 0.003 } 0 .. $#rows;
cmp_ok(abs($rows[$imid][2] - ($l - $rc)), '<', 1e-5, 'x = l - r near theta = pi');
cmp_ok(abs($rows[0][4] + $omega**2 * ($rc + $rc**2 / $l)), '<', 1e-6 * $omega**2,
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
cmp_ok($worst_v, '<', 1e-4 * $omega * ($rc + $rc**2 / $l), 'velocity is the derivative of position');
cmp_ok($worst_a, '<', 1e-4 * $omega**2 * ($rc + $rc**2 / $l), 'acceleration is the derivative of velocity');
# Newton on the slider: the pin pushes it with m a (the guide takes the normal part)
my $m = 0.14;
my $worst_f = 0;
for my $row (@rows) {
    my $d = abs($row->[6] - sqrt(($m * $row->[4])**2 + ($row->[7] - $m * 9.81)**2));
    $worst_f = $d if $d > $worst_f;
}
cmp_ok($worst_f, '<', 1e-6 * 2719, 'piston pin force = |m a - guide force - weight|');

# Same script, same machine: the same bits.
my $r2 = run_mechlua(args => [source_dir() . '/scripts/demo.lua', "$dir/again"]);
is(slurp("$dir/again/slider_crank_ideal.csv"), $csv, 'a second run writes an identical file');

# An output folder that cannot be created is an error.
$r = run_mechlua(args => [source_dir() . '/scripts/demo.lua', '/proc/mechlua-cannot-write']);
is($r->{status}, 1, 'an unwritable output folder fails');
like($r->{err}, qr/cannot create '\/proc\/mechlua-cannot-write'/, 'naming the folder');

done_testing();
