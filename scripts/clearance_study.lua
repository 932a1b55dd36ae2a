-- SPDX-License-Identifier: MIT
-- A parameter study with the sweep module (mechlua-sweep(3)): how much a revolute clearance
-- joint at the piston pin of a driven slider-crank adds to the slider's acceleration, to the
-- contact forces and to the energy lost, over the radial clearance and the crank speed.
-- The mechanism is benchmark A of the benchmarks module ([Flores & Ambrosio 2004] of
-- mechlua-references(7), as scripts/benchmark_a.lua runs it): the journal on the rod in a
-- bearing of radius 10 mm on the slider, the contact law of [Lankarani & Nikravesh 1990]
-- (K = 3.35e10 N/m^1.5, e = 0.9) and Ambrosio's regularised Coulomb friction (mu = 0.01).
--
--   grid    radial clearance 0 (the ideal pin), 0.1, 0.25 and 0.5 mm
--           x crank speed 2000, 3000 and 5000 rpm: 12 cases
--   case    the crank driven at constant speed from the ideal mechanism's velocities; after
--           a transient of one revolution (the journal falls across its clearance and
--           strikes its bearing), three revolutions are measured: the largest |slider
--           acceleration|, the largest contact force, the number of impacts and the energy
--           the contact takes (its damping and its friction)
--
--   mechlua scripts/clearance_study.lua [output-folder] [quick]     (default folder: out)
--   mpirun -n 4 mechlua scripts/clearance_study.lua [output-folder]
--
-- Each case runs in a worker process of its own, as many at a time as the machine has
-- cores; under mpirun the ranks share the cases out and the first rank prints and draws.
-- "quick" measures one revolution after half a revolution of transient (for the tests);
-- nothing else changes.  Writes into <output-folder>/clearance_study/: results.csv (a row
-- per case: the parameters, the values above, how the case ended), cases/<key>/run.csv
-- (each case's run every 1e-5 s, parameters in the header) and clearance_study.png/.pdf
-- (the peak acceleration and the energy lost per revolution against the clearance, a line
-- per speed).  A second run of the script takes the cases from that folder instead of
-- running them again, and prints the same table; a changed script runs them all again.
local sweep = require "sweep"
local benchmarks = require "benchmarks"
local plot = require "plot"
local output = require "output"

local outdir, quick = require("options").script_args(arg)

local p = {
  bearing_radius = 10e-3,                           -- m (the journal: this less the clearance)
  K = 3.35e10,                                      -- N/m^1.5, as scripts/benchmark_a.lua
  restitution = 0.9,                                -- Lankarani-Nikravesh
  mu = 0.01, v0 = 1e-4, v1 = 1e-3,                  -- Ambrosio friction: -, m/s, m/s
  transient = quick and 0.5 or 1,                   -- revolutions left out
  revolutions = quick and 1 or 3,                   -- revolutions measured
  report = 1e-5,                                    -- s
  method = "dopri5", rtol = 1e-9, atol = 1e-12,
}
local design = sweep.grid({ rpm = { 2000, 3000, 5000 }, clearance_um = { 0, 100, 250, 500 } },
  { "rpm", "clearance_um" })

-- The channels every run records, and those of the clearance joint.
local motion = { "crank.phi", "slider.x", "slider.vx", "slider.ax" }
local joint = { "pin.fn", "pin.ft", "pin.penetration", "pin.impacts", "system.contact_damping",
  "system.friction" }

-- A case: the mechanism at one speed with one clearance (0: the ideal pin), run through the
-- transient and the revolutions measured; its values are taken over the rows after the
-- transient.  The run's CSV goes into the case's folder.
local function case(c, dir)
  local omega = mech.rpm(c.rpm)
  local revolution = 2 * math.pi / omega
  local t0 = p.transient * revolution
  local clearance = nil
  if c.clearance_um > 0 then
    clearance = benchmarks.a_clearance{ radial = c.clearance_um * 1e-6, radius = p.bearing_radius, K = p.K,
      restitution = p.restitution, mu = p.mu, v0 = p.v0, v1 = p.v1 }
  end
  local record = table.move(motion, 1, #motion, 1, {})
  if clearance then table.move(joint, 1, #joint, #record + 1, record) end
  local params = { rpm = c.rpm, clearance = c.clearance_um * 1e-6 }
  for k, v in pairs(p) do params[k] = v end
  local run = benchmarks.a{ speed = omega, clearance = clearance }:simulate{
    t = t0 + p.revolutions * revolution, report = p.report, method = p.method, rtol = p.rtol,
    atol = p.atol, record = record, params = params }
  local n, t = #run, run.t
  local first = 1
  while first < n and t[first] < t0 - 1e-9 do first = first + 1 end
  local ax = run["slider.ax"]
  local peak = 0
  for i = first, n do peak = math.max(peak, math.abs(ax[i])) end
  local out = { peak_acc = peak, impacts = 0, energy_lost = 0, files = { run:csv(dir .. "/run.csv") } }
  if clearance then
    local fn, hits = run["pin.fn"], run["pin.impacts"]
    local force = 0
    for i = first, n do force = math.max(force, fn[i]) end
    out.peak_force = force
    out.impacts = math.tointeger(math.floor(hits[n] - hits[first] + 0.5))
    out.energy_lost = run["system.contact_damping"][n] - run["system.contact_damping"][first]
      + run["system.friction"][n] - run["system.friction"][first]
  end
  return out
end

mech.mkdir(outdir)
local folder = outdir .. "/clearance_study"
local res = sweep.run{ design, case = case, folder = folder, params = p }

if not sweep.leader() then return end -- under mpirun, the first rank prints and draws

-- ---- the table -------------------------------------------------------------------------

print(string.format("mechlua %s: clearance study, benchmark A slider-crank, %d cases (%d run, %d from %s)%s",
  mech.version, #res, res.ran, res.resumed, folder, quick and " (quick)" or ""))
print(string.format("  %g revolution%s measured after %g of transient; Lankarani-Nikravesh K = %.3g N/m^1.5, "
  .. "e = %g; Ambrosio friction mu = %g", p.revolutions, p.revolutions == 1 and "" or "s", p.transient, p.K,
  p.restitution, p.mu))
print("    rpm  clearance   peak |slider.ax|   of the ideal   contact force   impacts   energy lost")
local ideal = {}
for i = 1, #res do
  local r = res[i]
  if r.clearance_um == 0 and r.status == "ok" then ideal[r.rpm] = r.peak_acc end
end
for i = 1, #res do
  local r = res[i]
  local what = r.clearance_um == 0 and "ideal" or string.format("%.2f mm", r.clearance_um * 1e-3)
  if r.status ~= "ok" then
    print(string.format("  %5d  %9s   %s: %s", r.rpm, what, r.status, tostring(r.message)))
  else
    local ratio = ideal[r.rpm] and string.format("%12.2f", r.peak_acc / ideal[r.rpm]) or string.rep(" ", 12)
    local force = r.peak_force and string.format("%11.0f N", r.peak_force) or string.format("%13s", "-")
    print(string.format("  %5d  %9s   %12.0f m/s^2   %s   %s   %7d   %9.4f J", r.rpm, what, r.peak_acc, ratio,
      force, r.impacts, r.energy_lost))
  end
end
print(string.format("  %d cases ok, %d failed; results: %s", res.ok, res.failed, res.path))

-- ---- the figure ------------------------------------------------------------------------

local BLUE, VERMILLION, GREEN = 2, 3, 4   -- the plot palette's #0072B2, #D55E00 and #009E73
local colors = { [2000] = BLUE, [3000] = VERMILLION, [5000] = GREEN }
local fig = plot.figure{ rows = 2, width = 160, height = 130,
  title = string.format("Benchmark A, a clearance at the piston pin: crank angle %g to %g turns",
    p.transient, p.transient + p.revolutions) }
local acc, lost = fig:panel(1), fig:panel(2)
for _, rpm in ipairs{ 2000, 3000, 5000 } do
  local c, a, e = {}, {}, {}
  for i = 1, #res do
    local r = res[i]
    if r.rpm == rpm and r.status == "ok" then
      c[#c + 1], a[#a + 1], e[#e + 1] = r.clearance_um * 1e-3, r.peak_acc, r.energy_lost / p.revolutions
    end
  end
  local color = colors[rpm]
  acc:line{ x = c, y = a, color = color, label = string.format("%d rpm", rpm) }
    :scatter{ x = c, y = a, color = color, size = 4 }
  lost:line{ x = c, y = e, color = color }:scatter{ x = c, y = e, color = color, size = 4 }
end
local span = { -0.025, 0.525 } -- mm, the same for both panels
acc:set{ xlabel = "", ylabel = "peak slider acceleration [m/s^2]", ylog = true, legend = "upper left",
  xlim = span }
lost:set{ xlabel = "radial clearance [mm] (0: the ideal pin)", ylabel = "energy lost per revolution [J]",
  xlim = span }
local figures = {}
output.figure(fig, folder, "clearance_study", figures)
print("  figures: " .. table.concat(figures, ", "))
