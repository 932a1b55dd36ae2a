-- SPDX-License-Identifier: MIT
-- Benchmark (make bench): the two slider-cranks with clearance of the benchmarks module.
-- A: 0.5 mm radial clearance at the piston pin (Lankarani-Nikravesh K = 3.35e10, e = 0.9,
-- Ambrosio friction mu = 0.01), 5000 rpm, two revolutions; B: Flores, Leine and Glocker's
-- slider in a guide with 1 mm per side (Flores K = 1e10, e = 0.4, mu = 0.01), free motion
-- for 0.2 s.  Prints wall time, steps, impacts and right-hand-side evaluations.

local benchmarks = require "benchmarks"

local function benchmark_a()
  return benchmarks.a{ clearance = benchmarks.a_clearance() }, 0.024, "pin"
end

local function benchmark_b()
  return benchmarks.b{}, 0.2, "guide"
end

-- Each figure row: wall time (best of three), steps, impacts, right-hand sides and, where a
-- reference run is given, the largest deviation of the slider's acceleration from it over
-- the whole run (every 1e-5 s): the figure that tells a converged setting from a cheap one.
-- target: the wall time the issue asks for (nil: none), printed beside the figure.
local function bench(label, build, opts, target, ref)
  local sys, t, joint = build()
  opts.t, opts.report, opts.quiet = t, 1e-5, true
  opts.record = { joint .. ".impacts", joint .. ".fn", "slider.ax" }
  local best
  for _ = 1, 3 do -- best of three
    local run = sys:simulate(opts)
    if not best or run.stats.wall_time < best.stats.wall_time then best = run end
  end
  local s = best.stats
  local dev = ""
  if ref then
    local a, b, d = best["slider.ax"], ref["slider.ax"], 0
    for i = 1, #b do d = math.max(d, math.abs(a[i] - b[i])) end
    dev = string.format("  max|a - a_ref| %8.3g m/s^2", d)
  end
  local verdict = target and string.format("   target: under %g s  [%s]", target,
    s.wall_time < target and "met" or "NOT met") or ""
  print(string.format("  %-44s %7.3f s %8d steps %4d impacts %8d rhs%s%s", label, s.wall_time,
    s.steps, best[joint .. ".impacts"][#best], s.rhs_evals, dev, verdict))
  return best
end

print("benchmark A: 0.5 mm at the piston pin, 5000 rpm, two revolutions (0.024 s)")
-- The reference: DOPRI5 at rtol 1e-12 (23 impacts; peak slider acceleration 2.56e5 m/s^2).
-- Converged settings count its 23 impacts and follow its motion to within a few per cent
-- of that peak (at an impact's peak, a shift of its time by a microsecond alone makes that
-- much); looser ones add impacts, and the second revolution's motion differs by up to half
-- the peak.  Target: the converged answer in under 0.05 s (real-time factor 2; an ode45
-- code of the same model in Octave takes several seconds).
local ref = bench("reference: dopri5, rtol 1e-12", benchmark_a, { method = "dopri5", rtol = 1e-12 })
print(" converged:")
bench("dopri5, rtol 1e-9", benchmark_a, { method = "dopri5", rtol = 1e-9 }, 0.05, ref)
bench("bdf, rtol 1e-9", benchmark_a, { method = "bdf", rtol = 1e-9 }, nil, ref)
bench("rk4, h = 1e-7 s", benchmark_a, { method = "rk4", h = 1e-7 }, nil, ref)
print(" speed figures only (not converged: wrong impact count and motion):")
bench("dopri5, rtol 1e-6", benchmark_a, { method = "dopri5", rtol = 1e-6 }, nil, ref)
bench("rk4, h = 1e-6 s (the papers' step)", benchmark_a, { method = "rk4", h = 1e-6 }, nil, ref)
print("benchmark B: slider in a guide, 1 mm per side, free motion for 0.2 s")
-- B's free motion is sensitive to every perturbation: its impact count moves between 110
-- and 116 from rtol 1e-6 to 1e-11, so these are speed figures; compare its statistics
-- (impact force levels, the slider's orbit), not its trajectory.
bench("dopri5, rtol 1e-6", benchmark_b, { method = "dopri5", rtol = 1e-6 }, 0.2)
bench("bdf, rtol 1e-6", benchmark_b, { method = "bdf", rtol = 1e-6 })
