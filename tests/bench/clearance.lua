-- SPDX-License-Identifier: MIT
-- Benchmark (make bench): the two slider-cranks with clearance of shared/spec/benchmarks.md.
-- A: 0.5 mm radial clearance at the piston pin (Lankarani-Nikravesh K = 3.35e10, e = 0.9,
-- Ambrosio friction mu = 0.01), 5000 rpm, two revolutions; B: Flores, Leine and Glocker's
-- slider in a guide with 1 mm per side (Flores K = 1e10, e = 0.4, mu = 0.01), free motion
-- for 0.2 s.  Prints wall time, steps, impacts and right-hand-side evaluations.

local g = 9.81

local function benchmark_a()
  local r, l, w = 0.05, 0.12, mech.rpm(5000)
  local sys = mech.planar{ gravity = { 0, -g } }
  local crank = sys:body{ name = "crank", mass = 0.17, inertia = 1e-4, at = { r / 2, 0 },
    velocity = { 0, r * w / 2 }, omega = w }
  local rod = sys:body{ name = "rod", mass = 0.25, inertia = 4e-4, at = { r + l / 2, 0 },
    velocity = { 0, r * w / 2 }, omega = -r * w / l }
  local slider = sys:body{ name = "slider", mass = 0.14, at = { r + l, 0 } }
  sys:revolute{ sys.ground, crank, at = { 0, 0 } }
  sys:revolute{ crank, rod, at = { r, 0 } }
  sys:revolute{ slider, rod, at = { r + l, 0 }, name = "pin", clearance = { radial = 0.5e-3,
    radius = 10e-3, law = mech.contact.lankarani_nikravesh{ K = 3.35e10, restitution = 0.9 },
    friction = mech.friction.ambrosio{ mu = 0.01, v0 = 1e-4, v1 = 1e-3 } } }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 } }
  sys:drive{ crank, speed = w }
  return sys, 0.024, "pin"
end

local function benchmark_b()
  local r, l = 0.153, 0.306
  local sys = mech.planar{ gravity = { 0, -g } }
  local crank = sys:body{ name = "crank", mass = 0.038, inertia = 7.4e-5, at = { r / 2, 0 },
    velocity = { 0, 150 * r / 2 }, omega = 150 }
  local rod = sys:body{ name = "rod", mass = 0.038, inertia = 5.9e-4, at = { r + l / 2, 0 },
    velocity = { 0, 150 * r - 75 * l / 2 }, omega = -75 }
  local slider = sys:body{ name = "slider", mass = 0.076, inertia = 2.7e-6, at = { r + l, 0 },
    omega = -0.01 }
  sys:revolute{ sys.ground, crank, at = { 0, 0 } }
  sys:revolute{ crank, rod, at = { r, 0 } }
  sys:revolute{ rod, slider, at = { r + l, 0 } }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, name = "guide", clearance = { gap = 1e-3,
    length = 0.1, height = 0.05, law = mech.contact.flores{ K = 1e10, restitution = 0.4 },
    friction = mech.friction.ambrosio{ mu = 0.01 } } }
  return sys, 0.2, "guide"
end

local function bench(label, build, opts)
  local sys, t, joint = build()
  opts.t, opts.report, opts.quiet = t, 1e-5, true
  opts.record = { joint .. ".impacts", joint .. ".fn", "slider.ax" }
  local best
  for _ = 1, 3 do -- best of three
    local run = sys:simulate(opts)
    if not best or run.stats.wall_time < best.stats.wall_time then best = run end
  end
  local s = best.stats
  print(string.format("  %-34s %7.3f s %8d steps %5d impacts %9d rhs", label, s.wall_time, s.steps,
    best[joint .. ".impacts"][#best], s.rhs_evals))
end

print("benchmark A: 0.5 mm at the piston pin, 5000 rpm, two revolutions (0.024 s)")
bench("dopri5, rtol 1e-6", benchmark_a, { method = "dopri5", rtol = 1e-6 })
bench("bdf, rtol 1e-6", benchmark_a, { method = "bdf", rtol = 1e-6 })
bench("rk4, h = 1e-6 s (papers)", benchmark_a, { method = "rk4", h = 1e-6 })
print("benchmark B: slider in a guide, 1 mm per side, free motion for 0.2 s")
bench("dopri5, rtol 1e-6", benchmark_b, { method = "dopri5", rtol = 1e-6 })
bench("bdf, rtol 1e-6", benchmark_b, { method = "bdf", rtol = 1e-6 })
