# SPDX-License-Identifier: MIT
# Command-line options of mechlua: each flag, usage errors and exit status.
use strict;
use warnings;
use Test::More;
use MechTest;

my $version = project_version();
my $r;

# --- version and help -------------------------------------------------------------
for my $flag ('-v', '--version') {
    $r = run_mechlua(args => [$flag]);
    is($r->{status}, 0, "$flag exits 0");
    like($r->{out}, qr/^mechlua \Q$version\E \(libmech \Q$version\E, Lua 5\.4\.\d+\)\n\z/,
        "$flag prints the program, library and Lua versions");
    is($r->{err}, '', "$flag writes nothing to stderr");
}

for my $flag ('-h', '--help') {
    $r = run_mechlua(args => [$flag]);
    is($r->{status}, 0, "$flag exits 0");
    like($r->{out}, qr/^usage: mechlua \[options\] \[script \[args\.\.\.\]\]/, "$flag shows usage");
    for my $opt ('-e code', '-i', '-l name', '-v, --version', '-h, --help', '-E', '-W', '--', '-  ') {
        like($r->{out}, qr/^  \Q$opt\E/m, "$flag documents $opt");
    }
}

$r = run_mechlua(args => ['-v', '-e', 'print("after")']);
is($r->{out}, "mechlua $version (libmech $version, Lua " . ($r->{out} =~ /Lua (5\.4\.\d+)/)[0]
    . ")\nafter\n", '-v then -e: version first, then the code runs');

# --- usage errors exit 2 ---------------------------------------------------------------
for my $case (
    [['-x'],          qr/^mechlua: unrecognized option '-x'\n/],
    [['--frobnicate'], qr/^mechlua: unrecognized option '--frobnicate'\n/],
    [['-ix'],         qr/^mechlua: unrecognized option '-ix'\n/],
    [['-e'],          qr/^mechlua: missing argument to option '-e'\n/],
    [['-l'],          qr/^mechlua: missing argument to option '-l'\n/],
    [['-i', '-e'],    qr/^mechlua: missing argument to option '-e'\n/],
) {
    my ($args, $want) = @$case;
    $r = run_mechlua(args => $args);
    is($r->{status}, 2, "@$args: usage error exits 2");
    like($r->{err}, $want, "@$args: the message names the option");
    like($r->{err}, qr/Try 'mechlua --help'/, "@$args: points to --help");
    is($r->{out}, '', "@$args: nothing on stdout");
}

# --- -e ----------------------------------------------------------------------------------
$r = run_mechlua(args => ['-e', 'print(1 + 1)']);
is_deeply([$r->{status}, $r->{out}], [0, "2\n"], '-e runs code');
$r = run_mechlua(args => ['-ex = 6', '-e', 'print(x * 7)']);
is($r->{out}, "42\n", '-e options run in order, attached argument accepted');
$r = run_mechlua(args => ['-e', 'error("boom")']);
is($r->{status}, 1, '-e error exits 1');
like($r->{err}, qr/^\(command line\):1: boom\nstack traceback:\n/, '-e error has location and traceback');
$r = run_mechlua(args => ['-e', 'x = = 1']);
is($r->{status}, 1, '-e syntax error exits 1');
like($r->{err}, qr/^\(command line\):1: unexpected symbol near '='/, '-e syntax error is reported');
$r = run_mechlua(args => ['-e', 'print("first")', '-e', 'error("stop")', '-e', 'print("never")']);
is($r->{out}, "first\n", 'an error in -e stops the later options');

# --- -l ----------------------------------------------------------------------------------
$r = run_mechlua(args => ['-l', 'tap', '-e', 'print(type(tap.ok))']);
is($r->{out}, "function\n", '-l name loads a stdlib module into a global');
$r = run_mechlua(args => ['-l', 't=tap', '-e', 'print(type(t.ok), tap)']);
is($r->{out}, "function\tnil\n", '-l g=name stores the module in global g');
$r = run_mechlua(args => ['-l', 'no_such_module_xyz']);
is($r->{status}, 1, '-l of a missing module exits 1');
like($r->{err}, qr/module 'no_such_module_xyz' not found/, '-l reports the missing module');

# --- -E and LUA_INIT -------------------------------------------------------------------
my $dir = scratch_dir();
spew("$dir/init.lua", "print('init file')\n");
$r = run_mechlua(args => ['-e', 'print("code")'], env => { LUA_INIT => 'print("init")' });
is($r->{out}, "init\ncode\n", 'LUA_INIT runs before the code');
$r = run_mechlua(args => ['-e', ''], env => { LUA_INIT => 'x', LUA_INIT_5_4 => 'print("5.4")' });
is($r->{out}, "5.4\n", 'LUA_INIT_5_4 wins over LUA_INIT');
$r = run_mechlua(args => ['-e', ''], env => { LUA_INIT => "\@$dir/init.lua" });
is($r->{out}, "init file\n", 'LUA_INIT=@file runs the file');
$r = run_mechlua(args => ['-E', '-e', 'print("code")'], env => { LUA_INIT => 'print("init")' });
is($r->{out}, "code\n", '-E ignores LUA_INIT');
$r = run_mechlua(args => ['-E', '-e', 'print(package.path:find("/env/", 1, true) ~= nil)'],
    env => { LUA_PATH => '/env/?.lua' });
is($r->{out}, "false\n", '-E ignores LUA_PATH');
$r = run_mechlua(args => ['-e', 'print(package.path:find("/env/", 1, true) ~= nil)'],
    env => { LUA_PATH => '/env/?.lua' });
is($r->{out}, "true\n", 'LUA_PATH is used without -E');
$r = run_mechlua(args => ['-e', ''], env => { LUA_INIT => 'error("init failed")' });
is($r->{status}, 1, 'an error in LUA_INIT exits 1');
like($r->{err}, qr/^LUA_INIT:1: init failed/, 'LUA_INIT errors name their source');

# --- -W ----------------------------------------------------------------------------------
$r = run_mechlua(args => ['-W', '-e', 'warn("careful")']);
like($r->{err}, qr/Lua warning: careful/, '-W turns warnings on');
$r = run_mechlua(args => ['-e', 'warn("careful")']);
is($r->{err}, '', 'warnings are off by default');

# --- - and -- ----------------------------------------------------------------------------
$r = run_mechlua(args => ['-', 'a', 'b'], stdin => "print(arg[0], #arg, ...)\n");
is($r->{out}, "-\t2\ta\tb\n", '- runs standard input as a script with arguments');
$r = run_mechlua(args => ['-'], stdin => "error('from stdin')\n");
like($r->{err}, qr/^stdin:1: from stdin\n/, 'errors in a script from stdin are located');
spew("$dir/-e", "print('a file named -e')\n");
$r = run_mechlua(args => ['--', '-e'], cwd => $dir);
is($r->{out}, "a file named -e\n", '-- ends the options: the next word is the script');

done_testing();
