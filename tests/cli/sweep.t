# SPDX-License-Identifier: MIT
# Parameter studies from outside (module sweep): a study killed half way loses only the
# cases in flight and its rerun runs only those not finished; Ctrl-C on a terminal (tmux)
# keeps the finished cases and leaves no worker behind; the progress line shows on a
# terminal only; the workers' output is written once.  No timing is asserted: the waits
# below are for things to happen, with generous limits.
use strict;
use warnings;
use Test::More;
use POSIX ();
use Time::HiRes qw(sleep time);
use MechTest;

my $dir = scratch_dir();
my $prog = mechlua_path();

# study.lua FOLDER [N [SECONDS [LONG]]]: N cases of SECONDS of CPU each on 2 workers, but
# cases 5 and after take 20 s with LONG; each case adds a line to ran.log in its folder
# when it starts.
my $study = "$dir/study.lua";
spew($study, <<'LUA');
local sweep = require "sweep"
local folder, n, secs, long = arg[1], tonumber(arg[2]) or 12, tonumber(arg[3]) or 0.3, arg[4] == "long"
io.write("before the sweep\n")
local list = {}
for i = 1, n do list[i] = { i = i } end
local res = sweep.run{ list, folder = folder, workers = 2, name = "study", case = function(p, dir)
  local f = assert(io.open(dir .. "/ran.log", "a"))
  f:write("ran\n")
  f:close()
  local t0 = os.clock()
  local s = long and p.i >= 5 and 20 or secs
  while os.clock() - t0 < s do end
  print("case " .. p.i)
  return { square = p.i * p.i }
end }
print(string.format("done: %d cases, %d ran, %d resumed, %d ok", #res, res.ran, res.resumed, res.ok))
LUA

# The result files of a study's folder, and the lines of each case's ran.log.
sub results { my ($folder) = @_; return scalar(() = glob("$folder/cases/*/result")) }
sub ran_counts {
    my ($folder) = @_;
    my %n;
    for my $log (glob("$folder/cases/*/ran.log")) {
        my ($key) = $log =~ m{/cases/([^/]+)/ran\.log$};
        $n{$key} = () = (slurp($log) // '') =~ /^ran$/mg;
    }
    return \%n;
}
sub finished_keys { my ($folder) = @_; return map { m{/cases/([^/]+)/result$} } glob("$folder/cases/*/result") }

# The processes running the study script: the program and its workers (forks of it, with
# its command line), not the shell that started it.
sub study_processes {
    my @pids;
    for my $cmd (glob('/proc/[0-9]*/cmdline')) {
        my $c = slurp($cmd) // next;
        push @pids, $cmd =~ m{/proc/(\d+)/} if index($c, "$prog\0$study\0") == 0;
    }
    return @pids;
}
sub no_study_left {    # waits up to 3 s for the study's processes to end (its long cases take 20)
    my $end = time + 3;
    while (time < $end) {
        return 1 if !study_processes();
        sleep 0.05;
    }
    diag('still running: ' . join(' ', study_processes()));
    return 0;
}
sub wait_until {
    my ($cond, $limit) = @_;
    my $end = time + ($limit // 60);
    while (time < $end) { return 1 if $cond->(); sleep 0.02 }
    return 0;
}

# ---- a study that finishes, not on a terminal --------------------------------------------
{
    my $folder = "$dir/plain";
    my $r = run_mechlua(args => [$study, $folder, 6, 0.05], timeout => 120);
    is($r->{status}, 0, 'a study runs to its end');
    like($r->{out}, qr/^done: 6 cases, 6 ran, 0 resumed, 6 ok$/m, 'every case ran');
    is(scalar(() = $r->{out} =~ /^before the sweep$/mg), 1,
        "the program's buffered output is written once (flushed before each fork)");
    is(scalar(() = $r->{out} =~ /^case \d$/mg), 6, "each worker's own output is written");
    unlike($r->{err}, qr/sweep study:/, 'no progress line when stderr is not a terminal');
    my $csv = slurp("$folder/results.csv") // '';
    like($csv, qr/^case,key,i,square,status,message,wall \[s\],worker\n/m, 'results.csv: its columns');
    is(scalar(() = $csv =~ /^\d+,[0-9a-f]{16},\d+,\d+,ok,,[0-9.e-]+,[12]$/mg), 6, 'results.csv: a row per case');
    $r = run_mechlua(args => [$study, $folder, 6, 0.05], timeout => 120);
    like($r->{out}, qr/^done: 6 cases, 0 ran, 6 resumed, 6 ok$/m, 'run again: every case resumed, none ran');
}

# ---- SIGKILL half way, then the rerun -----------------------------------------------------
{
    my $folder = "$dir/killed";
    my $pid = fork // die "fork: $!\n";
    if ($pid == 0) {
        open STDOUT, '>', "$dir/killed.out" or POSIX::_exit(126);
        open STDERR, '>', "$dir/killed.err" or POSIX::_exit(126);
        { no warnings 'exec'; exec { $prog } $prog, $study, $folder, 12, 0.2, 'long'; }
        POSIX::_exit(127);
    }
    ok(wait_until(sub { results($folder) >= 4 }), 'the study finishes some cases')
        or diag(slurp("$dir/killed.err"));
    kill 'KILL', $pid;
    waitpid($pid, 0);
    is($? & 127, 9, 'the program is killed outright (SIGKILL)');
    my $finished = results($folder);
    my %done = map { $_ => 1 } finished_keys($folder);
    is($finished, 4, "half way: the 4 short cases finished, the long ones in flight");
    ok(no_study_left(), 'its workers end with it (no worker left running)');
    my $r = run_mechlua(args => [$study, $folder, 12, 0.05], timeout => 120);
    is($r->{status}, 0, 'the rerun completes');
    my $left = 12 - $finished;
    like($r->{out}, qr/^done: 12 cases, $left ran, $finished resumed, 12 ok$/m,
        "the rerun runs only the $left unfinished cases");
    my $runs = ran_counts($folder);
    my @twice = grep { $runs->{$_} != 1 } grep { $done{$_} } keys %$runs;
    is(scalar @twice, 0, 'no finished case ran twice');
    is(scalar(keys %$runs), 12, 'every case ran');
}

# ---- SIGINT to the program (not on a terminal) ----------------------------------------------
{
    my $folder = "$dir/sigint";
    my $r = run_mechlua(args => [$study, $folder, 12, 0.2, 'long'], signal_after => 2, timeout => 60);
    is($r->{status}, 1, 'SIGINT: the study stops with an error');
    my $k = results($folder);
    like($r->{err}, qr/study\.lua:\d+: sweep\.run: interrupted \($k of 12 cases done, kept in \Q$folder\E\)/,
        "the error says how many cases were done and kept ($k)");
    ok(no_study_left(), 'no worker left');
    my $csv = slurp("$folder/results.csv") // '';
    is(scalar(() = $csv =~ /,ok,,/g), $k, 'results.csv holds the finished cases');
    like($csv, qr/,(?:interrupted|pending),/, 'and the others as interrupted or pending');
}

# ---- Ctrl-C on a terminal ---------------------------------------------------------------------
my ($tmux) = map { "$_/tmux" } grep { -x "$_/tmux" } split /:/, $ENV{PATH};
SKIP: {
    skip 'tmux is missing', 9 unless $tmux;
    my $sock = "$dir/tmux.sock";
    my $folder = "$dir/tty";
    my $tx = sub { system($tmux, '-S', $sock, @_) == 0 };
    my $screen = sub {
        my $out = `'$tmux' -S '$sock' capture-pane -p -t study 2>/dev/null`;
        $out =~ s/[ \t]+$//mg;
        return $out;
    };
    my $cmd = join ' ', map { "'$_'" } ('env', 'TERM=screen', $prog, $study, $folder, 16, 0.3, 'long');
    $cmd .= "; echo \$? > '$dir/tty.status'; sleep 30";
    $tx->('-f', '/dev/null', 'new-session', '-d', '-x', '120', '-y', '30', '-s', 'study', $cmd)
        or die "cannot start tmux\n";
    my $s = '';
    ok(wait_until(sub { $s = $screen->(); $s =~ m{^sweep study: \d+/16 cases \(\d+ failed, \d running\)  (?:\d+ s left|\.\.\.)}m }),
        'a progress line on the terminal: cases done, failed, running, time left') or diag("screen:\n$s");
    ok(wait_until(sub { results($folder) >= 4 }), 'some cases finish');
    $tx->('send-keys', '-t', 'study', 'C-c');
    ok(wait_until(sub { -s "$dir/tty.status" }, 30), 'Ctrl-C ends the program');
    is(slurp("$dir/tty.status"), "1\n", 'with status 1');
    my $k = results($folder);
    $s = $screen->();
    like($s, qr/sweep\.run: interrupted \($k of 16 cases done, kept in \Q$folder\E\)/,
        "the error: interrupted, $k cases done and kept") or diag("screen:\n$s");
    ok(no_study_left(), 'no worker left behind');
    $tx->('kill-server');
    my %done = map { $_ => 1 } finished_keys($folder);
    my $r = run_mechlua(args => [$study, $folder, 16, 0.05], timeout => 120);
    my $left = 16 - $k;
    like($r->{out}, qr/^done: 16 cases, $left ran, $k resumed, 16 ok$/m,
        'the finished cases were kept: a rerun runs the others only');
    my $runs = ran_counts($folder);
    is(scalar(grep { $runs->{$_} != 1 } grep { $done{$_} } keys %$runs), 0, 'no finished case ran twice');
    is(scalar(keys %$runs), 16, 'every case ran');
}

done_testing();
