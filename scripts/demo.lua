-- SPDX-License-Identifier: MIT
-- mechlua demo: the ideal slider-crank of benchmark A (module benchmarks, [Flores & Ambrosio 2004]) driven
-- at 5000 rpm for two crank revolutions, simulated as a multibody system and checked
-- against the closed-form kinematics.  Writes its results as CSV.
--
--   mechlua scripts/demo.lua [output-folder]      (default: out)
--
-- This scenario grows into the flagship: clearance joints and figures come next.
local slidercrank = require "slidercrank"
local plot = require "plot"

local outdir = arg and arg[1] or "out"
local p = {
  crank = 0.05, rod = 0.12,            -- m
  m_crank = 0.17, m_rod = 0.25, m_slider = 0.14,   -- kg
  J_crank = 1e-4, J_rod = 4e-4,        -- kg m^2 (the guide keeps the slider from turning)
  speed_rpm = 5000,
  revolutions = 2,
  report = 1e-5,                       -- s
}

-- sys, run and the bodies are globals, so that `mechlua -i scripts/demo.lua` leaves them
-- to explore in the REPL.
sys = mech.planar{ gravity = { 0, -9.81 } }
crank = sys:body{ name = "crank", mass = p.m_crank, inertia = p.J_crank, at = { p.crank / 2, 0 } }
rod = sys:body{ name = "rod", mass = p.m_rod, inertia = p.J_rod, at = { p.crank + p.rod / 2, 0 } }
slider = sys:body{ name = "slider", mass = p.m_slider, at = { p.crank + p.rod, 0 } }
sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "main_bearing" }
sys:revolute{ crank, rod, at = { p.crank, 0 }, name = "crank_pin" }
sys:revolute{ rod, slider, at = { p.crank + p.rod, 0 }, name = "piston_pin" }
sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, name = "guide" }
local omega = mech.rpm(p.speed_rpm)
sys:drive{ crank, speed = omega, name = "motor" }

local t_end = p.revolutions * 2 * math.pi / omega
run = sys:simulate{ t = t_end, report = p.report, method = "dopri5", rtol = 1e-9, atol = 1e-12,
  record = { "crank.phi", "slider.x", "slider.vx", "slider.ax", "motor.torque", "piston_pin.f",
    "guide.fn", "system.energy" },
  params = p }

mech.mkdir(outdir)
local path = run:csv(outdir .. "/slider_crank_ideal.csv")

-- the simulation against the closed form
local k = slidercrank.kinematics{ crank = p.crank, rod = p.rod }
local dx, da = 0, 0
local x, ax, phi = run["slider.x"], run["slider.ax"], run["crank.phi"]
for i = 1, #run do
  local X, _, A = k(phi[i], omega, 0)
  dx = math.max(dx, math.abs(x[i] - X))
  da = math.max(da, math.abs(ax[i] - A))
end

print(string.format("mechlua %s: ideal slider-crank, %g m crank, %g m rod, %g rpm, %d revolutions",
  mech.version, p.crank, p.rod, p.speed_rpm, p.revolutions))
print(string.format("  slider stroke %.4f m, acceleration %.1f to %.1f m/s^2",
  x:max() - x:min(), ax:min(), ax:max()))
print(string.format("  driving torque %.3f to %.3f N m; piston pin force up to %.1f N",
  run["motor.torque"]:min(), run["motor.torque"]:max(), run["piston_pin.f"]:max()))
print(string.format("  against the closed form: position within %.1e m, acceleration within %.1e m/s^2",
  dx, da))
local st = run.stats
print(string.format("  %s: %d steps, %d right-hand sides, %.3f s", st.method, st.steps, st.rhs_evals,
  st.wall_time))
print(string.format("  %d rows written to %s", #run, path))

-- Figures: the slider's motion over the two revolutions, and its phase portrait.
local figures = {}
local motion = plot.figure{ rows = 3, cols = 1, width = 160, height = 170,
  title = string.format("Ideal slider-crank, %g rpm", p.speed_rpm) }
motion:panel(1):line{ x = run.t, y = run["slider.x"] }:set{ ylabel = "x [m]", xlabel = "" }
motion:panel(2):line{ x = run.t, y = run["slider.vx"] }:set{ ylabel = "v [m/s]", xlabel = "" }
motion:panel(3):line{ x = run.t, y = run["slider.ax"] }:set{ ylabel = "a [m/s^2]", xlabel = "t [s]" }
local phase = plot.figure{ "Phase portrait of the slider", x = run["slider.x"], y = run["slider.vx"],
  xlabel = "x [m]", ylabel = "v [m/s]", width = 100, height = 90 }
for _, ext in ipairs{ "png", "pdf" } do
  figures[#figures + 1] = motion:save(outdir .. "/slider_motion." .. ext)
  figures[#figures + 1] = phase:save(outdir .. "/slider_phase." .. ext)
end
print("  figures: " .. table.concat(figures, ", "))
