-- SPDX-License-Identifier: MIT
-- Allocation failure: a representative scenario (a planar model with a clearance joint,
-- a few ms simulated with events and a Lua channel, run:csv, a figure saved as PNG) run
-- once per k with the k-th allocation failing (Lua's or libmech's), in one process.
-- Every run must succeed or fail with a Lua "not enough memory" error (or libmech's "out
-- of memory" status); nothing may crash, leak or leave a temporary file behind.  Needs
-- a build with MECH_FAULT_INJECTION (the sanitizer build).
--
-- The sweep runs in a child mechlua (this script with the argument "child"), whose
-- sanitizer reports, LeakSanitizer's at exit included, this test reads (tests/lib/oomtest.lua):
-- any fails the test.
package.path = (os.getenv("MECHLUA_SOURCE") or ".") .. "/tests/lib/?.lua;" .. package.path
local oomtest = require "oomtest"
oomtest.skip_unless_available()

oomtest.parent_checks_child()

-- ---- the child: the sweep --------------------------------------------------------------------

local fi = require "faultinject"
local tap = oomtest.child_tap()

local plot = require "plot"

local dir = os.tmpname()
os.remove(dir)
mech.mkdir(dir)
local csv_path, png_path = dir .. "/run.csv", dir .. "/fig.png"

-- The scenario: returns normally or raises.  Nothing it creates outlives it but files.
local function scenario()
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local crank = sys:body{ name = "crank", mass = 0.17, inertia = 1e-4, at = { 0.025, 0 } }
  local rod = sys:body{ name = "rod", mass = 0.25, inertia = 4e-4, at = { 0.11, 0 } }
  local slider = sys:body{ name = "slider", mass = 0.14, at = { 0.17, 0 } }
  sys:revolute{ sys.ground, crank, at = { 0, 0 } }
  sys:revolute{ crank, rod, at = { 0.05, 0 } }
  sys:revolute{ rod, slider, at = { 0.17, 0 }, name = "pin", clearance = { radial = 0.5e-3,
    radius = 10e-3, law = mech.contact.lankarani_nikravesh{ K = 3.35e10, restitution = 0.9 },
    friction = mech.friction.ambrosio{ mu = 0.01, v0 = 1e-4, v1 = 1e-3 } } }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 } }
  sys:drive{ crank, speed = mech.rpm(5000), name = "motor" }
  local run = sys:simulate{ t = 2e-3, report = 1e-4, quiet = true,
    record = { "slider.x", "pin.fn", speed = function(t, s) return s:value("slider.vx") end },
    events = { { name = "hit", channel = "pin.penetration", value = 0, direction = 1 } } }
  run:csv(csv_path, { params = { case = "alloc" } })
  local fig = plot.figure{ width = 60, height = 40, dpi = 30 }
  fig:panel(1):line{ x = run.t, y = run["slider.x"], label = "x" }:set{ title = "slider" }
  fig:save(png_path)
end

local function clean()
  os.remove(csv_path)
  os.remove(png_path)
end

local out_of_memory = oomtest.out_of_memory

-- Fails the k-th allocation in mode `mode` for k = 1, 2, ... until the scenario runs
-- through without reaching k.  Returns how many runs failed cleanly, the bad ones and k.
local function sweep(mode)
  local clean_failures, bad, k = 0, {}, 0
  while true do
    k = k + 1
    clean()
    collectgarbage()
    fi.arm(k, mode)
    local ok, err = pcall(scenario)
    local counted = fi.disarm()
    collectgarbage()
    if ok then
      if counted < k then break end -- the k-th allocation never came: done
    elseif out_of_memory(err) then
      clean_failures = clean_failures + 1
    else
      bad[#bad + 1] = string.format("k = %d: %s", k, tostring(err))
    end
  end
  return clean_failures, bad, k
end

clean()
scenario() -- a run without failures, as the reference
local reference_csv = io.open(csv_path):read("a")
tap.ok(#reference_csv > 0 and io.open(png_path) ~= nil, "the scenario runs without failures")

for _, mode in ipairs{ "fail", "once" } do
  local failures, bad, k = sweep(mode)
  tap.ok(failures > 0, string.format("mode %s: %d of %d runs ran out of memory", mode, failures, k))
  tap.is(#bad, 0, "mode " .. mode .. ": every failing run failed with 'not enough memory'")
  for i = 1, math.min(#bad, 10) do tap.diag(bad[i]) end
  local csv = io.open(csv_path)
  tap.ok(csv and csv:read("a") == reference_csv,
    "mode " .. mode .. ": the run past the last allocation writes the reference CSV")
  if csv then csv:close() end
end

-- No temporary file may be left: the folder holds the last run's two files only.
local ls = io.popen("ls -A '" .. dir .. "'")
local left = {}
for name in ls:lines() do left[#left + 1] = name end
ls:close()
table.sort(left)
tap.is(table.concat(left, " "), "fig.png run.csv", "no temporary file is left in the folder")

clean()
os.remove(dir)
