-- SPDX-License-Identifier: MIT
-- benchmarks: the two slider-cranks with clearance of the project's benchmark set
-- ([Flores & Ambrosio 2004] and [Flores, Leine & Glocker 2010] of mechlua-references(7)),
-- built with the parameters of that set unless told
-- otherwise, for scenario scripts, tests and benchmarks alike.
--
--   local benchmarks = require "benchmarks"
--   local sys = benchmarks.a{ clearance = benchmarks.a_clearance() }  -- A: 0.5 mm at the pin
--   local ideal = benchmarks.a{}                                       -- A: ideal joints
--   local free = benchmarks.b{}                -- B: the slider in a guide, free motion
--
-- Every length is in m, mass in kg, inertia in kg m^2, angular velocity in rad/s.  Both
-- mechanisms have the crank pivot at the origin, the crank along +x at angle 0 and the
-- slider's axis along +x; the bodies are "crank", "rod" and "slider", the joints
-- "main_bearing" (ground-crank), "crank_pin" (crank-rod), "pin" (rod-slider) and "guide"
-- (ground-slider).  man mechlua has the fields and their defaults.
local benchmarks = {}

local options = require "options"
local fail, fields, numbers = options.fail, options.read, options.numbers

-- baumgarte: one number (alpha = beta) or {alpha, beta}.
local function baumgarte(fname, b)
  if type(b) == "number" then return { b, b } end
  if type(b) == "table" and type(b[1]) == "number" and type(b[2]) == "number" then
    return { b[1], b[2] }
  end
  fail(2, fname, "field 'baumgarte' must be a number or {alpha, beta} (got %s)", tostring(b))
end

local A = {
  crank = 0.05, rod = 0.12,
  m_crank = 0.17, m_rod = 0.25, m_slider = 0.14,
  J_crank = 1e-4, J_rod = 4e-4,
  gravity = 9.81, baumgarte = 5,
  speed = mech.rpm(5000), driven = true,
  clearance = false,
}

-- Benchmark A: the slider-crank whose rod-slider joint "pin" may have clearance (a
-- journal on the rod in a bearing on the slider).  The crank starts at angle 0 turning
-- at `speed`, the other bodies with the ideal mechanism's velocities (the slider at rest,
-- the rod turning at -r w / l); the crank is driven at that speed ("motor") unless
-- driven = false.  The slider has no inertia: the guide keeps it from turning.
function benchmarks.a(o)
  local fname = "benchmarks.a"
  local p = fields(fname, o, A)
  numbers(fname, p, { "crank", "rod", "m_crank", "m_rod", "m_slider", "J_crank", "J_rod", "gravity",
    "speed" })
  if p.clearance ~= nil and type(p.clearance) ~= "table" then
    fail(1, fname, "field 'clearance' must be a table (that of sys:revolute; got %s)", type(p.clearance))
  end
  local r, l, w = p.crank, p.rod, p.speed
  local sys = mech.planar{ gravity = p.gravity ~= 0 and { 0, -p.gravity } or nil,
    baumgarte = baumgarte(fname, p.baumgarte) }
  local crank = sys:body{ name = "crank", mass = p.m_crank, inertia = p.J_crank, at = { r / 2, 0 },
    velocity = { 0, r * w / 2 }, omega = w }
  local rod = sys:body{ name = "rod", mass = p.m_rod, inertia = p.J_rod, at = { r + l / 2, 0 },
    velocity = { 0, r * w / 2 }, omega = -r * w / l }
  local slider = sys:body{ name = "slider", mass = p.m_slider, at = { r + l, 0 } }
  sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "main_bearing" }
  sys:revolute{ crank, rod, at = { r, 0 }, name = "crank_pin" }
  sys:revolute{ slider, rod, at = { r + l, 0 }, name = "pin", clearance = p.clearance }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, name = "guide" }
  if p.driven then sys:drive{ crank, speed = w, name = "motor" } end
  return sys
end

local A_CLEARANCE = {
  radial = 0.5e-3, radius = 10e-3,
  K = 3.35e10, restitution = 0.9,
  mu = 0.01, v0 = 1e-4, v1 = 1e-3,
}

-- Benchmark A's clearance, the `clearance` field of benchmarks.a: Lankarani-Nikravesh
-- contact and Ambrosio's friction.
function benchmarks.a_clearance(o)
  local fname = "benchmarks.a_clearance"
  local p = fields(fname, o, A_CLEARANCE)
  numbers(fname, p, { "radial", "radius", "K", "restitution", "mu", "v0", "v1" })
  -- the laws' parameters checked here, so that an error names this function's field at the
  -- caller's line
  local function need(ok, field, must, v)
    if not ok then fail(2, fname, "field '%s' must be %s (got %s)", field, must, tostring(v)) end
  end
  need(p.K > 0, "K", "> 0 [N/m^1.5]", p.K)
  need(p.restitution > 0 and p.restitution <= 1, "restitution", "in (0, 1]", p.restitution)
  need(p.mu >= 0, "mu", ">= 0", p.mu)
  need(p.v0 > 0, "v0", "> 0 [m/s]", p.v0)
  need(p.v1 > p.v0, "v1", "> v0 = " .. tostring(p.v0), p.v1)
  return { radial = p.radial, radius = p.radius,
    law = mech.contact.lankarani_nikravesh{ K = p.K, restitution = p.restitution },
    friction = mech.friction.ambrosio{ mu = p.mu, v0 = p.v0, v1 = p.v1 } }
end

local B = {
  crank = 0.153, rod = 0.306,
  m_crank = 0.038, m_rod = 0.038, m_slider = 0.076,
  J_crank = 7.4e-5, J_rod = 5.9e-4, J_slider = 2.7e-6,
  length = 0.1, height = 0.05, gap = 1e-3,
  omega_crank = 150, omega_rod = -75, omega_slider = -0.01,
  gravity = 9.81, baumgarte = 5,
  law = false, friction = false,
}

-- Benchmark B (Flores, Leine and Glocker 2010): the slider-crank whose slider moves in a
-- guide "guide" with clearance gap on each side, free (no driver) from the given angular
-- velocities, every angle 0.  The pins carry the crank's and the rod's velocities to the
-- rod's centre and the slider (at rest for the defaults).  The default contact is a
-- stiff Flores law (K = 1e10 N/m^1.5, e = 0.4) with Ambrosio friction mu = 0.01.
function benchmarks.b(o)
  local fname = "benchmarks.b"
  local p = fields(fname, o, B)
  numbers(fname, p, { "crank", "rod", "m_crank", "m_rod", "m_slider", "J_crank", "J_rod", "J_slider",
    "length", "height", "gap", "omega_crank", "omega_rod", "omega_slider", "gravity" })
  local r, l, wc, wr = p.crank, p.rod, p.omega_crank, p.omega_rod
  local sys = mech.planar{ gravity = p.gravity ~= 0 and { 0, -p.gravity } or nil,
    baumgarte = baumgarte(fname, p.baumgarte) }
  local crank = sys:body{ name = "crank", mass = p.m_crank, inertia = p.J_crank, at = { r / 2, 0 },
    velocity = { 0, wc * r / 2 }, omega = wc }
  local rod = sys:body{ name = "rod", mass = p.m_rod, inertia = p.J_rod, at = { r + l / 2, 0 },
    velocity = { 0, wc * r + wr * l / 2 }, omega = wr }
  local slider = sys:body{ name = "slider", mass = p.m_slider, inertia = p.J_slider,
    at = { r + l, 0 }, velocity = { 0, wc * r + wr * l }, omega = p.omega_slider }
  sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "main_bearing" }
  sys:revolute{ crank, rod, at = { r, 0 }, name = "crank_pin" }
  sys:revolute{ rod, slider, at = { r + l, 0 }, name = "pin" }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, name = "guide", clearance = { gap = p.gap,
    length = p.length, height = p.height,
    law = p.law or mech.contact.flores{ K = 1e10, restitution = 0.4 },
    friction = p.friction or mech.friction.ambrosio{ mu = 0.01 } } }
  return sys
end

return benchmarks
