-- SPDX-License-Identifier: MIT
-- run:scene(t): the mechanism at time t from the states a run kept (sys:simulate{ motion }):
-- bodies where the recorded channels put them, between kept states a thrown body on its
-- closed-form path (cubic Hermite on the positions' rates reproduces a parabola), a mesh's
-- nodes and elements, contacts; errors for a run without states, a time outside them, a
-- system changed, gone or busy.
local tap = require "tap"

local g = 9.81
local function thrown()
  local sys = mech.planar{ gravity = { 0, -g } }
  sys:body{ name = "ball", mass = 1, inertia = 1, at = { 0, 0 }, velocity = { 1, 2 }, omega = 3,
    rectangle = { 0.02, 0.01 } }
  return sys
end

local sys = thrown()
local run = sys:simulate{ t = 1, motion = 0.1, rtol = 1e-3, quiet = true }
local worst = 0
for i = 0, 100 do
  local t = i * 0.00997
  local s = run:scene(t)
  local b = s.bodies[1]
  worst = math.max(worst, math.abs(b.pos[1] - t), math.abs(b.pos[2] - (2 * t - g * t * t / 2)),
    math.abs(b.angle - 3 * t))
end
tap.ok(worst < 1e-13, string.format("between states 0.1 s apart the body is on its parabola (worst %.2g m)", worst))
local s = run:scene(0.5)
tap.is(s.t, 0.5, "the scene's time")
tap.is(s.dim, 2, "a planar scene")
tap.is(s.bodies[1].name, "ball", "its body by name")
local out = s.items[1]
tap.ok(out.owner == "ball" and out.role == "outline" and out.shape == "polygon" and #out.points == 4,
  "the body's rectangle is its outline, a polygon of 4 corners")
local c, sn = math.cos(1.5), math.sin(1.5)
local x0, y0 = s.bodies[1].pos[1], s.bodies[1].pos[2]
local found = false
for _, p in ipairs(out.points) do
  local dx, dy = p[1] - x0, p[2] - y0
  local lx, ly = c * dx + sn * dy, -sn * dx + c * dy -- into the body's frame
  found = found or (math.abs(lx - 0.01) < 1e-12 and math.abs(ly - 0.005) < 1e-12)
end
tap.ok(found, "a corner at (0.01, 0.005) in the body's frame, turned by its angle")

-- the slider-crank with a flexible slider in its guide: bodies where the channels say
local spec000 = require "spec000"
sys = spec000.slider_crank{ nx = 2 }
run = sys:simulate{ t = 0.2, report = 0.01, method = "bdf", rtol = 1e-5, atol = 1e-8, max_order = 3,
  motion = 0.01, record = { "rod.x", "rod.y", "rod.phi", "slider.n5.x" }, quiet = true }
worst = 0
local k = 15
s = run:scene(run.t[k + 1])
for _, b in ipairs(s.bodies) do
  if b.name == "rod" then
    worst = math.max(math.abs(b.pos[1] - run["rod.x"][k + 1]), math.abs(b.pos[2] - run["rod.y"][k + 1]),
      math.abs(b.angle - run["rod.phi"][k + 1]))
  end
end
tap.ok(worst == 0, "at a kept state's time the rod is where its recorded channels put it")
local m = s.meshes[1]
tap.ok(m.name == "slider" and #m.nodes == 9 and #m.elements == 4 and #m.von_mises == 4,
  "the slider's mesh: 9 nodes, 4 elements and their stresses")
tap.is(m.nodes[5][1], run["slider.n5.x"][k + 1], "node 5 where its channel says")
local touching = 0
for _, ct in ipairs(s.contacts) do touching = touching + (ct.touching and 1 or 0) end
tap.ok(#s.contacts == 6 and touching >= 1, "the guide's 6 contacts, " .. touching .. " touching")

-- a spatial journal's contacts: the friction force as a vector in the contact's plane
local spec001 = require "spec001"
local srun = spec001.model{ clearance = { friction = "coulomb" } }:simulate{ t = 0.1, rtol = 1e-7,
  motion = 1e-3, quiet = true }
local touching, perp, off, biggest = 0, 0, 0, 0
for k = 1, srun.motion do
  for _, ct in ipairs(srun:scene((select(1, srun:state(k)))).contacts) do
    if ct.touching and ct.point then
      touching = touching + 1
      local f, nv = ct.ft, ct.normal
      local mag = math.sqrt(f[1] ^ 2 + f[2] ^ 2 + f[3] ^ 2)
      perp = math.max(perp, math.abs(f[1] * nv[1] + f[2] * nv[2] + f[3] * nv[3]) / math.max(mag, 1e-300))
      off = math.max(off, math.abs(mag - ct.ft_mag) / math.max(ct.ft_mag, 1e-300))
      biggest = math.max(biggest, mag)
    end
  end
end
tap.ok(touching > 0 and biggest > 0 and perp < 1e-12 and off < 1e-12, string.format("a spatial journal's "
  .. "friction force is a vector across its normal, of the magnitude ft_mag (%d touching states, up to %.3g N; "
  .. "%.1g, %.1g)", touching, biggest, perp, off))

-- a box slider in its channel: each corner's contact at its corner, across its wall
do
  local s = mech.spatial{ gravity = { 0, 0, -9.81 } }
  local b = s:body{ name = "slider", mass = 0.06, inertia = { 9.375e-5, 3.75e-5, 9.375e-5 }, at = { 0, 0, 0 },
    velocity = { 0, 0.1, 0 } }
  s:prismatic{ s.ground, b, name = "guide", axis = { 0, 1, 0 }, ref = { 1, 0, 0 }, a_at = { 0, 0, 0 },
    b_at = { 0, 0, 0 }, contact = mech.contact.hertz{ K = 1e9, n = 1.5 },
    friction = mech.friction.coulomb{ mu = 0.2, regularization = "tanh", v_reg = 1e-3 }, clearance = { x = 0.1e-3, z = 0.2e-3 },
    slider = { length = 0.03, width = 0.015, height = 0.015 } }
  local r = s:simulate{ t = 0.01, motion = 1e-4, quiet = true } -- its first impacts, 0.3 ms each
  local pointed, ncontacts, touching, at_corner, across, coulomb = 0, 0, 0, true, 0, 0
  for k = 1, r.motion do
    local sc = r:scene((select(1, r:state(k))))
    local corners = {}
    for _, it in ipairs(sc.items) do
      if it.role == "slider" and it.shape == "box" then -- its 8 corners
        local c, R, h = it.points[1], it.R, it.half
        for i = 0, 7 do
          local sg = { (i & 1) == 0 and -1 or 1, (i & 2) == 0 and -1 or 1, (i & 4) == 0 and -1 or 1 }
          local q = {}
          for row = 1, 3 do
            q[row] = c[row] + R[3 * row - 2] * sg[1] * h[1] + R[3 * row - 1] * sg[2] * h[2] + R[3 * row] * sg[3] * h[3]
          end
          corners[#corners + 1] = q
        end
      end
    end
    ncontacts = ncontacts + #sc.contacts
    for _, ct in ipairs(sc.contacts) do
      if ct.point then
        pointed = pointed + 1
        local near = math.huge
        for _, q in ipairs(corners) do
          near = math.min(near, math.sqrt((q[1] - ct.point[1]) ^ 2 + (q[2] - ct.point[2]) ^ 2 + (q[3] - ct.point[3]) ^ 2))
        end
        at_corner = at_corner and near < 1e-12
        if ct.touching then
          touching = touching + 1
          local f, nv = ct.ft, ct.normal
          across = math.max(across, math.abs(f[1] * nv[1] + f[2] * nv[2] + f[3] * nv[3]))
          local mag = math.sqrt(f[1] ^ 2 + f[2] ^ 2 + f[3] ^ 2)
          coulomb = math.max(coulomb, mag / ct.fn_mag)
        end
      end
    end
  end
  tap.ok(pointed == ncontacts and pointed > 0 and at_corner, string.format("a box slider's contacts each at "
    .. "one of its corners (%d over the run's states)", pointed))
  tap.ok(touching > 0 and across < 1e-12 and coulomb > 0.1 and coulomb <= 0.2 + 1e-12, string.format("%d touching, "
    .. "the friction across the normal and at most mu times the normal force (ratio %.3g)", touching, coulomb))
end

-- errors
run = thrown():simulate{ t = 0.1, quiet = true }
tap.raises(function() run:scene(0) end, "run:scene: the run kept no states (give sys:simulate a 'motion' step)", "no states")
sys = thrown()
run = sys:simulate{ t = 0.1, motion = 0.05, quiet = true }
tap.raises(function() run:scene(0.2) end, "run:scene: argument #1 must be a time in [0, 0.1] s, the kept states' (got 0.2)", "after the last state")
tap.raises(function() run:scene(-1) end, "(got -1)", "before the first")
tap.raises(function() run:scene("x") end, "run:scene: argument #1 must be a time in [0, 0.1] s (got string)", "not a number")
sys:body{ name = "other", mass = 1, inertia = 1, at = { 1, 0 } }
tap.raises(function() run:scene(0) end, "run:scene: the run's system was changed since the run", "a system changed since")
run = thrown():simulate{ t = 0.1, motion = 0.05, quiet = true }
collectgarbage()
collectgarbage()
tap.is(run:scene(0).bodies[1].name, "ball", "a run that kept states keeps its system alive")
do
  local closing <close> = thrown()
  run = closing:simulate{ t = 0.1, motion = 0.05, quiet = true }
end
tap.raises(function() run:scene(0) end, "run:scene: the run's system is gone (closed or collected)", "a system closed")
sys = thrown()
run = sys:simulate{ t = 0.1, motion = 0.05, quiet = true }
local inner
sys:simulate{ t = 0.01, quiet = true, record = { probe = function()
  inner = inner or select(2, pcall(run.scene, run, 0))
  return 0
end } }
tap.like(inner, "run:scene: the run's system is being simulated", "a system busy with another run")
tap.done()
