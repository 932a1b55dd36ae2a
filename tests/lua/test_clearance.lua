-- SPDX-License-Identifier: MIT
-- Joints with clearance: a revolute joint as a journal in a bearing, a prismatic joint as
-- a slider in a guide.  Hand values at rest and in steady sliding, convergence to the
-- ideal mechanism as the clearance shrinks, energy conservation through many impacts,
-- penetration and energy accounts on the two benchmarks of the benchmarks module,
-- channels and every validation error.
local tap = require "tap"

local g = 9.81

local benchmarks = require "benchmarks"
local benchmark_a = benchmarks.a_clearance()
local w5000 = mech.rpm(5000)

do -- at rest: a pendulum hangs on its journal, the journal on the bearing's wall
  local c, K = 0.5e-3, 1e9
  -- the static penetration (m g / K)^(1/n); Hu-Guo creeps to it with a time constant
  -- h d / (n v_min) = 0.046 s (mechlua-contact(3)): 0.5 s is 11 of them
  local d = (g / K) ^ (1 / 1.5)
  for _, v in ipairs{ { "journal on the pendulum, bearing on the ground", -1, 0 },
                      { "bearing on the pendulum (turned 90 degrees), journal on the ground", 1, math.pi / 2 } } do
    local sys = mech.planar{ gravity = { 0, -g } }
    -- static friction: the contact sticks (with the journal on the ground, the sticking
    -- force comes from the forces on the bearing's body)
    local clear = { radial = c, radius = 10e-3, law = mech.contact.hu_guo{ K = K, restitution = 0.5 },
      friction = mech.friction.stick{ mu = 0.2 } }
    local bob = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 0, -0.1 - c }, angle = v[3] }
    if v[2] < 0 then
      sys:revolute{ sys.ground, bob, a_at = { 0, 0 }, b_at = { 0, 0.1 }, name = "pivot", clearance = clear }
    else
      sys:revolute{ bob, sys.ground, a_at = { 0.1, 0 }, b_at = { 0, -c }, name = "pivot", clearance = clear }
    end
    local run = sys:simulate{ t = 0.5, report = 1e-3, method = "bdf", rtol = 1e-8, atol = 1e-12,
      record = { "pivot.ex", "pivot.ey", "pivot.exb", "pivot.eyb", "pivot.fn", "pivot.penetration",
        "pivot.stick", "bob.phi", "pivot.fx", "pivot.fy", "pivot.f" } }
    local n = #run
    tap.diag(v[1])
    -- the resultant force, named as the ideal joint's: on the joint's second body (the bob;
    -- the ground in the second case), so the weight m g up, or its reaction down
    tap.near(run["pivot.fy"][n], -v[2] * g, 1e-6 * g, "pivot.fy carries the weight exactly")
    tap.near(run["pivot.fx"][n], 0, 1e-6 * g, "pivot.fx is zero at rest")
    tap.near(run["pivot.f"][n], g, 1e-6 * g, "pivot.f is the weight")
    local ideal = mech.planar{ gravity = { 0, -g } }
    local ibob = ideal:body{ name = "bob", mass = 1, inertia = 0.01, at = { 0, -0.1 }, angle = v[3] }
    if v[2] < 0 then
      ideal:revolute{ ideal.ground, ibob, a_at = { 0, 0 }, b_at = { 0, 0.1 }, name = "pivot" }
    else
      ideal:revolute{ ibob, ideal.ground, a_at = { 0.1, 0 }, b_at = { 0, 0 }, name = "pivot" }
    end
    local irun = ideal:simulate{ t = 0.01, report = 1e-3, record = { "pivot.fx", "pivot.fy" } }
    tap.ok(math.abs(irun["pivot.fy"][#irun] - run["pivot.fy"][n]) < 1e-6 * g
      and math.abs(irun["pivot.fx"][#irun] - run["pivot.fx"][n]) < 1e-6 * g,
      string.format("the ideal joint's fx, fy are the same (%.9g, %.9g N)", irun["pivot.fx"][#irun],
        irun["pivot.fy"][#irun]))
    tap.near(run["pivot.penetration"][n], d, 1e-3 * d,
      string.format("the journal sinks into the bearing by (m g / K)^(2/3) = %.4g m", d))
    tap.near(run["pivot.ey"][n], v[2] * (c + d), 1e-3 * d,
      "the eccentricity (journal centre - bearing centre) is the clearance plus that, vertical")
    tap.near(run["pivot.fn"][n], g, 1e-6 * g, "the contact force carries the weight")
    tap.is(run["pivot.stick"][n], 1, "and sticks")
    -- the bearing body's frame: turned by 90 degrees in the second case
    local ex, ey = run["pivot.ex"][n], run["pivot.ey"][n]
    local phi = v[2] < 0 and 0 or run["bob.phi"][n]
    local cs, sn = math.cos(phi), math.sin(phi)
    tap.ok(math.abs(run["pivot.exb"][n] - (cs * ex + sn * ey)) < 1e-15
      and math.abs(run["pivot.eyb"][n] - (-sn * ex + cs * ey)) < 1e-15,
      "exb, eyb are the eccentricity in the bearing body's frame")
  end
end

do -- at rest: a slider lies on the bottom of its guide on two corners
  local gap, K, m = 1e-3, 1e10, 2
  local sys = mech.planar{ gravity = { 0, -g } }
  local slider = sys:body{ name = "slider", mass = m, inertia = m * (0.1 ^ 2 + 0.05 ^ 2) / 12,
    at = { 0, -gap } } -- its bottom face on the bottom surface
  sys:prismatic{ sys.ground, slider, at = { 0, 0 }, axis = { 1, 0 }, name = "guide",
    clearance = { gap = gap, length = 0.1, height = 0.05, law = mech.contact.hu_guo{ K = K, restitution = 0.5 } } }
  local run = sys:simulate{ t = 0.5, report = 1e-3, method = "bdf", rtol = 1e-8, atol = 1e-12,
    record = { "guide.fn", "guide.offset", "guide.tilt", "guide.active", "guide.c1_bottom.fn",
      "guide.c2_bottom.fn", "guide.c3_top.gap", "guide.c3_top.fn", "guide.c1_bottom.penetration" } }
  local n = #run
  local d = (m * g / 2 / K) ^ (1 / 1.5) -- each bottom corner carries half the weight
  tap.near(run["guide.c1_bottom.penetration"][n], d, 1e-6 * d,
    string.format("the bottom corners sink by (m g / (2 K))^(2/3) = %.4g m", d))
  tap.ok(math.abs(run["guide.c1_bottom.fn"][n] - m * g / 2) < 1e-6 and
    math.abs(run["guide.c2_bottom.fn"][n] - m * g / 2) < 1e-6, "and carry m g / 2 each")
  tap.near(run["guide.fn"][n], m * g, 1e-6, "guide.fn is the sum over the corners")
  tap.is(run["guide.active"][n], 2, "two corners are in contact")
  tap.near(run["guide.offset"][n], -(gap + d), 1e-12, "the slider's centre lies gap + d below the axis")
  tap.near(run["guide.c3_top.gap"][n], 2 * gap + d, 1e-12, "the top corners are 2 gap + d from the top surface")
  tap.is(run["guide.c3_top.fn"][n], 0, "with no force")
  tap.is(run["guide.tilt"][n], 0, "and the slider does not tilt")
end

do -- friction along the guide: a slider sliding on either surface decelerates at mu g
  local gap, mu, m = 1e-3, 0.1, 2
  for _, side in ipairs{ -1, 1 } do
    local sys = mech.planar{ gravity = { 0, side * g } } -- gravity up presses the top surface
    local slider = sys:body{ name = "slider", mass = m, inertia = m * (0.1 ^ 2 + 0.05 ^ 2) / 12,
      at = { 0, side * gap }, velocity = { 1, 0 } }
    sys:prismatic{ sys.ground, slider, at = { 0, 0 }, axis = { 1, 0 }, name = "guide",
      clearance = { gap = gap, length = 0.1, height = 0.05, law = mech.contact.hu_guo{ K = 1e10, restitution = 0.5 },
        friction = mech.friction.coulomb{ mu = mu } } }
    local run = sys:simulate{ t = 0.5, report = 1e-3, method = "bdf", rtol = 1e-8, atol = 1e-12,
      record = { "slider.vx", "guide.ft", "guide.fn", "guide.fx", "guide.fy", "guide.f", "guide.m",
        "guide.tilt" } }
    local n, surface = #run, side < 0 and "bottom" or "top"
    -- Coulomb's sgn(v) with v > 0 throughout: v = 1 - mu g t exactly, up to the
    -- integration error (rtol 1e-8)
    tap.near(run["slider.vx"][n], 1 - mu * g * 0.5, 1e-6,
      string.format("on the %s surface: v(0.5 s) = 1 - mu g t", surface))
    tap.near(run["guide.ft"][n], -mu * run["guide.fn"][n], 1e-9,
      "guide.ft, along the axis, is -mu fn: it opposes the sliding")
    -- the resultant on the slider, as the ideal prismatic joint's fx, fy, f, m: friction
    -- -mu m g along x, the weight carried along y, and, the slider not turning, no moment
    -- about its centre: about its anchor (on the guide's axis, gap from the centre in the
    -- slider's frame, turned by its small tilt) the moment of (fx, fy) at the centre
    tap.near(run["guide.fx"][n], -mu * m * g, 1e-6, "guide.fx is the friction on the slider")
    tap.near(run["guide.fy"][n], -side * m * g, 1e-6, "guide.fy carries the weight")
    tap.near(run["guide.f"][n], m * g * math.sqrt(1 + mu ^ 2), 1e-6,
      "guide.f is the vector sum of the normal and friction forces")
    local tilt = run["guide.tilt"][n]
    local arm = { -side * gap * math.sin(tilt), side * gap * math.cos(tilt) } -- centre - anchor
    tap.near(run["guide.m"][n], arm[1] * run["guide.fy"][n] - arm[2] * run["guide.fx"][n], 1e-10,
      string.format("guide.m is their moment about the slider's anchor (%.6g N m)", run["guide.m"][n]))
  end
end

do -- friction in a bearing: a spinning shaft loaded by its weight slows down
  local c, Rb, mu, I = 0.5e-3, 10e-3, 0.1, 1e-3
  local sys = mech.planar{ gravity = { 0, -g } }
  local shaft = sys:body{ name = "shaft", mass = 1, inertia = I, at = { 0, -c }, omega = 100 }
  sys:revolute{ sys.ground, shaft, a_at = { 0, 0 }, b_at = { 0, 0 }, name = "bearing",
    clearance = { radial = c, radius = Rb, law = mech.contact.hu_guo{ K = 1e10, restitution = 0.5 },
      friction = mech.friction.coulomb{ mu = mu } } }
  local run = sys:simulate{ t = 0.5, report = 1e-3, method = "bdf", rtol = 1e-8, atol = 1e-12,
    record = { "shaft.omega", "shaft.alpha", "bearing.ft", "bearing.fn", "bearing.vt" } }
  local n = #run
  -- the moment about the journal's centre is R_j ft: the normal force passes through it
  tap.near(run["shaft.alpha"][n] * I, run["bearing.ft"][n] * (Rb - c), 1e-12,
    "the friction's moment on the journal is R_j ft")
  tap.ok(run["bearing.vt"][n] > 0 and run["bearing.ft"][n] < 0,
    "slip along t = R90 n (counter-clockwise) for a journal turning counter-clockwise; ft opposes it")
  -- the journal climbs the wall to the friction angle atan(mu), where the contact force
  -- balances the weight: deceleration m g R_j sin(atan mu) / I.  It swings about that
  -- angle (nothing damps the swing), so the mean over 0.4 s is within 1%.
  local alpha = g * (Rb - c) * math.sin(math.atan(mu)) / I
  local mean = (run["shaft.omega"][101] - run["shaft.omega"][n]) / 0.4
  tap.near(mean, alpha, 0.01 * alpha,
    string.format("it slows down at m g R_j sin(atan mu) / I = %.4g rad/s^2 (%.4g)", alpha, mean))
end

do -- as the clearance shrinks the slider follows the ideal mechanism
  -- A very stiff dissipative contact (K = 1e13, Hu-Guo e = 0.5) so that the penetration,
  -- (F/K)^(2/3) < 2.3e-6 m, stays below the smallest clearance and the journal settles on
  -- the side of its bearing the rod pushes or pulls.  The ideal slider is the closed form
  -- at crank angle w t (the crank is driven).
  local kin = require("slidercrank").kinematics{ crank = 0.05, rod = 0.12 }
  local errs, rows = {}, {}
  for i, c in ipairs{ 0.5e-3, 0.1e-3, 0.02e-3 } do
    local sys = benchmarks.a{ clearance = { radial = c, radius = 10e-3,
      law = mech.contact.hu_guo{ K = 1e13, restitution = 0.5 } } }
    local run = sys:simulate{ t = 0.024, report = 1e-5, rtol = 1e-8, atol = 1e-12,
      record = { "slider.x", "pin.impacts", "pin.penetration" } }
    local worst = 0
    for k = 1, #run do worst = math.max(worst, math.abs(run["slider.x"][k] - kin(w5000 * run.t[k]))) end
    errs[i] = worst
    rows[i] = string.format("clearance %.2f mm: max |x - x_ideal| = %.4g mm = %.3f c; %d impacts, "
      .. "max penetration %.3g mm", c * 1e3, worst * 1e3, worst / c, run["pin.impacts"][#run],
      run["pin.penetration"]:max() * 1e3)
    tap.diag(rows[i])
    -- the slider is displaced from the ideal by the eccentricity along x: at most the
    -- clearance plus the penetration; the journal rides on the wall, so at least about c
    tap.ok(worst > 0.9 * c and worst < 1.3 * c, string.format("the error is about the clearance "
      .. "(%.3f c, within 0.9 to 1.3 c)", worst / c))
  end
  for i = 2, 3 do
    local ratio = (errs[i] / errs[i - 1]) / 0.2
    tap.ok(ratio > 0.8 and ratio < 1.25, string.format("the error shrinks with the clearance (x %.3f "
      .. "for x 0.2 of the clearance: %.2f of proportional)", errs[i] / errs[i - 1], ratio))
  end
end

do -- the resultant force of a small clearance follows the ideal joint's, under the same names
  -- Benchmark A's law and friction with a 0.01 mm clearance, and the ideal mechanism; the
  -- second revolution (0.012 .. 0.024 s), same report grid.  pin.f of the clearance joint
  -- is also exactly the vector sum of its contact's normal and friction forces.
  local names = { "pin.fx", "pin.fy", "pin.f" }
  local ideal = benchmarks.a{}:simulate{ t = 0.024, report = 1e-5, rtol = 1e-8, atol = 1e-12,
    record = names }
  local run = benchmarks.a{ clearance = benchmarks.a_clearance{ radial = 0.01e-3 } }:simulate{
    t = 0.024, report = 1e-5, rtol = 1e-8, atol = 1e-12,
    record = { "pin.fx", "pin.fy", "pin.f", "pin.fn", "pin.ft" } }
  tap.is(#run, #ideal, "both on the same report grid")
  local sum = function(r, name, f)
    local s, n = 0, 0
    for i = 1, #r do
      if r.t[i] >= 0.012 then s, n = s + (f or function(x) return x end)(r[name][i], i), n + 1 end
    end
    return s / n
  end
  local fmean = sum(ideal, "pin.f")
  tap.diag(string.format("benchmark A, second revolution: mean |f| %.5g N ideal, %.5g N with a "
    .. "0.01 mm clearance", fmean, sum(run, "pin.f")))
  tap.ok(math.abs(sum(run, "pin.f") / fmean - 1) < 0.05, "the mean resultant is the ideal's within 5 %")
  for _, q in ipairs{ "pin.fx", "pin.fy" } do
    local rms_i = math.sqrt(sum(ideal, q, function(x) return x * x end))
    local rms_c = math.sqrt(sum(run, q, function(x) return x * x end))
    local dot = sum(run, q, function(x, i) return x * ideal[q][i] end) / (rms_i * rms_c)
    local mdiff = math.abs(sum(run, q) - sum(ideal, q))
    tap.diag(string.format("%s: rms %.5g N ideal, %.5g N clearance; correlation %.4f; means "
      .. "%.4g, %.4g N", q, rms_i, rms_c, dot, sum(ideal, q), sum(run, q)))
    tap.ok(math.abs(rms_c / rms_i - 1) < 0.05, q .. ": its rms is the ideal's within 5 %")
    tap.ok(dot > 0.95, q .. ": it follows the ideal's (correlation > 0.95): same sign convention")
    tap.ok(mdiff < 0.05 * fmean, q .. ": its mean is the ideal's within 5 % of the mean force")
  end
  local worst = 0
  for i = 1, #run do
    local fn, ft = run["pin.fn"][i], run["pin.ft"][i]
    worst = math.max(worst, math.abs(run["pin.f"][i] - math.sqrt(fn * fn + ft * ft)),
      math.abs(run["pin.f"][i] - math.sqrt(run["pin.fx"][i] ^ 2 + run["pin.fy"][i] ^ 2)))
  end
  tap.ok(run["pin.ft"]:max() > 10 and worst < 1e-9 * run["pin.f"]:max(), string.format(
    "with friction (|ft| up to %.3g N), f = |fx, fy| = |fn n + ft t| at every row", run["pin.ft"]:max()))
end

do -- elastic contact conserves energy through many impacts
  -- A free slider-crank (no drive, no gravity) with a frictionless Hertz journal: the
  -- journal crosses the clearance at every stroke reversal.  The energy includes the
  -- energy stored in the contact (up to 2% of the total).
  local sys = benchmarks.a{ clearance = { radial = 0.5e-3, radius = 10e-3,
    law = mech.contact.hertz{ K = 1e10 } }, speed = 200, driven = false, gravity = 0 }
  local run = sys:simulate{ t = 0.1, report = 1e-5, rtol = 1e-10, atol = 1e-13,
    record = { "system.energy", "system.contact", "pin.impacts", "system.balance" } }
  local E = run["system.energy"]
  local drift = math.max(E:max() - E[1], E[1] - E:min()) / E[1]
  local impacts = run["pin.impacts"][#run]
  tap.diag(string.format("free slider-crank, Hertz K = 1e10, 0.1 s (2.3 turns): %d impacts, "
    .. "energy %.6g J, largest drift %.2e relative, stored in the contact up to %.3g J", impacts,
    E[1], drift, run["system.contact"]:max()))
  tap.ok(impacts > 50, string.format("many impacts (%d)", impacts))
  -- the integration error at rtol 1e-10 over 2e4 steps of a smooth motion: ~1e-8
  tap.ok(drift < 1e-6, string.format("the energy drifts by less than 1e-6 relative (%.2e)", drift))
end

-- Benchmark A with its own law and friction, at the given tolerance.
local function run_a(rtol)
  local sys = benchmarks.a{ clearance = benchmark_a }
  return sys:simulate{ t = 0.024, report = 1e-6, rtol = rtol,
    record = { "pin.penetration", "pin.impacts", "pin.v0", "system.balance", "system.friction",
      "system.contact_damping", "system.work" } }
end

do -- benchmark A: how deep the journal goes
  local run = run_a(1e-6)
  local c, K = 0.5e-3, 3.35e10
  local pen, first_v0, first_pen, second = run["pin.penetration"], nil, 0, 0
  for i = 1, #run do
    if run["pin.impacts"][i] == 1 then
      first_v0 = first_v0 or run["pin.v0"][i]
      first_pen = math.max(first_pen, pen[i])
    end
    if run.t[i] >= 0.012 then second = math.max(second, pen[i]) end
  end
  tap.diag(string.format("benchmark A (K = 3.35e10, e = 0.9, 5000 rpm, c = 0.5 mm): %d impacts, "
    .. "max penetration %.3g mm = %.3f c (the first impact, at %.3g m/s), %.3f c in the second "
    .. "revolution", run["pin.impacts"][#run], pen:max() * 1e3, pen:max() / c, first_v0, second / c))
  -- starting centred, the journal crosses the clearance and strikes at ~4.4 m/s: the Hertz
  -- energy balance m v0^2 / 2 = 2 K d^(5/2) / 5 gives d for the slider's mass alone; the
  -- rod adds to the effective mass, the damping (e = 0.9) takes a little away
  local d_hertz = (5 * 0.14 * first_v0 ^ 2 / (4 * K)) ^ 0.4
  tap.ok(first_pen > 0.9 * d_hertz and first_pen < 1.5 * d_hertz, string.format(
    "the first impact goes as deep as its energy says (%.3g mm; Hertz with the slider's mass: %.3g mm)",
    first_pen * 1e3, d_hertz * 1e3))
  tap.ok(pen:max() < 0.25 * c, string.format("the penetration stays a fraction of the clearance "
    .. "(%.3f c < 0.25 c)", pen:max() / c))
end

do -- friction and contact damping only dissipate; the energy balance closes
  local coarse, fine = run_a(1e-7), run_a(1e-9)
  for _, acc in ipairs{ "system.friction", "system.contact_damping" } do
    -- their powers are >= 0 at every evaluation; the recorded integral may still dip by the
    -- dense output's error between steps (2e-11 J seen at rtol 1e-9): 1e-9 J allowed
    local col, down = fine[acc], 0
    for i = 2, #fine do down = math.min(down, col[i] - col[i - 1]) end
    tap.ok(down > -1e-9 and col[#fine] > 0, string.format("%s never decreases (by %.2g J at most; it "
      .. "reaches %.4g J)", acc, -down, col[#fine]))
  end
  local function worst(run) return math.max(run["system.balance"]:max(), -run["system.balance"]:min()) end
  local lost = fine["system.friction"][#fine] + fine["system.contact_damping"][#fine]
  tap.diag(string.format("benchmark A: the driver does %.4g J of work, friction and damping take "
    .. "%.4g J; largest balance %.3g J at rtol 1e-7, %.3g J at rtol 1e-9", fine["system.work"]:max(),
    lost, worst(coarse), worst(fine)))
  -- the balance is the integration error: it shrinks with the tolerance
  tap.ok(worst(fine) < 1e-4 * lost, "the balance closes to 1e-4 of the energy dissipated")
  tap.ok(worst(fine) < worst(coarse) / 20, "and it is the integration error: x 1/100 in rtol, "
    .. "at least x 1/20 in the balance")
end

do -- benchmark B: Flores, Leine and Glocker's slider-crank with a translational clearance
  -- (benchmarks.b: a stiff Flores law with e = 0.4, micrometre penetrations)
  local gap = 1e-3
  local sys = benchmarks.b{}
  tap.is(sys.dof, 3, "the slider's clearance adds two degrees of freedom to the crank's")
  local rec = { "guide.tilt", "guide.offset", "guide.impacts", "system.balance", "system.energy",
    "system.friction", "system.contact_damping" }
  for k = 1, 4 do
    for _, s in ipairs{ "bottom", "top" } do rec[#rec + 1] = string.format("guide.c%d_%s.penetration", k, s) end
  end
  local run = sys:simulate{ t = 0.2, report = 1e-5, rtol = 1e-6, record = rec }
  local hits, pen = { bottom = 0, top = 0 }, 0
  for k = 1, 4 do
    for _, s in ipairs{ "bottom", "top" } do
      local p = run[string.format("guide.c%d_%s.penetration", k, s)]:max()
      if p > 0 then hits[s] = hits[s] + 1 end
      pen = math.max(pen, p)
    end
  end
  local tilt = math.max(run["guide.tilt"]:max(), -run["guide.tilt"]:min())
  local balance = math.max(run["system.balance"]:max(), -run["system.balance"]:min())
  tap.diag(string.format("benchmark B, 0.2 s: %d impacts, %d steps, %d rhs evaluations, %.3f s; "
    .. "tilt up to %.3g rad, offset %.3g to %.3g mm, max penetration %.3g mm, balance %.2g J of %.3g J",
    run["guide.impacts"][#run], run.stats.steps, run.stats.rhs_evals, run.stats.wall_time, tilt,
    run["guide.offset"]:min() * 1e3, run["guide.offset"]:max() * 1e3, pen * 1e3, balance,
    run["system.energy"][1]))
  tap.is(run.status, "complete", "the run completes")
  -- the largest tilt the guide allows is about 2 gap / length = 0.02 rad
  tap.ok(tilt > 1e-3 and tilt < 0.02, string.format("the slider tilts (%.3g rad)", tilt))
  tap.ok(hits.bottom >= 1 and hits.top >= 1, string.format("corners hit both surfaces (%d corners "
    .. "the bottom, %d the top)", hits.bottom, hits.top))
  tap.ok(run["guide.impacts"][#run] > 10, "many impacts")
  tap.ok(pen < 0.05 * gap, string.format("the penetration stays small (%.3g of the clearance)", pen / gap))
  -- at rtol 1e-6 the balance is the integration error: ~1e-6 of the energy
  tap.ok(balance < 1e-5 * run["system.energy"][1], "the energy balance closes to 1e-5 of the energy")
end

do -- channels, names and the model's description
  local sys = benchmarks.a{ clearance = benchmark_a }
  local pin = sys:entity("pin")
  tap.is(pin.kind, "joint", "a joint with clearance is a joint")
  tap.is(tostring(pin.channels), "ex, ey, e, exb, eyb, fx, fy, f, gap, penetration, rate, fn, ft, vt, mu, active, impacts, "
    .. "v0, z, stick", "a journal's channels: eccentricity, resultant force, then its contact's")
  tap.is(sys:entity("pin.journal").kind, "contact", "its contact is the entity 'pin.journal'")
  tap.is(sys.dof, 2, "the journal in its bearing frees two degrees of freedom")
  local text = sys:describe()
  tap.like(text, "joint pin: revolute, slider %(0, 0%) %- rod %(0.06, 0%), clearance: bearing radius "
    .. "0.01 m, journal radius 0.0095 m; lankarani_nikravesh K 3.35e%+10", "describe() gives the clearance")
  tap.ok(not text:find("contact pin.journal", 1, true), "and no separate line for its contact")
  local s2 = mech.planar{}
  local b = s2:body{ name = "block", mass = 1, inertia = 1 }
  local guide = s2:prismatic{ s2.ground, b, name = "guide", clearance = { gap = 1e-3, length = 0.1,
    height = 0.05, law = mech.contact.hertz{ K = 1e9 } } }
  tap.is(tostring(guide.channels), "fn, ft, tilt, offset, impacts, active, fx, fy, f, m, c1_bottom.gap, c1_bottom.fn, c1_top.gap, "
    .. "c1_top.fn, c2_bottom.gap, c2_bottom.fn, c2_top.gap, c2_top.fn, c3_bottom.gap, c3_bottom.fn, "
    .. "c3_top.gap, c3_top.fn, c4_bottom.gap, c4_bottom.fn, c4_top.gap, c4_top.fn",
    "a guide's channels: totals, then each corner against each surface")
  s2:assemble()
  -- corners counter-clockwise from the lower left: c1 (-0.05, -0.025) ... c4 (-0.05, 0.025)
  tap.near(s2:value("guide.c1_bottom.gap"), 1e-3, 1e-15, "corner 1 is 1 mm above the bottom surface")
  tap.near(s2:value("guide.c4_top.gap"), 1e-3, 1e-15, "corner 4 is 1 mm below the top surface")
  tap.near(s2:value("guide.c4_bottom.gap"), 0.051, 1e-15, "and 51 mm above the bottom one")
  -- the man page lists every channel
  local f = assert(io.open((os.getenv("MECHLUA_SOURCE") or ".") .. "/man/mechlua.3"))
  local man = f:read("a")
  f:close()
  local missing = {}
  for _, list in ipairs{ tostring(pin.channels), "fn, ft, tilt, offset, impacts, active, fx, fy, f, m" } do
    for q in list:gmatch("[%w_]+") do
      if not man:find(q, 1, true) then missing[#missing + 1] = q end
    end
  end
  tap.is(#missing, 0, "mechlua(3) names every channel of the clearance joints " .. table.concat(missing, " "))
  tap.ok(man:find("c<k>_bottom", 1, true) and man:find("c<k>_top", 1, true),
    "and the corner channels' scheme")
end

do -- errors name the joint and the values
  local law = mech.contact.hertz{ K = 1e9 }
  local sys = mech.planar{}
  local a = sys:body{ name = "a", mass = 1, inertia = 1, at = { 0, 0 } }
  local b = sys:body{ name = "b", mass = 1, inertia = 1, at = { 0.1, 0 } }
  local function rev(clear, extra)
    local t = { a, b, at = { 0.1, 0 }, name = "pin", clearance = clear }
    for k, v in pairs(extra or {}) do t[k] = v end
    return function() sys:revolute(t) end
  end
  local function pri(clear, extra)
    local t = { a, b, name = "guide", clearance = clear }
    for k, v in pairs(extra or {}) do t[k] = v end
    return function() sys:prismatic(t) end
  end
  tap.raises(rev{ radial = -1e-4, radius = 0.01, law = law },
    "revolute 'pin': radial clearance must be > 0 (got -0.0001 m", "a negative clearance")
  tap.raises(rev{ radial = 0, radius = 0.01, law = law },
    "revolute 'pin': radial clearance must be > 0 (got 0 m", "a zero clearance")
  tap.raises(rev{ journal = 0.011, radius = 0.01, law = law },
    "a journal of radius 0.011 m in a bearing of radius 0.01 m", "a journal larger than its bearing")
  tap.raises(rev{ radial = 0.02, radius = 0.01, law = law },
    "revolute 'pin': the bearing's radius must be larger than the radial clearance (got radius 0.01 m, "
    .. "clearance 0.02 m)", "a bearing smaller than the clearance")
  tap.raises(rev{ radius = 0.01, law = law }, "give either 'radial' (the clearance) or 'journal'",
    "the clearance is required")
  tap.raises(rev{ radial = 1e-3, journal = 9e-3, radius = 0.01, law = law }, "give either 'radial'",
    "and given once")
  tap.raises(rev{ radial = 1e-3, radius = 0.01 }, "sys:revolute (clearance of 'pin'): field 'law' is "
    .. "required", "the law is required")
  tap.raises(rev{ radial = 1e-3, radius = 0.01, law = mech.friction.coulomb{ mu = 0.1 } },
    "field 'law' must be a contact law (got a friction law)", "the law is a contact law")
  tap.raises(rev{ radial = 1e-3, radius = 0.01, law = law, friction = law },
    "field 'friction' must be a friction law (got a contact law)", "the friction is a friction law")
  tap.raises(rev{ radial = 1e-3, radius = 0.01, law = law, radiul = 1 },
    "unknown field 'radiul' (known fields: radial, journal, radius, law, friction)", "unknown fields")
  tap.raises(rev({ radial = 1e-3, radius = 0.01, law = law }, { method = "penalty" }),
    "'method' is for ideal joints", "the fields of ideal joints")
  tap.raises(function() sys:revolute{ a, b, a_at = { 0.1, 0 }, b_at = { 0.002, 0 }, name = "pin",
    clearance = { radial = 1e-3, radius = 0.01, law = law } } end,
    "revolute 'pin': the journal's centre is 0.002 m from the bearing's at the start, more than the "
    .. "radial clearance 0.001 m", "a journal outside its clearance")
  tap.raises(function() sys:revolute{ a, b, at = { 0.1, 0 }, clearance = 0.5e-3 } end,
    "sys:revolute (clearance): expected a table", "clearance is a table")
  tap.raises(pri{ gap = 0, length = 0.1, height = 0.05, law = law },
    "prismatic 'guide': the clearance on each side must be > 0 (got 0 m", "a zero gap")
  tap.raises(pri{ width = 0.04, length = 0.1, height = 0.05, law = law },
    "sys:prismatic (clearance of 'guide'): the slider (0.05 m high) does not fit in the guide (width 0.04 m)",
    "a slider larger than its guide")
  tap.raises(pri({ gap = 1e-3, length = 0.1, height = 0.05, law = law }, { at = { 0.1, 0.01 } }),
    "prismatic 'guide': corner 1 of the slider (-0.05, -0.025 in its coordinates) is 0.009 m beyond "
    .. "the guide's bottom surface at the start", "a slider corner outside the guide")
  tap.raises(pri({ gap = 1e-3, length = 0.1, height = 0.05, law = law }, { axis = { 0, 1 } }),
    "is 0.024 m beyond the guide's top surface at the start: place the slider inside the guide, its x "
    .. "axis along the guide", "a slider across its guide")
  tap.raises(pri{ gap = 1e-3, length = 0.1, law = law }, "the slider's outline: 'length' and 'height'",
    "the slider's outline is required")
  tap.raises(pri{ gap = 1e-3, length = 0.1, height = 0.05, corners = { { 0, 0 } }, law = law },
    "give either 'length' and 'height' or 'corners', not both", "one outline")
  tap.raises(pri{ gap = 1e-3, corners = {}, law = law },
    "field 'corners' must be a list of 1 to 8 points", "corners: 1 to 8 points")
  tap.raises(pri{ gap = 1e-3, length = 0.1, height = 0.05 }, "field 'law' is required",
    "the guide's law is required")
  tap.raises(pri({ gap = 1e-3, length = 0.1, height = 0.05, law = law }, { angle = 0 }),
    "'angle' is for ideal joints", "a slider with clearance keeps no angle")
  tap.raises(function() sys:fixed{ a, b, at = { 0, 0 }, clearance = {} } end, "unknown field 'clearance'",
    "fixed joints have no clearance")
  tap.is(sys:entity("pin"), nil, "a refused joint is not added")
  tap.ok(not tostring(sys):find("contact"), "nor its contacts")
  local s1 = benchmarks.a{ clearance = benchmark_a }
  tap.raises(function() s1:lyapunov{ t = 0.1, every = 0.01 } end, "sys:lyapunov: systems with contacts "
    .. "are not supported (joint with clearance 'pin')", "sys:lyapunov refuses contacts (it locates no onset)")
  -- a body that only a joint with clearance guides needs its inertia
  local s2 = mech.planar{}
  local slider = s2:body{ name = "slider", mass = 1, at = { 0, 0 } }
  s2:prismatic{ s2.ground, slider, name = "guide", clearance = { gap = 1e-3, length = 0.1,
    height = 0.05, law = law } }
  tap.raises(function() s2:assemble() end, "body 'slider': inertia is 0, but prismatic 'guide' has "
    .. "clearance: it is a force element, not a constraint, and lets the body turn; give 'slider' its "
    .. "inertia", "a slider without inertia")
  -- assembly must not move the bodies out of the clearance (when the joint is free in it: a
  -- start as given; the default start of this model at rest is ideal, which moves the bob
  -- with the arm)
  for _, start in ipairs{ "as_given", "auto" } do
    local s3 = mech.planar{ start = start }
    local arm = s3:body{ name = "arm", mass = 1, inertia = 1, at = { 0.1, 0 } }
    local bob = s3:body{ name = "bob", mass = 1, inertia = 1, at = { 0.2, 0 } }
    s3:revolute{ s3.ground, arm, a_at = { 0.003, 0 }, b_at = { -0.1, 0 } } -- assembly moves the arm 3 mm
    s3:revolute{ arm, bob, at = { 0.2, 0 }, name = "loose", clearance = { radial = 1e-3, radius = 0.01, law = law } }
    if start == "as_given" then
      tap.raises(function() s3:assemble() end, "revolute 'loose': the journal's centre is 0.003 m from the "
        .. "bearing's after assembly", "a journal pushed out of its clearance by the assembly")
    else
      tap.ok(math.abs(s3:value("loose.ex")) < 1e-15, "started ideal, the journal moves with its bearing")
    end
  end
end

tap.done()
