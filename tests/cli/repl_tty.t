# SPDX-License-Identifier: MIT
# The REPL on a terminal, driven through tmux as a person would use it: prompts,
# line editing, completion, continuation lines, Ctrl-C, history across sessions.
use strict;
use warnings;
use Test::More;
use MechTest;
use Time::HiRes qw(sleep time);

my ($tmux) = map { "$_/tmux" } grep { -x "$_/tmux" } split /:/, $ENV{PATH};
$tmux //= '';
ok($tmux ne '', 'tmux is installed (tools/setup installs it)') or BAIL_OUT('tmux is missing');

my $dir = scratch_dir();
my $sock;
my $hist = "$dir/history";
my $prog = mechlua_path();

sub tmux { system($tmux, '-S', $sock, @_) == 0 }
sub screen {
    my $out = `'$tmux' -S '$sock' capture-pane -p -t repl 2>/dev/null`;
    $out =~ s/[ \t]+$//mg;    # tmux keeps some trailing blanks, not others
    $out =~ s/\s+\z/\n/;
    return $out;
}
# Waits until the screen matches re (up to 15 s under the sanitizers); returns the screen.
sub wait_for {
    my ($re) = @_;
    my $end = time + 15;
    my $s = '';
    while (time < $end) {
        $s = screen();
        return $s if $s =~ $re;
        sleep 0.05;
    }
    diag("screen was:\n$s");
    return undef;
}
sub keys_ { tmux('send-keys', '-t', 'repl', @_) }
my $session = 0;
sub start {
    my (@args) = @_;
    $session++;
    $sock = "$dir/tmux$session.sock";    # a fresh server each time: no race with the last
    my $cmd = join ' ', map { "'$_'" } ('env', "HOME=$dir", "MECHLUA_HISTORY=$hist",
        'TERM=screen', $prog, @args);
    $cmd .= "; echo \$? > '$dir/status$session'";
    tmux('-f', '/dev/null', 'new-session', '-d', '-x', '100', '-y', '40', '-s', 'repl', $cmd)
        or die "cannot start tmux\n";
}
# The exit status of the program in the current session, once it has ended.
sub exit_status {
    my $end = time + 15;
    while (time < $end) {
        my $st = slurp("$dir/status$session");
        return $1 if defined $st && $st =~ /^(\d+)\n/;
        sleep 0.05;
    }
    return 'still running';
}
sub stop { tmux('kill-server') }

start();
ok(wait_for(qr/^mechlua [0-9.]+ \(Lua 5\.4\.\d+\)  Ctrl-D quits, Tab completes\n>$/m),
    'banner with the version, then the prompt');

keys_('1+1', 'Enter');
ok(wait_for(qr/^> 1\+1\n2\n>$/m), 'an expression shows its value and a new prompt');

keys_('mech.ver', 'Tab');
ok(wait_for(qr/^> mech\.version$/m), 'Tab completes a field to the longest common part');
keys_('Tab');
ok(wait_for(qr/^version\s+version_number\n> mech\.version$/m),
    'Tab again lists the candidates and redraws the line');
keys_('Enter');
ok(wait_for(qr/^"?[0-9]+\.[0-9]+\.[0-9]+"?\n>$/m), 'the completed expression runs');

keys_('pri', 'Tab');
ok(wait_for(qr/^> print$/m), 'Tab completes a global');
keys_('C-u', 'io.stdout:wr', 'Tab');
ok(wait_for(qr/^> io\.stdout:write$/m), 'Tab completes a method through the metatable');
keys_('C-u', 'whi', 'Tab');
ok(wait_for(qr/^> while$/m), 'Tab completes a keyword');
keys_('C-u');

keys_('function f()', 'Enter');
ok(wait_for(qr/^>>$/m), 'an unfinished chunk gives the continuation prompt');
keys_('return 40 + 2 end', 'Enter', 'f()', 'Enter');
ok(wait_for(qr/^> f\(\)\n42\n>$/m), 'the chunk completes and runs');

keys_('while true do end', 'Enter');
sleep 0.5;
keys_('C-c');
ok(wait_for(qr/^stdin:1: interrupted\nstack traceback:\n(?:.*\n)*>$/m),
    'Ctrl-C stops a running chunk and the prompt comes back');
keys_('6*7', 'Enter');
ok(wait_for(qr/^> 6\*7\n42\n>$/m), 'the session goes on after Ctrl-C');

keys_('abandoned line');
ok(wait_for(qr/^> abandoned line$/m), 'typing at the prompt');
keys_('C-c');
ok(wait_for(qr/^> abandoned line\n>$/m), 'Ctrl-C at the prompt drops the line');
keys_('Up');
ok(wait_for(qr/^> 6\*7$/m), 'Up recalls the previous entry (the dropped line is not in history)');
keys_('Enter');
ok(wait_for(qr/^> 6\*7\n42\n>$/m), 'the recalled entry runs');

keys_('error("bad")', 'Enter');
ok(wait_for(qr/^stdin:1: bad\nstack traceback:\n(?:.*\n)*>$/m), 'errors are reported, prompt returns');

keys_('C-d');
is(exit_status(), 0, 'Ctrl-D on an empty line leaves with status 0');
stop();

my $h = slurp($hist);
ok(defined $h && $h =~ /^6\*7$/m && $h =~ /^f\(\)$/m, 'history is saved to MECHLUA_HISTORY');
ok(defined $h && $h !~ /abandoned/, 'a line dropped with Ctrl-C is not saved');

# A new session recalls the last session's entries.
start();
ok(wait_for(qr/^>$/m), 'second session starts');
keys_('Up');
ok(wait_for(qr/^> error\("bad"\)$/m), 'history persists across sessions');
keys_('C-u', 'C-r', 'mech.ver');
ok(wait_for(qr/^> mech\.version\nbck:mech\.ver$/m), 'Ctrl-R searches the history');
keys_('C-c');
stop();

# -i: the script runs first, then the REPL sees its globals.
spew("$dir/setup.lua", "crank_length = 0.05\n");
start('-i', "$dir/setup.lua");
ok(wait_for(qr/^>$/m), '-i opens the REPL after the script');
keys_('crank_length * 2', 'Enter');
ok(wait_for(qr/^0\.1\n>$/m), 'globals of the script are visible in the REPL');
keys_('C-d');
stop();

# Completion on mechlua's own objects: methods of a system, fields of a run and a column.
start('-i', source_dir() . '/scripts/demo.lua', "$dir/out");
ok(wait_for(qr/^>$/m), 'the demo runs, then the REPL opens');
keys_('sys:si', 'Tab');
ok(wait_for(qr/^> sys:simulate$/m), 'Tab completes a system method');
keys_('C-u', 'run.sta', 'Tab');
ok(wait_for(qr/^> run\.stat$/m), 'Tab completes the common part of run fields');
keys_('Tab');
ok(wait_for(qr/^state\s+stats\s+status\n> run\.stat$/m), 'and lists them');
keys_('C-u', 'run.t:m', 'Tab');
ok(wait_for(qr/^max\s+mean\s+min\n> run\.t:m$/m), 'column methods, through the run');
keys_('C-u', 'run.stats.steps > 0', 'Enter');
ok(wait_for(qr/^true\n>$/m), 'the results are there to explore');
keys_('C-u', 'crank.', 'Tab');
ok(wait_for(qr/^channels\s+kind\s+name\s+point\s+system\n> crank\.$/m),
    'Tab on a rigid body lists its fields and methods, no flexible-body method');
keys_('C-u', 'crank:', 'Tab');
ok(wait_for(qr/^> crank:point$/m), 'its one method completes after ":"');
keys_('C-u', 'fe = sys:flexible{ name = "plate", mesh = mech.mesh.rectangle{ nx = 2 }, E = 1e5, density = 10 }', 'Enter');
keys_('C-u', 'fe:fr', 'Tab');
ok(wait_for(qr/^> fe:frequencies$/m), 'Tab completes a flexible body method');
keys_('C-u', 'fe.nn', 'Tab');
ok(wait_for(qr/^> fe\.nnodes$/m), 'and its fields');
keys_('Enter');
ok(wait_for(qr/^6\n>$/m), 'a mesh of 2 x 1 elements has 6 nodes');
keys_('C-d');
is(exit_status(), 0, 'and the session ends cleanly');
stop();

done_testing();
