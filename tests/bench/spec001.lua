-- SPDX-License-Identifier: MIT
-- Benchmark (make bench): the free spatial slider-crank of [Spatial revolute paper] with
-- radial and axial clearance in the crank's revolute joint and LuGre friction (the paper's
-- Tab. 2, as scripts/spec001.lua runs it), 1 s of motion recorded every 1e-5 s as the paper
-- reports.  Prints wall time (the median of three runs), steps, impacts and right-hand sides
-- for DOPRI5 with located onsets at the scenario's tolerance and one looser, beside the paper's
-- fixed-step budget (RK4 at 1e-6 s: 1e6 steps, 4e6 right-hand sides) and the target (under
-- 2 s); then the paper's own method, RK4 at h = 1e-6 s, once.
local spec001 = require "spec001"

local fmt = string.format
local CONTACTS = { "radial_a", "radial_b", "axial_a", "axial_b" }
local record = { "slider.ay" }
for _, k in ipairs(CONTACTS) do record[#record + 1] = "crank_pin0." .. k .. ".impacts" end

local function impacts(run)
  local n, total = #run.t, 0
  for _, k in ipairs(CONTACTS) do total = total + run["crank_pin0." .. k .. ".impacts"][n] end
  return total
end

local function bench(label, opts, times, target)
  opts.t, opts.report, opts.record, opts.quiet = 1, 1e-5, record, true
  local runs = {}
  for k = 1, times do runs[k] = spec001.model{ clearance = { friction = "lugre" } }:simulate(opts) end
  table.sort(runs, function(a, b) return a.stats.wall_time < b.stats.wall_time end)
  local best = runs[(#runs + 1) // 2] -- the median run (the same motion each time)
  local s = best.stats
  local verdict = target and fmt("   target: under %g s  [%s]", target, s.wall_time < target and "met" or "NOT met")
    or ""
  print(fmt("  %-36s %7.3f s %8d steps %5d impacts %9d rhs  peak |a| %7.1f m/s^2%s", label, s.wall_time, s.steps,
    impacts(best), s.rhs_evals, math.max(best["slider.ay"]:max(), -best["slider.ay"]:min()), verdict))
end

print("spatial slider-crank, radial and axial clearance 0.5 mm, LuGre friction, 1 s (report 1e-5 s)")
print("  the paper's budget: RK4 at h = 1e-6 s, 1e6 steps (4e6 right-hand sides)")
bench("DOPRI5 rtol 1e-8 (scripts/spec001.lua)", { method = "dopri5", rtol = 1e-8, atol = 1e-11 }, 3, 2)
bench("DOPRI5 rtol 1e-6", { method = "dopri5", rtol = 1e-6, atol = 1e-9 }, 3, 2)
bench("RK4 h = 1e-6 s (the paper's method)", { method = "rk4", h = 1e-6 }, 1)
