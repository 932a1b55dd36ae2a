-- SPDX-License-Identifier: MIT
-- [Spatial revolute paper] (paper 001 of mechlua-references(7)): the free spatial
-- slider-crank whose crank turns in a revolute joint with radial and axial clearance, with
-- four friction laws.  Six cases, 1 s of motion each, from the paper's start (the crank
-- vertical, turning at 2 pi rad/s about -y, gravity along -z, no driver):
--
--   ideal      the ideal revolute joint
--   none       the clearance joint, frictionless contact
--   coulomb    + Coulomb friction, mu = 0.1
--   stribeck   + Stribeck friction (Bo-Pavelescu, exponent 2): mu = 0.1, mu_s = 0.2, vs = 1e-3 m/s
--   dahl       + Dahl friction: mu = 0.1, sigma0 = 1e5 N/m
--   lugre      + LuGre friction: mu = 0.1, mu_s = 0.2, vs = 1e-3 m/s, sigma0 = 1e5 N/m,
--              sigma1 = 10^2.5 N s/m, sigma2 = 0
--
-- The joint (the paper's Tab. 2): a bearing of radius 10 mm and length 20 mm on the crank, a
-- journal of radius 9.5 mm and length 19 mm on the ground (0.5 mm of radial and of axial
-- clearance), Lankarani-Nikravesh contact, K = 6.71e10 N/m^1.5, restitution 0.9, for the
-- radial and the axial contacts alike.  The bodies are the paper's Tab. 1 (the spec001 module,
-- mechlua-spatial(3)).
--
--   mechlua scripts/spec001.lua [output-folder] [quick]     (default folder: out)
--   mpirun -n 2 mechlua scripts/spec001.lua [output-folder]
--
-- The cases run in worker processes, as many at a time as the machine has cores (the sweep
-- module, mechlua-sweep(3); under mpirun the ranks share them and the first prints and
-- draws).  "quick" simulates 0.5 s recorded every 1e-4 s instead of 1 s every 1e-5 s (for the
-- tests).  Writes into <output-folder>/spec001/: <case>.csv (the slider's position, velocity
-- and acceleration, the energies, the contacts, every recorded step, the parameters in the
-- header), summary.csv (a row per case, the numbers printed), spec001_fig4.png/.pdf (the
-- paper's Fig. 4: slider position, velocity, acceleration, the position-velocity and
-- velocity-acceleration phase portraits and the mechanical energy variation) and
-- spec001_journal.png/.pdf (the journal's centre in its bearing as the crank sees it, the
-- radial clearance dashed, for each clearance case, and the axial offsets).
-- A rerun takes the cases from <output-folder>/spec001/cases instead of running them again.
--
-- What the paper leaves open, and this script's choice:
--   layout      its figure of the mechanism is lost: Haug's spatial slider-crank turned so
--               that the crank's axis is world y, with a spherical joint crank-rod, a
--               universal joint rod-slider, a prismatic joint slider-ground (spec001.model)
--   start       the journal centred and aligned in its bearing, every velocity as the ideal
--               mechanism's for the crank's 2 pi rad/s
--   detection   the four checks of mechlua-spatial(3): each journal end against the bearing's
--               wall and against its end wall, the deepest rim point exactly; an end face
--               pressed against its end wall acts through the face (its point moves from the
--               face centre to the rim as the tilt grows past 1e-6 rad)
--   impacts     the impact velocity of each contact taken at its located onset, at least
--               1e-4 m/s; the normal force never negative
--   sgn(v)      Coulomb and Stribeck regularised as v / sqrt(|v|^2 + v_reg^2), v_reg = 1e-4 m/s
--   bristles    Dahl and LuGre: one bristle state per tangent direction of each contact (the
--               tangent plane turning with the bearing), reset to 0 at each contact's onset,
--               frozen while it is open, and bounded (bounded = true, mechlua-contact(3)): the
--               deflection used held within its sliding value g/sigma0 and the bristle force
--               within mu_s F_N, the paper's "clamp |z| <= g/sigma0" applied continuously
--   sigma1      read as 10^(5/2) N s/m, Canudas de Wit's sqrt(sigma0)
--   stabilisation  Baumgarte alpha = beta = 5 1/s for the ideal joints, unit quaternions
--   integrator  DOPRI5 with every contact onset and end located (rtol 1e-8) instead of the
--               paper's fixed-step RK4, whose step it does not give; the figures read the
--               run every 1e-5 s, as the paper reports
--   energy      E = kinetic energy + gravity's potential (the paper's Fig. 4f): the energy
--               stored in a contact's deformation is not in E
--
-- Dahl's law does not do what the paper says of every friction law.  It loses less than the
-- others (1.6 to 1.8 times the frictionless joint's energy, against 3.3 to 5.4), and its peak
-- acceleration and velocity range stay within the scatter of the frictionless joint's
-- (measured at rtol 1e-7, 1e-8 and 1e-9: the irregular motion moves each by 10 to 20 %):
-- with sigma0 = 1e5 N/m and normal forces of kilonewtons, its bristles slide only beyond
-- mu F_N / sigma0, about 1 mm, while the journal slips micrometres to tens of micrometres in an
-- impact, so each contact stays in pre-sliding, a spring that gives most of its energy back.
-- With sigma0 = 1e7 N/m it takes as much as Coulomb's law (0.53 J of friction); keeping the
-- bristles between contacts (reset = "never") changes little (0.16 J).  LuGre's bristle damping
-- sigma1 dissipates in pre-sliding too.  The paper itself concludes that the dynamic laws have
-- difficulty with pre-sliding under impacts.
local sweep = require "sweep"
local spec001 = require "spec001"
local plot = require "plot"
local output = require "output"

local outdir, quick = require("options").script_args(arg)

local p = {
  duration = quick and 0.5 or 1,    -- s
  report = quick and 1e-4 or 1e-5,  -- s
  method = "dopri5", rtol = 1e-8, atol = 1e-11,
}
local CASES = { "ideal", "none", "coulomb", "stribeck", "dahl", "lugre" }
-- and the sensitivity to the regularisation of sgn(v): Coulomb with v_reg = 1e-3 m/s
local EXTRA = { "coulomb_1e-3" }
local ALL = { table.unpack(CASES) }
for _, name in ipairs(EXTRA) do ALL[#ALL + 1] = name end
local LABEL = { ideal = "ideal joint", none = "clearance, no friction", coulomb = "Coulomb",
  stribeck = "Stribeck", dahl = "Dahl", lugre = "LuGre", ["coulomb_1e-3"] = "Coulomb, v_reg 1e-3 m/s" }
local CONTACTS = { "radial_a", "radial_b", "axial_a", "axial_b" }


local function case(c, dir)
  local name = c.model
  local clearance = name ~= "ideal" and { friction = name } or nil
  if name == "coulomb_1e-3" then clearance = { friction = "coulomb", v_reg = 1e-3 } end
  local sys = spec001.model{ clearance = clearance }
  local record = { "slider.y", "slider.vy", "slider.ay", "system.kinetic", "system.gravity",
    "system.contact_damping", "system.friction" }
  if clearance then
    for _, k in ipairs(CONTACTS) do
      for _, q in ipairs{ "fn", "ft", "impacts" } do record[#record + 1] = "crank_pin0." .. k .. "." .. q end
    end
    for _, q in ipairs{ "exb", "eyb", "axial", "tilt" } do record[#record + 1] = "crank_pin0." .. q end
  end
  local params = { model = name }
  for k, v in pairs(p) do params[k] = v end
  local clock = os.clock()
  local run = sys:simulate{ t = p.duration, report = p.report, method = p.method, rtol = p.rtol,
    atol = p.atol, record = record, params = params }
  local cpu = os.clock() - clock
  local n, t = #run, run.t
  local K, G = run["system.kinetic"], run["system.gravity"]
  local E0 = K[1] + G[1]
  local s = { t = {}, y = {}, vy = {}, ay = {}, dE = {} } -- what the figures draw
  local y, vy, ay = run["slider.y"], run["slider.vy"], run["slider.ay"]
  local peak, vmin, vmax = 0, math.huge, -math.huge
  for i = 1, n do
    s.t[i], s.y[i], s.vy[i], s.ay[i], s.dE[i] = t[i], y[i], vy[i], ay[i], K[i] + G[i] - E0
    peak = math.max(peak, math.abs(ay[i]))
    if t[i] >= p.duration / 2 - 1e-12 then vmin, vmax = math.min(vmin, vy[i]), math.max(vmax, vy[i]) end
  end
  -- the velocity-acceleration portrait crossing its a = 0 axis: twice a revolution for one closed
  -- curve, at every impact for dense overlapping lines
  local crossings, last = 0, 0
  for i = 1, n do
    local sg = ay[i] > 0 and 1 or ay[i] < 0 and -1 or 0
    if sg ~= 0 then
      if last ~= 0 and sg ~= last then crossings = crossings + 1 end
      last = sg
    end
  end
  local out = { peak_acc = peak, energy_change = s.dE[n], vy_range = vmax - vmin, steps = run.stats.steps,
    crossings = crossings,
    cpu = cpu, impacts = 0, peak_force = 0, contact_damping = run["system.contact_damping"][n],
    friction = run["system.friction"][n] }
  if clearance then
    for _, k in ipairs(CONTACTS) do
      out.impacts = out.impacts + math.tointeger(run["crank_pin0." .. k .. ".impacts"][n])
      out.peak_force = math.max(out.peak_force, run["crank_pin0." .. k .. ".fn"]:max())
    end
  end
  if clearance then -- the journal's centre in the bearing (the crank's joint frame), its axial offset
    s.ex, s.ey, s.axial = {}, {}, {}
    local ex, ey, ax = run["crank_pin0.exb"], run["crank_pin0.eyb"], run["crank_pin0.axial"]
    for i = 1, n do s.ex[i], s.ey[i], s.axial[i] = ex[i] * 1e3, ey[i] * 1e3, ax[i] * 1e3 end
    out.peak_tilt = run["crank_pin0.tilt"]:max()
  end
  out.files = { run:csv(dir .. "/" .. name .. ".csv"), sweep.write(dir .. "/series", s) }
  return out
end

mech.mkdir(outdir)
local folder = outdir .. "/spec001"
mech.mkdir(folder)
local design = sweep.list((function()
  local l = {}
  for i, name in ipairs(ALL) do l[i] = { model = name } end
  return l
end)())
local res = sweep.run{ design, case = case, folder = folder, params = p, name = "spec001" }

if not sweep.leader() then return end

local fmt = string.format
local by = {}
for i = 1, #res do
  local r = res[i]
  if r.status ~= "ok" then
    error(fmt("spec001: case %s %s: %s (its folder: %s)", r.model, r.status, tostring(r.message), r.dir))
  end
  by[r.model] = r
end

-- ---- the summary -----------------------------------------------------------------------
print(fmt("mechlua %s: the spatial slider-crank of [Spatial revolute paper], %g s from the paper's start%s",
  mech.version, p.duration, quick and " (quick)" or ""))
print(fmt("  DOPRI5 rtol %g with located contact onsets; recorded every %g s", p.rtol, p.report))
print("  case                      peak |slider a|   energy change   contact damping   friction   impacts"
  .. "   peak F_N   v range (2nd half)   steps")
local rows = {}
for _, name in ipairs(ALL) do
  local r = by[name]
  print(fmt("  %-24s %12.2f m/s^2   %11.5f J   %13.5f J   %8.5f J   %7d   %6.0f N   %10.4f m/s   %7d", LABEL[name],
    r.peak_acc, r.energy_change, r.contact_damping, r.friction, r.impacts, r.peak_force, r.vy_range, r.steps))
  rows[#rows + 1] = r
end
local cols, names = {}, { "case", "peak_acc", "energy_change", "contact_damping", "friction", "impacts", "peak_force",
  "vy_range", "crossings", "steps" }
for k = 2, #names do
  cols[k] = {}
  for i, r in ipairs(rows) do cols[k][i] = r[names[k]] end
end
cols[1] = {}
for i = 1, #rows do cols[1][i] = i end
names[1] = "case_index"
output.csv(folder .. "/summary.csv", names, cols, { "case_index: 1 to " .. #ALL .. " for " .. table.concat(ALL, ", "),
  fmt("duration %g s, report %g s, %s rtol %g atol %g", p.duration, p.report, p.method, p.rtol, p.atol) })

-- the paper's claims on these numbers
local ideal, none = by.ideal, by.none
local function claim(id, holds, text)
  print(fmt("  %s %s: %s", id, holds and "holds" or "DOES NOT HOLD", text))
end
print("  the paper's claims:")
claim("C001-1", math.abs(ideal.energy_change) < 1e-6, fmt("the ideal joint keeps the energy (change %.2g J)",
  ideal.energy_change))
claim("C001-2", none.peak_acc > ideal.peak_acc, fmt("clearance raises the peak acceleration (%.1f against %.1f m/s^2)",
  none.peak_acc, ideal.peak_acc))
claim("C001-3", none.crossings >= 20 * math.max(ideal.crossings, 1), fmt("the velocity-acceleration portrait "
  .. "crosses a = 0 %d times with clearance, %d times with the ideal joint's closed curve", none.crossings,
  ideal.crossings))
local lower, more, twice, calmer = true, true, true, true
local ratios = {}
for _, name in ipairs{ "coulomb", "stribeck", "dahl", "lugre" } do
  local r = by[name]
  local ratio = r.energy_change / none.energy_change
  ratios[#ratios + 1] = fmt("%s %.2f", LABEL[name], ratio)
  more = more and ratio > 1
  if name ~= "dahl" then
    twice = twice and ratio >= 2
    lower = lower and r.peak_acc < none.peak_acc
    calmer = calmer and r.vy_range < none.vy_range
  end
end
claim("C001-4", lower, "Coulomb, Stribeck and LuGre friction lower the peak acceleration below the "
  .. "frictionless clearance's")
claim("C001-5", more and twice, fmt("every friction law loses more energy than the frictionless clearance, "
  .. "Coulomb, Stribeck and LuGre at least twice as much (%s times)", table.concat(ratios, ", ")))
claim("C001-6", calmer, "Coulomb, Stribeck and LuGre friction narrow the slider's velocity range in the second half")
print(fmt("  Dahl's law at the paper's sigma0 stays in pre-sliding (see the script's head): peak |a| %.0f, velocity "
  .. "range %.3f m/s, within the scatter of the frictionless joint's irregular motion (%.0f, %.3f m/s)",
  by.dahl.peak_acc, by.dahl.vy_range, none.peak_acc, none.vy_range))

local c3, c4 = by.coulomb, by["coulomb_1e-3"]
print(fmt("  sgn(v) regularised with v_reg = 1e-3 instead of 1e-4 m/s (Coulomb): energy change %.5f instead of "
  .. "%.5f J, peak |a| %.1f instead of %.1f m/s^2", c4.energy_change, c3.energy_change, c4.peak_acc, c3.peak_acc))

-- ---- the figures -----------------------------------------------------------------------
local series = {}
for _, name in ipairs(CASES) do series[name] = sweep.read(by[name].files[2]) end
-- for the tests (tests/lua/test_spec001.lua), which run this script in their process
spec001_study = { p = p, cases = by, series = series, folder = folder }
local COLOR = { ideal = 1, none = 3, coulomb = 2, stribeck = 4, dahl = 5, lugre = 6 }
local fig = plot.figure{ rows = 3, cols = 2, width = 180, height = 210,
  title = fmt("Spatial slider-crank with a clearance revolute joint, %g s", p.duration) }
local panels = { fig:panel(1), fig:panel(2), fig:panel(3), fig:panel(4), fig:panel(5), fig:panel(6) }
-- the clearance cases under the ideal one, drawn last so that its single curve shows
local order = { "none", "coulomb", "stribeck", "dahl", "lugre", "ideal" }
for _, name in ipairs(order) do
  local s, color, width = series[name], COLOR[name], name == "ideal" and 1.2 or 0.5
  local label = LABEL[name]
  panels[1]:line{ x = s.t, y = s.y, color = color, width = width, label = label }
  panels[2]:line{ x = s.t, y = s.vy, color = color, width = width }
  panels[3]:line{ x = s.t, y = s.ay, color = color, width = width }
  panels[4]:line{ x = s.y, y = s.vy, color = color, width = width }
  panels[5]:line{ x = s.vy, y = s.ay, color = color, width = width }
  panels[6]:line{ x = s.t, y = s.dE, color = color, width = width }
end
-- room above the curves for the legend
panels[1]:set{ title = "(a) slider position", xlabel = "time [s]", ylabel = "y [m]", legend = "upper center",
  ylim = { 0.12, 0.43 } }
panels[2]:set{ title = "(b) slider velocity", xlabel = "time [s]", ylabel = "v [m/s]" }
panels[3]:set{ title = "(c) slider acceleration", xlabel = "time [s]", ylabel = "a [m/s^2]" }
panels[4]:set{ title = "(d) position-velocity", xlabel = "y [m]", ylabel = "v [m/s]" }
panels[5]:set{ title = "(e) velocity-acceleration", xlabel = "v [m/s]", ylabel = "a [m/s^2]" }
panels[6]:set{ title = "(f) mechanical energy variation", xlabel = "time [s]", ylabel = "E - E(0) [J]" }
local figures = {}
output.figure(fig, folder, "spec001_fig4", figures)

-- the journal's centre in its bearing (as the crank sees it), and its axial offset
local c_r, c_a = spec001.CLEARANCE.radial * 1e3, spec001.CLEARANCE.axial * 1e3
local jfig = plot.figure{ rows = 2, cols = 3, width = 180, height = 125,
  title = "The journal's centre in its bearing (the crank's frame), clearance 0.5 mm" }
local circle = { x = {}, y = {} }
for k = 0, 360 do circle.x[k + 1], circle.y[k + 1] = c_r * math.cos(math.rad(k)), c_r * math.sin(math.rad(k)) end
for i, name in ipairs{ "none", "coulomb", "stribeck", "dahl", "lugre" } do
  local sr = series[name]
  jfig:panel(i):line{ x = circle.x, y = circle.y, color = 1, width = 0.4, style = "dashed" }
    :line{ x = sr.ex, y = sr.ey, color = COLOR[name], width = 0.4 }
    :set{ title = LABEL[name], xlabel = "e_x [mm]", ylabel = "e_y [mm]", aspect = "equal",
      xlim = { -1.1 * c_r, 1.1 * c_r }, ylim = { -1.1 * c_r, 1.1 * c_r } }
end
local axial = jfig:panel(6)
for _, name in ipairs{ "none", "coulomb", "stribeck", "dahl", "lugre" } do
  axial:line{ x = series[name].t, y = series[name].axial, color = COLOR[name], width = 0.5 }
end
axial:set{ title = "axial offset", xlabel = "time [s]", ylabel = "offset [mm]", ylim = { -1.1 * c_a, 1.1 * c_a } }
output.figure(jfig, folder, "spec001_journal", figures)
-- full mode: the LuGre case's first 0.2 s as an animation 50 times slower than real time, in two
-- views (a run of its own: the cases above ran in the study's workers)
if not quick then
  local arun = spec001.model{ clearance = { friction = "lugre" } }:simulate{ t = 0.2, report = 1e-4,
    method = p.method, rtol = p.rtol, atol = p.atol, motion = 0.2 / 250, record = { "slider.ay" },
    quiet = true }
  output.animation(arun, folder, "spec001", { fps = 25, speed = 0.02, view = { "xy", "xz" },
    channel = "slider.ay", title = "Spatial slider-crank, LuGre" }, figures)
end
print("  results: " .. folder .. "/summary.csv and a CSV per case")
print("  figures: " .. table.concat(figures, ", "))
