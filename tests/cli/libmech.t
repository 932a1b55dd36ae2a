# SPDX-License-Identifier: MIT
# libmech as an installed C library: the build tree installs into a scratch prefix, and the
# README's C example ("Using libmech from C"), taken from the README as it is, builds
# against that tree with pkg-config, runs, and prints the slider-crank's closed form.  A
# normal build links the example against the shared library (which exports the mech_ names
# only); the sanitizer build installs no shared library, and links the static one.
use strict;
use warnings;
use Test::More;
use MechTest;

sub which {
    my ($tool) = @_;
    for my $dir (split /:/, $ENV{PATH} // '') {
        return "$dir/$tool" if length $dir && -x "$dir/$tool";
    }
    return undef;
}
for my $tool (qw(cc cmake pkg-config)) {
    plan skip_all => "$tool is not installed (tools/packages lists what the tests need)"
        unless which($tool);
}

# Runs a command (a list, no shell); returns { status, out, err } as run_mechlua does.
sub run {
    my ($env, @cmd) = @_;
    return run_mechlua(program => shift @cmd, args => \@cmd, env => $env, timeout => 300);
}

my $version = project_version();
my ($major) = $version =~ /^(\d+)/;
my $build = build_dir();
my $dir = scratch_dir();
my $prefix = "$dir/prefix";

my $r = run({}, 'cmake', '--install', $build, '--prefix', $prefix);
is($r->{status}, 0, 'cmake --install puts the build tree into a scratch prefix')
    or diag($r->{out} . $r->{err});

# What is installed: the public headers, the libraries, the pkg-config file.
my $libdir = (grep { -f "$_/pkgconfig/libmech.pc" } glob("$prefix/lib*"), glob("$prefix/lib/*"))[0];
ok(defined $libdir, 'libmech.pc is installed under lib*/pkgconfig') or BAIL_OUT('no libmech.pc');
for my $h (qw(mech.h mech_core.h mech_system.h mech_sim.h mech_integ.h mech_contact.h mech_fe.h
    mech_mesh.h mech_spatial.h mech_version.h)) {
    ok(-f "$prefix/include/mech/$h", "include/mech/$h is installed");
}
ok(!-e "$prefix/include/mech/$_", "the private $_ is not") for qw(system_impl.h linalg.h dim.h);
ok(-f "$libdir/libmech.a", 'the static library is installed');
my $cache = slurp("$build/CMakeCache.txt") // '';
my $sanitized = $cache =~ /^MECH_SANITIZE:BOOL=ON$/m;
my $shared = -f "$libdir/libmech.so.$major";
if ($sanitized) {
    ok(!$shared, 'the sanitizer build installs no shared library');
} else {
    ok($shared, "the shared library is installed as libmech.so.$major");
    ok(-l "$libdir/libmech.so", 'with its link for -lmech');
    SKIP: {
        skip 'readelf and nm are not installed (binutils)', 3 unless which('readelf') && which('nm');
        $r = run({}, 'readelf', '-d', "$libdir/libmech.so.$major");
        like($r->{out}, qr/\(SONAME\)\s+Library soname: \[libmech\.so\.\Q$major\E\]/,
            "its SONAME carries the major version $major");
        $r = run({}, 'nm', '-D', '--defined-only', "$libdir/libmech.so.$major");
        my @names = map { (split)[-1] } grep { /\S/ } split /\n/, $r->{out};
        my @other = grep { !/^mech_/ } @names;
        ok(@names > 100 && !@other, 'it exports the mech_ names and nothing else')
            or diag(scalar(@names) . " names; not mech_: @other[0 .. ($#other < 9 ? $#other : 9)]");
        my $headers = join '', map { slurp($_) // '' } glob("$prefix/include/mech/*.h");
        my @undeclared = grep { $headers !~ /\b\Q$_\E\s*\(/ } @names;
        ok(!@undeclared, 'each of them declared in an installed header') or diag("@undeclared");
    }
}

my %env = (PKG_CONFIG_PATH => "$libdir/pkgconfig", PKG_CONFIG_LIBDIR => undef);
$r = run(\%env, 'pkg-config', '--modversion', 'libmech');
is($r->{out}, "$version\n", 'pkg-config libmech gives the project version');
$r = run(\%env, 'pkg-config', '--cflags', 'libmech');
like($r->{out}, qr{^-I\Q$prefix\E/include/mech(?:\s|$)}, 'its Cflags name the installed include/mech/');

# The README's example, as it is written there.
my $readme = slurp(source_dir() . '/README.md');
my ($section) = $readme =~ /^## Using libmech from C\n(.*?)^## /ms;
my ($code) = ($section // '') =~ /^```c\n(.*?)^```$/ms;
ok(defined $code, 'the README has a C example under "Using libmech from C"');
my $lines = () = ($code // '') =~ /\n/g;
cmp_ok($lines, '<=', 60, 'a short one');
spew("$dir/slider.c", $code // '');
my @flags = split ' ', run(\%env, 'pkg-config', '--cflags', '--libs', ($shared ? () : '--static'),
    'libmech')->{out};
$r = run({}, 'cc', '-std=c11', '-Wall', '-Wextra', '-Wpedantic', '-Werror', '-o', "$dir/slider",
    "$dir/slider.c", @flags);
is($r->{status}, 0, 'it builds with pkg-config --cflags --libs libmech'
    . ($shared ? '' : ' --static')) or diag($r->{err});
if ($shared && which('readelf')) {
    $r = run({}, 'readelf', '-d', "$dir/slider");
    like($r->{out}, qr/\(NEEDED\)\s+Shared library: \[libmech\.so\.\Q$major\E\]/,
        'and links the shared library');
}

$r = run({ LD_LIBRARY_PATH => $libdir }, "$dir/slider");
is($r->{status}, 0, 'it runs') or diag($r->{err});
my @out = split /\n/, $r->{out};
is(shift(@out) // '', "libmech $version", 'it prints the version of the library');
is(scalar @out, 5, 'and one row every 5 ms from 0 to 20 ms');
my ($rr, $l, $w) = (0.05, 0.12, 150);
for my $row (@out) {
    my ($t, $x, $exact) = split ' ', $row;
    my $s = $rr * sin($w * $t);
    my $closed = $rr * cos($w * $t) + sqrt($l * $l - $s * $s);
    cmp_ok(abs($x - $closed), '<', 2e-9, "t = $t: slider.x is the closed form ($closed)");
    cmp_ok(abs($exact - $closed), '<', 1e-9, "t = $t: and so is its own closed-form column");
}
# What the README says it prints, it prints.
my ($shown) = ($section // '') =~ /^    \$ \.\/slider\n((?:    .*\n)+)/m;
$shown = join '', map { s/^    //r } split /^/, $shown // '';
is($r->{out}, $shown, 'the README shows what it prints');

done_testing();
