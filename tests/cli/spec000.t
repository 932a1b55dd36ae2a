# SPDX-License-Identifier: MIT
# scripts/spec000_oscillator.lua, spec000_slidercrank.lua and spec000_gmsh.lua in quick mode: what
# they print, the files they write, and a few numbers read back from the CSV files.
use strict;
use warnings;
use Test::More;
use MechTest;

my $dir = scratch_dir();
my $version = project_version();

sub max_abs { my $m = 0; for (@_) { $m = abs($_) if abs($_) > $m } return $m }

{
    my $out = "$dir/oscillator";
    my $r = run_mechlua(args => [source_dir() . '/scripts/spec000_oscillator.lua', $out, 'quick']);
    is($r->{status}, 0, 'the oscillator runs in quick mode') or diag($r->{err});
    unlike($r->{err}, qr/mechlua: warning/, 'the oscillator gives no plausibility warning');
    like($r->{out}, qr/^mechlua \Q$version\E: \[Zheng & Wang, Sec\. 4\.1\], .* 8 s \(quick\)$/m, 'it names the version and the run');
    like($r->{out}, qr/nodes 2-5 never$/m, 'nodes 2-5 never touch the upper guide');
    like($r->{out}, qr/^  4001 rows written to \Q$out\E\/spec000_oscillator\.csv$/m, 'it says where the CSV went');
    check_figures($r->{out}, 10, 'the oscillator');
    my $csv = read_csv("$out/spec000_oscillator.csv");
    like($csv->{header}, qr/^# mechlua \Q$version\E, script .*spec000_oscillator\.lua$/m, 'the header names the version');
    like($csv->{header}, qr/^# parameter mu_s = 0\.2$/m, 'and the static friction');
    like($csv->{header}, qr/^# flexible body slider: 36 nodes, 25 quadrilaterals/m, 'and the mesh');
    is($csv->{rows}, 4001, '8 s every 2 ms');
    is(max_abs(@{ $csv->{col}{'slider.n3.fn'} }), 0, 'the CSV agrees: node 3 never touches');
    my $ft = max_abs(@{ $csv->{col}{'slider.ft'} });
    ok($ft > 0.1 && $ft < 0.3, "the summed friction reaches about mu m g = 0.147 N ($ft)");
}

{
    my $out = "$dir/crank";
    my $r = run_mechlua(args => [source_dir() . '/scripts/spec000_slidercrank.lua', $out, 'quick']);
    is($r->{status}, 0, 'the slider-crank runs in quick mode') or diag($r->{err});
    unlike($r->{err}, qr/mechlua: warning/, 'the slider-crank gives no plausibility warning');
    like($r->{out}, qr/^mechlua \Q$version\E: \[Zheng & Wang, Sec\. 4\.2\], .* 24 s \(quick\)$/m, 'it names the version and the run');
    like($r->{out}, qr/^  Lagrange joint B \(\[Zheng & Wang, abstract\]\): crank angle within /m, 'it compares the Lagrange joint');
    check_figures($r->{out}, 10, 'the slider-crank');
    for my $n (4, 8) {
        my $csv = read_csv("$out/spec000_slidercrank_$n.csv");
        is($csv->{rows}, 2401, "$n elements: 24 s every 10 ms");
        like($csv->{header}, qr/^# joint B: revolute, rod \(1, 0\) - slider\.n\d+ \(0, 0\), penalty k 100000 100000/m,
            "$n elements: the header describes the penalty joint");
        like($csv->{header}, qr/^# integrator bdf, rtol 1e-05, atol 1e-08, max order 3;/m,
            "$n elements: and the integrator, with its order limit");
        ok(max_abs(@{ $csv->{col}{'B.dy'} }) < 1e-3, "$n elements: the joint error stays under 1 mm");
    }
}

{
    my $out = "$dir/gmsh";
    my $r = run_mechlua(args => [source_dir() . '/scripts/spec000_gmsh.lua', $out, 'quick']);
    is($r->{status}, 0, 'the gmsh oscillator runs in quick mode') or diag($r->{err});
    unlike($r->{err}, qr/mechlua: warning/, 'the gmsh oscillator gives no plausibility warning');
    like($r->{out}, qr/^  gmsh quadrangles 5 x 5 +36 nodes  25 elements:/m, 'it reads the quadrangles (format 4.1)');
    like($r->{out}, qr/^  gmsh triangles +58 nodes  90 elements:/m, 'and the triangles (format 2.2)');
    my ($dv) = $r->{out} =~ /gmsh quadrangles against the mesher: x velocity within (\S+) m\/s/;
    ok(defined $dv && $dv < 1e-4, 'the quadrangles move as the mesher\'s mesh') or diag($r->{out});
    check_figures($r->{out}, 2, 'the gmsh oscillator');
    for my $m (qw(rectangle quad tri)) {
        my $csv = read_csv("$out/spec000_gmsh_$m.csv");
        is($csv->{rows}, 4001, "$m: 8 s every 2 ms");
    }
    like(read_csv("$out/spec000_gmsh_tri.csv")->{header}, qr/^# parameter mesh = .*spec000_slider_tri\.msh$/m,
        'the CSV header names the mesh file');
    # the three runs are the cases of a sweep kept in $out/spec000_gmsh: a second run takes
    # them from there, and writes and prints the same (the wall times too, kept with them)
    my $results = slurp("$out/spec000_gmsh/results.csv") // '';
    is(scalar(() = $results =~ /^\d+,[0-9a-f]{16},"?(?:rectangle|quad|tri)"?,.*,ok,/mg), 3,
        'the gmsh oscillator: its sweep\'s results, three cases ok');
    my %before = map { $_ => slurp("$out/spec000_gmsh_$_.csv") } qw(rectangle quad tri);
    unlink "$out/spec000_gmsh_$_.csv" for qw(rectangle quad tri);
    my $again = run_mechlua(args => [source_dir() . '/scripts/spec000_gmsh.lua', $out, 'quick']);
    is($again->{status}, 0, 'the gmsh oscillator runs again');
    is($again->{out}, $r->{out}, 'and prints the same, taking its runs from its sweep\'s folder');
    is(slurp("$out/spec000_gmsh/results.csv"), $results, 'its results unchanged');
    for my $m (qw(rectangle quad tri)) {
        ok(defined $before{$m} && (slurp("$out/spec000_gmsh_$m.csv") // '') eq $before{$m},
            "$m: the same CSV written again from the case's folder");
    }
}

# options.script_args: a second argument other than "quick" is a usage error, for every
# scenario that takes [output-folder] [quick]
for my $s (qw(spec000_oscillator spec000_slidercrank spec004 benchmark_a)) {
    my $r = run_mechlua(args => [source_dir() . "/scripts/$s.lua", "$dir/u", 'fast']);
    is($r->{status}, 2, "$s: an unknown second argument is a usage error");
    like($r->{err}, qr/^usage: mechlua .*\Q$s\E\.lua \[output-folder\] \[quick\] \(got 'fast'\)$/m,
        "$s: that says so");
    ok(!-e "$dir/u", "$s: and writes nothing");
}

done_testing();
