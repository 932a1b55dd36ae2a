-- SPDX-License-Identifier: MIT
-- The Lua API of spatial systems (mech.spatial, vm/lspatial.c): every constructor and every
-- way to give a body's orientation, read back through the recorded channels; anchors and
-- axes given in the world turned into body coordinates (the joints start satisfied, their
-- angles and distances at 0); the errors that name the function, the field and the values;
-- the methods of one dimension called on a system of the other; and the spatial
-- slider-crank of [Spatial revolute paper] built through the API.
local tap = require "tap"

local pi, sqrt, sin, cos = math.pi, math.sqrt, math.sin, math.cos
local raises = tap.raises

-- ---- rotations in Lua, to compare with -------------------------------------------------
local function matmul(A, B)
  local C = {}
  for i = 1, 3 do
    C[i] = {}
    for k = 1, 3 do
      C[i][k] = A[i][1] * B[1][k] + A[i][2] * B[2][k] + A[i][3] * B[3][k]
    end
  end
  return C
end

local function rot(axis, a) -- a rotation about a coordinate axis ("x", "y", "z")
  local c, s = cos(a), sin(a)
  if axis == "x" then return { { 1, 0, 0 }, { 0, c, -s }, { 0, s, c } } end
  if axis == "y" then return { { c, 0, s }, { 0, 1, 0 }, { -s, 0, c } } end
  return { { c, -s, 0 }, { s, c, 0 }, { 0, 0, 1 } }
end

local function euler(seq, a, b, c) -- intrinsic: A = R1(a) R2(b) R3(c)
  return matmul(matmul(rot(seq:sub(1, 1), a), rot(seq:sub(2, 2), b)), rot(seq:sub(3, 3), c))
end

local function unit(v)
  local n = sqrt(v[1] ^ 2 + v[2] ^ 2 + v[3] ^ 2)
  return { v[1] / n, v[2] / n, v[3] / n }
end

local function cross(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end

local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end

local function axis_angle(axis, a) -- Rodrigues
  local u, c, s = unit(axis), cos(a), sin(a)
  local A = {}
  for i = 1, 3 do
    A[i] = {}
    for k = 1, 3 do A[i][k] = (1 - c) * u[i] * u[k] + (i == k and c or 0) end
  end
  A[1][2], A[2][1] = A[1][2] - s * u[3], A[2][1] + s * u[3]
  A[1][3], A[3][1] = A[1][3] + s * u[2], A[3][1] - s * u[2]
  A[2][3], A[3][2] = A[2][3] - s * u[1], A[3][2] + s * u[1]
  return A
end

local function quat_matrix(e) -- world = A body, e scalar first
  local n = sqrt(e[1] ^ 2 + e[2] ^ 2 + e[3] ^ 2 + e[4] ^ 2)
  local e0, e1, e2, e3 = e[1] / n, e[2] / n, e[3] / n, e[4] / n
  return {
    { e0 ^ 2 + e1 ^ 2 - e2 ^ 2 - e3 ^ 2, 2 * (e1 * e2 - e0 * e3), 2 * (e1 * e3 + e0 * e2) },
    { 2 * (e1 * e2 + e0 * e3), e0 ^ 2 - e1 ^ 2 + e2 ^ 2 - e3 ^ 2, 2 * (e2 * e3 - e0 * e1) },
    { 2 * (e1 * e3 - e0 * e2), 2 * (e2 * e3 + e0 * e1), e0 ^ 2 - e1 ^ 2 - e2 ^ 2 + e3 ^ 2 },
  }
end

local function columns(x, y, z) return { { x[1], y[1], z[1] }, { x[2], y[2], z[2] }, { x[3], y[3], z[3] } } end

local function matrix_diff(A, B)
  local d = 0
  for i = 1, 3 do
    for k = 1, 3 do d = math.max(d, math.abs(A[i][k] - B[i][k])) end
  end
  return d
end

-- ---- mech.spatial -----------------------------------------------------------------------
local s0 = mech.spatial { gravity = { 0, 0, -9.81 }, baumgarte = { 10, 10 }, assemble = true }
tap.is(s0.dim, 3, "a spatial system's dim is 3")
tap.is(mech.planar {}.dim, 2, "a planar system's dim is 2")
tap.is(tostring(s0), "mech.spatial: 0 bodies, 0 joints, 0 drivers, 0 force elements, 0 points; 0 degrees of freedom",
  "tostring of an empty spatial system")
tap.like(s0:describe(), "^spatial; gravity %(0, 0, %-9%.81%) m/s%^2; Baumgarte alpha 10, beta 10", "describe: gravity and Baumgarte")
raises(function() mech.spatial { gravity = { 0, -9.81 } } end,
  "mech.spatial: field 'gravity' must be a table of three numbers {x, y, z}", "gravity has three components")
raises(function() mech.spatial { start = "ideal" } end,
  "mech.spatial: unknown field 'start' (known fields: gravity, baumgarte, assemble, solver)",
  "no start: spatial systems have no joints with clearance")
raises(function() mech.spatial(3) end, "mech.spatial: expected a table { gravity = {gx, gy, gz} } (got number)",
  "the argument is a table")

-- ---- orientations: every form, read back from the recorded channels at t = 0 ---------------
do
  local s = mech.spatial {}
  local I = { 1, 2, 2.5 }
  local expect = {} -- body name -> matrix
  local function body(name, fields, A)
    fields.name, fields.mass, fields.inertia = name, 1, I
    fields.at = fields.at or { #expect + 1, 0, 0 }
    s:body(fields)
    expect[#expect + 1] = { name, A }
  end
  body("none", {}, { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } })
  local q = { 0.9, 0.1, -0.3, 0.2 } -- not normalised: libmech normalises it
  body("quat", { quaternion = q }, quat_matrix(q))
  local M = euler("zyx", 0.4, -0.3, 1.2)
  body("matrix", { matrix = M }, M)
  body("axisangle", { axis = { 1, 2, 2 }, angle = 0.7 }, axis_angle({ 1, 2, 2 }, 0.7))
  local u, v = { 1, 1, 0 }, { 0, 1, 1 } -- x kept, y made normal to it
  local x = unit(u)
  local y = unit({ v[1] - dot(v, x) * x[1], v[2] - dot(v, x) * x[2], v[3] - dot(v, x) * x[3] })
  body("axes_xy", { axes = { x = u, y = v } }, columns(x, y, cross(x, y)))
  local yk = unit(v) -- y kept, x made normal to it
  local xk = unit({ u[1] - dot(u, yk) * yk[1], u[2] - dot(u, yk) * yk[2], u[3] - dot(u, yk) * yk[3] })
  body("axes_exact_y", { axes = { x = u, y = v, exact = "y" } }, columns(xk, yk, cross(xk, yk)))
  local yy, zz = { 1, 0, 0 }, unit({ 0, 0.2, 1 }) -- y and z (already normal): x = y cross z
  body("axes_yz", { axes = { y = { 2, 0, 0 }, z = { 0, 0.2, 1 } } }, columns(cross(yy, zz), yy, zz))
  local seqs = { "xyz", "xzy", "yxz", "yzx", "zxy", "zyx", "xyx", "xzx", "yxy", "yzy", "zxz", "zyz" }
  for _, seq in ipairs(seqs) do
    body("euler_" .. seq, { euler = { seq, 0.3, -0.5, 1.1 } }, euler(seq, 0.3, -0.5, 1.1))
  end
  -- the channels of every body at t = 0 after a tiny run
  local record = {}
  for _, e in ipairs(expect) do
    for i = 1, 3 do
      for k = 1, 3 do record[#record + 1] = e[1] .. ".r" .. i .. k end
    end
    for i = 0, 3 do record[#record + 1] = e[1] .. ".e" .. i end
  end
  local run = s:simulate { t = 1e-6, report = 1e-6, record = record }
  for _, e in ipairs(expect) do
    local name, A = e[1], e[2]
    local got = {}
    for i = 1, 3 do
      got[i] = {}
      for k = 1, 3 do got[i][k] = run[name .. ".r" .. i .. k][1] end
    end
    local eq = {}
    for i = 0, 3 do eq[#eq + 1] = run[name .. ".e" .. i][1] end
    local d = matrix_diff(got, A)
    tap.ok(d < 1e-12, string.format("orientation %s: the recorded r11..r33 are the given rotation (%.2g)", name, d))
    d = matrix_diff(quat_matrix(eq), A)
    tap.ok(d < 1e-12 and math.abs(eq[1] ^ 2 + eq[2] ^ 2 + eq[3] ^ 2 + eq[4] ^ 2 - 1) < 1e-14,
      string.format("orientation %s: e0..e3 are its unit quaternion (%.2g)", name, d))
  end
  tap.ok(math.abs(run["quat.e0"][1] - 0.9 / sqrt(0.95)) < 1e-14, "a quaternion is normalised, its sign kept")
  -- the Euler channels give the angles back
  local s2 = mech.spatial {}
  s2:body { name = "b", mass = 1, inertia = I, euler = { "zxz", 0.3, 0.5, 1.1 } }
  tap.near(s2:value("b.zxz1"), 0.3, 1e-12, "euler zxz: angle 1 read back")
  tap.near(s2:value("b.zxz2"), 0.5, 1e-12, "euler zxz: angle 2 read back")
  tap.near(s2:value("b.zxz3"), 1.1, 1e-12, "euler zxz: angle 3 read back")
end

-- ---- bodies: inertia, velocities, tostring, channels -------------------------------------------
do
  local s = mech.spatial {}
  local b = s:body { name = "b", mass = 2, inertia = { 1, 2, 2.5, 0.1, 0, 0 }, at = { 1, 2, 3 },
    velocity = { 0.5, 0, 0 }, omega = { 0, 0, 2 } }
  tap.like(tostring(b), "^body 'b': mass 2 kg, inertia %(1, 2, 2%.5; %-0%.1, %-?0, %-?0%)",
    "products are integrals by default: the tensor holds -Ixy")
  local c = s:body { name = "c", mass = 2, inertia = { 1, 2, 2.5, 0.1, 0, 0 }, products = "tensor" }
  tap.like(tostring(c), "inertia %(1, 2, 2%.5; 0%.1, ", "products = \"tensor\": the tensor's entries")
  tap.like(tostring(b.channels), "^x, y, z, r, vx, vy, vz, v, ax, ay, az, a, e0, e1, e2, e3, r11,", "a spatial body's channels")
  tap.near(s:value("b.vx"), 0.5, 1e-15, "velocity (world)")
  tap.near(s:value("b.wz"), 2, 1e-15, "omega (world)")
  tap.is(tostring(s), "mech.spatial: 2 bodies (b, c), 0 joints, 0 drivers, 0 force elements, 0 points; 12 degrees of freedom",
    "tostring counts bodies and degrees of freedom")
end

-- ---- points --------------------------------------------------------------------------------------
do
  local s = mech.spatial {}
  -- turned a quarter turn about z: body x along world y
  local b = s:body { name = "b", mass = 1, inertia = { 1, 1, 1 }, at = { 1, 2, 3 }, axis = { 0, 0, 1 }, angle = pi / 2 }
  local p = s:point { b, name = "p", at = { 1, 3, 3 } }       -- world: body (1, 0, 0)
  local q = b:point { name = "q", body_at = { 0, 0, 0.5 } }    -- world (1, 2, 3.5)
  local r = b:point { name = "r", at = { 2, 2, 3 } }           -- body (0, -1, 0)
  tap.is(p.kind, "point", "sys:point makes a point")
  tap.like(tostring(p), "^point 'b%.p': ", "its name is body.point")
  tap.near(s:value("b.p.x"), 1, 1e-15, "sys:point at a world point: x")
  tap.near(s:value("b.p.y"), 3, 1e-15, "sys:point at a world point: y")
  tap.near(s:value("b.q.z"), 3.5, 1e-15, "body:point body_at: z")
  tap.near(s:value("b.r.x"), 2, 1e-15, "body:point at a world point: x")
  tap.is(s:entity("b.q"), q, "sys:entity finds a point")
  tap.like(tostring(r.channels), "^x, y, z, vx, vy, vz, v, ax, ay, az, a$", "a spatial point's channels")
  raises(function() s:point { b, name = "bad", at = { 1, 2 } } end,
    "sys:point: field 'at' must be a table of three numbers {x, y, z}", "a spatial point has three coordinates")
  raises(function() b:point { name = "bad", at = { 1, 2, 3 }, body_at = { 0, 0, 0 } } end,
    "body:point: give either 'at' or 'body_at', not both", "one way to give a point")
end

-- ---- joints: world anchors and axes turned into body coordinates ---------------------------------
-- Each joint joins its own two bodies, both placed and turned: with assemble = false, the
-- joint's equations hold at t = 0 only if the binding turned `at` and the axes into each
-- body's coordinates right.
do
  local s = mech.spatial { assemble = false }
  local n = 0
  local function pair()
    n = n + 1
    local a = s:body { name = "a" .. n, mass = 1, inertia = { 1, 1, 1 }, at = { n, 0.5, -0.2 },
      euler = { "zyx", 0.3 * n, -0.2, 0.4 } }
    local b = s:body { name = "b" .. n, mass = 1, inertia = { 1, 1, 1 }, at = { n + 0.3, 1, 0.4 },
      axis = { 1, -1, 2 }, angle = 0.5 + 0.1 * n }
    return a, b, { n + 0.1, 0.7, 0.1 }
  end
  local joints = {}
  local a, b, at = pair()
  joints[#joints + 1] = s:revolute { a, b, at = at, axis = { 1, 2, 3 }, ref = { 0, 0, 1 }, name = "rev" }
  a, b, at = pair()
  joints[#joints + 1] = s:spherical { a, b, at = at, name = "sph" }
  a, b, at = pair()
  joints[#joints + 1] = s:universal { a, b, at = at, axis_a = { 1, 0, 0 }, axis_b = { 0.2, 1, 0 }, name = "uni" }
  a, b, at = pair()
  joints[#joints + 1] = s:cylindrical { a, b, at = at, axis = { 0, 1, 1 }, name = "cyl" }
  a, b, at = pair()
  joints[#joints + 1] = s:prismatic { a, b, axis = { 1, 1, 0 }, name = "pri" }
  a, b, at = pair()
  joints[#joints + 1] = s:translational { a, b, at = at, axis = { 0, 0, 1 }, name = "tra" }
  a, b, at = pair()
  joints[#joints + 1] = s:planar { a, b, normal = { 0, 1, 0 }, name = "pla" }
  a, b, at = pair()
  joints[#joints + 1] = s:fixed { a, b, name = "fix" }
  a, b, at = pair()
  joints[#joints + 1] = s:fixed { a, b, at = at, axis = { 1, 0, 0 }, ref = { 0, 1, 0 }, name = "fix2" }
  a, b = pair()
  joints[#joints + 1] = s:revolute { a, b, a_at = { 0.1, 0, 0 }, b_at = { 0, 0.2, 0 }, axis = { 0, 0, 1 }, name = "far" }
  for _, j in ipairs(joints) do
    local name = j.name
    if name ~= "far" then
      tap.ok(math.abs(s:value(name .. ".violation")) < 1e-14,
        "joint " .. name .. ": anchors meet at the start (violation " .. s:value(name .. ".violation") .. ")")
      tap.ok(math.abs(s:value(name .. ".misalignment")) < 1e-14,
        "joint " .. name .. ": axes aligned at the start (misalignment " .. s:value(name .. ".misalignment") .. ")")
    end
  end
  tap.near(s:value("rev.angle"), 0, 1e-14, "a revolute joint's angle starts at 0")
  tap.near(s:value("cyl.angle"), 0, 1e-14, "a cylindrical joint's angle starts at 0")
  tap.near(s:value("cyl.distance"), 0, 1e-14, "a cylindrical joint's distance starts at 0")
  tap.near(s:value("pri.distance"), 0, 1e-14, "a prismatic joint anchored at b's centre: distance 0")
  tap.ok(s:value("far.violation") > 0.1, "a_at and b_at are body coordinates: they need not meet")
  tap.is(joints[6].kind, "joint", "sys:translational makes a joint")
  tap.like(tostring(joints[6]), "^joint 'tra': prismatic, ", "sys:translational is a prismatic joint")
  tap.like(tostring(joints[1].channels), "violation, misalignment, angle$", "a revolute joint's channels end with angle")
  tap.like(tostring(joints[5].channels), "misalignment, distance$", "a prismatic joint's with distance")
  tap.like(tostring(joints[4].channels), "misalignment, angle, distance$", "a cylindrical joint's with both")
end

-- the frame: z along the axis, x along ref (made normal to it), or a world axis across z
do
  local s = mech.spatial {}
  local b = s:body { name = "b", mass = 1, inertia = { 1, 1, 1 }, at = { 0, 0, 1 } }
  local j1 = s:revolute { s.ground, b, at = { 0, 0, 0 }, axis = { 1, 0, 0 }, ref = { 0.5, 0, 2 } }
  tap.like(tostring(j1), "^joint 'revolute1': revolute, ground %(0, 0, 0%) axes x %(0, 0, 1%) z %(1, 0, 0%) %- b %(0, 0, %-1%) axes x %(0, 0, 1%) z %(1, 0, 0%)",
    "the frame: z the axis, x ref made normal to it; the anchor in each body's coordinates")
  local c = s:body { name = "c", mass = 1, inertia = { 1, 1, 1 }, at = { 0, 0, 1 } }
  local j2 = s:cylindrical { s.ground, c, at = { 0, 0, 0 }, axis = { 0, 0, 2 } }
  tap.like(tostring(j2), "axes x %(1, 0, 0%) z %(0, 0, 1%)", "without ref: x along a world axis across z")
end

-- a revolute joint driven at w: its angle is w t, about its axis
do
  local s = mech.spatial {}
  local b = s:body { name = "b", mass = 1, inertia = { 1, 2, 3 }, at = { 0, 0.5, 0 }, axis = { 0, 1, 0 }, angle = 0.3 }
  local j = s:revolute { s.ground, b, at = { 0, 0, 0 }, axis = { 0, 1, 0 }, name = "pin" }
  s:drive { j, speed = 2, name = "motor" }
  tap.is(s.dof, 0, "a driven pendulum has no degree of freedom")
  local run = s:simulate { t = 0.1, report = 0.05, record = { "pin.angle", "b.wy", "motor.angle" } }
  tap.near(run["pin.angle"][3], 0.2, 1e-7, "the joint's angle is w t")
  tap.near(run["b.wy"][3], 2, 1e-7, "the body turns about the joint's axis (world y)")
  -- a body's driver takes the axis of its one revolute joint to the ground
  local s2 = mech.spatial {}
  local c = s2:body { name = "c", mass = 1, inertia = { 1, 2, 3 }, at = { 0.5, 0, 0 } }
  s2:revolute { c, s2.ground, at = { 0, 0, 0 }, axis = { 0, 0, 1 } }
  s2:drive { c, speed = -1, name = "turn" }
  local run2 = s2:simulate { t = 0.1, report = 0.1, record = { "c.wz", "turn.angle" } }
  tap.near(run2["c.wz"][2], -1, 1e-7, "a body's driver turns it about its revolute joint's axis")
  tap.near(run2["turn.angle"][2], -0.1, 1e-7, "and its angle is the rotation about that axis")
  -- with an explicit axis
  local s3 = mech.spatial {}
  local d = s3:body { name = "d", mass = 1, inertia = { 1, 2, 3 } }
  s3:spherical { s3.ground, d, at = { 0, 0, 0 } }
  s3:drive { d, axis = { 0, 0, 1 }, speed = 1 }
  tap.is(s3.dof, 2, "a body's driver about a given axis takes one degree of freedom")
end

-- drivers of prismatic and cylindrical joints; the errors of sys:drive
do
  local s = mech.spatial {}
  local b = s:body { name = "b", mass = 1, inertia = { 1, 1, 1 }, at = { 0, 0, 0 } }
  local c = s:body { name = "c", mass = 1, inertia = { 1, 1, 1 }, at = { 1, 0, 0 } }
  local e = s:body { name = "e", mass = 1, inertia = { 1, 1, 1 }, at = { 2, 0, 0 } }
  local pj = s:prismatic { s.ground, b, axis = { 1, 0, 0 } }
  local cj = s:cylindrical { s.ground, c, at = { 1, 0, 0 }, axis = { 0, 0, 1 } }
  local sj = s:spherical { s.ground, e, at = { 2, 0, 0 } }
  s:drive { pj, speed = 0.5, name = "slide" }
  raises(function() s:drive { cj, speed = 1 } end,
    "sys:drive: joint 'cylindrical1' is cylindrical: say which of its coordinates is driven, what = \"angle\" or \"distance\"",
    "a cylindrical joint's driver says what it drives")
  s:drive { cj, what = "angle", speed = 1, name = "spin" }
  s:drive { cj, what = "distance", speed = -0.25, name = "lift" }
  raises(function() s:drive { pj, what = "angle", speed = 1 } end,
    "sys:drive: joint 'prismatic1' is prismatic: its driver drives its distance", "what must fit the joint")
  raises(function() s:drive { sj, speed = 1 } end,
    "sys:drive: joint 'spherical1' is spherical: only a revolute, prismatic or cylindrical joint can be driven",
    "a spherical joint cannot be driven")
  raises(function() s:drive { pj, speed = 1, axis = { 1, 0, 0 } } end,
    "sys:drive: 'axis' is for a body's driver: a joint's is the joint's axis", "axis only for bodies")
  raises(function() s:drive { e, speed = 1 } end,
    "sys:drive: give 'axis' = {ax, ay, az}, the world axis body 'e' turns about (it has no revolute joint to the ground to take it from)",
    "a body without a revolute joint to the ground needs an axis")
  raises(function() s:drive { e, speed = 1, axis = { 0, 0, 0 } } end,
    "the axis of the rotation of body 'e' must be a non-zero finite vector (got 0, 0, 0)",
    "a zero axis of a body's driver")
  local run = s:simulate { t = 0.2, report = 0.2, record = { "prismatic1.distance", "cylindrical1.angle", "cylindrical1.distance", "b.x", "c.z" } }
  tap.near(run["prismatic1.distance"][2], 0.1, 1e-7, "a prismatic joint's driver: distance = v t")
  tap.near(run["b.x"][2], 0.1, 1e-7, "along the joint's axis")
  tap.near(run["cylindrical1.angle"][2], 0.2, 1e-7, "a cylindrical joint's angle driver")
  tap.near(run["c.z"][2], -0.05, 1e-7, "and its distance driver (along world z)")
  local s2 = mech.spatial {}
  local f = s2:body { name = "f", mass = 1, inertia = { 1, 1, 1 }, at = { 0, 0, 1 } }
  s2:revolute { s2.ground, f, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, method = "penalty", k = 1e6 }
  s2:revolute { s2.ground, f, at = { 0, 0, 2 }, axis = { 0, 0, 1 }, method = "penalty", k = 1e6 }
  raises(function() s2:drive { f, speed = 1 } end,
    "sys:drive: body 'f' has several revolute joints to the ground: give 'axis' = {ax, ay, az}",
    "several revolute joints to the ground: the axis must be given")
  local s3 = mech.spatial {}
  local g = s3:body { name = "g", mass = 1, inertia = { 1, 1, 1 }, at = { 0, 0, 1 } }
  raises(function() s3:revolute { s3.ground, g, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, method = "penalty", k = -1 } end,
    "sys:revolute: revolute 'revolute1': penalty stiffness 1 must be > 0 (got -1)", "a joint libmech refuses")
  tap.is(s3:entity("revolute1"), nil, "is not added")
  raises(function() s3:drive { g, speed = 1 } end, "(it has no revolute joint to the ground to take it from)",
    "and gives no axis to a body's driver")
end

-- ---- force elements ----------------------------------------------------------------------------
do
  local s = mech.spatial {}
  local b = s:body { name = "b", mass = 2, inertia = { 2, 3, 4 }, at = { 0, 0, 1 } }
  local sp = s:spring { s.ground, b, at = { { 0, 0, 0 }, { 0, 0, 1.5 } }, k = 100, c = 1, name = "sp", length = 1 }
  tap.near(s:value("sp.length"), 1.5, 1e-15, "a spring's length: between its world ends")
  tap.near(s:value("sp.f"), 50, 1e-12, "its tension k (l - l0)")
  tap.like(tostring(sp.channels), "^f, length, rate, energy$", "a spring's channels")
  local lawcalls = 0
  s:spring { s.ground, b, a_at = { 1, 0, 0 }, b_at = { 0, 0, 0 }, name = "sl",
    law = function(l, rate, t) lawcalls = lawcalls + 1 return 3 * l end }
  tap.near(s:value("sl.f"), 3 * sqrt(2), 1e-12, "a spring's law: tension = law(length, rate, t)")
  tap.ok(lawcalls > 0, "the law was called")
  local f = s:force { b, value = { 1, 2, 3 }, body_at = { 0, 0, 0 }, name = "push" }
  s:torque { b, value = { 0, 0, 4 }, name = "twist" }
  tap.like(tostring(f.channels), "^fx, fy, fz, tx, ty, tz, power$", "a load's channels")
  -- gravity none: a = (F + spring + law) / m
  local fz = 1 * 3 - 50 - 3 * sqrt(2) * (1 / sqrt(2)) -- push, spring (pulls down), law (towards (1, 0, 0))
  tap.near(s:value("b.az"), fz / 2, 1e-12, "a force: the body's acceleration")
  tap.near(s:value("b.alphaz"), 1, 1e-12, "a torque {0, 0, 4} on Izz = 4: alpha 1")
  tap.near(s:value("twist.tz"), 4, 1e-15, "the torque's channel")
end

-- a load computed by a function of (t, s): s is one table, refilled before each call
do
  local s = mech.spatial {}
  local b = s:body { name = "b", mass = 2, inertia = { 2, 3, 4 }, at = { 1, 2, 3 }, velocity = { 0.5, 0, 0 },
    omega = { 0, 0, 0.25 }, quaternion = { 1, 0, 0, 0 } }
  local seen, tables = {}, {}
  s:force { b, name = "fn_force", fn = function(t, st)
    tables[st] = true
    for _, k in ipairs { "x", "y", "z", "e0", "e1", "e2", "e3", "vx", "vy", "vz", "wx", "wy", "wz" } do seen[k] = st[k] end
    return 2, 0, -4, 0, 0, 1
  end }
  s:torque { b, name = "fn_torque", fn = function(t, st) return 0, 2, 0 end }
  tap.near(s:value("b.ax"), 1, 1e-12, "fn's force: ax = fx / m")
  tap.near(s:value("b.az"), -2, 1e-12, "fn's force: az")
  tap.near(s:value("b.alphaz"), 0.25, 1e-12, "fn's optional torque: alpha_z = tz / Izz")
  tap.near(s:value("b.alphay"), 2 / 3, 1e-12, "a torque's fn: tx, ty, tz")
  tap.is(seen.x, 1, "the state: x")
  tap.is(seen.z, 3, "the state: z")
  tap.is(seen.e0, 1, "the state: e0")
  tap.is(seen.vx, 0.5, "the state: vx")
  tap.is(seen.wz, 0.25, "the state: wz")
  s:simulate { t = 0.01, report = 0.01 }
  local n = 0
  for _ in pairs(tables) do n = n + 1 end
  tap.is(n, 1, "one state table for all the calls")
  local s2 = mech.spatial {}
  local c = s2:body { name = "c", mass = 1, inertia = { 1, 1, 1 } }
  s2:force { c, name = "bad", fn = function() return 1, "two", 3 end }
  raises(function() s2:simulate { t = 0.01 } end, "force 'bad' function: result #2 must be a number (got string)",
    "a result that is not a number fails the run, naming the load")
  local s3 = mech.spatial {}
  local d = s3:body { name = "d", mass = 1, inertia = { 1, 1, 1 } }
  s3:torque { d, name = "boom", fn = function() error("no torque today") end }
  raises(function() s3:simulate { t = 0.01 } end, "torque 'boom' function: ", "an error in fn names the load")
  raises(function() s3:simulate { t = 0.01 } end, "no torque today", "and keeps its message")
end

-- harmonic loads and the body frame
do
  local s = mech.spatial {}
  local b = s:body { name = "b", mass = 1, inertia = { 1, 1, 1 }, axis = { 0, 0, 1 }, angle = pi / 2 }
  s:force { b, value = { 1, 0, 0 }, frame = "body", name = "along_x" }
  tap.near(s:value("b.ay"), 1, 1e-12, "frame = \"body\": the force turns with the body (body x = world y)")
  s:torque { b, value = { 0, 0, 0 }, amplitude = { 0, 0, 1 }, omega = 2, phase = pi / 2, name = "h" }
  tap.near(s:value("b.alphaz"), 1, 1e-12, "a harmonic torque: amplitude sin(omega t + phase)")
  raises(function() s:torque { b, amplitude = { 1, 0, 0 } } end,
    "sys:torque: a harmonic load needs 'omega', its angular frequency [rad/s]", "a harmonic load needs omega")
  raises(function() s:force { b, value = { 1, 0 } } end,
    "sys:force: field 'value' must be a table of three numbers {x, y, z}", "a spatial force has three components")
end

-- rotational springs about a revolute or cylindrical joint's axis
do
  local s = mech.spatial {}
  local b = s:body { name = "b", mass = 1, inertia = { 1, 1, 2 }, at = { 1, 0, 0 } }
  local j = s:revolute { s.ground, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 } }
  local r = s:rotational_spring { j, k = 10, c = 0, angle = 0.1, name = "rs" }
  tap.near(s:value("rs.torque"), 1, 1e-12, "the torque -k (angle - rest) about the joint's axis")
  tap.like(tostring(r.channels), "^torque, angle, rate, energy$", "a rotational spring's channels")
  local b2 = s:body { name = "b2", mass = 1, inertia = { 1, 1, 1 }, at = { 0, 0, 5 } }
  local sj = s:spherical { s.ground, b2, at = { 0, 0, 5 } }
  raises(function() s:rotational_spring { sj, k = 1 } end,
    "it turns about a revolute or cylindrical joint's axis; 'spherical1' is a spherical joint",
    "only about a revolute or cylindrical joint")
  raises(function() s:rotational_spring { b2, k = 1 } end,
    "sys:rotational_spring: the joint (value #1) must be a joint, not a body", "its first value is a joint")
end

-- ---- errors: each names the function, the field and the values -------------------------------------
do
  local s = mech.spatial {}
  local function body(f)
    f.mass = f.mass or 1
    f.inertia = f.inertia or { 1, 1, 1 }
    return function() return s:body(f) end
  end
  raises(body { name = "pd", inertia = { 1, 1, 1, 2, 0, 0 } },
    "sys:body: body 'pd': inertia (1, 1, 1, 2, 0, 0): inertia not positive definite",
    "an inertia that is not positive definite: the body and the values")
  raises(body { name = "tri", inertia = { 1, 1, 3 } },
    "sys:body: body 'tri': inertia (1, 1, 3, 0, 0, 0): inertia violates the triangle inequality: I1 + I2 = 2 < I3 = 3",
    "moments that violate the triangle inequality")
  raises(body { name = "n", inertia = 2 },
    "sys:body: field 'inertia' must be {Ixx, Iyy, Izz} (principal moments) or {Ixx, Iyy, Izz, Ixy, Iyz, Izx} [kg m^2] about the centre of mass, body axes (got number)",
    "a planar inertia in a spatial body")
  raises(function() s:body { name = "n", mass = 1 } end, "sys:body: field 'inertia' is required",
    "inertia is required")
  raises(body { name = "p", products = "tensor" }, "'products' says how the products of inertia", "products need six values")
  raises(body { name = "p", inertia = { 1, 1, 1, 0, 0, 0 }, products = "sum" },
    "sys:body: field 'products' must be one of \"integral\", \"tensor\" (got \"sum\")", "products are named")
  raises(body { name = "m", matrix = { { 1, 0, 0 }, { 0, 2, 0 }, { 0, 0, 1 } } },
    "sys:body: field 'matrix' = {{1, 0, 0}, {0, 2, 0}, {0, 0, 1}}: not a rotation: |A^T A - I| = 3",
    "a matrix that is not a rotation")
  raises(body { name = "m", matrix = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, -1 } } },
    "sys:body: field 'matrix' = {{1, 0, 0}, {0, 1, 0}, {0, 0, -1}}: not a rotation: det A = -1 (a reflection)",
    "a reflection")
  raises(body { name = "m", matrix = { { 1, 0, 0 }, { 0, 1, 0 } } },
    "sys:body: field 'matrix' must be {{r11, r12, r13}, {r21, r22, r23}, {r31, r32, r33}} (rows)", "three rows")
  raises(body { name = "e", euler = { "zyx", 0.1, pi / 2, 0.3 } },
    "sys:body: field 'euler' = {\"zyx\", 0.1, 1.5708, 0.3}: Euler angles 'zyx' singular (gimbal lock)",
    "singular Euler angles")
  raises(body { name = "e", euler = { "zzx", 0.1, 0.2, 0.3 } },
    "sys:body: field 'euler' = {\"zzx\", 0.1, 0.2, 0.3}: 'zzx' is not an Euler sequence", "an unknown sequence")
  raises(body { name = "e", euler = { 0.1, 0.2, 0.3 } }, "sys:body: field 'euler' must be {\"zyx\", a, b, c}",
    "the sequence is named")
  raises(body { name = "q", quaternion = { 0, 0, 0, 0 } },
    "sys:body: field 'quaternion' = {0, 0, 0, 0}: the quaternion is zero", "a zero quaternion")
  raises(body { name = "q", quaternion = { 1, 0, 0 } },
    "sys:body: field 'quaternion' must be {e0, e1, e2, e3} (scalar first)", "a quaternion has four values")
  raises(body { name = "a", axes = { x = { 1, 0, 0 }, y = { 2, 0, 0 } } },
    "sys:body: field 'axes' (x = {1, 0, 0}, y = {2, 0, 0}): axes x and y are parallel", "parallel axes")
  raises(body { name = "a", axes = { x = { 0, 0, 0 }, z = { 1, 0, 0 } } },
    "sys:body: field 'axes' (x = {0, 0, 0}, z = {1, 0, 0}): axis x has zero length", "a zero axis")
  raises(body { name = "a", axes = { x = { 1, 0, 0 } } }, "sys:body: field 'axes' must give two of the body's axes x, y, z",
    "two axes")
  raises(body { name = "a", axes = { x = { 1, 0, 0 }, y = { 0, 1, 0 }, exact = "z" } },
    "sys:body (axes): field 'exact' names the axis kept exactly: \"x\" or \"y\" (got \"z\")", "exact names a given axis")
  raises(body { name = "a", axes = { x = { 1, 0, 0 }, w = { 0, 1, 0 } } },
    "sys:body (axes): unknown field 'w' (known fields: x, y, z, exact)", "axes' fields")
  raises(body { name = "r", axis = { 0, 0, 0 }, angle = 1 },
    "sys:body: fields 'axis' = {0, 0, 0} and 'angle' = 1: axis has zero length", "a zero rotation axis")
  raises(body { name = "r", angle = 1 }, "sys:body: 'angle' goes with 'axis'", "angle without axis")
  raises(body { name = "r", axis = { 0, 0, 1 } }, "sys:body: 'axis' goes with 'angle'", "axis without angle")
  raises(body { name = "r", quaternion = { 1, 0, 0, 0 }, euler = { "xyz", 0, 0, 0 } },
    "sys:body: give one orientation: quaternion, matrix, axis and angle, axes or euler (got 'quaternion' and 'euler')",
    "one orientation")
  raises(body { name = "r", colour = "red" },
    "sys:body: unknown field 'colour' (known fields: name, mass, inertia, products, at, quaternion, matrix, axis, angle, axes, euler, velocity, omega)",
    "unknown fields are listed")
  raises(body { name = "r", at = { 1, 2 } }, "sys:body: field 'at' must be a table of three numbers {x, y, z}",
    "positions have three coordinates")
  raises(body { name = "r", omega = 3 }, "sys:body: field 'omega' must be a table of three numbers {x, y, z}",
    "omega is a vector")
  tap.is(s:entity("r"), nil, "a body that was refused is not added")

  local a = s:body { name = "a", mass = 1, inertia = { 1, 1, 1 } }
  local b = s:body { name = "b", mass = 1, inertia = { 1, 1, 1 }, at = { 1, 0, 0 } }
  raises(function() s:revolute { a, b, at = { 0, 0, 0 }, axis = { 0, 0, 0 } } end,
    "sys:revolute: field 'axis' must not be zero (got {0, 0, 0})", "a zero joint axis")
  raises(function() s:revolute { a, b, at = { 0, 0, 0 } } end,
    "sys:revolute: field 'axis' is required: {ax, ay, az}, the joint's axis (world)", "a revolute joint's axis is required")
  raises(function() s:revolute { a, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, ref = { 0, 0, -3 } } end,
    "sys:revolute: fields 'axis' = {0, 0, 1} and 'ref' = {0, 0, -3}: axes z and x are parallel", "ref parallel to the axis")
  raises(function() s:universal { a, b, at = { 0, 0, 0 }, axis_a = { 0, 1, 0 }, axis_b = { 0, 2, 0 } } end,
    "sys:universal: fields 'axis_a' = {0, 1, 0} and 'axis_b' = {0, 2, 0}: axes x and y are parallel",
    "a universal joint's parallel axes")
  raises(function() s:universal { a, b, at = { 0, 0, 0 }, axis_a = { 0, 1, 0 } } end,
    "sys:universal: give the cross's axes: 'axis_a' (turning with body a) and 'axis_b' (with body b)",
    "a universal joint's axes are required")
  raises(function() s:prismatic { a, b } end,
    "sys:prismatic: field 'axis' is required: {ax, ay, az}, the direction of sliding (world)", "a prismatic joint's axis")
  raises(function() s:planar { a, b } end,
    "sys:planar: field 'normal' is required: {ax, ay, az}, the normal of the plane (world)", "a planar joint's normal")
  raises(function() s:planar { a, b, axis = { 0, 0, 1 }, normal = { 0, 0, 1 } } end,
    "sys:planar: give either 'axis' or 'normal' (the same), not both", "axis or normal")
  raises(function() s:spherical { a, b, at = { 0, 0, 0 }, axis = { 1, 0, 0 } } end,
    "sys:spherical: unknown field 'axis' (known fields: name, at, a_at, b_at, method, k, c, baumgarte)",
    "a spherical joint has no axis")
  raises(function() s:spherical { a, b } end,
    "sys:spherical: give the anchor: 'at' = {x, y, z} (world), or 'a_at' and 'b_at' (body coordinates)",
    "an anchor is needed")
  raises(function() s:fixed { a, b, ref = { 1, 0, 0 } } end, "sys:fixed: 'ref' goes with 'axis'", "ref needs an axis")
  raises(function() s:revolute { a, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, method = "penalty" } end,
    "sys:revolute: a penalty joint needs 'k', its stiffness (one number or 5)", "penalty needs stiffness per equation")
  raises(function() s:revolute { a, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, method = "penalty", k = { 1, 2, 3 } } end,
    "sys:revolute: field 'k' must be a number or a table of 5 numbers", "as many stiffnesses as equations")
  local pen = s:fixed { a, b, method = "penalty", k = { 1, 2, 3, 4, 5, 6 }, c = 0.5 }
  tap.like(tostring(pen), "penalty k 1 2 3 4 5 6, c 0%.5 0%.5 0%.5 0%.5 0%.5 0%.5", "a fixed joint's six penalty stiffnesses")
  raises(function() s:revolute { a, a, at = { 0, 0, 0 }, axis = { 0, 0, 1 } } end,
    "joins body 'a' to itself", "a joint needs two bodies")
  local p = mech.planar {}
  local pb = p:body { name = "pb", mass = 1, inertia = 1 }
  raises(function() s:revolute { a, pb, at = { 0, 0, 0 }, axis = { 0, 0, 1 } } end,
    "sys:revolute: the second body (value #2) belongs to another system", "bodies of another system")
end

-- ---- one dimension's methods on the other -----------------------------------------------------
do
  local s, p = mech.spatial {}, mech.planar {}
  for _, m in ipairs { "spherical", "universal", "cylindrical", "planar" } do
    raises(function() p[m](p, {}) end,
      "sys:" .. m .. ": a spatial system's method; this system is planar (mech.spatial{} makes a spatial one)",
      "sys:" .. m .. " on a planar system")
  end
  for _, m in ipairs { "contact", "flexible", "guide" } do
    raises(function() s[m](s, {}) end,
      "sys:" .. m .. ": a planar system's method; this system is spatial (mech.planar{} makes a planar one)",
      "sys:" .. m .. " on a spatial system")
  end
  raises(function() p:spherical {} end, "test_spatial_api.lua", "the error is the caller's line")
  -- the same names, each dimension its own method
  local pbody = p:body { name = "b", mass = 1, inertia = 1, at = { 0, 0 } }
  tap.is(pbody.kind, "body", "sys:body of a planar system is the planar one")
  raises(function() p:body { name = "c", mass = 1, inertia = { 1, 1, 1 } } end,
    "sys:body: field 'inertia' must be a number (got table)", "and takes a planar body's fields")
  local pj = p:translational { p.ground, pbody, axis = { 1, 0 } }
  tap.like(tostring(pj), "^joint 'prismatic1': prismatic", "sys:translational of a planar system is its prismatic joint")
  raises(function() p:translational { p.ground, pbody, axis = { 0, 0 } } end, "axis must be a non-zero finite vector",
    "and takes its fields")
  raises(function() p:translational { p.ground, pbody, axis = { 0, 0 }, what = 1 } end,
    "sys:translational: unknown field 'what'", "its errors name it")
  -- a stub taken from one system and called with one of its own dimension is the method
  local spherical = p.spherical
  local b = s:body { name = "b", mass = 1, inertia = { 1, 1, 1 } }
  tap.is(spherical(s, { s.ground, b, at = { 0, 0, 0 } }).kind, "joint", "a stub called on a system of its dimension")
  tap.ok(p.spherical ~= nil and s.spherical ~= p.spherical, "each dimension has its own function under a name")
  tap.is(s.nonsense, nil, "an unknown name is nil")
end

-- ---- assembly: joints whose bodies do not meet -------------------------------------------------------
do
  local s = mech.spatial {}
  local c = s:body { name = "c", mass = 1, inertia = { 1, 1, 1 }, at = { 1, 0, 0 } }
  local d = s:body { name = "d", mass = 1, inertia = { 1, 1, 1 }, at = { 2, 0, 0 } }
  s:revolute { s.ground, c, at = { 0, 0, 0 }, axis = { 0, 0, 1 } }
  s:fixed { s.ground, d }
  s:spherical { s.ground, d, a_at = { 5, 0, 0 }, b_at = { 0, 0, 0 }, name = "far" }
  raises(function() s:assemble() end, "sys:assemble: spherical 'far' ",
    "a joint whose bodies cannot meet: the assembly names it")
  local s2 = mech.spatial {}
  local e = s2:body { name = "e", mass = 1, inertia = { 1, 1, 1 }, at = { 0, 0, 0 } }
  s2:revolute { s2.ground, e, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, name = "pin" }
  s2:revolute { s2.ground, e, at = { 0, 0, 1 }, axis = { 1, 0, 0 }, name = "crossed" }
  raises(function() s2:assemble() end, "'crossed'", "crossed axes: the assembly names the joint")
end

-- ---- the spatial slider-crank of [Spatial revolute paper] through the API --------------------
-- crank pivot (-0.10, 0, 0.12) on world y, the crank along +z (0.1 m), the rod 0.29 m (its
-- body y axis along it), the slider on the world y axis; spherical joint crank-rod,
-- universal slider-rod (cross axes: world x on the slider, normal to x and the rod on it).
do
  local s = mech.spatial { gravity = { 0, 0, -9.81 } }
  local yc = sqrt(0.29 ^ 2 - 0.10 ^ 2 - 0.22 ^ 2)
  local P, S = { -0.10, 0, 0.22 }, { 0, yc, 0 }
  local d = { S[1] - P[1], S[2] - P[2], S[3] - P[3] }
  local crank = s:body { name = "crank", mass = 0.12, inertia = { 1e-4, 1e-4, 1e-5 }, at = { -0.10, 0, 0.17 } }
  local rod = s:body { name = "rod", mass = 0.5, inertia = { 4e-3, 4e-4, 4e-3 },
    at = { (P[1] + S[1]) / 2, (P[2] + S[2]) / 2, (P[3] + S[3]) / 2 },
    axes = { y = d, x = { 1, 0, 0 }, exact = "y" } }
  local slider = s:body { name = "slider", mass = 0.5, inertia = { 1e-4, 1e-4, 1e-4 }, at = S }
  local pivot = s:revolute { s.ground, crank, at = { -0.10, 0, 0.12 }, axis = { 0, 1, 0 }, name = "pivot" }
  s:spherical { crank, rod, at = P, name = "pin" }
  s:universal { slider, rod, at = S, axis_a = { 1, 0, 0 }, axis_b = cross(d, { 1, 0, 0 }), name = "cross" }
  s:prismatic { s.ground, slider, axis = { 0, 1, 0 }, name = "guide" }
  tap.is(s.dof, 1, "the slider-crank has one degree of freedom")
  tap.near(s:value("rod.r12") * 0.29, d[1], 1e-12, "the rod's body y axis is along it (x)")
  tap.near(s:value("rod.r32") * 0.29, d[3], 1e-12, "the rod's body y axis is along it (z)")
  s:drive { pivot, speed = -2 * pi, name = "motor" }
  tap.is(s.dof, 0, "driven, none")
  tap.like(tostring(s), "^mech%.spatial: 3 bodies %(crank, rod, slider%), 4 joints, 1 driver, 0 force elements, 0 points; 0 degrees of freedom$",
    "tostring of the slider-crank")
  local desc = s:describe()
  tap.like(desc, "\njoint pivot: revolute, ground %(%-0%.1, 0, 0%.12%) axes x %(1, 0, 0%) z %(0, 1, 0%)", "describe: the pivot")
  tap.like(desc, "\ndriver motor: joint angle of pivot", "describe: the driver")
  local run = s:simulate { t = 0.5, report = 0.25, rtol = 1e-9, atol = 1e-11,
    record = { "slider.y", "pivot.angle", "system.violation", "crank.wy" } }
  tap.is(run.status, "complete", "the driven slider-crank runs")
  tap.near(run["slider.y"][1], yc, 1e-12, "the slider starts where it was put")
  -- half a turn: the crank points -z, the pin at (-0.1, 0, 0.02)
  local y_half = sqrt(0.29 ^ 2 - 0.10 ^ 2 - 0.02 ^ 2)
  tap.near(run["slider.y"][3], y_half, 1e-7, "after half a turn the slider is where the geometry puts it")
  tap.near(run["pivot.angle"][3], -pi, 1e-7, "the pivot turned by -pi")
  tap.ok(run["system.violation"][3] < 1e-8, "the joints hold")
  -- a body's driver about the pivot's axis (the default), the same motion
  local s2 = mech.spatial { gravity = { 0, 0, -9.81 } }
  local crank2 = s2:body { name = "crank", mass = 0.12, inertia = { 1e-4, 1e-4, 1e-5 }, at = { -0.10, 0, 0.17 } }
  local rod2 = s2:body { name = "rod", mass = 0.5, inertia = { 4e-3, 4e-4, 4e-3 },
    at = { (P[1] + S[1]) / 2, (P[2] + S[2]) / 2, (P[3] + S[3]) / 2 }, axes = { y = d, x = { 1, 0, 0 }, exact = "y" } }
  local slider2 = s2:body { name = "slider", mass = 0.5, inertia = { 1e-4, 1e-4, 1e-4 }, at = S }
  s2:revolute { s2.ground, crank2, at = { -0.10, 0, 0.12 }, axis = { 0, 1, 0 } }
  s2:spherical { crank2, rod2, at = P }
  s2:universal { slider2, rod2, at = S, axis_a = { 1, 0, 0 }, axis_b = cross(d, { 1, 0, 0 }) }
  s2:prismatic { s2.ground, slider2, axis = { 0, 1, 0 } }
  s2:drive { crank2, speed = -2 * pi }
  local run2 = s2:simulate { t = 0.5, report = 0.25, rtol = 1e-9, atol = 1e-11, record = { "slider.y" } }
  tap.near(run2["slider.y"][3], y_half, 1e-7, "driving the crank body about its pivot's axis: the same motion")
end

-- ---- plausibility warnings (in a child: they go to stderr once per message) ------------------------------
do
  local script = os.tmpname()
  local f = assert(io.open(script, "w"))
  f:write([[
local s = mech.spatial{}
s:body{ name = "a", mass = 1, inertia = {1, 1, 1}, axis = {0, 0, 1}, angle = 90 }
s:body{ name = "b", mass = 1e5, inertia = {1, 1, 1}, omega = {0, 0, 3000} }
local c = s:body{ name = "c", mass = 1, inertia = {1, 1, 1}, euler = {"zyx", 0, 0, 45} }
local p = s:prismatic{ s.ground, c, axis = {1, 0, 0} }
s:drive{ p, speed = 500 }
s:assemble()
]])
  f:close()
  local h = io.popen(string.format("'%s' '%s' 2>&1", os.getenv("MECHLUA"), script))
  local out = h:read("a")
  h:close()
  os.remove(script)
  tap.like(out, "warning: body 'a': angle = 90 rad is more than 2 pi: degrees%? use mech%.deg%(90%)", "an axis-angle in degrees")
  tap.like(out, "warning: body 'c': euler = 45 rad is more than 2 pi", "Euler angles in degrees")
  tap.like(out, "warning: body 'b': |omega| = 3000 rad/s", "omega in rpm")
  tap.like(out, "warning: driver 'driver1': speed = 500 m/s is above 100 m/s", "a prismatic driver's speed in mm/s")
  tap.like(out, "warning: body 'b': mass = 100000 kg is more than 10000 times the mass of body 'a'", "masses far apart")
end

-- A body's driver about world z on a body free to tilt (a spherical joint), turning about y at
-- 3 rad/s: its reference direction x reaches the axis at t = pi / 6 s, where the angle about the
-- axis is undefined.  The run stops before, naming the driver and the body, the rows kept (it
-- once went on through the axis with a turned-over, meaningless motion).
do
  local sys = mech.spatial{ gravity = { 0, 0, 0 } }
  local b = sys:body{ name = "b", mass = 1, inertia = { 0.1, 0.1, 0.1 }, omega = { 0, 3, 0 } }
  sys:spherical{ sys.ground, b, at = { 0, 0, 0 } }
  sys:drive{ b, axis = { 0, 0, 1 }, speed = 0, name = "motor" }
  local ok, msg = pcall(sys.simulate, sys, { t = 1, record = { "b.r31" } })
  tap.like(tostring(msg), "driver 'motor': body 'b' has turned the reference direction of its angle to [%d.e-]+ "
    .. "degrees of the driver's axis at t = ", "a body's driver turned onto its axis stops the run, named")
  local t = tonumber(tostring(msg):match("at t = ([%d.e-]+) s;"))
  local last = sys.last_run
  tap.ok(not ok and t and t > 0.4 and t < math.pi / 6 and last and #last > 1,
    "before the axis (t = pi / 6 s), the rows before it kept", t)
end

tap.done()
