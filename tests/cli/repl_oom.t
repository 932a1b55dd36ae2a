# SPDX-License-Identifier: MIT
# Tab completion on a terminal (through tmux) with allocation k failing, and every later
# one, for k = 1, 2, ... until the completion goes through: the REPL must stay up (a
# memory error must not unwind through libedit), and end cleanly on Ctrl-D with no
# sanitizer report.  Needs a build with MECH_FAULT_INJECTION (the sanitizer build).
use strict;
use warnings;
use Test::More;
use MechTest;
use Time::HiRes qw(sleep time);

my $prog = mechlua_path();
if (system($prog, '-e', 'os.exit(package.preload.faultinject and 0 or 3)') != 0) {
    plan skip_all => 'this build has no allocation fault injection (MECH_FAULT_INJECTION)';
}
my ($tmux) = map { "$_/tmux" } grep { -x "$_/tmux" } split /:/, $ENV{PATH};
$tmux //= '';
ok($tmux ne '', 'tmux is installed (tools/setup installs it)') or BAIL_OUT('tmux is missing');

my $dir = scratch_dir();
my ($sock, $errfile, $statusfile);
sub tmux { system($tmux, '-S', $sock, @_) == 0 }
sub screen {
    my $out = `'$tmux' -S '$sock' capture-pane -p -t repl 2>/dev/null`;
    $out =~ s/[ \t]+$//mg;
    return $out;
}
sub ended { my $st = slurp($statusfile); return defined $st && $st =~ /^\d+\n/ }
# Waits (up to 15 s under the sanitizers) until the screen matches re or the program ended.
sub wait_for {
    my ($re) = @_;
    my $end = time + 15;
    while (time < $end) {
        return 1 if screen() =~ $re;
        return 0 if ended();
        sleep 0.05;
    }
    return 0;
}
sub keys_ { tmux('send-keys', '-t', 'repl', @_) }

my ($completed, $k, @bad) = (0, 0);
while (!$completed && $k < 200) {
    $k++;
    $sock = "$dir/tmux$k.sock";
    $errfile = "$dir/err$k";
    $statusfile = "$dir/status$k";
    my $cmd = join ' ', map { "'$_'" } ('env', "HOME=$dir", 'MECHLUA_HISTORY=', 'TERM=screen',
        $prog, '-e', 'fi = require "faultinject"', '-i');
    $cmd .= " 2>'$errfile'; echo \$? > '$statusfile'";
    tmux('-f', '/dev/null', 'new-session', '-d', '-x', '100', '-y', '40', '-s', 'repl', $cmd)
        or die "cannot start tmux\n";
    if (!wait_for(qr/^>$/m)) {
        push @bad, "k = $k: no prompt";
        last;
    }
    keys_("fi.arm($k)", 'Enter');
    if (!wait_for(qr/^> fi\.arm\($k\)\n>$/m)) {
        push @bad, "k = $k: no prompt after fi.arm";
        last;
    }
    # the Z shows that the Tab was handled: completed, or refused
    keys_('mech.ver', 'Tab', 'Z');
    if (!wait_for(qr/^> mech\.ver(?:sion)?Z$/m)) {
        push @bad, "k = $k: Tab did not leave the line in the editor";
    }
    $completed = screen() =~ /^> mech\.versionZ$/m;
    # the line is dropped and the REPL left: it must still be there to read Ctrl-D
    keys_('C-u', 'C-d');
    my $end = time + 15;
    sleep 0.05 until ended() || time > $end;
    my $st = slurp($statusfile) // "still running\n";
    my $err = slurp($errfile) // '';
    chomp $st;
    push @bad, "k = $k: exit status $st" if $st ne '0';
    push @bad, "k = $k: a memory error escaped the completion" if $err =~ /not enough memory/;
    push @bad, "k = $k: sanitizer report" if $err =~ /ERROR: (?:Address|Leak)Sanitizer|runtime error/;
    system("'$tmux' -S '$sock' kill-server 2>/dev/null");
    last if @bad;
}
ok($completed, "Tab completes once allocation k = $k is past the completion");
ok($k > 1, 'allocations of the completion failed before that');
is_deeply(\@bad, [], "the REPL survives a failing completion and ends cleanly for k = 1 .. $k");
diag(slurp($errfile) // '') if @bad;

done_testing();
