-- SPDX-License-Identifier: MIT
-- The claims of [Zheng & Wang] (paper 000 of mechlua-references(7): a flexible slider in a
-- frictional translational joint with clearance) that a simulation can check, each named
-- by its id (see CLAIM IDS there), on its two examples as built by stdlib/spec000.lua, and
-- the cross-check of the Lagrange-multiplier joint of [Zheng & Wang, abstract].
local tap = require "tap"
local spec000 = require "spec000"

local g = 9.81

-- ---- E1: the stick-slip oscillator (Sec. 4.1), 12 s ------------------------------------
do
  local sys = spec000.oscillator{}
  local rec = { "slider.ft", "slider.fn", "system.balance" }
  for k = 1, 6 do rec[#rec + 1] = string.format("slider.n%d.fn", k) end
  for _, k in ipairs{ 31, 36 } do rec[#rec + 1] = string.format("slider.n%d.fn", k) end
  for _, k in ipairs{ 1, 6, 31, 36 } do
    rec[#rec + 1] = string.format("slider.n%d.vx", k)
    rec[#rec + 1] = string.format("slider.n%d.vy", k)
  end
  local run = sys:simulate{ t = 12, report = 2e-3, method = "bdf", rtol = 1e-6, atol = 1e-9, record = rec }
  tap.ok(run.ok, "E1: the oscillator runs 12 s")
  local n, t = #run, run.t
  local function c(k, q) return run[string.format("slider.n%d.%s", k, q)] end

  -- C000-4: nodes 2-5 never touch the upper guide
  local inner = 0
  for k = 2, 5 do inner = math.max(inner, c(k, "fn"):max()) end
  tap.is(inner, 0, "C000-4: nodes 2-5 never touch the guide")
  tap.ok(c(1, "fn"):max() > 0 or c(6, "fn"):max() > 0, "C000-3: a top corner hits the upper guide")

  -- C000-5: complementarity of same-side corners, at every sample
  local worst = 0
  for i = 1, n do
    worst = math.max(worst, c(1, "fn")[i] * c(31, "fn")[i], c(6, "fn")[i] * c(36, "fn")[i])
  end
  tap.is(worst, 0, "C000-5: F_N1 F_N31 = 0 and F_N6 F_N36 = 0 at all times")
  tap.ok(c(1, "fn"):min() >= 0 and c(31, "fn"):min() >= 0 and c(6, "fn"):min() >= 0
    and c(36, "fn"):min() >= 0, "C000-5: normal forces are never negative")

  -- C000-1: stick-slip: the corners' x velocity alternates between rest and sliding
  local stuck, sliding = 0, 0
  for i = 1, n do
    local v = math.abs(c(36, "vx")[i])
    if v < 1e-3 then stuck = stuck + 1 elseif v > 0.3 then sliding = sliding + 1 end
  end
  tap.ok(stuck > 0.1 * n and sliding > 0.1 * n,
    string.format("C000-1: stick-slip (stuck %.0f%%, sliding fast %.0f%% of the time)", 100 * stuck / n, 100 * sliding / n))

  -- C000-2 and C000-3: after the first fall (1 s) the y velocities are small against the
  -- x velocities, and the top corners move in opposite directions (the slider rocks)
  local vx, vy, opposite, moving = 0, 0, 0, 0
  for i = 1, n do
    if t[i] >= 1 then
      vx = math.max(vx, math.abs(c(1, "vx")[i]))
      vy = math.max(vy, math.abs(c(1, "vy")[i]), math.abs(c(6, "vy")[i]))
      local a, b = c(1, "vy")[i], c(6, "vy")[i]
      if math.abs(a) > 1e-6 and math.abs(b) > 1e-6 then
        moving = moving + 1
        if a * b < 0 then opposite = opposite + 1 end
      end
    end
  end
  tap.ok(vy < 0.05 * vx, string.format("C000-2: |v_y| <= %.2g m/s, under 5%% of |v_x| <= %.2g m/s", vy, vx))
  tap.ok(opposite > 0.8 * moving,
    string.format("C000-3: v_y of nodes 1 and 6 opposite in %.0f%% of the samples where both move", 100 * opposite / moving))

  -- derived: while the slider slides on the lower guide only, Coulomb's law holds for the
  -- sums, |F_t| = mu F_N, and F_N is the weight m g but for the slider's vertical inertia
  -- as it rocks and bounces on its dampers (5% measured)
  local dev, count, wdev = 0, 0, 0
  for i = 1, n do
    local fn = run["slider.fn"][i]
    if t[i] >= 1 and math.abs(c(36, "vx")[i]) > 0.05 and math.abs(c(1, "vx")[i]) > 0.05
      and c(1, "fn")[i] == 0 and c(6, "fn")[i] == 0 then
      dev = math.max(dev, math.abs(math.abs(run["slider.ft"][i]) - 0.15 * fn))
      wdev = math.max(wdev, math.abs(fn - 0.1 * g))
      count = count + 1
    end
  end
  tap.ok(count > 100 and dev < 1e-9, string.format("sliding: |sum of friction| = mu sum of F_N (within %.1e N)", dev))
  tap.ok(wdev < 0.1 * 0.1 * g, string.format("sliding: sum of F_N = m g within %.1e N (10%%)", wdev))
  local bal = math.max(run["system.balance"]:max(), -run["system.balance"]:min())
  tap.ok(bal < 1e-4, string.format("E1: the energy balance closes (%.1e J)", bal))
end

-- ---- E2: the slider-crank (Sec. 4.2), 72 s (six forcing periods) -------------------------
-- As scripts/spec000_slidercrank.lua runs it: BDF of order 3 at most, rtol 1e-5.
local T = 72
local function crank(o, record)
  local sys = spec000.slider_crank(o)
  return sys:simulate{ t = T, report = 1e-2, method = "bdf", rtol = 1e-5, atol = 1e-8, max_order = 3,
    record = record }
end
local rec = { "crank.phi", "crank.omega", "slider.ft", "B.dx", "B.dy", "system.dissipated" }
for k = 1, 9 do rec[#rec + 1] = string.format("slider.n%d.fn", k) end
local p4 = crank({}, rec)
tap.ok(p4.ok, "E2: the slider-crank with 4 elements runs 72 s")
local n = #p4
local per = 1200 -- samples per 12 s

-- C000-8: periodic stick-slip after the transient
local drift, stuck = 0, 0
for i = n - per, n do
  drift = math.max(drift, math.abs(p4["crank.phi"][i] - p4["crank.phi"][i - per]))
  if math.abs(p4["crank.omega"][i]) < 2e-3 then stuck = stuck + 1 end
end
tap.ok(drift < 0.01, string.format("C000-8: the crank's motion repeats with the 12 s period (%.1e rad)", drift))
tap.ok(stuck > 0.05 * per, string.format("C000-8: the crank sticks (%.0f%% of the last period)", 100 * stuck / per))
local lo, hi = math.huge, -math.huge
for i = n - 2 * per, n do lo, hi = math.min(lo, p4["crank.phi"][i]), math.max(hi, p4["crank.phi"][i]) end
tap.ok(lo > -1.9 and lo < -1.7 and hi > -1.45 and hi < -1.25,
  string.format("steady crank angle %.3f to %.3f rad (an independent RK4 prototype: -1.80 to -1.35)", lo, hi))

-- C000-12: in the steady regime only the lower surface touches
local top, bottom = 0, 0
for i = n - 2 * per, n do
  for k = 1, 3 do top = math.max(top, p4[string.format("slider.n%d.fn", k)][i]) end
  for k = 7, 9 do bottom = math.max(bottom, p4[string.format("slider.n%d.fn", k)][i]) end
end
tap.is(top, 0, "C000-12: upper nodes 1-3 carry no normal force in the steady regime")
tap.ok(bottom > 1, "C000-12: the lower nodes 7-9 do")

-- C000-14: the penalty joint's error stays below the paper's bound (after the first
-- impacts, as an independent RK4 prototype found) and below 1 mm throughout
local all, late = 0, 0
for i = 1, n do
  local e = math.max(math.abs(p4["B.dx"][i]), math.abs(p4["B.dy"][i]))
  all = math.max(all, e)
  if p4.t[i] >= 2 then late = math.max(late, e) end
end
tap.ok(late < 8e-4 and all < 1e-3, string.format("C000-14: joint error %.2e m after 2 s, %.2e m overall", late, all))

-- A damper beside the penalty springs (c_joint; Eq. 4 has none) damps the joint's vibration
-- (the rod's tip on k_joint, some 550 rad/s, which BDF of order 3 amplifies at steps of a
-- millisecond) and leaves the motion: 5.8e-5 rad over the steady cycle at 100 N s/m, and
-- 0.3% more energy dissipated in 72 s
local damped = crank({ c_joint = 100 }, { "crank.phi", "system.dissipated" })
local ddamp = 0
for i = n - 2 * per, n do ddamp = math.max(ddamp, math.abs(damped["crank.phi"][i] - p4["crank.phi"][i])) end
local undamped_loss = p4["system.dissipated"][n]
tap.ok(ddamp < 5e-4, string.format("a damped penalty joint follows the undamped one within %.1e rad", ddamp))
tap.ok(damped["system.dissipated"][n] > undamped_loss,
  string.format("the joint's damper dissipates (%.4f J against %.4f J)", damped["system.dissipated"][n], undamped_loss))
tap.raises(function() spec000.slider_crank{ c_joint = -1 } end,
  "spec000.slider_crank: field 'c_joint' must be >= 0 N s/m (got -1)", "a negative joint damper is refused")

-- C000-10: 8 elements close to 4
local p8 = crank({ nx = 4 }, { "crank.phi" })
local d48 = 0
for i = 1, n do d48 = math.max(d48, math.abs(p8["crank.phi"][i] - p4["crank.phi"][i])) end
tap.ok(d48 < 0.05, string.format("C000-10: 8 elements follow 4 within %.3f rad", d48))

-- C002-3: the Lagrange-multiplier joint of [Zheng & Wang, abstract] gives the same crank motion.  (Near
-- t = 70 s a corner node breaks away with its load within a hair of mu_s F_n: before the
-- stick band's ramp its timing hung on the last digits of the run.)
local lg = crank({ joint = "lagrange" }, { "crank.phi", "B.violation" })
local dlg = 0
for i = n - 2 * per, n do dlg = math.max(dlg, math.abs(lg["crank.phi"][i] - p4["crank.phi"][i])) end
tap.ok(dlg < 0.01, string.format("C002-3: Lagrange and penalty joints agree within %.1e rad over the steady cycle", dlg))
tap.ok(lg["B.violation"]:max() < 1e-4, "C002-3: the Lagrange joint holds (Baumgarte)")

-- C000-9: the peak static friction is smaller with the flexible slider than with a nearly
-- rigid one (the peaks come with the first impacts: 20 s)
T = 20
local stiff = crank({ E = 1e6 }, { "slider.ft", "crank.phi" })
local function peak(run, upto)
  local m = 0
  for i = 1, upto do m = math.max(m, math.abs(run["slider.ft"][i])) end
  return m
end
local pf, ps = peak(p4, #stiff), peak(stiff, #stiff)
tap.ok(pf < ps, string.format("C000-9: peak friction %.2f N (E = 1000 Pa) < %.2f N (E = 1e6 Pa)", pf, ps))

-- A steel slider (E = 207 GPa; Rayleigh beta 1e-6 s, a damping ratio of 1.4 at its highest
-- mode near 2.8e6 rad/s; the paper's 0.544 s is meant for 1000 Pa) runs with BDF as the
-- soft ones do, and moves as the nearly rigid slider of E = 1e6 Pa: within 2e-3 rad over the
-- 20 s of impacts (4.7e-4 measured; the two sliders differ by their elasticity)
local steel = crank({ E = 207e9, beta = 1e-6 }, { "crank.phi" })
local dsteel = 0
for i = 1, #stiff do dsteel = math.max(dsteel, math.abs(steel["crank.phi"][i] - stiff["crank.phi"][i])) end
tap.ok(steel.ok and #steel == #stiff and dsteel < 2e-3,
  string.format("a steel slider follows the nearly rigid one within %.1e rad (%d BDF steps)", dsteel, steel.stats.steps))

-- ---- the oscillator's slider from gmsh files (scripts/spec000_gmsh.lua) ------------------
do
  local source = os.getenv("MECHLUA_SOURCE") or ((arg[0]:match("^(.*)/") or ".") .. "/../..")
  local quad = mech.mesh.read(source .. "/scripts/data/spec000_slider_quad.msh")
  local tri = mech.mesh.read(source .. "/scripts/data/spec000_slider_tri.msh")
  local _, rect_slider = spec000.oscillator{}
  local qsys, quad_slider = spec000.oscillator{ mesh = quad }
  -- the same 36 nodes in another order: the same stiffness and lumped mass, so the same
  -- natural frequencies to round-off (1e-9 relative; the lowest three are the rigid modes)
  local wr = rect_slider:frequencies{ n = 12 }
  local wq = quad_slider:frequencies{ n = 12 }
  local dw = 0
  for i = 4, 12 do dw = math.max(dw, math.abs(wq[i] - wr[i]) / wr[i]) end
  tap.ok(#quad.nodes == 36 and dw < 1e-9,
    string.format("gmsh 5 x 5 quadrangles: the mesher's frequencies to %.1e (relative)", dw))
  -- and the same motion: 4 s, the first slip and stick; the runs differ by BDF's own
  -- choices (rtol 1e-6), not by the model
  local rec = { "slider.vx", "slider.ft" }
  local function go(sys)
    return sys:simulate{ t = 4, report = 2e-3, method = "bdf", rtol = 1e-6, atol = 1e-9, record = rec }
  end
  local rr, rq = go(spec000.oscillator{}), go(qsys)
  local dv = 0
  for i = 1, #rr do dv = math.max(dv, math.abs(rr["slider.vx"][i] - rq["slider.vx"][i])) end
  tap.ok(dv < 1e-4 and rr["slider.vx"]:max() > 0.5,
    string.format("gmsh quadrangles: the slider's x velocity within %.1e m/s of the mesher's", dv))
  -- the triangles: another discretisation, the same stick-slip to a percent of the peak speed
  local rt = go(spec000.oscillator{ mesh = tri })
  local dt = 0
  for i = 1, #rr do dt = math.max(dt, math.abs(rr["slider.vx"][i] - rt["slider.vx"][i])) end
  tap.ok(dt < 0.01 * rr["slider.vx"]:max(),
    string.format("gmsh triangles (%d nodes): x velocity within %.1e m/s of the quadrilaterals'", #tri.nodes, dt))
  tap.raises(function() spec000.oscillator{ mesh = mech.mesh.rectangle{ size = { 0.5, 0.5 } } } end,
    "spec000.oscillator: field 'mesh' spans [0, 0.5] x [0, 0.5] m; expected [0, 0.6] x [0, 0.5]",
    "a mesh of another size is refused")
  tap.raises(function() spec000.oscillator{ mesh = "slider.msh" } end,
    "spec000.oscillator: field 'mesh' must be a mesh table (got string)", "a mesh must be a mesh table")
end

tap.done()
