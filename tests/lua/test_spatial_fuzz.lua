-- SPDX-License-Identifier: MIT
-- Spatial systems with the values the extended API fuzzer (tests/fuzz/gen.lua) throws at them,
-- which they mishandled: each case failed before its fix, and says what was wrong.
local tap = require "tap"

local function body(s, fields)
  fields.name = fields.name or "b"
  fields.mass = fields.mass or 1
  fields.inertia = fields.inertia or { 1, 2, 2.5 }
  return s:body(fields)
end

-- A quaternion whose norm overflows (components near DBL_MAX) is a direction like any
-- other: it was normalised to (0, 0, 0, 0) (|e| = inf), accepted, and the first evaluation
-- failed with "the forces on body 'b' are not finite" (mech/rotation.c, rot_normalize).
do
  local s = mech.spatial {}
  body(s, { quaternion = { 1e308, 1e308, 1e308, 1e308 } })
  local ok, e0 = pcall(s.value, s, "b.e0")
  tap.ok(ok and math.abs(e0 - 0.5) < 1e-15, "a quaternion of four 1e308 is (1/2, 1/2, 1/2, 1/2): " .. tostring(e0))
  local s2 = mech.spatial {}
  body(s2, { quaternion = { -1.7e308, 0, 0, 1.7e308 } })
  local ok2, r21 = pcall(s2.value, s2, "b.r21")
  tap.ok(ok2 and math.abs(r21 + 1) < 1e-15, "(-1.7e308, 0, 0, 1.7e308) is a quarter turn about -z: " .. tostring(r21))
end

-- Axes of a body given by tiny vectors (their squares underflow): axes = { x = {5e-324, 0,
-- 0}, y = {0, 5e-324, 0} } are the world's axes; they were refused as "parallel (sine of
-- their angle -nan)" (1 / |y| overflowed; mech/rotation.c, rot_from_axes).
do
  local s = mech.spatial {}
  local ok, err = pcall(body, s, { axes = { x = { 5e-324, 0, 0 }, y = { 0, 5e-324, 0 } } })
  tap.ok(ok, "tiny axes of a body are its axes: " .. tostring(err))
  if ok then tap.near(s:value("b.r22"), 1, 1e-15, "and give the identity") else tap.ok(false, "and give the identity") end
  local s2 = mech.spatial {}
  ok, err = pcall(body, s2, { axes = { z = { 0, 0, 1 }, x = { 1e-310, 1e-310, 0 } } })
  tap.ok(ok, "a denormal second axis is a direction: " .. tostring(err))
  if ok then tap.near(s2:value("b.r11"), 0.5 ^ 0.5, 1e-12, "along (1, 1, 0)") else tap.ok(false, "along (1, 1, 0)") end
end

-- A joint's axis (or ref) of tiny or huge components: libmech checked its direction with
-- hypot and took it, but the binding built the joint's frame from sqrt(x^2 + y^2 + z^2),
-- which underflows or overflows: {1e-160, 0, 0} gave "the frame on body 'ground': not a
-- rotation: |A^T A - I| = 1.11e-05", {1e200, 1e200, 0} "|A^T A - I| = 1", and {1e-300,
-- 1e-300, 0} was "zero" (vm/lspatial.c, norm3).
do
  for _, axis in ipairs { { 1e-160, 0, 0 }, { 1e200, 1e200, 0 }, { 1e-300, 1e-300, 0 }, { 5e-324, 0, 0 } } do
    for _, kind in ipairs { "revolute", "cylindrical", "prismatic", "planar", "fixed", "universal" } do
      local s = mech.spatial {}
      local b = body(s, { at = { 0.5, 0, 0 } })
      local f = { s.ground, b, at = { 0, 0, 0 }, name = "j" }
      if kind == "universal" then
        f.axis_a, f.axis_b = axis, { 0, 0, 1 }
      elseif kind == "planar" then
        f.normal = axis
      else
        f.axis = axis
      end
      local ok, err = pcall(s[kind], s, f)
      local what = string.format("%s joint with axis {%g, %g, %g}", kind, axis[1], axis[2], axis[3])
      tap.ok(ok, what .. " is made: " .. tostring(err))
      if ok then
        local dir = axis[2] == 0 and "%(1, 0, 0%)" or "%(0%.7071067812, 0%.7071067812, 0%)"
        local pat = kind == "universal" and "axes x " .. dir or "axes x %([^)]*%) z " .. dir
        tap.like(s:describe(), "joint j: " .. kind .. ", ground %(0, 0, 0%) " .. pat, what .. ": its frame along it")
      else
        tap.ok(false, what .. ": its frame along it")
      end
    end
  end
  -- a tiny ref makes x
  local s = mech.spatial {}
  local b = body(s, { at = { 0.5, 0, 0 } })
  local ok, err = pcall(s.revolute, s, { s.ground, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, ref = { 0, 1e-200, 0 }, name = "j" })
  tap.ok(ok, "a revolute joint's tiny ref: " .. tostring(err))
  if ok then tap.like(s:describe(), "joint j: revolute, ground %(0, 0, 0%) axes x %(0, 1, 0%) z %(0, 0, 1%)", "ref along y")
  else tap.ok(false, "ref along y") end
end

-- A method both dimensions have under one name (body, revolute, prismatic, spring, ...) taken
-- from a system of one dimension and called with a system of the other ran the wrong
-- dimension's binding: the planar prismatic joint on a spatial system read a 2-vector as a
-- 3-vector (ASan: stack-buffer-overflow in lspatial_to_body < lsys_to_body < add_joint; fuzz
-- seed 105, case 657), the others wrote 3 coordinates into 2.  Now each method of one
-- dimension checks the system's (vm/lsystem.c, lsys_method_args), with the message of the
-- other dimension's stubs.
do
  local p, s = mech.planar {}, mech.spatial {}
  local sb = s:body { name = "sb", mass = 1, inertia = { 1, 1, 1 }, at = { 1, 2, 3 } }
  local pb = p:body { name = "pb", mass = 1, inertia = 1, at = { 1, 2 } }
  tap.raises(function() local f = p.prismatic; return f(s, { s.ground, sb }) end,
    "sys:prismatic: a planar system's method; this system is spatial (mech.planar{} makes a planar one)",
    "a planar system's prismatic joint on a spatial system")
  local args = {
    body = function(sys, b) return { name = "x", mass = 1 } end,
    revolute = function(sys, b) return { sys.ground, b, at = { 0, 0, 0 } } end,
    prismatic = function(sys, b) return { sys.ground, b } end,
    translational = function(sys, b) return { sys.ground, b } end,
    fixed = function(sys, b) return { sys.ground, b } end,
    spring = function(sys, b) return { sys.ground, b, k = 1, a_at = { 0, 0, 0 } } end,
    rotational_spring = function(sys, b) return { b, k = 1 } end,
    force = function(sys, b) return { b, value = { 1, 0, 0 }, at = { 0, 0, 0 } } end,
    torque = function(sys, b) return { b, value = { 1, 0, 0 } } end,
  }
  for _, name in ipairs { "body", "revolute", "prismatic", "translational", "fixed", "spring", "rotational_spring",
    "force", "torque" } do
    local make = args[name]
    tap.raises(function() local f = p[name]; return f(s, make(s, sb)) end,
      "sys:" .. name .. ": a planar system's method; this system is spatial", "planar sys:" .. name .. " on a spatial system")
    tap.raises(function() local f = s[name]; return f(p, make(p, pb)) end,
      "sys:" .. name .. ": a spatial system's method; this system is planar", "spatial sys:" .. name .. " on a planar system")
  end
  for _, name in ipairs { "contact", "flexible", "guide" } do
    tap.raises(function() local f = p[name]; return f(s, {}) end,
      "sys:" .. name .. ": a planar system's method; this system is spatial", "planar-only sys:" .. name .. " on a spatial system")
  end
  -- every system's methods take either
  local f = p.drive
  tap.is(f(s, { sb, axis = { 0, 0, 1 }, speed = 1 }).kind, "driver", "sys:drive taken from a planar system drives a spatial body")
  tap.is(s:entity("sb").kind, "body", "and the system is intact")
end

do -- an empty spatial system runs, as an empty planar one does (it asked BDF for a kinematic map
  -- of no positions: "needs second_order > 0")
  for _, method in ipairs { "rk4", "dopri5", "bdf" } do
    local run = mech.spatial{}:simulate{ t = 1e-3, method = method, h = 1e-4 }
    tap.ok(run.ok, "an empty spatial system simulates (" .. method .. ")")
  end
end

do -- spec001.slider checks its arguments
  local spec001 = require "spec001"
  tap.raises(function() spec001.slider("1") end, "spec001.slider: argument #1 (t) must be a number [s] (got string)",
    "a time that is not a number")
  tap.raises(function() spec001.slider(0.1, { omega = "fast" }) end, "spec001.slider: field 'omega'",
    "a parameter that is not a number")
  tap.ok(select("#", spec001.slider(0.1)) == 3, "the defaults give y, y', y''")
end

do -- spec001.model and spec001.friction check their arguments and blame their caller (the fuzzer
  -- found "spec001.lua:95: attempt to index a number value (local 'c')" for a pivot that is a
  -- number, and errors of mech.friction.coulomb or spec001.friction, located in spec001.lua, for
  -- a v_reg or a friction name that spec001.model or spec001.friction was given)
  local spec001 = require "spec001"
  local here = "test_spatial_fuzz%.lua:%d+: "
  local function blames(f, text, name)
    local msg = tap.raises(f, text, name)
    tap.like(msg or "", here, name .. ": at the caller's line")
  end
  blames(function() spec001.model { pivot = -5e-324 } end,
    "spec001.model: field 'pivot' must be {x, y, z} [m] (got number)", "a pivot that is not a point")
  blames(function() spec001.model { pivot = { 0, 0 } } end, "spec001.model: field 'pivot' must be {x, y, z} [m]",
    "a pivot of two coordinates")
  for _, v in ipairs { 0 / 0, 0, -1e-4, math.huge } do
    blames(function() spec001.friction("coulomb", v) end,
      "spec001.friction: argument #2 (v_reg) must be a finite number > 0 [m/s] (got " .. tostring(v) .. ")",
      "spec001.friction: v_reg " .. tostring(v))
  end
  blames(function() spec001.model { clearance = { friction = "LuGre" } } end,
    "spec001.model (clearance): field 'friction' must be a law of mech.friction, false or one of none, coulomb, "
      .. "stribeck, dahl, lugre (got LuGre)", "spec001.model: a friction name that does not exist")
  blames(function() spec001.model { clearance = { friction = "coulomb", v_reg = 0 } } end,
    "spec001.model (clearance): field 'v_reg' must be > 0 [m/s] (got 0)", "spec001.model: v_reg 0")
  blames(function() spec001.model { clearance = { K = -1 } } end,
    "spec001.model (clearance): field 'K' must be > 0 [N/m^1.5] (got -1)", "spec001.model: K -1")
  blames(function() spec001.model { clearance = { restitution = 2 } } end,
    "spec001.model (clearance): field 'restitution' must be in (0, 1] (got 2)", "spec001.model: restitution 2")
  tap.ok(pcall(spec001.model, { clearance = { friction = "stribeck", v_reg = 1e-3 } }), "good values still make the model")
end

-- A spring whose ends are a subnormal length apart (a body at { 5e-324, 0, 0 } tied to the
-- ground's origin): its direction was d * (1 / len), and 1 / 5e-324 overflows, so the first
-- evaluation failed with "the forces on body 'b' are not finite" (mech/spatial_dim.c); d / len
-- is the unit vector.
do
  local s = mech.spatial { gravity = { 0, 0, 0 } }
  local b = body(s, { at = { 5e-324, 0, 0 } })
  s:spring { s.ground, b, k = 10, c = 1, name = "sp" }
  local ok, run = pcall(s.simulate, s, { t = 1e-3, quiet = true, record = { "sp.f", "b.x" } })
  tap.ok(ok and run.status == "complete", "a spring of length 5e-324 runs: " .. tostring(ok and run.status or run))
  tap.ok(ok and run["sp.f"][1] == 0 or false, "at its rest length (the start's), no tension: " .. tostring(ok and run["sp.f"][1]))
end

tap.done()
