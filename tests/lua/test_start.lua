-- SPDX-License-Identifier: MIT
-- How a model with joints with clearance starts (mech.planar{ start = ... }): the ideal start
-- (the joints with clearance held as ideal joints for the assembly: centred, the ideal
-- mechanism's velocities), its default rule, the CSV header that says it, the warning of a
-- start fast across a clearance, and the errors of an ideal mechanism that cannot be
-- assembled.  The physics check is the four-bar of issue 15: started consistently, its
-- first impact is a small fraction of the inconsistent start's.
local tap = require "tap"

local benchmarks = require "benchmarks"
mech.warnings = false -- the warning is tested in a child below

-- The four-bar: ground link O2-O4 0.3 m, crank 0.1 m driven at 300 rpm from angle 0 (along
-- +x), coupler 0.3 m, rocker 0.25 m, each a steel bar of 20 x 20 mm section (7800 kg/m^3,
-- 3.12 kg/m; inertia m L^2 / 12), gravity; a revolute clearance joint "pin" at the
-- coupler-rocker pin (0.5 mm radial, bearing radius 10 mm, Lankarani-Nikravesh K = 1e10,
-- e = 0.9; bearing on the coupler, journal on the rocker), or the ideal pin with ideal.
-- At angle 0 the coupler and the rocker of the ideal mechanism turn at -w/2 = -15.708 rad/s,
-- as in the issue.  Returns the system and the closed-form omegas of coupler and rocker.
local W = mech.rpm(300)
local function fourbar(o)
  o = o or {}
  local L1, L2, L3, L4 = 0.3, 0.1, 0.3, 0.25
  local th = o.theta or 0
  local rho = 7800 * 0.02 * 0.02
  local A = { L2 * math.cos(th), L2 * math.sin(th) }
  -- B: the coupler's end, where the circles about A (L3) and O4 (L4) meet, above the line
  local dx, dy = L1 - A[1], -A[2]
  local d = math.sqrt(dx * dx + dy * dy)
  local a = (L3 * L3 - L4 * L4 + d * d) / (2 * d)
  local h = math.sqrt(L3 * L3 - a * a)
  local B = { A[1] + a * dx / d - h * dy / d, A[2] + a * dy / d + h * dx / d }
  local sys = mech.planar{ gravity = { 0, -9.81 }, start = o.start }
  local function link(name, P, Q, L, extra)
    local m = rho * L
    local t = { name = name, mass = m, inertia = m * L * L / 12,
      at = { (P[1] + Q[1]) / 2, (P[2] + Q[2]) / 2 }, angle = math.atan(Q[2] - P[2], Q[1] - P[1]) }
    for k, v in pairs(extra or {}) do t[k] = v end
    return sys:body(t)
  end
  local crank = link("crank", { 0, 0 }, A, L2, o.crank)
  local coupler = link("coupler", A, B, L3)
  local rocker = link("rocker", { L1, 0 }, B, L4)
  sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "O2" }
  sys:revolute{ crank, coupler, at = A, name = "A" }
  sys:revolute{ sys.ground, rocker, at = { L1, 0 }, name = "O4" }
  local pin = { coupler, rocker, at = B, name = "pin" }
  if not o.ideal then
    pin.clearance = { radial = 0.5e-3, radius = 10e-3,
      law = mech.contact.lankarani_nikravesh{ K = 1e10, restitution = 0.9 } }
  end
  sys:revolute(pin)
  sys:drive{ crank, speed = W, name = "motor" }
  -- closed form: v_A + w3 k x (B - A) = w4 k x (B - O4), v_A = w k x A
  local vA = { -W * A[2], W * A[1] }
  local r3, r4 = { B[1] - A[1], B[2] - A[2] }, { B[1] - L1, B[2] }
  local det = r3[2] * r4[1] - r4[2] * r3[1]
  local w3 = (vA[1] * r4[1] + r4[2] * vA[2]) / det
  local w4 = (r3[2] * vA[2] + vA[1] * r3[1]) / det
  return sys, w3, w4
end

local function rel(x, y) return math.abs(x - y) / math.abs(y) end

-- the peak contact force of the first impact, from a run recording pin.fn and pin.impacts
local function first_peak(run)
  local peak = 0
  for i = 1, #run do
    if run["pin.impacts"][i] == 1 then peak = math.max(peak, run["pin.fn"][i]) end
  end
  return peak
end

local peaks = {}
do -- the four-bar, started consistently by default: no body was given a velocity
  local sys, w3, w4 = fourbar()
  tap.like(sys:describe(), "\nstart: ideal %(the joints with clearance held as ideal joints",
    "the four-bar without velocities starts ideal by default, and says so")
  local c, r = sys:value("coupler.omega"), sys:value("rocker.omega")
  tap.ok(rel(c, w3) < 1e-9 and rel(r, w4) < 1e-9, string.format("coupler and rocker start at "
    .. "the ideal mechanism's closed-form omegas (%.6f, %.6f rad/s; closed form %.6f, %.6f)", c, r, w3, w4))
  tap.near(w3, -W / 2, 1e-12 * W, "at crank angle 0 they are -w/2 = -15.708 rad/s (the issue's four-bar)")
  tap.ok(math.abs(sys:value("pin.ex")) < 1e-15 and math.abs(sys:value("pin.ey")) < 1e-15,
    "the journal starts centred in its bearing")
  local ideal = fourbar{ ideal = true }
  local same = true
  for _, ch in ipairs{ "crank", "coupler", "rocker" } do
    for _, q in ipairs{ "x", "y", "phi", "vx", "vy", "omega" } do
      local x, y = sys:value(ch .. "." .. q), ideal:value(ch .. "." .. q)
      same = same and math.abs(x - y) <= 1e-12 * (1 + math.abs(y))
    end
  end
  tap.ok(same, "every position and velocity is that of the ideal model's own assembly (to 1e-12)")
  local run = sys:simulate{ t = 0.05, report = 1e-6, rtol = 1e-9, atol = 1e-12, record = { "pin.fn", "pin.impacts" } }
  peaks.ideal = first_peak(run)
  local path = os.tmpname()
  run:csv(path)
  local f = assert(io.open(path))
  local csv = f:read("a")
  f:close()
  os.remove(path)
  tap.like(csv, "\n# start: ideal %(the joints with clearance held as ideal joints for the assembly: "
    .. "centred, the velocities of the ideal mechanism; released for the run%)\n", "the CSV header says how the run started")
  tap.ok(run["pin.impacts"][#run] >= 1, "the journal strikes its bearing within 0.05 s")
  tap.ok(peaks.ideal > 0 and peaks.ideal < 5e3,
    string.format("the first impact's peak force is below 5 kN (%.0f N)", peaks.ideal))
end

do -- the old start: the clearance joint free in the assembly, the rocker left at rest
  local sys = fourbar{ start = "as_given" }
  tap.like(sys:describe(), "\nstart: as given %(the joints with clearance free in the assembly",
    "start = \"as_given\" is stated")
  tap.is(sys:value("rocker.omega"), 0, "as given, the rocker starts at rest")
  local run = sys:simulate{ t = 0.05, report = 1e-6, rtol = 1e-9, atol = 1e-12, record = { "pin.fn", "pin.impacts" } }
  peaks.given = first_peak(run)
  tap.ok(peaks.given > 10 * peaks.ideal and peaks.given > 2e4, string.format("and its first impact "
    .. "is far harder: %.0f N, %.1f times the consistent start's %.0f N", peaks.given,
    peaks.given / peaks.ideal, peaks.ideal))
  local ideal = fourbar{ start = "ideal" }
  tap.is(ideal:value("rocker.omega"), fourbar():value("rocker.omega"),
    "start = \"ideal\" is the default's start, to the bit")
end

do -- the default rule
  local sys = fourbar{ crank = { omega = W } }
  tap.like(sys:describe(), "\nstart: as given", "a body given a velocity: the start is as given")
  tap.is(sys:value("rocker.omega"), 0, "(the rocker then starts at rest, as before)")
  sys = fourbar{ crank = { omega = W }, start = "ideal" }
  tap.ok(rel(sys:value("rocker.omega"), -W / 2) < 1e-9, "start = \"ideal\" with velocities given: the ideal mechanism's")
  -- a journal placed off-centre on purpose keeps its place by default
  local function pendulum(start, dy)
    local s = mech.planar{ gravity = { 0, -9.81 }, start = start }
    local bob = s:body{ name = "bob", mass = 1, inertia = 0.01, at = { 0, -0.1 - dy } }
    s:revolute{ s.ground, bob, a_at = { 0, 0 }, b_at = { 0, 0.1 }, name = "pivot", clearance = { radial = 0.5e-3,
      radius = 10e-3, law = mech.contact.hu_guo{ K = 1e9, restitution = 0.5 } } }
    return s
  end
  tap.near(pendulum(nil, 0.5e-3):value("pivot.ey"), -0.5e-3, 1e-15, "a journal placed on its bearing's wall stays there")
  tap.like(pendulum(nil, 0.5e-3):describe(), "\nstart: as given", "(the start is as given)")
  tap.is(pendulum(nil, 0.4e-6):value("pivot.ey"), 0,
    "one placed within a thousandth of the clearance of the centre is centred")
  tap.is(pendulum("ideal", 0.5e-3):value("pivot.ey"), 0, "start = \"ideal\" centres it")
  local ns = mech.planar{ assemble = false }
  ns:body{ name = "b", mass = 1, inertia = 1 }
  ns:revolute{ ns.ground, ns:entity("b"), at = { 0, 0 }, clearance = { radial = 1e-3, radius = 1e-2,
    law = mech.contact.hertz{ K = 1e9 } } }
  tap.like(ns:describe(), "\nstart: as given, not assembled", "assemble = false: as given, and said so")
  local plain = mech.planar{}
  plain:body{ name = "b", mass = 1, inertia = 1 }
  tap.ok(not plain:describe():find("start:", 1, true), "a model without joints with clearance says nothing of its start")
end

do -- a slider in a guide with clearance: centred, not tilted, moving as the ideal slider
  local r, l, w = 0.05, 0.12, mech.rpm(1000)
  local function slidercrank(start, tilt)
    local sys = mech.planar{ start = start }
    local crank = sys:body{ name = "crank", mass = 0.17, inertia = 1e-4, at = { 0, r / 2 }, angle = math.pi / 2 }
    local s = math.sqrt(l * l - r * r)
    local rod = sys:body{ name = "rod", mass = 0.25, inertia = 4e-4, at = { s / 2, r / 2 }, angle = -math.asin(r / l) }
    local slider = sys:body{ name = "slider", mass = 0.14, inertia = 1e-5, at = { s, 0.3e-3 }, angle = tilt or 0 }
    sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "main_bearing" }
    sys:revolute{ crank, rod, at = { 0, r }, name = "crank_pin" }
    sys:revolute{ rod, slider, a_at = { l / 2, 0 }, b_at = { 0, -0.3e-3 }, name = "pin" }
    sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, at = { s, 0 }, name = "guide", clearance = { gap = 1e-3,
      length = 0.05, height = 0.02, law = mech.contact.flores{ K = 1e10, restitution = 0.4 } } }
    sys:drive{ crank, speed = w, name = "motor" }
    return sys
  end
  -- placed 0.3 mm off the axis: as given by default
  tap.is(slidercrank():value("guide.offset"), 0.3e-3, "a slider placed off its guide's axis stays there by default")
  local sys = slidercrank("ideal", 0.01)
  tap.ok(math.abs(sys:value("guide.offset")) < 1e-15 and math.abs(sys:value("guide.tilt")) < 1e-15,
    "start = \"ideal\": the slider is centred in its guide and not tilted")
  local vx = select(2, require("slidercrank").kinematics{ crank = r, rod = l }(math.pi / 2, w))
  tap.ok(rel(sys:value("slider.vx"), vx) < 1e-9 and math.abs(sys:value("slider.vy")) < 1e-12
    and math.abs(sys:value("slider.omega")) < 1e-12, string.format("and moves as the ideal slider "
    .. "(vx %.6f m/s, closed form %.6f; vy and omega 0)", sys:value("slider.vx"), vx))
end

do -- benchmark A from rest: the default gives the helper's start
  local helper = benchmarks.a{ clearance = benchmarks.a_clearance() }
  tap.like(helper:describe(), "\nstart: as given", "benchmarks.a gives its velocities: its start is as given (unchanged)")
  local r, l, w = 0.05, 0.12, mech.rpm(5000)
  local sys = mech.planar{ gravity = { 0, -9.81 }, baumgarte = { 5, 5 } }
  local crank = sys:body{ name = "crank", mass = 0.17, inertia = 1e-4, at = { r / 2, 0 } }
  local rod = sys:body{ name = "rod", mass = 0.25, inertia = 4e-4, at = { r + l / 2, 0 } }
  local slider = sys:body{ name = "slider", mass = 0.14, at = { r + l, 0 } }
  sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "main_bearing" }
  sys:revolute{ crank, rod, at = { r, 0 }, name = "crank_pin" }
  sys:revolute{ slider, rod, at = { r + l, 0 }, name = "pin", clearance = benchmarks.a_clearance() }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, name = "guide" }
  sys:drive{ crank, speed = w, name = "motor" }
  local worst = 0
  for _, b in ipairs{ "crank", "rod", "slider" } do
    for _, q in ipairs{ "x", "y", "phi", "vx", "vy", "omega" } do
      worst = math.max(worst, math.abs(sys:value(b .. "." .. q) - helper:value(b .. "." .. q)))
    end
  end
  tap.ok(worst < 1e-12 * r * w, string.format("built without velocities, benchmark A starts as the "
    .. "helper starts it (largest difference %.2g)", worst))
end

do -- the slider-crank of [Sci. Rep. 2023] with its three joints with clearance (scripts/spec004.lua,
  -- configuration "mixed"): from rest, the default gives the start the script gives it
  local L1, L2, w, c = 0.150, 0.541, mech.rpm(150), 0.5e-3
  local law = mech.contact.hu_guo{ K = 1e10, restitution = 0.55 }
  local function spec004(given)
    local sys = mech.planar{ gravity = { 0, -9.81 }, baumgarte = { 50, 50 } }
    local crank = sys:body{ name = "crank", mass = 0.1215, inertia = 2.28e-4, at = { L1 / 2, 0 },
      velocity = given and { 0, L1 * w / 2 } or nil, omega = given and w or nil }
    local rod = sys:body{ name = "rod", mass = 0.438, inertia = 1.069e-2, at = { L1 + L2 / 2, 0 },
      velocity = given and { 0, L1 * w / 2 } or nil, omega = given and -L1 * w / L2 or nil }
    local slider = sys:body{ name = "slider", mass = 0.5, inertia = 0.5 * (0.06 ^ 2 + 0.04 ^ 2) / 12,
      at = { L1 + L2, 0 } }
    sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "main_bearing" }
    sys:revolute{ rod, crank, at = { L1, 0 }, name = "crank_pin", clearance = { radial = c, radius = 10e-3, law = law } }
    sys:revolute{ rod, slider, at = { L1 + L2, 0 }, name = "piston_pin", clearance = { radial = c, radius = 10e-3, law = law } }
    sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, name = "guide", clearance = { gap = c, length = 0.06,
      height = 0.04, law = law } }
    sys:drive{ crank, speed = w, name = "motor" }
    return sys
  end
  local script, rest = spec004(true), spec004(false)
  tap.like(script:describe(), "\nstart: as given", "scripts/spec004.lua gives its velocities: as given, unchanged")
  tap.like(rest:describe(), "\nstart: ideal", "without them the start is ideal")
  local worst = 0
  for _, b in ipairs{ "crank", "rod", "slider" } do
    for _, q in ipairs{ "x", "y", "phi", "vx", "vy", "omega" } do
      worst = math.max(worst, math.abs(rest:value(b .. "." .. q) - script:value(b .. "." .. q)))
    end
  end
  tap.ok(worst < 1e-12 * L1 * w, string.format("and the same as the script's (largest difference %.2g)", worst))
end

do -- a start fast across the clearance is warned of, once; the consistent one is not
  -- the child builds the same four-bar: this file's function, sent as source
  local src = assert(io.open(arg[0])):read("a")
  local script = os.tmpname()
  local f = assert(io.open(script, "w"))
  f:write(src:match("(local W = mech.rpm%(300%).-\n)local function rel"), [[
local a = fourbar{ start = "as_given" }
a:assemble()
a:assemble()
fourbar{ start = "as_given" }:assemble()
fourbar():assemble()
mech.warnings = false
fourbar{ start = "as_given", crank = { omega = 1 } }:assemble()
]])
  f:close()
  local p = io.popen(string.format("'%s' '%s' 2>&1", os.getenv("MECHLUA"), script))
  local out = p:read("a")
  p:close()
  os.remove(script)
  local _, n = out:gsub("mechlua: warning: ", "")
  tap.is(n, 1, "one warning for the two inconsistent four-bars (the same message), none for the consistent one")
  tap.like(out, "mechlua: warning: revolute 'pin' starts with its journal moving at [%d.]+ m/s across its "
    .. "clearance of 0%.0005 m, while the mechanism's fastest point moves at 3%.14 m/s: the first impact "
    .. "comes from the start %(above 0%.181 m/s, what the mechanism itself gives it across the clearance%); "
    .. "mech.planar{ start = \"ideal\" }", "it names the joint, the speeds and the remedy")
end

-- the ideal mechanism cannot be assembled: the messages name the joint
local function broken(o)
  local L1, L2, L3, L4, th = o[1], o[2], o[3], o[4], o[5]
  local sys = mech.planar{ start = o.ideal and "as_given" or "ideal" }
  local A = { L2 * math.cos(th), L2 * math.sin(th) }
  local B = { A[1] + L3, A[2] }
  local crank = sys:body{ name = "crank", mass = 1, inertia = 1e-3, at = { A[1] / 2, A[2] / 2 }, angle = th }
  local coupler = sys:body{ name = "coupler", mass = 1, inertia = 1e-3, at = { A[1] + L3 / 2, A[2] } }
  local rocker = sys:body{ name = "rocker", mass = 1, inertia = 1e-3, at = { B[1], B[2] - L4 / 2 }, angle = math.pi / 2 }
  sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "O2" }
  sys:revolute{ crank, coupler, at = A, name = "A" }
  sys:revolute{ sys.ground, rocker, a_at = { L1, 0 }, b_at = { -L4 / 2, 0 }, name = "O4" }
  sys:revolute{ coupler, rocker, at = B, name = "pin", clearance = not o.ideal and { radial = 0.5e-3,
    radius = 10e-3, law = mech.contact.lankarani_nikravesh{ K = 1e10, restitution = 0.9 } } or nil }
  sys:drive{ crank, speed = 10, name = "motor" }
  return sys
end
tap.raises(function() broken{ 0.3, 0.1, 0.1, 0.05, 1 }:assemble() end,
  "sys:assemble: assembly failed: the joints cannot all hold; still violated: revolute 'pin' (with "
  .. "clearance, held ideal for the start; equation x) by 0.0543, revolute 'A' (equation y) by 0.0399",
  "links too short to close: the message names the joint held ideal and what is violated")
tap.raises(function() broken{ 0.3, 0.1, 0.1, 0.05, 1 }:assemble() end,
  "(an ideal start: the joints with clearance held as ideal joints; the ideal mechanism cannot be "
  .. "assembled here)", "and says that the start is ideal")
-- a non-Grashof four-bar driven at its toggle: coupler and rocker aligned
tap.raises(function() broken{ 0.3, 0.25, 0.2, 0.1, math.acos(0.0625 / 0.15) }:assemble() end,
  "sys:assemble: assembly: in the assembled configuration driver 'motor' depends on the joints and "
  .. "drivers before it: the mechanism is locked there (links aligned, a dead centre) and its "
  .. "velocities are not determined (an ideal start",
  "a locked configuration is an error (the velocities were 3e6 rad/s)")
tap.raises(function() broken{ 0.3, 0.25, 0.2, 0.1, math.acos(0.0625 / 0.15), ideal = true }:assemble() end,
  "sys:assemble: assembly: in the assembled configuration driver 'motor' depends on the joints and "
  .. "drivers before it: the mechanism is locked there (links aligned, a dead centre) and its "
  .. "velocities are not determined", "also for the ideal mechanism itself")

-- the option's errors
tap.raises(function() mech.planar{ start = "centred" } end,
  "mech.planar: field 'start' must be one of \"auto\", \"ideal\", \"as_given\" (got \"centred\")",
  "start names its values")
tap.raises(function() mech.planar{ start = 1 } end, "mech.planar: field 'start' must be a string",
  "start is a string")
tap.raises(function() mech.planar{ start = "ideal", assemble = false } end,
  "mech.planar: field 'start' = \"ideal\" is an assembly: it needs assemble = true",
  "an ideal start needs the assembly")

tap.done()
