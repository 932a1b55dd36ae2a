-- SPDX-License-Identifier: MIT
-- Benchmark (make bench): run:animate of benchmark A (the slider-crank with 0.5 mm of clearance
-- at the piston pin, two revolutions at 5000 rpm, DOPRI5 rtol 1e-8, a state kept every 1.2e-4
-- s): a 200-frame GIF with the journal's path traced, the clearance magnified 12 times and the
-- slider's acceleration beside; then the same frames as an MP4 where ffmpeg is installed.
-- Figures: the animation's wall time (median of 3; ffmpeg encodes on another core meanwhile)
-- beside the target of 5 s, the time per frame, and the file's size.
local benchmarks = require "benchmarks"
local movie = require "movie"

local sys = benchmarks.a{ clearance = benchmarks.a_clearance() }
local run = sys:simulate{ t = 0.024, report = 1e-5, rtol = 1e-8, motion = 1.2e-4, record = { "slider.ax" },
  quiet = true }
local dir = os.tmpname()
os.remove(dir)
mech.mkdir(dir)

local wall = require("sweepcore").now

local function bench(label, file)
  local times, r = {}, nil
  for i = 1, 3 do
    local c0 = wall()
    r = run:animate{ file = dir .. "/" .. file, fps = 25, speed = 0.003, trace = "pin", magnify = 12,
      channel = "slider.ax" }
    times[i] = wall() - c0
  end
  table.sort(times)
  local f = io.open(dir .. "/" .. file, "rb")
  local bytes = f:seek("end")
  f:close()
  print(string.format("  %-26s %6.2f s  %4d frames  %5.1f ms a frame  %7.0f kB   target: under 5 s  [%s]",
    label, times[2], r.frames, 1e3 * times[2] / r.frames, bytes / 1e3, times[2] < 5 and "met" or "NOT met"))
end

print("run:animate: benchmark A, two revolutions (0.024 s) in 200 frames")
bench("GIF", "a.gif")
if movie.ffmpeg() then bench("MP4", "a.mp4") end
os.execute("rm -rf '" .. dir .. "'")
