# SPDX-License-Identifier: MIT
# The API fuzzer's fixed slice (tests/fuzz): seed 1, cases 1 to 60, on the sanitizer
# build, in under a minute.  A finding fails the test, except the known ones (bugs in
# tests/fuzz/FINDINGS.md not fixed yet, tests/fuzz/known), which are TODO tests.
use strict;
use warnings;
use Test::More;
use MechTest;

my $cache = slurp(build_dir() . '/CMakeCache.txt') // '';
plan skip_all => 'the fuzzer runs on the sanitizer build (MECH_SANITIZE=ON)'
    unless $cache =~ /^MECH_SANITIZE:BOOL=ON$/m;

my $cases = 60;
my $src = source_dir();
my $out = scratch_dir();

# The generator writes the same case for the same seed and number.
my $gen = "$src/tests/fuzz/gen.lua";
system(mechlua_path(), $gen, 7, 3, 1, 1, $out) == 0 or BAIL_OUT("gen.lua failed");
my $first = slurp("$out/case-7-3.lua");
unlink "$out/case-7-3.lua";
system(mechlua_path(), $gen, 7, 1, 1, 4, $out) == 0 or BAIL_OUT("gen.lua failed");
ok(length $first > 1000 && $first eq slurp("$out/case-7-3.lua"),
    'a case depends on its seed and number only');
is(system(mechlua_path(), '-e', "loadfile('$out/case-7-3.lua')") >> 8, 0, 'and compiles');

my $report = `'$src/tests/fuzz/run' --build '${\ build_dir()}' --seed 1 --cases $cases --jobs 2 --out '$out/fuzz' --quiet 2>&1`;
my $status = $? >> 8;
diag($report =~ /^(fuzz: seed .*)$/m ? $1 : $report);
like($report, qr/^fuzz: seed 1, cases 1\.\.$cases: $cases cases in /m, "the driver ran $cases cases");
for my $line (split /\n/, slurp("$out/fuzz/summary.txt") // '') {
    my ($kind, $case, $id, $sig) = $line =~ /^finding (\S+) (\S+) (\S+) (.*)$/ or next;
    if ($id ne '-') {
        TODO: {
            local $TODO = "known finding $id (tests/fuzz/FINDINGS.md)";
            ok(0, "case $case: $kind: $sig");
        }
    } else {
        fail("case $case: new finding: $kind: $sig");
        diag(slurp("$out/fuzz/findings/$kind-$case/ending") // '');
    }
}
is($status, 0, 'no finding but known ones');
done_testing();
