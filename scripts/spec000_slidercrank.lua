-- SPDX-License-Identifier: MIT
-- [Zheng & Wang, Sec. 4.2] (paper 000 of mechlua-references(7)), the slider-crank with a
-- flexible slider (X. Zheng and Q. Wang): a rigid
-- crank (1.8 m, 2 kg) driven by the moment 6 sin(pi t / 6) N m and a rigid rod (2 m, 1 kg)
-- joined at B to the centre node of a 0.5 x 0.3 m flexible slider of 4 (2 x 2) or 8 (4 x 2)
-- bilinear quadrilaterals, in a guide with 2.5 mm of clearance above and below; Kelvin-Voigt
-- contacts and the stick-slip friction of Eq. 13 (mu = 0.03, mu' = 0.04) at every surface
-- node; joint B by penalty springs k = 1e5 N/m (Eq. 4).
--
--   mechlua scripts/spec000_slidercrank.lua [output-folder] [quick]  (default folder: out)
--
-- "quick" simulates 24 s instead of 200 s (for the tests).  Writes
-- spec000_slidercrank_4.csv and _8.csv (every 10 ms, parameters in the header) and the
-- figures of the paper's Figs. 13-17, PNG and PDF: the crank's angle and angular velocity
-- (Fig. 13), the sum of the nodal friction forces with 4 and 8 elements and the peak of a
-- nearly rigid slider's (Fig. 14), the normal (Fig. 15) and friction (Fig. 16) forces at
-- the upper nodes 1-3 and the lower nodes 7-9, and the penalty joint's error (Fig. 17).
-- It also runs the variant of the paper's extended abstract ([Zheng & Wang, abstract]), joint B by Lagrange multipliers, and prints how far its
-- crank angle is from the penalty joint's.
--
-- This project's choices where the paper is silent: both angles start at 0 (a dead centre:
-- the crank first falls under gravity), the slider's centre node at B = (3.8, 0); the
-- 8-element mesh is 4 x 2 with B at node 8; the nearly rigid comparator of Fig. 14 is the
-- same slider with E = 1e6 Pa.  Integrator: CVODE's BDF at rtol 1e-5, of order 3 at most
-- (the penalty joint's undamped ~100 Hz mode holds orders 4 and 5 at their stability limit:
-- a third more steps for the same accuracy, see mechlua-fe(3)).
local spec000 = require "spec000"
local plot = require "plot"
local output = require "output"

local outdir, quick = require("options").script_args(arg)

local p = {
  duration = quick and 24 or 200,  -- s
  report = 1e-2,                   -- s
  method = "bdf", rtol = 1e-5, atol = 1e-8, max_order = 3,
}
for k, v in pairs(spec000.SLIDER_CRANK) do if p[k] == nil then p[k] = v end end

local nodes4 = { 1, 2, 3, 7, 8, 9 } -- upper and lower surface nodes of the 2 x 2 mesh
local function record_for(nx)
  local r = { "crank.phi", "crank.omega", "slider.ft", "slider.fn", "slider.x", "slider.vx",
    "B.dx", "B.dy", "system.energy", "system.balance", "system.friction" }
  local top, bottom = nx + 1, (nx + 1) * 3
  for k = 1, top do r[#r + 1] = string.format("slider.n%d.fn", k) r[#r + 1] = string.format("slider.n%d.ft", k) end
  for k = bottom - nx, bottom do
    r[#r + 1] = string.format("slider.n%d.fn", k)
    r[#r + 1] = string.format("slider.n%d.ft", k)
  end
  return r
end

local function simulate(o, record, motion)
  local sys = spec000.slider_crank(o)
  local params = {}
  for k, v in pairs(p) do params[k] = v end
  for k, v in pairs(o) do params[k] = v end
  return sys:simulate{ t = p.duration, report = p.report, method = p.method, rtol = p.rtol,
    atol = p.atol, max_order = p.max_order, record = record, params = params, motion = motion }
end

mech.mkdir(outdir)
local runs = {}
for _, nx in ipairs{ 2, 4 } do
  -- the 4-element run keeps its states for the animation (full mode)
  local run = simulate({ nx = nx }, record_for(nx), nx == 2 and not quick and 0.08 or nil)
  runs[nx] = run
  run:csv(string.format("%s/spec000_slidercrank_%d.csv", outdir, 2 * nx))
end
local stiff = simulate({ E = 1e6 }, { "crank.phi", "slider.ft" })
local lagrange = simulate({ joint = "lagrange" }, { "crank.phi", "B.violation" })

-- ---- numbers ---------------------------------------------------------------------------

local r4, r8 = runs[2], runs[4]
local n = #r4
local t = r4.t
local function window(run, name, t0)
  local lo, hi, col = math.huge, -math.huge, run[name]
  for i = 1, #run do
    if run.t[i] >= t0 then lo, hi = math.min(lo, col[i]), math.max(hi, col[i]) end
  end
  return lo, hi
end
local steady = p.duration - 24 -- s: the last two forcing periods
local lo4, hi4 = window(r4, "crank.phi", steady)
local lo8, hi8 = window(r8, "crank.phi", steady)
local dxmax, dymax, dylate = 0, 0, 0
for i = 1, n do
  dxmax = math.max(dxmax, math.abs(r4["B.dx"][i]))
  dymax = math.max(dymax, math.abs(r4["B.dy"][i]))
  if t[i] >= 2 then dylate = math.max(dylate, math.abs(r4["B.dy"][i]), math.abs(r4["B.dx"][i])) end
end
local dphi = 0
for i = 1, n do dphi = math.max(dphi, math.abs(r4["crank.phi"][i] - lagrange["crank.phi"][i])) end
local top_after = 0
for _, k in ipairs{ 1, 2, 3 } do
  local _, hi = window(r4, string.format("slider.n%d.fn", k), steady)
  top_after = math.max(top_after, hi)
end
local function peak(run) local lo, hi = window(run, "slider.ft", 0) return math.max(-lo, hi) end

print(string.format("mechlua %s: [Zheng & Wang, Sec. 4.2], slider-crank with a flexible slider, %g s%s",
  mech.version, p.duration, quick and " (quick)" or ""))
print(string.format("  crank angle over the last 24 s: %.3f to %.3f rad (4 elements), %.3f to %.3f "
  .. "rad (8 elements)", lo4, hi4, lo8, hi8))
print(string.format("  upper nodes 1-3 over the last 24 s: normal force up to %.3g N", top_after))
print(string.format("  peak of the summed friction: %.3f N (4 elements), %.3f N (8), %.3f N "
  .. "(E = 1e6 Pa)", peak(r4), peak(r8), peak(stiff)))
print(string.format("  penalty joint error: |x_R - x_5| up to %.2e m, |y_R - y_5| up to %.2e m "
  .. "(%.2e m after 2 s)", dxmax, dymax, dylate))
print(string.format("  Lagrange joint B ([Zheng & Wang, abstract]): crank angle within %.2e rad of the penalty "
  .. "joint's; joint error up to %.1e m", dphi, lagrange["B.violation"]:max()))
for _, v in ipairs{ { "4 elements", r4 }, { "8 elements", r8 }, { "E = 1e6 Pa", stiff },
  { "Lagrange B", lagrange } } do
  local s = v[2].stats
  print(string.format("  run %-10s %s, %d steps (%d rejected), %d right-hand sides, %.2f s",
    v[1], s.method, s.steps, s.rejected, s.rhs_evals, s.wall_time))
end

-- ---- figures ---------------------------------------------------------------------------

local BLUE, VERMILLION, GREEN = 2, 3, 4
local figures = {}
local function save(fig, name) output.figure(fig, outdir, name, figures) end -- PNG and PDF
local title = "Zheng & Wang, Sec. 4.2: slider-crank with a flexible slider"

-- Fig. 13: crank angle and angular velocity, 4 and 8 elements
local f13 = plot.figure{ rows = 2, title = title, width = 160, height = 130 }
for row, q in ipairs{ { "crank.phi", "crank angle [rad]" }, { "crank.omega", "crank angular velocity [rad/s]" } } do
  f13:panel(row):line{ x = t, y = r4[q[1]], color = BLUE, label = "4 elements" }
    :line{ x = r8.t, y = r8[q[1]], color = VERMILLION, style = "dashed", label = "8 elements" }
    :set{ xlabel = row == 2 and "t [s]" or "", ylabel = q[2], legend = "upper right" }
end
save(f13, "spec000_fig13_crank")

-- Fig. 14: the sum of the nodal friction forces; the dotted lines are the peak of the
-- nearly rigid slider's (E = 1e6 Pa)
local f14 = plot.figure{ rows = 2, title = title, width = 160, height = 130 }
local span, pk = { 0, p.duration }, peak(stiff)
for row, v in ipairs{ { r4, "4 elements" }, { r8, "8 elements" } } do
  f14:panel(row):line{ x = v[1].t, y = v[1]["slider.ft"], color = BLUE, label = v[2] }
    :line{ x = span, y = { pk, pk }, color = GREEN, style = "dotted", label = "peak, E = 1e6 Pa" }
    :line{ x = span, y = { -pk, -pk }, color = GREEN, style = "dotted" }
    :set{ xlabel = row == 2 and "t [s]" or "", ylabel = "sum of friction forces [N]",
      legend = "upper right" }
end
save(f14, "spec000_fig14_friction")

-- Figs. 15 and 16: normal and friction forces at the upper (1-3) and lower (7-9) nodes
for _, q in ipairs{ { "fn", "normal force [N]", "spec000_fig15_normal" },
  { "ft", "friction force [N]", "spec000_fig16_friction_nodes" } } do
  local fig = plot.figure{ rows = 2, title = title .. " (4 elements)", width = 160, height = 130 }
  for row, list in ipairs{ { 1, 2, 3 }, { 7, 8, 9 } } do
    for c, k in ipairs(list) do
      fig:panel(row):line{ x = t, y = r4[string.format("slider.n%d.%s", k, q[1])], color = ({ BLUE, VERMILLION, GREEN })[c],
        label = "node " .. k }
    end
    fig:panel(row):set{ xlabel = row == 2 and "t [s]" or "", ylabel = (row == 1 and "upper: " or "lower: ") .. q[2],
      legend = "upper right" }
  end
  save(fig, q[3])
end

-- Fig. 17: the penalty joint's error, rod end minus node 5
local f17 = plot.figure{ rows = 2, title = title .. " (4 elements)", width = 160, height = 130 }
f17:panel(1):line{ x = t, y = r4["B.dx"], color = BLUE }:set{ ylabel = "x_R - x_5 [m]" }
f17:panel(2):line{ x = t, y = r4["B.dy"], color = BLUE }:set{ xlabel = "t [s]", ylabel = "y_R - y_5 [m]" }
save(f17, "spec000_fig17_joint")

-- full mode: the first 24 s (two periods of the moment) as an animation at twice real time, the
-- slider's deformation drawn 10 times as large, its contact forces as arrows
if not quick then
  output.animation(r4, outdir, "spec000_slidercrank", { fps = 25, speed = 2, t = { 0, 24 }, deform = 10,
    channel = "crank.phi", title = "Slider-crank, 4 elements" }, figures)
end

print("  figures: " .. table.concat(figures, ", "))
