# SPDX-License-Identifier: MIT
# The README's examples run and do what they say: the ten-line scenario, and the
# tutorial's blocks run one after the other as one script.
use strict;
use warnings;
use Test::More;
use MechTest;

my $readme = slurp(source_dir() . '/README.md');
my @blocks = $readme =~ /^```lua\n(.*?)^```$/msg;
ok(@blocks >= 2, 'the README has Lua examples');
my $code = $blocks[0] // '';
my $lines = () = $code =~ /\n/g;
cmp_ok($lines, '<=', 12, 'the scenario example is about ten lines');

my $dir = scratch_dir();
spew("$dir/example.lua", $code);
my $r = run_mechlua(args => ['example.lua'], cwd => $dir);
is($r->{status}, 0, 'the scenario example runs') or diag($r->{err});
unlike($r->{err}, qr/mechlua: warning/, 'the scenario example gives no plausibility warning');
my $csv = slurp("$dir/slider.csv") // '';
like($csv, qr/^# mechlua [0-9.]+, script example\.lua$/m, 'its CSV names the program and script');
like($csv, qr/^t \[s\],slider\.x \[m\],slider\.ax \[m\/s\^2\],pin\.f \[N\]$/m, 'and the columns it says');
my @rows = grep { /^\d/ } split /\n/, $csv;
is(scalar @rows, 2401, 'one row every 10 microseconds for 0.024 s');
my @first = split /,/, $rows[0];
cmp_ok(abs($first[1] - 0.17), '<', 1e-12, 'outer dead centre: x = r + l');
cmp_ok(abs($first[2] + 19419.36), '<', 0.01, 'a = -omega^2 (r + r^2/l) there');

# The tutorial: its blocks after the "## Tutorial" heading, in order.
my ($tutorial) = $readme =~ /^## Tutorial\n(.*?)^## /ms;
my @steps = ($tutorial // '') =~ /^```lua\n(.*?)^```$/msg;
ok(@steps >= 3, 'the tutorial has its code blocks');
spew("$dir/tutorial.lua", join("\n", @steps));
$r = run_mechlua(args => ['tutorial.lua'], cwd => $dir);
is($r->{status}, 0, 'the tutorial runs as one script') or diag($r->{err});
unlike($r->{err}, qr/mechlua: warning/, 'the tutorial gives no plausibility warning');
like($r->{out}, qr/^mech\.planar: 3 bodies \(crank, rod, slider\), 4 joints, 1 driver, 0 force elements, 0 points; 0 degrees of freedom$/m,
    'print(sys) shows what the tutorial says');
like($r->{out}, qr/^2401\t-19419\.36/m, '#run and the peak acceleration are as printed');
like($r->{out}, qr/^0\.00(?:5999|6000)\d*\t\d+$/m, 'the event is the slider turning at half a revolution');
ok(-f "$dir/out/tutorial.csv", 'and it writes out/tutorial.csv');
ok((slurp("$dir/out/tutorial.png") // '') =~ /\A\x89PNG\r\n/, 'and a PNG figure');
ok((slurp("$dir/out/tutorial.pdf") // '') =~ /\A%PDF-/, 'and a PDF figure');
like($r->{out}, qr/^83\.\d+\t166\.\d+$/m, 'the spectrum peaks at the crank frequency and its harmonic');
like($r->{out}, qr/^5\t5\t9695\.83\d*$/m, 'the study runs its five cases, and its peak is as printed');
like(slurp("$dir/out/speeds/results.csv") // '', qr/^case,key,rpm,peak,torque,status,message,wall \[s\],worker,files$/m,
    'and writes its results as CSV');

like(substr(slurp("$dir/crank.gif") // '', 0, 6), qr/^GIF89a$/, 'and the animation of the journal in its bearing');

# The shell examples: valid sh, and the scripts they run are there.
my @sh = $readme =~ /^```sh\n(.*?)^```$/msg;
ok(@sh >= 1, 'the README has a batch script');
for my $k (0 .. $#sh) {
    spew("$dir/batch$k.sh", $sh[$k]);
    is(system('sh', '-n', "$dir/batch$k.sh"), 0, "shell example $k is valid sh");
    for my $script ($sh[$k] =~ m{\b(scripts/\w+\.lua)\b}g) {
        ok(-f source_dir() . "/$script", "shell example $k runs $script, which is there");
    }
}

done_testing();
