-- SPDX-License-Identifier: MIT
-- The planar limit of the spatial revolute joint with clearance: benchmark A ([Flores &
-- Ambrosio 2004]) built with mech.spatial, its piston pin a spatial clearance joint whose
-- journal the rest of the mechanism holds in the plane (revolute joints about z at the main
-- bearing and the crank pin, a prismatic guide: no tilt, no axial motion), against the planar
-- model with the planar clearance joint.
--
-- An aligned journal pressed across its axis touches along a line; the spatial joint carries
-- it as its two end contacts, each with the law, at the same depth and rate.  So the spatial
-- joint with K/2 per end is the planar joint with K: the two ends' forces add up to the planar
-- force, and their impacts start together.  Lankarani-Nikravesh damping and Ambrosio's
-- friction are linear in K and in the normal force, so they add up the same way.
local tap = require "tap"
local benchmarks = require "benchmarks"

local r, l, w = 0.05, 0.12, mech.rpm(5000)
local C = { radial = 0.5e-3, radius = 10e-3, K = 3.35e10, restitution = 0.9, mu = 0.01, v0 = 1e-4,
  v1 = 1e-3 }

local function spatial_a()
  local sys = mech.spatial{ gravity = { 0, -9.81, 0 }, baumgarte = { 5, 5 } }
  local crank = sys:body{ name = "crank", mass = 0.17, inertia = { 1e-5, 1e-4, 1e-4 },
    at = { r / 2, 0, 0 }, velocity = { 0, r * w / 2, 0 }, omega = { 0, 0, w } }
  local rod = sys:body{ name = "rod", mass = 0.25, inertia = { 1e-5, 4e-4, 4e-4 },
    at = { r + l / 2, 0, 0 }, velocity = { 0, r * w / 2, 0 }, omega = { 0, 0, -r * w / l } }
  local slider = sys:body{ name = "slider", mass = 0.14, inertia = { 1e-5, 1e-5, 1e-5 },
    at = { r + l, 0, 0 } }
  local bearing = sys:revolute{ sys.ground, crank, at = { 0, 0, 0 }, axis = { 0, 0, 1 },
    name = "main_bearing" }
  sys:revolute{ crank, rod, at = { r, 0, 0 }, axis = { 0, 0, 1 }, name = "crank_pin" }
  sys:revolute{ slider, rod, at = { r + l, 0, 0 }, axis = { 0, 0, 1 }, name = "pin",
    clearance = { radial = C.radial, axial = 0.5e-3 }, bearing = { radius = C.radius, length = 20e-3 },
    contact = mech.contact.lankarani_nikravesh{ K = C.K / 2, n = 1.5, restitution = C.restitution },
    friction = mech.friction.ambrosio{ mu = C.mu, v0 = C.v0, v1 = C.v1 } }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0, 0 }, name = "guide" }
  sys:drive{ bearing, speed = w, name = "motor" }
  return sys
end

-- Two crank turns at 5000 rpm: the journal crosses its clearance and strikes the bearing
-- tens of times.  rtol 1e-10: both runs converged (their impact counts and peak forces do not
-- change from rtol 1e-9 to 1e-10, checked when this test was written).
local opt = { t = 0.024, report = 1e-5, method = "dopri5", rtol = 1e-10, atol = 1e-13 }
local planar = benchmarks.a{ clearance = benchmarks.a_clearance(C) }:simulate{ t = opt.t,
  report = opt.report, method = opt.method, rtol = opt.rtol, atol = opt.atol,
  record = { "pin.fn", "pin.impacts", "slider.x", "slider.ax", "system.contact_damping", "system.friction" } }
local sa = spatial_a()
local space = sa:simulate{ t = opt.t, report = opt.report, method = opt.method, rtol = opt.rtol,
  atol = opt.atol, record = { "pin.radial_a.fn", "pin.radial_b.fn", "pin.radial_a.impacts",
    "pin.radial_b.impacts", "pin.axial_a.impacts", "pin.axial_b.impacts", "slider.x", "slider.ax",
    "system.contact_damping", "system.friction", "rod.z", "rod.wx", "rod.wy" } }

local n = #planar.t
tap.is(#space.t, n, "the same rows")
local peak_p, peak_s, at_p, at_s = 0, 0, 0, 0
local fa, fb = space["pin.radial_a.fn"], space["pin.radial_b.fn"]
local ends = 0
for i = 1, n do
  local f = fa[i] + fb[i]
  if planar["pin.fn"][i] > peak_p then peak_p, at_p = planar["pin.fn"][i], planar.t[i] end
  if f > peak_s then peak_s, at_s = f, space.t[i] end
  ends = math.max(ends, math.abs(fa[i] - fb[i]))
end
local hits_p = planar["pin.impacts"][n]
local hits_s = space["pin.radial_a.impacts"][n]
tap.diag(string.format("planar: %d impacts, peak contact force %.6g N at t = %.6g s; spatial: %d and %d "
  .. "impacts at the ends, peak %.6g N at t = %.6g s", hits_p, peak_p, at_p, hits_s,
  space["pin.radial_b.impacts"][n], peak_s, at_s))
tap.ok(hits_p >= 5, "the planar journal strikes its bearing several times")
tap.is(hits_s, hits_p, "the spatial joint's end A strikes as often as the planar joint")
tap.is(space["pin.radial_b.impacts"][n], hits_p, "and so does its end B")
tap.is(space["pin.axial_a.impacts"][n] + space["pin.axial_b.impacts"][n], 0, "no axial contact")
tap.ok(math.abs(peak_s - peak_p) <= 1e-3 * peak_p, string.format(
  "peak contact force within 0.1 %% of the planar one (%.2e relative)", math.abs(peak_s - peak_p) / peak_p))
-- the two ends see the same depth and rate to rounding: the journal is held square
tap.ok(ends <= 1e-6 * peak_p, string.format("the two ends carry the same force (%.2g N apart)", ends))
local dx, dax = 0, 0
for i = 1, n do
  dx = math.max(dx, math.abs(space["slider.x"][i] - planar["slider.x"][i]))
  dax = math.max(dax, math.abs(space["slider.ax"][i] - planar["slider.ax"][i]))
end
tap.diag(string.format("slider position within %.2g m, acceleration within %.3g m/s^2 (peak %.4g)", dx, dax,
  planar["slider.ax"]:max()))
-- the same motion to the integrators' accuracy through the impacts: the planar run itself moves
-- its slider by 4.5e-7 m between rtol 1e-10 and 1e-12 (each impact's onset shifts the rest), so
-- positions to 2e-6 m; the acceleration (spikes of 1e5 m/s^2 lasting 1e-5 s) to 1 % of its peak
tap.ok(dx <= 2e-6, "the slider moves as in the plane")
tap.ok(dax <= 1e-2 * planar["slider.ax"]:max(), "its acceleration too")
local dd = math.abs(space["system.contact_damping"][n] - planar["system.contact_damping"][n])
local df = math.abs(space["system.friction"][n] - planar["system.friction"][n])
tap.ok(dd <= 1e-3 * planar["system.contact_damping"][n] and df <= 1e-3 * planar["system.friction"][n],
  string.format("the same energy into contact damping (%.2g J apart) and friction (%.2g J apart)", dd, df))
local off = math.max(space["rod.z"]:max(), -space["rod.z"]:min(), space["rod.wx"]:max(), -space["rod.wx"]:min(),
  space["rod.wy"]:max(), -space["rod.wy"]:min())
tap.ok(off <= 1e-9, string.format("the rod stays in its plane (%.1g)", off))

tap.done()
