# SPDX-License-Identifier: MIT
# fig:save writes a figure whole or not at all, also when Ctrl-C comes while it draws
# (issue 14): the SIGINT is held while the figure is drawn and renamed into place, and a
# pending one makes the save fail with no file and no temporary left behind.  The child
# runs with SIGINT blocked, and sends itself one just before the second save: the signal
# is then pending exactly as one pressed during the drawing would be.
use strict;
use warnings;
use Test::More;
use POSIX ();
use MechTest;

my $dir = scratch_dir();
spew("$dir/save.lua", <<'LUA');
local plot = require "plot"
local dir = arg[1]
local x, y = {}, {}
for i = 1, 200000 do x[i], y[i] = i, math.sin(i / 100) end
local fig = plot.figure{ x = x, y = y, title = "sine" }
print("first", pcall(fig.save, fig, dir .. "/before.png"))
local pid = io.open("/proc/self/stat"):read("n")
io.popen("kill -INT " .. pid):close() -- not os.execute: system() ignores SIGINT meanwhile
print("second", pcall(fig.save, fig, dir .. "/after.png"))
print("third", pcall(fig.save, fig, dir .. "/after.svg"))
LUA

my $block = POSIX::SigSet->new(POSIX::SIGINT());
my $old = POSIX::SigSet->new();
POSIX::sigprocmask(POSIX::SIG_BLOCK(), $block, $old) or die "sigprocmask: $!\n";
# fork and exec without a shell: dash clears the signal mask
my $pid = open(my $fh, '-|') // die "fork: $!\n";
if ($pid == 0) {
    open STDERR, '>&', \*STDOUT or POSIX::_exit(126);
    { no warnings 'exec'; exec { mechlua_path() } mechlua_path(), "$dir/save.lua", $dir; }
    POSIX::_exit(127);
}
my $out = do { local $/; <$fh> } // '';
close $fh;
my $status = $?;
POSIX::sigprocmask(POSIX::SIG_SETMASK(), $old) or die "sigprocmask: $!\n";

is($status, 0, 'the script ends normally') or diag($out);
like($out, qr/^first\ttrue\t\Q$dir\E\/before\.png$/m, 'a save with no Ctrl-C succeeds');
like($out, qr/^second\tfalse\t.*fig:save: interrupted: '\Q$dir\E\/after\.png' was not written$/m,
    'a Ctrl-C pending during the save makes it fail, naming the file');
like($out, qr/^third\tfalse\t.*fig:save: interrupted: '\Q$dir\E\/after\.svg' was not written$/m,
    'in every format');
opendir my $dh, $dir or die "$dir: $!\n";
my @left = sort grep { !/^\.\.?$/ && $_ ne 'save.lua' } readdir $dh;
closedir $dh;
is("@left", 'before.png', 'no file and no temporary file is left of the interrupted saves');
done_testing();
