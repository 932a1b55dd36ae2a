-- SPDX-License-Identifier: MIT
-- Allocation failure: a representative scenario (a planar model with a clearance joint,
-- a few ms simulated with events and a Lua channel, run:csv, a figure saved as PNG) run
-- once per k with the k-th allocation failing (Lua's or libmech's), in one process.
-- Every run must succeed or fail with a Lua "not enough memory" error (or libmech's "out
-- of memory" status); nothing may crash, leak or leave a temporary file behind.  Needs
-- a build with MECH_FAULT_INJECTION (the sanitizer build).
--
-- The sweep runs in a child mechlua (this script with the argument "child"), whose
-- sanitizer reports, LeakSanitizer's at exit included, this test reads: reports of bugs
-- recorded in tests/fuzz/FINDINGS.md and not fixed yet are listed as known (KNOWN below:
-- remove an entry with its fix), any other fails the test.
if not package.preload.faultinject then
  print("1..0 # SKIP this build has no allocation fault injection (MECH_FAULT_INJECTION)")
  os.exit(0)
end

-- Known findings: the top of the stack of a sanitizer report ("leak: f < g < h").
local KNOWN = {}

if arg[1] ~= "child" then
  local tap = require "tap"
  local self_path = arg[0]
  local interp = arg[-1]
  local errfile = os.tmpname()
  local function sh(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
  local child = io.popen(sh(interp) .. " " .. sh(self_path) .. " child 2>" .. sh(errfile))
  for line in child:lines() do
    local verdict, name = line:match("^RESULT (%a+) (.*)$")
    if verdict then tap.ok(verdict == "ok", name)
    elseif line:match("^DIAG ") then tap.diag(line:sub(6)) end
  end
  local _, _, code = child:close()
  local f = io.open(errfile)
  local stderr = f and f:read("a") or ""
  if f then f:close() end
  os.remove(errfile)
  -- the sanitizer reports: the first four function names of each report's stack
  local unknown, seen = {}, {}
  for para in (stderr .. "\n\n"):gmatch("(.-)\n%s*\n") do
    local kind = para:match("^%s*Direct leak") and "leak" or para:match("ERROR: AddressSanitizer: ([%w-]+)")
      or para:match("runtime error") and "ubsan"
    if kind then
      local names = {}
      for fn in para:gmatch("#%d+ 0x%x+ in ([%w_]+)") do
        if not fn:match("^__") and not fn:match("^mech_[mcr]e?alloc$") and not fn:match("^[mcr]e?alloc$")
          and #names < 3 then
          names[#names + 1] = fn
        end
      end
      local sig = kind .. ": " .. table.concat(names, " < ")
      if KNOWN[sig] then
        if not seen[sig] then tap.diag("known finding " .. KNOWN[sig]) end
      else
        unknown[#unknown + 1] = sig
      end
      seen[sig] = true
    end
  end
  tap.is(#unknown, 0, "no sanitizer report but those of known findings")
  for i = 1, math.min(#unknown, 10) do tap.diag(unknown[i]) end
  tap.ok(code == 0 or next(seen) ~= nil, "the child ended well (exit status " .. tostring(code) .. ")")
  if code ~= 0 and next(seen) == nil then tap.diag(stderr:sub(1, 2000)) end
  tap.done()
  return
end

-- ---- the child: the sweep --------------------------------------------------------------------

local fi = require "faultinject"
local tap = {
  ok = function(c, name) print((c and "RESULT ok " or "RESULT not ") .. name) return c end,
  diag = function(s) print("DIAG " .. tostring(s)) end,
}
function tap.is(a, b, name)
  if not tap.ok(a == b, name) then tap.diag("got " .. tostring(a) .. ", want " .. tostring(b)) end
end

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

-- A clean failure: Lua's memory error, or libmech's status text for it.
local function out_of_memory(msg)
  return type(msg) == "string" and (msg:find("not enough memory", 1, true)
    or msg:find("out of memory", 1, true)) ~= nil
end

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
