# SPDX-License-Identifier: MIT
# The MPI module sweepmpi (stdlib/sweepmpi.c, lib/mechlua/sweepmpi.so) and its Lua side, the
# module mpi (stdlib/mpi.lua), under Open MPI's mpirun with 2 and 3 ranks (3 oversubscribed
# on a machine with 2 cores): ranks and size, a dynamic work queue served by rank 0 (which
# does cases itself between messages), messages of any bytes, fork in a rank, errors that
# name the function, a failing rank that ends the job instead of hanging it, the install.
# A plain run loads nothing of MPI.  The tests that need mpirun are skipped, with the
# reason, when it is not installed (openmpi-bin, in tools/packages).
use strict;
use warnings;
use Test::More;
use Cwd ();
use MechTest;

my $dir = scratch_dir();
my $build = Cwd::abs_path(build_dir());
my $so = "$build/lib/mechlua/sweepmpi.so";

# No launcher's variables from the environment the tests run in.
my %plain = map { $_ => undef }
    qw(OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_RANK PMI_SIZE SLURM_STEP_NUM_TASKS MECHLUA_MPI_RANK);

sub lua_file {
    my ($name, $code) = @_;
    spew("$dir/$name", $code);
    return "$dir/$name";
}

# A build configured with -DMECH_MPI=OFF has no module: mpi.load() says so, and that is all.
my $cache = slurp("$build/CMakeCache.txt") // '';
if ($cache =~ /^MECH_MPI:BOOL=OFF$/m) {
    my $r = run_mechlua(args => ['-e', 'local mpi = require "mpi" print(mpi.available()) mpi.load()'],
        env => { map { $_ => undef } qw(OMPI_COMM_WORLD_SIZE PMIX_RANK PMI_RANK PMI_SIZE) });
    is($r->{out}, "false\n", 'a build without MPI: mpi.available() is false');
    like($r->{err}, qr/mpi\.load: MPI support was not built/, 'and mpi.load() says MPI support was not built');
    SKIP: { skip 'this build was configured with -DMECH_MPI=OFF', 1 }
    done_testing();
    exit 0;
}

# ---- a plain run: nothing of MPI ----------------------------------------------------------

my $plain = lua_file('plain.lua', <<'LUA');
local mpi = require "mpi"
print("under", mpi.under_mpi())
print("available", mpi.available())
print("loaded", package.loaded.sweepmpi)
local maps = io.open("/proc/self/maps"):read("a")
print("libmpi mapped", maps:find("libmpi", 1, true) ~= nil)
print("sweepmpi mapped", maps:find("sweepmpi", 1, true) ~= nil)
LUA
my $r = run_mechlua(args => [$plain], env => \%plain);
is($r->{status}, 0, 'a plain run that requires mpi') or diag($r->{err});
like($r->{out}, qr/^under\tfalse$/m, 'is not under MPI');
like($r->{out}, qr/^available\ttrue$/m, 'knows the MPI module was built');
like($r->{out}, qr/^loaded\tnil$/m, 'and has not loaded it');
like($r->{out}, qr/^libmpi mapped\tfalse$/m, 'libmpi is not mapped into the process');
like($r->{out}, qr/^sweepmpi mapped\tfalse$/m, 'nor is sweepmpi.so');

# under_mpi() reads the launcher's variables only.
my $under = q{print(require("mpi").under_mpi()) print(package.loaded.sweepmpi)};
for my $case (
    [{ OMPI_COMM_WORLD_SIZE => 2 }, "true\topenmpi", "Open MPI's mpirun"],
    [{ PMIX_RANK => 0 }, "true\tpmix", 'a PMIx launcher (srun --mpi=pmix)'],
    [{ PMI_RANK => 1, PMI_SIZE => 2 }, "true\tpmi", 'a PMI-2 launcher (srun --mpi=pmi2)'],
    [{ SLURM_STEP_NUM_TASKS => 4 }, "false\tsrun started 4 tasks without an MPI plugin (srun --mpi=pmix)",
        'srun without an MPI plugin'],
    [{ OMPI_COMM_WORLD_SIZE => 2, MECHLUA_MPI_RANK => 1 }, "false\tstarted by rank 1",
        'a program started by a rank'])
{
    my ($env, $want, $what) = @$case;
    $r = run_mechlua(args => ['-e', $under], env => { %plain, %$env });
    is($r->{out}, "$want\nnil\n", "under_mpi(): $what, without loading the module") or diag($r->{err});
}

# A build without Open MPI: mpi.load() says so (simulated with an empty package.cpath).
$r = run_mechlua(args => ['-e', 'package.cpath = "" require("mpi").load()'], env => \%plain);
like($r->{err}, qr/mpi\.load: MPI support was not built: mechlua was configured without Open MPI/,
    'mpi.load() without the module: MPI support was not built');

if (!ok(-f $so, "the module is built: $so")) {
    diag('sweepmpi.so is missing: Open MPI (libopenmpi-dev, pkg-config ompi-c) was not found '
        . 'when configuring; tools/setup installs it');
    done_testing();
    exit 1;
}

# Loaded but not started: every function says which it is and what is missing.
$r = run_mechlua(args => ['-e', <<'LUA'], env => \%plain);
local m = require("mpi").load()
print(m.initialized(), #m.hostname() > 0, m.version():match("^Open MPI") ~= nil)
for _, f in ipairs { "rank", "size", "send", "iprobe", "recv", "barrier", "abort" } do
  print(select(2, pcall(m[f])))
end
m.finalize() -- nothing to end
LUA
is($r->{status}, 0, 'the module loads without starting MPI') or diag($r->{err});
like($r->{out}, qr/^false\ttrue\ttrue$/m, 'initialized() is false; hostname() and version() work');
for my $f (qw(rank size send iprobe recv barrier abort)) {
    like($r->{out}, qr/^sweepmpi\.\Q$f\E: MPI is not started: call init\(\) first$/m,
        "sweepmpi.$f before init() says so");
}

# ---- under mpirun --------------------------------------------------------------------------

if (!mpirun_path()) {
    SKIP: { skip 'mpirun is not installed (Debian package openmpi-bin, listed in tools/packages)', 1 }
    done_testing();
    exit 0;
}

my $ranks = lua_file('ranks.lua', <<'LUA');
local mpi = require "mpi"
local under, how = mpi.under_mpi()
local m = mpi.load()
local rank, size = m.init()
local again_rank, again_size = m.init()
assert(again_rank == rank and again_size == size, "init() twice")
assert(m.rank() == rank and m.size() == size and m.initialized())
local line = string.format("rank %d of %d: %s %s, then %s", rank, size, tostring(under), how,
  select(2, mpi.under_mpi()))
if rank == 0 then
  local lines = { line }
  for _ = 1, size - 1 do
    local s, src, tag = m.recv(nil, 1)
    assert(tag == 1)
    lines[src + 1] = s
  end
  print(table.concat(lines, "\n"))
else
  m.send(0, 1, line)
end
m.barrier()
LUA

# Rank 0 hands out the indices 1..N to the worker that asks and does cases itself while
# every worker is busy and no message waits (iprobe never blocks).  A worker's message is
# a result (or "ready") and asks for the next index.  Cases cost some milliseconds, so that
# rank 0 has time to take some of its own.
my $queue = lua_file('queue.lua', <<'LUA');
local m = require("mpi").load()
local rank, size = m.init()
local N, READY, RESULT, WORK, STOP = 20, 1, 2, 3, 4
local function case(i)
  local x = 0
  for k = 1, 200000 do x = (x + i * k) % 1000003 end
  return x
end
if rank == 0 then
  local next_i, done, results, busy, idle, stopped = 1, 0, {}, 0, {}, 0
  local function give(w)
    if next_i <= N then
      m.send(w, WORK, tostring(next_i))
      next_i, busy = next_i + 1, busy + 1
    else
      m.send(w, STOP, "")
      stopped = stopped + 1
    end
  end
  while done < N or stopped < size - 1 do
    local src, tag = m.iprobe()
    if src then
      local s = m.recv(src, tag)
      if tag == RESULT then
        local i, v = s:match("^(%d+) (%d+)$")
        i = tonumber(i)
        assert(results[i] == nil, "case done twice")
        results[i] = { by = src, v = tonumber(v) }
        done, busy = done + 1, busy - 1
      end
      give(src)
    elseif busy == size - 1 - stopped and next_i <= N and busy > 0 then
      local i = next_i
      next_i = i + 1
      results[i] = { by = 0, v = case(i) }
      done = done + 1
    end
  end
  local by = {}
  for i = 1, N do
    local r = assert(results[i], "a case is missing")
    assert(r.v == case(i), "wrong result")
    by[r.by] = (by[r.by] or 0) + 1
  end
  local counts = {}
  for w = 0, size - 1 do counts[#counts + 1] = string.format("%d:%d", w, by[w] or 0) end
  print("cases " .. N .. " by rank " .. table.concat(counts, " "))
else
  m.send(0, READY, "")
  while true do
    local s, _, tag = m.recv(0)
    if tag == STOP then break end
    local i = tonumber(s)
    m.send(0, RESULT, i .. " " .. case(i))
  end
end
LUA

# Strings of any bytes go from rank 0 to every worker and back.
my $bytes = lua_file('bytes.lua', <<'LUA');
local m = require("mpi").load()
local rank, size = m.init()
local all = {}
for b = 0, 255 do all[#all + 1] = string.char(b) end
local seed, big = 12345, {}
for k = 1, 1024 * 1024 do
  seed = (seed * 1103515245 + 12345) % 2147483648
  big[k] = string.char(seed >> 16 & 255)
end
local msgs = { "", "\0", "a\0b\0\0", table.concat(all), table.concat(big),
  string.rep("\0", 1024 * 1024) }
if rank == 0 then
  local ok = 0
  for w = 1, size - 1 do
    for k, s in ipairs(msgs) do
      m.send(w, k, s)
      local src, tag, len
      repeat src, tag, len = m.iprobe(w) until src
      assert(src == w and tag == k and len == #s, "iprobe: source, tag, length")
      local back, from, t = m.recv(w, k)
      if back == s and from == w and t == k then ok = ok + 1 end
    end
  end
  print("round trips " .. ok .. " of " .. (size - 1) * #msgs)
else
  for k = 1, #msgs do
    local s = m.recv(0, k)
    m.send(0, k, s)
  end
end
LUA

# A rank that forks (as the sweep's workers do) still communicates; the children cannot
# use MPI, and their end (_exit, exit, os.exit, a shell, SIGABRT: Open MPI would catch it,
# ASan does not) touches nothing of it.
my $fork = lua_file('fork.lua', <<'LUA');
local m = require("mpi").load()
local rank, size = m.init()
local function child()
  assert(not m.initialized(), "initialized() in a child")
  local ok, err = pcall(m.send, 0, 1, "from a child")
  assert(not ok and err:find("sweepmpi.send: this process was forked from an MPI rank", 1, true), err)
end
local st = { m._forkcall(child), m._forkcall(child, "exit"),
  m._forkcall(function() os.exit(0) end), m._forkcall(function() os.exit(3) end),
  select(3, os.execute("exit 5")) }
local _, sig = m._forkcall(function() -- a case that dies by a signal
  os.execute("kill -ABRT " .. io.open("/proc/self/stat"):read("a"):match("^%d+"))
end)
local line = string.format("rank %d children %s signal %s", rank, table.concat(st, " "), sig)
if rank == 0 then
  local lines = { line }
  for _ = 1, size - 1 do
    local s, src = m.recv()
    lines[src + 1] = s
  end
  print(table.concat(lines, "\n"))
else
  m.send(0, 9, line)
end
LUA

# The four run one after the other in one job (mpirun starts in about half a second).
my $parts = lua_file('parts.lua', <<'LUA');
for _, f in ipairs(arg) do
  if os.getenv("OMPI_COMM_WORLD_RANK") == "0" then print("== " .. f:match("[^/]*$")) end
  dofile(f)
  require("sweepmpi").barrier()
end
LUA
for my $n (2, 3) {
    my $what = "mpirun -n $n";
    $r = run_mpirun(n => $n, args => [$parts, $ranks, $queue, $bytes, $fork], env => \%plain);
    is($r->{status}, 0, "$what: ranks, a work queue, bytes, fork") or diag($r->{err});
    my %out = $r->{out} =~ /^== (\w+)\.lua\n((?:(?!== ).*\n)*)/mg;
    is($out{ranks}, join('', map { "rank $_ of $n: true openmpi, then running\n" } 0 .. $n - 1),
        "$what: every rank is under MPI (Open MPI), knows its rank and the size");

    my ($counts) = ($out{queue} // '') =~ /^cases 20 by rank (.*)$/m;
    ok(defined $counts, "$what: a work queue: 20 cases, each done once with the right result")
        or diag($r->{out});
    my %by = map { split /:/ } split ' ', $counts // '';
    my $sum = 0;
    $sum += $_ for values %by;
    is($sum, 20, "$what: the cases of every rank add up");
    cmp_ok($by{$_} // 0, '>=', 1, "$what: rank $_ did cases") for 0 .. $n - 1;

    my $count = ($n - 1) * 6;
    is($out{bytes}, "round trips $count of $count\n",
        "$what: empty, zero bytes, all 256 values, 1 MB come back exactly, iprobe gives the length");

    is($out{fork}, join('', map { "rank $_ children 0 0 0 3 5 signal 6\n" } 0 .. $n - 1),
        "$what: each rank's children end as they say, and the ranks communicate after");
    unlike($r->{err}, qr/fork\(\)|Open MPI|received signal/i,
        "$what: Open MPI says nothing about the forks, nor about the child killed by a signal");
}

# Errors name the function.
my $errors = lua_file('errors.lua', <<'LUA');
local m = require("mpi").load()
local rank, size = m.init()
if rank == 0 then
  for _, call in ipairs {
    function() m.send(5, 1, "x") end, function() m.send(1, -1, "x") end,
    function() m.send(1, 1.5, "x") end, function() m.send(1, 1, 42) end,
    function() m.recv(7) end, function() m.iprobe(nil, "tag") end, function() m.abort(300) end,
  } do
    print(select(2, pcall(call)))
  end
end
m.barrier()
m.finalize()
print("rank " .. rank .. " after finalize: " .. select(2, pcall(m.rank)))
m.finalize() -- twice is nothing
print("init again: " .. select(2, pcall(m.init)))
LUA
$r = run_mpirun(n => 2, args => [$errors], env => \%plain);
is($r->{status}, 0, 'bad arguments are Lua errors') or diag($r->{err});
for my $want (
    'sweepmpi.send: argument #1 (dest) must be in 0..1 (got 5)',
    'sweepmpi.send: argument #2 (tag) must be in 0..',
    'sweepmpi.send: argument #2 (tag) must be an integer (got a number with a fraction)',
    'sweepmpi.send: argument #3 (message) must be a string (got number)',
    'sweepmpi.recv: argument #1 (source) must be in 0..1 (got 7)',
    'sweepmpi.iprobe: argument #2 (tag) must be an integer (got string)',
    'sweepmpi.abort: argument #1 (code) must be in 0..255 (got 300)')
{
    like($r->{out}, qr/^\S+errors\.lua:\d+: \Q$want\E/m, "error: $want");
}
like($r->{out}, qr/^rank 1 after finalize: sweepmpi\.rank: MPI was finalized$/m,
    'after finalize(), a function says MPI was finalized');
like($r->{out}, qr/^init again: sweepmpi\.init: MPI was finalized; it cannot be started again$/m,
    'and init() cannot start it again');

# A rank that fails ends the whole job with its status (MPI_Abort), whichever rank it is,
# instead of finalizing and leaving the others waiting for it; os.exit does the same.
# (Open MPI's banner "MPI_ABORT was invoked on rank N" does not always reach mpirun, which
# then logs an ORTE_ERROR_LOG line instead: not checked.)
my $fail = lua_file('fail.lua', <<'LUA');
local m = require("mpi").load()
local rank = m.init()
if rank == tonumber(arg[1]) then
  if arg[2] == "exit" then os.exit(3) end
  error("case blew up on rank " .. rank)
end
m.recv() -- waits for a message that never comes
LUA
for my $case ([1, 'error', 1], [0, 'error', 1], [1, 'exit', 3]) {
    my ($who, $how, $code) = @$case;
    $r = run_mpirun(n => 2, args => [$fail, $who, $how], env => \%plain, timeout => 30);
    ok(!$r->{timed_out}, "rank $who fails ($how): the job ends");
    is($r->{status}, $code, "with status $code");
    like($r->{err}, qr/fail\.lua:\d+: case blew up on rank \Q$who\E/, 'after its message')
        if $how eq 'error';
}
# os.exit(0) in every rank ends MPI cleanly.
$r = run_mpirun(n => 2, args => ['-e', 'require("mpi").load().init() os.exit(0)'], env => \%plain);
is($r->{status}, 0, 'os.exit(0) in every rank: status 0') or diag($r->{err});

# ---- installed -----------------------------------------------------------------------------
SKIP: {
    skip 'cmake is not available', 4 if system('cmake --version >/dev/null 2>&1') != 0;
    my $dest = Cwd::abs_path(scratch_dir());
    is(system("DESTDIR='$dest' cmake --install '$build' >/dev/null 2>&1"), 0, 'a staged install');
    my ($prog) = glob("$dest/*/bin/mechlua $dest/*/*/bin/mechlua");
    my ($installed) = glob("$dest/*/lib*/mechlua/sweepmpi.so $dest/*/*/lib*/mechlua/sweepmpi.so");
    ok($installed, 'installs sweepmpi.so under lib/mechlua');
    $r = run_mechlua(program => $prog // 'missing',
        args => ['-e', 'print(package.searchpath("sweepmpi", package.cpath))'], env => \%plain);
    is($r->{out}, ($installed // 'none') . "\n", 'where the installed program finds it');
    $r = run_mpirun(n => 2, program => $prog // 'missing', args => [$ranks], env => \%plain);
    is($r->{out}, "rank 0 of 2: true openmpi, then running\nrank 1 of 2: true openmpi, then running\n",
        'the installed program runs under mpirun') or diag($r->{err});
}

done_testing();
