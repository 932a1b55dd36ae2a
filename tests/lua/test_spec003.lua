-- SPDX-License-Identifier: MIT
-- The claims of [Wang et al. 2025] (paper 003 of mechlua-references(7)): the crank-slider whose
-- box slider moves in a rectangular channel with clearance.  First the ideal mechanism (the
-- spec003 module's, simulated) against the closed form and the paper's numbers; then
-- scripts/spec003.lua in quick mode, here in this process (its cases in its sweep's worker
-- processes): its files, and the claims on its summary.  The sanitizer build checks the
-- ideal mechanism and the impacts only (the script's C paths are those of the joint's own
-- tests).
--
-- Claims this model does not reproduce (C003-4, 5, 10; 8 and 9 with gravity on the floor) are
-- reported with the reason; the tests assert what the model does instead, and the script's head
-- says more.
local tap = require "tap"
local spec003 = require "spec003"
local fmt = string.format

local sanitizer = package.preload.faultinject ~= nil

-- ---- C003-0a, C003-0b: the ideal mechanism -------------------------------------------------
local function ideal_range(rpm)
  local lo, hi = math.huge, -math.huge
  for i = 0, 36000 do
    local _, _, a = spec003.slider(60 / rpm * i / 36000, { rpm = rpm })
    lo, hi = math.min(lo, a), math.max(hi, a)
  end
  return lo, hi
end
do
  -- the closed form against the paper's numbers, to their last printed digit
  local _, _, a1 = spec003.slider(4.26, { rpm = 20 })
  local _, _, a2 = spec003.slider(4.95, { rpm = 20 })
  tap.near(a1, 0.1236, 1e-4, fmt("C003-0a: a_ideal(4.26 s) = %.5f m/s^2 at 20 rpm (0.1236)", a1))
  tap.near(a2, 0.1190, 1e-4, fmt("C003-0a: a_ideal(4.95 s) = %.5f m/s^2 (0.1190)", a2))
  local lo, hi = ideal_range(20)
  tap.ok(math.abs(lo + 0.2295) < 1e-4 and math.abs(hi - 0.1238) < 1e-4,
    fmt("C003-0a: a_ideal ranges over [%.5f, %.5f] m/s^2 ([-0.2295, 0.1238])", lo, hi))
  lo, hi = ideal_range(180)
  tap.ok(math.abs(lo + 18.59) < 1e-2 and math.abs(hi - 10.03) < 1e-2,
    fmt("C003-0b: at 180 rpm over [%.3f, %.3f] m/s^2 ([-18.59, 10.03])", lo, hi))
  -- the spatial mechanism simulated (revolute, spherical, universal, prismatic) against its
  -- closed form: DOPRI5 at rtol 1e-9 is within 1e-8 of the largest acceleration (measured 6e-9)
  for _, rpm in ipairs{ 20, 180 } do
    local T = rpm == 20 and 5 or 1 / 3
    local run = spec003.model{ rpm = rpm, clearance = false }:simulate{ t = T, report = 1e-3, method = "dopri5",
      rtol = 1e-9, atol = 1e-12, record = { "slider.y", "slider.ay", "slider.x", "slider.z" } }
    local dy, da, amax = 0, 0, 0
    for i = 1, #run do
      local y, _, a = spec003.slider(run.t[i], { rpm = rpm })
      dy, da = math.max(dy, math.abs(run["slider.y"][i] - y)), math.max(da, math.abs(run["slider.ay"][i] - a))
      amax = math.max(amax, math.abs(a))
    end
    tap.ok(da <= 1e-4 * amax and dy <= 1e-9, fmt("C003-0%s: the simulated ideal mechanism at %d rpm follows the "
      .. "closed form: acceleration within %.2g of its largest, position within %.2g m", rpm == 20 and "a" or "b",
      rpm, da / amax, dy))
    tap.ok(math.abs(run["slider.x"]:max()) < 1e-12 and math.abs(run["slider.z"]:min()) < 1e-12,
      "and its slider stays on the travel's line")
  end
end

-- ---- the module's errors and the scatter measure -------------------------------------------
tap.raises(function() spec003.model{ clearance = -1 } end, "spec003.model: field 'clearance' must be a number > 0",
  "a negative clearance is refused, naming the field")
tap.raises(function() spec003.model{ guide = "cheese" } end, "field 'guide' must name one of mech.materials",
  "an unknown material is named")
tap.raises(function() spec003.model{ stiffness = "soft" } end, "spec003.model: field 'stiffness' must be "
  .. "\"corners\", \"area\", \"patch\" or \"constant\" (got soft)", "an unknown law is refused, by the module")
tap.raises(function() spec003.impact{ stiffness = 3 } end, "spec003.impact: field 'stiffness' must be",
  "and by the impact")
tap.raises(function() spec003.impact{ speed = 0 } end, "spec003.impact: field 'speed' must be > 0",
  "an impact needs a speed")
-- found by the fuzzer: errors that came from inside the module, or a silent NaN
tap.raises(function() spec003.hull_area(3, {}) end, "spec003.hull_area: arguments #1 and #2 (x, y) must be arrays",
  "hull_area: not arrays")
tap.raises(function() spec003.hull_area({ 1 }, { 2 }, 0) end, "argument #3 (sx) must be a finite number > 0 (got 0)",
  "hull_area: a zero scale")
tap.raises(function() spec003.spread({ 1, 0 / 0 }, { 2, 3 }) end, "spec003.spread: point 2", "spread: a NaN point")
local _, msg = pcall(function()
  local sys = spec003.model{ friction = "adams", mu = 0.5, mu_s = 0.1 }
  return sys
end)
tap.like(msg, "^[^:]*test_spec003%.lua:%d+: spec003%.model: field 'friction' %(adams%): mech%.friction%.adams: mu_s "
  .. "must be >= mu = 0%.5", "model: a friction law's error as the field's, at the caller's line")
tap.raises(function() spec003.model{ m_slider = {} } end, "field 'm_slider' must be a finite number (got table)",
  "model: a table for a number is named by its type")
tap.raises(function() spec003.impact{ yaw = 90 } end, "spec003.impact: roll 0 and yaw 90 degrees take the slider's "
  .. "corners 15 mm across", "impact: a pose that does not fit")
tap.is(spec003.hull_area({ 0, 1, 1, 0, 0.5, 0.2 }, { 0, 0, 1, 1, 0.5, 0.9 }), 1, "hull_area: a unit square with "
  .. "points inside")
tap.is(spec003.hull_area({ 0, 2, 0 }, { 0, 0, 2 }, 2, 1), 1, "hull_area: scaled")
tap.is(spec003.hull_area({ 1, 1, 1 }, { 1, 2, 3 }), 0, "hull_area: points on a line")
tap.near(spec003.spread({ 1, 1, 1, 1 }, { 0, 2, 0, 2 }, 1, 2), 0.5, 1e-15, "spread: the RMS distance from the mean, scaled")
tap.is(spec003.spread({ 3, 3 }, { 4, 4 }), 0, "spread: one point twice")

if sanitizer then
  -- C003-11 on the area law (its C test checks the patch law and the energy)
  local peak = {}
  for _, law in ipairs{ "area", "constant" } do
    local run = spec003.impact{ roll = 0.3, yaw = 1.5, stiffness = law }:simulate{ t = 8e-5, report = 1e-7,
      method = "dopri5", rtol = 1e-9, atol = 1e-14, record = { "guide.xpos_fn" } }
    peak[law] = run["guide.xpos_fn"]:max()
  end
  tap.ok(peak.area < 0.5 * peak.constant, fmt("C003-11 at (0.3, 1.5) deg: peak %.0f N against %.0f N", peak.area,
    peak.constant))
  tap.done()
end

-- ---- the script ----------------------------------------------------------------------------
local source = os.getenv("MECHLUA_SOURCE") or ((arg[0]:match("^(.*)/") or ".") .. "/../..")
local dir = os.tmpname()
os.remove(dir)
local ok, printed, err = tap.script(source .. "/scripts/spec003.lua", dir, "quick")
if not tap.ok(ok, "scripts/spec003.lua runs in quick mode") then
  tap.diag(err)
  tap.done()
end
local summary = table.concat(printed, "\n")
tap.diag(summary)
local study = spec003_study
local c, s = study.cases, study.series
local slurp = tap.slurp
for _, case in ipairs(study.list) do
  if case.study ~= "F9" then
    local csv = slurp(c[case.id].files[1]) or ""
    tap.ok(csv:match("^# mechlua ") and csv:find("\n# parameter id = " .. case.id .. "\n", 1, true)
      and csv:find("\n# parameter rtol = 1e-07\n", 1, true), "case " .. case.id .. ": its CSV with the program "
      .. "and the parameters")
  end
end
for _, fig in ipairs{ "s1", "s2", "poincare", "poincare_g0", "impacts" } do
  tap.ok((slurp(study.folder .. "/spec003_" .. fig .. ".png") or ""):match("^\x89PNG"), "figure " .. fig .. " as PNG")
end
tap.ok((slurp(study.folder .. "/summary.csv") or ""):match("\ncase_index,rpm,clearance,"), "the summary as CSV")
tap.like(summary, "C003%-11 holds", "the summary states the claims")

-- the slider stays in its channel: its centre within the clearance plus micrometres (the
-- contacts' depth; a corner's reach when it turns is more: 15 mm across times its turn)
for _, id in ipairs{ "S1_0.1", "S1_0.5" } do
  local run = c[id]
  tap.ok(run.max_x <= 2 * (id == "S1_0.1" and 0.1e-3 or 0.5e-3) * 1.05, fmt("%s: the slider's side-to-side "
    .. "travel %.4g mm within the channel's play", id, run.max_x * 1e3))
end

-- C003-1/2: the displacement hardly departs from the ideal, more with the larger clearance
local d1, d5 = c["S1_0.1"].dy, c["S1_0.5"].dy
tap.ok(d1 < 1e-3 * 0.08 and d5 > d1, fmt("C003-1/2: the displacement departs by %.3g m (0.1 mm) and %.3g m "
  .. "(0.5 mm) from the ideal's 80 mm stroke", d1, d5))
-- C003-3: the fluctuation grows with the clearance
local r1, r5 = c["S1_0.1"].ratio, c["S1_0.5"].ratio
tap.ok(r5 > r1 and c["S1_0.5"].peak > c["S1_0.1"].peak, fmt("C003-3: r %.2f at 0.5 mm above %.2f at 0.1 mm", r5, r1))
-- C003-4, 5: not reproduced (the script's head says why): the ratio is larger here.  Reported,
-- and the summary must put the paper's number beside ours.
tap.diag(fmt("C003-4, C003-5 not reproduced: r = %.2f at 0.1 mm (the paper 1.54 +-50 %%), %.2f at 0.5 mm "
  .. "(3.47 +-50 %%)", r1, r5))
tap.like(summary, "C003%-4 [^\n]*: r %d+%.%d+, the paper 1%.54", "the summary puts the paper's ratio beside ours")
-- C003-6: faster, a larger ratio; at 180 rpm within the paper's band
local r20, r180 = c.S2_20.ratio, c.S2_180.ratio
tap.ok(r180 > r20, fmt("C003-6: r %.2f at 180 rpm above %.2f at 20 rpm", r180, r20))
tap.ok(r180 > 1.19 and r180 < 3.56, fmt("C003-6: r %.2f at 180 rpm within the paper's 2.37 +-50 %%", r180))

-- C003-8 to C003-10: the scatter of the Poincare points (their RMS distance from the mean, in C)
local SPREAD = 1e-3
local function sc(id, f) return c[id][f or "spread_xz"] end
-- With gravity on the floor, at 50 rpm: the rod's lateral push (below 0.01 N) and the slider's
-- inertia (0.019 kg x 1.1 m/s^2) stay under the floor's friction (0.14 x 0.19 N), so the slider
-- never slides across and the maps are a periodic motion's (spreads of 1e-8 to 1e-5 C measured,
-- the threshold 1e-3 C).  So C003-8 to C003-10 do not hold with gravity (the full study shows
-- C003-8 and C003-9 without it).
for _, id in ipairs{ "P1_0.1", "P1_0.5", "P3_steel" } do
  tap.ok(sc(id, "spread_xv") < SPREAD and sc(id) < SPREAD, fmt("%s: periodic with gravity on the floor (spread %.2g, "
    .. "%.2g of C)", id, sc(id, "spread_xv"), sc(id)))
end
tap.like(summary, "Poincare maps without gravity:\n  C003%-8 ", "the summary checks the maps without gravity too")
for _, id in ipairs{ "P1_0.1", "P1_0.5", "P2_500", "P3_steel" } do
  tap.is(c[id].points, study.p.revs + 1, id .. ": a point per revolution after the discarded ones")
end

-- C003-11: the single impacts
for i = 1, 4 do
  local a, k = c[fmt("F9_%d_area", i)], c[fmt("F9_%d_constant", i)]
  tap.ok(a.peak < k.peak and a.duration > k.duration, fmt("C003-11 pose %d: variable %.0f N for %.1f us, constant "
    .. "%.0f N for %.1f us", i, a.peak, a.duration * 1e6, k.peak, k.duration * 1e6))
  -- elastic, the turning held: thrown back at the speed it came
  tap.near(a.rebound, 1, 1e-6, fmt("C003-11 pose %d: the slider thrown back at 1 m/s", i))
end
tap.done()
