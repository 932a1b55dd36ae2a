-- SPDX-License-Identifier: MIT
-- Benchmark A of the benchmarks module (mechlua(3)): the slider-crank with a revolute clearance
-- joint between the connecting rod (journal) and the slider (bearing), after P. Flores and
-- J. Ambrosio, "Revolute joints with clearance in multibody systems", Comput. Struct. 82
-- (2004) 1359-1369.  The crank is driven at 5000 rpm for two revolutions; the same model
-- with the ideal pin (the joint's `clearance` field left out) is the reference.
--
--   mechlua scripts/benchmark_a.lua [output-folder] [quick]      (default folder: out)
--
-- "quick" runs half a revolution instead of two (for the tests); nothing else changes.
-- Writes benchmark_a_clearance.csv and benchmark_a_ideal.csv (every 1e-5 s, parameters in
-- the header) and four figures, PNG and PDF: the slider's acceleration against the ideal
-- with a magnified view, the normal contact force, the journal centre's path in its
-- bearing, and the slider's position and velocity against the ideal.
--
-- Contact stiffness: the figures use K = 3.35e10 N/m^1.5, the value commonly used with
-- this benchmark.  The Hertz estimate for a 9.5 mm steel journal in a 10 mm bearing
-- (E = 207 GPa, nu = 0.3; mech.stiffness.journal) is 6.6e10 N/m^1.5 (K_hertz below, written
-- into the CSV headers but not used): set K = 6.6e10 to run with it.
--
-- Choices where the benchmark is silent:
--  * The journal is on the rod and the bearing on the slider, centred at the start; every
--    body starts with the ideal mechanism's velocities (slider at rest at crank angle 0).
--  * The Lankarani-Nikravesh law uses the impact velocity captured at each contact onset,
--    with the library's floor v_min = 1e-4 m/s for contacts that begin at rest.
--  * Friction acts at the journal's surface (radius 9.5 mm) against the bearing's.
--  * Integrator: DOPRI5 (adaptive, with the contact onsets located as events) at rtol 1e-9,
--    atol 1e-12.  The number of impacts is the first thing a loose tolerance gets wrong: 23
--    from rtol 1e-8 to 1e-12, with RK4 at h = 1e-7 s and with BDF at rtol 1e-9, but 40 at
--    rtol 1e-7 and 1e-6 (33 and 43 with the default atol) and 35 with RK4 at the papers'
--    h = 1e-6 s, where the second revolution's motion differs too (make bench prints each
--    setting against rtol 1e-12).
--  * The ideal reference runs with the same integrator and tolerances; the comparison
--    starts after the first revolution as well, leaving out the start (the journal falls
--    across its clearance and strikes its bearing at 4.4 m/s).
--  * The figures are against the crank angle (the crank turns at constant speed), the
--    magnified view shows crank angles 80 to 130 degrees, within both runs.
local benchmarks = require "benchmarks"
local slidercrank = require "slidercrank"
local analysis = require "analysis"
local plot = require "plot"
local output = require "output"

local outdir, quick = require("options").script_args(arg)

local p = {
  crank = 0.05, rod = 0.12,                         -- m
  m_crank = 0.17, m_rod = 0.25, m_slider = 0.14,    -- kg
  J_crank = 1e-4, J_rod = 4e-4,                     -- kg m^2 (the guide keeps the slider from turning)
  gravity = 9.81,                                   -- m/s^2, along -y
  speed_rpm = 5000,                                 -- crank, driven
  bearing_radius = 10e-3,                           -- m
  clearance = 0.5e-3,                               -- m, radial (journal radius 9.5 mm)
  K = 3.35e10,                                      -- N/m^1.5, used by the figures
  K_hertz = 6.6e10,                                 -- N/m^1.5, the Hertz estimate (not used)
  restitution = 0.9,                                -- Lankarani-Nikravesh
  mu = 0.01, v0 = 1e-4, v1 = 1e-3,                  -- Ambrosio friction: -, m/s, m/s
  baumgarte = 5,                                    -- 1/s, alpha = beta
  revolutions = quick and 0.5 or 2,
  report = 1e-5,                                    -- s
  method = "dopri5", rtol = 1e-9, atol = 1e-12,
  zoom_from = 80, zoom_to = 130,                    -- degrees of crank angle, the magnified view
  zoom_acc_lo = -1e4, zoom_acc_hi = 1.4e5,          -- m/s^2, its acceleration range
}

local omega = mech.rpm(p.speed_rpm)
local t_end = p.revolutions * 2 * math.pi / omega
local clearance = { radial = p.clearance, radius = p.bearing_radius,
  law = mech.contact.lankarani_nikravesh{ K = p.K, restitution = p.restitution },
  friction = mech.friction.ambrosio{ mu = p.mu, v0 = p.v0, v1 = p.v1 } }

-- The mechanism of stdlib/benchmarks.lua with the parameters above; with_clearance
-- switches the rod-slider joint "pin" between the journal in its bearing and the ideal pin.
local function model(with_clearance)
  return benchmarks.a{ crank = p.crank, rod = p.rod, m_crank = p.m_crank, m_rod = p.m_rod,
    m_slider = p.m_slider, J_crank = p.J_crank, J_rod = p.J_rod, gravity = p.gravity,
    baumgarte = p.baumgarte, speed = omega, clearance = with_clearance and clearance or nil }
end

-- both runs record the motion; the clearance run its journal and energy accounts too
local motion = { "crank.phi", "slider.x", "slider.vx", "slider.ax", "motor.torque" }
local record = table.move(motion, 1, #motion, 1, {})
for _, ch in ipairs{ "pin.fn", "pin.ft", "pin.exb", "pin.eyb", "pin.penetration", "pin.impacts",
  "system.work", "system.contact_damping", "system.friction", "system.balance" } do
  record[#record + 1] = ch
end
local function simulate(sys, channels)
  return sys:simulate{ t = t_end, report = p.report, method = p.method, rtol = p.rtol,
    atol = p.atol, record = channels, params = p, motion = t_end / 200 } -- kept for the animation
end
local run = simulate(model(true), record)
local ideal = simulate(model(false), motion)

mech.mkdir(outdir)
local csv = { run:csv(outdir .. "/benchmark_a_clearance.csv"),
  ideal:csv(outdir .. "/benchmark_a_ideal.csv") }

-- ---- numbers ------------------------------------------------------------------------

-- The ideal run against the closed form.
local kin = slidercrank.kinematics{ crank = p.crank, rod = p.rod }
local dx, da = 0, 0
for i = 1, #ideal do
  local X, _, A = kin(ideal["crank.phi"][i], omega, 0)
  dx = math.max(dx, math.abs(ideal["slider.x"][i] - X))
  da = math.max(da, math.abs(ideal["slider.ax"][i] - A))
end

local function deg(t) return math.deg(omega * t) end
local impacts = run["pin.impacts"][#run]
local pen = run["pin.penetration"]:max()
local fn = run["pin.fn"]
local whole = analysis.compare(run, ideal, "slider.ax")
local revolution = 2 * math.pi / omega
local later = t_end > revolution and analysis.compare(run, ideal, "slider.ax", { from = revolution })
local balance = math.max(run["system.balance"]:max(), -run["system.balance"]:min())

print(string.format("mechlua %s: benchmark A, slider-crank with %g mm of radial clearance at the "
  .. "piston pin, %g rpm, %g revolutions%s", mech.version, p.clearance * 1e3, p.speed_rpm,
  p.revolutions, quick and " (quick)" or ""))
print(string.format("  contact: Lankarani-Nikravesh K = %.3g N/m^1.5 (the Hertz estimate is %.2g), "
  .. "e = %g; Ambrosio friction mu = %g", p.K, p.K_hertz, p.restitution, p.mu))
print(string.format("  impacts: %d; max penetration %.4f mm = %.3f of the clearance; normal force "
  .. "%.0f to %.0f N", impacts, pen * 1e3, pen / p.clearance, fn:min(), fn:max()))
print(string.format("  peak slider acceleration %.0f m/s^2 at crank %.1f deg (%.3f ms); the ideal "
  .. "there %.0f m/s^2: ratio %.2f (ideal peak %.0f m/s^2)", whole.max.value, deg(whole.max.t),
  whole.max.t * 1e3, whole.max.ref, whole.max.ratio, whole.max.ref_max))
print(string.format("  largest difference from the ideal %.0f m/s^2 at crank %.1f deg: %.0f against "
  .. "%.0f m/s^2, ratio %.2f", whole.peak, deg(whole.t_peak), whole.value, whole.ref, whole.ratio))
if later then
  print(string.format("  after the first revolution: largest difference %.0f m/s^2 at crank %.1f deg, "
    .. "%.0f against %.0f m/s^2, ratio %.2f; peak %.2f times the ideal's", later.peak,
    deg(later.t_peak), later.value, later.ref, later.ratio, later.max.ratio_max))
end
print(string.format("  ideal against the closed form: position within %.1e m, acceleration within "
  .. "%.1e m/s^2", dx, da))
print(string.format("  energy: the motor does %.4g J, contact damping takes %.4g J and friction "
  .. "%.4g J; the balance closes to %.1e J", run["system.work"][#run],
  run["system.contact_damping"][#run], run["system.friction"][#run], balance))
for _, r in ipairs{ { "clearance", run }, { "ideal", ideal } } do
  local st = r[2].stats
  print(string.format("  %s run: %s, %d steps (%d rejected), %d right-hand sides, %d events, %.3f s",
    r[1], st.method, st.steps, st.rejected, st.rhs_evals, st.events, st.wall_time))
end
print(string.format("  %d rows each written to %s", #run, table.concat(csv, ", ")))

-- ---- figures ------------------------------------------------------------------------

local n = #run
local angle, x, x0, v, v0, dxs, dvs, force = {}, {}, {}, {}, {}, {}, {}, {}
for i = 1, n do
  angle[i] = deg(run.t[i])
  x[i], x0[i] = run["slider.x"][i] * 1e3, ideal["slider.x"][i] * 1e3
  v[i], v0[i] = run["slider.vx"][i], ideal["slider.vx"][i]
  dxs[i], dvs[i] = x[i] - x0[i], v[i] - v0[i]
  force[i] = fn[i] / 1e3
end
local theta = "crank angle [deg]"
local label_c = string.format("clearance %g mm", p.clearance * 1e3)
local label_i = "ideal joint"
-- K as a power of ten for the titles: 3.35 × 10^10 (the plot module sets ^10 as a superscript)
local function sci(v)
  local e = math.floor(math.log(v, 10))
  return string.format("%g × 10^%d", tonumber(string.format("%.3g", v / 10 ^ e)), e)
end
local title = string.format("Benchmark A: c = %g mm, %g rpm, K = %s N/m^1.5", p.clearance * 1e3,
  p.speed_rpm, sci(p.K))

local BLUE = 2   -- the plot palette's #0072B2
local figures = {}
local function save(fig, name) output.figure(fig, outdir, name, figures) end -- PNG and PDF

-- the slider's acceleration, with a magnified view
local acc = plot.figure{ width = 160, height = 100, title = title }
local ax = acc:panel(1)
ax:line{ x = angle, y = run["slider.ax"], label = label_c, color = BLUE }
ax:line{ x = angle, y = ideal["slider.ax"], label = label_i, color = "black", width = 1.2 }
ax:set{ xlabel = theta, ylabel = "slider acceleration [m/s^2]", legend = "best" }
ax:inset{ at = { 0.55, 0.07, 0.4, 0.4 }, xlim = { p.zoom_from, p.zoom_to },
    ylim = { p.zoom_acc_lo, p.zoom_acc_hi } }
  :set{ xlabel = "", ylabel = "" }
save(acc, "benchmark_a_acceleration")

-- the normal contact force
save(plot.figure{ title, x = angle, y = force, color = BLUE, xlabel = theta,
  ylabel = "normal contact force [kN]",
  width = 160, height = 90 }, "benchmark_a_contact_force")

-- the journal centre in its bearing (the slider's frame), inside the clearance circle, at
-- equal scales on both axes
local orbit = plot.clearance{ run, joint = "pin", clearance = p.clearance, color = BLUE,
  title = string.format("Journal centre, K = %s N/m^1.5", sci(p.K)) }
save(orbit, "benchmark_a_journal")

-- the slider's position and velocity, and their differences from the ideal
local mot = plot.figure{ rows = 2, cols = 2, width = 170, height = 130, title = title }
-- (one legend, above the position's curves: the y range leaves room for it)
local stroke = { (p.rod - p.crank) * 1e3, (p.rod + p.crank) * 1e3 }
mot:panel(1, 1):line{ x = angle, y = x, label = label_c, color = BLUE }
  :line{ x = angle, y = x0, label = label_i, color = "black", style = "dashed" }
  :set{ xlabel = "", ylabel = "slider position [mm]", legend = "upper center",
    ylim = { stroke[1] - 10, stroke[2] + 0.6 * (stroke[2] - stroke[1]) } }
mot:panel(1, 2):line{ x = angle, y = dxs, color = BLUE }
  :set{ xlabel = "", ylabel = "position − ideal [mm]" }
mot:panel(2, 1):line{ x = angle, y = v, color = BLUE }
  :line{ x = angle, y = v0, color = "black", style = "dashed" }
  :set{ xlabel = theta, ylabel = "slider velocity [m/s]" }
mot:panel(2, 2):line{ x = angle, y = dvs, color = BLUE }
  :set{ xlabel = theta, ylabel = "velocity − ideal [m/s]" }
save(mot, "benchmark_a_motion")

-- full mode: the motion as an animation at 0.003 times real time (8 s), the clearance drawn
-- 12 times as large, the journal's path and the slider's acceleration beside
if not quick then
  output.animation(run, outdir, "benchmark_a", { fps = 25, speed = t_end / 8, trace = "pin",
    magnify = 12, channel = "slider.ax", title = "Benchmark A" }, figures)
end

print("  figures: " .. table.concat(figures, ", "))
