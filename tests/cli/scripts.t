# SPDX-License-Identifier: MIT
# Running scripts: arg, errors and their format, exit codes, Ctrl-C, module loading.
use strict;
use warnings;
use Test::More;
use MechTest;

my $dir = scratch_dir();
my $r;

# --- arguments ------------------------------------------------------------------------
spew("$dir/args.lua", <<'LUA');
print(#arg, arg[0], arg[1], arg[2], arg[-1], arg[-2] ~= nil)
print(select('#', ...), ...)
LUA
$r = run_mechlua(args => ["$dir/args.lua", 'one', 'two words']);
is($r->{status}, 0, 'script exits 0');
is($r->{out}, "2\t$dir/args.lua\tone\ttwo words\t" . mechlua_path() . "\tfalse\n2\tone\ttwo words\n",
    'arg holds the script at 0, its arguments from 1, the program at -1; ... gets the arguments');

$r = run_mechlua(args => ['-e', 'x=1', "$dir/args.lua"]);
like($r->{out}, qr/^0\t\Q$dir\E\/args\.lua\tnil\tnil\tx=1\ttrue\n0\n/,
    'options before the script are at negative indices');

# --- errors -------------------------------------------------------------------------------
spew("$dir/runtime.lua", "local function f()\n  error('boom')\nend\n\nf()\n");
$r = run_mechlua(args => ["$dir/runtime.lua"]);
is($r->{status}, 1, 'runtime error exits 1');
like($r->{err}, qr/\A\Q$dir\E\/runtime\.lua:2: boom\nstack traceback:\n/,
    'first line is script:LINE: message, then the traceback');
like($r->{err}, qr/^\s+\Q$dir\E\/runtime\.lua:5: in main chunk$/m, 'traceback reaches the main chunk');

$r = run_mechlua(args => ['runtime.lua'], cwd => $dir);
like($r->{err}, qr/\Aruntime\.lua:2: boom\n/, 'the script is named as it was given');

spew("$dir/syntax.lua", "local x = 1\nlocal y = = 2\n");
$r = run_mechlua(args => ["$dir/syntax.lua"]);
is($r->{status}, 1, 'syntax error exits 1');
like($r->{err}, qr/\A\Q$dir\E\/syntax\.lua:2: unexpected symbol near .=.\n/, 'syntax error is script:LINE: message');

$r = run_mechlua(args => ["$dir/no_such_file.lua"]);
is($r->{status}, 1, 'missing script exits 1');
like($r->{err}, qr/cannot open \Q$dir\E\/no_such_file\.lua/, 'missing script is named');

spew("$dir/table_error.lua", "error({code = 7})\n");
$r = run_mechlua(args => ["$dir/table_error.lua"]);
like($r->{err}, qr/^\(error object is a table value\)\n/, 'non-string error objects are described');

spew("$dir/obj_error.lua",
    "error(setmetatable({}, {__tostring = function() return 'custom failure' end}))\n");
$r = run_mechlua(args => ["$dir/obj_error.lua"]);
like($r->{err}, qr/^custom failure\n/, 'error objects with __tostring are shown through it');

spew("$dir/exit.lua", "io.write('partial')\nos.exit(3)\n");
$r = run_mechlua(args => ["$dir/exit.lua"]);
is_deeply([$r->{status}, $r->{out}], [3, 'partial'], 'os.exit sets the status and flushes output');

spew("$dir/bigout.lua", "for i = 1, 20000 do print(i) end\n");
$r = run_mechlua(args => ["$dir/bigout.lua"]);
is(scalar(() = $r->{out} =~ /\n/g), 20000, 'all output is written');

spew("$dir/argerr.lua", "string.rep()\n");
$r = run_mechlua(args => ["$dir/argerr.lua"]);
like($r->{err}, qr/bad argument #1 to 'rep'/, 'argument errors name the function');

# --- Ctrl-C --------------------------------------------------------------------------------
spew("$dir/loop.lua", "local n = 0\nwhile true do\n  n = n + 1\nend\n");
$r = run_mechlua(args => ["$dir/loop.lua"], signal_after => 0.5, timeout => 20);
ok(!$r->{timed_out}, 'Ctrl-C stops an endless loop');
is($r->{signal}, 0, 'the process is not killed by the signal');
is($r->{status}, 1, 'an interrupted script exits 1');
like($r->{err}, qr/\A\Q$dir\E\/loop\.lua:[234]: interrupted\nstack traceback:/,
    'the interruption is an error located in the script');

spew("$dir/catch.lua", <<'LUA');
local ok, err = pcall(function() while true do end end)
print("caught", (tostring(err):gsub("^.-: ", "")))
LUA
$r = run_mechlua(args => ["$dir/catch.lua"], signal_after => 0.5, timeout => 20);
is_deeply([$r->{status}, $r->{out}], [0, "caught\tinterrupted\n"],
    'the interruption is an ordinary Lua error that pcall can catch');

# --- modules: mech and the stdlib ----------------------------------------------------------
my $version = project_version();
$r = run_mechlua(args => ['-e', 'local m = require "mech"; print(m.version, m == mech, rawequal(package.loaded.mech, m))']);
is($r->{out}, "$version\ttrue\ttrue\n", 'require "mech" gives the global mech, which reports the version');

$r = run_mechlua(args => ['-e', 'print(package.searchpath("tap", package.path))'], cwd => $dir,
    env => { LUA_PATH => undef, LUA_PATH_5_4 => undef });
my $build = build_dir();
is($r->{out}, "$build/share/mechlua/lua/tap.lua\n", 'stdlib modules load from the build tree, from any folder');

SKIP: {
    my $prefix = "$dir/prefix";
    my $inst = system("cmake --install '$build' --prefix '$prefix' >'$dir/install.log' 2>&1");
    ok($inst == 0, 'cmake --install into a fresh prefix') or diag(slurp("$dir/install.log"));
    skip 'install failed', 3 if $inst != 0;
    $r = run_mechlua(program => "$prefix/bin/mechlua", cwd => $dir,
        args => ['-e', 'local t = require "tap"; print(package.searchpath("tap", package.path), mech.version)'],
        env => { LUA_PATH => undef, LUA_PATH_5_4 => undef });
    is($r->{out}, "$prefix/share/mechlua/lua/tap.lua\t$version\n",
        'the installed program finds its installed stdlib with no environment variable');
    ok(-f "$prefix/share/man/man1/mechlua.1", 'the man page is installed');
    $r = run_mechlua(program => "$prefix/bin/mechlua", args => ['-v']);
    is($r->{status}, 0, 'the installed program runs');
}

done_testing();
