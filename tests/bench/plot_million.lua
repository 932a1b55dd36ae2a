-- SPDX-License-Identifier: MIT
-- Benchmark (make bench): saving figures of a million points.  Prints the CPU time
-- (os.clock) of fig:save for each case beside the target, one second, and beside the
-- fixed cost of saving a figure of three points.
local plot = require "plot"

local sys = mech.planar{ gravity = { 0, -9.81 } }
local bob = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 0.5, 0 } }
sys:revolute{ sys.ground, bob, at = { 0, 0 } }
local run = sys:simulate{ t = 1, report = 1e-6, record = { "bob.x", "bob.y" }, quiet = true }
local n = #run
local u, v = {}, {}
for i = 1, n do u[i], v[i] = math.cos(i * 1e-3), math.sin(i * 1e-4) end

local dir = os.tmpname()
os.remove(dir)
mech.mkdir(dir)

local function time(name, fig, file)
  local c = os.clock()
  fig:save(dir .. "/" .. file)
  local dt = os.clock() - c
  print(string.format("  %-52s %6.3f s   target: under 1 s  [%s]", name, dt,
    dt < 1 and "met" or "missed"))
end

print(string.format("plot: fig:save of %d points, 160 x 100 mm", n))
time("3 points, PNG at 300 dpi (the fixed cost)", plot.figure{ "t", y = { 1, 3, 2 } }, "small.png")
time("line of a run's columns, PNG at 300 dpi", plot.figure{ "t", x = run.t, y = run["bob.x"] },
  "line.png")
time("the same, PDF", plot.figure{ "t", x = run.t, y = run["bob.x"] }, "line.pdf")
local zoom = plot.figure{ "t", x = run.t, y = run["bob.x"] }
zoom:panel(1):inset{ at = { 0.6, 0.6, 0.35, 0.35 }, xlim = { 0.2, 0.3 } }
time("the same with an inset, PNG", zoom, "zoom.png")
time("curve that turns back (x, y of the bob), PNG", plot.figure{ "t", x = run["bob.x"],
  y = run["bob.y"] }, "curve.png")
time("scatter from Lua arrays, PNG", plot.figure{ "t", x = u, y = v, kind = "scatter", size = 1 },
  "scatter.png")
os.execute("rm -rf '" .. dir .. "'")
