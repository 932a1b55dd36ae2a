-- SPDX-License-Identifier: MIT
-- [Wang et al. 2025] (paper 003 of mechlua-references(7)): a crank-slider driven at constant
-- speed whose slider, a box, moves in a rectangular channel with clearance in both lateral
-- directions, so that it shifts, rolls, pitches and yaws and touches the channel at corners,
-- along edges or over faces.  The paper's studies:
--
--   S1  20 rpm, clearance 0.1 and 0.5 mm (its Tab. 3 material): the slider's displacement and
--       acceleration against the ideal mechanism, with zooms at 4.26 s and 4.95 s
--   S2  0.1 mm at 20, 50, 100 and 180 rpm, an aluminium slider in a steel guide
--   S3  20 rpm, 0.1 mm, an aluminium guide with a slider of steel, nodular cast iron, copper,
--       aluminium
--   P1  Poincare maps at 50 rpm, 0.1 and 0.5 mm, aluminium on aluminium: the slider's lateral
--       offset x against its velocity, once a revolution
--   P2  0.5 mm at 50, 100, 200, 500 rpm, aluminium on aluminium: the offsets x against z
--   P3  0.5 mm at 50 rpm, an aluminium guide with a slider of nodular cast iron, copper, steel
--   F9  a single impact at 1 m/s on a side wall in four poses (roll, yaw) = (0, 0.3), (0, 1.5),
--       (0.3, 1.5), (1.5, 1.5) degrees: the variable (area) stiffness against the constant one
--
--   mechlua scripts/spec003.lua [output-folder] [quick]     (default folder: out)
--   mpirun -n 2 mechlua scripts/spec003.lua [output-folder]
--
-- The runs are cases of a sweep (mechlua-sweep(3)): as many at a time as the machine has cores,
-- or shared among the ranks under mpirun, the first printing and drawing; a rerun takes finished
-- cases from <output-folder>/spec003/cases.  "quick" (for the tests) runs 18 of the 34: S1 for
-- one revolution and a half (to 4.5 s, past the paper's 4.26 s), S2 at 20 and 180 rpm for 1.2
-- revolutions, the Poincare maps P1 (with and without gravity), P2 at 500 rpm and P3 with steel
-- for 3 revolutions after 1,
-- and F9, recording less often.  Writes into
-- <output-folder>/spec003/: a CSV per case (the recorded channels, the parameters in the
-- header), summary.csv (a row per case) and the figures spec003_s1, _s2, _s3, _poincare,
-- _poincare_g0 and _impacts (.png and .pdf).  The summary printed puts
-- the paper's numbers beside the computed ones.
--
-- The model is the spec003 module's (mechlua-spatial(3), MODULE spec003); what the paper leaves
-- open, and this script's choices:
--   layout      the mechanism's plane horizontal, gravity along -z onto the channel's floor;
--               revolute ground-crank (driven from t = 0), spherical crank-rod, revolute rod-slider
--               about z at the slider's centre; the crank along +y at t = 0 (the slider at its
--               furthest, 0.17 m), every velocity the ideal mechanism's, the slider centred
--   sizes       the slider 30 x 15 x 15 mm, 0.019 kg; the channel 15 mm + 2 C wide and high;
--               the inertias of uniform bars and box (its Tab. 2's are about another point)
--   materials   S1: its Tab. 3 (E 72 GPa, nu 0.37 for both bodies, mu 0.17); the others its
--               Tab. 4 and, for the friction, the kinetic coefficient of its Tab. 5
--   contact     the corners' law (the paper's "mode A" for point contact, Eqs. 23-24): each
--               slider corner against each wall with Hertz's law, K from the materials for a
--               corner radius of 1 mm, and Lankarani-Nikravesh damping with restitution 0.58
--               (its Tab. 3); the area laws (Eqs. 18-22) only in F9.  Why: with the area laws,
--               F = k delta with k of 1e9 N/m, a slider resting on the floor sinks 1e-10 m, where
--               the Lankarani-Nikravesh factor (damping proportional to the depth) leaves it
--               undamped, and it chatters: the constant law made 20 629 impacts in 1 s at 50 rpm
--               and took 40 s of computing per second of motion, against 0.4 s for the corners'
--               law ("area", "patch" or "constant" last on the command line: mechlua
--               scripts/spec003.lua out full area, for the patient)
--   friction    the modified Coulomb law of Eqs. 25-26 (mech.friction.ambrosio) with
--               v0 = 1e-4 m/s, v1 = 2e-4 m/s (the paper gives neither)
--   F9          the slider's turning held, aluminium on aluminium, elastic laws, the "constant"
--               law Eq. 19 with 2d = 15 mm, the slider's face
--   integrator  DOPRI5 with located contact onsets, rtol 1e-7 (its Tab. 3's tolerance)
--   acceleration  the paper reports every 1e-3 s; what it calls the largest fluctuation is read
--               here from the acceleration averaged over each 1e-3 s (the velocity's change over
--               1e-3 s), beside the largest instantaneous value, which contact spikes decide;
--               the ratio r is that over the ideal mechanism's largest acceleration (the
--               paper's denominators: 0.1236 m/s^2 at 20 rpm, 10.03 m/s^2 at 180 rpm)
--   Poincare    the slider's centre sampled when the crank is at 0 (mod 2 pi); the scatter is
--               the points' RMS distance from their mean (spec003.spread) and the area of their
--               convex hull (spec003.hull_area), in units of C (x, z) or of C and C omega (x, x');
--               the maps are drawn twice, with gravity pressing the slider onto the floor and
--               without gravity (as in a vertical mechanism): the paper does not say where it
--               points, and it decides whether the slider rattles (spec003_poincare_g0)
local sweep = require "sweep"
local spec003 = require "spec003"
local plot = require "plot"
local output = require "output"

-- a last argument "area", "patch" or "constant" chooses that law for the mechanism's runs
local stiffness, args = "corners", arg
if arg then
  local last = arg[#arg]
  if #arg >= 2 and (last == "area" or last == "patch" or last == "constant") then
    stiffness, args = last, { [0] = arg[0], table.unpack(arg, 1, #arg - 1) }
    if args[2] == "full" then args[2] = nil end
  end
end
local outdir, quick = require("options").script_args(args)

local fmt = string.format
local p = {
  method = "dopri5", rtol = 1e-7, atol = 1e-10, stiffness = stiffness,
  report = quick and 2e-4 or 2e-5, -- s, the S runs
  samples = 40,                     -- rows a revolution in the Poincare runs
  revs = quick and 3 or 100,        -- Poincare revolutions sampled
  discard = quick and 1 or 5,       -- and discarded before
}
local TABLE3 = { E = spec003.TABLE3.E, nu = spec003.TABLE3.nu }

-- the cases: id, study, rpm, clearance [m], guide, slider, and the revolutions simulated
local cases = {}
local function add(c) cases[#cases + 1] = c end
local srevs = quick and 1.5 or 2
add{ id = "S1_0.1", study = "S1", rpm = 20, C = 0.1e-3, guide = "table3", slider = "table3", revs = srevs }
add{ id = "S1_0.5", study = "S1", rpm = 20, C = 0.5e-3, guide = "table3", slider = "table3", revs = srevs }
for _, rpm in ipairs{ 20, 50, 100, 180 } do
  add{ id = "S2_" .. rpm, study = "S2", rpm = rpm, C = 0.1e-3, guide = "steel", slider = "aluminium",
    revs = quick and 1.2 or 3 }
end
for _, m in ipairs{ "steel", "nodular_cast_iron", "copper", "aluminium" } do
  add{ id = "S3_" .. m, study = "S3", rpm = 20, C = 0.1e-3, guide = "aluminium", slider = m, revs = srevs }
end
local prevs = p.revs + p.discard
-- the Poincare maps, with gravity onto the channel's floor and, since the paper does not say where
-- gravity points, without it (suffix _g0: the slider pressed onto no face, as in a vertical
-- mechanism whose slider travels up and down)
for _, g0 in ipairs{ false, true } do
  local sfx, gravity = g0 and "_g0" or "", g0 and 0 or nil
  add{ id = "P1_0.1" .. sfx, study = "P1", rpm = 50, C = 0.1e-3, guide = "aluminium", slider = "aluminium", revs = prevs,
    gravity = gravity }
  add{ id = "P1_0.5" .. sfx, study = "P1", rpm = 50, C = 0.5e-3, guide = "aluminium", slider = "aluminium", revs = prevs,
    gravity = gravity }
  for _, rpm in ipairs{ 100, 200, 500 } do
    add{ id = "P2_" .. rpm .. sfx, study = "P2", rpm = rpm, C = 0.5e-3, guide = "aluminium", slider = "aluminium",
      revs = prevs, gravity = gravity }
  end
  for _, m in ipairs{ "nodular_cast_iron", "copper", "steel" } do
    add{ id = "P3_" .. m .. sfx, study = "P3", rpm = 50, C = 0.5e-3, guide = "aluminium", slider = m, revs = prevs,
      gravity = gravity }
  end
end
local POSES = { { 0, 0.3 }, { 0, 1.5 }, { 0.3, 1.5 }, { 1.5, 1.5 } }
for i, pose in ipairs(POSES) do
  for _, law in ipairs{ "area", "constant" } do
    add{ id = fmt("F9_%d_%s", i, law), study = "F9", roll = pose[1], yaw = pose[2], law = law, pose = i }
  end
end

if quick then -- the runs the tests read
  local keep, QUICK = {}, { ["S1_0.1"] = 1, ["S1_0.5"] = 1, S2_20 = 1, S2_180 = 1, ["P1_0.1"] = 1, ["P1_0.5"] = 1,
    P2_500 = 1, P3_steel = 1, ["P1_0.1_g0"] = 1, ["P1_0.5_g0"] = 1 }
  for _, c in ipairs(cases) do
    if QUICK[c.id] or c.study == "F9" then keep[#keep + 1] = c end
  end
  cases = keep
end

-- the ideal mechanism's largest acceleration at a speed (its closed form)
local function ideal_max(rpm)
  local m = -math.huge
  for i = 0, 3600 do
    local _, _, a = spec003.slider(60 / rpm * i / 3600, { rpm = rpm })
    m = math.max(m, a)
  end
  return m
end

local function mechanism(c)
  local o = { rpm = c.rpm, clearance = c.C, stiffness = p.stiffness, gravity = c.gravity }
  if c.guide == "table3" then
    o.guide, o.slider, o.mu, o.restitution = TABLE3, TABLE3, spec003.TABLE3.mu, spec003.TABLE3.restitution
  else
    o.guide, o.slider = c.guide, c.slider
  end
  return spec003.model(o)
end

local function params_of(c)
  local params = {}
  for k, v in pairs(c) do params[k] = v end
  for k, v in pairs(p) do params[k] = v end
  return params
end

-- an S run: the slider's motion against the ideal one, over the revolutions after the first
local function s_case(c, dir)
  local per = 60 / c.rpm
  local T = c.revs * per
  local sys = mechanism(c)
  local run = sys:simulate{ t = T, report = p.report, method = p.method, rtol = p.rtol, atol = p.atol,
    record = { "slider.y", "slider.vy", "slider.ay", "guide.x", "guide.z", "guide.roll", "guide.pitch",
      "guide.yaw", "guide.impacts" }, params = params_of(c) }
  local t, y, vy, ay = run.t, run["slider.y"], run["slider.vy"], run["slider.ay"]
  local n, k = #run, math.floor(1e-3 / p.report + 0.5)
  local s = { t = {}, y = {}, dy = {}, a = {}, abar = {}, aid = {} }
  local out = { peak = 0, peak_ms = 0, dy = 0, impacts = run["guide.impacts"][n], steps = run.stats.steps }
  local from = c.study == "S2" and per or T - per -- S2: after a settling revolution; else the last one
  for i = 1, n do
    local yi, _, ai = spec003.slider(t[i], { rpm = c.rpm })
    s.t[i], s.y[i], s.dy[i], s.a[i], s.aid[i] = t[i], y[i], y[i] - yi, ay[i], ai
    -- the acceleration averaged over the paper's output step, centred
    local lo, hi = math.max(1, i - k // 2), math.min(n, i + k - k // 2)
    s.abar[i] = (vy[hi] - vy[lo]) / (t[hi] - t[lo])
    if t[i] >= from - 1e-9 then
      out.peak = math.max(out.peak, math.abs(ay[i]))
      out.peak_ms = math.max(out.peak_ms, math.abs(s.abar[i]))
      out.dy = math.max(out.dy, math.abs(y[i] - yi))
    end
  end
  out.ideal = ideal_max(c.rpm)
  out.ratio = out.peak_ms / out.ideal
  out.max_x, out.max_pitch = run["guide.x"]:max() - run["guide.x"]:min(), run["guide.pitch"]:max()
  out.files = { run:csv(dir .. "/" .. c.id .. ".csv"), sweep.write(dir .. "/series", s) }
  return out
end

-- a Poincare run: the slider's centre (x, z, x') once a revolution, the first ones discarded
local function p_case(c, dir)
  local per = 60 / c.rpm
  local sys = mechanism(c)
  local run = sys:simulate{ t = c.revs * per, report = per / p.samples, method = p.method, rtol = p.rtol,
    atol = p.atol, record = { "guide.x", "guide.z", "slider.vx", "guide.impacts" }, params = params_of(c) }
  local x, z, vx = run["guide.x"], run["guide.z"], run["slider.vx"]
  local s = { x = {}, z = {}, vx = {} }
  for r = p.discard, c.revs do
    local i = r * p.samples + 1
    s.x[#s.x + 1], s.z[#s.z + 1], s.vx[#s.vx + 1] = x[i], z[i], vx[i]
  end
  local w = c.rpm * math.pi / 30
  local out = { points = #s.x, impacts = run["guide.impacts"][#run], steps = run.stats.steps,
    scatter_xz = spec003.hull_area(s.x, s.z, c.C, c.C), scatter_xv = spec003.hull_area(s.x, s.vx, c.C, c.C * w),
    spread_xz = spec003.spread(s.x, s.z, c.C, c.C), spread_xv = spec003.spread(s.x, s.vx, c.C, c.C * w) }
  out.files = { run:csv(dir .. "/" .. c.id .. ".csv"), sweep.write(dir .. "/series", s) }
  return out
end

-- a single impact (Fig. 9): the force, its peak and how long it acts
local function f_case(c, dir)
  local sys = spec003.impact{ roll = c.roll, yaw = c.yaw, stiffness = c.law }
  local run = sys:simulate{ t = 6e-5, report = 1e-8, method = "dopri5", rtol = 1e-11, atol = 1e-16,
    record = { "guide.xpos_fn", "guide.xpos_stiffness", "slider.vx" }, params = params_of(c) }
  local t, fn = run.t, run["guide.xpos_fn"]
  local t0, t1
  for i = 2, #run do
    if fn[i] > 0 and fn[i - 1] == 0 and not t0 then t0 = t[i - 1] end
    if fn[i] == 0 and fn[i - 1] > 0 then t1 = t[i] end
  end
  local s = { t = {}, fn = {} }
  for i = 1, #run, 10 do s.t[#s.t + 1], s.fn[#s.fn + 1] = t[i] * 1e6, fn[i] end
  return { peak = fn:max(), duration = (t1 or t[#run]) - (t0 or 0), kmax = run["guide.xpos_stiffness"]:max(),
    rebound = -run["slider.vx"][#run], files = { sweep.write(dir .. "/series", s) } }
end

local function case(c, dir)
  if c.study == "F9" then return f_case(c, dir) end
  if c.study:sub(1, 1) == "P" then return p_case(c, dir) end
  return s_case(c, dir)
end

mech.mkdir(outdir)
local folder = outdir .. "/spec003"
mech.mkdir(folder)
local res = sweep.run{ sweep.list(cases), case = case, folder = folder, params = p, name = "spec003" }
if not sweep.leader() then return end

local by, series = {}, {}
for i = 1, #res do
  local r = res[i]
  if r.status ~= "ok" then
    error(fmt("spec003: case %s %s: %s (its folder: %s)", r.id, r.status, tostring(r.message), r.dir))
  end
  by[r.id] = r
  series[r.id] = sweep.read(r.files[#r.files])
end

-- ---- the summary -----------------------------------------------------------------------
print(fmt("mechlua %s: the crank-slider of [Wang et al. 2025] with a clearance in the slider's channel%s",
  mech.version, quick and " (quick)" or ""))
print(fmt("  %s law, DOPRI5 rtol %g with located contact onsets", p.stiffness, p.rtol))
local _, _, a426 = spec003.slider(4.26, { rpm = 20 })
local _, _, a495 = spec003.slider(4.95, { rpm = 20 })
print(fmt("  ideal mechanism: a(4.26 s) = %.4f, a(4.95 s) = %.4f m/s^2 at 20 rpm (paper: 0.1236, 0.1190); "
  .. "largest %.4f at 20 rpm, %.2f at 180 rpm (paper: 0.1238, 10.03)", a426, a495, ideal_max(20), ideal_max(180)))
print("  run                   rpm   C [mm]  peak |a| [m/s^2]  1-ms peak  ratio r  paper r   max |y - y_ideal|"
  .. "   impacts    steps")
local PAPER = { ["S1_0.1"] = 1.54, ["S1_0.5"] = 3.47, S2_20 = 1.54, S2_180 = 2.37 }
for _, c in ipairs(cases) do
  local r = by[c.id]
  if c.study:sub(1, 1) == "S" then
    print(fmt("  %-20s %4d   %5.1f  %16.4g  %9.4g  %7.2f  %7s   %14.3g m   %7d  %7d", c.id, c.rpm, c.C * 1e3, r.peak,
      r.peak_ms, r.ratio, PAPER[c.id] and fmt("%.2f", PAPER[c.id]) or "", r.dy, r.impacts, r.steps))
  end
end
print("  Poincare map         rpm   C [mm]   points   spread (x, z)  (x, x')   hull area (x, z)  (x, x')   impacts     steps")
for _, c in ipairs(cases) do
  local r = by[c.id]
  if c.study:sub(1, 1) == "P" then
    print(fmt("  %-20s %4d   %5.1f   %6d   %13.3g %8.3g   %16.3g %8.3g   %7d   %7d", c.id, c.rpm, c.C * 1e3, r.points,
      r.spread_xz, r.spread_xv, r.scatter_xz, r.scatter_xv, r.impacts, r.steps))
  end
end
print("  single impact (roll, yaw) [deg]   area: peak [N]  contact [us]   constant: peak [N]  contact [us]")
for i, pose in ipairs(POSES) do
  local a, k = by[fmt("F9_%d_area", i)], by[fmt("F9_%d_constant", i)]
  print(fmt("  (%.1f, %.1f)                      %14.1f  %12.2f   %18.1f  %12.2f", pose[1], pose[2], a.peak,
    a.duration * 1e6, k.peak, k.duration * 1e6))
end

-- summary.csv: a row per case
local names = { "case_index", "rpm", "clearance", "peak_acc", "peak_acc_1ms", "ideal_max", "ratio", "max_dy",
  "scatter_xz", "scatter_xv", "impact_peak", "impact_duration", "impacts", "steps" }
local cols = {}
for k = 1, #names do cols[k] = {} end
for i, c in ipairs(cases) do
  local r = by[c.id]
  local row = { i, c.rpm or 0, c.C or 0, r.peak or 0, r.peak_ms or 0, r.ideal or 0, r.ratio or 0, r.dy or 0,
    r.scatter_xz or 0, r.scatter_xv or 0, c.study == "F9" and r.peak or 0, r.duration or 0, r.impacts or 0,
    r.steps or 0 }
  for k = 1, #names do cols[k][i] = row[k] end
end
local ids = {}
for i, c in ipairs(cases) do ids[i] = c.id end
output.csv(folder .. "/summary.csv", names, cols, { "case_index: 1 to " .. #cases .. " for " .. table.concat(ids, ", "),
  fmt("%s law, %s rtol %g atol %g; S report %g s; Poincare: %d revolutions after %d, %d rows a revolution",
    p.stiffness, p.method, p.rtol, p.atol, p.report, p.revs, p.discard, p.samples) })

-- the paper's claims on these numbers
local function claim(id, holds, text)
  print(fmt("  %s %s: %s", id, holds and "holds" or "DOES NOT HOLD", text))
end
local function band(r, paper) return r >= 0.5 * paper and r <= 1.5 * paper end
print("  the paper's claims:")
local s1, s5 = by["S1_0.1"], by["S1_0.5"]
claim("C003-0a", math.abs(a426 - 0.1236) <= 1e-4 and math.abs(a495 - 0.1190) <= 1e-4,
  fmt("ideal a(4.26 s) = %.4f, a(4.95 s) = %.4f m/s^2", a426, a495))
claim("C003-1/2", s5.dy > s1.dy, fmt("the displacement departs from the ideal by %.3g m (0.1 mm), %.3g m (0.5 mm)",
  s1.dy, s5.dy))
claim("C003-3", s5.ratio > s1.ratio and s5.peak > s1.peak, fmt("the acceleration's fluctuation grows with the "
  .. "clearance: r %.2f (0.1 mm), %.2f (0.5 mm)", s1.ratio, s5.ratio))
claim("C003-4", band(s1.ratio, 1.54), fmt("0.1 mm, 20 rpm: r %.2f, the paper 1.54 (+-50 %%)", s1.ratio))
claim("C003-5", band(s5.ratio, 3.47), fmt("0.5 mm, 20 rpm: r %.2f, the paper 3.47 (+-50 %%)", s5.ratio))
local r20, r180 = by.S2_20.ratio, by.S2_180.ratio
claim("C003-6", r180 > r20 and band(r180, 2.37), fmt("0.1 mm: r %.2f at 180 rpm above %.2f at 20 rpm; the paper "
  .. "2.37 at 180 rpm (+-50 %%)", r180, r20))
local function sc(id, f) return by[id] and by[id][f or "spread_xz"] or 0 / 0 end -- NaN: not run (quick)
-- a map whose points lie within 1e-3 C of their mean (spread below 1e-3) is a periodic motion's:
-- no ordering is read from two of them
local SPREAD = 1e-3
local function more(a, b) return a > SPREAD and a > b end
local function g(x) return x == x and fmt("%.3g", x) or "(not run)" end
for _, sfx in ipairs{ "", "_g0" } do
  local function v(id, f) return sc(id .. sfx, f) end
  print(sfx == "" and "  Poincare maps with gravity onto the floor:" or "  Poincare maps without gravity:")
  claim("C003-8", more(v("P1_0.5", "spread_xv"), v("P1_0.1", "spread_xv")), fmt("50 rpm: 0.5 mm more scattered than "
    .. "0.1 mm (x, x'): %s against %s", g(v("P1_0.5", "spread_xv")), g(v("P1_0.1", "spread_xv"))))
  claim("C003-9", more(v("P1_0.5", "spread_xv"), v("P2_500", "spread_xv")), fmt("0.5 mm: less scattered at 500 than at "
    .. "50 rpm (x, x'): %s at 50, 100, 200, 500 rpm (x, z: %s)", table.concat({ g(v("P1_0.5", "spread_xv")),
      g(v("P2_100", "spread_xv")), g(v("P2_200", "spread_xv")), g(v("P2_500", "spread_xv")) }, ", "),
    table.concat({ g(v("P1_0.5")), g(v("P2_100")), g(v("P2_200")), g(v("P2_500")) }, ", ")))
  claim("C003-10", more(v("P1_0.5", "spread_xv"), v("P3_steel", "spread_xv")), fmt("50 rpm, 0.5 mm: aluminium-steel "
    .. "(mu 0.47) less scattered than aluminium-aluminium (mu 0.14) (x, x'): %s against %s (copper %s, cast iron %s)",
    g(v("P3_steel", "spread_xv")), g(v("P1_0.5", "spread_xv")), g(v("P3_copper", "spread_xv")),
    g(v("P3_nodular_cast_iron", "spread_xv"))))
end
local lower, longer = true, true
for i = 1, #POSES do
  local a, k = by[fmt("F9_%d_area", i)], by[fmt("F9_%d_constant", i)]
  lower, longer = lower and a.peak < k.peak, longer and a.duration > k.duration
end
print(fmt("  (a spread below %g is a periodic motion's: C003-8 to C003-10 need the larger one above it)", SPREAD))
claim("C003-11", lower and longer, "the variable stiffness gives a lower peak and a longer contact in the four poses")

-- ---- the figures -------------------------------------------------------------------------
spec003_study = { p = p, cases = by, series = series, folder = folder, list = cases } -- for the tests
local figures = {}
-- S1: displacement and acceleration against the ideal, with zooms at the paper's instants
local f1 = plot.figure{ rows = 2, cols = 2, width = 180, height = 140,
  title = "S1: 20 rpm, the slider against the ideal mechanism" }
for j, id in ipairs{ "S1_0.1", "S1_0.5" } do
  local s = series[id]
  local ideal = {}
  for i = 1, #s.t do ideal[i] = spec003.slider(s.t[i], { rpm = 20 }) end
  local ymax = 0.17
  f1:panel(1, j):line{ x = s.t, y = s.y, color = 2, label = "clearance" }
    :line{ x = s.t, y = ideal, color = 1, width = 1, style = "dashed", label = "ideal" }
    :set{ title = fmt("displacement, C = %s mm", id:sub(4)), xlabel = "time [s]", ylabel = "y [m]",
      legend = "lower right", ylim = { 0.085, 0.2 } }
    :inset{ at = { 0.3, 0.62, 0.36, 0.33 }, xlim = { 2.8, 3.2 }, ylim = { ymax - 4 * by[id].dy, ymax + by[id].dy } }
  local tz = id == "S1_0.1" and 4.26 or 4.95
  local ax = f1:panel(2, j):line{ x = s.t, y = s.a, color = "lightgray", width = 0.3, label = "instantaneous" }
    :line{ x = s.t, y = s.abar, color = 2, label = "1-ms mean" }
    :line{ x = s.t, y = s.aid, color = 1, width = 1, style = "dashed", label = "ideal" }
  local lim = 4 * by[id].peak_ms
  ax:set{ title = fmt("acceleration, C = %s mm", id:sub(4)), xlabel = "time [s]", ylabel = "a [m/s^2]",
    ylim = { -lim, lim }, legend = "lower left" }
  ax:inset{ at = { 0.6, 0.62, 0.36, 0.33 }, xlim = { tz - 0.1, tz + 0.1 }, ylim = { -0.3, 0.3 } }
end
output.figure(f1, folder, "spec003_s1", figures)
-- S2: the acceleration at four speeds, S3: four materials
local f2 = plot.figure{ rows = quick and 1 or 2, cols = 2, width = 180, height = quick and 75 or 140,
  title = "S2: the slider's acceleration at four speeds, C = 0.1 mm, aluminium in steel" }
local panel = 0
for _, rpm in ipairs{ 20, 50, 100, 180 } do
  local s = series["S2_" .. rpm]
  if not s then goto next end
  panel = panel + 1
  local j = panel
  local lim = 2 * by["S2_" .. rpm].peak_ms
  f2:panel(j):line{ x = s.t, y = s.abar, color = 2, label = "1-ms mean" }
    :line{ x = s.t, y = s.aid, color = 1, width = 1, style = "dashed", label = "ideal" }
    :set{ title = fmt("%d rpm", rpm), xlabel = "time [s]", ylabel = "a [m/s^2]", ylim = { -lim, lim },
      legend = j == 1 and "lower left" or nil }
  ::next::
end
output.figure(f2, folder, "spec003_s2", figures)
local MAT = { "steel", "nodular_cast_iron", "copper", "aluminium" }
if by.S3_steel then
  local f3 = plot.figure{ rows = 1, cols = 2, width = 180, height = 80,
    title = "S3: 20 rpm, C = 0.1 mm, sliders of four materials in an aluminium guide" }
  local lim3 = 0
  for _, m in ipairs(MAT) do lim3 = math.max(lim3, by["S3_" .. m].peak_ms) end
  for i, m in ipairs(MAT) do
    local s = series["S3_" .. m]
    f3:panel(1):line{ x = s.t, y = s.dy, color = i + 1, label = m:gsub("_", " ") }
    f3:panel(2):line{ x = s.t, y = s.abar, color = i + 1 }
  end
  f3:panel(1):set{ title = "displacement less the ideal", xlabel = "time [s]", ylabel = "y - y_ideal [m]",
    legend = "lower left" }
  f3:panel(2):set{ title = "acceleration (1-ms mean)", xlabel = "time [s]", ylabel = "a [m/s^2]",
    ylim = { -1.5 * lim3, 1.5 * lim3 } }
  output.figure(f3, folder, "spec003_s3", figures)
end
-- the Poincare maps, drawn over the channel's play (the centre's reach, +-C, dashed)
for _, sfx in ipairs{ "", "_g0" } do
local fp = plot.figure{ rows = 2, cols = quick and 3 or 5, width = quick and 160 or 250, height = 115,
  title = fmt("Poincare maps: the slider's centre once a revolution (%d revolutions after %d), %s", p.revs, p.discard,
    sfx == "" and "gravity onto the floor" or "without gravity") }
for _, c in ipairs(cases) do by[c.id].C = c.C end
local vlim = 1e-3 -- mm/s, at least
for _, id in ipairs{ "P1_0.1" .. sfx, "P1_0.5" .. sfx } do
  for _, v in ipairs(series[id] and series[id].vx or {}) do vlim = math.max(vlim, 1.2e3 * math.abs(v)) end
end
local function pmap(k, id, what, title)
  if not series[id] then return end
  local s, C = series[id], by[id].C * 1e3
  local x, y = {}, {}
  for i = 1, #s.x do x[i], y[i] = s.x[i] * 1e3, what == "xz" and s.z[i] * 1e3 or s.vx[i] * 1e3 end
  local ax = fp:panel(k)
  if what == "xz" then
    ax:line{ x = { -C, C, C, -C, -C }, y = { -C, -C, C, C, -C }, color = 1, width = 0.4, style = "dashed" }
  end
  ax:scatter{ x = x, y = y, color = 2, size = 1.5 }
    :set{ title = title, xlabel = "x [mm]", ylabel = what == "xz" and "z [mm]" or "x' [mm/s]",
      xlim = { -1.1 * C, 1.1 * C }, ylim = what == "xz" and { -1.1 * C, 1.1 * C } or { -vlim, vlim } }
end
local k = 0
for _, m in ipairs{ { "P1_0.1", "xv", "P1: 0.1 mm, 50 rpm" }, { "P1_0.5", "xv", "P1: 0.5 mm, 50 rpm" },
  { "P1_0.5", "xz", "P2: 50 rpm, Al-Al" }, { "P2_100", "xz", "P2: 100 rpm" }, { "P2_200", "xz", "P2: 200 rpm" },
  { "P2_500", "xz", "P2: 500 rpm" }, { "P3_nodular_cast_iron", "xz", "P3: Al-cast iron" },
  { "P3_copper", "xz", "P3: Al-copper" }, { "P3_steel", "xz", "P3: Al-steel" }, { "P1_0.1", "xz", "P1: 0.1 mm, 50 rpm" } } do
  if series[m[1] .. sfx] then
    k = k + 1
    pmap(k, m[1] .. sfx, m[2], m[3])
  end
end
output.figure(fp, folder, "spec003_poincare" .. sfx, figures)
end
-- the single impacts
local fi = plot.figure{ rows = 2, cols = 2, width = 180, height = 140,
  title = "A single impact at 1 m/s on a side wall: variable against constant stiffness" }
for i, pose in ipairs(POSES) do
  local a, k = series[fmt("F9_%d_area", i)], series[fmt("F9_%d_constant", i)]
  fi:panel(i):line{ x = a.t, y = a.fn, color = 2, label = "variable (area)" }
    :line{ x = k.t, y = k.fn, color = 1, style = "dashed", label = "constant" }
    :set{ title = fmt("roll %.1f, yaw %.1f deg", pose[1], pose[2]), xlabel = "time [us]", ylabel = "F_N [N]",
      legend = "upper right" }
end
output.figure(fi, folder, "spec003_impacts", figures)
-- full mode: one revolution of S2's mechanism at 180 rpm as an animation 20 times slower than
-- real time, from above and from the side (a run of its own: the cases ran in the study's workers)
if not quick then
  local c = { rpm = 180, C = 0.1e-3, guide = "steel", slider = "aluminium" }
  local arun = mechanism(c):simulate{ t = 60 / c.rpm, report = 1e-4, method = p.method, rtol = p.rtol,
    atol = p.atol, motion = 0.0025, record = { "slider.ay" }, quiet = true }
  output.animation(arun, folder, "spec003", { fps = 20, speed = 0.05, view = { "xy", "xz" },
    channel = "slider.ay", title = "Box slider in its channel, 180 rpm" }, figures)
end
print("  results: " .. folder .. "/summary.csv and a CSV per case")
print("  figures: " .. table.concat(figures, ", "))
