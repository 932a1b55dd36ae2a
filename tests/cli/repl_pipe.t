# SPDX-License-Identifier: MIT
# The REPL driven through a pipe: no banner, no prompts, values shown, errors reported.
use strict;
use warnings;
use Test::More;
use MechTest;

sub repl {
    my ($input, %o) = @_;
    return run_mechlua(stdin => $input, %o);
}

my $r = repl("1 + 1\n");
is_deeply([$r->{status}, $r->{out}, $r->{err}], [0, "2\n", ''],
    'an expression shows its value, with no banner or prompt');

$r = repl("x = 5\nx * 2\n");
is($r->{out}, "10\n", 'a statement shows nothing; state carries to the next line');

$r = repl("1, 'a', nil, true\n");
is($r->{out}, "1\ta\tnil\ttrue\n", 'several values are separated by tabs');

$r = repl("2^53\n7 // 2\n'line1\\nline2'\n");
is($r->{out}, "9.007199254741e+15\n3\nline1\nline2\n",
    'numbers as tostring shows them; strings printed as they are');

# --- tables: one level, sorted keys, length --------------------------------------------
$r = repl(qq({10, 20, name = "crank", pos = {0.05, 0}, [5.5] = true, empty = {}, [false] = 1}\n));
is($r->{out},
    qq({ 10, 20, [5.5] = true, empty = {}, name = "crank", pos = {...}, [false] = 1 }  -- #2\n),
    'a table lists its sequence, then its other keys sorted, then its length');
$r = repl("{}\n");
is($r->{out}, "{}  -- #0\n", 'an empty table');
$r = repl(qq(s = mech.planar{}\nb = s:body{ name = "b", mass = 1, inertia = 1 }\nb.channels\n)
    . qq(print(b.channels)\n));
is($r->{out}, qq({ "x", "y", "phi", "vx", "vy", "omega", "ax", "ay", "alpha", "kinetic" }  -- #10\n)
    . qq(x, y, phi, vx, vy, omega, ax, ay, alpha, kinetic\n),
    "an entity's channels show as the list they are; print gives them on one line");
$r = repl(qq({["two words"] = 1, ["end"] = 2, q = "say \\"hi\\"\\n"}\n));
is($r->{out}, qq({ ["end"] = 2, q = "say \\"hi\\"\\n", ["two words"] = 1 }  -- #0\n),
    'keys that are not names are bracketed; strings are quoted and escaped');
$r = repl("local t = {} for i = 1, 100 do t[i] = i * i end return t\n");
like($r->{out}, qr/^\{ 1, 4, 9, .*, 1600, \.\.\. \(\+60 more\) \}  -- #100\n\z/,
    'a long table shows 40 entries and the count of the rest');
$r = repl(qq(string.rep("x", 500)\n{string.rep("x", 500)}\n));
like($r->{out}, qr/^x{500}\n\{ "x{120}"\.\.\.\(500 bytes\) \}  -- #1\n\z/,
    'long strings are shortened inside tables only');

$r = repl("setmetatable({}, {__tostring = function() return 'a custom object' end})\n");
is($r->{out}, "a custom object\n", 'tables with __tostring are shown through it');
$r = repl("io.stdout\n");
like($r->{out}, qr/^file \(0x[0-9a-f]+\)\n\z/, 'userdata are shown through __tostring');
$r = repl("mech\n");
like($r->{out}, qr/^\{ .*deg = function: 0x[0-9a-f]+, .*, version = "[0-9.]+", version_number = \d+, warnings = true \}  -- #0\n\z/,
    'the mech module is a global and is shown with its fields');

# --- chunks spanning lines ------------------------------------------------------------------
$r = repl("function f(a)\n  return a * 2\nend\nf(21)\n");
is($r->{out}, "42\n", 'an unfinished function continues on the next lines');
$r = repl("{1,\n 2,\n 3}\n");
is($r->{out}, "{ 1, 2, 3 }  -- #3\n", 'an expression may span lines');
$r = repl("for i = 1, 3 do\n io.write(i, ' ')\nend\n");
is($r->{out}, "1 2 3 ", 'a loop spanning lines runs once complete');
$r = repl("x =\n 7\nx\n");
is($r->{out}, "7\n", 'an assignment may continue on the next line');

# --- errors ------------------------------------------------------------------------------------
$r = repl("error('boom')\n1 + 2\n");
like($r->{err}, qr/^stdin:1: boom\nstack traceback:\n/, 'a runtime error is reported with a traceback');
is($r->{out}, "3\n", 'the REPL goes on after an error');
is($r->{status}, 1, 'a piped REPL with a failed chunk exits 1');

$r = repl("x = = 1\n2\n");
like($r->{err}, qr/^stdin:1: unexpected symbol near '='\n/, 'a syntax error is reported');
is($r->{out}, "2\n", 'and the REPL goes on');

$r = repl("function f(\n");
like($r->{err}, qr/^stdin:1: .*near <eof>\n/, 'input ending inside a chunk reports the unfinished chunk');

$r = repl("setmetatable({}, {__tostring = function() error('bad tostring') end})\n'still here'\n");
like($r->{err}, qr/bad tostring/, 'an error while showing a value is reported');
is($r->{out}, "still here\n", 'and does not stop the REPL');

$r = repl("local t = setmetatable({}, {__index = function() error('no') end}) return t\n");
like($r->{out}, qr/^\{\}  -- #0\n/, 'showing a table does not call __index');

$r = repl("do setmetatable(_G, {__index = function(_, k) error('no global ' .. k) end}) end\n"
    . "print('still here')\n");
is_deeply([$r->{status}, $r->{out}, $r->{err}], [0, "still here\n", ''],
    'an __index function on _G is not run by the REPL itself (it ended the REPL)');

$r = repl("print('before')\nos.exit(4)\nprint('after')\n");
is_deeply([$r->{status}, $r->{out}], [4, "before\n"], 'os.exit ends the REPL with its status');

# --- -i: script, then REPL ------------------------------------------------------------------
my $dir = scratch_dir();
spew("$dir/setup.lua", "answer = 6 * 7\n");
$r = run_mechlua(args => ['-i', "$dir/setup.lua"], stdin => "answer\n");
is_deeply([$r->{status}, $r->{out}], [0, "42\n"], '-i runs the script, then the REPL sees its globals');
$r = run_mechlua(args => ['-i', '-e', 'y = 3'], stdin => "y + 1\n");
is($r->{out}, "4\n", '-i after -e');

# --- Ctrl-C while a piped chunk runs --------------------------------------------------------
$r = run_mechlua(stdin => "while true do end\n", signal_after => 0.5, timeout => 20);
like($r->{err}, qr/^stdin:1: interrupted\n/, 'Ctrl-C stops the running chunk with an error');
is($r->{signal}, 0, 'and does not kill the REPL');

done_testing();
