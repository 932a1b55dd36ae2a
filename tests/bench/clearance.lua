-- SPDX-License-Identifier: MIT
-- Benchmark (make bench): the two slider-cranks with clearance of shared/spec/benchmarks.md.
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

-- target: the wall time the issue asks for (nil: none), printed beside the figure
local function bench(label, build, opts, target)
  local sys, t, joint = build()
  opts.t, opts.report, opts.quiet = t, 1e-5, true
  opts.record = { joint .. ".impacts", joint .. ".fn", "slider.ax" }
  local best
  for _ = 1, 3 do -- best of three
    local run = sys:simulate(opts)
    if not best or run.stats.wall_time < best.stats.wall_time then best = run end
  end
  local s = best.stats
  local verdict = target and string.format("   target: under %g s  [%s]", target,
    s.wall_time < target and "met" or "NOT met") or ""
  print(string.format("  %-34s %7.3f s %8d steps %5d impacts %9d rhs%s", label, s.wall_time, s.steps,
    best[joint .. ".impacts"][#best], s.rhs_evals, verdict))
end

print("benchmark A: 0.5 mm at the piston pin, 5000 rpm, two revolutions (0.024 s)")
-- targets: A in under 0.05 s (real-time factor 0.5; an ode45 code of the same model in
-- Octave takes several seconds), B in under 0.2 s (real time)
bench("dopri5, rtol 1e-6", benchmark_a, { method = "dopri5", rtol = 1e-6 }, 0.05)
bench("bdf, rtol 1e-6", benchmark_a, { method = "bdf", rtol = 1e-6 })
bench("rk4, h = 1e-6 s (papers)", benchmark_a, { method = "rk4", h = 1e-6 })
print("benchmark B: slider in a guide, 1 mm per side, free motion for 0.2 s")
bench("dopri5, rtol 1e-6", benchmark_b, { method = "dopri5", rtol = 1e-6 }, 0.2)
bench("bdf, rtol 1e-6", benchmark_b, { method = "bdf", rtol = 1e-6 })
