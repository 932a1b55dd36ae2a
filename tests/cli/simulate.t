# SPDX-License-Identifier: MIT
# Simulations seen from outside: Ctrl-C stops one inside the C loop, results stay
# available; the progress line appears on a terminal only; REPL summaries and help.
use strict;
use warnings;
use Test::More;
use MechTest;
use Time::HiRes qw(sleep time);

my $dir = scratch_dir();
# A pendulum with a tiny fixed step: about a minute of work, all inside libmech.
spew("$dir/long.lua", <<'LUA');
local sys = mech.planar{ gravity = { 0, -9.81 } }
local bob = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 1, 0 } }
sys:revolute{ sys.ground, bob, at = { 0, 0 } }
local ok, err = pcall(sys.simulate, sys, { t = 1e3, method = "rk4", h = 1e-6, report = 0.1,
  record = { "bob.phi" } })
io.stderr:write(tostring(err), "\n")
local run = sys.last_run
print(run.status, #run > 1, run.t[#run] > 0)
run:csv(arg[1])
error(err, 0)
LUA
my $r = run_mechlua(args => ["$dir/long.lua", "$dir/partial.csv"], signal_after => 1.0, timeout => 30);
ok(!$r->{timed_out}, 'Ctrl-C stops a simulation running in C');
is($r->{signal}, 0, 'without killing the program');
like($r->{err}, qr/sys:simulate: simulation interrupted at t = [0-9.e-]+ s \(step \d+\) \(the results so far are in sys\.last_run\)/,
    'the error names the time and the step');
is($r->{out}, "interrupted\ttrue\ttrue\n", 'the rows recorded so far are kept');
like(slurp("$dir/partial.csv") // '', qr/^# run ended early: simulation interrupted at t = /m,
    'and can be saved');
is($r->{status}, 1, 'the script then fails as usual');

# The REPL through a pipe: summaries of objects, help, and a second simulation after one
# that failed.
$r = run_mechlua(stdin => <<'LUA');
sys = mech.planar{ gravity = { 0, -9.81 } }
bob = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 1, 0 } }
pin = sys:revolute{ sys.ground, bob, at = { 0, 0 }, name = "pin" }
sys
bob
pin
run = sys:simulate{ t = 1, report = 0.1, record = { "bob.phi", "pin.f" } }
run
run["pin.f"]
help(sys)
help(sys.simulate)
help(run)
help(mech.mesh)
help(mech.mesh.rectangle{ size = { 1, 1 }, nx = 1, ny = 1 })
help(sys.flexible)
LUA
is($r->{status}, 0, 'a session in the REPL');
like($r->{out}, qr/^mech\.planar: 1 body \(bob\), 1 joint, 0 drivers, 0 force elements, 0 points; 1 degree of freedom$/m,
    'a system shows its contents');
like($r->{out}, qr/^body 'bob': mass 1 kg, inertia 0\.01 kg m\^2, at \(1, 0\) m/m, 'a body its parameters');
like($r->{out}, qr/^joint 'pin': revolute, ground \(0, 0\) - bob \(-1, 0\), Lagrange/m, 'a joint its bodies');
like($r->{out}, qr/^run \(dopri5\): complete, t = 0 \.\. 1\.0+ s, 11 rows x 2 channels \(bob\.phi, pin\.f\); \d+ steps/m,
    'a run its size and statistics');
like($r->{out}, qr/^column 'pin\.f' \[N\]: 11 values from [0-9.]+ to [0-9.]+$/m, 'a column its range');
like($r->{out}, qr/^system methods \(all take one table of named fields\):/m, 'help(sys) lists the methods');
like($r->{out}, qr/^run = sys:simulate\{ t = end time \[s\]/m, 'help(sys.simulate) the options');
like($r->{out}, qr/^a run \(results of sys:simulate\):/m, 'help(run) the results');
my @mesh = $r->{out} =~ /^mech\.mesh: planar meshes for flexible bodies/mg;
is(scalar @mesh, 2, 'help(mech.mesh) and help of a mesh: the mesh functions and methods');
like($r->{out}, qr/^fe = sys:flexible\{ name, mesh, E = Pa/m, 'help(sys.flexible) the flexible body');
is($r->{err}, '', 'no errors');

# The progress line: on a terminal only, for runs longer than a second.
$r = run_mechlua(args => ["-e", <<'LUA']);
local sys = mech.planar{ gravity = { 0, -9.81 } }
local bob = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 1, 0 } }
sys:revolute{ sys.ground, bob, at = { 0, 0 } }
sys:simulate{ t = 4, method = "rk4", h = 2e-6, report = 0.1 }
LUA
is($r->{err}, '', 'no progress line when stderr is not a terminal');

my ($tmux) = map { "$_/tmux" } grep { -x "$_/tmux" } split /:/, $ENV{PATH};
SKIP: {
    skip 'tmux is not installed', 3 unless $tmux;
    my $sock = "$dir/tmux.sock";
    spew("$dir/progress.lua", <<'LUA');
local sys = mech.planar{ gravity = { 0, -9.81 } }
local bob = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 1, 0 } }
sys:revolute{ sys.ground, bob, at = { 0, 0 } }
local run = sys:simulate{ t = 6, method = "rk4", h = 2e-6, report = 0.1 }
print("done", run.status)
LUA
    system($tmux, '-S', $sock, '-f', '/dev/null', 'new-session', '-d', '-x', '120', '-y', '10', '-s', 'p',
        "'" . mechlua_path() . "' '$dir/progress.lua'; sleep 30");
    my ($seen, $end) = ('', time + 60);
    while (time < $end) {
        my $s = `'$tmux' -S '$sock' capture-pane -p -t p 2>/dev/null`;
        $seen = $s if $s =~ /simulating:/;
        last if $s =~ /done/;
        sleep 0.2;
    }
    my $final = `'$tmux' -S '$sock' capture-pane -p -t p 2>/dev/null`;
    system($tmux, '-S', $sock, 'kill-server');
    like($seen, qr/simulating:\s+\d+%  t = [0-9.]+ of 6 s  \d+ s left/, 'a long run shows its progress on a terminal');
    like($final, qr/^done\s+complete$/m, 'and finishes');
    unlike($final, qr/simulating:/, 'the progress line is cleared at the end');
}

done_testing();
