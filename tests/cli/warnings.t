# SPDX-License-Identifier: MIT
# The plausibility warnings (mechlua(3), PLAUSIBILITY WARNINGS): for each check, a slip of
# unit prints its warning on stderr, once, naming the entity, the value and the likely
# unit; mech.warnings = false silences it; the value in the right unit gives none.  Then
# what lu_warn does for all of them (once per distinct message, mech.warnings read at each
# warning), and the models of the benchmarks and the examples of [Zheng & Wang], which warn of
# nothing.
use strict;
use warnings;
use Test::More;
use MechTest;

my $dir = scratch_dir();
my $n = 0;

# A slider-crank in metres (crank 0.05, rod 0.12, as in benchmark A): %CRANK%, %ROD%,
# %SLIDER%, %PIN% and %GUIDE% are replaced by the fields a case adds.
my $model = <<'LUA';
local sys = mech.planar{ gravity = { 0, -9.81 } }
local crank = sys:body{ name = "crank", mass = 0.17, inertia = 1e-4, at = { 0.025, 0 } %CRANK% }
local rod = sys:body{ name = "rod", mass = 0.25, inertia = 4e-4, at = { 0.11, 0 } %ROD% }
local slider = sys:body{ name = "slider", mass = 0.14, inertia = 1e-5, at = { 0.17, 0 } %SLIDER% }
sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "main" }
sys:revolute{ crank, rod, at = { 0.05, 0 }, name = "crank_pin" }
local pin = sys:revolute{ rod, slider, at = { 0.17, 0 }, name = "pin" %PIN% }
local guide = sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, name = "guide" %GUIDE% }
LUA
my $law = 'law = mech.contact.hertz{ K = 1e9 }';

sub script {
    my (%f) = @_;
    my $s = $model;
    $s =~ s/%(\w+)%/defined $f{lc $1} ? ", $f{lc $1}" : ''/ge;
    return $s . ($f{after} // '') . "\n";
}

sub run_code {
    my ($code) = @_;
    my $path = "$dir/case" . ++$n . '.lua';
    spew($path, $code);
    return run_mechlua(args => [$path]);
}

# check($name, $slip_code, $right_code, $message): the warnings the slip gives are exactly
# $message (a line, or a list of lines), once each; silenced, none; the right code, none.
sub check {
    my ($name, $slip, $right, $message) = @_;
    my @lines = ref $message ? @$message : ($message);
    my $want = join '', map { "mechlua: warning: $_\n" } @lines;
    my $r = run_code($slip);
    is($r->{status}, 0, "$name: the script runs") or diag($r->{err});
    is($r->{err}, $want, "$name: the warning, once");
    $r = run_code("mech.warnings = false\n$slip");
    is($r->{err}, '', "$name: mech.warnings = false silences it");
    $r = run_code($right);
    is($r->{status}, 0, "$name: the right value runs") or diag($r->{err});
    is($r->{err}, '', "$name: the right value gives no warning");
}

my $assemble = "sys:assemble()";

# --- angles beyond one turn ---------------------------------------------------------------
check('body angle', script(crank => 'angle = 78'), script(crank => 'angle = mech.deg(78)'),
    "body 'crank': angle = 78 rad is more than 2 pi: degrees? use mech.deg(78)");
check('joint angle', script(guide => 'angle = -90'), script(guide => 'angle = mech.deg(-90)'),
    "joint 'guide': angle = -90 rad is more than 2 pi: degrees? use mech.deg(-90)");
check('driver start',
    script(after => 'sys:drive{ crank, speed = 10, start = 45, name = "motor" }'),
    script(after => 'sys:drive{ crank, speed = 10, start = mech.deg(45), name = "motor" }'),
    "driver 'motor': start = 45 rad is more than 2 pi: degrees? use mech.deg(45)");
check('rotational spring angle',
    script(after => 'sys:rotational_spring{ sys.ground, crank, k = 1, angle = 30, name = "rs" }'),
    script(after => 'sys:rotational_spring{ sys.ground, crank, k = 1, angle = mech.deg(30), name = "rs" }'),
    "rotational spring 'rs': angle = 30 rad is more than 2 pi: degrees? use mech.deg(30)");
check('load phase',
    script(after => 'sys:torque{ crank, amplitude = 1, omega = 10, phase = 90, name = "tq" }'),
    script(after => 'sys:torque{ crank, amplitude = 1, omega = 10, phase = mech.deg(90), name = "tq" }'),
    "torque 'tq': phase = 90 rad is more than 2 pi: degrees? use mech.deg(90)");

# --- speeds ---------------------------------------------------------------------------------
check('driver speed',
    script(after => 'sys:drive{ crank, speed = 3000, name = "motor" }'),
    script(after => 'sys:drive{ crank, speed = mech.rpm(3000), name = "motor" }'),
    "driver 'motor': speed = 3000 rad/s (28648 rpm) is above 1000 rad/s: rpm? use mech.rpm(3000)");
check('speed of a driven revolute joint',
    script(after => 'sys:drive{ sys:entity("main"), speed = -1200, name = "motor" }'),
    script(after => 'sys:drive{ sys:entity("main"), speed = 1000, name = "motor" }'),
    "driver 'motor': speed = -1200 rad/s (-11459 rpm) is above 1000 rad/s: rpm? use mech.rpm(-1200)");
check('body omega', script(crank => 'omega = 1500'), script(crank => 'omega = mech.rpm(1500)'),
    "body 'crank': omega = 1500 rad/s (14324 rpm) is above 1000 rad/s: rpm? use mech.rpm(1500)");
check('prismatic driver speed',
    script(after => 'sys:drive{ guide, speed = 300, name = "push" }'),
    script(after => 'sys:drive{ guide, speed = mech.mm(300), name = "push" }'),
    "driver 'push': speed = 300 m/s is above 100 m/s: mm/s? use mech.mm(300)");

# --- clearances against the model ---------------------------------------------------------
check('bearing radius',
    script(pin => "clearance = { radial = 0.5e-3, radius = 10, $law }", after => $assemble),
    script(pin => "clearance = { radial = 0.5e-3, radius = mech.mm(10), $law }", after => $assemble),
    "joint 'pin': bearing radius = 10 m is larger than the whole model (0.17 m across its bodies "
        . "and joints): millimetres? use mech.mm(10)");
check('radial clearance over half the radius',
    script(pin => "clearance = { radial = 0.0095, radius = 0.01, $law }"),
    script(pin => "clearance = { journal = 0.0095, radius = 0.01, $law }"),
    "joint 'pin': radial clearance = 0.0095 m is more than half the bearing radius (0.01 m), "
        . "which leaves a journal of 0.0005 m: journal's radius and clearance mixed up? "
        . "(clearance = { journal = 0.0095, radius = 0.01 } gives the journal)");
check('gap over the slider',
    script(guide => "clearance = { gap = 0.03, length = 0.04, height = 0.02, $law }"),
    script(guide => "clearance = { width = 0.03, length = 0.04, height = 0.02, $law }"),
    "joint 'guide': gap = 0.03 m is more than the slider's height (0.02 m): the guide's width? "
        . "(clearance = { width = 0.03, ... } gives the gap)");
check('gap larger than the model',
    script(guide => "clearance = { gap = 0.5, length = 0.04, height = 0.6, $law }", after => $assemble),
    script(guide => "clearance = { gap = mech.mm(0.5), length = 0.04, height = 0.02, $law }",
        after => $assemble),
    "joint 'guide': gap = 0.5 m is larger than the whole model (0.17 m across its bodies and "
        . "joints): millimetres? use mech.mm(0.5)");
check('outline larger than the model',
    script(rod => 'rectangle = { 120, 20 }', after => $assemble),
    script(rod => 'rectangle = mech.mm{ 120, 20 }', after => $assemble),
    "body 'rod': its outline is 120 m long, more than 100 times the whole model (0.17 m across "
        . "its bodies and joints): millimetres? use mech.mm{...}");
check('masses apart',
    script(slider => 'mass = 14000', after => 'sys:simulate{ t = 1e-4 }'),
    script(slider => 'mass = 14', after => 'sys:simulate{ t = 1e-4 }'),
    "body 'slider': mass = 14000 kg is more than 10000 times the mass of body 'crank' "
        . "(0.17 kg): grams and kilograms mixed?");
# a lone bearing has no scale but its own: its radius is not compared with anything
my $r = run_code(<<'LUA');
local sys = mech.planar{ gravity = { 0, -9.81 } }
local shaft = sys:body{ name = "shaft", mass = 1, inertia = 1e-3, at = { 0, -0.5e-3 } }
sys:revolute{ sys.ground, shaft, a_at = { 0, 0 }, b_at = { 0, 0 }, name = "bearing",
  clearance = { radial = 0.5e-3, radius = 0.01, law = mech.contact.hertz{ K = 1e9 } } }
sys:assemble()
LUA
is($r->{err}, '', 'a lone bearing: no warning about its radius');

# --- materials and laws ---------------------------------------------------------------------
check('material E in a contact law',
    "mech.contact.hertz{ material = { E = 207, nu = 0.3 }, radius = 0.01 }",
    "mech.contact.hertz{ material = { E = mech.GPa(207), nu = 0.3 }, radius = 0.01 }",
    "mech.contact.hertz: material E = 207 Pa is below 1e6 Pa: GPa or MPa? use mech.GPa(207) or "
        . "mech.MPa(207)");
check('material E in mech.materials.add',
    'mech.materials.add{ name = "al", E = 70000, nu = 0.33, rho = 2700 }',
    'mech.materials.add{ name = "al", E = mech.MPa(70000), nu = 0.33, rho = 2700 }',
    "mech.materials.add: material E = 70000 Pa is below 1e6 Pa: GPa or MPa? use mech.GPa(70000) "
        . "or mech.MPa(70000)");
check('material density',
    'mech.materials.add{ name = "al", E = 70e9, nu = 0.33, rho = 2.7 }',
    'mech.materials.add{ name = "al", E = 70e9, nu = 0.33, rho = 2700 }',
    "mech.materials.add: rho = 2.7 kg/m^3 is outside 100 to 3e4 kg/m^3: g/cm^3? (2.7 g/cm^3 is "
        . "2700 kg/m^3)");
my $beam = 'local sys = mech.planar()
sys:flexible{ name = "beam", mesh = mech.mesh.rectangle{ size = { 0.2, 0.02 }, nx = 4, ny = 1 }, %s }';
check('flexible body E',
    sprintf($beam, 'E = 207, density = 7800'),
    sprintf($beam, 'E = mech.GPa(207), density = 7800'),
    "flexible body 'beam': E = 207 Pa is below 1e6 Pa, with density = 7800 kg/m^3: E in GPa or "
        . "MPa? use mech.GPa(207) or mech.MPa(207)");
$r = run_code(sprintf($beam, 'E = 1000, density = 1 / 3'));
is($r->{err}, '', 'a flexible body in scaled units (E = 1000, density = 1/3): no warning');
check('friction coefficient', 'mech.friction.coulomb{ mu = 30 }', 'mech.friction.coulomb{ mu = 0.3 }',
    'mech.friction.coulomb: mu = 30 is above 2: a percentage? (30 % is 0.3)');
check('static friction coefficient', 'mech.friction.stick{ mu = 0.3, mu_s = 40 }',
    'mech.friction.stick{ mu = 0.3, mu_s = 0.4 }',
    'mech.friction.stick: mu_s = 40 is above 2: a percentage? (40 % is 0.4)');

# --- lu_warn: once per distinct message, mech.warnings read at each -----------------------
$r = run_code(<<'LUA');
for i = 1, 3 do
  local sys = mech.planar()
  sys:body{ name = "a", mass = 1, inertia = 1, angle = 78 }
  sys:body{ name = "b", mass = 1, inertia = 1, angle = 78 }
end
mech.warnings = false
local sys = mech.planar()
sys:body{ name = "c", mass = 1, inertia = 1, angle = 78 }
mech.warnings = true
sys:body{ name = "d", mass = 1, inertia = 1, angle = 78 }
mech.warnings = false
sys:body{ name = "e", mass = 1, inertia = 1, angle = 78 }
print("done")
LUA
is($r->{out}, "done\n", 'a warning never stops the script');
is($r->{err},
    "mechlua: warning: body 'a': angle = 78 rad is more than 2 pi: degrees? use mech.deg(78)\n"
        . "mechlua: warning: body 'b': angle = 78 rad is more than 2 pi: degrees? use mech.deg(78)\n"
        . "mechlua: warning: body 'd': angle = 78 rad is more than 2 pi: degrees? use mech.deg(78)\n",
    'each distinct message once, however often it comes; only while mech.warnings is true');
$r = run_code("mech.warnings = nil\nmech.planar():body{ name = 'a', mass = 1, angle = 10 }");
like($r->{err}, qr/^mechlua: warning: body 'a': angle = 10 rad/, 'only false silences: nil does not');
$r = run_code(<<'LUA');
local sys = mech.planar()
sys:body{ name = "bad", mass = 1, inertia = 1, angle = 78, rectangle = { -1, 1 } }
LUA
is($r->{status}, 1, 'a body that is refused');
unlike($r->{err}, qr/warning/, 'gives no warning: only what was added is checked');

# --- the models of the benchmarks and examples: no warning ----------------------------------
$r = run_code(<<'LUA');
local benchmarks, spec000 = require "benchmarks", require "spec000"
benchmarks.a{}:assemble()
benchmarks.a{ clearance = benchmarks.a_clearance() }:assemble()
benchmarks.b{}:assemble()
spec000.slider_crank{ nx = 2 }:assemble()
spec000.slider_crank{ nx = 4 }:assemble()
spec000.oscillator{}:assemble()
print("built")
LUA
is($r->{out}, "built\n", 'the benchmark models and examples of [Zheng & Wang] are built and assembled')
    or diag($r->{err});
is($r->{err}, '', 'with no warning');

done_testing();
