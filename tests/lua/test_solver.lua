-- SPDX-License-Identifier: MIT
-- The solver of the constrained solve from Lua: mech.planar{ solver = ... } and
-- mech.spatial{ solver = ... }, run.stats.solver, the automatic choice (sparse for long chains,
-- dense for the slider-crank), runs on the sparse solver that reproduce the dense one's, the
-- same error for a redundant joint, and the errors for a bad value.
local tap = require "tap"
local raises = tap.raises

-- A planar chain of n links of 0.1 m hanging from the ground at angles that vary along it.
local function planar_chain(n, solver)
  local sys = mech.planar{ gravity = { 0, -9.81 }, solver = solver }
  local prev, p = sys.ground, { 0, 0 }
  for i = 1, n do
    local th = -0.3 + 0.4 * math.sin(0.7 * i)
    local c, s = math.cos(th), math.sin(th)
    local link = sys:body{ name = "link" .. i, mass = 0.1, inertia = 0.1 * 0.01 / 12,
      at = { p[1] + 0.05 * c, p[2] + 0.05 * s }, angle = th }
    sys:revolute{ prev, link, at = p, name = "j" .. i }
    p = { p[1] + 0.1 * c, p[2] + 0.1 * s }
    prev = link
  end
  return sys
end

-- A spatial chain of n links of 0.1 m along x, on revolute joints about z and y in turn.
local function spatial_chain(n, solver)
  local sys = mech.spatial{ gravity = { 0, 0, -9.81 }, solver = solver }
  local prev = sys.ground
  for i = 1, n do
    local link = sys:body{ name = "link" .. i, mass = 0.1, inertia = { 1e-6, 1e-4, 1e-4 },
      at = { (i - 0.5) * 0.1, 0, 0 } }
    sys:revolute{ prev, link, at = { (i - 1) * 0.1, 0, 0 }, axis = i % 2 == 0 and { 0, 1, 0 } or { 0, 0, 1 },
      name = "j" .. i }
    prev = link
  end
  return sys
end

-- The largest difference of two runs' columns, relative to the largest |value|.
local function run_diff(a, b, channels)
  local worst = 0
  for _, ch in ipairs(channels) do
    local ca, cb = a[ch], b[ch]
    local d, s = 0, 0
    for i = 1, #ca do
      d = math.max(d, math.abs(ca[i] - cb[i]))
      s = math.max(s, math.abs(cb[i]))
    end
    worst = math.max(worst, s > 0 and d / s or d)
  end
  return worst
end

-- ---- runs: sparse as dense ---------------------------------------------------------------
do
  local channels = { "link30.x", "link30.vy", "link30.ay", "j1.fx", "j15.fy", "system.kinetic" }
  local runs = {}
  for _, solver in ipairs{ "dense", "sparse", "auto" } do
    runs[solver] = planar_chain(30, solver):simulate{ t = 0.1, report = 1e-3, method = "rk4",
      h = 1e-4, record = channels, quiet = true }
  end
  tap.is(runs.dense.stats.solver, "dense", "planar, solver = \"dense\": run.stats.solver")
  tap.is(runs.sparse.stats.solver, "sparse", "planar, solver = \"sparse\": run.stats.solver")
  tap.is(runs.auto.stats.solver, "sparse", "planar, auto: sparse for a chain of 30 links")
  local d = run_diff(runs.sparse, runs.dense, channels)
  tap.ok(d < 1e-11, string.format("planar chain of 30 links, 0.1 s of rk4: sparse as dense (%.2g)", d))
  tap.is(run_diff(runs.auto, runs.sparse, channels), 0, "auto is the sparse run, to the bit")
end

do
  local channels = { "link20.x", "link20.z", "j1.fx", "j10.fz", "system.kinetic" }
  local dense = spatial_chain(20, "dense"):simulate{ t = 0.05, report = 1e-3, method = "rk4",
    h = 1e-4, record = channels, quiet = true }
  local sparse = spatial_chain(20, "sparse"):simulate{ t = 0.05, report = 1e-3, method = "rk4",
    h = 1e-4, record = channels, quiet = true }
  tap.is(sparse.stats.solver, "sparse", "spatial, solver = \"sparse\": run.stats.solver")
  tap.is(dense.stats.solver, "dense", "spatial, solver = \"dense\": run.stats.solver")
  local d = run_diff(sparse, dense, channels)
  tap.ok(d < 1e-11, string.format("spatial chain of 20 links, 0.05 s of rk4: sparse as dense (%.2g)", d))
end

-- ---- the projection onto the constraints on either solver ---------------------------------
-- 0.5 s of a 30-link chain swinging under gravity (dopri5 at its default tolerance): projected
-- (the rows: every one moved onto the joints), the joints hold to rounding on both solvers, and
-- the two runs follow each other as closely as their rounding lets an adaptive run of a chain
-- that amplifies it (1e-8 measured; the step controller sees the difference)
do
  local channels = { "link30.x", "link30.y", "j30.violation", "j15.violation" }
  local runs = {}
  for _, solver in ipairs{ "dense", "sparse" } do
    runs[solver] = planar_chain(30, solver):simulate{ t = 0.5, report = 1e-2, project = true,
      record = channels, quiet = true }
  end
  local sp, de = runs.sparse, runs.dense
  tap.is(sp.stats.solver, "sparse", "projected: the sparse run is on the sparse solver")
  tap.ok(sp.stats.project.on and sp.stats.project.outputs > 0,
    string.format("projected: the sparse run projects (%d rows)", sp.stats.project.outputs))
  local worst = 0
  for _, ch in ipairs{ "j30.violation", "j15.violation" } do
    worst = math.max(worst, sp[ch]:max(), -sp[ch]:min())
  end
  tap.ok(worst < 1e-12, string.format("projected on the sparse solver: joints hold to %.2g m", worst))
  local d = run_diff(sp, de, { "link30.x", "link30.y" })
  tap.ok(d < 1e-7, string.format("projected: sparse follows dense (%.2g)", d))
end

-- ---- the automatic choice ----------------------------------------------------------------
-- the slider-crank of benchmark A
local sc = mech.planar{ gravity = { 0, -9.81 } }
local crank = sc:body{ name = "crank", mass = 0.17, inertia = 1e-4, at = { 0.025, 0 } }
local rod = sc:body{ name = "rod", mass = 0.25, inertia = 4e-4, at = { 0.11, 0 } }
local slider = sc:body{ name = "slider", mass = 0.14, at = { 0.17, 0 } }
sc:revolute{ sc.ground, crank, at = { 0, 0 } }
sc:revolute{ crank, rod, at = { 0.05, 0 } }
sc:revolute{ rod, slider, at = { 0.17, 0 } }
sc:prismatic{ sc.ground, slider, axis = { 1, 0 } }
sc:drive{ crank, speed = mech.rpm(5000), name = "motor" }
tap.is(sc:simulate{ t = 1e-3, report = 1e-4, quiet = true, record = { "slider.x" } }.stats.solver,
  "dense", "auto: dense for the slider-crank")
tap.is(spatial_chain(30):simulate{ t = 1e-3, report = 1e-3, quiet = true, record = { "link1.x" } }
  .stats.solver, "sparse", "auto: sparse for a spatial chain of 30 links")
tap.is(planar_chain(3):simulate{ t = 1e-3, report = 1e-3, quiet = true, record = { "link1.x" } }
  .stats.solver, "dense", "auto: dense for a chain of 3 links")

-- ---- a redundant joint: the same error ---------------------------------------------------
local msgs = {}
for _, solver in ipairs{ "dense", "sparse" } do
  local sys = mech.planar{ gravity = { 0, -9.81 }, solver = solver, assemble = false }
  local a = sys:body{ name = "a", mass = 1, inertia = 0.01, at = { 0.5, 0 } }
  local b = sys:body{ name = "b", mass = 1, inertia = 0.01, at = { 1.5, 0 } }
  sys:revolute{ sys.ground, a, at = { 0, 0 } }
  sys:revolute{ a, b, at = { 1, 0 } }
  sys:revolute{ a, b, at = { 1, 0 }, name = "again" }
  local ok, err = pcall(sys.simulate, sys, { t = 1e-3, quiet = true, record = { "a.x" } })
  tap.ok(not ok, solver .. ": a redundant joint fails the run")
  msgs[solver] = tostring(err)
end
tap.like(msgs.dense, "singular at t = 0 near revolute 'again'", "dense: the message names the joint")
tap.is(msgs.sparse, msgs.dense, "sparse: the same message")

-- ---- bad values --------------------------------------------------------------------------
raises(function() mech.planar{ solver = "klu" } end,
  "mech.planar: field 'solver' must be one of \"auto\", \"dense\", \"sparse\" (got \"klu\")",
  "planar: an unknown solver")
raises(function() mech.planar{ solver = 2 } end, "mech.planar: field 'solver' must be a string (got number)",
  "planar: the solver is a string")
raises(function() mech.spatial{ solver = "Sparse" } end,
  "mech.spatial: field 'solver' must be one of \"auto\", \"dense\", \"sparse\" (got \"Sparse\")",
  "spatial: an unknown solver")
raises(function() mech.spatial{ solver = true } end,
  "mech.spatial: field 'solver' must be a string (got boolean)", "spatial: the solver is a string")

tap.done()
