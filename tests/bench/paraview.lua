-- SPDX-License-Identifier: MIT
-- Benchmark (make bench): run:paraview, the ParaView files of the slider-crank with a flexible
-- slider (spec000.lua, 4 elements) over 2 s of motion kept every 0.01 s: 201 frames of bodies,
-- mesh and contacts.  The time is the export's alone (the simulation is run once before),
-- wall clock, the median of 3 exports.
local spec000 = require "spec000"
local now = require("sweepcore").now

local sys = spec000.slider_crank{ nx = 2 }
local run = sys:simulate{ t = 2, report = 1e-2, method = "bdf", rtol = 1e-5, atol = 1e-8, max_order = 3,
  motion = 0.01, record = { "crank.phi", "rod.x", "slider.n5.x" }, quiet = true }
local dir = os.tmpname()
os.remove(dir)
mech.mkdir(dir)
local times, frames = {}, 0
for _ = 1, 3 do
  local t0 = now()
  frames = select(2, run:paraview(dir .. "/crank"))
  times[#times + 1] = now() - t0
end
os.execute("rm -rf '" .. dir .. "'")
table.sort(times)
local t, target = times[2], 5
print("run:paraview: the slider-crank with a flexible slider, 2 s of motion")
print(string.format("  %-22s %7.2f s  (%d frames, %.1f ms each)   target: under %g s  [%s]", "ParaView export", t, frames,
  1e3 * t / frames, target, t < target and "met" or "NOT met"))
