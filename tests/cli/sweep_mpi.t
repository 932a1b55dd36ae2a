# SPDX-License-Identifier: MIT
# The sweep module under MPI: the same script run plainly (1 and 2 workers) and under
# `mpirun -n 2` and `mpirun -n 3` (oversubscribed on a 2-core machine) gives the same table,
# bit for bit apart from the wall-time and worker columns; failures (an error, a simulation
# that blows up, a signal) are recorded with their reasons on whichever rank ran them; rank 0
# alone writes result files and the CSV and prints; every rank gets the results; two studies
# in one script; resuming under MPI; a case that returns what it may not ends the job with
# the message instead of hanging it; Ctrl-C to mpirun leaves no process behind.  Skipped,
# with the reason, when mpirun or the MPI module is missing.
use strict;
use warnings;
use Test::More;
use Cwd ();
use Text::ParseWords ();
use MechTest;

my $dir = scratch_dir();
my $build = Cwd::abs_path(build_dir());
unless (-e "$build/lib/mechlua/sweepmpi.so" && mpirun_path()) {
    plan skip_all => 'no MPI here (the module sweepmpi or mpirun is missing)';
}
my %plain = map { $_ => undef }
    qw(OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_RANK PMIX_RANK PMI_RANK PMI_SIZE SLURM_STEP_NUM_TASKS MECHLUA_MPI_RANK);

# The study: 16 cases of numbers that depend on every bit of their parameters, one that
# raises an error, one that blows up (a contact far too stiff for the RK4 step), one killed
# by a signal.  Each rank writes what it got back to ranks/<rank>.txt, rank 0 prints.
my $study = "$dir/study.lua";
spew($study, <<'LUA');
local sweep = require "sweep"
local core = require "sweepcore"
local folder, workers = arg[1], tonumber(arg[2])
local design = sweep.grid{ k = { 1, 2, 3, 4, 5, 6, 7, 8 }, f = { 0.3, 1.7 } }
local cases = {}
for i = 1, #design do cases[i] = design[i] end
cases[#cases + 1] = { k = 0, f = 0, what = "error" }
cases[#cases + 1] = { k = 0, f = 1, what = "blowup" }
cases[#cases + 1] = { k = 0, f = 2, what = "signal" }
print("before the study")
local res = sweep.run{ cases, folder = folder, workers = workers, progress = false, case = function(p, dir)
  if p.what == "error" then error("this case fails") end
  if p.what == "signal" then core._raise("SIGSEGV") end
  if p.what == "blowup" then
    local sys = mech.planar{ gravity = { 0, -9.81 } }
    local b = sys:body{ name = "ball", mass = 1, inertia = 1, at = { 0, 0.1 }, velocity = { 0, -1 } }
    sys:contact{ b, body_at = { 0, 0 }, surface = { at = { 0, 0 }, normal = { 0, 1 } },
      law = mech.contact.hertz{ K = 1e100 }, name = "floor" }
    sys:simulate{ t = 1, h = 1e-3, method = "rk4", report = 1e-2, quiet = true, record = { "ball.y" } }
  end
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local b = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 0.5, 0 }, velocity = { 0, -p.f },
    omega = -2 * p.f }
  sys:revolute{ b, sys.ground, at = { 0, 0 } }
  local run = sys:simulate{ t = 0.05 * p.k, h = 1e-4, method = "rk4", report = 1e-3, quiet = true,
    record = { "bob.x", "bob.vy" } }
  local f = io.open(dir .. "/mine.txt", "w") f:write(os.getenv("OMPI_COMM_WORLD_RANK") or "-1", "\n") f:close()
  return { x = run["bob.x"]:min(), vy = run["bob.vy"]:max(), files = { dir .. "/mine.txt" } }
end }
local mpi = package.loaded.sweepmpi
local rank = mpi and mpi.initialized() and mpi.rank() or 0
mech.mkdir(folder .. "/ranks")
local out = {}
for i = 1, #res do
  out[#out + 1] = string.format("%d %s %s %s %s %s", i, res[i].status, tostring(res[i].message), string.format("%a", res[i].x or 0/0), res[i].key, tostring(res[i].resumed))
end
out[#out + 1] = string.format("ok %d failed %d ran %d resumed %d path %s leader %s", res.ok, res.failed, res.ran,
  res.resumed, tostring(res.path), tostring(sweep.leader()))
local f = io.open(folder .. "/ranks/" .. rank .. ".txt", "w") f:write(table.concat(out, "\n"), "\n") f:close()
-- a second study in the same script, on the same ranks
local second = sweep.run{ sweep.grid{ n = { 1, 2, 3, 4, 5 } }, folder = folder .. "/second", workers = workers,
  progress = false, case = function(p) return { sq = p.n * p.n } end }
print("after the study", res.ok, res.failed, second.ok, second.sq:max())
LUA

# The table without the wall and worker columns, the study's folder written FOLDER.
sub table_of {
    my ($path) = @_;
    my $text = slurp($path) // return '';
    (my $folder = $path) =~ s{/results\.csv$}{};
    $text =~ s/\Q$folder\E/FOLDER/g;
    my @out;
    my @drop;
    for my $line (split /\n/, $text) {
        if ($line =~ /^#/) { push @out, $line; next }
        my @f = map { $_ // '' } Text::ParseWords::parse_line(',', 1, $line);
        if (!@drop) { @drop = grep { $f[$_] eq 'wall [s]' || $f[$_] eq 'worker' } 0 .. $#f }
        my %d = map { $_ => 1 } @drop;
        push @out, join ',', map { $f[$_] } grep { !$d{$_} } 0 .. $#f;
    }
    return join "\n", @out;
}

sub column_of {
    my ($path, $name) = @_;
    my @lines = grep { !/^#/ } split /\n/, slurp($path) // '';
    my @head = split /,/, shift @lines;
    my ($j) = grep { $head[$_] eq $name } 0 .. $#head;
    return map { (Text::ParseWords::parse_line(',', 1, $_))[$j] } @lines;
}

my %tables;
my $one = run_mechlua(args => [$study, "$dir/one", 1], env => \%plain, timeout => 120);
is($one->{status}, 0, 'the study runs with 1 worker') or diag($one->{err});
$tables{one} = table_of("$dir/one/results.csv");
my $two = run_mechlua(args => [$study, "$dir/two", 2], env => \%plain, timeout => 120);
is($two->{status}, 0, 'with 2 workers') or diag($two->{err});
$tables{two} = table_of("$dir/two/results.csv");
like($tables{one}, qr/^case,key,f,k,what,vy,x,status,message,files$/m, 'the table has its columns')
    or diag($tables{one});

for my $n (2, 3) {
    my $r = run_mpirun(n => $n, args => [$study, "$dir/mpi$n", 1], timeout => 180);
    is($r->{status}, 0, "the study runs under mpirun -n $n") or diag($r->{err});
    $tables{"mpi$n"} = table_of("$dir/mpi$n/results.csv");
    my @lines = split /\n/, $r->{out};
    is_deeply(\@lines, ["before the study", "after the study\t16\t3\t5\t25"],
        "-n $n: the script's lines once (the other ranks print nothing on stdout)");
    my %ranks = map { my $s = slurp($_) // ''; chomp $s; ($s => 1) } glob("$dir/mpi$n/cases/*/mine.txt");
    is_deeply([sort keys %ranks], [0 .. $n - 1],
        "-n $n: every rank ran cases (dynamic dispatch from rank 0, which runs cases too)")
        or diag(join ' ', sort keys %ranks);
    my @workers = column_of("$dir/mpi$n/results.csv", 'worker');
    my %w = map { $_ => 1 } @workers;
    is(scalar(keys %w), $n, "-n $n: one worker per rank, numbered over the ranks");
    my $r0 = slurp("$dir/mpi$n/ranks/0.txt") // '';
    like($r0, qr/leader true$/m, "-n $n: rank 0 is the leader");
    for my $k (1 .. $n - 1) {
        my $rk = slurp("$dir/mpi$n/ranks/$k.txt") // '';
        (my $same = $rk) =~ s/leader false$/leader true/m;
        is($same, $r0, "-n $n: rank $k got the same results as rank 0 (and is not the leader)");
    }
    my @results = glob("$dir/mpi$n/cases/*/result");
    is(scalar(@results), 19, "-n $n: a result file per case");
    ok(!glob("$dir/mpi$n/cases/*/*.tmp*") && !glob("$dir/mpi$n/*.tmp*"), "-n $n: no temporary left behind");
    my @mine = glob("$dir/mpi$n/cases/*/mine.txt");
    is(scalar(@mine), 16, "-n $n: each case's own file in its folder");
}

for my $k (qw(two mpi2 mpi3)) {
    is($tables{$k}, $tables{one}, "$k: the same table as 1 worker, bit for bit (wall and worker aside)");
}
my $t = $tables{one};
like($t, qr/^17,\w+,0,0,error,,,error,[^\n]*study\.lua:\d+: this case fails,$/m, 'an error: recorded with its message');
like($t, qr/^18,\w+,1,0,blowup,,,error,[^\n]*simulation failed at t = [^\n]*run away/m,
    'a simulation that blows up: recorded with libmech\'s reason');
like($t, qr/^19,\w+,2,0,signal,,,signal,killed by SIGSEGV \(signal 11\),$/m, 'a signal: recorded with its name');

# Resuming under MPI: the finished cases are kept, only a removed one runs again.
{
    my @results = sort glob("$dir/mpi2/cases/*/result");
    unlink $results[0], $results[5];
    my $r = run_mpirun(n => 2, args => [$study, "$dir/mpi2", 1], timeout => 180);
    is($r->{status}, 0, 'rerun under mpirun -n 2') or diag($r->{err});
    like(slurp("$dir/mpi2/ranks/0.txt") // '', qr/ran 2 resumed 17 /, 'only the two unfinished cases ran again');
    like(slurp("$dir/mpi2/ranks/1.txt") // '', qr/ran 2 resumed 17 /, 'and rank 1 knows it');
    is(table_of("$dir/mpi2/results.csv"), $tables{one}, 'and the table is the same');
}

# A case that returns what it may not: the job ends with the message on rank 0's stderr.
{
    my $bad = "$dir/bad.lua";
    spew($bad, <<'LUA');
local sweep = require "sweep"
sweep.run{ sweep.grid{ n = { 1, 2, 3, 4, 5, 6 } }, folder = arg[1], workers = 1, progress = false,
  case = function(p) return { v = p.n == 4 and { 1, { 2 } } or p.n } end }
print("not reached")
LUA
    my $r = run_mpirun(n => 2, args => [$bad, "$dir/bad"], timeout => 120);
    isnt($r->{status}, 0, 'a case returning a nested table ends the MPI job with a failure');
    unlike($r->{out}, qr/not reached/, 'no rank goes on');
    like($r->{err}, qr/sweep\.run: case 4 \(n = 4\):/, 'with the case named');
}

# A rank of an MPI job whose program cannot load the MPI module stops at sweep.run rather
# than run the whole study alone (as a build without Open MPI would).
{
    my $nompi = "$dir/nompi.lua";
    spew($nompi, <<'LUA');
package.cpath = "" -- as in a build without the module
local sweep = require "sweep"
sweep.run{ sweep.grid{ n = { 1, 2 } }, folder = arg[1], case = function(p) return { n2 = p.n } end }
LUA
    my $r = run_mechlua(args => [$nompi, "$dir/nompi"], env => { %plain, OMPI_COMM_WORLD_SIZE => 2,
        OMPI_COMM_WORLD_RANK => 0 });
    isnt($r->{status}, 0, 'under mpirun without the MPI module: a failure');
    like($r->{err}, qr/sweep\.run: this program is a rank of an MPI job \(openmpi\) but was built without MPI support/,
        'saying why');
    ok(!-e "$dir/nompi/results.csv", 'and no case ran');
}

# Ctrl-C to mpirun: it ends the job; the finished cases are kept; no process is left.
SKIP: {
    my $slow = "$dir/slow.lua";
    spew($slow, <<'LUA');
local sweep = require "sweep"
sweep.run{ sweep.grid{ n = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 } }, folder = arg[1], workers = 1,
  progress = false, case = function(p)
    local t0 = os.clock()
    if p.n > 2 then while os.clock() - t0 < 30 do end end
    return { n2 = p.n * 2 }
  end }
LUA
    my $mpirun = mpirun_path();
    my $pid = fork();
    if ($pid == 0) {
        $ENV{OMPI_ALLOW_RUN_AS_ROOT} = $ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} = 1;
        $ENV{ASAN_OPTIONS} = join ':', grep { length } $ENV{ASAN_OPTIONS} // '', 'detect_leaks=0';
        open STDOUT, '>', "$dir/slow.out"; open STDERR, '>', "$dir/slow.err";
        exec $mpirun, '-n', 2, '--oversubscribe', mechlua_path(), $slow, "$dir/slow";
        exit 127;
    }
    my $deadline = time + 60;
    sleep 1 while time < $deadline && scalar(my @r = glob("$dir/slow/cases/*/result")) < 2;
    my @kept = glob("$dir/slow/cases/*/result");
    skip 'the first cases did not finish in time', 3 if @kept < 2;
    sleep 1;
    kill 'INT', $pid;
    my $gone = 0;
    for (1 .. 60) { if (waitpid($pid, 1) == $pid) { $gone = 1; last } sleep 1 }
    ok($gone, 'mpirun ended after Ctrl-C') or kill 'KILL', $pid;
    is(scalar(my @k = glob("$dir/slow/cases/*/result")), 2, 'the two finished cases are kept');
    my $left = '';
    for (1 .. 10) {
        $left = `ps -eo pid,args | grep -F '$slow' | grep -v grep`;
        last if $left eq '';
        sleep 1;
    }
    is($left, '', 'no rank or worker left behind');
}

done_testing();
