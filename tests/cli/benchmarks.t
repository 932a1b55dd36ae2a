# SPDX-License-Identifier: MIT
# scripts/benchmark_a.lua and scripts/benchmark_b.lua in quick mode: what they print, the
# files they write, and their numbers checked from the CSV files against the closed form
# and the geometry of the joints, independently of the scripts' own summaries.
use strict;
use warnings;
use Test::More;
use MechTest;

my $dir = scratch_dir();
my $version = project_version();
my $pi = 4 * atan2(1, 1);

sub max_of { my $m = shift; for (@_) { $m = $_ if $_ > $m } return $m }
sub min_of { my $m = shift; for (@_) { $m = $_ if $_ < $m } return $m }

# ---- benchmark A, half a revolution -----------------------------------------------------
{
    my $out = "$dir/a";
    my $r = run_mechlua(args => [source_dir() . '/scripts/benchmark_a.lua', $out, 'quick']);
    is($r->{status}, 0, 'benchmark A runs in quick mode') or diag($r->{err});
    unlike($r->{err}, qr/mechlua: warning/, 'benchmark A gives no plausibility warning');
    like($r->{out}, qr/^mechlua \Q$version\E: benchmark A, .* 0\.5 revolutions \(quick\)$/m,
        'it prints the mechlua version and the quick run');
    like($r->{out}, qr/^  601 rows each written to \Q$out\E\/benchmark_a_clearance\.csv, \Q$out\E\/benchmark_a_ideal\.csv$/m,
        'it says where its CSV files went');
    check_figures($r->{out}, 8, 'benchmark A');
    ok(!grep({ /\.tmp/ } glob("$out/*")), 'no temporary file is left');

    my $run = read_csv("$out/benchmark_a_clearance.csv");
    my $ideal = read_csv("$out/benchmark_a_ideal.csv");
    for my $csv ($run, $ideal) {
        like($csv->{header}, qr/^# mechlua \Q$version\E, script .*benchmark_a\.lua$/m, 'the header names the version');
        like($csv->{header}, qr/^# parameter K = 33500000000\.0$/m, 'and the contact stiffness used');
        like($csv->{header}, qr/^# parameter clearance = 0\.0005$/m, 'and the clearance');
        like($csv->{header}, qr/^# parameter revolutions = 0\.5$/m, 'and the length of the run');
        is($csv->{rows}, 601, 'half a revolution at 5000 rpm every 1e-5 s: 601 rows');
    }
    like($run->{header}, qr/^# joint pin: revolute, slider \(0, 0\) - rod \(0\.06, 0\), clearance: bearing radius 0\.01 m, journal radius 0\.0095 m; lankarani_nikravesh K 3\.35e\+10 n 1\.5 restitution 0\.9/m,
        'the clearance run has the journal in its bearing');
    like($ideal->{header}, qr/^# joint pin: revolute, slider \(0, 0\) - rod \(0\.06, 0\), Lagrange/m,
        'the reference run the ideal pin');

    # The ideal run against the closed form x(phi), a(phi) at constant speed w.  DOPRI5 at
    # rtol 1e-9 holds the position to ~1e-10 m; the acceleration comes from the dynamics
    # solve with the Baumgarte terms of that residual: 1e-8 of its 19419 m/s^2 peak is
    # 2e-4 m/s^2, more than ten times the 1.2e-5 seen.
    my ($rc, $l, $w) = (0.05, 0.12, 5000 * $pi / 30);
    my ($dx, $da) = (0, 0);
    my $c = $ideal->{col};
    for my $i (0 .. $ideal->{rows} - 1) {
        my $th = $c->{'crank.phi'}[$i];
        my $u = $rc * sin($th);
        my $s = sqrt($l**2 - $u**2);
        my $x = $rc * cos($th) + $s;
        my $d2 = -$rc * cos($th) - ($rc**2 * cos($th)**2 - $u * $u) / $s - $u**2 * $rc**2 * cos($th)**2 / $s**3;
        $dx = max_of($dx, abs($c->{'slider.x'}[$i] - $x));
        $da = max_of($da, abs($c->{'slider.ax'}[$i] - $w**2 * $d2));
    }
    cmp_ok($dx, '<', 1e-8, "the ideal slider follows the closed form (position within $dx m)");
    cmp_ok($da, '<', 1e-8 * $w**2 * ($rc + $rc**2 / $l), "and its acceleration ($da m/s^2)");

    # The journal: contact forces never pull, and the penetration is |e| - c.
    my $j = $run->{col};
    my $cl = 0.5e-3;
    cmp_ok(min_of(@{ $j->{'pin.fn'} }), '>=', 0, 'the normal contact force is never negative');
    my ($worst, $fn_open) = (0, 0);
    for my $i (0 .. $run->{rows} - 1) {
        my $e = sqrt($j->{'pin.exb'}[$i]**2 + $j->{'pin.eyb'}[$i]**2);
        my $pen = $e > $cl ? $e - $cl : 0;
        $worst = max_of($worst, abs($j->{'pin.penetration'}[$i] - $pen));
        $fn_open = max_of($fn_open, $j->{'pin.fn'}[$i]) if $pen == 0;
    }
    cmp_ok($worst, '<', 1e-15, 'the penetration is the eccentricity beyond the clearance');
    is($fn_open, 0, 'and there is no force without it');
    # Starting centred, the journal strikes its bearing at about 4.4 m/s; the Hertz energy
    # balance m v^2 / 2 = 2 K d^2.5 / 5 with the slider's 0.14 kg gives d = 0.2 c (the rod
    # adds to the mass, the damping takes some away): 0.3 c leaves room for both.
    my $pen = max_of(@{ $j->{'pin.penetration'} });
    cmp_ok($pen, '<', 0.3 * $cl, sprintf('the penetration stays below 0.3 of the clearance (%.3f)', $pen / $cl));
    cmp_ok($pen, '>', 0.1 * $cl, 'and the first impact goes as deep as its energy says');

    # The summary against the files.
    my ($impacts, $ratio_pen) = $r->{out} =~ /^  impacts: (\d+); max penetration \S+ mm = (\S+) of the clearance/m;
    is($impacts, $j->{'pin.impacts'}[-1], "the impacts printed ($impacts) are those counted in the CSV");
    cmp_ok($impacts, '>', 5, 'the journal strikes its bearing several times in half a revolution');
    cmp_ok(abs(($ratio_pen // 0) - $pen / $cl), '<', 6e-4, 'the penetration printed is the CSV maximum');
    # The peak acceleration and the ideal's at that time (same report times in both runs).
    my ($ipk, $apk) = (0, 0);
    for my $i (0 .. $run->{rows} - 1) {
        ($ipk, $apk) = ($i, abs($j->{'slider.ax'}[$i])) if abs($j->{'slider.ax'}[$i]) > $apk;
    }
    my $ratio = $j->{'slider.ax'}[$ipk] / $c->{'slider.ax'}[$ipk];
    my ($printed) = $r->{out} =~ /^  peak slider acceleration \S+ m\/s\^2 at .*: ratio (\S+) /m;
    cmp_ok(abs(($printed // 0) - $ratio), '<', 0.006, "the peak's ratio to the ideal printed ($printed) is "
        . sprintf('%.3f', $ratio));
    cmp_ok($ratio, '>', 2, 'the impacts make the slider accelerate several times harder than the ideal');
}

# ---- benchmark B, 0.02 s ------------------------------------------------------------------
{
    my $out = "$dir/b";
    my $r = run_mechlua(args => [source_dir() . '/scripts/benchmark_b.lua', $out, 'quick']);
    is($r->{status}, 0, 'benchmark B runs in quick mode') or diag($r->{err});
    unlike($r->{err}, qr/mechlua: warning/, 'benchmark B gives no plausibility warning');
    like($r->{out}, qr/^mechlua \Q$version\E: benchmark B, .* free motion for 0\.02 s \(quick\)$/m,
        'it prints the mechlua version and the quick run');
    like($r->{out}, qr/^  2001 rows written to \Q$out\E\/benchmark_b\.csv$/m, 'it says where its CSV went');
    check_figures($r->{out}, 6, 'benchmark B');
    ok(!grep({ /\.tmp/ } glob("$out/*")), 'no temporary file is left');

    my $run = read_csv("$out/benchmark_b.csv");
    like($run->{header}, qr/^# mechlua \Q$version\E, script .*benchmark_b\.lua$/m, 'the header names the version');
    like($run->{header}, qr/^# parameter K = 10000000000\.0$/m, 'and the contact stiffness');
    like($run->{header}, qr/^# parameter duration = 0\.02$/m, 'and the length of the run');
    like($run->{header}, qr/^# joint guide: prismatic, .* clearance 0\.001 m on each side .* flores K 1e\+10 n 1\.5 restitution 0\.4/m,
        'and the guide with its clearance and law');
    is($run->{rows}, 2001, '0.02 s every 1e-5 s: 2001 rows');

    # Inside the guide: no corner goes into a surface deeper than 5% of the clearance.  With
    # K = 1e10 the Hertz energy balance gives 39 micrometres for the whole slider (0.076 kg)
    # striking at 1 m/s, faster than it moves across the guide here (0.84 m/s at most); the
    # rotation of a corner striking alone lowers its effective mass, and the depth with it.
    my $col = $run->{col};
    my $gap = 1e-3;
    my ($deepest, $fn_open, $fn_min) = (0, 0, 0);
    for my $k (1 .. 4) {
        for my $s ('bottom', 'top') {
            my ($g, $f) = ($col->{"guide.c${k}_$s.gap"}, $col->{"guide.c${k}_$s.fn"});
            for my $i (0 .. $run->{rows} - 1) {
                $deepest = max_of($deepest, -$g->[$i]);
                $fn_open = max_of($fn_open, $f->[$i]) if $g->[$i] >= 0;
                $fn_min = min_of($fn_min, $f->[$i]);
            }
        }
    }
    cmp_ok($deepest, '<', 0.05 * $gap, sprintf('the slider stays inside its guide (deepest corner %.1f micrometres)',
        $deepest * 1e6));
    cmp_ok($deepest, '>', 0, 'and it does strike the guide');
    is($fn_open, 0, 'a corner off its surface has no force');
    is($fn_min, 0, 'and no force pulls');
    # The slider's centre: an untilted slider touches at the clearance, a tilted one sooner.
    my $off = max_of(map { abs } @{ $col->{'guide.offset'} });
    cmp_ok($off, '<', $gap + $deepest + 1e-9, sprintf('the centre stays within the clearance plus the '
        . 'penetration (%.4f mm)', $off * 1e3));

    my ($impacts, $bottom, $top, $pen) =
        $r->{out} =~ /^  impacts: (\d+) \((\d+) on the bottom surface, (\d+) on the top\); max penetration (\S+) micrometres/m;
    is($impacts, $col->{'guide.impacts'}[-1], "the impacts printed ($impacts) are those counted in the CSV");
    my $sum = 0;
    for my $k (1 .. 4) { $sum += $col->{"guide.c${k}_$_.impacts"}[-1] for 'bottom', 'top' }
    is(($bottom // 0) + ($top // 0), $sum, 'and they are the corners\' impacts on the two surfaces');
    cmp_ok(abs(($pen // 0) - $deepest * 1e6), '<', 0.06, 'the penetration printed is the deepest in the CSV');
    # No driver: the energy only goes into the contacts' damping and friction.
    my $E = $col->{'system.energy'};
    cmp_ok($E->[-1], '<', $E->[0], 'the impacts take energy from the free mechanism');
    cmp_ok(abs($E->[0] - $E->[-1] - $col->{'system.contact_damping'}[-1] - $col->{'system.friction'}[-1]),
        '<', 1e-6 * $E->[0], 'all of it into contact damping and friction');
    is($col->{'crank.omega'}[0], 150, 'the crank starts at 150 rad/s');
}

# A second argument other than "quick" is a usage error.
my $r = run_mechlua(args => [source_dir() . '/scripts/benchmark_b.lua', "$dir/c", 'fast']);
is($r->{status}, 2, 'an unknown second argument is a usage error');
like($r->{err}, qr/^usage: mechlua .*benchmark_b\.lua \[output-folder\] \[quick\] \(got 'fast'\)$/m, 'that says so');
ok(!-e "$dir/c", 'and writes nothing');

done_testing();
