-- SPDX-License-Identifier: MIT
-- The claims of [Sci. Rep. 2023] (paper 004 of mechlua-references(7)) that a simulation
-- can check, each named by its id (see CLAIM IDS there), on
-- scripts/spec004.lua run in quick mode (the model unchanged, fewer revolutions: one
-- discarded, one shown, three Poincare points; the rig's cases one revolution after one).
-- Short runs suffice for what is tested: the contact-law claims are single impacts; the
-- ideal and translational-only mechanisms are periodic from the first revolution on (their
-- section points agree to 1e-6 m/s), and the revolute clearances scatter the points by
-- 1e-2 m/s from the first ones; orderings between the cases are asserted only where they
-- are wide (a factor of 5 or more) or hold in every revolution (the peak ordering of the
-- rig's clearances).  The claims that need the 100-point sections of a full run, or that
-- the missing data decide, are listed at the end with the reason, and the full run's
-- numbers.
local tap = require "tap"

local source = os.getenv("MECHLUA_SOURCE") or ((arg[0]:match("^(.*)/") or ".") .. "/../..")
local script = source .. "/scripts/spec004.lua"
local dir = os.tmpname()
os.remove(dir)

-- The script, in this process: its summary is kept (not printed: TAP owns stdout) and what
-- its cases computed is in the global table spec004 (the runs themselves were in its sweeps'
-- worker processes).
local ok, printed, err = tap.script(script, dir, "quick")
do
  if not tap.ok(ok, "scripts/spec004.lua runs in quick mode") then
    tap.diag(err)
    tap.done()
  end
  -- the warnings given so far (lu_warn's set, in the registry), and those the script's cases
  -- gave in their workers (spec004.warnings): none
  local given = {}
  for message in pairs(debug.getregistry()["mechlua.warned"] or {}) do given[#given + 1] = message end
  for _, message in ipairs(spec004.warnings) do given[#given + 1] = message end
  tap.is(#given, 0, "scripts/spec004.lua gives no plausibility warning")
  for _, message in ipairs(given) do tap.diag(message) end
end
local summary = table.concat(printed, "\n")
local p = spec004.p
local c = p.clearance
local cases = {}
for _, cf in ipairs(spec004.configs) do cases[cf.key] = cf end
local ideal, trans, rev, mixed = cases.ideal, cases.translational, cases.revolute, cases.mixed

local slurp = tap.slurp

-- ---- the outputs -------------------------------------------------------------------------

tap.like(summary, "^mechlua " .. mech.version:gsub("%.", "%%.") .. ": %[Sci%. Rep%. 2023%]", "the summary names the version")
do
  local pngs, pdfs, bad = 0, 0, {}
  for _, f in ipairs(spec004.figures) do
    local s = slurp(f) or ""
    if f:match("%.png$") then
      pngs = pngs + 1
      if s:sub(1, 8) ~= "\137PNG\r\n\26\n" or s:sub(-8, -5) ~= "IEND" then bad[#bad + 1] = f end
    else
      pdfs = pdfs + 1
      if not (s:match("^%%PDF%-") and s:match("%%%%EOF%s*$")) then bad[#bad + 1] = f end
    end
  end
  tap.ok(pngs == pdfs and pngs >= 17, string.format("every figure in PNG and PDF (%d of each)", pngs))
  tap.is(#bad, 0, "every figure file is whole")
  if #bad > 0 then tap.diag(table.concat(bad, "\n")) end
  tap.like(summary, "\n  figures: [^\n]*" .. dir:gsub("%p", "%%%0") .. "/spec004_slider_acceleration%.png",
    "the summary names them")
end
do
  local csv = slurp(dir .. "/spec004_mixed.csv") or ""
  tap.like(csv, "\n# parameter configuration = mixed\n", "the CSV of each case gives its parameters")
  tap.like(csv, "\n# joint guide: prismatic, ground .- slider .-, axis %(1, 0%), clearance 0%.0005 m", "and the model")
  local rows = select(2, csv:gsub("\n%d", ""))
  -- one revolution at 150 rpm every 1e-5 s: 0.4 s / 1e-5 s + 1 rows
  tap.is(rows, 40001, "and the rows of the revolution shown, every 1e-5 s")
  local names = csv:match("\n(t %[s%],[^\n]*)")
  tap.like(names or "", "^t %[s%],angle %[deg%],crank%.phi %[rad%],slider%.x %[m%],slider%.vx %[m/s%],slider%.ax %[m/s%^2%],",
    "with named columns and units")
  local pc = slurp(dir .. "/spec004_revolute_poincare.csv") or ""
  tap.is(select(2, pc:gsub("\n%d", "")), p.sections, "the Poincare file has a row per section point")
end

-- ---- E1: the contact laws (C004-1, C004-1b, C004-2, C004-3) -------------------------------

local e1 = spec004.e1
local hg, ln = e1.hu_guo, e1.lankarani_nikravesh

-- The stiffness R15 by hand: 4 / (3 (s_i + s_j)) sqrt(Ri Rj / (Ri - Rj)), s = (1 - nu^2)/E,
-- aluminium alloy 71 GPa, 0.33; and R16 with the corner radius 1 mm.
do
  local s = (1 - 0.33 ^ 2) / 71e9
  local K = 4 / (3 * 2 * s) * math.sqrt(0.010 * 0.0095 / 0.0005)
  tap.near(e1.K, K, 1e-9 * K, string.format("R15: K of the 0.5 mm journal = %.6g N/m^1.5", K))
  tap.near(spec004.K_corner, 4 / (3 * 2 * s) * math.sqrt(1e-3), 1e-9 * K, "R16: K of a slider corner")
end

-- C004-1.  The rebound velocities differ by 0.013 at e = 0.9 (0.8999 and 0.9132) and the
-- deepest penetrations by 0.4%: "close" is asserted as within 0.02 and 2%.  At e = 0.4 the
-- modified law loses 0.428 J of the 0.5 J, Lankarani-Nikravesh 0.254: "clearly more" is
-- asserted as 1.5 times (the loop area is the energy lost: the ball starts and ends free).
tap.ok(math.abs(hg[0.9].e_eff - ln[0.9].e_eff) < 0.02 and math.abs(hg[0.9].d_max / ln[0.9].d_max - 1) < 0.02,
  string.format("C004-1: at e = 0.9 the two laws are close (rebound %.4f and %.4f, deepest %.2f and %.2f um)",
    hg[0.9].e_eff, ln[0.9].e_eff, hg[0.9].d_max * 1e6, ln[0.9].d_max * 1e6))
tap.ok(hg[0.4].loss > 1.5 * ln[0.4].loss, string.format("C004-1: at e = 0.4 the modified law's loop is larger "
  .. "(energy lost %.4f J against %.4f J)", hg[0.4].loss, ln[0.4].loss))

-- C004-1b, and the effective restitutions checked for this project (mechlua-contact(3),
-- ACCURACY OF THE RESTITUTION LAWS), given to three digits (0.0005) plus the integration
-- (rtol 1e-10): 0.001.
do
  local worst = 0
  for _, e in ipairs{ 0.4, 0.55, 0.6, 0.8, 0.9 } do worst = math.max(worst, math.abs(hg[e].e_eff - e)) end
  tap.ok(worst <= 0.04, string.format("C004-1b: the modified law rebounds within 0.04 of e for e in [0.4, 0.9] (worst %.4f)",
    worst))
  local table_ = { { hg, 0.2, 0.166 }, { hg, 0.4, 0.380 }, { hg, 0.55, 0.541 }, { hg, 0.9, 0.900 },
    { ln, 0.2, 0.672 }, { ln, 0.4, 0.702 }, { ln, 0.55, 0.740 }, { ln, 0.9, 0.913 } }
  local off = {}
  for _, r in ipairs(table_) do
    if math.abs(r[1][r[2]].e_eff - r[3]) > 0.001 then
      off[#off + 1] = string.format("%s e = %.2f: %.4f, table %.3f", r[1] == hg and "Hu-Guo" or "L-N", r[2], r[1][r[2]].e_eff, r[3])
    end
  end
  tap.is(#off, 0, "C004-1b: the effective restitutions of the check table, to its three digits")
  if #off > 0 then tap.diag(table.concat(off, "\n")) end
end

-- C004-2: as e rises (0.2, 0.4, 0.6, 0.8, 0.9, 1.0) compression lengthens, the deepest
-- penetration grows, restitution and the whole contact shorten, the loss falls.
do
  local es = { 0.2, 0.4, 0.6, 0.8, 0.9, 1.0 }
  local function monotone(key, sign)
    for k = 2, #es do
      local a, b = key(hg[es[k - 1]]), key(hg[es[k]])
      if not (sign * (b - a) > 0) then return false end
    end
    return true
  end
  tap.ok(monotone(function(r) return r.t_comp end, 1), "C004-2: the compression phase lengthens as e rises")
  tap.ok(monotone(function(r) return r.d_max end, 1), "C004-2: the deepest penetration grows")
  tap.ok(monotone(function(r) return r.t_rest end, -1), "C004-2: the restitution phase shortens")
  tap.ok(monotone(function(r) return r.t_comp + r.t_rest end, -1), "C004-2: the contact shortens")
  tap.ok(monotone(function(r) return r.loss end, -1), "C004-2: the energy lost falls")
  -- The independent check's numbers are for K = 1e9 N/m^1.5 (unit mass, 1 m/s, n = 1.5).  The
  -- impact m d'' = -F is self-similar: with F = K d^n f(d'/v0), d scales as (m v0^2/K)^(2/5)
  -- and t as d/v0, so our K gives his times and depths times (K/1e9)^(2/5) exactly (the
  -- floor v_min = 1e-4 m/s does not act at 1 m/s).  He gives three digits: 1% covers them.
  local scale = (e1.K / 1e9) ^ 0.4
  local want = { { 0.2, "t_comp", 283e-6 }, { 0.9, "t_comp", 394e-6 }, { 0.2, "t_rest", 1009e-6 },
    { 0.9, "t_rest", 424e-6 }, { 0.2, "d_max", 151e-6 }, { 0.9, "d_max", 263e-6 } }
  local off = {}
  for _, w in ipairs(want) do
    local got = hg[w[1]][w[2]] * scale
    if math.abs(got / w[3] - 1) > 0.01 then
      off[#off + 1] = string.format("%s at e = %.1f: %.4g, spec %.4g", w[2], w[1], got, w[3])
    end
  end
  local total02 = (hg[0.2].t_comp + hg[0.2].t_rest) * scale
  local total09 = (hg[0.9].t_comp + hg[0.9].t_rest) * scale
  if math.abs(total02 / 1292e-6 - 1) > 0.01 then off[#off + 1] = string.format("total at 0.2: %.4g", total02) end
  if math.abs(total09 / 818e-6 - 1) > 0.01 then off[#off + 1] = string.format("total at 0.9: %.4g", total09) end
  tap.is(#off, 0, "C004-2: the independent check's phase times and depths (K = 1e9), within 1%")
  if #off > 0 then tap.diag(table.concat(off, "\n")) end
end

-- C004-3: e = 1 is the Hertz law: no loss (the rebound equals the approach to the
-- integration tolerance, 1e-10 relative), compression and restitution last as long; e -> 0
-- gives unbounded damping: the law refuses e = 0, and at e = 0.01 the ball keeps almost
-- nothing (its own impact, here: 1 kg at 1 m/s on K = 1e9).
do
  local r = hg[1.0]
  tap.ok(math.abs(r.e_eff - 1) < 1e-7 and math.abs(r.t_comp / r.t_rest - 1) < 1e-5,
    string.format("C004-3: at e = 1 the modified law is Hertz's (rebound %.9f, phases %.3f and %.3f us)", r.e_eff,
      r.t_comp * 1e6, r.t_rest * 1e6))
  tap.raises(function() mech.contact.hu_guo{ K = 1e9, restitution = 0 } end, "restitution",
    "C004-3: e = 0 (infinite damping) is refused")
  local sys = mech.planar{}
  local ball = sys:body{ name = "ball", mass = 1, inertia = 1, at = { 0, 1e-7 }, velocity = { 0, -1 } }
  sys:contact{ ball, body_at = { 0, 0 }, surface = { at = { 0, 0 }, normal = { 0, 1 } }, name = "hit",
    law = mech.contact.hu_guo{ K = 1e9, restitution = 0.01 } }
  local run = sys:simulate{ t = 0.05, report = 1e-5, method = "dopri5", rtol = 1e-10, atol = 1e-15, quiet = true,
    record = { "ball.vy" } }
  local v = run["ball.vy"][#run]
  tap.ok(v >= 0 and v < 0.01, string.format("C004-3: at e = 0.01 the ball keeps %.4f of its speed", v))
end

-- ---- E3: the four configurations -------------------------------------------------------------

local s = {}
for k, cf in pairs(cases) do s[k] = cf.summary end

-- C004-11: the ideal slider pin runs over x in [L2 - L1, L2 + L1] = [0.391, 0.691] m.  The
-- window holds crank angles 0 and pi exactly (rows every 1e-5 s, T/2 = 0.2 s); BDF at rtol
-- 1e-8 and the Baumgarte drift (1e-8 m) keep the positions within 1e-7 m.
do
  local lo, hi = math.huge, -math.huge
  for _, x in ipairs(ideal.w["slider.x"]) do lo, hi = math.min(lo, x), math.max(hi, x) end
  tap.ok(math.abs(lo - 0.391) < 1e-7 and math.abs(hi - 0.691) < 1e-7,
    string.format("C004-11: the ideal slider pin runs over x = %.7f to %.7f m", lo, hi))
end

-- C004-10: the ideal mechanism is periodic: its section is one point.  The points can differ
-- only by the integration error and the constraint drift: 1e-5 m/s and 1e-3 m/s^2 are 20
-- and 100 times what they are.  The translational clearance alone keeps it periodic (the
-- slider stays on its bottom surface).
tap.ok(s.ideal.v_spread < 1e-5 and s.ideal.a_spread < 1e-3, string.format("C004-10: the ideal mechanism's section is "
  .. "one point (spread %.1e m/s, %.1e m/s^2)", s.ideal.v_spread, s.ideal.a_spread))
tap.ok(s.translational.v_spread < 1e-5 and s.translational.a_spread < 1e-3, string.format("C004-10: with the "
  .. "translational clearance alone too (%.1e m/s, %.1e m/s^2)", s.translational.v_spread, s.translational.a_spread))
-- The revolute clearances scatter the points: by more than 1e-3 m/s and 10 m/s^2, a
-- hundred times the integration's spread (the motion is not periodic).
for _, k in ipairs{ "revolute", "mixed" } do
  tap.ok(s[k].v_spread > 1e-3 and s[k].a_spread > 10, string.format("C004-10: %s: the section points scatter "
    .. "(spread %.2e m/s, %.1f m/s^2)", cases[k].label, s[k].v_spread, s[k].a_spread))
end

-- C004-6: displacement and velocity stay close to the ideal.  The slider can be off by the
-- two radial clearances along the rod (2c = 1 mm) plus the vertical play (3c) times the
-- rod's largest slope L1/sqrt(L2^2 - L1^2) = 0.29: 1.43 mm, 0.5% of the 0.3 m stroke;
-- 1.5 mm is asserted.  The translational clearance alone moves it by the slider's offset
-- times the slope (0.15 mm at most): 0.2 mm, and five times less than the revolute ones.
do
  local worst = math.max(s.translational.dx, s.revolute.dx, s.mixed.dx)
  tap.ok(worst < 1.5e-3, string.format("C004-6: every case's displacement is within 1.5 mm of the ideal (%.3f mm)",
    worst * 1e3))
  tap.ok(s.translational.dx < 0.2e-3 and s.translational.dx < s.revolute.dx / 5,
    string.format("C004-6: the translational clearance alone moves the slider least (%.3f mm; revolute %.3f mm)",
      s.translational.dx * 1e3, s.revolute.dx * 1e3))
  tap.ok(s.translational.dv < s.revolute.dv / 10 and s.translational.dv < s.mixed.dv / 10,
    string.format("C004-6, C004-15: the revolute clearances affect the velocity more (%.4f against %.4f, %.4f m/s)",
      s.translational.dv, s.revolute.dv, s.mixed.dv))
end

-- C004-7: acceleration, crank moment and joint forces.  Translational-only against ideal:
-- within 1% (the slider stays on its surface; measured 0.1%).  The revolute cases: peaks
-- more than 5 times the ideal's (measured 13 to 27 times).
do
  local close = math.abs(s.translational.a_peak / s.ideal.a_peak - 1) < 0.01
    and math.abs(s.translational.torque_peak / s.ideal.torque_peak - 1) < 0.01
  tap.ok(close, string.format("C004-7: translational clearance alone: peak acceleration %.2f and crank moment %.3f, "
    .. "the ideal's %.2f and %.3f", s.translational.a_peak, s.translational.torque_peak, s.ideal.a_peak,
    s.ideal.torque_peak))
  for _, k in ipairs{ "revolute", "mixed" } do
    local r = s[k]
    tap.ok(r.a_peak > 5 * s.ideal.a_peak and r.torque_peak > 5 * s.ideal.torque_peak
      and r.crank_pin_peak > 5 * s.ideal.crank_pin_peak and r.piston_pin_peak > 5 * s.ideal.piston_pin_peak,
      string.format("C004-7: %s: large peaks (acceleration %.0f, moment %.1f, forces %.0f and %.0f N; ideal %.1f, %.2f,"
        .. " %.1f, %.1f)", cases[k].label, r.a_peak, r.torque_peak, r.crank_pin_peak, r.piston_pin_peak,
        s.ideal.a_peak, s.ideal.torque_peak, s.ideal.crank_pin_peak, s.ideal.piston_pin_peak))
  end
end

-- C004-15: the response with three clearances is not the sum of the single ones: the
-- acceleration's departure from the ideal differs from the sum of the departures of the
-- revolute-only and translational-only cases by more than half its own size (rms over the
-- window).  A linear (superposable) system would give 0.
do
  local function at(cf, i) return cf.trace["slider.ax"]:at(mixed.w.t[i]) end
  local d2, m2 = 0, 0
  for i = 1, mixed.w.n do
    local a0 = at(ideal, i)
    local dm = mixed.w["slider.ax"][i] - a0
    local sum = (at(rev, i) - a0) + (at(trans, i) - a0)
    d2, m2 = d2 + (dm - sum) ^ 2, m2 + dm ^ 2
  end
  local ratio = math.sqrt(d2 / m2)
  tap.ok(ratio > 0.5, string.format("C004-15: three clearances are not the sum of the single ones (rms of the "
    .. "difference: %.2f of the departure)", ratio))
end

-- C004-11: collisions happen mostly at the bearing's left and right: while in contact the
-- journal is off-centre mostly along x (|ex| > |ey|), more than 60% of the time (a
-- direction spread evenly gives 50%; measured 73% to 86%).
for _, k in ipairs{ "revolute", "mixed" } do
  for _, j in ipairs{ "crank_pin", "piston_pin" } do
    local share = s[k][j .. "_along_x"]
    tap.ok(share > 0.6, string.format("C004-11: %s, %s: contact mostly at the left and right of the bearing (%.0f%%)",
      cases[k].label, j, 100 * share))
  end
end

-- C004-12: gravity keeps the slider mainly on the lower surface of its guide.
for _, k in ipairs{ "translational", "mixed" } do
  tap.ok(s[k].bottom_share > 0.5 and s[k].bottom_share > s[k].top_share, string.format("C004-12: %s: the slider lies "
    .. "on the lower surface %.0f%% of the time, on the upper %.0f%%", cases[k].label, 100 * s[k].bottom_share,
    100 * s[k].top_share))
end

-- C004-13 (a loose indicator): at crank angle 0 the crank-rod journal sits against the wall
-- at the minimum of x, |x| close to c: every section point has ex < -0.8 c.
for _, k in ipairs{ "revolute", "mixed" } do
  local worst = -math.huge
  for _, x in ipairs(cases[k].section["crank_pin.ex"]) do worst = math.max(worst, x) end
  tap.ok(worst < -0.8 * c, string.format("C004-13: %s: the crank-rod journal's section points lie at x = -c "
    .. "(largest %.3f mm)", cases[k].label, worst * 1e3))
end

-- Penetration small against the clearance (the floor v_min of the impact velocity keeps it
-- stays so): every journal impact's deepest point over the run is below 5% of c (measured
-- 2%).  At that point the penetration rate is 0, so the modified law gives F = K d^1.5
-- exactly: the recorded force and depth agree to 1e-6 (the event is located to 1e-12 s).
do
  local deepest, worst, n = 0, 0, 0
  for _, k in ipairs{ "revolute", "mixed" } do
    for _, j in ipairs{ "crank_pin", "piston_pin" } do
      local dp = cases[k].deepest[j]   -- the events <joint>.deepest of the run: t, penetration, fn
      for i = 1, #dp.t do
        local d = dp.penetration[i]
        if d > 0 then
          n = n + 1
          deepest = math.max(deepest, d)
          local f = dp.fn[i]
          worst = math.max(worst, math.abs(f - e1.K * d ^ 1.5) / math.max(f, 1e-3))
        end
      end
    end
  end
  tap.ok(n > 10 and deepest < 0.05 * c, string.format("penetration: the deepest of %d journal impacts is %.2f um, "
    .. "%.1f%% of the clearance", n, deepest * 1e6, 100 * deepest / c))
  tap.ok(worst < 1e-6, string.format("at each impact's deepest point the force is K d^1.5 (to %.1e)", worst))
end

-- ---- E2: the rig's cases (C004-4, C004-5) -------------------------------------------------

-- C004-4: the peak slider acceleration and the oscillation over crank angles 180-360 deg
-- grow with the clearance (0.25, 0.5, 1 mm); the oscillation (rms of a - a_ideal) is
-- visible: more than a tenth of the ideal's amplitude (47.3 m/s^2).
do
  local cl = spec004.e2.clearance
  tap.ok(cl[1].a_peak < cl[2].a_peak and cl[2].a_peak < cl[3].a_peak, string.format("C004-4: the peak slider "
    .. "acceleration grows with the clearance (%.0f, %.0f, %.0f m/s^2)", cl[1].a_peak, cl[2].a_peak, cl[3].a_peak))
  tap.ok(cl[1].rms_second < cl[2].rms_second and cl[2].rms_second < cl[3].rms_second and cl[1].rms_second > 4.73,
    string.format("C004-4: so does the oscillation over 180-360 deg (rms %.1f, %.1f, %.1f m/s^2)", cl[1].rms_second,
      cl[2].rms_second, cl[3].rms_second))
end

-- C004-5: at higher crank speeds the peak acceleration increases: the peaks at 200 and 250
-- rpm exceed those at 100 and 150 rpm.  (The ideal peak itself grows as the speed squared;
-- the order within each pair changes from one revolution to the next, so it is not asserted.)
do
  local sp = spec004.e2.speed
  local low = math.max(sp[1].a_peak, sp[2].a_peak)
  local high = math.min(sp[3].a_peak, sp[4].a_peak)
  tap.ok(high > low, string.format("C004-5: peaks at 100, 150, 200, 250 rpm: %.0f, %.0f, %.0f, %.0f m/s^2",
    sp[1].a_peak, sp[2].a_peak, sp[3].a_peak, sp[4].a_peak))
end

-- ---- not checked here --------------------------------------------------------------------
-- C004-5 (the rest), C004-4 (the experiment): no measurements of the rig are available.
-- C004-9 and C004-10 (three clearances spread less than two): need the 100-point sections
--   of a full run (80 s for the three-joint case alone).  Full run: section spread 0.143 m/s
--   and 151 m/s^2 with two revolute clearances, 0.127 m/s and 123 m/s^2 with three: the
--   claim holds there; the peak acceleration over the two revolutions shown is larger with
--   three (1557 against 1324 m/s^2), in the paper's direction, but one window of a chaotic
--   motion does not settle an ordering.
-- C004-7 (the two revolute cases peak at the same crank angles): in the full run the largest
--   peaks of both are at 109.9 and 112.0 deg, after the rod's load reverses; in the one
--   revolution of quick mode at 197 and 122 deg: one revolution does not settle it.  The
--   angles 374.3 and 375 deg themselves, C004-8 (which joint's peak rises) and C004-14
--   (peaks at 60 and 90-120 deg) depend on the paper's lost masses and its crank-angle
--   origin, and the joints are unnamed in the paper's text.
-- C004-12 (two collisions on the upper surface at 30-90 deg): with our stand-in
--   masses (the paper's are lost) the ideal guide force never changes sign (1.35 to 12.8 N
--   upwards), so the slider has no reason to leave its lower surface; it never touches the
--   upper one.
-- C004-15 (more peaks with the translational clearance): the guide adds about 44 impacts
--   per revolution, but the acceleration peaks above 50 m/s^2 are not more frequent (27.5
--   and 23 per revolution in the full run): the count depends on the threshold and the
--   window; reported, not asserted.

-- Clean up: the files the script wrote, its sweeps' folder, then the folder.
for _, f in ipairs(spec004.figures) do os.remove(f) end
for _, f in ipairs(spec004.csvs) do os.remove(f) end
os.execute("rm -rf '" .. dir .. "/spec004_sweeps'")
os.remove(dir)
tap.done()
