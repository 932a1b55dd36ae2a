-- SPDX-License-Identifier: MIT
-- BDF's Jacobian from the model's structure and its Newton solvers, seen from Lua: which
-- solver a run takes (run.stats.newton), how many right-hand sides a Jacobian costs
-- (jacobian_groups, jacobian_linear), and that the results stay those of the difference
-- quotients column by column (jacobian = "columns") and of either solver within the
-- integration's own error.  (tests/c/test_jacobian.c checks the Jacobians themselves.)
local tap = require "tap"
local spec000 = require "spec000"

local chans = { "crank.phi", "rod.x", "slider.n1.x", "slider.n1.y" }

local function run(nx, ny, T, o)
  local sys = spec000.slider_crank{ nx = nx, ny = ny }
  return sys:simulate{ t = T, report = 1e-2, method = "bdf", rtol = o.rtol or 1e-5,
    atol = o.atol or 1e-8, max_order = 3, record = chans, quiet = true, newton = o.newton,
    jacobian = o.jacobian }
end

-- The largest difference over the recorded channels (m and rad).
local function maxdiff(a, b)
  local w = 0
  for _, ch in ipairs(chans) do
    local x, y = a[ch], b[ch]
    for i = 1, #x do w = math.max(w, math.abs(x[i] - y[i])) end
  end
  return w
end

-- ---- which solver, how many evaluations -------------------------------------------------------
do
  local r = run(8, 8, 0.2, {})
  local s = r.stats
  tap.is(s.newton, "sparse", "64 elements: the sparse Newton solver")
  -- the crank and the rod (one Lagrange component, 12 columns) and the centre node that the
  -- penalty joint ties to them (4); every other node alone, its mesh in closed form
  tap.is(s.jacobian_groups, 16, "64 elements: 16 right-hand sides a Jacobian (and one for the linear part)")
  tap.ok(s.jacobian_linear > 0, "64 elements: the mesh's forces in closed form (" .. s.jacobian_linear .. " entries)")
  local c = run(8, 8, 0.2, { jacobian = "columns" })
  tap.is(c.stats.newton, "dense", "64 elements, column by column: the dense solver (no structure)")
  tap.ok(c.stats.jacobian_groups == 340 and c.stats.jacobian_linear == 0,
    "column by column: a right-hand side per state (" .. c.stats.jacobian_groups .. ")")
  tap.ok(c.stats.rhs_evals > 5 * s.rhs_evals, string.format(
    "the grouped Jacobians take a fraction of the evaluations (%d against %d)", s.rhs_evals, c.stats.rhs_evals))
end

do
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local bob = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 1, 0 } }
  sys:revolute{ sys.ground, bob, at = { 0, 0 } }
  local r = sys:simulate{ t = 0.5, report = 0.01, method = "bdf", record = { "bob.x" } }
  tap.is(r.stats.newton, "dense", "a pendulum: the dense Newton solver")
  local d = sys:simulate{ t = 0.5, report = 0.01, method = "dopri5" }
  tap.ok(d.stats.newton == "none" and d.stats.jacobian_groups == 0, "dopri5: no Newton solver")
  tap.raises(function() sys:simulate{ t = 0.5, report = 0.01, method = "dopri5", newton = "dense" } end,
    "'newton' is for method \"bdf\"", "newton with dopri5 is refused")
  tap.raises(function() sys:simulate{ t = 0.5, report = 0.01, method = "bdf", newton = "lu" } end,
    "field 'newton' must be one of \"auto\", \"dense\", \"sparse\"", "an unknown solver is refused")
  local s = sys:simulate{ t = 0.5, report = 0.01, method = "bdf", newton = "sparse", record = { "bob.x" } }
  tap.is(s.stats.newton, "sparse", "the sparse solver when asked for, even for a pendulum")
  tap.near(s["bob.x"][#s], r["bob.x"][#r], 1e-5, "the pendulum swings the same")
end

do
  local s = mech.spatial{ gravity = { 0, 0, -9.81 } }
  local b = s:body{ name = "b", mass = 1, inertia = { 1, 1, 1 }, at = { 1, 0, 0 } }
  s:spherical{ s.ground, b, at = { 0, 0, 0 } }
  tap.raises(function() s:simulate{ t = 0.1, report = 0.01, method = "bdf", newton = "sparse" } end,
    "the sparse Newton solver needs", "spatial bodies (q' = N(q) u): the sparse solver is refused")
  local r = s:simulate{ t = 0.1, report = 0.01, method = "bdf", newton = "dense" }
  tap.is(r.stats.newton, "dense", "spatial bodies: the dense solver")
end

-- ---- the same motion -----------------------------------------------------------------------------
-- Each run holds its local error to rtol = 1e-5; over 5 s of motion of a slider-crank whose
-- positions reach 3.8 m, runs that differ only in rounding (the dense and sparse solvers) or
-- in the Jacobian (which changes the Newton iterates and so the steps, not the equations)
-- part by tens of rtol times that scale: 2e-5 to 1.1e-4 m were measured.  So they agree to
-- 1e-3 (26 rtol times the scale), and the grouped Jacobian's error against a tight reference
-- (rtol 1e-9) is no larger than three times the column-by-column one's (or 1e-4).
for _, m in ipairs{ { 2, 2 }, { 4, 2 } } do
  local nx, ny = m[1], m[2]
  local label = string.format("%d elements", nx * ny)
  local ref = run(nx, ny, 5, { rtol = 1e-9, atol = 1e-12, jacobian = "columns" })
  local old = run(nx, ny, 5, { jacobian = "columns" })
  local new = run(nx, ny, 5, {})
  local eo, en, d = maxdiff(old, ref), maxdiff(new, ref), maxdiff(new, old)
  tap.ok(new.stats.jacobian_linear > 0 and new.stats.jacobian_groups == 16,
    label .. ": the grouped Jacobian with the mesh in closed form")
  tap.ok(d < 1e-3, string.format("%s: the same motion as column by column (%.2g)", label, d))
  tap.ok(en <= math.max(3 * eo, 1e-4), string.format(
    "%s: as close to the reference (%.2g against %.2g)", label, en, eo))
end

do
  local den = run(4, 4, 2, { newton = "dense" })
  local spa = run(4, 4, 2, { newton = "sparse" })
  tap.ok(den.stats.newton == "dense" and spa.stats.newton == "sparse", "16 elements, both solvers")
  local d = maxdiff(den, spa)
  tap.ok(d < 1e-3, string.format("16 elements: the same motion with the dense and the sparse solver (%.2g)", d))
end

do -- a Lagrange joint B: the centre node joins the crank and the rod's component
  local sys = spec000.slider_crank{ nx = 8, ny = 8, joint = "lagrange" }
  local r = sys:simulate{ t = 0.2, report = 1e-2, method = "bdf", rtol = 1e-5, atol = 1e-8, max_order = 3,
    record = chans, quiet = true }
  tap.ok(r.stats.newton == "sparse" and r.stats.jacobian_groups < 100 and r.stats.jacobian_linear > 0,
    string.format("64 elements, Lagrange B: sparse, %d groups", r.stats.jacobian_groups))
end

-- ---- sys:lyapunov takes the same options ---------------------------------------------------------
do -- a flexible bob on a bar (no contacts: lyapunov refuses them)
  local function bob()
    local sys = mech.planar{ gravity = { 0, -9.81 } }
    local bar = sys:body{ name = "bar", mass = 1, inertia = 1 / 12, at = { 0.5, 0 } }
    sys:revolute{ sys.ground, bar, at = { 0, 0 } }
    local b = sys:flexible{ name = "tip", mesh = mech.mesh.rectangle{ size = { 0.1, 0.1 }, nx = 4, ny = 4,
      center = { 1, 0 } }, E = 1e5, density = 20, beta = 0.005 }
    sys:revolute{ bar, b:node(b:find_nodes{ near = { 1, 0 } }[1]), at = { 1, 0 }, method = "penalty", k = 1e6 }
    return sys
  end
  local o = { t = 0.2, every = 0.05, method = "bdf", rtol = 1e-7, atol = 1e-10 }
  o.newton = "dense"
  local ld = bob():lyapunov(o)
  o.newton = "sparse"
  local ls = bob():lyapunov(o)
  o.newton, o.jacobian = nil, "columns"
  local lc = bob():lyapunov(o)
  -- (estimates over 0.2 s of a stiff mesh: each its own, within a few tens of percent)
  local finite = function(x) return x == x and math.abs(x) < math.huge end
  tap.ok(finite(ld) and finite(ls) and finite(lc),
    string.format("sys:lyapunov runs BDF with each: dense %.3g, sparse %.3g, column by column %.3g 1/s", ld, ls, lc))
end

-- A system with nothing that moves: its Jacobian's structure has rows without a column (the
-- energy accounts), which once handed qsort a null array (the fuzzer, seed 1 case 26)
for _, ctor in ipairs{ mech.planar, mech.spatial } do
  local run = ctor{}:simulate{ t = 0.01, method = "bdf", quiet = true, record = { "system.kinetic" } }
  tap.ok(run.ok and #run > 1 and run["system.kinetic"]:max() == 0,
    "bdf on an empty system runs (" .. (ctor == mech.planar and "planar" or "spatial") .. ")")
end

tap.done()
