-- SPDX-License-Identifier: MIT
-- Benchmark B of the benchmarks module (mechlua(3)): the slider-crank whose slider moves in a guide
-- with clearance, after P. Flores, R. Leine and C. Glocker, "Modeling and analysis of planar
-- rigid multibody systems with translational clearance joints based on the non-smooth
-- dynamics approach", Multibody Syst. Dyn. 23 (2010) 165-190.  No driver: the mechanism
-- moves freely for 0.2 s from the crank at 150 rad/s, the rod at -75 rad/s and the slider
-- at -0.01 rad/s, and the slider's four corners strike the guide's two surfaces.
--
--   mechlua scripts/benchmark_b.lua [output-folder] [quick]      (default folder: out)
--
-- "quick" runs 0.02 s instead of 0.2 s (for the tests); nothing else changes.  Writes
-- benchmark_b.csv (every 1e-5 s, parameters in the header) and three figures, PNG and PDF:
-- the slider's offset and tilt, the corners' contact forces on the top and bottom surfaces,
-- and the crank's angular velocity.
--
-- An approximation of the original: Flores, Leine and Glocker solve the rigid, nonsmooth
-- problem with Moreau-Jean time-stepping (impulsive impacts with Newton's restitution law,
-- set-valued Coulomb friction).  Here the contacts are compliant: each corner against each
-- surface is a stiff, dissipative force law, integrated with the rest of the mechanism.
--
-- Choices where the benchmark is silent:
--  * Normal law: Flores et al. 2011 (mechlua-contact(3)), whose damping makes the
--    restitution of a single impact close to the target at low e (0.36 for e = 0.4), with
--    exponent 1.5 and K = 1e10 N/m^1.5: the Hertz stiffness of a steel sphere of radius
--    4.4 mm on a steel plane (mech.stiffness.sphere), a corner rounded as such corners
--    are.  It keeps the penetrations at about 30 micrometres, 3% of the clearance: near
--    enough to rigid for these figures.  With K = 1e11 they fall to 11 micrometres and
--    the crank's speed changes by less than 1%; with 1e9 they reach 65 micrometres.
--  * Friction: Ambrosio's regularised Coulomb law, mu = 0.01 above v1 = 1e-3 m/s, falling
--    to 0 at v0 = 1e-4 m/s (the library's defaults), along the guide at each corner.
--  * Gravity along -y; the slider starts centred in its guide and parallel to it, at rest
--    (the pins carry 150 r - 75 l = 0 to it); Baumgarte alpha = beta = 5 for the pins.
--  * Integrator: DOPRI5 at rtol 1e-9, atol 1e-12, the contact onsets located as events.
--    Up to about 0.1 s, runs at rtol 1e-8, 1e-9 and 1e-10 agree to four digits; later
--    the sequence of impacts, and with it the slider's tilt, depends on the integration
--    error as it would on any small change of the data, while the crank's speed agrees
--    within 1%.  Peak forces and penetrations are read from the samples every 1e-5 s:
--    within 2% of those sampled every 1e-6 s.
local benchmarks = require "benchmarks"
local plot = require "plot"
local output = require "output"

local outdir, quick = require("options").script_args(arg)

local p = {
  crank = 0.153, rod = 0.306,                         -- m
  m_crank = 0.038, m_rod = 0.038, m_slider = 0.076,   -- kg
  J_crank = 7.4e-5, J_rod = 5.9e-4, J_slider = 2.7e-6,  -- kg m^2
  length = 0.1, height = 0.05,                        -- m, the slider
  gap = 1e-3,                                         -- m, clearance on each side
  omega_crank = 150, omega_rod = -75, omega_slider = -0.01,  -- rad/s, at t = 0
  gravity = 9.81,                                     -- m/s^2, along -y
  K = 1e10,                                           -- N/m^1.5, Flores et al. 2011
  restitution = 0.4,
  mu = 0.01, v0 = 1e-4, v1 = 1e-3,                    -- Ambrosio friction: -, m/s, m/s
  baumgarte = 5,                                      -- 1/s, alpha = beta
  duration = quick and 0.02 or 0.2,                   -- s
  report = 1e-5,                                      -- s
  method = "dopri5", rtol = 1e-9, atol = 1e-12,
}

local sys = benchmarks.b{ crank = p.crank, rod = p.rod, m_crank = p.m_crank, m_rod = p.m_rod,
  m_slider = p.m_slider, J_crank = p.J_crank, J_rod = p.J_rod, J_slider = p.J_slider,
  length = p.length, height = p.height, gap = p.gap, omega_crank = p.omega_crank,
  omega_rod = p.omega_rod, omega_slider = p.omega_slider, gravity = p.gravity,
  baumgarte = p.baumgarte,
  law = mech.contact.flores{ K = p.K, restitution = p.restitution },
  friction = mech.friction.ambrosio{ mu = p.mu, v0 = p.v0, v1 = p.v1 } }

-- corner k against surface s: "guide.c<k>_<s>"; corners 1 and 2 are the lower ones
local contacts = {}
for _, s in ipairs{ "bottom", "top" } do
  for k = 1, 4 do contacts[#contacts + 1] = string.format("guide.c%d_%s", k, s) end
end
local record = { "crank.phi", "crank.omega", "slider.x", "slider.y", "guide.offset", "guide.tilt",
  "guide.fn", "guide.ft", "guide.impacts", "system.energy", "system.contact_damping",
  "system.friction", "system.balance" }
for _, c in ipairs(contacts) do
  for _, q in ipairs{ "gap", "fn", "impacts" } do record[#record + 1] = c .. "." .. q end
end

local run = sys:simulate{ t = p.duration, report = p.report, method = p.method, rtol = p.rtol,
  atol = p.atol, record = record, params = p, motion = p.duration / 250 } -- for the animation
mech.mkdir(outdir)
local csv = run:csv(outdir .. "/benchmark_b.csv")

-- ---- numbers ------------------------------------------------------------------------

local n = #run
local pen, fmax, hits = 0, 0, { bottom = 0, top = 0 }
for _, c in ipairs(contacts) do
  pen = math.max(pen, -run[c .. ".gap"]:min())
  fmax = math.max(fmax, run[c .. ".fn"]:max())
  local s = c:match("_(%a+)$")
  hits[s] = hits[s] + run[c .. ".impacts"][n]
end
local offset, tilt, w = run["guide.offset"], run["guide.tilt"], run["crank.omega"]
local balance = math.max(run["system.balance"]:max(), -run["system.balance"]:min())
local st = run.stats

print(string.format("mechlua %s: benchmark B, slider-crank with a %g mm clearance on each side of "
  .. "the slider, free motion for %g s%s", mech.version, p.gap * 1e3, p.duration,
  quick and " (quick)" or ""))
print(string.format("  contact: Flores et al. 2011, K = %.3g N/m^1.5, e = %g; Ambrosio friction "
  .. "mu = %g (compliant approximation of the nonsmooth original)", p.K, p.restitution, p.mu))
print(string.format("  impacts: %d (%d on the bottom surface, %d on the top); max penetration "
  .. "%.1f micrometres = %.3f of the clearance; corner force up to %.0f N", run["guide.impacts"][n],
  hits.bottom, hits.top, pen * 1e6, pen / p.gap, fmax))
-- (a value that rounds to zero is printed as 0, not -0.000)
local function milli(v) return math.abs(v) < 5e-7 and 0 or v * 1e3 end
print(string.format("  slider: offset %.3f to %.3f mm, tilt %.3f to %.3f mrad", milli(offset:min()),
  milli(offset:max()), milli(tilt:min()), milli(tilt:max())))
print(string.format("  crank: %.2f rad/s at the start, %.2f to %.2f, %.2f at the end; %.2f "
  .. "revolutions", w[1], w:min(), w:max(), w[n], run["crank.phi"][n] / (2 * math.pi)))
print(string.format("  energy: %.4f J at the start, %.4f J at the end; contact damping takes %.4f J "
  .. "and friction %.4f J; the balance closes to %.1e J", run["system.energy"][1],
  run["system.energy"][n], run["system.contact_damping"][n], run["system.friction"][n], balance))
print(string.format("  run: %s, %d steps (%d rejected), %d right-hand sides, %d events, %.3f s",
  st.method, st.steps, st.rejected, st.rhs_evals, st.events, st.wall_time))
print(string.format("  %d rows written to %s", n, csv))

-- ---- figures ------------------------------------------------------------------------

local t, off_mm, tilt_mrad, up, down = {}, {}, {}, {}, {}
for i = 1, n do
  t[i] = run.t[i] * 1e3
  off_mm[i], tilt_mrad[i] = offset[i] * 1e3, tilt[i] * 1e3
end
for i = 1, 2 do up[i], down[i] = p.gap * 1e3, -p.gap * 1e3 end
local span = { 0, p.duration * 1e3 }
local time = "t [ms]"
local title = string.format("Benchmark B: c = %g mm, e = %g, K = %g × 10^%d N/m^1.5", p.gap * 1e3,
  p.restitution, p.K / 10 ^ math.floor(math.log(p.K, 10)), math.floor(math.log(p.K, 10)))

local BLUE, VERMILLION = 2, 3   -- the plot palette's #0072B2 and #D55E00
local figures = {}
local function save(fig, name) output.figure(fig, outdir, name, figures) end -- PNG and PDF

-- the slider's offset from the guide's axis and its tilt; the dashed lines are where an
-- untilted slider touches a surface (the legend has room above them)
local slider = plot.figure{ rows = 2, width = 160, height = 130, title = title }
slider:panel(1):line{ x = span, y = up, label = "± clearance: an untilted slider touches the guide",
    color = "gray", style = "dashed" }
  :line{ x = span, y = down, color = "gray", style = "dashed" }
  :line{ x = t, y = off_mm, color = BLUE }
  :set{ xlabel = "", ylabel = "slider offset y [mm]", ylim = { -1.5 * p.gap * 1e3, 1.9 * p.gap * 1e3 },
    legend = "upper center" }
slider:panel(2):line{ x = t, y = tilt_mrad, color = BLUE }
  :set{ xlabel = time, ylabel = "slider tilt [mrad]" }
save(slider, "benchmark_b_slider")

-- the corners' normal forces, one panel per corner, placed as the corners are: the upper
-- corners (4 left, 3 right) against the top surface, the lower ones (1 left, 2 right)
-- against the bottom (no corner ever reaches the other surface); one scale per surface
local forces = plot.figure{ rows = 2, cols = 2, width = 170, height = 130, title = title }
for row, side in ipairs{ { "top", 4, 3, "upper" }, { "bottom", 1, 2, "lower" } } do
  local function fn(col) return run[string.format("guide.c%d_%s.fn", side[col + 1], side[1])] end
  local top = math.max(fn(1):max(), fn(2):max(), 1) -- N; 1 for a surface that no corner touches
  for col, where in ipairs{ "left", "right" } do
    local k = side[col + 1]
    forces:panel(row, col):line{ x = t, y = fn(col), color = BLUE }
      :set{ title = string.format("corner %d (%s %s)", k, side[4], where),
        xlabel = row == 2 and time or "", ylabel = col == 1 and side[1] .. " surface, force [N]" or "",
        ylim = { -0.05 * top, 1.08 * top } }
  end
end
save(forces, "benchmark_b_contact_forces")

-- the crank's angular velocity
save(plot.figure{ title, x = t, y = w, color = BLUE, xlabel = time,
  ylabel = "crank angular velocity [rad/s]", width = 160, height = 90 }, "benchmark_b_crank")

-- full mode: the motion as an animation, 20 times slower than real time, with the slider's
-- tilt in its guide beside
if not quick then
  output.animation(run, outdir, "benchmark_b", { fps = 25, speed = p.duration / 10, trace = "slider", magnify = 10,
    channel = "guide.tilt", title = "Benchmark B" }, figures)
end

print("  figures: " .. table.concat(figures, ", "))
