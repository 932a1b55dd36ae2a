-- SPDX-License-Identifier: MIT
-- [Zheng & Wang, Sec. 4.1], the stick-slip oscillator with a flexible slider (X. Zheng and
-- Q. Wang, frictional translational joint with a flexible slider and clearance; paper 000
-- of mechlua-references(7)): a
-- 0.6 x 0.5 m slider of 5 x 5 bilinear quadrilaterals (36 nodes, numbered row by row from
-- the top-left corner as in the paper's Fig. 6) in a guide with 2.5 mm of clearance above
-- and below, pulled by 1.5 sin(pi t / 10) N and held by a 1 N/m spring, every surface node a
-- Kelvin-Voigt contact with the trial-and-error stick-slip friction of Eq. 13
-- (mu = 0.15, mu' = 0.20).
--
--   mechlua scripts/spec000_oscillator.lua [output-folder] [quick]   (default folder: out)
--
-- "quick" simulates 8 s instead of 40 s (for the tests).  Writes spec000_oscillator.csv
-- (every 2 ms, parameters in the header) and the figures of the paper's Figs. 7-11, PNG
-- and PDF: the corner nodes' x velocities (Fig. 7), their y velocities (Fig. 8), the sum
-- of the nodal friction forces (Fig. 9), the friction force at each surface node (Fig. 10),
-- the corners' normal and friction forces with their mean tangential velocity (Fig. 11).
--
-- This project's choices where the paper is silent: the force acts on the right face at
-- 0.05 m above the bottom (nodes 36 and 30 share it), the spring on the left face at
-- mid-height (nodes 13 and 19, two springs of 0.5 N/m along x); the slider starts centred
-- at rest and first falls 2.5 mm onto the lower surface.  The paper's figures come from an
-- explicit fixed-step code; here CVODE's BDF (rtol 1e-6) integrates the stiff system
-- (beta K with beta = 0.544 s and the contact dampers chi = 1000 N s/m on nodes of 1 to 4 g).
local spec000 = require "spec000"
local plot = require "plot"
local output = require "output"

local outdir, quick = require("options").script_args(arg)

local p = {
  duration = quick and 8 or 40,   -- s
  report = 2e-3,                  -- s
  method = "bdf", rtol = 1e-6, atol = 1e-9,
}
local sys, slider = spec000.oscillator{}
for k, v in pairs(spec000.OSCILLATOR) do if k ~= "mesh" then p[k] = v end end -- the rectangle

local corners = { 1, 6, 31, 36 }
local upper, lower = {}, {}
for k = 1, 6 do upper[k], lower[k] = k, 30 + k end
local record = { "slider.ft", "slider.fn", "slider.vx", "slider.strain", "system.energy",
  "system.friction", "system.contact_damping", "system.dissipated", "system.applied",
  "system.balance" }
for _, k in ipairs(corners) do
  for _, q in ipairs{ "vx", "vy", "ux", "uy" } do record[#record + 1] = string.format("slider.n%d.%s", k, q) end
end
for _, list in ipairs{ upper, lower } do
  for _, k in ipairs(list) do
    record[#record + 1] = string.format("slider.n%d.fn", k)
    record[#record + 1] = string.format("slider.n%d.ft", k)
  end
end

local run = sys:simulate{ t = p.duration, report = p.report, method = p.method, rtol = p.rtol,
  atol = p.atol, record = record, params = p, motion = not quick and 0.16 or nil } -- for the animation
mech.mkdir(outdir)
local csv = run:csv(outdir .. "/spec000_oscillator.csv")

-- ---- numbers ---------------------------------------------------------------------------

local n = #run
local function col(k, q) return run[string.format("slider.n%d.%s", k, q)] end
local after = 1 -- s: the first fall onto the lower surface is over (a choice of ours)
local touched, peak_top, peak_bottom = {}, 0, 0
for k = 1, 36 do touched[k] = false end
for _, list in ipairs{ upper, lower } do
  for _, k in ipairs(list) do
    local fn = col(k, "fn")
    touched[k] = fn:max() > 0
    for i = 1, n do
      if run.t[i] >= after then
        if k <= 6 then peak_top = math.max(peak_top, fn[i]) else peak_bottom = math.max(peak_bottom, fn[i]) end
      end
    end
  end
end
local inner = {}
for k = 2, 5 do if touched[k] then inner[#inner + 1] = k end end
-- stick: the mean corner velocity below 1 mm/s
local vbar, stuck = {}, 0
for i = 1, n do
  vbar[i] = (col(1, "vx")[i] + col(6, "vx")[i] + col(31, "vx")[i] + col(36, "vx")[i]) / 4
  if math.abs(vbar[i]) < 1e-3 then stuck = stuck + 1 end
end
local st = run.stats
print(string.format("mechlua %s: [Zheng & Wang, Sec. 4.1], stick-slip oscillator with a flexible slider "
  .. "(25 elements), %g s%s", mech.version, p.duration, quick and " (quick)" or ""))
print(string.format("  upper surface touched by nodes %s; nodes 2-5 %s", (touched[1] and "1 " or "")
  .. (touched[6] and "6" or ""), #inner == 0 and "never" or ("at " .. table.concat(inner, ", "))))
print(string.format("  peak normal force after %g s: %.3f N at the top corners, %.3f N at the "
  .. "bottom", after, peak_top, peak_bottom))
print(string.format("  sum of friction forces %.4f to %.4f N (mu m g = %.4f N); stuck %.0f%% of the "
  .. "time", run["slider.ft"]:min(), run["slider.ft"]:max(), p.mu * 0.1 * p.gravity, 100 * stuck / n))
print(string.format("  corner x velocity %.3f to %.3f m/s; y velocity within %.2e m/s",
  math.min(col(1, "vx"):min(), col(36, "vx"):min()), math.max(col(1, "vx"):max(), col(36, "vx"):max()),
  math.max(col(1, "vy"):max(), -col(1, "vy"):min(), col(6, "vy"):max(), -col(6, "vy"):min())))
local balance = math.max(run["system.balance"]:max(), -run["system.balance"]:min())
print(string.format("  energy: friction took %.4f J, contact damping %.4f J, Rayleigh damping "
  .. "%.4f J; the balance closes to %.1e J", run["system.friction"][n],
  run["system.contact_damping"][n], run["system.dissipated"][n], balance))
print(string.format("  run: %s, %d steps (%d rejected), %d right-hand sides, %d events, %.2f s",
  st.method, st.steps, st.rejected, st.rhs_evals, st.events, st.wall_time))
print(string.format("  %d rows written to %s", n, csv))

-- ---- figures ---------------------------------------------------------------------------

local t = run.t
local BLUE, VERMILLION, GREEN, PURPLE = 2, 3, 4, 5
local figures = {}
local function save(fig, name) output.figure(fig, outdir, name, figures) end -- PNG and PDF
local title = "Zheng & Wang, Sec. 4.1: stick-slip oscillator, flexible slider (25 elements)"
local colors = { [1] = BLUE, [6] = VERMILLION, [31] = GREEN, [36] = PURPLE }

-- Fig. 7: x velocities of the corners (they move together: the slider is stiff enough)
local f7 = plot.figure{ title = title, width = 160, height = 90 }
for _, k in ipairs(corners) do
  f7:panel(1):line{ x = t, y = col(k, "vx"), color = colors[k], label = "node " .. k }
end
f7:panel(1):set{ xlabel = "t [s]", ylabel = "x velocity [m/s]", legend = "upper right" }
save(f7, "spec000_fig7_vx")

-- Fig. 8: y velocities, (a) the top corners, (b) the bottom corners
local f8 = plot.figure{ rows = 2, title = title, width = 160, height = 130 }
for row, pair in ipairs{ { 1, 6 }, { 31, 36 } } do
  for _, k in ipairs(pair) do
    f8:panel(row):line{ x = t, y = col(k, "vy"), color = colors[k], label = "node " .. k }
  end
  f8:panel(row):set{ xlabel = row == 2 and "t [s]" or "", ylabel = "y velocity [m/s]",
    legend = "upper right" }
end
save(f8, "spec000_fig8_vy")

-- Fig. 9: the sum of the nodal friction forces
save(plot.figure{ title, x = t, y = run["slider.ft"], color = BLUE, xlabel = "t [s]",
  ylabel = "sum of friction forces [N]", width = 160, height = 90 }, "spec000_fig9_friction")

-- Fig. 10: friction at each surface node, upper surface (1-6) and lower surface (31-36)
local f10 = plot.figure{ rows = 2, title = title, width = 160, height = 150 }
for row, list in ipairs{ upper, lower } do
  for _, k in ipairs(list) do
    f10:panel(row):line{ x = t, y = col(k, "ft"), label = "node " .. k }
  end
  f10:panel(row):set{ xlabel = row == 2 and "t [s]" or "",
    ylabel = (row == 1 and "upper" or "lower") .. " surface, friction [N]", legend = "upper right" }
end
save(f10, "spec000_fig10_friction_nodes")

-- Fig. 11: (a) normal forces at the corners, (b) their friction forces and, (c), the mean
-- tangential velocity of the corners
local f11 = plot.figure{ rows = 3, title = title, width = 160, height = 180 }
for _, k in ipairs(corners) do
  f11:panel(1):line{ x = t, y = col(k, "fn"), color = colors[k], label = "node " .. k }
  f11:panel(2):line{ x = t, y = col(k, "ft"), color = colors[k], label = "node " .. k }
end
f11:panel(1):set{ ylabel = "normal force [N]", legend = "upper right", ylim = { -0.05, 1.2 } }
f11:panel(2):set{ ylabel = "friction force [N]", legend = "upper right" }
f11:panel(3):line{ x = t, y = vbar, color = "black" }
  :set{ xlabel = "t [s]", ylabel = "mean corner v_t [m/s]" }
save(f11, "spec000_fig11_corners")

-- full mode: the 40 s as an animation at 4 times real time, the slider's deformation drawn 10
-- times as large, the friction and normal forces on its nodes as arrows
if not quick then
  output.animation(run, outdir, "spec000_oscillator", { fps = 25, speed = 4, deform = 10,
    channel = "slider.vx", title = "Stick-slip oscillator" }, figures)
end

print("  figures: " .. table.concat(figures, ", "))
