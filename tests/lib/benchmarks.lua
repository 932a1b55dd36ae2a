-- SPDX-License-Identifier: MIT
-- The slider-cranks of shared/spec/benchmarks.md, for the Lua tests and benchmarks:
--   local benchmarks = dofile((arg[0]:match("^(.*)/") or ".") .. "/../lib/benchmarks.lua")
local benchmarks = {}

local g = 9.81

-- Benchmark A: crank 0.05 m, rod 0.12 m, slider 0.14 kg without inertia (its guide holds
-- it), from crank angle 0 with the velocities of the ideal mechanism (the rod's end at
-- rest, the rod turning at -r w / l).  `pin` is the rod-slider joint's table without its
-- bodies (the bearing on the slider, the journal on the rod), named "pin".  With `speed`
-- the crank is driven ("motor") and gravity is on; without, the crank turns freely at w0
-- and there is no gravity.
function benchmarks.a(pin, speed, w0)
  local r, l = 0.05, 0.12
  local w = speed or w0
  local sys = mech.planar{ gravity = speed and { 0, -g } or nil }
  local crank = sys:body{ name = "crank", mass = 0.17, inertia = 1e-4, at = { r / 2, 0 },
    velocity = { 0, r * w / 2 }, omega = w }
  local rod = sys:body{ name = "rod", mass = 0.25, inertia = 4e-4, at = { r + l / 2, 0 },
    velocity = { 0, r * w / 2 }, omega = -r * w / l }
  local slider = sys:body{ name = "slider", mass = 0.14, at = { r + l, 0 } }
  sys:revolute{ sys.ground, crank, at = { 0, 0 } }
  sys:revolute{ crank, rod, at = { r, 0 } }
  pin[1], pin[2], pin.at, pin.name = slider, rod, { r + l, 0 }, "pin"
  sys:revolute(pin)
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 } }
  if speed then sys:drive{ crank, speed = speed, name = "motor" } end
  return sys
end

-- Benchmark A's clearance: 0.5 mm, Lankarani-Nikravesh K = 3.35e10, e = 0.9, Ambrosio
-- friction mu = 0.01 (v0 = 1e-4, v1 = 1e-3).
function benchmarks.a_clearance()
  return { radial = 0.5e-3, radius = 10e-3,
    law = mech.contact.lankarani_nikravesh{ K = 3.35e10, restitution = 0.9 },
    friction = mech.friction.ambrosio{ mu = 0.01, v0 = 1e-4, v1 = 1e-3 } }
end

-- Benchmark B (Flores, Leine and Glocker 2010): crank 0.153 m, rod 0.306 m, a 0.1 x 0.05 m
-- slider with 1 mm of clearance per side in the guide "guide", gravity, free motion from
-- the crank at 150 rad/s, the rod at -75 rad/s and the slider at -0.01 rad/s.  The
-- compliant contact benchmarks.md asks for: Flores K = 1e10 N/m^1.5 (micrometre
-- penetrations), e = 0.4; Ambrosio friction mu = 0.01.
function benchmarks.b()
  local r, l = 0.153, 0.306
  local sys = mech.planar{ gravity = { 0, -g } }
  local crank = sys:body{ name = "crank", mass = 0.038, inertia = 7.4e-5, at = { r / 2, 0 },
    velocity = { 0, 150 * r / 2 }, omega = 150 }
  local rod = sys:body{ name = "rod", mass = 0.038, inertia = 5.9e-4, at = { r + l / 2, 0 },
    velocity = { 0, 150 * r - 75 * l / 2 }, omega = -75 }
  local slider = sys:body{ name = "slider", mass = 0.076, inertia = 2.7e-6, at = { r + l, 0 },
    omega = -0.01 }
  sys:revolute{ sys.ground, crank, at = { 0, 0 } }
  sys:revolute{ crank, rod, at = { r, 0 } }
  sys:revolute{ rod, slider, at = { r + l, 0 } }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, name = "guide", clearance = { gap = 1e-3,
    length = 0.1, height = 0.05, law = mech.contact.flores{ K = 1e10, restitution = 0.4 },
    friction = mech.friction.ambrosio{ mu = 0.01 } } }
  return sys
end

return benchmarks
